#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: zoned file systems: btrfs -O zoned (its data written with zone appends) and f2fs on the conventional and sequential zones of a zoned device take a file workload, pass their checkers, mount again with every file intact; deleting and balancing resets zones and gives their memory back
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone md5sum mkfs.btrfs btrfs mkfs.f2fs fsck.f2fs
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER takes no zoned devices (test 131 checks the refusal)"
modprobe btrfs
modprobe f2fs

mnt=$RD_TMP/mnt
mkdir -p "$mnt"
on_exit "umount $mnt 2>/dev/null || true"

# The workload: files of many sizes, small to a few MiB, in two
# directories, and their sums to check after each mount.
make_files() {
	local i
	mkdir -p "$mnt/a" "$mnt/b"
	for ((i = 1; i <= 120; i++)); do
		head -c $((i * i * 97 + i)) /dev/urandom >"$mnt/a/f$i"
	done
	head -c 24M /dev/urandom >"$mnt/b/big"
	cp -r "$mnt/a" "$mnt/b/copy"
	(cd "$mnt" && find . -type f -print0 | sort -z | xargs -0 md5sum) >"$RD_TMP/sums"
	sync
}
check_files() {
	(cd "$mnt" && md5sum --quiet -c "$RD_TMP/sums") || fail "$1: files differ from what was written"
}

# nonempty_zones DEV: sequential zones that hold data
nonempty_zones() {
	blkzone report "$1" | grep -c 'type: 2(SEQ_WRITE_REQUIRED)' | tr -d '\n'
	echo -n ' '
	blkzone report "$1" | grep 'type: 2(SEQ_WRITE_REQUIRED)' | grep -vc 'zcond: 1(em)' || true
}

# --- btrfs: 64 zones of 16 MiB, all sequential; btrfs keeps its two
# superblock copies in zones 0 and 1 and writes data with zone appends,
# which the block layer turns into writes at the write pointer
rd_configure zbtrfs size=1G zoned=1 zone_size=16M power=1
dev=$RD_DEV
rd=${dev#/dev/}
mkfs.btrfs -q -f -O zoned -d single -m single "$dev" >"$RD_TMP/mkfs.log" 2>&1 ||
	fail "mkfs.btrfs -O zoned: $(cat "$RD_TMP/mkfs.log")"
mount -t btrfs "$dev" "$mnt" || fail "mount btrfs on the zoned device"
grep -q "zoned mode enabled" <(dmesg) || fail "btrfs did not say it runs in zoned mode"
appends_before=$(sysfs_stat "$rd" zone_appends)
make_files
appends=$(($(sysfs_stat "$rd" zone_appends) - appends_before))
echo "btrfs wrote its files with $appends zone appends; zones (sequential, not empty): $(nonempty_zones "$dev")"
[ "$appends" -gt 100 ] || fail "btrfs made only $appends zone appends for 30 MiB of files"
assert_eq "$(sysfs_stat "$rd" zone_wp_errors) $(sysfs_stat "$rd" zone_resource_errors)" "0 0" \
	"btrfs's writes refused by the zone rules"
umount "$mnt"
btrfs check "$dev" >"$RD_TMP/check.log" 2>&1 || fail "btrfs check: $(tail -n 5 "$RD_TMP/check.log")"
mount -t btrfs "$dev" "$mnt" || fail "mount btrfs again"
check_files "btrfs after a remount"

# Deleting the files and balancing the data moves what is left and resets
# the zones it leaves: their pages go back.
pages_full=$(sysfs_stat "$rd" allocated_pages)
resets_before=$(sysfs_stat "$rd" zone_resets)
rm -rf "$mnt/a" "$mnt/b"
sync
btrfs balance start -f -dusage=100 -musage=100 "$mnt" >"$RD_TMP/balance.log" 2>&1 ||
	fail "btrfs balance: $(tail -n 3 "$RD_TMP/balance.log")"
# btrfs resets emptied zones from its cleaner: wait for the pages
for ((i = 0; i < 60; i++)); do
	[ "$(sysfs_stat "$rd" allocated_pages)" -lt $((pages_full / 2)) ] && break
	sleep 0.5
done
pages=$(sysfs_stat "$rd" allocated_pages)
resets=$(($(sysfs_stat "$rd" zone_resets) - resets_before))
echo "after deleting and balancing: $resets zone resets, pages $pages_full -> $pages"
[ "$resets" -gt 0 ] || fail "btrfs reset no zone after its files were deleted and balanced"
[ "$pages" -lt $((pages_full / 2)) ] ||
	fail "pages after deleting and balancing: $pages of $pages_full; reset zones keep their memory"
umount "$mnt"
btrfs check "$dev" >"$RD_TMP/check.log" 2>&1 || fail "btrfs check after the balance: $(tail -n 5 "$RD_TMP/check.log")"
rd_unconfigure zbtrfs

# --- f2fs: its metadata in place-updated areas on 8 conventional zones,
# its logs in the 56 sequential zones (one section per zone), at most 8
# zones open as a ZNS drive might allow
rd_configure zf2fs size=1G zoned=1 zone_size=16M zone_nr_conv=8 zone_max_open=8 \
	zone_max_active=8 power=1
dev=$RD_DEV
rd=${dev#/dev/}
mkfs.f2fs -f -m "$dev" >"$RD_TMP/mkfs.log" 2>&1 || fail "mkfs.f2fs -m: $(tail -n 5 "$RD_TMP/mkfs.log")"
grep -q "Host-managed" "$RD_TMP/mkfs.log" || fail "mkfs.f2fs did not see a host-managed device: $(cat "$RD_TMP/mkfs.log")"
mount -t f2fs "$dev" "$mnt" || fail "mount f2fs on the zoned device"
make_files
echo "f2fs zones (sequential, not empty): $(nonempty_zones "$dev")"
assert_eq "$(sysfs_stat "$rd" zone_wp_errors) $(sysfs_stat "$rd" zone_resource_errors)" "0 0" \
	"f2fs's writes refused by the zone rules"
umount "$mnt"
fsck.f2fs -f "$dev" >"$RD_TMP/fsck.log" 2>&1 || fail "fsck.f2fs: $(tail -n 5 "$RD_TMP/fsck.log")"
mount -t f2fs "$dev" "$mnt" || fail "mount f2fs again"
check_files "f2fs after a remount"
umount "$mnt"
rd_unconfigure zf2fs
echo ok
