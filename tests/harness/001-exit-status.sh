#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the runner passes the guest command's exit status and output through
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

out=$(vm_run -- bash -c 'echo "kernel $(uname -r) boot $RD_VM_BOOT"; exit 0')
assert_eq "$out" "kernel $kver boot 1" "guest output"
status=0
vm_run -- false || status=$?
assert_eq "$status" 1 "exit status of 'false'"
