#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: an insmod with nr_devices=8 that fails after ramdisk0 appeared (a later disk's device_add_disk, or the configfs registration) while ramdisk0 is held open: the load fails cleanly, waits for the opener, and leaves no disk and no module behind
#
# udev opens a disk as soon as it is added, so a load that fails after its
# first disk may find that disk open. The loader frees a module whose init
# failed at once, whatever references openers hold; before the fix the
# module's removal refused the open disk (a WARN) and left it registered
# with its operations in freed memory. Here a holder opens ramdisk0 the
# moment it appears and keeps it for a few seconds, besides udev.
#
# The module's own code cannot be aimed at before it is loaded (its
# address is not known), so the faults are aimed at the kernel functions
# the load calls: configfs_register_subsystem, the last step, and
# device_add_disk, the N-th call of which fails in a later disk.
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require
require_cmd udevadm

# the knobs of fault_aim_at_module (and their restoring at exit), then the
# module out again: each load below is the test's own
load_module nr_devices=0
fault_aim_at_module
unload_module
disks() { find /sys/block -maxdepth 1 -name 'ramdisk*' | sort | tr '\n' ' '; }
# how often a failed load said it waited for openers (the log is not
# cleared: the suite reads all of it for reports afterwards)
waits() { kernel_log | grep -c 'insmod failed: waiting for its devices to be closed' || true; }
loaded() { grep -q '^ramdisk ' /proc/modules; }
hold_seconds=5

# hold: opens /dev/ramdisk0 as soon as it exists and keeps it open for
# hold_seconds; writes "held" when it got it; gives up when the load is over
hold() {
	while [ ! -e "$RD_TMP/load-over" ]; do
		# a failed redirection fails the group; the loop goes on
		if { : >"$RD_TMP/held"; sleep $hold_seconds; } 2>/dev/null 3</dev/ramdisk0; then
			return 0
		fi
	done
}

# failed_load N: insmod nr_devices=8 with the N-th fault point failing
# while ramdisk0 is held; sets result (fail-nth's line) and waits_before
failed_load() {
	local holder
	rm -f "$RD_TMP/held" "$RD_TMP/load-over"
	waits_before=$(waits)
	hold &
	holder=$!
	result=$(fail_nth "$1" load "$RD_MODULE" nr_devices=8)
	: >"$RD_TMP/load-over"
	# with the fix the load waited for the holder; without, it is still open
	wait $holder
}

# after_failure RESULT WHAT: the checks after a load that must have failed
after_failure() {
	case $1 in
	"injected ENOMEM" | "injected EINVAL") ;;
	*) fail "$2: the load ended with '$1', want a failure" ;;
	esac
	[ -e "$RD_TMP/held" ] || fail "$2: the holder never had ramdisk0 open, so nothing was tested"
	loaded && fail "$2: the module is loaded after a failed load"
	udevadm settle
	assert_eq "$(disks)" "" "$2: disks after the failed load"
	[ -e /dev/ramdisk0 ] && fail "$2: /dev/ramdisk0 is left"
	[ "$(waits)" -gt "$waits_before" ] ||
		fail "$2: the load did not wait for the holder of ramdisk0"
	echo "$2: the load failed (${1#injected }), waited for the opener, left nothing"
}

# 1. the configfs registration, after all eight disks
fault_require_function configfs_register_subsystem
failed_load 1
after_failure "$result" "configfs registration failing"

# 2. a later disk: points under device_add_disk for one disk, then a fault
# in the last disk's (ramdisk0 to ramdisk6 are up, which leaves the holder
# time to open ramdisk0); a point the kernel absorbs gives a working load,
# and the next is tried
fault_require_function device_add_disk
counted=$(fail_nth count load "$RD_MODULE" nr_devices=1)
per_disk=${counted%% *}
assert_eq "${counted#* }" ok "a load with nothing failing ($counted)"
unload_module
[[ $per_disk =~ ^[1-9][0-9]*$ ]] || fail "no fault point under device_add_disk ($counted)"
echo "device_add_disk passes $per_disk fault points for one disk"
for ((n = 7 * per_disk + 1, tries = 0; tries < 10; n++, tries++)); do
	failed_load "$n"
	case $result in
	"injected ok" | "not-reached ok")
		unload_module
		continue
		;;
	esac
	after_failure "$result" "device_add_disk of a later disk failing (point $n)"
	break
done
[ "$tries" -lt 10 ] || fail "no fault from point $((7 * per_disk + 1)) on failed a load"

# the module loads and works afterwards
load_module nr_devices=2
udevadm settle
[ -b /dev/ramdisk1 ] || fail "no /dev/ramdisk1 after the failed loads"
echo "PASS: failed loads wait for their openers and leave nothing"
