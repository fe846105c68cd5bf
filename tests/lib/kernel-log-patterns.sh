# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Kernel log lines that fail a test run: warnings, oopses, lockdep and
# sanitizer reports, hung tasks, panics. One extended regex for grep -E.
# shellcheck disable=SC2034
#
# RD_KERNEL_LOG_HANG is the subset that means the guest may never finish:
# tests/vm/run stops a guest soon after its console shows one of these.
RD_KERNEL_LOG_HANG='INFO: task .* blocked for more than|soft lockup|hard LOCKUP|RCU detected stall|rcu_sched self-detected stall|rcu: INFO: .*detected stall'
RD_KERNEL_LOG_BAD="WARNING:|BUG:|Oops|general protection fault|Kernel panic|kernel BUG|INFO: possible|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|KASAN|UBSAN|kmemleak|unreferenced object|\\[ramdisk\\] enqueued on deprecated workqueue|$RD_KERNEL_LOG_HANG"
