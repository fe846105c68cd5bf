#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the RAID5 write hole through one power domain: md RAID5 on three members with write caches, a flushed pattern, then small writes in a loop; one cut of the domain while they run (writes take 20 ms, so some are under way, not yet flushed) keeps a random half of each member's cached pages, and the array is assembled without its third member, so blocks the writes never touched are read back through parity; with no journal some of those blocks come back wrong (the hole), with a write journal (a fourth member of the domain) none does
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mdadm cmp dd python3
load_module nr_devices=0
cfg=$RD_CONFIGFS
md=/dev/md/rdwh
blocks=4096  # the 16 MiB of the array the test writes, in 4 KiB blocks
touched=64   # of those, the blocks written after the flush: every 61st

head -c $((blocks * 4096)) /dev/urandom >"$RD_TMP/old"
head -c $((touched * 4096)) /dev/urandom >"$RD_TMP/new"

stop_array() {
	[ -e "$md" ] || return 0
	mdadm --stop "$md" >/dev/null 2>&1 || :
}
on_exit stop_array

# sum_stat MODE STAT: STAT summed over MODE's members
sum_stat() {
	local i sum=0
	for i in 0 1 2 j; do
		[ -d "$cfg/wh-$1-$i" ] || continue
		sum=$((sum + $(sysfs_stat "$(rd_dev "wh-$1-$i")" "$2")))
	done
	echo "$sum"
}

# bad_untouched MODE: assembles MODE's array (none, ppl or journal) from
# three fresh members in one power domain, writes and cuts as the
# description says, and puts in $RD_TMP/bad how many untouched blocks
# read back wrong
declare -A seed=([0]=40 [1]=41 [2]=42 [j]=9)
bad_untouched() {
	local mode=$1 n i d members=() journal=() opts=()
	for i in 0 1 2 j; do
		[ "$i" != j ] || [ "$mode" = journal ] || continue
		n=wh-$mode-$i
		rd_configure "$n" size=32M cache_mode=writeback power_cut_drop_percent=50 \
			power_cut_seed="${seed[$i]}" power=1
		echo "wh-$mode" >"$cfg/$n/power_domain" || fail "$n joins the domain"
		if [ "$i" = j ]; then
			journal=(--write-journal "$RD_DEV")
		else
			members+=("$RD_DEV")
		fi
	done
	[ "$mode" != ppl ] || opts=(--consistency-policy=ppl)
	# fresh members read zeros, whose parity is zeros: already in sync.
	# No bitmap, so that no write of md's own flushes the caches.
	mdadm --create "$md" --run --quiet --level=5 --raid-devices=3 --chunk=64 --bitmap=none \
		--assume-clean "${opts[@]}" "${members[@]}" "${journal[@]}" ||
		fail "$mode: mdadm --create"
	d=$(readlink -f "$md")
	# md marks the array clean, with a flush, once idle this long: not here
	echo 3600 >"/sys/block/${d#/dev/}/md/safe_mode_delay"
	dd if="$RD_TMP/old" of="$md" bs=1M oflag=direct conv=fsync status=none ||
		fail "$mode: writing the pattern"
	# durable now: in the members, or with a journal in the journal alone
	# (md flushes only the journal then, and the members' caches may
	# still hold the pattern)
	if [ "$mode" = journal ]; then
		assert_eq "$(sysfs_stat "${journal[1]}" dirty_bytes)" 0 "journal's cache after the flush"
	else
		for i in 0 1 2; do
			assert_eq "$(sysfs_stat "${members[i]}" dirty_bytes)" 0 \
				"$mode: member $i's cache after the flush"
		done
	fi
	# md with PPL flushes the members after each write completes: each
	# write takes 20 ms to complete here, so that the cut finds some under
	# way, cached and not yet flushed
	for i in 0 1 2 j; do
		[ ! -d "$cfg/wh-$mode-$i" ] || echo 20000000 >"$cfg/wh-$mode-$i/write_latency_ns"
	done
	(
		while :; do
			for ((i = 0; i < touched; i++)); do
				dd if="$RD_TMP/new" of="$md" bs=4K skip=$i seek=$((i * 61)) count=1 \
					oflag=direct conv=notrunc status=none 2>/dev/null || exit 0
			done
		done
	) &
	writer=$!
	sleep 2
	dirty=$(sum_stat "$mode" dirty_bytes)
	# one instant for every member; then every write fails, as to a disk
	# without power, so that stopping the array writes nothing of md's
	echo "wh-$mode" >"$cfg/power_cut_domain" || fail "$mode: the domain's cut"
	for i in 0 1 2 j; do
		[ -d "$cfg/wh-$mode-$i" ] || continue
		echo "+0-65535 rw=write error=eio" >"$cfg/wh-$mode-$i/badblocks"
	done
	wait $writer
	interrupted=$(sum_stat "$mode" cut_errors)
	echo "$dirty $interrupted" >"$RD_TMP/stake"
	mdadm --stop "$md" >/dev/null 2>&1 || fail "$mode: stopping the cut array"
	for i in 0 1 2 j; do
		[ -d "$cfg/wh-$mode-$i" ] || continue
		echo clear >"$cfg/wh-$mode-$i/badblocks"
		echo 0 >"$cfg/wh-$mode-$i/write_latency_ns"
	done
	# the third member is lost: its blocks come back through parity
	mdadm --assemble "$md" --run --force --quiet "${members[0]}" "${members[1]}" \
		"${journal[@]:1}" >"$RD_TMP/assemble" 2>&1 ||
		fail "$mode: assembling without member 2: $(cat "$RD_TMP/assemble")"
	dd if="$md" of="$RD_TMP/back" bs=1M count=$((blocks / 256)) iflag=direct status=none ||
		fail "$mode: reading the degraded array"
	mdadm --stop "$md" >/dev/null || fail "$mode: stopping the degraded array"
	for i in 0 1 2 j; do
		[ -d "$cfg/wh-$mode-$i" ] || continue
		echo >"$cfg/wh-$mode-$i/power_domain"
		rd_unconfigure "wh-$mode-$i"
	done
	python3 - "$RD_TMP/old" "$RD_TMP/back" "$touched" >"$RD_TMP/bad" <<'PY'
import sys
old = open(sys.argv[1], "rb").read()
back = open(sys.argv[2], "rb").read()
touched = {i * 61 for i in range(int(sys.argv[3]))}
print(sum(1 for b in range(len(old) // 4096) if b not in touched and
          old[b * 4096:(b + 1) * 4096] != back[b * 4096:(b + 1) * 4096]))
PY
}

# PPL (--consistency-policy=ppl) is not run: with the members' caches
# volatile md flushes them so closely behind each write that no cut in
# three tries found anything at stake, so a pass would prove nothing.
for mode in none journal; do
	bad_untouched $mode
	read -r dirty interrupted <"$RD_TMP/stake"
	bad=$(cat "$RD_TMP/bad")
	echo "$mode: $bad of $((blocks - touched)) untouched blocks read back wrong; just before the cut $dirty bytes were not durable, and the cut failed $interrupted bios under way"
	case $mode in
	none) [ "$bad" -gt 0 ] || fail "no journal: every untouched block read back right; no write hole shown" ;;
	*) assert_eq "$bad" 0 "$mode: untouched blocks read back wrong" ;;
	esac
	# writes cached a moment before the cut (md flushes them only after
	# they complete, 20 ms on), or under way at it, never acknowledged and
	# so never flushed: the cut had something to lose
	[ "$dirty" -gt 0 ] || [ "$interrupted" -gt 0 ] ||
		fail "$mode: nothing was at stake: no write cached just before the cut, none under way at it"
done
echo ok
