#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bad runner input ends with a one-line error and a non-zero exit
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

check_error() {
	local want=$1 status=0
	shift
	"$RD_TOP/tests/vm/run" "$@" >"$RD_TMP/out" 2>&1 || status=$?
	[ "$status" != 0 ] || fail "tests/vm/run $* succeeded"
	grep -q -- "$want" "$RD_TMP/out" || fail "tests/vm/run $*: no '$want' in: $(cat "$RD_TMP/out")"
}
check_error "no kernel headers match '4.9'" --kernel 4.9 -- true
check_error "run: make deps" --kernel 4.9 -- true
check_error "no such file" --kernel "$kver" --disk /nonexistent/disk.img -- true
check_error "SIZE@OFFSET" --kernel "$kver" --memmap 64M -- true
check_error "unknown option" --frobnicate -- true
# A command that does not exist fails the run with bash's status.
status=0
vm_run -- /nonexistent-command >/dev/null 2>&1 || status=$?
assert_eq "$status" 127 "exit status of a missing command"
# A guest that never reaches the command (no init to run) ends the run with
# the runner's own status and the console lines that show why.
status=0
vm_run --append rdinit=/nonexistent-init -- true >"$RD_TMP/out" 2>&1 || status=$?
assert_eq "$status" 125 "exit status when the guest never boots"
grep -q 'without reporting a status' "$RD_TMP/out" ||
	fail "no one-line reason for a guest that never booted: $(head -c 400 "$RD_TMP/out")"
