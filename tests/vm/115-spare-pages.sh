#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: spare pages: none before the first write, the worker fills up to spare_pages after it, allocated_pages stays exact, a partial write into a spare page reads zeros around it, a lower spare_pages or mem_limit frees the surplus at once, 0 turns them off, bad values are refused, removal frees them, and load-time devices take the spare_pages parameter
. "${0%/*}/../lib/common.sh"
require_root
require_cmd xfs_io cmp

cfg=$RD_CONFIGFS
load_module nr_devices=0
rd_configure sp size=64M power=1
dev=$RD_DEV
name=${dev#/dev/}
pages() { sysfs_stat "$name" allocated_pages; }
spares() { sysfs_stat "$name" spare_pages; }

# WANT [WHAT]: waits up to 20 s for spare_pages to read WANT
wait_spares() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(spares)" = "$1" ] && return 0
		sleep 0.1
	done
	fail "${2:-spare pages}: spare_pages stays at $(spares), want $1"
}

# write_pages PAGE COUNT: one direct write of the data file's pages
# PAGE .. PAGE+COUNT-1 to the same pages of the device
write_pages() {
	dd if="$RD_TMP/data" of="$dev" bs=4096 skip="$1" seek="$1" count="$2" oflag=direct \
		conv=notrunc status=none || fail "write of $2 pages at page $1 failed"
}

assert_eq "$(cat "$cfg/sp/spare_pages")" 64 "default spare_pages"
assert_eq "$(spares)" 0 "spare pages before any write"
sleep 1
assert_eq "$(spares)" 0 "spare pages of a device nobody wrote to"

head -c 2M /dev/urandom >"$RD_TMP/data"
write_pages 0 1
assert_eq "$(pages)" 1 "pages after one 4 KiB write"
wait_spares 64 "after the first write"
assert_eq "$(pages)" 1 "pages once the spares are made"

# 16 first writes take 16 spares and stay above the refill mark (half)
for ((i = 1; i <= 16; i++)); do
	write_pages $i 1
done
assert_eq "$(pages)" 17 "pages after 17 first writes"
assert_eq "$(spares)" 48 "spare pages after 16 were taken"
# 24 more cross the mark: the worker refills while the write goes on, so
# the list ends anywhere above the mark (the worker may finish before the
# write takes its last pages)
write_pages 17 24
assert_eq "$(pages)" 41 "pages after 41 first writes"
for ((i = 0; i < 200; i++)); do
	[ "$(spares)" -gt 32 ] && break
	sleep 0.1
done
n=$(spares)
if [ "$n" -le 32 ] || [ "$n" -gt 64 ]; then
	fail "after the refill: spare_pages reads $n, want 33 to 64"
fi

# A partial write into a page that comes from the spares: the rest of the
# page reads zeros, whatever the spare held.
head -c 512 /dev/urandom >"$RD_TMP/piece"
xfs_io -d -c "pwrite -q -i $RD_TMP/piece $((100 * 4096 + 1024)) 512" "$dev" ||
	fail "partial write failed"
dd if="$dev" of="$RD_TMP/page" bs=4096 skip=100 count=1 iflag=direct status=none
{ head -c 1024 /dev/zero; cat "$RD_TMP/piece"; head -c 2560 /dev/zero; } >"$RD_TMP/want"
cmp "$RD_TMP/page" "$RD_TMP/want" || fail "a partial write into a spare page reads back other bytes"
dd if="$dev" of="$RD_TMP/back" bs=4096 count=41 iflag=direct status=none
cmp "$RD_TMP/back" <(head -c $((41 * 4096)) "$RD_TMP/data") || fail "data written into spare pages reads back different"

# mem_limit: the spares fit in the room beside the pages holding data, and
# a lower limit frees the surplus at once
assert_eq "$(pages)" 42 "pages before the limit"
[ "$(spares)" -ge 10 ] || fail "only $(spares) spare pages before the limit"
echo $(((42 + 10) * 4096)) >"$cfg/sp/mem_limit"
assert_eq "$(spares)" 10 "spare pages right after mem_limit left room for 10"
write_pages 200 1
sleep 1
assert_eq "$(spares)" 9 "spare pages after one more page under the limit"
assert_eq $(($(pages) + $(spares))) 52 "pages and spares under a 52-page limit"
echo 0 >"$cfg/sp/mem_limit"

# A lower spare_pages frees the surplus at once; 0 turns them off
echo 8 >"$cfg/sp/spare_pages"
assert_eq "$(spares)" 8 "spare pages right after spare_pages 8"
echo 0 >"$cfg/sp/spare_pages"
assert_eq "$(spares)" 0 "spare pages right after spare_pages 0"
write_pages 300 8
sleep 1
assert_eq "$(spares)" 0 "spare pages after first writes with spare_pages 0"
assert_eq "$(pages)" 51 "pages after 8 first writes with spare_pages 0"

# Bad values: refused with a reason, the value kept
for bad in 4097 -1 abc; do
	dmesg -C
	if echo "$bad" >"$cfg/sp/spare_pages" 2>/dev/null; then
		fail "spare_pages '$bad' was accepted"
	fi
	case $bad in
	4097) why="spare_pages 4097 is above 4096" ;;
	*) why="spare_pages '$bad' is not a number" ;;
	esac
	kernel_log | grep -qF "$why" || fail "no '$why' in the kernel log: $(kernel_log | tail -n 3)"
	assert_eq "$(cat "$cfg/sp/spare_pages")" 0 "spare_pages after '$bad'"
done

# Removal frees the spares. Free memory moves by tens of MiB on its own
# here (page cache, slab), so eight devices hold 16 MiB of spares each,
# and removing them must give back most of the 128 MiB. Freed pages can
# wait in the allocator's per-CPU lists, which MemFree leaves out: the
# free pages are counted from /proc/zoneinfo, lists included.
free_kib() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	awk '$1 == "nr_free_pages" { n += $2 } $1 == "count:" { n += $2 }
		END { print n * 4 }' /proc/zoneinfo
}
echo 0 >"$cfg/sp/power"
for i in 0 1 2 3 4 5 6 7; do
	rd_configure "big$i" size=64M spare_pages=4096 power=1
	dev=$RD_DEV
	name=${dev#/dev/}
	write_pages 0 1
	wait_spares 4096 "big$i with spare_pages 4096"
done
before=$(free_kib)
for i in 0 1 2 3 4 5 6 7; do
	echo 0 >"$cfg/big$i/power"
done
after=$(free_kib)
echo "free memory grew by $((after - before)) KiB when 128 MiB of spares went"
[ $((after - before)) -ge $((96 * 1024)) ] ||
	fail "free memory grew by $((after - before)) KiB when devices with 128 MiB of spares were removed"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "module pages after removal"

# Load-time devices take the spare_pages parameter: the default, or none
for i in 0 1 2 3 4 5 6 7; do
	rmdir "$cfg/big$i"
done
rmdir "$cfg/sp"
for want in 64 0; do
	unload_module
	if [ $want = 64 ]; then
		load_module nr_devices=1 size=16M
	else
		load_module nr_devices=1 size=16M spare_pages=0
	fi
	udevadm settle
	dev=/dev/ramdisk0
	name=ramdisk0
	write_pages 0 1
	if [ $want = 64 ]; then
		wait_spares 64 "load-time device, default spare_pages"
	else
		sleep 1
		assert_eq "$(spares)" 0 "load-time device with spare_pages=0"
	fi
	assert_eq "$(pages)" 1 "pages of the load-time device"
done
echo ok
