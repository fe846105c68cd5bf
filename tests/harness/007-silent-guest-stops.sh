#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a guest whose heartbeat stops is stopped long before its timeout, and says why
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

# Stopping guest-init's background loops (the heartbeat among them)
# silences the guest as a wedged one would be; the command then outlives
# the guest's time limit, so only the heartbeat watch can end the run with
# its message. guest-init touches the heartbeat every 10 s: a limit of 15 s
# still stops a live guest only when a touch is 5 s late.
status=0
RD_VM_HEARTBEAT_LIMIT=15 vm_run -- sh -c 'pkill -STOP -P 1 -x guest-init; sleep 100000' \
	>"$RD_TMP/out" 2>&1 || status=$?
cat "$RD_TMP/out"
assert_eq "$status" 125 "exit status after the heartbeat stopped"
grep -q 'the guest stopped responding: no heartbeat for 15s' "$RD_TMP/out" ||
	fail "the runner did not report the silent guest (it should stop it, not time out)"
