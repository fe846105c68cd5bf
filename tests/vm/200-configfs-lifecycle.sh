#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: configfs mkdir/power/rmdir: defaults, lowest free index, attributes reach the device, re-created devices read zeros, rmdir refused while powered, also after a failed power-off, the bad blocks and fault rules kept
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blockdev udevadm

cfg=$RD_CONFIGFS
load_module nr_devices=2 size=8M

mkdir "$cfg/one"
on_exit "rmdir $cfg/one"
assert_eq "$(cat "$cfg/one/size")" $((1 << 30)) "default size"
assert_eq "$(cat "$cfg/one/block_size")" 512 "default block_size"
assert_eq "$(cat "$cfg/one/max_part")" 0 "default max_part"
assert_eq "$(cat "$cfg/one/mem_limit")" 0 "default mem_limit"
assert_eq "$(cat "$cfg/one/numa_node")" -1 "default numa_node"
assert_eq "$(cat "$cfg/one/power")" 0 "default power"
assert_eq "$(cat "$cfg/one/index")" -1 "index while off"
expect_fail sh -c "echo 3 >$cfg/one/index"

# Every attribute reaches the device.
echo 48M >"$cfg/one/size"
assert_eq "$(cat "$cfg/one/size")" $((48 << 20)) "size read back in bytes"
echo 4096 >"$cfg/one/block_size"
echo 3 >"$cfg/one/max_part"
echo 20M >"$cfg/one/mem_limit"
echo 0 >"$cfg/one/numa_node"
echo 1 >"$cfg/one/power"
on_exit "echo 0 >$cfg/one/power"
assert_eq "$(cat "$cfg/one/power")" 1 "power"
assert_eq "$(cat "$cfg/one/index")" 2 "index after two load-time devices"
udevadm settle
dev=/dev/ramdisk2
assert_eq "$(blockdev --getsize64 $dev)" $((48 << 20)) "device size"
assert_eq "$(blockdev --getss $dev)" 4096 "device block size"
assert_eq "$(sysfs_stat ramdisk2 mem_limit)" $((20 << 20)) "device mem_limit"
assert_eq "$(sysfs_stat ramdisk2 name)" one "device name"
assert_eq "$(cat /sys/block/ramdisk2/range)" 4 "minors for max_part=3"

# Indexes: lowest free, reused after power-off.
for n in two three; do
	mkdir "$cfg/$n"
	on_exit "rmdir $cfg/$n"
	echo 4M >"$cfg/$n/size"
	echo 1 >"$cfg/$n/power"
	on_exit "echo 0 >$cfg/$n/power"
done
assert_eq "$(cat "$cfg/two/index")" 3 "index of two"
assert_eq "$(cat "$cfg/three/index")" 4 "index of three"
udevadm settle
dd if=/dev/urandom of=/dev/ramdisk3 bs=4k count=16 oflag=direct status=none
assert_eq "$(sysfs_stat ramdisk3 allocated_pages)" 16 "pages of two"
echo 0 >"$cfg/two/power"
assert_eq "$(cat "$cfg/two/index")" -1 "index of two after power-off"
[ ! -e /sys/block/ramdisk3 ] || fail "ramdisk3 survived power-off"
# Powered off, attributes change freely; powered on again, it reads zeros.
echo 8M >"$cfg/two/size"
echo 1 >"$cfg/two/power"
assert_eq "$(cat "$cfg/two/index")" 3 "index of two, powered again"
udevadm settle
assert_eq "$(sysfs_stat ramdisk3 allocated_pages)" 0 "pages after power cycle"
assert_eq "$(tr -d '\0' </dev/ramdisk3 | wc -c)" 0 "non-zero bytes after power cycle"
assert_eq "$(blockdev --getsize64 /dev/ramdisk3)" $((8 << 20)) "new size after power cycle"

# Writing the current power state again is no change.
echo 1 >"$cfg/two/power"
assert_eq "$(cat "$cfg/two/index")" 3 "index after writing power=1 twice"

# rmdir of a powered device is refused even when nothing holds it open:
# the disk and its data stay. Powered off, the directory goes.
udevadm settle
head -c 64K /dev/urandom >"$RD_TMP/three"
dd if="$RD_TMP/three" of=/dev/ramdisk4 bs=64K oflag=direct status=none
if err=$(rmdir "$cfg/three" 2>&1); then
	fail "rmdir of a powered device succeeded"
fi
grep -q "busy" <<<"$err" || fail "rmdir of a powered device said: $err"
assert_eq "$(cat "$cfg/three/power")" 1 "power after the refused rmdir"
cmp -n 65536 "$RD_TMP/three" /dev/ramdisk4 || fail "ramdisk4 lost data to the refused rmdir"
echo 0 >"$cfg/three/power"
rmdir "$cfg/three"
[ ! -e /sys/block/ramdisk4 ] || fail "ramdisk4 survived power-off and rmdir"
mkdir "$cfg/three"
assert_eq "$(cat "$cfg/three/power")" 0 "power of a re-made directory"

# A power-off that fails (the disk is open) leaves the directory pinned:
# rmdir stays refused, and the bad blocks and fault rules, which the
# device reads on every bio, stay the item's and keep working. (rmdir of
# a powered directory never reaches the module, so its own guard, which
# keeps such an item and its lists for good, cannot be reached here.)
echo 1 >"$cfg/three/power"
three=/dev/ramdisk$(cat "$cfg/three/index")
udevadm settle
echo "+8-15" >"$cfg/three/badblocks"
echo "+write every=1 drop" >"$cfg/three/fault_schedule"
exec 3<"$three"
expect_fail sh -c "echo 0 >$cfg/three/power"
if err=$(rmdir "$cfg/three" 2>&1); then
	fail "rmdir after a failed power-off succeeded"
fi
grep -q "busy" <<<"$err" || fail "rmdir after a failed power-off said: $err"
dd if="$three" of=/dev/null bs=512 skip=8 count=1 iflag=direct status=none 2>/dev/null &&
	fail "a bad block read after the refused rmdir"
drops=$(sysfs_stat "$three" fault_drops)
dd if=/dev/urandom of="$three" bs=4K seek=4 count=1 oflag=direct status=none ||
	fail "a dropped write failed after the refused rmdir"
assert_eq "$(sysfs_stat "$three" fault_drops)" $((drops + 1)) "fault_drops after the refused rmdir"
exec 3<&-
udevadm settle
echo 0 >"$cfg/three/power"

# rmmod is refused while configfs directories exist, allowed after.
expect_fail rmmod ramdisk
echo 0 >"$cfg/one/power"
echo 0 >"$cfg/two/power"
rmdir "$cfg/one" "$cfg/two" "$cfg/three"
udevadm settle
unload_module
echo ok
