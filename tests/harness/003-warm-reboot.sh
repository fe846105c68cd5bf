#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a command can reboot the guest and runs again afterwards
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
