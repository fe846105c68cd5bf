#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection on a writeback-cache device: each allocation of a cached write, then of a flush, fails in turn; a failed write ends with EIO, each sector of its range reads as before or as written and the cache counts what it holds; a failed flush loses nothing and the next one makes everything durable; nothing leaks
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require

load_module nr_devices=0
# cache_size large enough that no write here has to evict a page to make room
rd_configure w size=64M cache_mode=writeback cache_size=16M power=1
dev=$RD_DEV
name=${dev#/dev/}
stat_() { sysfs_stat "$name" "$1"; }

# durable data written before the faults
head -c 1M /dev/urandom >before.bin
dd if=before.bin of="$dev" bs=1M oflag=direct,sync status=none
# four pages per write and per flush: a fault sweep on the debug kernel
# costs about 10 s a fault point, and each page past the first (xarray
# node) adds the same three (cache entry, kmemleak's object for it, page)
npages=4
chunk=$((npages * 4096))
region() { echo $((2 * 1024 * 1024 + $1 * 256 * 1024)); }
# and a guard page just before each region of the write sweep (below),
# made durable now: a write or flush with O_SYNC during the sweep would
# flush the whole cache
head -c 4096 /dev/urandom >guard.bin
for i in $(seq 1 64); do
	dd if=guard.bin of="$dev" bs=4096 seek=$(($(region "$i") / 4096 - 1)) oflag=direct status=none
done
sync "$dev"
assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after a flush"
durable_before=$(stat_ allocated_pages)
assert_eq "$durable_before" $((256 + 64)) "durable pages before the faults"

fault_aim_at_module

# 1. cached writes: a cache page, its copy and an xarray slot per page.
# As in test 700: one write of $npages pages per fault, each to a region of its
# own; the page before it holds the durable guard, the page after it
# nothing; each sector of a failed write reads as before (zeros) or as
# written, and the cache holds exactly the pages written.
head -c $chunk /dev/urandom >chunk.bin
head -c $chunk /dev/zero >zero.bin
head -c 4096 /dev/zero >zero-page.bin
cached=0
# write_under_fault N: the write to region N with its N-th fault point
# failing, and the checks of what it left
write_under_fault() {
	local n=$1 off
	off=$(region "$n")
	result=$(fail_nth "$n" write "$dev" "$off" chunk.bin)
	dd if="$dev" of=around.bin bs=4096 count=$((npages + 2)) skip=$((off / 4096 - 1)) iflag=direct status=none
	head -c 4096 around.bin | cmp -s - guard.bin ||
		fail "write fault $n ($result): the page before the write changed"
	tail -c 4096 around.bin | cmp -s - zero-page.bin ||
		fail "write fault $n ($result): the page after the write changed"
	dd if=around.bin of=got.bin bs=4096 skip=1 count=$npages status=none
	new=$(old_or_new got.bin zero.bin chunk.bin) || fail "write fault $n ($result): $new"
	echo "write fault $n: $result, pages cached: $new"
	case $result in
	"not-reached ok" | "injected ok")
		cmp got.bin chunk.bin || fail "write fault $n ($result): the write passed but reads back wrong"
		;;
	"injected EIO") ;;
	*)
		fail "write fault $n: ended with '$result', want EIO"
		;;
	esac
	cached=$((cached + ${new%% *}))
	assert_eq "$(stat_ cache_pages)" $cached "cache pages after write fault $n"
	assert_eq "$(stat_ dirty_bytes)" $((cached * 4096)) "dirty bytes after write fault $n"
	assert_eq "$(stat_ allocated_pages)" "$durable_before" "durable pages after write fault $n"
}
fault_sweep 64 "one cached write of $npages pages" write_under_fault
writes=$((fault_points + 1))
echo "$cached pages cached"

# what the regions hold now (the faults left some short), for the end
for i in $(seq 1 $writes); do
	dd if="$dev" bs=$chunk count=1 skip=$(($(region "$i") / chunk)) iflag=direct status=none
done >expected.bin
sync "$dev"
assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after a flush with no fault"
durable=$((durable_before + cached))
assert_eq "$(stat_ allocated_pages)" $durable "durable pages after a flush with no fault"

# 2. flushes: $npages cached pages, each destaged to a new durable page (and a
# slot in a new leaf of the page index), in a region of its own per fault
flush_region() { echo $((32 * 1024 * 1024 + $1 * 256 * 1024)); }
# flush_under_fault N: $npages pages written to flush region N, then a
# flush with its N-th fault point failing, and the checks of what it left
flush_under_fault() {
	local n=$1 off
	off=$(flush_region "$n")
	dd if=chunk.bin of="$dev" bs=$chunk seek=$((off / chunk)) oflag=direct status=none
	assert_eq "$(stat_ dirty_bytes)" $chunk "dirty bytes before flush fault $n"
	result=$(fail_nth "$n" fsync "$dev")
	echo "flush fault $n: $result, $(stat_ dirty_bytes) bytes left dirty"
	case $result in
	"not-reached ok") ;;
	"injected ok") ;;
	"injected EIO")
		# what the failed flush could not destage stays cached and dirty
		[ "$(stat_ dirty_bytes)" -gt 0 ] || fail "flush fault $n: EIO but nothing left dirty"
		;;
	*)
		fail "flush fault $n: ended with '$result', want EIO"
		;;
	esac
	dd if="$dev" of=got.bin bs=$chunk count=1 skip=$((off / chunk)) iflag=direct status=none
	cmp got.bin chunk.bin || fail "flush fault $n ($result): the data reads back wrong"
	# the next flush, with no fault, makes the rest durable
	sync "$dev"
	durable=$((durable + npages))
	assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after the flush that follows fault $n"
	assert_eq "$(stat_ allocated_pages)" $durable "durable pages after the flush that follows fault $n"
}
fault_sweep 64 "one flush of $npages pages" flush_under_fault
flushes=$((fault_points + 1))

# a power cut now loses nothing: everything was flushed
echo 1 >"$RD_CONFIGFS/w/power_cut"
dd if="$dev" of=got.bin bs=1M count=1 iflag=direct status=none
cmp got.bin before.bin || fail "the data written before the faults changed"
for i in $(seq 1 $writes); do
	dd if="$dev" bs=$chunk count=1 skip=$(($(region "$i") / chunk)) iflag=direct status=none
done | cmp - expected.bin || fail "cached writes lost in a power cut after their flush"
for i in $(seq 1 $flushes); do
	dd if="$dev" of=got.bin bs=$chunk count=1 skip=$(($(flush_region "$i") / chunk)) \
		iflag=direct status=none
	cmp got.bin chunk.bin || fail "flushed region $i lost in a power cut"
done
echo 0 >"$RD_CONFIGFS/w/power"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "module pages after power off"
echo ok
