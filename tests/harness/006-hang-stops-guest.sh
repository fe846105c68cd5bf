#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a task stuck in D state stops the guest at the hung-task report, long before its timeout
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

mod=$RD_TOP/build/kernels/$kver/selftest/rd_selftest_hang.ko
[ -f "$mod" ] || fail "$mod is missing (scripts/build-module $kver)"
# The module sleeps longer than the guest may live: only the hang watch can
# end this run with the hung-task message rather than the timeout's.
# khungtaskd reports a task that two checks T s apart find blocked, so
# about 2T s after insmod; T=2 is enough for a task that never wakes.
# After the report guest-init dumps the blocked tasks' stacks within about
# 7 s (a 5 s poll, sysrq w, 1 s); the runner sees the report 0-5 s late and
# stops the guest 12 s after that, which leaves that dump 5 s to spare.
status=0
RD_VM_HANG_GRACE=12 vm_run -- sh -c \
	"echo 2 >/proc/sys/kernel/hung_task_timeout_secs && insmod $mod sleep_secs=100000" \
	>"$RD_TMP/out" 2>&1 || status=$?
cat "$RD_TMP/out"
assert_eq "$status" 125 "exit status after a hung task"
grep -q 'the guest hung' "$RD_TMP/out" ||
	fail "the runner did not report the hang (it should stop the guest, not time out)"
grep -q 'blocked for more than' "$RD_TMP/out" ||
	fail "the runner did not print the console lines of the hung-task report"
grep -q 'rd_selftest_hang_init' "$RD_TMP/out" ||
	fail "the runner did not print the hung task's stack"
