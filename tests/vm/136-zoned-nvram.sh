#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a zoned device in reserved memory keeps its zones across power-off and rmmod/insmod (write pointers, full and empty zones; open ones come back closed) with its data, writes go on at the saved pointers, after an unorderly detach what lies past a pointer reads zeros; another geometry, a plain attach, a saved pointer past its zone's capacity, writeback and too many zones are refused with the reason logged and the range untouched; it takes no checkpoints
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone cmp dd sha256sum python3
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER's block layer cannot host a zoned bio-based device (131 tests the refusal)"
[ -c /dev/mem ] || skip "/dev/mem is not a character device (a kernel without CONFIG_DEVMEM)"

phys=$((512 << 20))
# the header page and 15 zones of 4 MiB taking 3 MiB each, the first
# conventional
psize=$((60 * 1048576 + 4096))
zs=8192
geometry=("phys_addr=$phys" "phys_size=$psize" zone_size=4M zone_capacity=3M zone_nr_conv=1)

# zone IDX: "COND WP" of zone IDX (zone_state)
zone() { zone_state "$dev" "$zs" "$1"; }
zones() {
	local i
	for i in 1 2 3 4 5 6; do
		echo -n "$(zone $i) / "
	done
}
# put ZONE KIB_INTO KIB: writes KIB KiB of $RD_TMP/data from KIB_INTO into the zone
put() {
	dd if="$RD_TMP/data" of="$dev" bs=4K count=$(($3 / 4)) skip=$(($2 / 4)) \
		seek=$((($1 * zs / 2 + $2) / 4)) oflag=direct status=none || fail "write to zone $1"
}
# sum ZONE KIB: checksum of the zone's first KIB KiB
sum() {
	dd if="$dev" bs=4K count=$(($2 / 4)) skip=$(($1 * zs / 8)) iflag=direct status=none | sha256sum
}
head -c 3M /dev/urandom >"$RD_TMP/data"

rd_configure zn "${geometry[@]}" zoned=1 format=1 power=1
dev=$RD_DEV
# zone 1 at 1 MiB, zone 2 full by its writes, zone 3 finished at 512 KiB,
# zone 4 opened empty, zone 5 written and reset, zone 6 open at 64 KiB
put 1 0 1024
put 2 0 3072
put 3 0 512
blkzone finish -o $((3 * zs)) -c 1 "$dev"
blkzone open -o $((4 * zs)) -c 1 "$dev"
put 5 0 256
blkzone reset -o $((5 * zs)) -c 1 "$dev"
put 6 0 64
assert_eq "$(zones)" "2(oi) 2048 / 14(fu) 8192 / 14(fu) 8192 / 3(oe) 0 / 1(em) 0 / 2(oi) 128 / " \
	"zones before power-off"
want1=$(sum 1 1024)
want2=$(sum 2 3072)
saved="4(cl) 2048 / 14(fu) 8192 / 14(fu) 8192 / 1(em) 0 / 1(em) 0 / 4(cl) 128 / "

# --- an orderly power-off and on: the zones as saved, open ones closed
rd_configure zn power=0 format=0 power=1
dev=$RD_DEV
assert_eq "$(zones)" "$saved" "zones after power-off and on"
assert_eq "$(sum 1 1024)" "$want1" "zone 1's data after power-off and on"
assert_eq "$(sysfs_stat "$dev" zone_conditions)" "10 0 0 2 2" "zone_conditions after power-off and on"
# like any device in reserved memory it takes no checkpoints (in pages a
# zoned device does: test 144)
rd_refused zn checkpoints +a "Operation not supported" "zn: checkpoints need a device in pages, not in reserved memory"
assert_eq "$(cat "$RD_CONFIGFS/zn/checkpoints")" "" "checkpoints after the refusal"

# --- rmmod and insmod: the same, and writes go on at the saved pointers
rd_unconfigure zn
rmmod ramdisk
load_module nr_devices=0
rd_configure zn "${geometry[@]}" zoned=1 power=1
dev=$RD_DEV
assert_eq "$(zones)" "$saved" "zones after rmmod and insmod"
assert_eq "$(sum 1 1024) $(sum 2 3072)" "$want1 $want2" "zones 1 and 2's data after rmmod and insmod"
put 1 1024 512
assert_eq "$(zone 1)" "2(oi) 3072" "zone 1 written on at its saved pointer"
dd if="$dev" bs=4K count=1 skip=$(((zs / 2 + 1024) / 4)) iflag=direct status=none |
	cmp -s - <(tail -c +$((1048576 + 1)) "$RD_TMP/data" | head -c 4096) ||
		fail "zone 1's new write reads back different"
rd_configure zn power=0

# --- after an unorderly detach, what lies past a write pointer goes: the
# header is marked dirty, as a crash leaves it, and data put past zone
# 1's pointer (at 2 MiB of it) as by a write the crash cut short
head -c 64K /dev/urandom | dd of=/dev/mem bs=4K seek=$(((phys + 4096 + 6 * 1048576) / 4096)) \
	conv=notrunc status=none || fail "cannot write the range through /dev/mem"
python3 - "$phys" <<'EOF'
import os, struct, sys, zlib
# the header: its state (2, dirty) at byte 44, its CRC-32 of bytes 0-59 at 60
phys = int(sys.argv[1])
fd = os.open("/dev/mem", os.O_RDWR | os.O_SYNC)
h = bytearray(os.pread(fd, 64, phys))
struct.pack_into("<I", h, 44, 2)
struct.pack_into("<I", h, 60, zlib.crc32(bytes(h[:60])))
os.pwrite(fd, bytes(h), phys)
EOF
rd_configure zn power=1
dev=$RD_DEV
kernel_log | grep -q 'zn: attached .*, last detach was not orderly' || fail "the dirty header was not seen"
assert_eq "$(zone 1)" "4(cl) 3072" "zone 1 after an unorderly detach"
dd if="$dev" bs=4K count=640 skip=$(((zs / 2 + 1536) / 4)) iflag=direct status=none |
	cmp -s - <(head -c 2560K /dev/zero) || fail "zone 1 past its write pointer is not zeros"
rd_configure zn power=0

# --- refusals, the range untouched: the header page is compared
header() { dd if=/dev/mem bs=4096 skip=$((phys / 4096)) count=1 2>/dev/null | sha256sum; }
before=$(header)
# refused ATTRS... -- LOG: power=1 with the attributes fails, the log says LOG
refused() {
	local attrs=() mark="rdtest-136-$RANDOM$RANDOM"
	while [ "$1" != -- ]; do attrs+=("$1"); shift; done
	echo "$mark" >/dev/kmsg
	rd_configure zr "${attrs[@]}"
	run_cmd 1 bash -c "echo 1 >$RD_CONFIGFS/zr/power"
	dmesg | sed -n "/$mark/,\$p" | grep -qF "$2" || fail "no '$2' in the log"
	rd_unconfigure zr
	assert_eq "$(header)" "$before" "the header page after: $2"
}
refused phys_addr=$phys phys_size=$psize zone_size=2M zone_capacity=2M zone_nr_conv=1 zoned=1 -- \
	"holds 15 zones of 4194304 bytes (capacity 3145728, 1 conventional), the configuration 30 of 2097152 (capacity 2097152, 1 conventional); refusing to attach"
refused phys_addr=$phys phys_size=$psize -- \
	"holds a zoned device; refusing to attach it without zones"
mkdir "$RD_CONFIGFS/zw"
on_exit "rmdir $RD_CONFIGFS/zw 2>/dev/null || :"
for a in "${geometry[@]}" zoned=1; do echo "${a#*=}" >"$RD_CONFIGFS/zw/${a%%=*}"; done
rd_refused zw cache_mode writeback "Invalid argument" \
	"zw: a zoned device in reserved memory takes cache_mode writethrough only"
echo 0 >"$RD_CONFIGFS/zw/zoned"
echo 0 >"$RD_CONFIGFS/zw/zone_capacity"
echo 64K >"$RD_CONFIGFS/zw/zone_size"
rd_refused zw zoned 1 "Invalid argument" \
	"zw: 960 zones are more than the 896 a zoned device in reserved memory may have"
rmdir "$RD_CONFIGFS/zw"

# a saved write pointer past its zone's capacity (zone 1's word, after the
# 256-byte header and the 40 bytes of geometry)
printf '\377\377\000\000' | dd of=/dev/mem bs=1 seek=$((phys + 256 + 40 + 4)) conv=notrunc status=none
before=$(header)
refused "${geometry[@]}" zoned=1 -- \
	"zone 1's saved write pointer (0x0000ffff) is past its capacity of 6144 sectors; refusing to attach"
# format=1 starts afresh
rd_configure zn format=1 power=1
dev=$RD_DEV
assert_eq "$(zone 1) $(zone 2)" "1(em) 0 1(em) 0" "zones after a format"
rd_configure zn power=0
# a plain device there is not attached as a zoned one
rd_configure zp phys_addr=$phys phys_size=$psize format=1 power=1
rd_configure zp power=0
rd_unconfigure zp
before=$(header)
refused "${geometry[@]}" zoned=1 -- "holds a device without zones; refusing to attach it as a zoned one"
echo ok
