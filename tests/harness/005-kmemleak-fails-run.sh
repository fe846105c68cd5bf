#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: on a kernel with kmemleak, a leak in the guest fails the run although the command passed, and the report names the leaking code
# EVERY-KERNEL: yes
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

image=$("$RD_TOP/scripts/kernel" image "$kver")
config=${image%/*}/config-$kver
[ -f "$config" ] || skip "no $config to tell whether $kver has kmemleak"
grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "$config" ||
	skip "$kver has no kmemleak (the debug kernel has: make check-debug)"

mod=$RD_TOP/build/kernels/$kver/selftest/rd_selftest_leak.ko
[ -f "$mod" ] || fail "$mod is missing (scripts/build-module $kver)"

echo "a run that leaks nothing passes"
vm_run -- true >"$RD_TMP/out" 2>&1 || fail "a run of 'true' failed: $(tail -n 20 "$RD_TMP/out")"
grep -q 'kmemleak' "$RD_TMP/out" && fail "kmemleak reports after 'true': $(cat "$RD_TMP/out")"

echo "a run that leaks fails"
status=0
# the object must be 5 s old before kmemleak reports it: the runner waits
vm_run -- insmod "$mod" >"$RD_TMP/out" 2>&1 || status=$?
cat "$RD_TMP/out"
assert_eq "$status" 1 "exit status after a leak"
grep -q 'vm/run: the kernel log shows kmemleak reports' "$RD_TMP/out" ||
	fail "the runner did not say that kmemleak found a leak"
grep -q 'rd_selftest_leak_alloc' "$RD_TMP/out" ||
	fail "the report does not name the leaking function"
grep -q 'deliberate leak' "$RD_TMP/out" ||
	fail "the report's hex dump does not show the leaked object's text"
