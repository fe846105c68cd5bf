#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: every allocation of the write path fails in turn; a failed write ends with EIO, each sector of its range reads as before or as written, nothing outside it changes, the page count matches, nothing leaks
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require

load_module nr_devices=0
module_pages() { cat /sys/module/ramdisk/parameters/allocated_pages; }
# Without spare pages every new page is allocated on the write path, by
# the writing task, where fail-nth reaches it: the path a write takes
# whenever the spare list is empty. The worker's own allocations only
# leave the list short; 115 covers the list.
rd_configure f size=64M spare_pages=0 power=1
dev=$RD_DEV
name=${dev#/dev/}
pages() { sysfs_stat "$name" allocated_pages; }

# data written before the faults, checked at the end
head -c 1M /dev/urandom >before.bin
dd if=before.bin of="$dev" bs=1M oflag=direct status=none
pages_before=$(pages)
assert_eq "$pages_before" 256 "pages after the first 1 MiB"

fault_aim_at_module

# One write of 16 pages per fault, each to a region of its own, 256 KiB
# apart: every region is the start of a leaf of the page index of its own,
# so it needs a new leaf as well as its pages. The page just before it (the
# last of the previous region's leaf) holds data written with no fault
# armed; the page after it holds nothing. A block device promises nothing
# about the range of a failed write, so each sector of it must read as
# before (zeros) or as written, and nothing outside it may change. The
# sweep ends when the write passes with no fault reached: every
# allocation of the path has then failed once.
chunk=$((64 * 1024))
head -c $chunk /dev/urandom >chunk.bin
head -c $chunk /dev/zero >zero.bin
head -c 4096 /dev/urandom >guard.bin
head -c 4096 /dev/zero >zero-page.bin
region() { echo $((2 * 1024 * 1024 + $1 * 256 * 1024)); }
written=0
guards=0
# write_under_fault N: the write to region N with its N-th fault point
# failing, and the checks of what it left
write_under_fault() {
	local n=$1 off
	off=$(region "$n")
	dd if=guard.bin of="$dev" bs=4096 seek=$((off / 4096 - 1)) oflag=direct status=none
	guards=$((guards + 1))
	result=$(fail_nth "$n" write "$dev" "$off" chunk.bin)
	# the guard page, the 16 pages, the page after them
	dd if="$dev" of=around.bin bs=4096 count=18 skip=$((off / 4096 - 1)) iflag=direct status=none
	head -c 4096 around.bin | cmp -s - guard.bin ||
		fail "fault $n ($result): the page before the write changed"
	tail -c 4096 around.bin | cmp -s - zero-page.bin ||
		fail "fault $n ($result): the page after the write changed"
	dd if=around.bin of=got.bin bs=4096 skip=1 count=16 status=none
	new=$(old_or_new got.bin zero.bin chunk.bin) || fail "fault $n ($result): $new"
	echo "fault $n at offset $off: $result, pages written: $new"
	case $result in
	"not-reached ok" | "injected ok")
		# no fault, or one the kernel absorbed (kmemleak's metadata):
		# whole
		cmp got.bin chunk.bin || fail "fault $n ($result): the write passed but reads back wrong"
		;;
	"injected EIO") ;;
	*)
		fail "fault $n: write ended with '$result', want EIO"
		;;
	esac
	written=$((written + ${new%% *}))
	# a page exists exactly where data of the write reads back
	assert_eq "$(pages)" $((pages_before + guards + written)) "allocated pages after fault $n"
}
fault_sweep 64 "one 16-page write" write_under_fault
failed=$fault_failures
n=$((fault_points + 1))
assert_eq "$(sysfs_stat "$name" alloc_failures)" $failed "alloc_failures after $failed failed writes"

dd if="$dev" of=got.bin bs=1M count=1 iflag=direct status=none
cmp got.bin before.bin || fail "the data written before the faults changed"
# the regions the faults left short take a whole write now
for i in $(seq 1 $n); do
	dd if=chunk.bin of="$dev" bs=$chunk seek=$(($(region "$i") / chunk)) oflag=direct status=none
done
assert_eq "$(pages)" $((pages_before + guards + 16 * n)) "allocated pages once every region is written"
echo 0 >"$RD_CONFIGFS/f/power"
assert_eq "$(module_pages)" 0 "module pages after power off"
echo ok
