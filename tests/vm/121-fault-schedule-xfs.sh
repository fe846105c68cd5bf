#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault_schedule under xfs: a failed log write (a flush that fails) shuts xfs down; with the rule cleared it mounts again, recovers its log and checks clean
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.xfs xfs_io xfs_repair

load_module nr_devices=0
mnt=$RD_TMP/mnt
mkdir -p "$mnt"

# Writeback mode, so that the flushes of xfs's log writes reach the device
# (without a write cache the block layer drops them).
rd_configure xlog size=512M cache_mode=writeback power=1
dev=$RD_DEV
mkfs.xfs -q -f "$dev"
mount "$dev" "$mnt"
on_exit "umount $mnt 2>/dev/null || true"
xfs_io -f -c "pwrite -q 0 64k" -c fsync "$mnt/before" || fail "a file before the fault"

# Only a log write carries a flush: every such write fails from now on.
printf '%s\n' "+flush every=1" >"$RD_CONFIGFS/xlog/fault_schedule" || fail "the flush rule"
if xfs_io -f -c "pwrite -q 0 64k" -c fsync "$mnt/during" 2>"$RD_TMP/err"; then
	fail "fsync passed while every log write fails"
fi
echo "fsync under the rule: $(cat "$RD_TMP/err")"
dmesg >"$RD_TMP/kmsg"
grep -Eq "XFS \(${dev#/dev/}\): (Log I/O Error|log I/O error)" "$RD_TMP/kmsg" ||
	fail "xfs logged no log I/O error"
grep -Eq "XFS \(${dev#/dev/}\): .*[Ss]hut(ting)? ?down" "$RD_TMP/kmsg" || fail "xfs did not shut down"
if touch "$mnt/after" 2>/dev/null; then
	fail "a file was made on a shut-down xfs"
fi
[ "$(sysfs_stat "${dev#/dev/}" fault_errors)" -gt 0 ] || fail "fault_errors"
umount "$mnt" || fail "umount of a shut-down xfs"

# Without the rule, xfs mounts, replays its log, and is consistent.
printf '%s\n' clear >"$RD_CONFIGFS/xlog/fault_schedule"
mount "$dev" "$mnt" || fail "mount after the fault"
assert_eq "$(stat -c %s "$mnt/before")" 65536 "the size of the file synced before the fault"
umount "$mnt"
xfs_repair -n "$dev" >"$RD_TMP/repair" 2>&1 || {
	cat "$RD_TMP/repair"
	fail "xfs_repair -n found damage"
}
echo ok
