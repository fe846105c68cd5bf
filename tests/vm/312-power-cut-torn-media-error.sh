#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power_cut_personality torn-media-error: with 512-byte logical blocks on 4 KiB physical ones and power_cut_unit sector, the physical blocks an unordered cut leaves half old and half new are exactly those the same cut (same seed and writes) tears: each reads as a medium error (ENODATA), is listed in badblocks and counted in torn_blocks, and no block reads back mixed; the 48 the bad-block list holds are recorded in order and the tears after them are lost whole; a write heals the sectors it covers; a physical block above the page size is refused with the reason
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd
load_module nr_devices=0
cfg=$RD_CONFIGFS
n=64 # physical blocks written, from 1 MiB on
first=256
head -c $((n * 4096)) /dev/urandom >"$RD_TMP/new"
head -c 4096 /dev/zero >"$RD_TMP/zero"

# state DEV: "block state" for each written physical block: new, old
# (zeros), mixed, or error (its read failed: the error's text)
state() {
	local b err
	for b in $(seq 0 $((n - 1))); do
		if ! dd if="$1" bs=4K skip=$((first + b)) count=1 iflag=direct status=none \
			>"$RD_TMP/block" 2>"$RD_TMP/block.err"; then
			err=$(sed 's/.*: //' "$RD_TMP/block.err")
			echo "$b error ${err// /_}"
		elif dd if="$RD_TMP/new" bs=4K skip="$b" count=1 status=none | cmp -s - "$RD_TMP/block"; then
			echo "$b new"
		elif cmp -s "$RD_TMP/zero" "$RD_TMP/block"; then
			echo "$b old"
		else
			echo "$b mixed"
		fi
	done
}
common=(size=4M block_size=512 cache_mode=writeback power_cut_unit=sector
	power_cut_drop_percent=50 power_cut_seed=11)

echo "unordered: the cut's draws leave some physical blocks half written"
rd_configure u "${common[@]}" power=1
dd if="$RD_TMP/new" of="$RD_DEV" bs=4K seek=$first oflag=direct status=none || fail "write to u"
echo 1 >"$cfg/u/power_cut" || fail "power_cut of u"
state "$RD_DEV" >"$RD_TMP/u"
awk '$2 == "mixed" {print $1}' "$RD_TMP/u" >"$RD_TMP/u.mixed"
mixed=$(wc -l <"$RD_TMP/u.mixed")
echo "$mixed of $n blocks mixed, $(grep -c ' new' "$RD_TMP/u") new, $(grep -c ' old' "$RD_TMP/u") old"
((mixed > 48)) || fail "only $mixed mixed blocks: the list-full case below needs more than 48"

echo "torn-media-error, the same seed and writes: those blocks are torn, 48 recorded"
rd_configure t "${common[@]}" power_cut_personality=torn-media-error power=1
dev=$RD_DEV
dd if="$RD_TMP/new" of="$dev" bs=4K seek=$first oflag=direct status=none || fail "write to t"
echo 1 >"$cfg/t/power_cut" || fail "power_cut of t"
state "$dev" >"$RD_TMP/t"
grep -q ' mixed$' "$RD_TMP/t" && fail "a block reads back mixed: $(grep ' mixed$' "$RD_TMP/t")"
head -n 48 "$RD_TMP/u.mixed" >"$RD_TMP/recorded"
assert_eq "$(awk '$2 == "error" {print $1}' "$RD_TMP/t")" "$(cat "$RD_TMP/recorded")" \
	"the blocks that fail to read: the first 48 an unordered cut left mixed"
assert_eq "$(awk '$2 == "error" {print $3}' "$RD_TMP/t" | sort -u)" No_data_available \
	"the error of a torn block (BLK_STS_MEDIUM)"
assert_eq "$(sysfs_stat "$dev" torn_blocks)" 48 "torn_blocks"
expected=$(while read -r b; do
	s=$(((first + b) * 8))
	echo "+$s-$((s + 7)) rw=read error=medium sticky=0"
done <"$RD_TMP/recorded")
assert_eq "$(cat "$cfg/t/badblocks")" "$expected" "the bad-block list"
# the rest of the tears could not be recorded: lost whole; the others as unordered left them
tail -n +49 "$RD_TMP/u.mixed" >"$RD_TMP/unrecorded"
while read -r b s; do
	if grep -qx "$b" "$RD_TMP/unrecorded"; then
		want=old
	elif grep -qx "$b" "$RD_TMP/recorded"; then
		continue
	else
		want=$(awk -v b="$b" '$1 == b {print $2}' "$RD_TMP/u")
	fi
	[ "$s" = "$want" ] || fail "block $b: $s on t, want $want"
done < <(cut -d' ' -f1,2 "$RD_TMP/t")

echo "a write heals the sectors it covers"
b=$(sed -n 1p "$RD_TMP/recorded")
dd if="$RD_TMP/new" of="$dev" bs=4K skip="$b" seek=$((first + b)) count=1 oflag=direct \
	status=none || fail "rewrite of torn block $b"
dd if="$dev" bs=4K skip=$((first + b)) count=1 iflag=direct status=none |
	cmp -s - <(dd if="$RD_TMP/new" bs=4K skip="$b" count=1 status=none) ||
	fail "block $b after its rewrite"
b=$(sed -n 2p "$RD_TMP/recorded")
dd if=/dev/zero of="$dev" bs=512 seek=$(((first + b) * 8)) count=1 oflag=direct status=none ||
	fail "512-byte write to torn block $b"
dd if="$dev" bs=512 skip=$(((first + b) * 8)) count=1 iflag=direct status=none >/dev/null ||
	fail "the healed sector of block $b"
dd if="$dev" bs=4K skip=$((first + b)) count=1 iflag=direct status=none 2>/dev/null &&
	fail "block $b read whole with 7 sectors still torn"
assert_eq "$(grep -c . "$cfg/t/badblocks")" 47 "ranges after one heal and one partial heal"

echo "a physical block above the page size is refused"
rd_configure x size=1M cache_mode=writeback physical_block_size=8192
rd_refused x power_cut_personality torn-media-error "Invalid argument" \
	"x: power_cut_personality torn-media-error needs a physical block of at most the page size"
assert_eq "$(cat "$cfg/x/power_cut_personality")" unordered "x's personality after the refusal"
echo ok
