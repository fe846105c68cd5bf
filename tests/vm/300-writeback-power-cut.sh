#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: writeback cache: a power cut keeps flushed and FUA writes, loses the rest sector-exact, partial drops, bounded cache; writethrough loses nothing
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd sync udevadm

cfg=$RD_CONFIGFS
load_module nr_devices=0

# pattern CHAR BYTES: a file of BYTES copies of CHAR
pattern() {
	head -c "$2" /dev/zero | tr '\0' "$1" >"$RD_TMP/$1.$2"
	echo "$RD_TMP/$1.$2"
}

# put FILE BYTE_OFFSET [dsync]: one direct write
put() {
	dd if="$1" of="$dev" bs=512 seek=$(($2 / 512)) oflag=direct${3:+,$3} conv=notrunc \
		status=none || fail "write at $2"
}

# holds FILE BYTE_OFFSET: whether the device holds FILE at BYTE_OFFSET
holds() {
	local bytes
	bytes=$(stat -c %s "$1")
	dd if="$dev" of="$RD_TMP/got" bs=512 skip=$(($2 / 512)) count=$((bytes / 512)) \
		iflag=direct status=none || fail "read at $2"
	cmp -s "$1" "$RD_TMP/got"
}

# expect FILE BYTE_OFFSET WHAT
expect() {
	holds "$1" "$2" || fail "$3"
}

# power_up NAME MODE [CACHE_SIZE]: sets $dev and $sysdev
power_up() {
	rd_configure "$1" size=16M cache_mode="$2" ${3:+"cache_size=$3"} power=1
	dev=$RD_DEV
	sysdev=${dev#/dev/}
}

A8k=$(pattern A 8192)
A4k=$(pattern A 4096)
B512=$(pattern B 512)
F4k=$(pattern F 4096)
Z512=$(pattern '\000' 512)
head -c 4096 /dev/zero >"$F4k.zero"

power_up wb writeback
assert_eq "$(cat /sys/block/"$sysdev"/queue/write_cache)" "write back" "queue write_cache"
assert_eq "$(cat /sys/block/"$sysdev"/queue/fua)" 1 "queue fua"
assert_eq "$(sysfs_stat "$sysdev" cache_mode)" writeback "sysfs cache_mode"
expect_fail sh -c "echo writethrough >$cfg/wb/cache_mode"
expect_fail sh -c "echo 101 >$cfg/wb/power_cut_drop_percent"

# A, flush, B: the cut keeps A and loses B, sector-exact.
put "$A8k" 0
assert_eq "$(sysfs_stat "$sysdev" dirty_bytes)" 8192 "dirty bytes after 8 KiB"
sync "$dev"
assert_eq "$(sysfs_stat "$sysdev" dirty_bytes)" 0 "dirty bytes after a flush"
assert_eq "$(sysfs_stat "$sysdev" cache_pages)" 0 "cache pages after a flush"
put "$B512" 1024
put "$B512" 8192
assert_eq "$(sysfs_stat "$sysdev" dirty_bytes)" 1024 "dirty bytes after two sectors"
expect "$B512" 1024 "the cache does not serve the newest sector"
expect "$A4k" 4096 "flushed data next to a cached sector"
echo 1 >"$cfg/wb/power_cut"
assert_eq "$(sysfs_stat "$sysdev" power_cuts)" 1 "power_cuts"
assert_eq "$(sysfs_stat "$sysdev" dirty_bytes)" 0 "dirty bytes after the cut"
expect "$A8k" 0 "flushed data did not survive the power cut unchanged"
expect "$Z512" 8192 "an unflushed sector survived the power cut"

# A cut that loses completed writes while the device is open fails the
# next flush, once: its openers were promised them. The report is forgotten
# when the last opener closes, and a cut with no opener reports nothing.
put "$B512" 4096
udevadm settle
exec 3<"$dev"
echo 1 >"$cfg/wb/power_cut"
expect_fail sync "$dev"
sync "$dev" || fail "a second flush after one cut failed"
put "$B512" 4096
echo 1 >"$cfg/wb/power_cut"
exec 3<&-
udevadm settle
sync "$dev" || fail "a flush after the last opener closed reported a loss"
put "$B512" 4096
udevadm settle
echo 1 >"$cfg/wb/power_cut"
sync "$dev" || fail "a flush after a cut with no opener failed"
assert_eq "$(sysfs_stat "$sysdev" cut_errors)" 0 "cut_errors with no bio interrupted"

# A FUA write (O_DSYNC on a write-back queue) is durable when it completes.
put "$F4k" 65536 dsync
echo 1 >"$cfg/wb/power_cut"
expect "$F4k" 65536 "a FUA write was lost"

# The device takes I/O again after a cut, and buffered readers see it too.
put "$B512" 0
sync "$dev"
echo 1 >"$cfg/wb/power_cut"
cmp -s -n 512 "$B512" "$dev" || fail "buffered read after the cut"

# drop_percent 50: some of 64 cached pages survive, some do not; a lost
# page reads as zeros, so counting the A bytes counts the kept pages.
A256k=$(pattern A 262144)
put "$A256k" 1048576
echo 50 >"$cfg/wb/power_cut_drop_percent"
echo 7 >"$cfg/wb/power_cut_seed"
echo 1 >"$cfg/wb/power_cut"
dd if="$dev" bs=4096 skip=256 count=64 iflag=direct status=none | tr -d '\000' >"$RD_TMP/kept"
kept=$(($(stat -c %s "$RD_TMP/kept") / 4096))
echo "pages kept with drop_percent 50: $kept of 64"
if [ "$kept" -le 8 ] || [ "$kept" -ge 56 ]; then fail "drop_percent 50 kept $kept of 64 pages"; fi
rd_configure wb power=0 power_cut_drop_percent=100

# A 64 KiB cache: 1 MiB of writes destage early, the cache stays bounded.
rd_configure wb cache_size=64K power=1
dev=$RD_DEV
sysdev=${dev#/dev/}
head -c 1M /dev/urandom >"$RD_TMP/rand"
dd if="$RD_TMP/rand" of="$dev" bs=64k oflag=direct status=none
pages=$(sysfs_stat "$sysdev" cache_pages)
[ "$pages" -le 16 ] || fail "cache_pages $pages above a 64 KiB cache"
echo 1 >"$cfg/wb/power_cut"
head -c $((1048576 - 65536)) "$RD_TMP/rand" >"$RD_TMP/rand.head"
expect "$RD_TMP/rand.head" 0 "writes pushed out of a full cache were lost"

# Partitions: a cut drops every partition's cached pages, not only the
# whole disk's, so a partition held open reads the same buffered and direct.
rd_configure wb power=0 max_part=4 power=1
dev=$RD_DEV
sysdev=${dev#/dev/}
echo 'start=2048, size=8192' | sfdisk -q "$dev"
sync "$dev"
udevadm settle
part=${dev}p1
[ -b "$part" ] || fail "$part missing after sfdisk"
dd if="$A4k" of="$part" bs=4096 oflag=direct status=none
exec 3<"$part"
head -c 4096 "$part" | cmp -s - "$A4k" || fail "buffered read of the partition before the cut"
echo 1 >"$cfg/wb/power_cut"
dd if="$part" bs=4096 count=1 iflag=direct status=none | cmp -s - "$F4k.zero" ||
	fail "the partition's cached sectors survived the cut"
head -c 4096 "$part" | cmp -s - "$F4k.zero" ||
	fail "buffered read of the partition after the cut shows data the cut lost"
exec 3<&-
udevadm settle
rd_configure wb power=0 max_part=0

# Writethrough: nothing is volatile, a cut loses nothing.
power_up wt writethrough
assert_eq "$(cat /sys/block/"$sysdev"/queue/write_cache)" "write through" "writethrough queue"
put "$A8k" 0
assert_eq "$(sysfs_stat "$sysdev" dirty_bytes)" 0 "writethrough dirty bytes"
echo 1 >"$cfg/wt/power_cut"
expect "$A8k" 0 "writethrough lost data in a power cut"
echo "ok"
