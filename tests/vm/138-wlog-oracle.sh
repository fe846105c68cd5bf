#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: an oracle for the write log: under four concurrent writers (writes of 512 B to 1 MiB, FUA writes, flushes, discards, write-zeroes), a replayer written from the uapi header alone rebuilds the device bit for bit from its log at every mark and at the end, also across a checkpoint, a clone and a rollback; after a power cut (all cached data dropped, quiescent; and half of it by sector, cut under I/O with writes in flight in a latency) the device holds what the log promises; the dm-log-writes export replayed by fstests' replay-log (REPLAY_LOG=PATH) gives the same hashes
. "${0%/*}/../lib/common.sh"
#
# What the oracle (tests/vm/helpers/wlog-replay) holds the module to:
# - replayed in order from the checkpoint the log started with, the log's
#   writes (their data), discards and write-zeroes (zeros) give the device
#   as it was at each mark and at the end, byte for byte; the writers own
#   disjoint slices, so the order of concurrent writes cannot matter;
# - after a power cut of a writeback device (log state cut), per 512-byte
#   sector: the device holds its floor, the content of the sector's last
#   discard, write-zeroes, FUA write, or write logged before the last flush
#   that did not fail (all durable when they completed), or else the
#   content of a write logged after that floor entry (a cut below 100%
#   keeps some cached data; a flush or an eviction may have made a write
#   durable that the log does not cover); never anything else;
# - with power_cut_drop_percent 100, a cache larger than the device (no
#   eviction) and a quiescent flush before the last writes, exactly the
#   floor (--strict): the cut lost every write no flush covered.
# A write served and logged before the cut but still waiting in a latency
# fails with EIO (cut_errors) and stays logged: the device did take its
# data, which the cut kept or lost like any other cached write, so the
# rule above covers it (the test prints cut_errors; it does not require one).
require_root
require_cmd dd cmp sha256sum sync awk

rounds=${RD_ORACLE_ROUNDS:-2}
load_module nr_devices=0 hold_keys=1
cfs=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl
replay=$RD_TOP/build/test-bin/wlog-replay
work=$RD_TOP/build/test-bin/wlog-work
for h in "$replay" "$work"; do
	[ -x "$h" ] || fail "$h is missing (make userspace)"
done

# a cache larger than the device: nothing is evicted, so --strict holds
rd_configure o size=16M cache_mode=writeback cache_size=32M write_log_limit=512M power=1
dev=$RD_DEV
idx=${dev#/dev/ramdisk}
save() { dd if="$dev" of="$1" bs=1M iflag=direct status=none; }
hash() { sha256sum <"$1" | cut -d' ' -f1; }
# oracle BASE OUT [ARGS]: OUT is BASE with the log replayed onto it
oracle() {
	cp "$1" "$2"
	"$replay" "${@:3}" "$dev" "$2" || fail "wlog-replay ${*:3} failed"
}
# same IMAGE WHAT: the device equals IMAGE
same() {
	cmp "$1" <(dd if="$dev" bs=1M iflag=direct status=none) >"$RD_TMP/cmp.out" 2>&1 || fail "$2: the device differs from the replay: $(cat "$RD_TMP/cmp.out")"
}
# replay_log DMLW BASE WANT_HASH [ARGS]: fstests' replay-log gives WANT_HASH
replay_log() {
	[ -n "${REPLAY_LOG:-}" ] || return 0
	cp "$2" "$RD_TMP/rl.img"
	"$REPLAY_LOG" --log "$1" --replay "$RD_TMP/rl.img" "${@:4}" >"$RD_TMP/rl.out" 2>&1 ||
		fail "replay-log ${*:4}: $(tail -3 "$RD_TMP/rl.out")"
	assert_eq "$(hash "$RD_TMP/rl.img")" "$3" "the hash of replay-log ${*:4}"
	echo "replay-log ${*:4}: $3"
}
declare -A sums

dd if=/dev/urandom of="$dev" bs=1M count=16 oflag=direct status=none
echo "log 1: $rounds rounds of four writers, a mark, a checkpoint ck1 and its clone"
"$ctl" wlog o start base
save "$RD_TMP/base.img"
for ((r = 1; r <= rounds; r++)); do
	"$work" "$dev" "$r" 4 30 || fail "wlog-work round $r"
	echo "mark m$r" >"$cfs/o/write_log"
	# the log still records: the replay reads it as it is now
	oracle "$RD_TMP/base.img" "$RD_TMP/m$r.img" --to-mark "m$r"
	same "$RD_TMP/m$r.img" "mark m$r"
	sums[m$r]=$(hash "$RD_TMP/m$r.img")
	if ((r == 1)); then
		echo +ck1 >"$cfs/o/checkpoints"
		cp "$RD_TMP/m$r.img" "$RD_TMP/ck1.img"
	fi
	rm -f "$RD_TMP/m$r.img"
done
"$ctl" wlog o stop
oracle "$RD_TMP/base.img" "$RD_TMP/end.img"
same "$RD_TMP/end.img" "the end of log 1"
sums[end]=$(hash "$RD_TMP/end.img")
# the oracle can fail: a replay that undoes the last write is caught
cp "$RD_TMP/base.img" "$RD_TMP/broken.img"
WLOG_REPLAY_SKIP=last "$replay" "$dev" "$RD_TMP/broken.img" >/dev/null
cmp -s "$RD_TMP/broken.img" <(dd if="$dev" bs=1M iflag=direct status=none) &&
	fail "a replay without the last write gave the device too"
rm -f "$RD_TMP/broken.img" "$RD_TMP/end.img"

rd_configure cl clone_of="ramdisk$idx ck1" power=1
cmp "$RD_TMP/ck1.img" <(dd if="$RD_DEV" bs=1M iflag=direct status=none) || fail "the clone of ck1 is not the replay up to m1"
dd if=/dev/urandom of="$RD_DEV" bs=64k count=4 oflag=direct status=none
rd_unconfigure cl
save "$RD_TMP/origin.img"
assert_eq "$(hash "$RD_TMP/origin.img")" "${sums[end]}" "the origin after its clone was written"

"$ctl" wlog o export "$RD_TMP/log1.dmlw"
if [ -n "${REPLAY_LOG:-}" ]; then
	for ((r = 1; r <= rounds; r++)); do
		replay_log "$RD_TMP/log1.dmlw" "$RD_TMP/base.img" "${sums[m$r]}" --end-mark "m$r"
	done
	replay_log "$RD_TMP/log1.dmlw" "$RD_TMP/base.img" "${sums[end]}"
else
	echo "REPLAY_LOG not set: fstests' replay-log not run (the in-tree replayer was)"
fi

echo "a rollback to ck1 (the log stopped) gives the replay of log 1 up to m1"
"$ctl" wlog o clear
echo ck1 >"$cfs/o/rollback"
same "$RD_TMP/ck1.img" "the rollback to ck1"

echo "log 2, started with ck3: a round, a flush, plain writes, a cut that drops all"
"$ctl" wlog o start ck3
cp "$RD_TMP/ck1.img" "$RD_TMP/base2.img"
"$work" "$dev" 11 4 30 || fail "wlog-work on log 2"
echo "mark m11" >"$cfs/o/write_log"
oracle "$RD_TMP/base2.img" "$RD_TMP/m11.img" --to-mark m11
same "$RD_TMP/m11.img" "mark m11"
sums[m11]=$(hash "$RD_TMP/m11.img")
sync "$dev"
"$work" "$dev" 12 1 16 plain || fail "wlog-work's plain writes"
save "$RD_TMP/pre-cut.img"
sums[pre-cut]=$(hash "$RD_TMP/pre-cut.img")
assert_eq "$(cat "$cfs/o/power_cut_drop_percent")" 100 "power_cut_drop_percent"
echo 1 >"$cfs/o/power_cut"
assert_eq "$(cat "$cfs/o/write_log")" cut "write_log after the cut"
oracle "$RD_TMP/base2.img" "$RD_TMP/whole.img"
cmp "$RD_TMP/whole.img" "$RD_TMP/pre-cut.img" || fail "log 2 replayed whole is not the device before the cut"
save "$RD_TMP/after.img"
oracle "$RD_TMP/base2.img" "$RD_TMP/floor.img" --cut "$RD_TMP/after.img" --strict
cmp -s "$RD_TMP/floor.img" "$RD_TMP/pre-cut.img" && fail "the cut lost nothing: the plain writes were not cached"
"$ctl" wlog o export "$RD_TMP/log2.dmlw"
if [ -n "${REPLAY_LOG:-}" ]; then
	replay_log "$RD_TMP/log2.dmlw" "$RD_TMP/base2.img" "${sums[m11]}" --end-mark m11
	replay_log "$RD_TMP/log2.dmlw" "$RD_TMP/base2.img" "${sums[pre-cut]}" --end-mark power-cut
fi
rm -f "$RD_TMP"/{whole,floor,pre-cut,m11,ck1}.img

echo "log 3, started with ck4: a cut under I/O that keeps half the sectors"
"$ctl" wlog o clear
echo 50 >"$cfs/o/power_cut_drop_percent"
echo sector >"$cfs/o/power_cut_unit"
# writes wait 50 ms: a stopped writer may leave its write in flight
echo 50000000 >"$cfs/o/write_latency_ns"
"$ctl" wlog o start ck4
save "$RD_TMP/base3.img"
"$work" "$dev" 21 4 100000 aio >"$RD_TMP/work.out" 2>&1 &
wpid=$!
on_exit "kill -9 $wpid 2>/dev/null"
sleep 3
# stopped, its writers submit nothing more; a write in io_getevents stays in flight
kill -STOP "$wpid"
for ((i = 0; i < 100; i++)); do
	running=$(cat /proc/"$wpid"/task/*/stat 2>/dev/null | awk '$3 != "T" && $3 != "t"' | wc -l)
	((running == 0)) && break
	sleep 0.02
done
((running == 0)) || fail "the writers did not stop"
cut_errors=$(sysfs_stat "$dev" cut_errors)
echo 1 >"$cfs/o/power_cut"
save "$RD_TMP/after3.img"
kill -9 "$wpid"
wait "$wpid" 2>/dev/null || true
cut_errors=$(($(sysfs_stat "$dev" cut_errors) - cut_errors))
echo "cut_errors: $cut_errors writes in flight at the cut failed"
assert_eq "$(cat "$cfs/o/write_log")" cut "write_log after the cut under I/O"
oracle "$RD_TMP/base3.img" "$RD_TMP/floor3.img" --cut "$RD_TMP/after3.img"
echo 0 >"$cfs/o/write_latency_ns"
"$ctl" wlog o clear
echo "the write log's oracle agrees"
