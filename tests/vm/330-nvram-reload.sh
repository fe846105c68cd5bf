#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: reserved-memory backing: format, data across rmmod/insmod, header checks, bad ranges
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"

phys=$((512 << 20))
cfs=/sys/kernel/config/ramdisk
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config

# The header page of the range, as the CPU sees it (the module is unloaded).
header_sum() {
	dd if=/dev/mem bs=4096 skip=$((phys / 4096)) count=1 2>/dev/null | sha256sum
}
dev_sum() {
	dd if="$1" bs=1M skip=1 count=2 iflag=direct 2>/dev/null | sha256sum
}

# Without CONFIG_DEVMEM there is no /dev/mem node, and dd would write a
# plain file of that name instead of the reserved range.
[ -c /dev/mem ] || skip "/dev/mem is not a character device (a kernel without CONFIG_DEVMEM)"
# A blank range (no header) is refused unless format is asked for.
dd if=/dev/zero of=/dev/mem bs=4096 seek=$((phys / 4096)) count=1 conv=notrunc 2>/dev/null ||
	skip "/dev/mem cannot write the reserved range"
expect_fail insmod "$RD_MODULE" phys_addr=$phys phys_size=64M
kernel_log | grep -q 'no ramdisk header at 0x20000000' || fail "no dmesg line for a blank range"
assert_eq "$(header_sum)" "$(dd if=/dev/zero bs=4096 count=1 2>/dev/null | sha256sum)" \
	"blank header after a refused attach"

load_module phys_addr=$phys phys_size=64M format=1
assert_eq "$(cat /sys/block/ramdisk0/size)" $(((64 << 20) / 512 - 8)) "sectors of ramdisk0"
read -r kind addr bytes uuid </sys/block/ramdisk0/ramdisk/backing
assert_eq "$kind $addr $bytes" "phys 0x20000000 67108864" "backing"
assert_eq "$(dev_sum /dev/ramdisk0)" "$(head -c 2M /dev/zero | sha256sum)" "a formatted device reads zeros"
head -c 2M /dev/urandom >"$RD_TMP/pattern"
dd if="$RD_TMP/pattern" of=/dev/ramdisk0 bs=1M seek=1 oflag=direct status=none
want=$(sha256sum <"$RD_TMP/pattern")
unload_module

# rmmod/insmod: the same data under the same identity.
load_module phys_addr=$phys phys_size=64M
assert_eq "$(dev_sum /dev/ramdisk0)" "$want" "data after rmmod/insmod"
read -r _ _ _ uuid2 </sys/block/ramdisk0/ramdisk/backing
assert_eq "$uuid2" "$uuid" "uuid after rmmod/insmod"
unload_module

# A header that does not match the configuration is refused, untouched.
before=$(header_sum)
expect_fail insmod "$RD_MODULE" phys_addr=$phys phys_size=64M block_size=4096
kernel_log | grep -q 'refusing to attach' || fail "no dmesg line for a mismatched header"
assert_eq "$(header_sum)" "$before" "header after a mismatched attach"

# A corrupted header fails its checksum: refused, the range untouched.
printf 'X' | dd of=/dev/mem bs=1 seek=$((phys + 40)) conv=notrunc status=none ||
	fail "cannot write the header through /dev/mem"
[ "$(header_sum)" != "$before" ] || fail "the write through /dev/mem did not change the header"
before=$(header_sum)
expect_fail insmod "$RD_MODULE" phys_addr=$phys phys_size=64M
kernel_log | grep -q 'fails its checksum' || fail "no dmesg line for a corrupted header"
assert_eq "$(header_sum)" "$before" "header after a refused attach"

# configfs: format makes it usable again, once; then a plain attach.
load_module nr_devices=0
mkdir "$cfs/nv"
on_exit "echo 0 >$cfs/nv/power; rmdir $cfs/nv"
echo $phys >"$cfs/nv/phys_addr"
echo 64M >"$cfs/nv/phys_size"
assert_eq "$(cat "$cfs/nv/size")" $(((64 << 20) - 4096)) "size follows phys_size"
expect_fail sh -c "echo 1 >$cfs/nv/power"
echo 1 >"$cfs/nv/format"
echo 1 >"$cfs/nv/power"
assert_eq "$(cat "$cfs/nv/format")" 0 "format after power-on"
dev=/dev/ramdisk$(cat "$cfs/nv/index")
assert_eq "$(dev_sum "$dev")" "$(head -c 2M /dev/zero | sha256sum)" "zeros after a format"
dd if="$RD_TMP/pattern" of="$dev" bs=1M seek=1 oflag=direct status=none
udevadm settle 2>/dev/null || true
echo 0 >"$cfs/nv/power"
echo 1 >"$cfs/nv/power"
dev=/dev/ramdisk$(cat "$cfs/nv/index")
assert_eq "$(dev_sum "$dev")" "$want" "data after power off and on"

# Bad ranges: overlapping another device, System RAM, outside the memory map, unaligned.
mkdir "$cfs/bad"
on_exit "rmdir $cfs/bad"
echo $((phys + (32 << 20))) >"$cfs/bad/phys_addr"
echo 16M >"$cfs/bad/phys_size"
echo 1 >"$cfs/bad/format"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'overlaps another device' || fail "no dmesg line for an overlap"
echo 256M >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'is System RAM' || fail "no dmesg line for System RAM"
echo 0x100000000 >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'is not reserved memory' || fail "no dmesg line for a range outside the map"
echo $((phys + 512)) >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'must be multiples of' || fail "no dmesg line for an unaligned range"
echo "reserved-memory backing checks passed"
