#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a discard that must not wait (io_uring's REQ_NOWAIT) is served at once up to 1 MiB and answered EAGAIN above it, on RAM pages and reserved memory; the retry then discards it all
#
# io_uring issues BLOCK_URING_CMD_DISCARD (Linux 6.12 and later) as one bio
# with REQ_NOWAIT and, when the driver answers EAGAIN, issues it again from
# a worker that may block; the program sees only the last answer. So the
# test watches the block_bio_complete tracepoint, which shows every answer:
# one bio with status 0 for a small discard, and for a large one EAGAIN (-11)
# and then 0. Before the bound, a large discard ran inline at once (and a
# reserved-memory device zeroed all of it there).
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkdiscard blockdev cmp dd udevadm

discard=$RD_TOP/build/test-bin/uring-discard
trace=/sys/kernel/tracing
event=$trace/events/block/block_bio_complete
[ -x "$discard" ] || fail "$discard is missing (make userspace)"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
[ -e $trace/trace ] || mount -t tracefs nodev $trace
[ -d $event ] || skip "no block_bio_complete tracepoint in this kernel"

# Enabling the event patches kernel text (bio_endio's tracepoint site), which
# a thread per vCPU must not see under I/O (Documentation/development.md,
# "Two vCPUs, one host thread"). So it is switched on once, before the
# module has a device, and off once, after the last is gone; between, the
# filter and tracing_on choose what is recorded, and neither patches code.
trace_events_without_cmdlines
echo 0 >$trace/tracing_on
echo "dev == 0" >$event/filter
echo 1 >$event/enable
load_module nr_devices=0
tidy() {
	local d
	for d in "$RD_CONFIGFS"/*/; do
		[ -d "$d" ] || continue
		echo 0 >"$d/power"
		rmdir "$d"
	done
	echo 0 >$event/enable
	echo 0 >$event/filter
	echo 1 >$trace/tracing_on
}
on_exit tidy

# watch DEV: the trace from now on holds DEV's completions only
watch() {
	local majmin
	majmin=$(cat "/sys/block/${1#/dev/}/dev")
	echo 0 >$trace/tracing_on
	echo "dev == $(((${majmin%:*} << 20) | ${majmin#*:}))" >$event/filter
	: >$trace/trace
	echo 1 >$trace/tracing_on
}

# answers: the completions traced since watch, one "SECTOR+SECTORS=ERROR"
# a line, in order
answers() {
	sed -n 's/.*block_bio_complete: [0-9]*,[0-9]* [A-Z]* \([0-9]*\) + \([0-9]*\) \[\(-\{0,1\}[0-9]*\)\].*/\1+\2=\3/p' \
		$trace/trace
}

# nowait_discard DEV OFFSET LENGTH WANT: discards through io_uring, with
# no page of the range in the page cache (io_uring would block before the
# driver saw the bio); the completions must be WANT (space-separated)
nowait_discard() {
	local dev=$1 off=$2 len=$3 want=$4 got out
	blockdev --flushbufs "$dev"
	watch "$dev"
	out=$("$discard" "$dev" "$off" "$len") || fail "io_uring discard of $len bytes at $off on $dev: $out"
	got=$(answers | tr '\n' ' ')
	assert_eq "${got% }" "$want" "completions of a $len-byte io_uring discard at $off on $dev"
}

# zeros DEV OFFSET LENGTH: the range reads as zeros, from the device
zeros() {
	cmp -s <(dd if="$1" bs=64K skip=$(($2 / 65536)) count=$(($3 / 65536)) iflag=direct status=none) \
		<(head -c "$3" /dev/zero) || fail "$1: [$2, +$3) does not read zeros"
}

rd_configure pages size=64M power=1
dev=$RD_DEV
out=$("$discard" "$dev" 0 4096) || {
	[ "$out" = unsupported ] &&
		skip "this kernel has no io_uring discard (BLOCK_URING_CMD_DISCARD, 6.12 and later): nothing can send the driver a discard that must not wait"
	fail "io_uring discard of one page: $out"
}
index_fresh=$(sysfs_stat "$dev" index_bytes)

# RAM pages, writethrough: 8 MiB of data
dd if=/dev/urandom of="$dev" bs=1M count=8 oflag=direct status=none
assert_eq "$(sysfs_stat "$dev" allocated_pages)" 2048 "pages after an 8 MiB write"
nowait_discard "$dev" 0 $((512 << 10)) "0+1024=0"
assert_eq "$(sysfs_stat "$dev" allocated_pages)" $((2048 - 128)) "pages after a 512 KiB discard served at once"
zeros "$dev" 0 $((512 << 10))
# exactly the bound is still served at once
nowait_discard "$dev" $((512 << 10)) $((1 << 20)) "1024+2048=0"
nowait_discard "$dev" $((1536 << 10)) $((6656 << 10)) "3072+13312=-11 3072+13312=0"
assert_eq "$(sysfs_stat "$dev" allocated_pages)" 0 "pages after discarding the rest"
zeros "$dev" 0 $((8 << 20))
# leaves emptied without waiting stay in the index until a discard that may
# wait takes them: after one over the whole device none is left
blkdiscard "$dev"
assert_eq "$(sysfs_stat "$dev" index_bytes)" "$index_fresh" "index bytes after a full discard"

# write-zeroes takes the same path; fio and mkfs send it blocking, so only
# the data is checked here
dd if=/dev/urandom of="$dev" bs=1M count=2 oflag=direct status=none
blkdiscard -z -o 0 -l $((2 << 20)) "$dev"
zeros "$dev" 0 $((2 << 20))

# writeback: every bio that must not wait goes back to its caller
rd_configure pages power=0 cache_mode=writeback power=1
dev=$RD_DEV
dd if=/dev/urandom of="$dev" bs=1M count=1 oflag=direct status=none
nowait_discard "$dev" 0 $((64 << 10)) "0+128=-11 0+128=0"
zeros "$dev" 0 $((64 << 10))

# reserved memory (64 MiB at 512 MiB, a header page, then the data)
rd_configure nv "phys_addr=$(printf '0x%x' $((512 << 20)))" phys_size=64M format=1 power=1
dev=$RD_DEV
head -c $((1 << 20)) /dev/urandom >"$RD_TMP/mark"
dd if=/dev/urandom of="$dev" bs=1M count=8 oflag=direct status=none
dd if="$RD_TMP/mark" of="$dev" bs=1M seek=40 oflag=direct status=none
nowait_discard "$dev" 0 $((256 << 10)) "0+512=0"
zeros "$dev" 0 $((256 << 10))
nowait_discard "$dev" $((1 << 20)) $((32 << 20)) "2048+65536=-11 2048+65536=0"
zeros "$dev" $((1 << 20)) $((32 << 20))
cmp -s "$RD_TMP/mark" <(dd if="$dev" bs=1M skip=40 count=1 iflag=direct status=none) ||
	fail "a discard of [1 MiB, 33 MiB) changed the data at 40 MiB"
echo "PASS: NOWAIT discards up to 1 MiB served at once, larger ones answered EAGAIN and retried"
