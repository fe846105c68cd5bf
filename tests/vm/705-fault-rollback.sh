#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection on a rollback of a writeback-cache device: each allocation of the rollback fails in turn; a failed rollback ends with ENOMEM, says so in the kernel log and leaves the device as it was, the writes its cache holds (not yet durable) included; a rollback that passes reads as the checkpoint with nothing cached
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require
require_cmd cmp

load_module nr_devices=0
rd_configure rb size=16M cache_mode=writeback cache_size=8M power=1
dev=$RD_DEV
name=${dev#/dev/}
stat_() { sysfs_stat "$name" "$1"; }

# the checkpoint: 1 MiB of durable data
head -c 1M /dev/urandom >base.bin
dd if=base.bin of="$dev" bs=1M oflag=direct,sync status=none
echo +base >"$RD_CONFIGFS/rb/checkpoints"
# after it: 256 KiB made durable, then 256 KiB that only the cache holds
head -c 512K /dev/urandom >after.bin
cp base.bin now.bin
dd if=after.bin of=now.bin bs=256K count=2 conv=notrunc status=none
write_after() {
	dd if=after.bin of="$dev" bs=256K count=1 oflag=direct,sync status=none
	dd if=after.bin of="$dev" bs=256K skip=1 seek=1 count=1 oflag=direct status=none
	assert_eq "$(stat_ dirty_bytes)" $((256 * 1024)) "dirty bytes before the rollback"
}
printf base >ck.txt

fault_aim_at_module

# rollback_under_fault N: the device holds the writes after the checkpoint,
# a quarter of them cached; the rollback runs with its N-th fault point
# failing. It fails whole (the device and its cache as they were) or
# passes whole (the checkpoint, nothing cached).
rollback_under_fault() {
	local n=$1 log_lines
	write_after
	log_lines=$(dmesg | wc -l)
	result=$(fail_nth "$n" write "$RD_CONFIGFS/rb/rollback" 0 ck.txt)
	echo "rollback, fault $n: $result"
	case $result in
	"injected ENOMEM")
		dmesg | tail -n +$((log_lines + 1)) | grep -q "rb: cannot roll back to checkpoint base: -12" ||
			fail "rollback, fault $n: no line for the failure in the kernel log"
		assert_eq "$(stat_ dirty_bytes)" $((256 * 1024)) "dirty bytes after a failed rollback (fault $n)"
		cmp -s now.bin <(dd if="$dev" bs=1M count=1 iflag=direct status=none) ||
			fail "rollback, fault $n: the device changed although the rollback failed"
		;;
	"injected ok" | "not-reached ok")
		assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after a rollback (fault $n: $result)"
		cmp -s base.bin <(dd if="$dev" bs=1M count=1 iflag=direct status=none) ||
			fail "rollback, fault $n ($result): the device does not read as the checkpoint"
		;;
	*)
		fail "rollback, fault $n: ended with '$result', want ENOMEM or ok"
		;;
	esac
}
fault_sweep 64 "rollback" rollback_under_fault
echo ok
