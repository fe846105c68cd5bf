#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: partitions with sfdisk when max_part allows them, none when max_part=0
. "${0%/*}/../lib/common.sh"
require_root
require_cmd sfdisk udevadm cmp

table='label: gpt
start=2048, size=16384
start=18432, size=16384
start=34816, size=16384
'

echo "max_part=4"
load_module size=32M max_part=4
dev=/dev/ramdisk0
sfdisk -q $dev <<<"$table"
udevadm settle
for p in 1 2 3; do
	[ -b ${dev}p$p ] || fail "${dev}p$p missing after sfdisk"
	assert_eq "$(cat /sys/block/ramdisk0/ramdisk0p$p/size)" 16384 "size of partition $p"
done
[ ! -e ${dev}p4 ] || fail "a fourth partition appeared"
assert_eq "$(cat /sys/block/ramdisk0/ramdisk0p2/start)" 18432 "start of partition 2"

# A write to partition 2 lands at its offset in the whole device.
head -c 64K /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of=${dev}p2 bs=64K seek=1 oflag=direct status=none
dd if=$dev of="$RD_TMP/back" bs=512 skip=$((18432 + 128)) count=128 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "partition 2 data is not at its offset"

# Writes past the end of a partition fail and touch nothing beyond it.
expect_fail dd if="$RD_TMP/data" of=${dev}p1 bs=512 seek=16384 count=1 oflag=direct status=none

# An open partition holds the module.
exec 3<${dev}p3
expect_fail rmmod ramdisk
exec 3<&-
udevadm settle
unload_module
[ ! -e ${dev}p1 ] || fail "${dev}p1 survived rmmod"

echo "max_part=0"
load_module size=32M
sfdisk -q $dev <<<"$table" 2>/dev/null || true
udevadm settle
blockdev --rereadpt $dev 2>/dev/null || true
[ ! -e ${dev}p1 ] || fail "${dev}p1 exists with max_part=0"
[ -z "$(find /sys/block/ramdisk0 -maxdepth 1 -name 'ramdisk0p*')" ] ||
	fail "partitions in sysfs with max_part=0"
echo ok
