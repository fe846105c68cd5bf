#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: physical_block_size, io_min, io_opt and rotational (configfs and ramdiskctl create) reach the queue, blockdev and mkfs.xfs; rotational changes live; logical blocks above the page size work where the kernel caches them and are refused elsewhere
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blockdev mkfs.xfs mkfs.ext4 xfs_io
load_module nr_devices=0
queue() { cat "/sys/block/${RD_DEV#/dev/}/queue/$1"; }

# A 512e disk striped as a RAID would be: 512-byte logical blocks, 4 KiB
# physical, 8 KiB chunks, 64 KiB stripes, and spinning.
rd_configure geo size=2G physical_block_size=4096 io_min=8192 io_opt=65536 rotational=1 power=1
assert_eq "$(queue logical_block_size)" 512 "logical block size"
assert_eq "$(queue physical_block_size)" 4096 "physical block size"
assert_eq "$(queue minimum_io_size)" 8192 "minimum I/O size"
assert_eq "$(queue optimal_io_size)" 65536 "optimal I/O size"
assert_eq "$(queue rotational)" 1 "rotational"
assert_eq "$(blockdev --getss --getpbsz --getiomin --getioopt "$RD_DEV" | xargs)" \
	"512 4096 8192 65536" "blockdev's view"

# mkfs.xfs reads the topology: sectors of the physical block, a stripe
# unit and width from the minimum and optimal I/O sizes.
mkfs.xfs -f "$RD_DEV" >"$RD_TMP/mkfs" 2>&1 || fail "mkfs.xfs: $(cat "$RD_TMP/mkfs")"
grep -q "sectsz=4096" "$RD_TMP/mkfs" || fail "mkfs.xfs did not take the 4 KiB physical sector: $(cat "$RD_TMP/mkfs")"
grep -Eq "sunit=2 +swidth=16 blks" "$RD_TMP/mkfs" ||
	fail "mkfs.xfs did not take the stripe from io_min and io_opt: $(cat "$RD_TMP/mkfs")"

# rotational is the one geometry attribute that changes while powered.
echo 0 >"$RD_CONFIGFS/geo/rotational" || fail "rotational=0 refused while powered"
assert_eq "$(queue rotational)" 0 "rotational after writing 0"
echo 1 >"$RD_CONFIGFS/geo/rotational" || fail "rotational=1 refused while powered"
assert_eq "$(queue rotational)" 1 "rotational after writing 1"
for attr in physical_block_size io_min io_opt block_size; do
	old=$(cat "$RD_CONFIGFS/geo/$attr")
	run_cmd 1 bash -c "echo 16384 >$RD_CONFIGFS/geo/$attr"
	grep -q "Device or resource busy" <<<"$err" || fail "$attr while powered: $err"
	assert_eq "$(cat "$RD_CONFIGFS/geo/$attr")" "$old" "$attr after the refused change"
done
rd_unconfigure geo

# The defaults: what the device reported before these attributes existed.
rd_configure plain size=64M power=1
assert_eq "$(cat "$RD_CONFIGFS/plain/physical_block_size") $(cat "$RD_CONFIGFS/plain/io_min") $(cat "$RD_CONFIGFS/plain/io_opt") $(cat "$RD_CONFIGFS/plain/rotational")" \
	"0 0 0 0" "default attributes"
assert_eq "$(queue physical_block_size) $(queue minimum_io_size) $(queue optimal_io_size) $(queue rotational)" \
	"4096 4096 0 0" "default geometry"
rd_unconfigure plain

# Logical blocks above the page size: from 6.15 the block layer caches
# them in large folios (BLK_MAX_BLOCK_SIZE), before it cannot.
IFS=. read -r major minor _ <<<"$RD_KVER"
mkdir -p "$RD_TMP/big"
if ((major > 6 || (major == 6 && minor >= 15))); then
	rd_configure big block_size=16384 size=320M power=1
	on_exit "umount $RD_TMP/big 2>/dev/null"
	assert_eq "$(queue logical_block_size) $(queue physical_block_size)" "16384 16384" \
		"a 16 KiB logical block"
	# a write of less than a block is refused; a block goes through whole
	head -c 16384 /dev/urandom >"$RD_TMP/block"
	run_cmd 1 dd if="$RD_TMP/block" of="$RD_DEV" bs=4096 count=1 oflag=direct status=none
	dd if="$RD_TMP/block" of="$RD_DEV" bs=16384 seek=3 oflag=direct status=none ||
		fail "a 16 KiB direct write"
	cmp <(dd if="$RD_DEV" bs=16384 skip=3 count=1 iflag=direct status=none) "$RD_TMP/block" ||
		fail "the 16 KiB block read back differs"
	mkfs.xfs -f -b size=16k -s size=16k "$RD_DEV" >"$RD_TMP/mkfs" 2>&1 ||
		fail "mkfs.xfs -b size=16k: $(cat "$RD_TMP/mkfs")"
	mount "$RD_DEV" "$RD_TMP/big" || fail "mount of xfs with 16 KiB blocks"
	head -c 5M /dev/urandom >"$RD_TMP/data"
	if ! { cp "$RD_TMP/data" "$RD_TMP/big/data" && umount "$RD_TMP/big" &&
		mount "$RD_DEV" "$RD_TMP/big"; }; then
		fail "xfs with 16 KiB blocks: write and remount"
	fi
	cmp "$RD_TMP/data" "$RD_TMP/big/data" || fail "xfs with 16 KiB blocks: data differs"
	umount "$RD_TMP/big"
	# ext4 with blocks above the page size is younger than the block
	# layer's support: where the file system refuses, say so and go on
	mkfs.ext4 -q -F -b 16384 "$RD_DEV" >"$RD_TMP/mkfs" 2>&1 ||
		fail "mkfs.ext4 -b 16384: $(cat "$RD_TMP/mkfs")"
	if mount "$RD_DEV" "$RD_TMP/big" 2>"$RD_TMP/mount"; then
		if ! { cp "$RD_TMP/data" "$RD_TMP/big/data" && umount "$RD_TMP/big" &&
			mount "$RD_DEV" "$RD_TMP/big"; }; then
			fail "ext4 with 16 KiB blocks: write and remount"
		fi
		cmp "$RD_TMP/data" "$RD_TMP/big/data" || fail "ext4 with 16 KiB blocks: data differs"
		umount "$RD_TMP/big"
		echo "ext4 with 16 KiB blocks works on $RD_KVER"
	else
		echo "ext4 on $RD_KVER does not mount 16 KiB blocks: $(cat "$RD_TMP/mount")"
	fi
	rd_unconfigure big
	# the write cache keeps whole pages: a cut would tear a 16 KiB block
	rd_configure wb16 block_size=16384 size=64M
	run_cmd 1 bash -c "echo writeback >$RD_CONFIGFS/wb16/cache_mode"
	grep -q "Invalid argument" <<<"$err" || fail "writeback with a 16 KiB block: $err"
	dmesg | grep -q "wb16: cache_mode writeback needs block_size at most the page size" ||
		fail "no log line for writeback with a 16 KiB block"
	rd_unconfigure wb16
else
	rd_configure small size=64M
	run_cmd 1 bash -c "echo 16384 >$RD_CONFIGFS/small/block_size"
	grep -q "Invalid argument" <<<"$err" || fail "block_size 16384 on $RD_KVER: $err"
	dmesg | grep -q "small: block_size 16384 is not a power of two from 512 to 4096, this kernel's largest" ||
		fail "no log line for block_size 16384 on $RD_KVER"
	assert_eq "$(cat "$RD_CONFIGFS/small/block_size")" 512 "block_size after the refusal"
	rd_unconfigure small
fi

# ramdiskctl create: each geometry option reaches its attribute
RD_DEV=$("$RD_BIN/ramdiskctl" create --name geoctl --size 64M --physical-block-size 4K \
	--io-min 16K --io-opt 64K --rotational) || fail "ramdiskctl create with geometry options"
on_exit "$RD_BIN/ramdiskctl remove geoctl"
assert_eq "$(queue physical_block_size) $(queue minimum_io_size) $(queue optimal_io_size) $(queue rotational)" \
	"4096 16384 65536 1" "geometry from ramdiskctl create"
echo ok
