#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the copy parameter: auto times the three routines and reports its pick; memcpy, copy_page and unrolled each move data intact
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp

param=/sys/module/ramdisk/parameters/copy

# auto: the load says which routine it timed faster, and the parameter
# reads back that routine.
mark="rdtest-113-$RANDOM$RANDOM"
echo "$mark" >/dev/kmsg
load_module nr_devices=1 size=16M
picked=$(cat $param)
case $picked in
memcpy | copy_page | unrolled) ;;
*) fail "copy reads '$picked' after an auto load, want memcpy, copy_page or unrolled" ;;
esac
line=$(dmesg | sed -n "/$mark/,\$p" | grep 'ramdisk: whole pages copied with') ||
	fail "no load line saying which routine copies whole pages"
echo "$line" | grep -q "with $picked (64 pages: memcpy [0-9]* ns, copy_page [0-9]* ns, unrolled [0-9]* ns)" ||
	fail "the load line does not name $picked with three timings: $line"
# The pick is the fastest of the timings the line gives.
fastest=$(echo "$line" | sed 's/.*(64 pages: //; s/)$//' | tr ',' '\n' |
	awk '{ if (best == "" || $2 + 0 < best) { best = $2 + 0; name = $1 } } END { print name }')
assert_eq "$picked" "$fastest" "routine picked against the timings in '$line'"
echo "auto picked $picked"
unload_module

# Each routine forced: whole pages in 1 MiB bios, a lone sector and a write
# across a page boundary (those two take memcpy() whatever the choice).
# Every byte of the pattern is random, so a routine that skipped or
# reordered any of its eight words per turn would read back different.
head -c 8M /dev/urandom >"$RD_TMP/big"
head -c 1024 /dev/urandom >"$RD_TMP/small"
for routine in memcpy copy_page unrolled; do
	load_module nr_devices=1 size=16M copy=$routine
	assert_eq "$(cat $param)" $routine "copy after loading with copy=$routine"
	dd if="$RD_TMP/big" of=/dev/ramdisk0 bs=1M seek=4 oflag=direct status=none
	dd if="$RD_TMP/small" of=/dev/ramdisk0 bs=512 seek=7 oflag=direct status=none
	dd if=/dev/ramdisk0 of="$RD_TMP/back" bs=1M skip=4 count=8 iflag=direct status=none
	cmp "$RD_TMP/big" "$RD_TMP/back" || fail "8 MiB read back different with copy=$routine"
	dd if=/dev/ramdisk0 of="$RD_TMP/back" bs=512 skip=7 count=2 iflag=direct status=none
	cmp "$RD_TMP/small" "$RD_TMP/back" || fail "the straddling write read back different with copy=$routine"
	unload_module
	echo "copy=$routine: data intact"
done
