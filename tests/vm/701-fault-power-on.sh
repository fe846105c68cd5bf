#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: every allocation of a configfs power-on (page store, throttle, writeback cache, gendisk), and a few in device_add_disk, fail in turn; power-on fails with ENOMEM, no disk or page is left, the item powers on afterwards
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require

load_module nr_devices=0
fault_aim_at_module
module_pages() { cat /sys/module/ramdisk/parameters/allocated_pages; }
disks() { find /sys/block -maxdepth 1 -name 'ramdisk*' | sort | tr '\n' ' '; }
printf 1 >one

# the writeback cache and a throttle add their own allocations to the path
rd_configure f size=16M cache_mode=writeback write_latency_ns=10000
f=$RD_CONFIGFS/f
# power_on_under_fault N [ERRNO]: one power-on with the N-th fault point
# failing; it must work or fail with ENOMEM (or ERRNO); checks what it
# left and sets result
power_on_under_fault() {
	local index
	result=$(fail_nth "$1" write "$f/power" 0 one)
	case $result in
	"not-reached ok" | "injected ok")
		# no fault, or one the kernel absorbed: a working disk
		assert_eq "$(cat "$f/power")" 1 "power after fault $1 ($result)"
		index=$(cat "$f/index")
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
		echo 0 >"$f/power"
		;;
	"injected ENOMEM" | "injected ${2:-ENOMEM}")
		assert_eq "$(cat "$f/power")" 0 "power after failed power-on $1"
		assert_eq "$(disks)" "" "disks after failed power-on $1"
		;;
	*)
		fail "fault $1: power-on ended with '$result', want ENOMEM${2:+ or $2}"
		;;
	esac
	assert_eq "$(module_pages)" 0 "module pages after fault $1"
	echo "$where fault $1: $result"
}

# 1. the module's own allocations and those of the gendisk it allocates;
# device_add_disk's own are the kernel's business (phase 2)
fault_reject_function device_add_disk
where="outside device_add_disk:"
fault_sweep 300 "one power-on, outside device_add_disk" power_on_under_fault

# 2. a failed device_add_disk: the module must undo it. Its first few
# fault points stand for all: each fails the same call. The first is the
# device's name: device_add_disk() ignores a failed dev_set_name(), and
# device_add() then refuses the nameless device with EINVAL.
fault_reject_function none
fault_require_function device_add_disk
where="in device_add_disk:"
fault_sweep --first 6 "one power-on, in device_add_disk" power_on_under_fault EINVAL
echo ok
