#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a command can reboot the guest and runs again afterwards; a warning in the boot before the reboot still fails the run
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

# First boot: leave a mark in the guest's tmpfs and reboot; second boot: the
# tmpfs is new (a real reboot), and RD_VM_BOOT says which boot this is.
script='if [ "$RD_VM_BOOT" = 1 ]; then
	touch /tmp/first-boot-mark
	. tests/lib/common.sh
	vm_reboot
fi
[ ! -e /tmp/first-boot-mark ] || { echo "no reboot happened"; exit 1; }
echo "second boot"'
status=0
out=$(vm_run --reboot -- bash -c "$script") || status=$?
assert_eq "$out" "second boot" "output after the reboot"
# 001 leaves the status of a passing command to this test.
assert_eq "$status" 0 "exit status of a passing command"

# A warning in a boot before the last one fails the run too: the harness
# judges every boot that reached user space (tests/vm/lib/user-space-boots
# leaves out only those that went down before it).
mod=$RD_TOP/build/kernels/$kver/selftest/rd_selftest_warn.ko
[ -f "$mod" ] || fail "$mod is missing (scripts/build-module $kver)"
script='if [ "$RD_VM_BOOT" = 1 ]; then
	insmod "$1"
	. tests/lib/common.sh
	vm_reboot
fi
echo "second boot"'
status=0
vm_run --reboot -- bash -c "$script" warn "$mod" >"$RD_TMP/out" 2>&1 || status=$?
cat "$RD_TMP/out"
assert_eq "$status" 1 "exit status after a WARN in the first of two boots"
grep -q 'deliberate warning from the harness self-test' "$RD_TMP/out" ||
	fail "the runner did not print the console lines of the first boot's warning"
