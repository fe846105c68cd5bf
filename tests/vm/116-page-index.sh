#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the page index of every height counts its memory, frees empty leaves and nodes, and loses no write to a leaf freed beside it
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkdiscard cmp fallocate

dev=/dev/ramdisk0
index_bytes() { sysfs_stat ramdisk0 index_bytes; }
leaf=512
node=4096

# PAGE FILE: writes FILE (one page) at page number PAGE, reads it back.
put() {
	dd if="$2" of=$dev bs=4096 seek="$1" count=1 oflag=direct status=none
	dd if=$dev of="$RD_TMP/back$1" bs=4096 skip="$1" count=1 iflag=direct status=none
	cmp "$2" "$RD_TMP/back$1" || fail "page $1 does not read back what was written"
}
# PAGE: checks that page PAGE reads as zeros.
zeros() {
	dd if=$dev of="$RD_TMP/back$1" bs=4096 skip="$1" count=1 iflag=direct status=none
	cmp /dev/zero "$RD_TMP/back$1" -n 4096 || fail "page $1 is not zeros"
}
# PAGE: discards page PAGE; fallocate, as blkdiscard opens the device
# exclusively and two of them cannot run at once
discard() { fallocate --punch-hole -o $(($1 * 4096)) -l 4096 $dev; }

head -c 4096 /dev/urandom >"$RD_TMP/a"
head -c 4096 /dev/urandom >"$RD_TMP/b"

# 128 MiB: a root of 512 leaves, 4096 bytes, and nothing else until written.
load_module size=128M
root=4096
assert_eq "$(index_bytes)" $root "index of an unwritten 128 MiB device"
put 0 "$RD_TMP/a"
assert_eq "$(index_bytes)" $((root + leaf)) "index after the first page"
put 63 "$RD_TMP/b"
assert_eq "$(index_bytes)" $((root + leaf)) "index after the last page of the same leaf"
put 64 "$RD_TMP/a"
assert_eq "$(index_bytes)" $((root + 2 * leaf)) "index after the first page of the next leaf"
discard 0
assert_eq "$(index_bytes)" $((root + 2 * leaf)) "index while the first leaf still holds a page"
zeros 0
cmp "$RD_TMP/b" <(dd if=$dev bs=4096 skip=63 count=1 iflag=direct status=none) ||
	fail "page 63 changed when page 0 was discarded"
discard 63
assert_eq "$(index_bytes)" $((root + leaf)) "index after the first leaf emptied"
zeros 63
put 63 "$RD_TMP/a"
assert_eq "$(index_bytes)" $((root + 2 * leaf)) "index after a write into a freed leaf"
dd if=/dev/zero of=$dev bs=1M count=128 oflag=direct status=none
assert_eq "$(index_bytes)" $((root + 512 * leaf)) "index of a full 128 MiB device"
blkdiscard $dev
assert_eq "$(index_bytes)" $root "index after discarding the whole device"
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 0 "pages after discarding the whole device"
unload_module

# One page more than 128 MiB: the root covers 128 MiB a slot, with nodes
# of 512 leaves below it; the last page is alone in the second slot.
load_module size=$(((128 << 20) + 4096))
root=16
last=32768
assert_eq "$(index_bytes)" $root "index of an unwritten 128 MiB + 4 KiB device"
put $last "$RD_TMP/a"
assert_eq "$(index_bytes)" $((root + node + leaf)) "index after the last page"
put 0 "$RD_TMP/b"
assert_eq "$(index_bytes)" $((root + 2 * (node + leaf))) "index after the first page too"
zeros $((last - 1))
discard $last
assert_eq "$(index_bytes)" $((root + node + leaf)) "index after the last page is discarded"
zeros $last
cmp "$RD_TMP/b" <(dd if=$dev bs=4096 count=1 iflag=direct status=none) ||
	fail "page 0 changed when the last page was discarded"
unload_module

# 128 TiB, sparse: three levels of nodes below a root of four slots.
load_module size=128T
root=32
last=$(((128 << 30) / 4 - 1))
assert_eq "$(index_bytes)" $root "index of an unwritten 128 TiB device"
put $last "$RD_TMP/a"
put 12345678 "$RD_TMP/b"
assert_eq "$(index_bytes)" $((root + 6 * node + 2 * leaf)) "index after two distant pages"
zeros $((last - 1))
zeros 12345679
# a save finds both pages by stepping over the empty spans, and a restore
# into the emptied device puts them back
"$RD_BIN/ramdiskctl" save $dev "$RD_TMP/img"
blkdiscard $dev
assert_eq "$(index_bytes)" $root "index after discarding the whole 128 TiB device"
"$RD_BIN/ramdiskctl" restore "$RD_TMP/img" $dev
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 2 "pages after the restore"
assert_eq "$(index_bytes)" $((root + 6 * node + 2 * leaf)) "index after the restore"
cmp "$RD_TMP/a" <(dd if=$dev bs=4096 skip=$last count=1 iflag=direct status=none) ||
	fail "the last page was not restored"
cmp "$RD_TMP/b" <(dd if=$dev bs=4096 skip=12345678 count=1 iflag=direct status=none) ||
	fail "page 12345678 was not restored"
discard 12345678
assert_eq "$(index_bytes)" $((root + 3 * node + leaf)) "index after one of them is discarded"
discard $last
assert_eq "$(index_bytes)" $root "index after both are discarded"
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 0 "pages after both are discarded"
unload_module

# Two writers share one leaf. Each writes its page, reads it back, and
# discards it, so the leaf is freed and made again all the time; a write
# published into a leaf being freed would read back as zeros.
load_module size=1M
hammer() {
	local page=$1 i
	for ((i = 0; i < 60; i++)); do
		put "$page" "$RD_TMP/a"
		discard "$page"
		zeros "$page"
	done
}
hammer 1 &
pid=$!
hammer 2
wait $pid || fail "the other writer failed"
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 0 "pages after the writers finished"
assert_eq "$(index_bytes)" 32 "index after the writers finished"
echo ok
