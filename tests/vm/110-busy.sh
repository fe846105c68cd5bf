#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rmmod, power=0 and rmdir refuse with EBUSY while a device is open or mounted, and nothing is lost
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 md5sum

cfg=$RD_CONFIGFS
mnt=$RD_TMP/mnt
mkdir -p "$mnt"

load_module size=32M
mkfs.ext4 -q -F /dev/ramdisk0
mount /dev/ramdisk0 "$mnt"
on_exit "umount $mnt"
head -c 1M /dev/urandom >"$mnt/file"
sum=$(md5sum <"$mnt/file")
status=0
rmmod ramdisk 2>"$RD_TMP/err" || status=$?
[ "$status" != 0 ] || fail "rmmod succeeded with ramdisk0 mounted"
grep -q "in use" "$RD_TMP/err" || fail "rmmod said: $(cat "$RD_TMP/err")"
assert_eq "$(md5sum <"$mnt/file")" "$sum" "file after the refused rmmod"

# A configfs device, mounted.
rd_configure busy size=32M power=1
n=$(cat "$cfg/busy/index")
assert_eq "$n" 1 "index of the first configfs device"
assert_eq "$(sysfs_stat ramdisk1 name)" busy "name in sysfs"
mkfs.ext4 -q -F /dev/ramdisk1
mkdir -p "$mnt-1"
mount /dev/ramdisk1 "$mnt-1"
on_exit "umount $mnt-1"
cp "$mnt/file" "$mnt-1/file"
sync

busy_write() { # FILE VALUE WHAT
	local err
	if err=$( (echo "$2" >"$1") 2>&1); then
		fail "$3 succeeded on a mounted device"
	fi
	grep -q "busy" <<<"$err" || fail "$3: $err"
}
busy_write "$cfg/busy/power" 0 "power=0"
assert_eq "$(cat "$cfg/busy/power")" 1 "power after the refused power-off"
busy_write "$cfg/busy/size" 64M "size change"
busy_write "$cfg/busy/block_size" 4096 "block_size change"
busy_write "$cfg/busy/max_part" 2 "max_part change"
busy_write "$cfg/busy/numa_node" 0 "numa_node change"
status=0
rmdir "$cfg/busy" 2>"$RD_TMP/err" || status=$?
[ "$status" != 0 ] || fail "rmdir succeeded on a mounted device"
grep -q "busy" "$RD_TMP/err" || fail "rmdir said: $(cat "$RD_TMP/err")"
expect_fail rmmod ramdisk
dmesg | grep -q "ramdisk: busy: ramdisk1 is open or mounted" || fail "no dmesg line for the refused power-off"
dmesg | grep -q "ramdisk: busy: size cannot change while powered" || fail "no dmesg line for the refused size"

# Nothing was lost.
echo 3 >/proc/sys/vm/drop_caches
assert_eq "$(md5sum <"$mnt-1/file")" "$sum" "file on the configfs device"
assert_eq "$(cat "$cfg/busy/size")" $((32 << 20)) "size after the refused change"

# Opened, not mounted: the same.
umount "$mnt-1"
exec 3<>/dev/ramdisk1
busy_write "$cfg/busy/power" 0 "power=0 while open"
expect_fail rmdir "$cfg/busy"
exec 3<&-
udevadm settle

# Closed but powered: rmdir is still refused and the disk stays. Powered
# off, the directory goes.
expect_fail rmdir "$cfg/busy"
[ -e /sys/block/ramdisk1 ] || fail "ramdisk1 gone after a refused rmdir"
echo 0 >"$cfg/busy/power"
rmdir "$cfg/busy"
[ ! -e /sys/block/ramdisk1 ] || fail "ramdisk1 survived power-off and rmdir"
umount "$mnt"
udevadm settle
unload_module
echo ok
