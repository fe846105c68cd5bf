#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every invalid configfs value is refused with EINVAL and a dmesg line saying why; the old value stays; addresses are 0x hex or decimal, never octal
. "${0%/*}/../lib/common.sh"
require_root

cfg=$RD_CONFIGFS
load_module nr_devices=0
mkdir "$cfg/bad"
on_exit "rmdir $cfg/bad"

# ATTRIBUTE VALUE LOG_TEXT
cases=(
	"size|0|bad: size 0 is invalid"
	"size|1000|bad: size 1000 is not a multiple of block_size 512"
	"size|6K|bad: size 6144 is not a multiple of the page size 4096"
	"size|8388608T|bad: size 9223372036854775808 is above the largest block device"
	"size|16777216T|bad: size '16777216T' is not a size"
	"size|1X|bad: size '1X' is not a size"
	"size|-1|bad: size '-1' is not a size"
	"block_size|1000|bad: block_size 1000 is not a power of two from 512 to"
	"block_size|131072|bad: block_size 131072 is not a power of two from 512 to"
	"physical_block_size|256|bad: physical_block_size 256 is not a power of two from block_size 512 to 65536"
	"physical_block_size|3072|bad: physical_block_size 3072 is not a power of two from block_size 512 to 65536"
	"physical_block_size|131072|bad: physical_block_size 131072 is not a power of two from block_size 512 to 65536"
	"io_min|1000|bad: io_min 1000 is not a multiple of the physical block size 4096"
	"io_opt|6144|bad: io_opt 6144 is not a multiple of the minimum I/O size 4096"
	"io_opt|x|bad: io_opt 'x' is not a number"
	"rotational|2|bad: rotational '2' is neither 0 nor 1"
	"power_cut_unit|byte|bad: power_cut_unit 'byte' is neither page nor sector"
	"power_cut_personality|lying|bad: power_cut_personality 'lying' is not one of unordered, plp, lying-flush, misdirected and torn-media-error"
	"block_size|4k|bad: block_size '4k' is not a number"
	"max_part|256|bad: max_part 256 is above 255"
	"max_part|-1|bad: max_part '-1' is not a number"
	"mem_limit|lots|bad: mem_limit 'lots' is not a size"
	"numa_node|4096|bad: numa_node 4096 is neither -1 nor an online node"
	"numa_node|-2|bad: numa_node -2 is neither -1 nor an online node"
	"power|2|bad: power '2' is neither 0 nor 1"
	"phys_addr|0x|bad: phys_addr '0x' is not an address or size"
	"phys_addr|0x0x6000|bad: phys_addr '0x0x6000' is not an address or size"
	"phys_addr|+0x6000|bad: phys_addr '+0x6000' is not an address or size"
	"phys_addr|0x6000K|bad: phys_addr '0x6000K' is not an address or size"
)

for c in "${cases[@]}"; do
	IFS='|' read -r attr value want <<<"$c"
	old=$(cat "$cfg/bad/$attr")
	mark="rdtest-201-$RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	if err=$( (echo "$value" >"$cfg/bad/$attr") 2>&1); then
		fail "$attr=$value was accepted"
	fi
	grep -q "Invalid argument" <<<"$err" || fail "$attr=$value: $err"
	assert_eq "$(cat "$cfg/bad/$attr")" "$old" "$attr after the refused $value"
	dmesg | sed -n "/$mark/,\$p" | grep -qF "ramdisk: $want" ||
		fail "no 'ramdisk: $want' in the log for $attr=$value"
done

# Sizes are page multiples, so a valid size suits either block size and
# the attributes can be written in any order.
echo 4096 >"$cfg/bad/block_size"
echo 12K >"$cfg/bad/size"
echo 512 >"$cfg/bad/block_size"
assert_eq "$(cat "$cfg/bad/size")" 12288 "size after block_size changes"

# Addresses are 0x hex or decimal digits: a leading 0 is no octal prefix
# (024576 in octal would be 0x297e).
for v in 024576 24576 0x6000 0X6000 24K; do
	echo "$v" >"$cfg/bad/phys_addr" || fail "phys_addr $v was refused"
	assert_eq "$(cat "$cfg/bad/phys_addr")" 0x6000 "phys_addr after $v"
done
echo 0 >"$cfg/bad/phys_addr"

# Too long a name.
long=$(printf 'n%.0s' $(seq 1 70))
expect_fail mkdir "$cfg/$long"
dmesg | grep -q "the name is longer than 63 characters" || fail "no dmesg line for the long name"

echo ok
