#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: every allocation of the write path fails in turn; the write ends with EIO, the pages before the fault hold their data, none after it, no page leaks, earlier data intact
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require

load_module nr_devices=1 size=64M
udevadm settle
dev=/dev/ramdisk0
pages() { sysfs_stat ramdisk0 allocated_pages; }

# data written before the faults, checked at the end
head -c 1M /dev/urandom >before.bin
dd if=before.bin of=$dev bs=1M oflag=direct status=none
pages_before=$(pages)
assert_eq "$pages_before" 256 "pages after the first 1 MiB"

fault_aim_at_module

# One write of 16 pages per fault, each to a region of its own, 256 KiB
# apart: every region needs a new xarray node as well as its pages. The
# sweep ends when the write passes with no fault reached: every allocation
# of the path has then failed once.
chunk=$((64 * 1024))
head -c $chunk /dev/urandom >chunk.bin
head -c $chunk /dev/zero >zero.bin
written=0
failed=0
n=0
while :; do
	n=$((n + 1))
	[ $n -le 64 ] || fail "more than 64 fault points in one 16-page write: the sweep does not end"
	off=$((2 * 1024 * 1024 + n * 256 * 1024))
	result=$(fail_nth $n write $dev $off chunk.bin)
	echo "fault $n at offset $off: $result"
	dd if=$dev of=got.bin bs=$chunk count=1 skip=$((off / chunk)) iflag=direct status=none
	case $result in
	"not-reached ok")
		cmp got.bin chunk.bin || fail "write with no fault at $off reads back wrong"
		written=$((written + 16))
		break
		;;
	"injected ok")
		# a failed GFP_NOWAIT xarray node allocation, retried with
		# GFP_NOIO by the xarray: the write must be whole
		cmp got.bin chunk.bin || fail "fault $n was absorbed but the data reads back wrong"
		written=$((written + 16))
		;;
	"injected EIO")
		failed=$((failed + 1))
		# pages before the fault hold the data, the faulting page and
		# those after it read zeros: no stale or half-written page
		first_diff=$(cmp got.bin chunk.bin | sed -n 's/.* byte \([0-9]*\),.*/\1/p' || true)
		[ -n "$first_diff" ] || fail "fault $n: EIO but all 16 pages written"
		done_pages=$(((first_diff - 1) / 4096))
		tail -c +$((done_pages * 4096 + 1)) got.bin |
			cmp -s - <(head -c $((chunk - done_pages * 4096)) zero.bin) ||
			fail "fault $n: pages after page $done_pages are not zero"
		written=$((written + done_pages))
		echo "  $done_pages pages written before the fault"
		;;
	*)
		fail "fault $n: write ended with '$result', want EIO"
		;;
	esac
	assert_eq "$(pages)" $((pages_before + written)) "allocated pages after fault $n"
done
[ $failed -gt 0 ] || fail "no injected fault failed a write"
assert_eq "$(sysfs_stat ramdisk0 alloc_failures)" $failed "alloc_failures after $failed failed writes"
echo "$((n - 1)) fault points, $failed writes failed with EIO"

dd if=$dev of=got.bin bs=1M count=1 iflag=direct status=none
cmp got.bin before.bin || fail "the data written before the faults changed"
# the regions the faults left short take a whole write now
for i in $(seq 1 $n); do
	dd if=chunk.bin of=$dev bs=$chunk seek=$(((2 * 1024 * 1024 + i * 256 * 1024) / chunk)) \
		oflag=direct status=none
done
assert_eq "$(pages)" $((pages_before + 16 * n)) "allocated pages once every region is written"
unload_module
grep -q '^ramdisk ' /proc/modules && fail "the module did not unload"
echo ok
