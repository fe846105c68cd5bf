#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a --reboot guest whose later boot hangs before user space is reset with its RAM, and its command runs on the boot after
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

# The flag makes the next boot's initramfs write a stall report and wait
# (tests/vm/initramfs-init), as a kernel that hangs in early boot under TCG
# does. Without the reset the run would end as a hang, with status 125.
script='if [ "$RD_VM_BOOT" = 1 ]; then
	: >"$RD_VM_RUN/hang-before-user-space"
	. tests/lib/common.sh
	vm_reboot
fi
[ ! -e "$RD_VM_RUN/hang-before-user-space" ] || { echo "the hanging boot did not run"; exit 1; }
echo "boot $RD_VM_BOOT ran the command"'
status=0
out=$(RD_VM_HANG_GRACE=30 vm_run --reboot -- bash -c "$script" 2>"$RD_TMP/err") || status=$?
cat "$RD_TMP/err"
assert_eq "$out" "boot 2 ran the command" "output after the reset"
assert_eq "$status" 0 "exit status after a reset"
grep -q 'boot 2 hung before user space; resetting the guest' "$RD_TMP/err" ||
	fail "the runner did not say it reset the hanging boot"
grep -q 'boot 2 went down before user space' "$RD_TMP/err" ||
	fail "the runner did not leave the hanging boot out of the verdict"
