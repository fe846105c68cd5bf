#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: writes read back, unwritten sectors read zeros, page accounting is exact, re-created devices read zeros
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp xxd

load_module nr_devices=2 size=16M
dev=/dev/ramdisk0

pages() { sysfs_stat "$1" allocated_pages; }
zeros_at() { # DEV OFFSET LEN: true when the range reads as zeros
	[ "$(dd if="$1" bs=512 skip=$(($2 / 512)) count=$(($3 / 512)) iflag=direct status=none |
		tr -d '\0' | wc -c)" = 0 ]
}

# One whole page: exactly one page allocated, data back.
head -c 4096 /dev/urandom >"$RD_TMP/page"
dd if="$RD_TMP/page" of=$dev bs=4096 seek=3 oflag=direct status=none
assert_eq "$(pages ramdisk0)" 1 "pages after one 4 KiB write"
dd if=$dev of="$RD_TMP/back" bs=4096 skip=3 count=1 iflag=direct status=none
cmp "$RD_TMP/page" "$RD_TMP/back" || fail "page 3 reads back different data"
assert_eq "$(sysfs_stat ramdisk0 writes)" "1 4096" "writes counter"
zeros_at $dev 0 12288 || fail "pages 0-2 are not zero"

# One sector in the middle of a fresh page: the rest of the page is zero.
head -c 512 /dev/urandom >"$RD_TMP/sector"
dd if="$RD_TMP/sector" of=$dev bs=512 seek=$((10 * 8 + 3)) oflag=direct status=none
assert_eq "$(pages ramdisk0)" 2 "pages after a 512-byte write"
zeros_at $dev $((10 * 4096)) 1536 || fail "sectors before the written one are not zero"
zeros_at $dev $((10 * 4096 + 2048)) 2048 || fail "sectors after the written one are not zero"
dd if=$dev of="$RD_TMP/back" bs=512 skip=$((10 * 8 + 3)) count=1 iflag=direct status=none
cmp "$RD_TMP/sector" "$RD_TMP/back" || fail "the sector reads back different data"

# A write across a page boundary (sectors 7..8 of pages 20/21).
head -c 1024 /dev/urandom >"$RD_TMP/straddle"
dd if="$RD_TMP/straddle" of=$dev bs=512 seek=$((20 * 8 + 7)) oflag=direct status=none
assert_eq "$(pages ramdisk0)" 4 "pages after a write across a page boundary"
dd if=$dev of="$RD_TMP/back" bs=512 skip=$((20 * 8 + 7)) count=2 iflag=direct status=none
cmp "$RD_TMP/straddle" "$RD_TMP/back" || fail "the straddling write reads back different data"

# Overwrite allocates nothing new.
dd if="$RD_TMP/page" of=$dev bs=4096 seek=3 oflag=direct status=none
assert_eq "$(pages ramdisk0)" 4 "pages after an overwrite"

# 8 MiB of random data in 1 MiB bios through the whole stack, read back.
head -c 8M /dev/urandom >"$RD_TMP/big"
dd if="$RD_TMP/big" of=$dev bs=1M seek=8 oflag=direct status=none
dd if=$dev of="$RD_TMP/back" bs=1M skip=8 count=8 iflag=direct status=none
cmp "$RD_TMP/big" "$RD_TMP/back" || fail "8 MiB at 8 MiB reads back different data"
assert_eq "$(pages ramdisk0)" $((4 + 2048)) "pages after 8 MiB"
assert_eq "$(sysfs_stat ramdisk0 allocated_bytes)" $(((4 + 2048) * 4096)) "allocated_bytes"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" $((4 + 2048)) "module page count"

# The other device is independent.
assert_eq "$(pages ramdisk1)" 0 "pages of ramdisk1"
zeros_at /dev/ramdisk1 $((8 << 20)) $((1 << 20)) || fail "ramdisk1 shows ramdisk0's data"

# Buffered I/O and the end of the device.
head -c 4096 /dev/urandom >"$RD_TMP/last"
dd if="$RD_TMP/last" of=$dev bs=4096 seek=$(((16 << 20) / 4096 - 1)) conv=fsync status=none
expect_fail dd if="$RD_TMP/last" of=$dev bs=4096 seek=$(((16 << 20) / 4096)) oflag=direct status=none
echo 3 >/proc/sys/vm/drop_caches
dd if=$dev of="$RD_TMP/back" bs=4096 skip=$(((16 << 20) / 4096 - 1)) count=1 status=none
cmp "$RD_TMP/last" "$RD_TMP/back" || fail "the last page reads back different data"

# Unload and reload: the same device number reads zeros everywhere.
unload_module
load_module nr_devices=1 size=16M
assert_eq "$(pages ramdisk0)" 0 "pages after reload"
assert_eq "$(tr -d '\0' <$dev | wc -c)" 0 "non-zero bytes after reload"

# 4096-byte blocks.
unload_module
load_module size=8M block_size=4096
dd if="$RD_TMP/page" of=$dev bs=4096 seek=5 oflag=direct status=none
expect_fail dd if="$RD_TMP/sector" of=$dev bs=512 seek=1 oflag=direct status=none
dd if=$dev of="$RD_TMP/back" bs=4096 skip=5 count=1 iflag=direct status=none
cmp "$RD_TMP/page" "$RD_TMP/back" || fail "4k-block device reads back different data"
assert_eq "$(pages ramdisk0)" 1 "pages on the 4k-block device"
echo ok
