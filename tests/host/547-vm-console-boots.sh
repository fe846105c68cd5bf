#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the VM harness judges the console of each boot that reached user space and of the last boot; a boot that crashed before user space and was followed by another is left out and named, one that crashed after is not
. "${0%/*}/../lib/common.sh"

filter=$RD_TOP/tests/vm/lib/user-space-boots
. "$RD_TOP/tests/lib/kernel-log-patterns.sh"
mark='rd-guest-init: user space reached'

# console NAME LINE...: writes the fake console $RD_TMP/NAME, one LINE a line
console() {
	local name=$1
	shift
	printf '%s\n' "$@" >"$RD_TMP/$name"
}
# verdict NAME: runs the filter on it; $kept is what it judged, $err what it said
verdict() {
	run_cmd 0 "$filter" "$RD_TMP/$1"
	kept=$out
}
boot() { echo "[    0.000000] Linux version 7.3.4+deb13-amd64 (boot $1)"; }
oops='[    2.582929] Kernel panic - not syncing: Fatal exception in interrupt'

echo "a warm-reboot guest whose second boot crashed early and whose third ran the test"
console early "$(boot 1)" "[    3.0] $mark" "[    9.0] reboot: Restarting system" \
	"$(boot 2)" "$oops" "$(boot 3)" "[    3.1] $mark" "[    5.0] ramdisk: loaded"
verdict early
for n in 1 3; do
	grep -qF "(boot $n)" <<<"$kept" || fail "boot $n reached user space but was not judged: $kept"
done
! grep -qE "$RD_KERNEL_LOG_BAD" <<<"$kept" || fail "the early crash was judged: $kept"
grep -qF "boot 2 went down before user space" <<<"$err" || fail "the early crash was not named: $err"

echo "an oops after user space is judged, in any boot"
console late "$(boot 1)" "[    3.0] $mark" "$oops" "$(boot 2)" "[    3.1] $mark"
verdict late
grep -qF "$oops" <<<"$kept" || fail "an oops after user space was left out: $kept"
[ -z "$err" ] || fail "a boot that reached user space was named as early: $err"

echo "the last boot is judged even when it never reached user space"
console last "$(boot 1)" "[    3.0] $mark" "$(boot 2)" "$oops"
verdict last
grep -qF "$oops" <<<"$kept" || fail "the last boot's crash was left out: $kept"

echo "a guest that never rebooted is judged whole, lines before the first boot too"
console one "early firmware line" "$(boot 1)" "[    1.0] WARNING: CPU: 0 PID: 1 at x"
verdict one
[ "$kept" = "$(cat "$RD_TMP/one")" ] || fail "a single boot was not kept whole: $kept"

echo "a console with bytes that are not text is still read"
printf '%s\n\0\377%s\n%s\n' "$(boot 1)" "[ 1.0] $mark" "$oops" >"$RD_TMP/binary"
"$filter" "$RD_TMP/binary" >"$RD_TMP/binary.kept" || fail "the filter failed on a console with a NUL byte"
grep -aqF "$oops" "$RD_TMP/binary.kept" || fail "an oops after a NUL byte was lost"

echo "usage"
run_cmd 2 "$filter"
grep -qF "usage:" <<<"$err" || fail "no usage line: $err"
echo ok
