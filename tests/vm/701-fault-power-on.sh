#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: every allocation of a configfs power-on (page store, throttle, writeback cache, gendisk) fails in turn; power-on fails with ENOMEM, no disk or page is left, the item powers on afterwards
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
failed=0
n=0
while :; do
	n=$((n + 1))
	[ $n -le 400 ] || fail "more than 400 fault points in one power-on: the sweep does not end"
	result=$(fail_nth $n write $cfg/f/power 0 one)
	case $result in
	"not-reached ok" | "injected ok")
		# the last step, or a fault the kernel absorbed: a working disk
		assert_eq "$(cat $cfg/f/power)" 1 "power after fault $n ($result)"
		index=$(cat $cfg/f/index)
		udevadm settle
		[ -d /sys/block/ramdisk"$index" ] || fail "fault $n ($result): power is 1 but no disk"
		if [ -b /dev/ramdisk"$index" ]; then
			head -c 64K /dev/urandom >data.bin
			dd if=data.bin of=/dev/ramdisk"$index" bs=64K oflag=direct,sync status=none
			dd if=/dev/ramdisk"$index" of=got.bin bs=64K count=1 iflag=direct status=none
			cmp got.bin data.bin || fail "fault $n ($result): the disk reads back wrong"
		else
			# devtmpfs gives up on the node when its allocation fails
			echo "  fault $n: no /dev/ramdisk$index node (the kernel went on without it)"
		fi
		echo 0 >$cfg/f/power
		[ "$result" = "not-reached ok" ] && break
		;;
	"injected ENOMEM")
		failed=$((failed + 1))
		assert_eq "$(cat $cfg/f/power)" 0 "power after failed power-on $n"
		assert_eq "$(disks)" "" "disks after failed power-on $n"
		;;
	*)
		fail "fault $n: power-on ended with '$result', want ENOMEM"
		;;
	esac
	assert_eq "$(module_pages)" 0 "module pages after fault $n"
done
[ $failed -gt 0 ] || fail "no injected fault failed a power-on"
echo "$((n - 1)) fault points, $failed power-ons failed with ENOMEM"
echo ok
