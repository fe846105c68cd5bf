#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl info statistics follow reads, writes, discards, flushes and mem_limit
. "${0%/*}/../lib/common.sh"
require_cmd dd

ctl=$RD_BIN/ramdiskctl

# field KEY: the value after "KEY:" in the last info output.
field() {
	sed -n "s/^$1: *//p" "$RD_TMP/info"
}

load_module nr_devices=1
dev=$("$ctl" create --name stats --size 16M --mem-limit 1M)
on_exit "$ctl" remove stats
udevadm settle 2>/dev/null || true

"$ctl" info stats >"$RD_TMP/info"
cat "$RD_TMP/info"
assert_eq "$(field device)" "$dev" "device"
assert_eq "$(field mem_limit)" "1048576 (1.0M)" "mem_limit"

before=$(sysfs_stat "$dev" writes)
index_before=$(sysfs_stat "$dev" index_bytes)
dd if=/dev/urandom of="$dev" bs=64K count=4 oflag=direct status=none
dd if="$dev" of=/dev/null bs=64K count=4 iflag=direct status=none
sync "$dev" 2>/dev/null || blockdev --flushbufs "$dev"

"$ctl" info "$dev" >"$RD_TMP/info"
cat "$RD_TMP/info"
# info prints exactly what sysfs says, with a human size alongside.
read -r count bytes < <(sysfs_stat "$dev" writes)
[ "$bytes" -ge $((256 << 10)) ] || fail "writes bytes $bytes after 256K written (before: $before)"
field writes | grep -q "^$count bios, $bytes bytes ([0-9.]*[0-9KM])$" ||
	fail "writes line: $(field writes), sysfs: $count $bytes"
read -r count bytes < <(sysfs_stat "$dev" reads)
field reads | grep -q "^$count bios, $bytes bytes ([0-9.]*[0-9KM])$" ||
	fail "reads line: $(field reads), sysfs: $count $bytes"
pages=$(sysfs_stat "$dev" allocated_pages)
bytes=$(sysfs_stat "$dev" allocated_bytes)
[ "$pages" -ge 64 ] || fail "allocated_pages $pages after 256K written"
field allocated | grep -q "^$pages pages, $bytes bytes (" ||
	fail "allocated line: $(field allocated), sysfs: $pages $bytes"
assert_eq "$(field flushes)" "$(sysfs_stat "$dev" flushes)" "flushes line"
# The first write to a leaf's range adds that leaf to the index; info and
# list --json show what sysfs says, whatever the sizes of root and leaf.
index=$(sysfs_stat "$dev" index_bytes)
[ "$index" -gt "$index_before" ] || fail "index_bytes $index after 256K written (before: $index_before)"
field index_bytes | grep -q "^$index\( ([0-9.]*[0-9KM])\)\?$" ||
	fail "index_bytes line: $(field index_bytes), sysfs: $index"
if command -v jq >/dev/null; then
	"$ctl" list --json >"$RD_TMP/json"
	assert_eq "$(jq --arg dev "$dev" '.devices[] | select(.device == $dev) | .index_bytes' "$RD_TMP/json")" \
		"$index" "list --json index_bytes"
else
	"$ctl" info --json "$dev" | grep -q "\"index_bytes\": $index,\?$" ||
		fail "info --json index_bytes: $("$ctl" info --json "$dev" | grep index_bytes)"
fi

if command -v blkdiscard >/dev/null; then
	blkdiscard -o 0 -l 1M "$dev"
	"$ctl" info "$dev" >"$RD_TMP/info"
	read -r count bytes < <(sysfs_stat "$dev" discards)
	[ "$count" -gt 0 ] || fail "no discard counted"
	field discards | grep -q "^$count bios, $bytes bytes" || fail "discards line: $(field discards)"
fi

# Beyond mem_limit, allocations fail and are counted.
dd if=/dev/zero of="$dev" bs=1M count=4 oflag=direct status=none 2>/dev/null || true
"$ctl" info "$dev" >"$RD_TMP/info"
cat "$RD_TMP/info"
failures=$(field alloc_failures)
[ "$failures" -gt 0 ] || fail "alloc_failures $failures after writing past mem_limit"
assert_eq "$failures" "$(sysfs_stat "$dev" alloc_failures)" "alloc_failures line"

# mem_limit may change while powered; info and list follow.
echo 0 >"$RD_CONFIGFS/stats/mem_limit"
"$ctl" info "$dev" >"$RD_TMP/info"
assert_eq "$(field mem_limit)" "0 (unlimited)" "mem_limit after raising it"
