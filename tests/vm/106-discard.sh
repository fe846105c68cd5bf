#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: discard and write-zeroes (also unaligned, sub-page) read as zeros and free exactly the whole pages
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkdiscard cmp

load_module size=16M
dev=/dev/ramdisk0
pages() { sysfs_stat ramdisk0 allocated_pages; }

head -c 1M /dev/urandom >"$RD_TMP/want"
dd if="$RD_TMP/want" of=$dev bs=1M oflag=direct status=none
assert_eq "$(pages)" 256 "pages after writing 1 MiB"

# OPTION OFFSET LENGTH WHOLE_PAGES_FREED: discard (or -z) a range, zero it in
# the expected image, and check the page count and the whole first MiB.
expect_pages=256
zero_range() {
	local opt=$1 off=$2 len=$3 freed=$4
	echo "blkdiscard $opt -o $off -l $len"
	# shellcheck disable=SC2086 # no option is no word
	blkdiscard $opt -o "$off" -l "$len" $dev
	dd if=/dev/zero of="$RD_TMP/want" bs=512 seek=$((off / 512)) count=$((len / 512)) \
		conv=notrunc status=none
	expect_pages=$((expect_pages - freed))
	assert_eq "$(pages)" $expect_pages "pages after blkdiscard $opt -o $off -l $len"
	assert_eq "$(sysfs_stat ramdisk0 allocated_bytes)" $((expect_pages * 4096)) \
		"allocated_bytes after blkdiscard $opt -o $off -l $len"
	dd if=$dev of="$RD_TMP/got" bs=1M count=1 iflag=direct status=none
	cmp "$RD_TMP/want" "$RD_TMP/got" || fail "wrong data after blkdiscard $opt -o $off -l $len"
}

# aligned: 16 whole pages
zero_range "" 0 65536 16
# one sector inside a page: nothing freed, only that sector zeroed
zero_range "" $((65536 + 512)) 1024 0
# partial head page, three whole pages, partial tail page
zero_range "" $((131072 + 1024)) 16384 3
# write-zeroes, aligned and unaligned
zero_range -z 262144 65536 16
zero_range -z $((524288 + 512)) 8192 1
# a sub-page write-zeroes across a page boundary frees nothing
zero_range -z $((655360 - 1024)) 2048 0

assert_eq "$(sysfs_stat ramdisk0 discards | cut -d' ' -f2)" $((65536 + 1024 + 16384)) "discarded bytes"
assert_eq "$(sysfs_stat ramdisk0 write_zeroes | cut -d' ' -f2)" $((65536 + 8192 + 2048)) \
	"write-zeroes bytes"

# Never-written space: nothing changes.
blkdiscard -o $((8 << 20)) -l $((4 << 20)) $dev
assert_eq "$(pages)" $expect_pages "pages after discarding unwritten space"

# Rewriting a discarded page allocates it again.
dd if="$RD_TMP/want" of=$dev bs=4096 count=1 oflag=direct status=none
assert_eq "$(pages)" $((expect_pages + 1)) "pages after rewriting a discarded page"

# The whole device: nothing left.
blkdiscard $dev
assert_eq "$(pages)" 0 "pages after discarding the whole device"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "module page count"
assert_eq "$(tr -d '\0' <$dev | wc -c)" 0 "non-zero bytes after discarding everything"

# 4096-byte blocks: the same, in block units.
unload_module
load_module size=8M block_size=4096
dd if=/dev/urandom of=$dev bs=64K count=2 oflag=direct status=none
blkdiscard -o 4096 -l 8192 $dev
assert_eq "$(pages)" $((32 - 2)) "pages on the 4k-block device after discarding two blocks"
blkdiscard -z -o 65536 -l 4096 $dev
assert_eq "$(pages)" $((32 - 3)) "pages on the 4k-block device after write-zeroes"
echo ok
