#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash minimise on a planted bug (a workload that marks a file durable without its fsync): a failing state shrinks to the one write that matters, named by debugfs as the file's block (and on xfs by xfs_db); its dm-log-writes reproducer, replayed onto a zeroed image by a replayer written from the format (and fstests' replay-log with REPLAY_LOG=PATH), gives the hash minimise printed; a state that holds has nothing to minimise; bad input is refused
# KERNELS: first
# As test 129: minimise's logic does not depend on the kernel, and what it
# drives in the module is tested on every kernel by tests 124, 127 and 128.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 e2fsck debugfs dumpe2fs mkfs.xfs xfs_repair xfs_db jq sha256sum truncate

load_module nr_devices=0
rdcrash=$RD_BIN/rdcrash
# 4 KiB physical blocks and file-system blocks: b's 4 KiB write is one
# block, lost or not, never torn
rd_configure crash size=320M physical_block_size=4096 cache_mode=writeback power=1
dev=$RD_DEV

# The planted bug: b is overwritten in place with O_DIRECT (its block was
# allocated and made durable by the setup), then marked durable with no
# fsync; only c's fsync, after the mark, flushes. A crash between the mark
# and that flush can lose b's new block while the mark says it is there.
setup='printf %4096s old >b && sync b'
workload='dd if=/tmp/rdcrash-new of=b bs=4096 count=1 oflag=direct conv=notrunc status=none &&
rdcrash mark b-durable && echo c >c && sync c'
check='for m in $RDCRASH_MARKS; do
	[ "$m" != b-durable ] || [ "$(tr -d " " <b)" = new ] || { echo "b lost its new block"; exit 1; }
done'
printf %4096s new >/tmp/rdcrash-new
on_exit "rm -f /tmp/rdcrash-new"
PATH=$RD_BIN:$PATH
status=0
"$rdcrash" run --fs ext4 --mkfs-options '-b 4096' --setup "$setup" --workload "$workload" --check "$check" \
	--exhaustive 6 --seed 5 --json "$dev" >"$RD_TMP/run.json" 2>"$RD_TMP/run.err" || status=$?
tail -n 4 "$RD_TMP/run.err"
assert_eq "$status" 3 "exit status of the run with the planted bug"
failed=$(jq -c '[.states[] | select(.verdict == "failed")][0]' "$RD_TMP/run.json")
[ "$failed" != null ] || fail "no failing state in the run"
epoch=$(jq -r .epoch <<<"$failed")
state=$(jq -r .state <<<"$failed")
passed=$(jq -r "[.states[] | select(.verdict == \"ok\" and .epoch == $epoch)][0].state" "$RD_TMP/run.json")
echo "failing: epoch $epoch state $state; holding: state $passed"

echo "minimise shrinks it to b's block"
status=0
"$rdcrash" minimise --fs ext4 --check "$check" --seed 5 --exhaustive 6 --epoch "$epoch" \
	--state "$state" --reproducer "$RD_TMP/min.dmlw" "$dev" >"$RD_TMP/min.out" 2>"$RD_TMP/min.err" ||
	status=$?
cat "$RD_TMP/min.err" "$RD_TMP/min.out"
assert_eq "$status" 3 "exit status of minimise"
grep -q "needs 1 of the" "$RD_TMP/min.err" || fail "minimise did not come down to one write"
entries=$(grep -c '^entry ' "$RD_TMP/min.out")
assert_eq "$entries" 1 "writes listed"
# the write debugfs names is b's 4 KiB block, lost, and what it says of b is true
line=$(grep '^entry ' "$RD_TMP/min.out")
grep -q "write of sectors [0-9]*+8 (4096 bytes), lost; ext4: inode [0-9]* /b$" <<<"$line" ||
	fail "the write left is not b's block: $line"
sector=$(sed -n 's/.*sectors \([0-9]*\)+8.*/\1/p' <<<"$line")
ino=$(sed -n 's/.*inode \([0-9]*\) .*/\1/p' <<<"$line")
fsblock=$(debugfs -R "bmap <$ino> 0" "$dev" 2>/dev/null)
assert_eq "$((sector * 512 / 4096))" "$fsblock" "b's first block, as debugfs bmap says"

echo "the reproducer replays to the minimal state's bytes"
want=$(sed -n 's/^sha256 //p' "$RD_TMP/min.out")
[ ${#want} = 64 ] || fail "no hash printed"
size=$(($(cat "/sys/block/${dev#/dev/}/size") * 512))
truncate -s "$size" "$RD_TMP/img"
n=$(dmlw_replay "$RD_TMP/min.dmlw" "$RD_TMP/img" crash)
echo "replayed $n entries"
assert_eq "$(sha256sum <"$RD_TMP/img" | cut -d' ' -f1)" "$want" "the hash of the replayed image"
# and it is the failing state: b has its old block (debugfs reads the
# image as it is, its journal not replayed: b's data never goes there)
assert_eq "$(debugfs -R "cat /b" "$RD_TMP/img" 2>/dev/null | tr -d ' ')" old "b in the reproducer"
if [ -n "${REPLAY_LOG:-}" ]; then
	truncate -s 0 "$RD_TMP/rl.img" && truncate -s "$size" "$RD_TMP/rl.img"
	"$REPLAY_LOG" --log "$RD_TMP/min.dmlw" --replay "$RD_TMP/rl.img" --end-mark crash ||
		fail "replay-log failed"
	assert_eq "$(sha256sum <"$RD_TMP/rl.img" | cut -d' ' -f1)" "$want" "the hash after fstests' replay-log"
	echo "fstests' replay-log gives the same hash"
else
	echo "REPLAY_LOG not set: fstests' replay-log not run (the replayer in tests/lib was)"
fi

echo "a state that holds: nothing to minimise"
if [ "$passed" != null ]; then
	"$rdcrash" minimise --fs ext4 --check "$check" --seed 5 --exhaustive 6 --epoch "$epoch" \
		--state "$passed" --reproducer "$RD_TMP/none.dmlw" "$dev" >"$RD_TMP/out" 2>"$RD_TMP/err" ||
		fail "minimise of a state that holds: $(cat "$RD_TMP/err")"
	grep -q "holds: nothing to minimise" "$RD_TMP/err" || fail "$(cat "$RD_TMP/err")"
	[ ! -e "$RD_TMP/none.dmlw" ] || fail "a reproducer for a state that holds"
fi

echo "bad input"
run_cmd 2 "$rdcrash" minimise --fs ext4 --seed 5 --epoch 0 --state 0 "$dev"
grep -q "minimise needs --check CMD" <<<"$err" || fail "$err"
run_cmd 2 "$rdcrash" minimise --fs ext4 --check true --epoch 0 --state 0 "$dev"
grep -q "minimise needs --seed, --epoch and --state" <<<"$err" || fail "$err"
run_cmd 2 "$rdcrash" minimise --fs ext4 --check true --seed 5 --epoch 0 --state 0 --json "$dev"
grep -q "minimise takes no" <<<"$err" || fail "$err"
run_cmd 2 "$rdcrash" run --fs ext4 --workload true --reproducer x "$dev"
grep -q -- "--reproducer is for minimise" <<<"$err" || fail "$err"
run_cmd 2 "$rdcrash" minimise --fs ext4 --check true --seed 5 --epoch 999 --state 0 "$dev"
grep -q "is past them" <<<"$err" || fail "$err"

echo "xfs: the same bug comes down to b's block, named by xfs_db"
status=0
"$rdcrash" run --fs xfs --setup "$setup" --workload "$workload" --check "$check" \
	--exhaustive 6 --seed 6 --json "$dev" >"$RD_TMP/xrun.json" 2>"$RD_TMP/xrun.err" || status=$?
tail -n 2 "$RD_TMP/xrun.err"
assert_eq "$status" 3 "exit status of the xfs run with the planted bug"
xfailed=$(jq -c '[.states[] | select(.verdict == "failed")][0]' "$RD_TMP/xrun.json")
status=0
"$rdcrash" minimise --fs xfs --check "$check" --seed 6 --exhaustive 6 --epoch "$(jq -r .epoch <<<"$xfailed")" \
	--state "$(jq -r .state <<<"$xfailed")" --reproducer "$RD_TMP/x.dmlw" "$dev" >"$RD_TMP/x.out" 2>"$RD_TMP/x.err" ||
	status=$?
cat "$RD_TMP/x.out"
assert_eq "$status" 3 "exit status of minimise on xfs"
assert_eq "$(grep -c '^entry ' "$RD_TMP/x.out")" 1 "writes listed on xfs"
grep -q "^entry [0-9]*: write of sectors [0-9]*+8 (4096 bytes), lost; xfs: inode [0-9]* /b$" "$RD_TMP/x.out" ||
	fail "the write left on xfs is not b's block: $(grep '^entry ' "$RD_TMP/x.out")"
