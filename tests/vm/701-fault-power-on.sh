#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: every allocation of a configfs power-on (page store, throttle, writeback cache, gendisk), and a few in device_add_disk, fail in turn; power-on fails with ENOMEM, no disk or page is left, the item powers on afterwards
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require

cfg=/sys/kernel/config/ramdisk
load_module nr_devices=0
fault_aim_at_module
module_pages() { cat /sys/module/ramdisk/parameters/allocated_pages; }
disks() { find /sys/block -maxdepth 1 -name 'ramdisk*' | sort | tr '\n' ' '; }
printf 1 >one

mkdir $cfg/f
on_exit "rmdir $cfg/f"
echo 16M >$cfg/f/size
# the writeback cache and a throttle add their own allocations to the path
echo writeback >$cfg/f/cache_mode
echo 10000 >$cfg/f/write_latency_ns
on_exit "echo 0 >$cfg/f/power"
# power_on_under_fault N [ERRNO]: one power-on with the N-th fault point
# failing; it must work or fail with ENOMEM (or ERRNO); checks what it
# left and prints the result
power_on_under_fault() {
	local result index
	result=$(fail_nth "$1" write $cfg/f/power 0 one)
	case $result in
	"not-reached ok" | "injected ok")
		# no fault, or one the kernel absorbed: a working disk
		assert_eq "$(cat $cfg/f/power)" 1 "power after fault $1 ($result)"
		index=$(cat $cfg/f/index)
		udevadm settle
		[ -d /sys/block/ramdisk"$index" ] || fail "fault $1 ($result): power is 1 but no disk"
		if [ -b /dev/ramdisk"$index" ]; then
			head -c 64K /dev/urandom >data.bin
			dd if=data.bin of=/dev/ramdisk"$index" bs=64K oflag=direct,sync status=none
			dd if=/dev/ramdisk"$index" of=got.bin bs=64K count=1 iflag=direct status=none
			cmp got.bin data.bin || fail "fault $1 ($result): the disk reads back wrong"
		else
			# devtmpfs gives up on the node when its allocation fails
			echo "  fault $1: no /dev/ramdisk$index node (the kernel went on without it)" >&2
		fi
		echo 0 >$cfg/f/power
		;;
	"injected ENOMEM" | "injected ${2:-ENOMEM}")
		assert_eq "$(cat $cfg/f/power)" 0 "power after failed power-on $1"
		assert_eq "$(disks)" "" "disks after failed power-on $1"
		;;
	*)
		fail "fault $1: power-on ended with '$result', want ENOMEM${2:+ or $2}"
		;;
	esac
	assert_eq "$(module_pages)" 0 "module pages after fault $1"
	echo "$result"
}

# 1. the module's own allocations and those of the gendisk it allocates;
# device_add_disk's own are the kernel's business (phase 2)
fault_reject_function device_add_disk
failed=0
n=0
while :; do
	n=$((n + 1))
	[ $n -le 300 ] || fail "more than 300 fault points in one power-on: the sweep does not end"
	result=$(power_on_under_fault $n)
	echo "fault $n: $result"
	[ "$result" != "injected ENOMEM" ] || failed=$((failed + 1))
	[ "$result" != "not-reached ok" ] || break
done
[ $failed -gt 0 ] || fail "no injected fault failed a power-on"
echo "$((n - 1)) fault points outside device_add_disk, $failed power-ons failed with ENOMEM"

# 2. a failed device_add_disk: the module must undo it. Its first few
# fault points stand for all: each fails the same call. The first is the
# device's name: device_add_disk() ignores a failed dev_set_name(), and
# device_add() then refuses the nameless device with EINVAL.
fault_reject_function none
fault_require_function device_add_disk
failed=0
for n in 1 2 3 4 5 6; do
	result=$(power_on_under_fault $n EINVAL)
	echo "fault $n in device_add_disk: $result"
	case $result in "injected ENOMEM" | "injected EINVAL") failed=$((failed + 1)) ;; esac
	[ "$result" != "not-reached ok" ] || break
done
[ $failed -gt 0 ] || fail "no fault in device_add_disk failed a power-on"
echo ok
