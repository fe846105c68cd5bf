#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: invalid module parameters refuse the load with a dmesg line saying why
. "${0%/*}/../lib/common.sh"
require_root
[ -f "${RD_MODULE:-}" ] || fail "RD_MODULE is not set or missing"

# Each case: the parameters, then a fixed string the kernel log must show.
cases=(
	"size=0|insmod: size 0 is invalid"
	"size=1000|insmod: size 1000 is not a multiple of block_size 512"
	"block_size=4096 size=2048|insmod: size 2048 is not a multiple of block_size 4096"
	"size=8388608T|insmod: size 9223372036854775808 is above the largest block device"
	"size=16777216T|size '16777216T' is not a size"
	"size=99999999999999999999|size '99999999999999999999' is not a size"
	"size=abc|size 'abc' is not a size"
	"size=-4096|size '-4096' is not a size"
	"size=6K|insmod: size 6144 is not a multiple of the page size 4096"
	"mem_limit=lots|mem_limit 'lots' is not a size"
	"block_size=1000|insmod: block_size 1000 is not a power of two from 512 to"
	"block_size=256|insmod: block_size 256 is not a power of two from 512 to"
	"block_size=131072|insmod: block_size 131072 is not a power of two from 512 to"
	"block_size=4k|block_size '4k' is not a number"
	"nr_devices=65|nr_devices '65' is not a number from 0 to 64"
	"nr_devices=-1|nr_devices '-1' is not a number from 0 to 64"
	"max_part=256|max_part '256' is not a number from 0 to 255"
	"allocated_pages=5|allocated_pages is read-only"
	"copy=fast|copy 'fast' is not auto, memcpy, copy_page or unrolled"
	"spare_pages=4097|insmod: spare_pages 4097 is above 4096"
	"hold_keys=2|hold_keys '2' is not a number from 0 to 1"
	"hold_keys=yes|hold_keys 'yes' is not a number from 0 to 1"
)

for c in "${cases[@]}"; do
	params=${c%%|*}
	want=${c#*|}
	echo "insmod ramdisk.ko $params"
	mark="rdtest-101-$RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	# shellcheck disable=SC2086
	if insmod "$RD_MODULE" $params 2>"$RD_TMP/err"; then
		rmmod ramdisk
		fail "insmod with '$params' succeeded"
	fi
	grep -q '^ramdisk ' /proc/modules && fail "module loaded after '$params'"
	log=$(dmesg | sed -n "/$mark/,\$p")
	grep -qF "ramdisk: $want" <<<"$log" || fail "no 'ramdisk: $want' in the log for '$params'; got: $(tail -n 3 <<<"$log")"
done

# The largest sizes that are valid load, sparse: nothing is allocated.
for params in "size=4096 block_size=4096" "size=8388607T max_part=255 mem_limit=1M" \
	"nr_devices=64 size=4k" "hold_keys=1 size=64M"; do
	echo "insmod ramdisk.ko $params (valid)"
	# shellcheck disable=SC2086
	load_module $params
	assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "pages after '$params'"
	[ -b /dev/ramdisk0 ] || fail "no /dev/ramdisk0 after '$params'"
	want_hold=0
	[[ $params != *hold_keys=1* ]] || want_hold=1
	assert_eq "$(cat /sys/module/ramdisk/parameters/hold_keys)" "$want_hold" "hold_keys after '$params'"
	unload_module
done
echo ok
