#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: at mem_limit writes fail with ENOSPC, the guest stays up, earlier data verifies, the limit can rise while powered; a discard that cannot zero its unaligned head (a page a checkpoint shares, no page left to copy it into) fails with ENOSPC although the rest of its range succeeds, and leaves that head as it was
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp mkfs.ext4

load_module size=64M mem_limit=8M
dev=/dev/ramdisk0
assert_eq "$(sysfs_stat ramdisk0 mem_limit)" $((8 << 20)) "mem_limit in sysfs"

head -c 8M /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of=$dev bs=1M oflag=direct status=none
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 2048 "pages at the limit"

# One page more: refused with ENOSPC, counted, nothing allocated.
status=0
dd if="$RD_TMP/data" of=$dev bs=4096 count=1 seek=$((8 << 8)) oflag=direct status=none \
	2>"$RD_TMP/err" || status=$?
[ "$status" != 0 ] || fail "a write beyond mem_limit succeeded"
grep -q "No space left on device" "$RD_TMP/err" || fail "write beyond mem_limit: $(cat "$RD_TMP/err")"
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 2048 "pages after the refused write"
assert_eq "$(sysfs_stat ramdisk0 alloc_failures)" 1 "alloc_failures after one refused page"

# Overwriting allocated pages still works at the limit.
dd if="$RD_TMP/data" of=$dev bs=1M count=1 oflag=direct status=none
dd if=$dev of="$RD_TMP/back" bs=1M count=8 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "data written before the limit changed"

# Discard makes room again.
blkdiscard -o 0 -l 1M $dev
dd if="$RD_TMP/data" of=$dev bs=1M count=1 seek=20 oflag=direct status=none
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 2048 "pages after discard and rewrite"

# A file system on a full device: writes fail, nothing crashes, umount
# works, and what was written before the limit is there. On a configfs
# device, whose limit can be raised afterwards.
rd_configure fs size=64M mem_limit=12M power=1
fsdev=$RD_DEV
fsname=${fsdev#/dev/}
mkfs.ext4 -q -F -E nodiscard "$fsdev"
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
mount -o errors=continue "$fsdev" "$mnt"
on_exit "umount $mnt"
head -c 2M /dev/urandom >"$RD_TMP/early"
cp "$RD_TMP/early" "$mnt/early"
sync
early=$(md5sum <"$RD_TMP/early")
status=0
dd if=/dev/urandom of="$mnt/big" bs=1M count=40 conv=fsync status=none 2>"$RD_TMP/err" || status=$?
[ "$status" != 0 ] || fail "40 MiB fitted into a 12 MiB mem_limit"
# EIO or ENOSPC; or EROFS when ext4 aborted its journal on an earlier
# failed write before dd's fsync came back (seen on the slow debug kernel)
if grep -q "Read-only file system" "$RD_TMP/err"; then
	dmesg | grep -q "Aborting journal on device $fsname" ||
		fail "EROFS from the file system without a journal abort: $(cat "$RD_TMP/err")"
else
	grep -qE "Input/output error|No space left on device" "$RD_TMP/err" ||
		fail "the file system reported: $(cat "$RD_TMP/err")"
fi
[ "$(sysfs_stat "$fsname" alloc_failures)" -gt 0 ] || fail "alloc_failures did not count"
[ "$(sysfs_stat "$fsname" allocated_pages)" -le $((12 << 8)) ] || fail "pages above the limit"
# Read through the file system: the data, or EIO when ext4 shut itself
# down because its journal could not be written (since 6.6 an aborted
# journal is a shutdown; whether the journal needs a new page in time
# depends on how fast the kernel is). Never other data.
echo 3 >/proc/sys/vm/drop_caches
if got=$(md5sum <"$mnt/early" 2>"$RD_TMP/err"); then
	assert_eq "$got" "$early" "file written before the limit"
	echo "early file read back through the mounted file system"
else
	grep -q "Input/output error" "$RD_TMP/err" || fail "reading the early file: $(cat "$RD_TMP/err")"
	dmesg | grep -q "Aborting journal on device $fsname" ||
		fail "EIO reading the early file without a journal abort"
	echo "ext4 shut down after its journal failed; reading again after a remount"
fi
umount "$mnt"
# With room again, a fresh mount (replaying the journal if it has to) finds
# the file as it was written.
rd_configure fs mem_limit=0
mount "$fsdev" "$mnt"
assert_eq "$(md5sum <"$mnt/early")" "$early" "file written before the limit, after a remount"
umount "$mnt"

# configfs: mem_limit may change while powered and applies at once.
rd_configure lim size=16M mem_limit=1M power=1
rd=${RD_DEV#/dev/}
expect_fail dd if="$RD_TMP/data" of="/dev/$rd" bs=1M count=2 oflag=direct status=none
assert_eq "$(sysfs_stat "$rd" allocated_pages)" 256 "pages at a 1 MiB limit"
rd_configure lim mem_limit=4M
assert_eq "$(sysfs_stat "$rd" mem_limit)" $((4 << 20)) "mem_limit after raising it"
dd if="$RD_TMP/data" of="/dev/$rd" bs=1M count=2 oflag=direct status=none
assert_eq "$(sysfs_stat "$rd" allocated_pages)" 512 "pages after raising the limit"
rd_configure lim mem_limit=0
dd if="$RD_TMP/data" of="/dev/$rd" bs=1M count=8 oflag=direct status=none
assert_eq "$(sysfs_stat "$rd" allocated_pages)" 2048 "pages with no limit"

# BLKDISCARD sends an unaligned range as a chain of bios: the head up to
# the next page, then the rest. At the limit, with a checkpoint sharing
# the head's page, the head cannot be zeroed (its page must be copied
# first); the module used to write the rest's success over the head's
# error, and the call reported the whole range discarded while the head
# still read its data (rdfuzz, seed 20261209, step 172707).
echo "a discard that fails in part fails"
dd if="$RD_TMP/data" of="/dev/$rd" bs=4096 seek=234 count=2 oflag=direct status=none
echo +held >"$RD_CONFIGFS/lim/checkpoints"
on_exit "echo -held >$RD_CONFIGFS/lim/checkpoints"
rd_configure lim mem_limit=513
# the head is the last sector of page 234; the rest, pages 235 to 254,
# needs no page of its own (their pages just go), so it succeeds
run_cmd 1 blkdiscard -o 962048 -l $((512 + 20 * 4096)) "/dev/$rd"
grep -q "No space left on device" <<<"$err" || fail "blkdiscard: $err"
cmp -s <(dd if="/dev/$rd" bs=512 skip=1879 count=1 iflag=direct status=none) \
	<(dd if="$RD_TMP/data" bs=512 skip=7 count=1 status=none) ||
	fail "the head the discard could not zero changed"
cmp -s <(dd if="/dev/$rd" bs=4096 skip=235 count=1 iflag=direct status=none) <(head -c 4096 /dev/zero) ||
	fail "the part of the range the discard could zero was not"
echo ok
