#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a WARN in the guest fails the run although the command passed
# EVERY-KERNEL: yes
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

mod=$RD_TOP/build/kernels/$kver/selftest/rd_selftest_warn.ko
[ -f "$mod" ] || fail "$mod is missing (scripts/build-module $kver)"
status=0
vm_run -- insmod "$mod" >"$RD_TMP/out" 2>&1 || status=$?
cat "$RD_TMP/out"
assert_eq "$status" 1 "exit status after a WARN"
grep -q 'deliberate warning from the harness self-test' "$RD_TMP/out" ||
	fail "the runner did not print the console lines of the warning"
