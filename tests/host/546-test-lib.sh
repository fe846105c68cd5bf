#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the VM tests' helpers on a fake configfs tree: rd_configure writes the attributes in order, names a refused one, cleans up after the test's later cleanups and refuses a subshell; fault_sweep ends at the first unreached fault, counts, and fails a sweep that does not end or fails nothing
. "${0%/*}/../lib/common.sh"

# scenario NAME: writes $RD_TMP/NAME.sh, a test body (from stdin) run with
# the helpers sourced and RD_CONFIGFS in a fake tree: a mkdir makes the
# index and power files the module would, rmdir logs the item and its
# power, udev and the kernel log are not there.
scenario() {
	cat >"$RD_TMP/$1.sh" <<EOF
. "$RD_TOP/tests/lib/common.sh"
. "$RD_TOP/tests/vm/lib/fault-inject.sh"
RD_CONFIGFS=$RD_TMP/cfs
udevadm() { :; }
dmesg() { :; }
mkdir() { command mkdir "\$1" && echo 3 >"\$1/index" && echo 0 >"\$1/power"; }
rmdir() { echo "rmdir \${1##*/}, power \$(cat "\$1/power")" >>"$RD_TMP/log"; rm -rf "\$1"; }
EOF
	cat >>"$RD_TMP/$1.sh"
}
# run_scenario STATUS NAME: runs it (run_cmd: $out, $err) with a log of its own
run_scenario() {
	: >"$RD_TMP/log"
	run_cmd "$1" env RD_REASON_FILE=/dev/null bash "$RD_TMP/$2.sh"
	log=$(cat "$RD_TMP/log")
}
mkdir "$RD_TMP/cfs"

echo "rd_configure: the writes in order, RD_DEV, one cleanup after the later ones"
scenario made <<'EOF'
rd_configure a size=1M cache_mode=writeback power=1
echo "RD_DEV=$RD_DEV size=$(cat "$RD_CONFIGFS/a/size") mode=$(cat "$RD_CONFIGFS/a/cache_mode")"
on_exit "echo umount >>$RD_TMP/log"
rd_configure a mem_limit=4M
EOF
run_scenario 0 made
grep -qxF "rd_configure a size=1M cache_mode=writeback power=1: /dev/ramdisk3" <<<"$out" ||
	fail "rd_configure did not print the device: $out"
grep -qxF "RD_DEV=/dev/ramdisk3 size=1M mode=writeback" <<<"$out" || fail "attributes or RD_DEV: $out"
# the cleanup registered after the item runs first; the item is powered
# off, then removed, once (the second rd_configure registered nothing)
assert_eq "$log" "umount
rmdir a, power 0" "cleanups"
[ ! -e "$RD_TMP/cfs/a" ] || fail "the item is left"

echo "rd_configure: a refused write is named, the later ones are not made"
command mkdir "$RD_TMP/cfs/b"
ln -s /dev/full "$RD_TMP/cfs/b/bad"
scenario refused <<<'rd_configure b size=2M bad=7 never=1'
run_scenario 1 refused
grep -qF "rd_configure b: writing bad=7 to $RD_TMP/cfs/b/bad was refused (No space left on device)" <<<"$err" ||
	fail "the refusal does not name the attribute, value and error: $err"
assert_eq "$(cat "$RD_TMP/cfs/b/size")" 2M "size, written before the refused attribute"
[ ! -e "$RD_TMP/cfs/b/never" ] || fail "an attribute after the refused one was written"
# b existed before: not the test's to remove
assert_eq "$log" "" "cleanups of an item the test did not make"

echo "rd_configure: not ATTR=VALUE"
scenario noeq <<<'rd_configure d size'
run_scenario 1 noeq
grep -qF "rd_configure d: 'size' is not ATTR=VALUE" <<<"$err" || fail "a bare attribute: $err"
assert_eq "$log" "rmdir d, power 0" "cleanup of the item made before the bad argument"

echo "rd_configure: refused in a subshell, where its cleanup would be lost"
scenario subshell <<<'dev=$(rd_configure c size=1M power=1)'
run_scenario 1 subshell
grep -qF 'rd_configure c: called in a subshell' <<<"$err" || fail "a subshell: $err"
[ ! -e "$RD_TMP/cfs/c" ] || fail "the refused call made its item"

echo "fault_sweep: ends at the first unreached fault and counts"
# step N: 5 fault points, the 2nd absorbed by the kernel
steps='
step() {
	echo "step $1${2:+ $2}"
	if [ "$1" -gt "${points:-5}" ]; then
		result="not-reached ok"
	elif [ "$1" = 2 ] || [ "${absorb:-}" = all ]; then
		result="injected ok"
	else
		result="injected EIO"
	fi
}'
scenario sweep <<EOF
$steps
fault_sweep 10 "a write" step arg
echo "points \$fault_points failures \$fault_failures"
EOF
run_scenario 0 sweep
assert_eq "$(grep -c '^step [0-9]* arg$' <<<"$out")" 6 "steps, with their argument"
grep -qxF "a write: 5 fault points, 4 failed" <<<"$out" || fail "the summary: $out"
grep -qxF "points 5 failures 4" <<<"$out" || fail "fault_points and fault_failures: $out"

echo "fault_sweep: a sweep that does not end fails at its bound; --first stops there"
scenario endless <<<"$steps
points=100 fault_sweep 8 'a write' step"
run_scenario 1 endless
grep -qF "a write: more than 8 fault points: the sweep does not end" <<<"$err" || fail "the bound: $err"
scenario first <<<"$steps
points=100 fault_sweep --first 3 'a write' step
echo \"points \$fault_points failures \$fault_failures\""
run_scenario 0 first
grep -qxF "points 3 failures 2" <<<"$out" || fail "--first: $out"

echo "fault_sweep: fails when no fault failed the operation, or a step set no result"
scenario absorbed <<<"$steps
absorb=all fault_sweep 10 'a write' step"
run_scenario 1 absorbed
grep -qF "a write: no injected fault failed it (5 fault points)" <<<"$err" || fail "nothing failed: $err"
scenario noresult <<<"quiet() { :; }
fault_sweep 10 'a write' quiet"
run_scenario 1 noresult
grep -qF "a write: quiet 1 set no \$result" <<<"$err" || fail "no result: $err"
echo ok
