#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make modules_install lays out ramdisk.ko so that modprobe finds it by name, with parameters
. "${0%/*}/../lib/common.sh"
require_cmd make modprobe depmod

kdir=$("$RD_TOP/scripts/kernel" kdir "$RD_KVER")
case $kdir in
"$RD_TOP"/build/chroot/*) skip "$RD_KVER's headers are in the chroot: modules_install is for the host's kernels" ;;
esac
grep -q '^ramdisk ' /proc/modules && fail "ramdisk is loaded before the test"

# Into a DESTDIR: a depmod of the guest's whole /lib/modules reads every
# module over 9p and takes minutes under TCG; one of DESTDIR takes none.
# The module the suite built (tests/vm/run) is what gets installed.
root=$RD_TMP/root
make -s -C "$RD_TOP" modules_install KVER="$RD_KVER" NO_BUILD=1 DESTDIR="$root" >"$RD_TMP/mi.log" 2>&1 ||
	{ cat "$RD_TMP/mi.log"; fail "make modules_install failed"; }
ko=$(find "$root/lib/modules/$RD_KVER/updates" -name 'ramdisk.ko*')
[ -n "$ko" ] || fail "no ramdisk.ko under DESTDIR/lib/modules/$RD_KVER/updates"
depmod -b "$root" "$RD_KVER" 2>/dev/null

# configfs, its one dependency, comes from the system's modules.
modprobe configfs
on_exit "modprobe -r -d $root ramdisk"
modprobe -d "$root" ramdisk nr_devices=2 size=4G
[ -b /dev/ramdisk1 ] || fail "no /dev/ramdisk1 after modprobe nr_devices=2"
assert_eq "$(cat /sys/block/ramdisk1/size)" $((4 << 21)) "sectors of a 4G device"
# udev opens new disks for a moment; retry as unload_module does
for _ in 1 2 3 4 5 6 7 8 9 10; do
	modprobe -r -d "$root" ramdisk 2>/dev/null && break
	udevadm settle 2>/dev/null || true
	sleep 0.2
done
if grep -q '^ramdisk ' /proc/modules; then
	fail "modprobe -r left ramdisk loaded"
fi
