#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash checks crash states on a clone per state: none fails on ext4, xfs, btrfs and f2fs, e2fsck finds ext2's inconsistent; --mkfs-options and --mount-options reach mkfs and every mount and are recorded in the JSON and the rebuild commands; without DEV it makes its device and removes it after a run, an error or a signal, runs --setup before the log, and rdcrash mark marks the log from a workload; the same seed gives the same states bit for bit (rebuilt alone with rdcrash state, hashed); a --check that fails names the state and the command that rebuilds it; epochs of few states are checked whole (--exhaustive); -j 2 and -j 1 (rdcrash check of one log) give the same states, bytes and verdicts;, each state once, and the progress, the summary (first, also of a stopped run) and the JSON say what was covered; a shell workload's marks reach --check; bad input is refused with a clear message
# KERNELS: first
# rdcrash's own logic does not depend on the kernel, and what it drives in
# the module (checkpoints, clones, the write log) is tested on every kernel
# by tests 124, 127 and 128: one run saves make check about 50 s on each of
# the others. make check-crash runs every workload on the newest kernel.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 mkfs.ext2 mkfs.xfs e2fsck xfs_repair md5sum jq mkfs.btrfs btrfs mkfs.f2fs fsck.f2fs xfs_info

load_module nr_devices=0
rdcrash=$RD_BIN/rdcrash
ctl=$RD_BIN/ramdiskctl
rd_configure crash size=320M cache_mode=writeback power=1
dev=$RD_DEV

echo "ext4 and xfs: no state fails (test 130 runs every built-in workload)"
rdcrash_expect 0 "$dev" --fs ext4 --workload rename-over --states 2 --seed 11
grep -q "states checked in .* 0 failed (rename-over, ext4, seed 11)" <<<"$out" || fail "ext4: $out"
rdcrash_expect 0 "$dev" --fs xfs --workload dir-fsync --states 1 --seed 12
grep -q "states checked in .* 0 failed (dir-fsync, xfs, seed 12)" <<<"$out" || fail "xfs: $out"

echo "btrfs and f2fs: no state fails; each state mounted, then checked read-only"
rdcrash_expect 0 "$dev" --fs btrfs --workload create-fsync --states 1 --seed 14
grep -q "states checked in .* 0 failed (create-fsync, btrfs, seed 14)" <<<"$out" || fail "btrfs: $out"
rdcrash_expect 0 "$dev" --fs f2fs --workload create-fsync --states 1 --seed 15
grep -q "states checked in .* 0 failed (create-fsync, f2fs, seed 15)" <<<"$out" || fail "f2fs: $out"

echo "--mkfs-options reach mkfs, --mount-options every mount; both in the JSON and the rebuild command"
rdcrash_expect 3 "$dev" --fs ext4 --mkfs-options '-b 2048' --mount-options 'data=journal,noatime' --states 1 --seed 17 --json \
	--workload '[ "$(stat -f -c %S .)" = 2048 ] && grep -q " $PWD ext4 .*data=journal" /proc/mounts && echo 1 >f && sync f' \
	--check 'grep -q " $PWD ext4 .*noatime.*data=journal" /proc/mounts && false'
jq -e '.states | length > 2' "$RD_TMP/out" >/dev/null || fail "too few states: $out"
# every state failed its --check on purpose: the check saw the options in force
jq -e 'all(.states[]; .verdict == "failed" and (.detail | startswith("--check exited 1")))' \
	"$RD_TMP/out" >/dev/null || fail "a state did not see data=journal,noatime: $out"
jq -e 'all(.states[]; .fs == "ext4" and .mkfs_options == "-b 2048" and .mount_options == "data=journal,noatime" and .seed == 17)' \
	"$RD_TMP/out" >/dev/null || fail "options not in the JSON: $out"
rebuild=$(jq -r '.states[1].rebuild' "$RD_TMP/out")
assert_eq "$rebuild" "rdcrash state --seed 17 --epoch $(jq -r '.states[1].epoch' "$RD_TMP/out") --state $(jq -r '.states[1].state' "$RD_TMP/out") --states 1 --exhaustive 0 --fs ext4 --mkfs-options '-b 2048' --mount-options data=journal,noatime $dev" "the rebuild command"
expect_refusal 1 "mkfs.ext4 exited 1" "$rdcrash" run --fs ext4 --mkfs-options '-O nosuchfeature' --workload create-fsync "$dev"

echo "ext2: e2fsck -n finds crash states inconsistent (its design promises nothing)"
rdcrash_expect 3 "$dev" --fs ext2 --workload create-fsync --states 1 --seed 13
grep -q "^FAIL epoch [0-9]* state [0-9]*: e2fsck -n exited 4: " <<<"$out" ||
	fail "ext2 create-fsync failed otherwise: $out"
grep -q "rebuild: rdcrash state --seed 13 --epoch [0-9]* --state [0-9]* --states 1 --exhaustive 0 --fs ext2 $dev" <<<"$out" ||
	fail "no rebuild command: $out"

# A run's log depends on timing (when the journal commits), so two runs
# differ; from one log, a seed gives the same states bit for bit.
echo "from a run's log, the same seed gives the same states, bit for bit"
rdcrash_expect 0 "$dev" --fs ext4 --workload create-fsync --states 2 --seed 21 --json
states=$(jq '.states | length' "$RD_TMP/out")
[ "$states" -gt 8 ] || fail "only $states states checked"
# state: rebuild it alone, print the clone's sum, remove the clone; the
# run's --states decides which epochs were checked whole, so it goes too
state_sum() {
	local c
	c=$("$rdcrash" state --seed 21 --states 2 --epoch "$1" --state "$2" "$dev")
	md5sum <"$c" | cut -d' ' -f1
	"$ctl" remove "rdcrash-clone-${dev#/dev/ramdisk}"
}
# a sampled epoch (more than 2 states exist): state 2 is past the run's two
epoch=$(jq '[.states[] | select(.cover == "sample")][0].epoch' "$RD_TMP/out")
[ "$epoch" != null ] || fail "no epoch was sampled: $out"
s1=$(state_sum "$epoch" 2)
s2=$(state_sum "$epoch" 2)
all=$(state_sum "$epoch" 0)
none=$(state_sum "$epoch" 1)
echo "epoch $epoch state 2: $s1 $s2; all of it: $all, none: $none"
assert_eq "$s2" "$s1" "the sum of a state rebuilt twice"
# a sampled epoch holds writes: keeping them all differs from keeping none
[ "$all" != "$none" ] || fail "states 0 and 1 of epoch $epoch are the same"
# a state left on its clone: the next run takes the clone away first
"$rdcrash" state --seed 21 --states 2 --epoch "$epoch" --state 2 "$dev" >/dev/null

echo "--exhaustive: an epoch of few states is checked whole, each state once, and says so"
rdcrash_expect 0 "$dev" --fs ext4 --workload create-fsync --states 1 --exhaustive 3 --seed 22 --json
# "rdcrash: epoch K/N: W writes, E states, C checked (how), F failed so far"
sed -n 's|^rdcrash: epoch \([0-9]*\)/[0-9]*: [0-9]* writes, \([0-9]*\) states, \([0-9]*\) checked (\(all\)).*|\1 \2 \3 \4|p; s|^rdcrash: epoch \([0-9]*\)/[0-9]*: [0-9]* writes, [0-9]* states, \([0-9]*\) checked (every subset.*|\1 - \2 subsets|p' \
	"$RD_TMP/err" >"$RD_TMP/whole"
whole=0
biggest=
while read -r k exist checked how; do
	k=$((k - 1))
	[ "$how" = subsets ] || assert_eq "$checked" "$exist" "states checked of epoch $k, checked whole"
	[ "$checked" -le 8 ] || fail "epoch $k: $checked states, above --exhaustive 3's 8"
	assert_eq "$(jq -c "[.states[] | select(.epoch == $k) | .state] | sort" "$RD_TMP/out")" \
		"$(jq -cn "[range($checked)]")" "the states of epoch $k in the JSON"
	assert_eq "$(jq -r "[.states[] | select(.epoch == $k) | .cover] | unique | join(\" \")" "$RD_TMP/out")" \
		"$how" "the cover of epoch $k in the JSON"
	whole=$((whole + 1))
	if [ "$checked" -gt 2 ] && [ -z "$biggest" ]; then
		biggest="$k $checked"
	fi
done <"$RD_TMP/whole"
[ -n "$biggest" ] || fail "no epoch of more than 2 states was checked whole: $(cat "$RD_TMP/err")"
# the summary goes beside the JSON, to stderr
total=$(jq '.states | length' "$RD_TMP/out")
grep -q "^rdcrash: $total states checked in [0-9]* s, 0 failed (create-fsync, ext4, seed 22)\$" "$RD_TMP/err" ||
	fail "no summary of $total states on stderr: $(tail -n 3 "$RD_TMP/err")"
# each epoch's line counts the states done of all the run checks, with the time left
grep "^rdcrash: epoch " "$RD_TMP/err" | tail -n 1 | grep -q "; $total/$total states, 0 failed\$" ||
	fail "the last epoch's progress: $(grep "^rdcrash: epoch " "$RD_TMP/err" | tail -n 1)"
grep "^rdcrash: epoch " "$RD_TMP/err" | head -n -1 | grep -q "; [0-9]*/$total states, 0 failed, about [0-9]* s left\$" ||
	fail "no time left in the progress: $(grep "^rdcrash: epoch " "$RD_TMP/err")"
sampled=$(jq '[.states[] | select(.cover == "sample") | .epoch] | unique | length' "$RD_TMP/out")
grep -q "^rdcrash: epochs: $((whole - $(grep -c ' subsets$' "$RD_TMP/whole"))) checked whole, $(grep -c ' subsets$' "$RD_TMP/whole") every subset of whole writes, $sampled sampled\$" "$RD_TMP/err" ||
	fail "the epochs' summary: $(tail -n 3 "$RD_TMP/err")"
read -r k checked <<<"$biggest"
last=$((checked - 1))
rebuild=$(jq -r ".states[] | select(.epoch == $k and .state == $last) | .rebuild" "$RD_TMP/out")
case $rebuild in
"rdcrash state --seed 22 --epoch $k --state $last --states 1 --exhaustive 3 --fs ext4 $dev") ;;
*) fail "the rebuild command of epoch $k state $last: $rebuild" ;;
esac
c=$(${rebuild/#rdcrash/$rdcrash})
a=$(md5sum <"$c" | cut -d' ' -f1)
"$ctl" remove "rdcrash-clone-${dev#/dev/ramdisk}"
c=$(${rebuild/#rdcrash/$rdcrash})
assert_eq "$(md5sum <"$c" | cut -d' ' -f1)" "$a" "the sum of epoch $k state $last rebuilt twice"
"$ctl" remove "rdcrash-clone-${dev#/dev/ramdisk}"
expect_refusal 2 "epoch $k is checked whole (--exhaustive 3, --states 1): its states are 0 to $last" \
	"$rdcrash" state --seed 22 --epoch "$k" --state "$checked" --states 1 --exhaustive 3 "$dev"

echo "-j: the same states, bytes and verdicts with two workers (the run) and one (rdcrash check of its log)"
# a check whose verdict depends on the state: some pass, some fail
cat >"$RD_TMP/count" <<'CHECK'
#!/bin/sh
[ "$(find . -type f | wc -l)" -ge 3 ]
CHECK
chmod +x "$RD_TMP/count"
rdcrash_expect 3 "$dev" --fs ext4 --workload create-fsync --states 2 --seed 23 --json -j 2 --check "$RD_TMP/count"
jq -c '.states' "$RD_TMP/out" >"$RD_TMP/run.states"
status=0
SECONDS=0
"$rdcrash" check --fs ext4 --check "$RD_TMP/count" --states 2 --seed 23 --json -j 1 "$dev" \
	>"$RD_TMP/check-1" 2>"$RD_TMP/err" || status=$?
tail -n 2 "$RD_TMP/err"
echo "rdcrash check -j 1: $SECONDS s"
assert_eq "$status" 3 "exit status of rdcrash check -j 1"
grep -q "^rdcrash: [0-9]* states checked in [0-9]* s, [0-9]* failed (the last run's log, ext4, seed 23)\$" "$RD_TMP/err" ||
	fail "no summary of rdcrash check: $(tail -n 3 "$RD_TMP/err")"
jq -c '.states' "$RD_TMP/check-1" >"$RD_TMP/check-1.states"
cmp -s "$RD_TMP/run.states" "$RD_TMP/check-1.states" ||
	fail "the states of rdcrash check -j 1 differ from the run's (-j 2): $(diff "$RD_TMP/run.states" "$RD_TMP/check-1.states" | head -c 600)"
jq -e '[.states[].verdict] | (index("ok") != null) and (index("failed") != null)' "$RD_TMP/check-1" >/dev/null ||
	fail "the count check did not both pass and fail: nothing to compare"
jq -e 'all(.states[]; .hash | test("^[0-9a-f]{16}$"))' "$RD_TMP/check-1" >/dev/null || fail "no state hash in the JSON"
assert_eq "$(find "$RD_CONFIGFS" -mindepth 1 -maxdepth 1 -name 'rdcrash-clone-*' | wc -l)" 0 \
	"workers' clones left after rdcrash check"
plain=$("$ctl" create --size 64M)
expect_refusal 1 "has no write log of a finished rdcrash run" "$rdcrash" check --fs ext4 --check true "$plain"
"$ctl" remove "$plain"

echo "a --check that fails names each state and how to rebuild it"
rdcrash_expect 3 "$dev" --fs ext4 --workload 'echo data >f; sync' --check 'test -e nosuch' --states 1 --seed 5
grep -q "^FAIL epoch 0 state 0: --check exited 1" <<<"$out" || fail "--check failure: $out"

echo "a shell workload marks the log (RDCRASH_WRITE_LOG); --check learns the marks before the crash (RDCRASH_MARKS)"
export SEEN=$RD_TMP/seen
: >"$SEEN"
cat >"$RD_TMP/check" <<'CHECK'
#!/bin/sh
printf '%s' "$RDCRASH_MARKS" | tr '\n' ',' >>"$SEEN"
echo >>"$SEEN"
case $RDCRASH_MARKS in *"made b"*) [ "$(cat b)" = 2 ] ;; esac
CHECK
chmod +x "$RD_TMP/check"
rdcrash_expect 0 "$dev" --fs ext4 --states 1 --seed 6 --check "$RD_TMP/check" --workload \
	'echo 1 >a && sync a && echo "mark made a" >"$RDCRASH_WRITE_LOG" && echo 2 >b && sync b && echo "mark made b" >"$RDCRASH_WRITE_LOG"'
seen=$(sort -u "$SEEN" | tr '\n' ' ')
assert_eq "$seen" " made a, made a,made b, " "the mark lists --check saw, one a state"

echo "without DEV: a device of --size, --setup before the log, rdcrash mark from the workload, removed at the end"
made() { find "$RD_CONFIGFS" -mindepth 1 -maxdepth 1 -name 'rdcrash-run-*' -printf '%f\n'; }
cat >"$RD_TMP/check" <<'CHECK'
#!/bin/sh
# the setup's file is in every state, even one that kept nothing of the workload
[ "$(cat setup)" = ready ] || exit 9
case $RDCRASH_MARKS in *"wrote b"*) [ "$(cat b)" = 2 ] ;; esac
CHECK
export PATH="$RD_BIN:$PATH" RDCRASH_SEEN="$RD_TMP/made-dev"
status=0
"$rdcrash" run --fs ext4 --size 160M --states 1 --seed 7 --check "$RD_TMP/check" \
	--setup 'echo ready >setup' --workload \
	'echo "$RDCRASH_DEVICE" >"$RDCRASH_SEEN" && echo 2 >b && sync b && rdcrash mark wrote b' \
	>"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
cat "$RD_TMP/out" "$RD_TMP/err"
assert_eq "$status" 0 "exit status of rdcrash run without DEV"
grep -q "rdcrash: made rdcrash-run-[0-9]* (/dev/ramdisk[0-9]*), 167772160 bytes" "$RD_TMP/err" ||
	fail "no device made: $(cat "$RD_TMP/err")"
[ -s "$RD_TMP/made-dev" ] || fail "the workload did not run on the made device"
assert_eq "$(made)" "" "rdcrash-run items left after the run"
echo "a workload that fails, and a run stopped by SIGINT, leave no device either"
expect_refusal 1 "the workload exited 3" "$rdcrash" run --fs ext4 --size 128M --workload 'exit 3'
assert_eq "$(made)" "" "rdcrash-run items left after a failed workload"
"$rdcrash" run --fs ext4 --size 128M --workload 'touch started; sleep 600' >"$RD_TMP/out" 2>"$RD_TMP/err" &
pid=$!
for ((i = 0; i < 300; i++)); do
	[ -n "$(made)" ] && grep -q " /tmp/rdcrash\.[^ ]* ext4 " /proc/mounts && break
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
status=0
wait "$pid" || status=$?
cat "$RD_TMP/err"
assert_eq "$status" 1 "exit status of rdcrash run after SIGINT"
grep -q "stopped by signal 2" "$RD_TMP/err" || fail "no word of the signal: $(cat "$RD_TMP/err")"
assert_eq "$(made)" "" "rdcrash-run items left after SIGINT"
echo "a run stopped while it checks says what it found so far"
# the first state's check passes; the second's waits to be stopped
rm -f "$RD_TMP/checked-one"
"$rdcrash" run --fs ext4 --size 128M --states 4 --seed 8 --workload 'echo 1 >a && sync a' \
	--check "[ -e $RD_TMP/checked-one ] && exec sleep 600; touch $RD_TMP/checked-one" \
	>"$RD_TMP/out" 2>"$RD_TMP/err" &
pid=$!
for ((i = 0; i < 600; i++)); do
	[ -e "$RD_TMP/checked-one" ] && pgrep -f "^sleep 600\$" >/dev/null && break
	sleep 0.1
done
kill -INT "$pid"
status=0
wait "$pid" || status=$?
cat "$RD_TMP/out" "$RD_TMP/err"
assert_eq "$status" 1 "exit status of rdcrash run stopped while checking"
grep -q "^[1-9][0-9]* states checked in [0-9]* s, [0-9]* failed before it was stopped (echo 1 >a && sync a, ext4, seed 8)\$" "$RD_TMP/out" ||
	fail "no summary of the states checked before SIGINT: $(cat "$RD_TMP/out")"
grep -q "^epochs: " "$RD_TMP/out" || fail "no epochs' summary after SIGINT: $(cat "$RD_TMP/out")"
assert_eq "$(made)" "" "rdcrash-run items left after SIGINT while checking"
echo "rdcrash mark outside a run: the log must be recording"
expect_refusal 1 "is the write log recording?" "$rdcrash" mark --device "$dev" hello

echo "bad input: refused, nothing done"
expect_refusal 2 "--fs 'vfat': ext2, ext3, ext4, xfs, btrfs or f2fs" "$rdcrash" run --fs vfat --workload create-fsync "$dev"
expect_refusal 2 "run needs --workload" "$rdcrash" run --fs ext4 "$dev"
expect_refusal 2 "state needs --seed, --epoch and --state" "$rdcrash" state --epoch 1 "$dev"
expect_refusal 2 "--states '0' is not 1 to 100000" "$rdcrash" run --fs ext4 --workload x --states 0 "$dev"
expect_refusal 1 "no configfs device of that name or number" "$rdcrash" run --fs ext4 --workload x nosuch
rd_configure wt size=64M power=1
expect_refusal 1 "cache_mode is writethrough" "$rdcrash" run --fs ext4 --workload create-fsync "$RD_DEV"
expect_refusal 2 "the log has" "$rdcrash" state --seed 1 --epoch 100000 --state 0 "$dev"
echo "rdcrash ok"
