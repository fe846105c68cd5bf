#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection on a writeback-cache device: each allocation of a cached write, then of a flush, fails in turn; writes end with EIO keeping the pages before the fault, a failed flush loses nothing and the next one makes everything durable
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require

cfg=/sys/kernel/config/ramdisk
load_module nr_devices=0
mkdir $cfg/w
on_exit "rmdir $cfg/w"
echo 64M >$cfg/w/size
echo writeback >$cfg/w/cache_mode
# large enough that no write here has to evict a page to make room
echo 16M >$cfg/w/cache_size
echo 1 >$cfg/w/power
on_exit "echo 0 >$cfg/w/power"
udevadm settle
name=ramdisk$(cat $cfg/w/index)
dev=/dev/$name
stat_() { sysfs_stat "$name" "$1"; }

# durable data written before the faults
head -c 1M /dev/urandom >before.bin
dd if=before.bin of="$dev" bs=1M oflag=direct,sync status=none
assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after a synchronous write"
durable_before=$(stat_ allocated_pages)

fault_aim_at_module

# 1. cached writes: a cache page, its copy and an xarray slot per page
chunk=$((64 * 1024))
head -c $chunk /dev/urandom >chunk.bin
head -c $chunk /dev/zero >zero.bin
region() { echo $((2 * 1024 * 1024 + $1 * 256 * 1024)); }
cached=0
n=0
while :; do
	n=$((n + 1))
	[ $n -le 64 ] || fail "more than 64 fault points in one cached write: the sweep does not end"
	result=$(fail_nth $n write "$dev" "$(region $n)" chunk.bin)
	echo "write fault $n: $result"
	dd if="$dev" of=got.bin bs=$chunk count=1 skip=$(($(region $n) / chunk)) iflag=direct status=none
	case $result in
	"not-reached ok" | "injected ok")
		cmp got.bin chunk.bin || fail "write fault $n ($result): the data reads back wrong"
		cached=$((cached + 16))
		[ "$result" = "not-reached ok" ] && break
		;;
	"injected EIO")
		first_diff=$(cmp got.bin chunk.bin | sed -n 's/.* byte \([0-9]*\),.*/\1/p' || true)
		[ -n "$first_diff" ] || fail "write fault $n: EIO but all 16 pages written"
		done_pages=$(((first_diff - 1) / 4096))
		tail -c +$((done_pages * 4096 + 1)) got.bin |
			cmp -s - <(head -c $((chunk - done_pages * 4096)) zero.bin) ||
			fail "write fault $n: pages after page $done_pages are not zero"
		cached=$((cached + done_pages))
		;;
	*)
		fail "write fault $n: ended with '$result', want EIO"
		;;
	esac
	assert_eq "$(stat_ cache_pages)" $cached "cache pages after write fault $n"
	assert_eq "$(stat_ dirty_bytes)" $((cached * 4096)) "dirty bytes after write fault $n"
	assert_eq "$(stat_ allocated_pages)" "$durable_before" "durable pages after write fault $n"
done
writes=$n
echo "$((writes - 1)) fault points in a cached write; $cached pages cached"

# what the regions hold now (the faults left some short), for the end
for i in $(seq 1 $writes); do
	dd if="$dev" bs=$chunk count=1 skip=$(($(region "$i") / chunk)) iflag=direct status=none
done >expected.bin
sync "$dev"
assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after a flush with no fault"
durable=$((durable_before + cached))
assert_eq "$(stat_ allocated_pages)" $durable "durable pages after a flush with no fault"

# 2. flushes: 16 cached pages, each destaged to a new durable page (and
# xarray slot), in a region of its own per fault
flush_region() { echo $((32 * 1024 * 1024 + $1 * 256 * 1024)); }
n=0
while :; do
	n=$((n + 1))
	[ $n -le 64 ] || fail "more than 64 fault points in a flush of 16 pages: the sweep does not end"
	off=$(flush_region $n)
	dd if=chunk.bin of="$dev" bs=$chunk seek=$((off / chunk)) oflag=direct status=none
	assert_eq "$(stat_ dirty_bytes)" $chunk "dirty bytes before flush fault $n"
	result=$(fail_nth $n fsync "$dev")
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
	durable=$((durable + 16))
	assert_eq "$(stat_ dirty_bytes)" 0 "dirty bytes after the flush that follows fault $n"
	assert_eq "$(stat_ allocated_pages)" $durable "durable pages after the flush that follows fault $n"
	[ "$result" != "not-reached ok" ] || break
done
flushes=$n
echo "$((flushes - 1)) fault points in a flush of 16 pages"

# a power cut now loses nothing: everything was flushed
echo 1 >$cfg/w/power_cut
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
echo ok
