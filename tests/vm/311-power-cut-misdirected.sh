#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power_cut_personality misdirected: at a cut each cached page the cut does not keep in place lands whole at another page of the device instead of vanishing, never at its own; misdirected_bytes counts them; the same seed and writes misdirect to the same places; with power_cut_drop_percent 50 every write is either in place or elsewhere, none gone; a zoned device refuses it with the reason
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd grep
load_module nr_devices=0
cfg=$RD_CONFIGFS
n=8 # pages written, at 64 KiB to 92 KiB of a 4 MiB device

# Each page starts with a tag that names it, then random bytes: grep -b
# finds where every one landed in one read of the device.
for i in $(seq 0 $((n - 1))); do
	{
		printf 'MISDIRECTED-PAGE-%02d\n' "$i"
		head -c 4076 /dev/urandom
	} >"$RD_TMP/page$i"
	[ "$(stat -c %s "$RD_TMP/page$i")" = 4096 ] || fail "page $i is not 4 KiB"
done

# write_pages DEV: page i at 64 KiB + i * 4 KiB, cached (no flush)
write_pages() {
	local i
	for i in $(seq 0 $((n - 1))); do
		rd_dd_write "$1" "$RD_TMP/page$i" $((64 + i * 4)) 4 || fail "write of page $i"
	done
}

# landed DEV: "i page" for each tag on the device, sorted by i; fails the
# test for a tag off a page boundary or a page that is not whole
landed() {
	local off tag i page
	grep -abo 'MISDIRECTED-PAGE-[0-9][0-9]' "$1" | while IFS=: read -r off tag; do
		((off % 4096 == 0)) || fail "tag $tag at byte $off, not at a page's start"
		i=$((10#${tag#MISDIRECTED-PAGE-}))
		page=$((off / 4096))
		dd if="$1" bs=4K skip="$page" count=1 iflag=direct status=none |
			cmp -s - "$RD_TMP/page$i" || fail "page $i at page $page is not whole"
		echo "$i $page"
	done | sort -n
}

rd_configure m size=4M cache_mode=writeback power_cut_personality=misdirected power=1
dev=$RD_DEV
assert_eq "$(cat "$cfg/m/power_cut_personality")" misdirected "the personality"
assert_eq "$(sysfs_stat "$dev" misdirected_bytes)" 0 "misdirected_bytes before a cut"

echo "drop 100%: every cached page lands at another page"
write_pages "$dev"
(($(sysfs_stat "$dev" dirty_bytes) == n * 4096)) || fail "the writes were not cached"
echo 1 >"$cfg/m/power_cut" || fail "power_cut"
landed "$dev" >"$RD_TMP/first"
cat "$RD_TMP/first"
assert_eq "$(wc -l <"$RD_TMP/first")" "$n" "pages found after the cut"
assert_eq "$(cut -d' ' -f1 "$RD_TMP/first" | uniq | wc -l)" "$n" "pages found once each"
while read -r i page; do
	((page != 16 + i)) || fail "page $i stayed at its own address"
done <"$RD_TMP/first"
assert_eq "$(sysfs_stat "$dev" misdirected_bytes)" $((n * 4096)) "misdirected_bytes"

echo "the same seed, device and writes: the same places"
rd_configure m2 size=4M cache_mode=writeback power_cut_personality=misdirected power=1
write_pages "$RD_DEV"
echo 1 >"$cfg/m2/power_cut" || fail "power_cut of m2"
landed "$RD_DEV" >"$RD_TMP/second"
cmp -s "$RD_TMP/first" "$RD_TMP/second" ||
	fail "seed 1 misdirected elsewhere the second time: $(paste -d' ' "$RD_TMP/first" "$RD_TMP/second")"

echo "drop 50%: each page in place or elsewhere, none gone"
rd_configure h size=4M cache_mode=writeback power_cut_personality=misdirected \
	power_cut_drop_percent=50 power_cut_seed=7 power=1
write_pages "$RD_DEV"
echo 1 >"$cfg/h/power_cut" || fail "power_cut of h"
landed "$RD_DEV" >"$RD_TMP/half"
cat "$RD_TMP/half"
assert_eq "$(cut -d' ' -f1 "$RD_TMP/half" | uniq | wc -l)" "$n" "pages found once each at 50%"
moved=$(awk '$2 != 16 + $1' "$RD_TMP/half" | wc -l)
((moved > 0 && moved < n)) || fail "at 50% $moved of $n pages moved: the draw decided nothing"
assert_eq "$(sysfs_stat "$RD_DEV" misdirected_bytes)" $((moved * 4096)) "misdirected_bytes at 50%"

echo "unordered, the default, loses what it drops: no page elsewhere"
echo unordered >"$cfg/h/power_cut_personality" || fail "setting unordered"
dd if=/dev/zero of="$RD_DEV" bs=1M count=4 oflag=direct conv=fsync status=none
write_pages "$RD_DEV"
echo 100 >"$cfg/h/power_cut_drop_percent" || fail "drop 100%"
echo 1 >"$cfg/h/power_cut" || fail "power_cut of h, unordered"
assert_eq "$(landed "$RD_DEV" | wc -l)" 0 "pages found after an unordered cut"

if [[ ,$(cat "$cfg/features"), == *,zoned,* ]]; then
	echo "a zoned device refuses it"
	rd_configure z size=64M zoned=1 zone_size=8M cache_mode=writeback
	rd_refused z power_cut_personality misdirected "Invalid argument" \
		"z: power_cut_personality misdirected is for a device that is not zoned"
	assert_eq "$(cat "$cfg/z/power_cut_personality")" unordered "the zoned device's personality"
fi
echo ok
