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

load_module() {
	[ -n "${RD_MODULE:-}" ] || fail "RD_MODULE is not set (run under tests/vm/run)"
	[ -f "$RD_MODULE" ] || fail "$RD_MODULE is missing (make module)"
	insmod "$RD_MODULE" "$@"
	on_exit "unload_module"
}

# rmmod retried briefly: udev may still hold a freshly removed disk open.
unload_module() {
	local i
	grep -q '^ramdisk ' /proc/modules || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rmmod ramdisk 2>/dev/null && return 0
		command -v udevadm >/dev/null && udevadm settle 2>/dev/null
		sleep 0.2
	done
	rmmod ramdisk
}

sysfs_stat() {
	local dev=${1#/dev/}
	cat "/sys/block/$dev/ramdisk/$2"
}

# NAME SIZE [ATTR=VALUE...]: makes the configfs item NAME with these
# attributes, powers it on and prints its device node; non-zero status at
# the first step that fails (a command substitution does not stop at one).
configfs_device() {
	local item=/sys/kernel/config/ramdisk/$1 size=$2 kv index
	shift 2
	mkdir "$item" && echo "$size" >"$item/size" || return 1
	for kv in "$@"; do
		echo "${kv#*=}" >"$item/${kv%%=*}" || return 1
	done
	echo 1 >"$item/power" || return 1
	udevadm settle
	index=$(cat "$item/index") || return 1
	echo /dev/ramdisk"$index"
}

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
