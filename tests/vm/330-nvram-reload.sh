#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: reserved-memory backing: format, data across rmmod/insmod, header checks, bad ranges, firmware memory and MMIO refused untouched
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"

phys=$((512 << 20))
cfs=$RD_CONFIGFS
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
rd_configure nv phys_addr=$phys phys_size=64M
assert_eq "$(cat "$cfs/nv/size")" $(((64 << 20) - 4096)) "size follows phys_size"
expect_fail sh -c "echo 1 >$cfs/nv/power"
rd_configure nv format=1 power=1
assert_eq "$(cat "$cfs/nv/format")" 0 "format after power-on"
dev=$RD_DEV
assert_eq "$(dev_sum "$dev")" "$(head -c 2M /dev/zero | sha256sum)" "zeros after a format"
dd if="$RD_TMP/pattern" of="$dev" bs=1M seek=1 oflag=direct status=none
udevadm settle 2>/dev/null || true
rd_configure nv power=0 power=1
dev=$RD_DEV
assert_eq "$(dev_sum "$dev")" "$want" "data after power off and on"

# Bad ranges: overlapping another device, System RAM, outside the memory map, unaligned.
rd_configure bad phys_addr=$((phys + (32 << 20))) phys_size=16M format=1
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'overlaps another device' || fail "no dmesg line for an overlap"
echo 256M >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'is System RAM' || fail "no dmesg line for System RAM"
echo 0x100000000 >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'phys range 0x100000000-.* is not memory: 0x100000000 is in no entry' ||
	fail "no dmesg line for a range outside the map"
echo $((phys + 512)) >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q 'must be multiples of' || fail "no dmesg line for an unaligned range"

# Firmware memory and device memory are refused, with format=1 still set,
# before one byte is written. The firmware's own map (/sys/firmware/memmap)
# is what memmap= leaves alone: there the range set aside is RAM.
# fw_map prints "START END TYPE" per entry, in decimal, by address.
fw_map() {
	local path val n i
	local -A first last name
	while IFS=: read -r path val; do
		n=${path#/sys/firmware/memmap/}
		case ${n#*/} in
		start) first[${n%%/*}]=$((val)) ;;
		end) last[${n%%/*}]=$((val)) ;;
		type) name[${n%%/*}]=$val ;;
		esac
	done < <(grep -H . /sys/firmware/memmap/*/*)
	for i in "${!first[@]}"; do
		echo "${first[$i]} ${last[$i]} ${name[$i]}"
	done | sort -n
}
fw_map >"$RD_TMP/fw-map"
fw_type() { # ADDR: the firmware's type at ADDR
	local first last name
	while read -r first last name; do
		if ((first <= $1 && $1 <= last)); then
			echo "$name"
			return
		fi
	done <"$RD_TMP/fw-map"
}
assert_eq "$(fw_type $phys)" "System RAM" "the firmware's type of the range memmap=\$ set aside"
# Memory is compared byte for byte: through /dev/mem below the top of RAM
# (read() stops there), and above it through the ACPI tables' own files,
# which read the tables where they lie.
mem_sum() { # ADDR SIZE
	dd if=/dev/mem bs=4096 skip=$(($1 / 4096)) count=$(($2 / 4096)) 2>/dev/null | sha256sum
}
acpi_sum() {
	find /sys/firmware/acpi/tables -maxdepth 1 -type f -exec cat {} + | sha256sum
}
refused_untouched() { # ADDR SIZE DMESG-PATTERN WHAT SUM-COMMAND...
	local addr=$1 size=$2 pattern=$3 what=$4 before
	shift 4
	before=$("$@")
	echo "$addr" >"$cfs/bad/phys_addr"
	echo "$size" >"$cfs/bad/phys_size"
	expect_fail sh -c "echo 1 >$cfs/bad/power"
	kernel_log | grep -q -- "$pattern" || fail "no dmesg line '$pattern' for $what"
	assert_eq "$("$@")" "$before" "$what after a refused format"
	echo "refused $what at $(printf 0x%x "$addr"), unchanged"
}
# Firmware memory above 1 MiB: the pages of the ACPI tables (the DSDT's
# address is in the FADT at offset 40), Reserved in QEMU's map.
dsdt=$(($(od -An -tu4 -j40 -N4 /sys/firmware/acpi/tables/FACP)))
fw=$((dsdt / 4096 * 4096))
hex=$(printf 0x%x "$fw")
kind=$(fw_type "$fw")
if [ "$fw" -lt $((1 << 20)) ] || [ -z "$kind" ] || [ "$kind" = "System RAM" ]; then
	fail "the DSDT at $(printf 0x%x "$dsdt") is not in firmware memory above 1 MiB ($kind)"
fi
refused_untouched "$fw" 8192 "phys range $hex-.* is firmware memory ($kind)" \
	"the ACPI tables" acpi_sum
# The BIOS area below 1 MiB.
refused_untouched $((0xf0000)) 16384 "phys range 0xf0000-.* is firmware memory" \
	"the BIOS area" mem_sum $((0xf0000)) 16384
# A PCI device's BAR, claimed by its driver: device memory, no entry in
# the firmware's map. /dev/mem may not read it; the log line shows the
# range check refused it, which comes before any claim or mapping.
bar=
while read -r range _ owner; do
	if [[ $owner == 0000:* ]]; then
		bar=${range%-*}
		break
	fi
done < <(grep '^  [0-9a-f]' /proc/iomem)
[ -n "$bar" ] || fail "no PCI BAR in /proc/iomem"
echo $((0x$bar)) >"$cfs/bad/phys_addr"
expect_fail sh -c "echo 1 >$cfs/bad/power"
kernel_log | grep -q "phys range 0x$bar-.* is not memory: 0x$bar is in no entry" ||
	fail "no dmesg line for a PCI BAR"
assert_eq "$(grep -c ' : ramdisk$' /proc/iomem)" 1 "ranges claimed by ramdisk (nv's alone)"
echo "refused the PCI BAR at 0x$bar"
# The module reads the firmware's map in init's view of the file system,
# not in the caller's root and mount namespace: where the map is hidden
# (or replaced), a range is judged as from init's namespace. nv's range
# still attaches, and the ACPI tables are still firmware memory.
if command -v unshare >/dev/null; then
	hide_map="mount -t tmpfs none /sys/firmware/memmap"
	echo 0 >"$cfs/nv/power"
	run_cmd 0 unshare -m bash -c "$hide_map && echo 1 >$cfs/nv/power"
	assert_eq "$(cat "$cfs/nv/power")" 1 "nv powered on where the firmware's map is hidden"
	echo "$fw" >"$cfs/bad/phys_addr"
	echo 8192 >"$cfs/bad/phys_size"
	mark="rdtest-330-$RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	expect_refusal 1 "Invalid argument" unshare -m bash -c "$hide_map && echo 1 >$cfs/bad/power"
	kernel_log | sed -n "/$mark/,\$p" | grep -q -- "phys range $hex-.* is firmware memory ($kind)" ||
		fail "the ACPI tables were not refused as firmware memory where the map is hidden"
	echo "the firmware's map is read in init's namespace"
fi
echo "reserved-memory backing checks passed"
