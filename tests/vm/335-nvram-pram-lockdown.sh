#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: reserved-memory backing in memmap=! legacy persistent memory, refused while the pmem driver holds it, and refused on a locked-down kernel
# VMOPTS: --mem 1G --append memmap=16M!640M
. "${0%/*}/../lib/common.sh"

# This test locks the kernel down at its end, which only a reboot undoes:
# it must stay the only test of its boot (no other test has its VMOPTS).
phys=$((640 << 20))
cfs=$RD_CONFIGFS
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config

# memmap=16M!640M: legacy persistent memory for the kernel, RAM for the firmware.
grep -qx '28000000-28ffffff : Persistent Memory (legacy)' /proc/iomem ||
	fail "memmap=16M!640M made no legacy persistent memory: $(grep -i persist /proc/iomem)"
fw=$(for d in /sys/firmware/memmap/*; do
	if (($(cat "$d/start") <= phys && phys <= $(cat "$d/end"))); then cat "$d/type"; fi
done)
assert_eq "$fw" "System RAM" "the firmware's type of the range memmap=! set aside"

load_module nr_devices=0
rd_configure pram phys_addr=$phys phys_size=16M format=1

# The pmem driver, when loaded, claims the range as a namespace: another
# driver's memory, refused without a write.
if modprobe nd_e820 2>/dev/null; then
	on_exit "echo e820_pmem >/sys/bus/platform/drivers/e820_pmem/unbind 2>/dev/null; modprobe -r dax_pmem nd_pmem nd_btt nd_e820 libnvdimm 2>/dev/null"
	for _ in $(seq 50); do
		grep -q ' : namespace' /proc/iomem && break
		sleep 0.1
	done
	grep -A1 'Persistent Memory (legacy)' /proc/iomem
	expect_fail bash -c "echo 1 >$cfs/pram/power"
	kernel_log | grep -q 'phys range 0x28000000-0x28ffffff overlaps another device or driver' ||
		fail "no dmesg line for a range the pmem driver holds"
	echo e820_pmem >/sys/bus/platform/drivers/e820_pmem/unbind
	modprobe -r dax_pmem nd_pmem nd_btt nd_e820 libnvdimm
	echo "refused while the pmem driver held the range"
else
	echo "no nd_e820 module: the pmem driver's claim is not tried"
fi

# Not held: formatted, written, and the same data after power off and on.
rd_configure pram power=1
dev=$RD_DEV
head -c 1M /dev/urandom >"$RD_TMP/pattern"
dd if="$RD_TMP/pattern" of="$dev" bs=1M oflag=direct status=none
udevadm settle 2>/dev/null || true
rd_configure pram power=0 power=1
dev=$RD_DEV
assert_eq "$(head -c 1M "$dev" | sha256sum)" "$(sha256sum <"$RD_TMP/pattern")" "data after power off and on"

# Locked down (as Secure Boot makes it), the kernel refuses raw physical
# memory as /dev/mem is refused, a range that was accepted a moment ago too.
# The module is loaded already: a locked-down kernel would not load it
# unsigned. A device attached before stays, as an open /dev/mem does.
# The debug kernel (make debug-kernel) is built without securityfs.
[ -d /sys/kernel/security ] || skip "no securityfs in this kernel: lockdown cannot be set"
mountpoint -q /sys/kernel/security || mount -t securityfs none /sys/kernel/security
lockdown=/sys/kernel/security/lockdown
[ -w "$lockdown" ] || skip "no lockdown LSM in this kernel ($lockdown)"
cat "$lockdown"
echo integrity >"$lockdown"
grep -q '\[integrity\]' "$lockdown" || fail "lockdown did not take: $(cat "$lockdown")"
assert_eq "$(head -c 1M "$dev" | sha256sum)" "$(sha256sum <"$RD_TMP/pattern")" "data read after the lockdown"
udevadm settle 2>/dev/null || true
echo 0 >"$cfs/pram/power"
expect_refusal 1 "Operation not permitted" bash -c "echo 1 >$cfs/pram/power"
kernel_log | grep -q 'pram: refusing phys range 0x28000000+16777216: the kernel is locked down' ||
	fail "no dmesg line for a locked-down kernel"
echo "legacy persistent memory and lockdown checks passed"
