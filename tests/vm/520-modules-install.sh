#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make modules_install puts ramdisk.ko where modprobe finds it; modprobe with parameters, modprobe -r
. "${0%/*}/../lib/common.sh"
require_cmd make modprobe depmod

kdir=$("$RD_TOP/scripts/kernel" kdir "$RD_KVER")
case $kdir in
"$RD_TOP"/build/chroot/*) skip "$RD_KVER's headers are in the chroot: modules_install is for the host's kernels" ;;
esac
mods=/lib/modules/$RD_KVER
[ -w "$mods" ] || skip "$mods is not writable in this guest"
grep -q '^ramdisk ' /proc/modules && fail "ramdisk is loaded before the test"

# The guest's root is a throw-away overlay, but leave it as found anyway.
on_exit "depmod -a $RD_KVER"
on_exit "rm -f $mods/updates/ramdisk.ko $mods/updates/ramdisk.ko.xz $mods/updates/ramdisk.ko.zst"
on_exit "modprobe -r ramdisk"

# The module the suite built (tests/vm/run) is what gets installed.
make -s -C "$RD_TOP" modules_install KVER="$RD_KVER" NO_BUILD=1 >"$RD_TMP/mi.log" 2>&1 ||
	{ cat "$RD_TMP/mi.log"; fail "make modules_install failed"; }
path=$(modinfo -n ramdisk) || fail "modinfo does not find ramdisk after modules_install"
case $path in "$mods"/updates/ramdisk.ko*) ;; *) fail "modinfo finds $path, not updates/" ;; esac

modprobe ramdisk nr_devices=2 size=4G
[ -b /dev/ramdisk1 ] || fail "no /dev/ramdisk1 after modprobe nr_devices=2"
assert_eq "$(cat /sys/block/ramdisk1/size)" $((4 << 21)) "sectors of a 4G device"
modprobe -r ramdisk
grep -q '^ramdisk ' /proc/modules && fail "modprobe -r left ramdisk loaded"
true
