#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault injection: on devices with one and two levels of interior index nodes, every allocation of a one-page write needing new nodes and a leaf fails in turn; the write fails with EIO (EAGAIN with RWF_NOWAIT), index_bytes, allocated_pages and every other page stay as they were, the write then passes and reads back, and a discard gives back exactly the index it took
. "${0%/*}/../lib/common.sh"
. "${0%/*}/lib/fault-inject.sh"
require_root
fault_require
require_cmd fallocate blockdev

# Devices up to 128 MiB have a root and leaves only, which 700 covers. A
# larger one has interior nodes (4 KiB) between, and a write into a span
# nobody wrote yet needs every missing level at once: the index allocates
# them all before linking any, so a failed allocation must leave nothing
# behind. An empty node left linked holds no page: the data and page
# counts would not see it, index_bytes does, so it is checked after every
# failed write.
load_module nr_devices=0
module_pages() { cat /sys/module/ramdisk/parameters/allocated_pages; }
fault_aim_at_module
module_range=$(fault_module_text)
# rd_index_insert, to the next code symbol
insert_start=$(awk '$2 ~ /^[tT]$/ && $3 == "rd_index_insert" && $4 == "[ramdisk]" {print $1}' /proc/kallsyms)
[ -n "$insert_start" ] || fail "no rd_index_insert in /proc/kallsyms"
insert_end=$(awk -v s="$insert_start" '$2 ~ /^[tT]$/ && $1 > s && (m == "" || $1 < m) {m = $1} END {print m}' /proc/kallsyms)
# kmemleak's own metadata, allocated inside each kmalloc, falls back to
# its pool when that fails: a fault there tests nothing of the module and
# would shift the count. kmemleak_alloc() tail-calls __create_object(), so
# it is not on the stack; __alloc_object() is, where the metadata comes
# from.
if [ -e "$fault_debugfs/kmemleak" ]; then
	awk '$3 == "__alloc_object" && NF == 3 {f = 1} END {exit !f}' /proc/kallsyms ||
		fail "kmemleak is on but its __alloc_object() is not in /proc/kallsyms: cannot leave its allocations out"
	fault_reject_function __alloc_object
fi
# ATTR START END: counts the points with code in START..END on the stack
fault_range() {
	fault_set "$1" require-start "0x$2"
	fault_set "$1" require-end "0x$3"
}
aim_all() {
	fault_range failslab "${module_range% *}" "${module_range#* }"
	fault_range fail_page_alloc "${module_range% *}" "${module_range#* }"
}
# no page allocation counts (0..0 holds no address)
aim_index() {
	fault_range failslab "$insert_start" "$insert_end"
	fault_range fail_page_alloc 0 0
}
leaf=512
node=4096

# Page of random data, written at a page number with plain I/O.
head -c 4096 /dev/urandom >page.bin
head -c 4096 /dev/zero >zero-page.bin

# The N-th fault point of one RWF_NOWAIT write fails; prints what
# tests/vm/lib/fail-nth prints. pwritev2(RWF_NOWAIT) on an O_DIRECT block
# device sends a REQ_NOWAIT bio, served in this thread.
cat >fail-nth-nowait <<'EOF'
import errno, mmap, os, sys
nth, path, offset, data = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
with open(data, "rb") as f:
    data = f.read()
buf = mmap.mmap(-1, len(data))
buf.write(data)
fd = os.open(path, os.O_WRONLY | os.O_DIRECT)
with open("/proc/thread-self/fail-nth", "w") as f:
    f.write(str(nth))
result = "ok"
try:
    if os.pwritev(fd, [buf], offset, os.RWF_NOWAIT) != len(data):
        result = "short"
except OSError as e:
    result = errno.errorcode.get(e.errno, str(e.errno))
with open("/proc/thread-self/fail-nth") as f:
    left = int(f.read().strip() or "0")
with open("/proc/thread-self/fail-nth", "w") as f:
    f.write("0")
os.close(fd)
print("%s %s" % ("injected" if left == 0 else "not-reached", result))
EOF
fail_nth_nowait() { python3 fail-nth-nowait "$@"; }

# put PAGE FILE / get PAGE FILE: one page at page number PAGE, O_DIRECT
put() { dd if="$2" of="$dev" bs=4096 seek="$1" count=1 oflag=direct status=none; }
get() { dd if="$dev" of="$2" bs=4096 skip="$1" count=1 iflag=direct status=none; }
discard() { fallocate --punch-hole -o $(($1 * 4096)) -l 4096 "$dev"; }
index_bytes() { sysfs_stat "$dev" index_bytes; }
pages() { sysfs_stat "$dev" allocated_pages; }

# Fails unless every guard page reads back what was written to it.
check_guards() {
	local g
	for g in "${guards[@]}"; do
		get "$g" got-guard.bin
		cmp -s got-guard.bin "guard-$g.bin" || fail "$1: guard page $g changed"
	done
}

# write_under_fault N MODE AIM PAGE NODES: one one-page write at PAGE,
# whose path lacks NODES interior nodes and its leaf, with the N-th fault
# point failing; sets result. MODE is "eio" (a plain O_DIRECT write, which
# must fail with EIO) or "nowait" (RWF_NOWAIT: EAGAIN). AIM is "all"
# (every allocation under the module: the data page first, then the
# index's with the slab pages under them, in an order that varies with the
# slab caches' state) or "index" (kmalloc under rd_index_insert only: the
# NODES nodes, then the leaf, one point each, so fault N fails exactly the
# N-th of them). A failed write must leave the index, the page counts and
# the page as they were (zeros); a write that passes must read back and
# have added exactly NODES nodes and a leaf, which a discard gives back.
# bytes0 and pages0 are the counts before the sweep.
write_under_fault() {
	local n=$1 mode=$2 aim=$3 page=$4 nodes=$5 want=EIO what
	local grown=$((nodes * node + leaf))
	[ "$mode" = eio ] || want=EAGAIN
	what="$mode write at page $page, fault $n of $aim"
	if [ "$mode" = eio ]; then
		result=$(fail_nth "$n" write "$dev" $((page * 4096)) page.bin)
	else
		result=$(fail_nth_nowait "$n" "$dev" $((page * 4096)) page.bin)
	fi
	echo "$what: $result, index_bytes $(index_bytes)"
	if [ "$aim" = index ]; then
		# one point per allocation, nothing absorbs a fault
		if [ "$n" -le $((nodes + 1)) ]; then
			[ "$result" = "injected $want" ] ||
				fail "$what: '$result', want 'injected $want' ($([ "$n" -le "$nodes" ] && echo "node $n of $nodes" || echo leaf) failed)"
		else
			[ "$result" = "not-reached ok" ] ||
				fail "$what: '$result', want 'not-reached ok' after $nodes nodes and a leaf"
		fi
	fi
	case $result in
	"not-reached ok" | "injected ok")
		# no fault, or one the kernel absorbed (slab falls back
		# to a smaller slab page when a high-order one fails)
		get "$page" got.bin
		cmp -s got.bin page.bin || fail "$what ($result): the write passed but reads back wrong"
		assert_eq "$(index_bytes)" $((bytes0 + grown)) "index_bytes after $what ($result)"
		assert_eq "$(pages)" $((pages0 + 1)) "allocated_pages after $what ($result)"
		discard "$page"
		assert_eq "$(index_bytes)" "$bytes0" "index_bytes after discarding page $page ($what)"
		assert_eq "$(pages)" "$pages0" "allocated_pages after discarding page $page ($what)"
		;;
	"injected $want")
		# an empty node or leaf left linked shows here only
		assert_eq "$(index_bytes)" "$bytes0" "index_bytes after $what failed"
		assert_eq "$(pages)" "$pages0" "allocated_pages after $what failed"
		get "$page" got.bin
		cmp -s got.bin zero-page.bin || fail "$what failed but the page is not zeros"
		;;
	*)
		fail "$what: the write ended with '$result', want $want"
		;;
	esac
}

# sweep MODE AIM PAGE NODES: write_under_fault with the 1st, 2nd, ...
# fault point failing, until one runs with no fault reached; then every
# guard page must read back as written. Sets $failed to the number of
# writes that failed.
sweep() {
	local mode=$1 aim=$2 page=$3 nodes=$4
	"aim_$aim"
	bytes0=$(index_bytes)
	pages0=$(pages)
	fault_sweep 64 "$mode write at page $page, $aim" write_under_fault "$@"
	failed=$fault_failures
	# no write of the sweep reached another page
	check_guards "after the $mode sweep of $aim at page $page"
	# "all": the data page is the first point, the first index
	# allocation's kmalloc the second
	[ "$aim" = index ] || [ $failed -ge 2 ] ||
		fail "$mode write at page $page: $failed of $fault_points fault points failed it, want the page's and the index's at least"
}

# Two levels cover every case of the insertion: a whole path missing
# under the root (one node and a leaf, two nodes and a leaf), a path
# missing below an existing node, a leaf missing below existing nodes.
# More levels only repeat them (116 checks the accounting at three).
for levels in 1 2; do
	# the root covers 1 << shift pages a slot; 4 GiB, 1 TiB, sparse:
	# nothing but the root until written
	shift=$((6 + 9 * levels))
	size=4G
	[ "$levels" = 1 ] || size=1T
	echo "== $size: $levels level(s) of nodes, a root slot covers $((1 << shift)) pages ($(date +%T))"
	# without spare pages the data page too is allocated by the writer
	rd_configure "f$levels" size=$size spare_pages=0 power=1
	dev=$RD_DEV
	alloc_failures0=$(sysfs_stat "$dev" alloc_failures)
	# whole path missing: root slot 1, which no guard page is in
	full=$((1 << shift))
	# the top node there, the rest missing: the 6th child of root slot 2's
	# node, whose 5th child holds a page
	partial=$(((2 << shift) + (5 << (shift - 9))))
	# only the leaf missing: every node of the path holds another leaf
	leaf_only=$((partial - 128))
	nr_pages=$(($(blockdev --getsize64 "$dev") / 4096))
	# data written before the faults: the first and last page of the
	# device and the page before each target
	guards=(0 $((full - 1)) $((partial - 1)) $((nr_pages - 1)))
	for g in "${guards[@]}"; do
		head -c 4096 /dev/urandom >"guard-$g.bin"
		put "$g" "guard-$g.bin"
	done
	check_guards "before the faults"
	echo "guards at pages ${guards[*]}: index_bytes $(index_bytes)"

	eio=0
	sweep eio index $full "$levels"
	eio=$((eio + failed))
	sweep eio index $partial $((levels - 1))
	eio=$((eio + failed))
	sweep eio index $leaf_only 0
	eio=$((eio + failed))
	sweep eio all $full "$levels"
	eio=$((eio + failed))
	sweep nowait index $full "$levels"
	assert_eq "$(sysfs_stat "$dev" alloc_failures)" $((alloc_failures0 + eio)) \
		"alloc_failures after $eio writes failed with EIO (EAGAIN counts none)"

	# with nothing armed, the same write passes, reads back, and a
	# discard gives back exactly the nodes and leaf it took
	bytes0=$(index_bytes)
	pages0=$(pages)
	put $full page.bin
	get $full got.bin
	cmp -s got.bin page.bin || fail "$size: the write after the faults reads back wrong"
	assert_eq "$(index_bytes)" $((bytes0 + levels * node + leaf)) "$size: index_bytes after the write"
	discard $full
	assert_eq "$(index_bytes)" "$bytes0" "$size: index_bytes after the discard"
	assert_eq "$(pages)" "$pages0" "$size: allocated_pages after the discard"
	check_guards "$size, after the faults"
	echo 0 >"$RD_CONFIGFS/f$levels/power"
	assert_eq "$(module_pages)" 0 "module pages after power off of the $size device"
done
echo ok
