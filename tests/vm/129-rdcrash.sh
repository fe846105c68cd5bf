#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash checks crash states on a clone per state: none fails on ext4, xfs, btrfs and f2fs, e2fsck finds ext2's inconsistent; --mkfs-options and --mount-options reach mkfs and every mount and are recorded in the JSON and the rebuild commands; without DEV it makes its device and removes it after a run, an error or a signal, runs --setup before the log, and rdcrash mark marks the log from a workload; the same seed gives the same states bit for bit (rebuilt alone with rdcrash state, hashed); a --check that fails names the state and the command that rebuilds it; a shell workload's marks reach --check; bad input is refused with a clear message
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

# run_rdcrash WANT ARGS...: rdcrash run exits with WANT; its output in $out
run_rdcrash() {
	local want=$1 status=0
	shift
	"$rdcrash" run "$@" "$dev" >"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
	out=$(cat "$RD_TMP/out")
	tail -n 2 "$RD_TMP/err"
	echo "$out" | tail -n 3
	assert_eq "$status" "$want" "exit status of rdcrash run $*"
}

echo "ext4 and xfs: no state fails (test 130 runs every built-in workload)"
run_rdcrash 0 --fs ext4 --workload rename-over --states 2 --seed 11
grep -q "states checked in .* 0 failed (rename-over, ext4, seed 11)" <<<"$out" || fail "ext4: $out"
run_rdcrash 0 --fs xfs --workload dir-fsync --states 1 --seed 12
grep -q "states checked in .* 0 failed (dir-fsync, xfs, seed 12)" <<<"$out" || fail "xfs: $out"

echo "btrfs and f2fs: no state fails; each state mounted, then checked read-only"
run_rdcrash 0 --fs btrfs --workload create-fsync --states 1 --seed 14
grep -q "states checked in .* 0 failed (create-fsync, btrfs, seed 14)" <<<"$out" || fail "btrfs: $out"
run_rdcrash 0 --fs f2fs --workload create-fsync --states 1 --seed 15
grep -q "states checked in .* 0 failed (create-fsync, f2fs, seed 15)" <<<"$out" || fail "f2fs: $out"

echo "--mkfs-options reach mkfs, --mount-options every mount; both in the JSON and the rebuild command"
run_rdcrash 3 --fs ext4 --mkfs-options '-b 2048' --mount-options 'data=journal,noatime' --states 1 --seed 17 --json \
	--workload '[ "$(stat -f -c %S .)" = 2048 ] && grep -q " $PWD ext4 .*data=journal" /proc/mounts && echo 1 >f && sync f' \
	--check 'grep -q " $PWD ext4 .*noatime.*data=journal" /proc/mounts && false'
jq -e '.states | length > 2' "$RD_TMP/out" >/dev/null || fail "too few states: $out"
# every state failed its --check on purpose: the check saw the options in force
jq -e 'all(.states[]; .verdict == "failed" and (.detail | startswith("--check exited 1")))' \
	"$RD_TMP/out" >/dev/null || fail "a state did not see data=journal,noatime: $out"
jq -e 'all(.states[]; .fs == "ext4" and .mkfs_options == "-b 2048" and .mount_options == "data=journal,noatime" and .seed == 17)' \
	"$RD_TMP/out" >/dev/null || fail "options not in the JSON: $out"
rebuild=$(jq -r '.states[1].rebuild' "$RD_TMP/out")
assert_eq "$rebuild" "rdcrash state --seed 17 --epoch $(jq -r '.states[1].epoch' "$RD_TMP/out") --state $(jq -r '.states[1].state' "$RD_TMP/out") --fs ext4 --mkfs-options '-b 2048' --mount-options data=journal,noatime $dev" "the rebuild command"
expect_refusal 1 "mkfs.ext4 exited 1" "$rdcrash" run --fs ext4 --mkfs-options '-O nosuchfeature' --workload create-fsync "$dev"

echo "ext2: e2fsck -n finds crash states inconsistent (its design promises nothing)"
run_rdcrash 3 --fs ext2 --workload create-fsync --states 1 --seed 13
grep -q "^FAIL epoch [0-9]* state [0-9]*: e2fsck -n exited 4: " <<<"$out" ||
	fail "ext2 create-fsync failed otherwise: $out"
grep -q "rebuild: rdcrash state --seed 13 --epoch [0-9]* --state [0-9]* --fs ext2 $dev" <<<"$out" ||
	fail "no rebuild command: $out"

# A run's log depends on timing (when the journal commits), so two runs
# differ; from one log, a seed gives the same states bit for bit.
echo "from a run's log, the same seed gives the same states, bit for bit"
run_rdcrash 0 --fs ext4 --workload create-fsync --states 2 --seed 21 --json
states=$(jq '.states | length' "$RD_TMP/out")
[ "$states" -gt 8 ] || fail "only $states states checked"
# state: rebuild it alone, print the clone's sum, remove the clone
state_sum() {
	local c
	c=$("$rdcrash" state --seed 21 --epoch "$1" --state "$2" "$dev")
	md5sum <"$c" | cut -d' ' -f1
	"$ctl" remove "rdcrash-clone-${dev#/dev/ramdisk}"
}
s1=$(state_sum 3 2)
s2=$(state_sum 3 2)
all=$(state_sum 3 0)
none=$(state_sum 3 1)
echo "epoch 3 state 2: $s1 $s2; all of it: $all, none: $none"
assert_eq "$s2" "$s1" "the sum of a state rebuilt twice"
# epoch 3 holds a file's data: keeping it all differs from keeping none
[ "$all" != "$none" ] || fail "states 0 and 1 of epoch 3 are the same"
# a state left on its clone: the next run takes the clone away first
"$rdcrash" state --seed 21 --epoch 3 --state 2 "$dev" >/dev/null

echo "a --check that fails names each state and how to rebuild it"
run_rdcrash 3 --fs ext4 --workload 'echo data >f; sync' --check 'test -e nosuch' --states 1 --seed 5
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
run_rdcrash 0 --fs ext4 --states 1 --seed 6 --check "$RD_TMP/check" --workload \
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
