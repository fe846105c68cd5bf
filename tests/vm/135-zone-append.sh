#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: zone append, sent from the kernel as a file system sends it (a test module: user space cannot send it to a block device): each append lands at the write pointer and reports where, after plain writes too, zone_appends counts them, an append to a full zone, to a conventional zone or away from a zone's start fails with nothing written
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone dd cmp
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER's block layer cannot host a zoned bio-based device (131 tests the refusal)"
mod=$RD_TOP/build/kernels/$RD_KVER/selftest/rd_selftest_zone_append.ko
[ -f "$mod" ] || fail "$mod is missing: scripts/build-module $RD_KVER builds it"
params=/sys/module/rd_selftest_zone_append/parameters

# 16 zones of 4 MiB (8192 sectors) taking 3 MiB each, the first conventional
zs=8192
rd_configure za size=64M zoned=1 zone_size=4M zone_capacity=3M zone_nr_conv=1 power=1
dev=$RD_DEV
rd=${dev#/dev/}

# append SECTOR COUNT: COUNT appends of 4 KiB to the zone at SECTOR; sets
# result, done, first and last from the module's answers
append() {
	insmod "$mod" path="$dev" sector="$1" count="$2" || fail "insmod of the append module failed"
	result=$(cat "$params/result")
	done=$(cat "$params/done")
	first=$(cat "$params/first_sector")
	last=$(cat "$params/last_sector")
	rmmod rd_selftest_zone_append
}
# wp ZONE: the zone's write pointer, in sectors from the device's start
wp() {
	local line re='start: (0x[0-9a-f]+).*wptr (0x[0-9a-f]+)'
	line=$(blkzone report -o $(($1 * zs)) -c 1 "$dev")
	[[ $line =~ $re ]] || fail "blkzone report of zone $1: $line"
	echo $((BASH_REMATCH[1] + BASH_REMATCH[2]))
}
# block_is SECTOR VALUE: the 4 KiB at SECTOR hold VALUE in every byte
block_is() {
	dd if="$dev" bs=4096 skip=$(($1 / 8)) count=1 iflag=direct status=none |
		cmp -s - <(head -c 4096 /dev/zero | tr '\0' "\\$(printf %03o "$2")")
}

# --- appends land one after another at the write pointer, and say where
z1=$zs
append $z1 16
assert_eq "$result $done $first $last" "0 16 $z1 $((z1 + 15 * 8))" "16 appends to zone 1"
assert_eq "$(wp 1)" $((z1 + 128)) "zone 1's write pointer after them"
assert_eq "$(sysfs_stat "$rd" zone_appends)" 16 "zone_appends"
block_is $z1 1 || fail "the first append's data is not at the zone's start"
block_is $((z1 + 15 * 8)) 16 || fail "the 16th append's data is not where it said"

# --- after a plain write, an append goes after it
dd if=/dev/urandom of="$dev" bs=4096 count=2 seek=$(((z1 + 128) / 8)) oflag=direct status=none
append $z1 1
assert_eq "$result $first" "0 $((z1 + 144))" "an append after a plain write"

# --- a full zone takes no append: zone 2 filled by 768 appends of 4 KiB
z2=$((2 * zs))
append $z2 769
assert_eq "$result $done $last" "-5 768 $((z2 + 767 * 8))" "769 appends to a zone of 3 MiB"
assert_eq "$(blkzone report -o $z2 -c 1 "$dev" | grep -o 'zcond: *[0-9]*([a-z]*)')" \
	"zcond:14(fu)" "zone 2 after the appends"
block_is $((z2 + 767 * 8)) $((767 % 251 + 1)) || fail "the last append's data is not where it said"
appends=$(sysfs_stat "$rd" zone_appends)

# --- nor a conventional zone, nor a sector that is not a zone's start
append 0 1
[ "$result" != 0 ] || fail "an append to conventional zone 0 was accepted"
block_is 0 0 || fail "a refused append to zone 0 wrote there"
append $((3 * zs + 8)) 1
[ "$result" != 0 ] || fail "an append 8 sectors into zone 3 was accepted"
assert_eq "$(wp 3)" $((3 * zs)) "zone 3's write pointer after a refused append"
assert_eq "$(sysfs_stat "$rd" zone_appends)" "$appends" "zone_appends after the refusals"
echo ok
