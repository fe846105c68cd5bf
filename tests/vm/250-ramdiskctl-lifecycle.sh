#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl create, list, info and remove of real devices, by every spelling of their name
. "${0%/*}/../lib/common.sh"
require_cmd blockdev

ctl=$RD_BIN/ramdiskctl
cfg=$RD_CONFIGFS

# Before the module: exit 3 with the reason.
status=0
"$ctl" list 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 3 "list without the module"
grep -q "not loaded" "$RD_TMP/err" || fail "no 'not loaded' reason: $(cat "$RD_TMP/err")"

load_module nr_devices=1
[ -d "$cfg" ] || fail "$cfg missing after loading the module"

# Without --name: rd0, then rd1; ramdisk0 is the load-time device.
dev=$("$ctl" create --size 64M)
on_exit "$ctl" remove rd0
assert_eq "$dev" /dev/ramdisk1 "first created device"
[ -b "$dev" ] || fail "$dev is not a block device"
assert_eq "$(blockdev --getsize64 "$dev")" $((64 << 20)) "size of $dev"
assert_eq "$(blockdev --getss "$dev")" 512 "default block size"
assert_eq "$(cat "$cfg/rd0/power")" 1 "rd0 power"

dev2=$("$ctl" create --size 1.5G)
on_exit "$ctl" remove rd1
assert_eq "$dev2" /dev/ramdisk2 "second created device"
assert_eq "$(blockdev --getsize64 "$dev2")" $((3 << 29)) "size of $dev2"

# Every option reaches its attribute.
dev3=$("$ctl" create --name big-blocks --size 16M --block-size 4k \
	--max-part 4 --mem-limit 8M --numa-node -1)
on_exit "$ctl" remove big-blocks
assert_eq "$dev3" /dev/ramdisk3 "named device"
assert_eq "$(blockdev --getss "$dev3")" 4096 "block size of $dev3"
assert_eq "$(cat "$cfg/big-blocks/block_size")" 4096 "configfs block_size"
assert_eq "$(cat "$cfg/big-blocks/max_part")" 4 "configfs max_part"
assert_eq "$(cat "$cfg/big-blocks/mem_limit")" $((8 << 20)) "configfs mem_limit"
assert_eq "$(cat "$cfg/big-blocks/size")" $((16 << 20)) "configfs size"
assert_eq "$(sysfs_stat ramdisk3 name)" big-blocks "sysfs name"

# list: a header and one line per device, in index order.
"$ctl" list | tee "$RD_TMP/list"
assert_eq "$(wc -l <"$RD_TMP/list")" 5 "lines of list"
assert_eq "$(awk 'NR > 1 { print $1 }' "$RD_TMP/list" | tr '\n' ' ')" \
	"/dev/ramdisk0 /dev/ramdisk1 /dev/ramdisk2 /dev/ramdisk3 " "list order"
grep -Eq '^/dev/ramdisk3 +big-blocks +16M +4096 +4 +8\.0M ' "$RD_TMP/list" ||
	fail "big-blocks row wrong"
grep -Eq '^/dev/ramdisk2 +rd1 +1\.5G +512 ' "$RD_TMP/list" || fail "rd1 row wrong"

if command -v jq >/dev/null; then
	"$ctl" list --json >"$RD_TMP/json"
	assert_eq "$(jq -c '[.devices[].name]' "$RD_TMP/json")" '[null,"rd0","rd1","big-blocks"]' "json names"
	assert_eq "$(jq -c '[.devices[].load_time]' "$RD_TMP/json")" '[1,0,0,0]' "json load_time"
	assert_eq "$(jq '.devices[3].size' "$RD_TMP/json")" $((16 << 20)) "json size"
	assert_eq "$(jq '.devices[3].mem_limit' "$RD_TMP/json")" $((8 << 20)) "json mem_limit"
fi

# info by NAME, ramdiskN and /dev/ramdiskN says the same.
"$ctl" info big-blocks | tee "$RD_TMP/info"
cmp "$RD_TMP/info" <("$ctl" info ramdisk3) || fail "info ramdisk3 differs"
cmp "$RD_TMP/info" <("$ctl" info /dev/ramdisk3) || fail "info /dev/ramdisk3 differs"
for key in device name size block_size max_part mem_limit numa_node allocated \
	reads writes discards write_zeroes flushes alloc_failures; do
	grep -q "^$key: " "$RD_TMP/info" || fail "info lacks $key"
done
grep -q '^size: *16777216 (16M)$' "$RD_TMP/info" || fail "info size line"
"$ctl" info ramdisk0 | grep -q '^name: *(made at module load)' || fail "info ramdisk0"

# remove by each spelling; the configfs directory and the disk go.
"$ctl" remove /dev/ramdisk3
[ ! -e "$cfg/big-blocks" ] || fail "big-blocks still configured"
[ ! -e /sys/block/ramdisk3 ] || fail "ramdisk3 still in sysfs"
"$ctl" remove ramdisk2
[ ! -e "$cfg/rd1" ] || fail "rd1 still configured"
"$ctl" remove rd0
[ ! -e /dev/ramdisk1 ] || fail "/dev/ramdisk1 still there"

# The lowest free index and name come back.
dev=$("$ctl" create --size 1M)
on_exit "$ctl" remove rd0
assert_eq "$dev" /dev/ramdisk1 "reused index"
"$ctl" remove "$dev"

# Left: the load-time device only, and an empty configfs tree.
"$ctl" list | tee "$RD_TMP/list"
assert_eq "$(wc -l <"$RD_TMP/list")" 2 "lines of list at the end"
assert_eq "$(find "$cfg" -mindepth 1 -type d | wc -l)" 0 "configurations left"
