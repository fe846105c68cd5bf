# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by every test (tests/vm/NNN-*.sh, tests/host/NNN-*.sh). A test ends
# with exit 0 (pass), 77 (skip) or anything else (fail); the suite runner
# reads the reason from $RD_REASON_FILE.

set -euo pipefail

: "${RD_TOP:=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)}"
: "${RD_BIN:=$RD_TOP/build/bin}"
: "${RD_REASON_FILE:=/dev/null}"
if [ -z "${RD_TMP:-}" ]; then
	RD_TMP=$(mktemp -d)
	rd_own_tmp=1
fi
export RD_TOP RD_BIN RD_TMP

rd_cleanups=()

# Cleanups run in reverse order of registration, each one even when an
# earlier one failed, so a failing test still leaves nothing behind.
rd_run_cleanups() {
	local status=$? i
	set +e
	for ((i = ${#rd_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${rd_cleanups[i]}" >/dev/null 2>&1
	done
	rd_cleanups=()
	if [ "${rd_own_tmp:-0}" = 1 ]; then
		rm -rf "$RD_TMP"
	fi
	if [ "$status" != 0 ] && [ "$status" != 77 ] && [ -n "${BASH_COMMAND:-}" ] &&
		[ ! -s "$RD_REASON_FILE" ] && [ "$RD_REASON_FILE" != /dev/null ]; then
		echo "exit status $status at: ${rd_failed_command:-$BASH_COMMAND}" >"$RD_REASON_FILE"
	fi
	exit "$status"
}
trap rd_run_cleanups EXIT
trap 'rd_failed_command="line $LINENO: $BASH_COMMAND"' ERR

on_exit() {
	rd_cleanups+=("$*")
}

skip() {
	echo "SKIP: $*"
	echo "$*" >"$RD_REASON_FILE"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	echo "$*" >"$RD_REASON_FILE"
	exit 1
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed (make deps)"
	done
}

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
}

assert_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"
}

# Fails unless the command exits non-zero; its output goes to the log.
expect_fail() {
	if "$@"; then
		fail "expected failure: $*"
	fi
	return 0
}

# --- helpers for tests that run in the guest --------------------------------

# The module: load_module, sysfs_stat, RD_CONFIGFS, rd_configure, ...
# shellcheck source=ramdisk.sh
. "${BASH_SOURCE[0]%/*}/ramdisk.sh"

# The kernel log since this test started (the suite clears it per test).
kernel_log() {
	dmesg
}

# Reboots the guest (warm: RAM is kept); the test then runs again from the
# start with RD_VM_BOOT one higher. Needs "# VMOPTS: --reboot".
vm_reboot() {
	[ -n "${RD_VM_RUN:-}" ] || fail "vm_reboot outside tests/vm/run"
	sync
	: >"$RD_VM_RUN/reboot-requested"
	reboot -f >/dev/null 2>&1
	sleep 60
	fail "reboot -f returned"
}

# run_cmd WANT COMMAND...: runs COMMAND with no input and fails unless it
# exits WANT. Its stdout is left in $out and $RD_TMP/out, its stderr in
# $err and $RD_TMP/err; the log gets "NAME ARGS -> STATUS: STDERR".
run_cmd() {
	local want=$1 status=0 name
	shift
	name="${1##*/}${2:+ ${*:2}}"
	"$@" >"$RD_TMP/out" 2>"$RD_TMP/err" </dev/null || status=$?
	out=$(cat "$RD_TMP/out")
	err=$(cat "$RD_TMP/err")
	echo "$name -> $status${err:+: $err}"
	assert_eq "$status" "$want" "exit status of $name"
}

# expect_refusal WANT MESSAGE COMMAND...: COMMAND exits with WANT, says
# MESSAGE (a fixed string) on stderr and prints nothing on stdout (a
# refusal does no work): the usage and argument checks of rdbench,
# ramdiskctl and the bench scripts.
expect_refusal() {
	local want=$1 message=$2
	shift 2
	run_cmd "$want" "$@"
	grep -qF -- "$message" <<<"$err" || fail "${1##*/} ${*:2}: error lacks '$message': $err"
	assert_eq "$out" "" "stdout of refused ${1##*/} ${*:2}"
}
