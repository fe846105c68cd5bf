#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: no stale data is ever readable: after discard, after remove and re-create, after a write that hit mem_limit, in both cache modes
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkdiscard cmp

load_module nr_devices=0

# Pages freed by one device return to the page allocator and are handed to
# the next one; a marker that fills them makes any leak visible.
marker=STALE-SECRET-FROM-AN-EARLIER-DEVICE.
# TEXT MIB FILE: TEXT repeated over MIB mebibytes.
pattern() {
	local i
	awk -v t="$1" 'BEGIN { s = t; while (length(s) < 1048576) s = s s;
		printf "%s", substr(s, 1, 1048576) }' >"$RD_TMP/mib"
	for ((i = 0; i < $2; i++)); do cat "$RD_TMP/mib"; done >"$3"
}
pattern "$marker" 32 "$RD_TMP/secret"
pattern NEW-DATA 4 "$RD_TMP/new"

# Fills a 32 MiB device with the marker, flushes, removes it: its pages are
# free again, holding the marker.
plant_secret() {
	rd_configure plant size=32M "$@" power=1
	dd if="$RD_TMP/secret" of="$RD_DEV" bs=1M oflag=direct status=none
	blockdev --flushbufs "$RD_DEV"
	sync
	rd_unconfigure plant
}

# DEV BYTES: the first BYTES of DEV hold no marker byte sequence.
no_secret() {
	if grep -aqF "${marker:0:16}" <(head -c "$2" "$1"); then
		fail "$1 shows data of an earlier device ($3)"
	fi
}

for mode in writethrough writeback; do
	echo "--- $mode"
	# Remove and re-create: the same configuration reads zeros.
	rd_configure again size=32M cache_mode=$mode power=1
	dd if="$RD_TMP/secret" of="$RD_DEV" bs=1M oflag=direct status=none
	rd_configure again power=0 power=1
	dev=$RD_DEV
	cmp -n $((32 << 20)) "$dev" /dev/zero || fail "$mode: a re-created device is not all zeros"
	rd_unconfigure again

	# Sub-page writes into fresh pages: the rest of each page reads zeros
	# even when the allocator hands back pages of the removed device.
	plant_secret cache_mode=$mode
	rd_configure fresh size=32M cache_mode=$mode power=1
	dev=$RD_DEV
	for ((i = 0; i < 64; i++)); do
		dd if="$RD_TMP/new" of="$dev" bs=512 count=1 seek=$((i * 256 + i % 8)) \
			oflag=direct status=none
	done
	no_secret "$dev" $((32 << 20)) "$mode, sub-page writes into new pages"
	dd if="$dev" bs=512 count=1 skip=$((5 * 256 + 5)) status=none | cmp - <(head -c 512 "$RD_TMP/new") ||
		fail "$mode: a written sector did not read back"

	# Discard: discarded and partly discarded pages read zeros, and pages
	# allocated again after a discard are clean.
	dd if="$RD_TMP/secret" of="$dev" bs=1M count=4 oflag=direct status=none
	blkdiscard -o 0 -l 4M "$dev"
	cmp -n $((4 << 20)) "$dev" /dev/zero || fail "$mode: discarded range is not zeros"
	dd if="$RD_TMP/secret" of="$dev" bs=1M count=1 seek=8 oflag=direct status=none
	blkdiscard -o $((8 << 20 | 512)) -l 3072 "$dev"
	dd if="$dev" bs=512 skip=$(((8 << 20) / 512 + 1)) count=6 status=none | cmp - <(head -c 3072 /dev/zero) ||
		fail "$mode: a sub-page discard did not zero its sectors"
	dd if="$RD_TMP/new" of="$dev" bs=512 count=1 seek=1 oflag=direct status=none
	no_secret "$dev" $((4 << 20)) "$mode, a page written again after discard"
	rd_unconfigure fresh

	# A write that hits mem_limit: the pages it could not get read zeros,
	# the ones it got hold only the new data.
	plant_secret cache_mode=$mode
	rd_configure limited size=32M cache_mode=$mode mem_limit=1M cache_size=1M power=1
	dev=$RD_DEV
	status=0
	dd if="$RD_TMP/new" of="$dev" bs=4M count=1 oflag=direct,sync status=none 2>"$RD_TMP/err" ||
		status=$?
	[ "$status" != 0 ] || fail "$mode: 4 MiB fitted under a 1 MiB mem_limit"
	for ((i = 0; i < 16; i++)); do
		dd if="$RD_TMP/new" of="$dev" bs=512 count=1 seek=$((8192 + i * 17)) \
			oflag=direct,sync status=none 2>/dev/null || true
	done
	blockdev --flushbufs "$dev"
	[ "$(sysfs_stat "$dev" allocated_pages)" -le 256 ] || fail "$mode: pages above mem_limit"
	no_secret "$dev" $((32 << 20)) "$mode, writes that hit mem_limit"
	# every byte is a zero or the new pattern
	head -c $((8 << 20)) "$dev" | tr -d '\0NEWDAT-' | cmp - /dev/null ||
		fail "$mode: bytes other than zeros and the new data after hitting mem_limit"
	rd_unconfigure limited
done
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "module pages at the end"
echo "no stale data after re-create, sub-page writes, discard and mem_limit, in both modes"
