#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power_cut_unit=sector: a cut tears a cached 256 KiB write sector by sector (never inside a sector, a 4 KiB one on a 4Kn device), replays the same tear from the same seed, and loses whole pages with power_cut_unit=page
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd python3
load_module nr_devices=0

head -c 262144 /dev/zero | tr '\0' A >"$RD_TMP/A"

# cut_map UNIT SEED [BLOCK_SIZE]: a fresh writeback device, one 256 KiB direct write at
# 1 MiB, a cut losing half; sets $map to the 512 sectors after it as one
# line of letters: A (the write survived), 0 (it was lost), ? (anything
# else)
cut_map() {
	rd_configure torn power=0 block_size="${3:-512}" cache_mode=writeback \
		power_cut_unit="$1" power_cut_drop_percent=50 power_cut_seed="$2" power=1
	dd if="$RD_TMP/A" of="$RD_DEV" bs=256K seek=4 count=1 oflag=direct status=none ||
		fail "the 256 KiB write"
	echo 1 >"$RD_CONFIGFS/torn/power_cut"
	dd if="$RD_DEV" bs=256K skip=4 count=1 iflag=direct status=none | python3 -c '
import sys
data = sys.stdin.buffer.read()
out = []
for i in range(0, len(data), 512):
    s = data[i:i + 512]
    out.append("A" if s == b"A" * 512 else "0" if s == bytes(512) else "?")
print("".join(out))' >"$RD_TMP/map"
	map=$(<"$RD_TMP/map")
}

# pages_mixed MAP: how many of its 64 pages hold both kept and lost sectors
pages_mixed() {
	local map=$1 i n=0 page
	for ((i = 0; i < 512; i += 8)); do
		page=${map:i:8}
		[[ $page == *A* && $page == *0* ]] && n=$((n + 1))
	done
	echo "$n"
}

rd_configure torn size=16M
cut_map sector 11
echo "sector map: $map"
[[ $map != *\?* ]] || fail "a sector came back neither old nor new: torn inside a sector"
kept=$(tr -cd A <<<"$map" | wc -c)
echo "sectors kept: $kept of 512; pages holding both: $(pages_mixed "$map") of 64"
((kept > 128 && kept < 384)) || fail "drop_percent 50 kept $kept of 512 sectors"
(($(pages_mixed "$map") > 32)) || fail "few pages torn: the cut did not draw per sector"

first=$map
cut_map sector 11
assert_eq "$map" "$first" "the tear replayed from seed 11"
cut_map sector 12
[ "$map" != "$first" ] || fail "seeds 11 and 12 tore the write alike"

# a sector is the logical block: 4 KiB blocks tear between blocks only
cut_map sector 11 4096
[[ $map != *\?* ]] || fail "4 KiB blocks: a sector came back neither old nor new"
assert_eq "$(pages_mixed "$map")" 0 "4 KiB blocks torn inside a block"
kept=$(tr -cd A <<<"$map" | wc -c)
((kept > 0 && kept < 512)) || fail "4 KiB blocks: kept $kept of 512 sectors"

cut_map page 11
[[ $map != *\?* ]] || fail "power_cut_unit=page: a sector came back neither old nor new"
assert_eq "$(pages_mixed "$map")" 0 "pages torn with power_cut_unit=page"
kept=$(tr -cd A <<<"$map" | wc -c)
((kept > 0 && kept < 512)) || fail "power_cut_unit=page kept $kept of 512 sectors"
echo "power_cut_unit=page kept $((kept / 8)) whole pages of 64"
echo ok
