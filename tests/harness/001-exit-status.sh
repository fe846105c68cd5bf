#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the runner passes the guest command's exit status and output through
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

# One boot shows both. The status is 3, which neither a passing command
# (0) nor the runner itself (1 for a bad console, 125 for a failed boot)
# gives, so only a status passed through as it is matches. A passing
# command's 0 is checked by 003, whose command passes.
status=0
out=$(vm_run -- bash -c 'echo "kernel $(uname -r) boot $RD_VM_BOOT"; exit 3') || status=$?
assert_eq "$out" "kernel $kver boot 1" "guest output"
assert_eq "$status" 3 "exit status of 'exit 3'"
