#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a zoned device in writeback mode: a power cut moves each zone's write pointer back to its durable state (flushed and FUA writes stay, a FUA write with what precedes it in its zone, sent with no flush after it from the test module, cached ones go, a sector-unit cut's first lost block sets the pointer and what it kept past that goes too), open zones come back closed, the freed pages go; the kernel learns the new pointers after a failed write and a zone report; btrfs -O zoned and f2fs take a workload, a cut, a remount with every fsync'd file intact, and pass their checkers
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone blockdev cmp dd mkfs.btrfs btrfs mkfs.f2fs fsck.f2fs sha1sum xfs_io
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER's block layer cannot host a zoned bio-based device (131 tests the refusal)"
cfg=$RD_CONFIGFS
amod=$RD_TOP/build/kernels/$RD_KVER/selftest/rd_selftest_zone_append.ko
[ -f "$amod" ] || fail "$amod is missing: scripts/build-module $RD_KVER builds it"

# --- 16 zones of 4 MiB (8192 sectors), the first conventional; 4 KiB
# blocks, which a sector-unit cut keeps or loses whole
zs=8192
rd_configure zc size=64M block_size=4096 zoned=1 zone_size=4M zone_nr_conv=1 cache_mode=writeback \
	power=1
dev=$RD_DEV
rd=${dev#/dev/}

# zone IDX: "COND WP" of zone IDX (zone_state)
zone() { zone_state "$dev" "$zs" "$1"; }
# Sizes and offsets are in KiB, whole blocks.
# bwrite ZONE KIB_INTO_ZONE KIB FILE [sync|fua]: rd_dd_write of FILE's
# first KIB KiB, KIB_INTO_ZONE into the zone
bwrite() {
	rd_dd_write "$dev" "$4" $(($1 * zs / 2 + $2)) "$3" "${5:-}"
}
# holds ZONE KIB FILE: the zone's first KIB KiB are FILE's
holds() {
	dd if="$dev" of="$RD_TMP/back" bs=4K count=$(($2 / 4)) skip=$(($1 * zs / 8)) \
		iflag=direct status=none
	cmp -s -n $(($2 * 1024)) "$RD_TMP/back" "$3"
}
# zeros_from ZONE KIB: the zone reads zeros from KIB KiB to its end
zeros_from() {
	dd if="$dev" bs=4K count=$(((zs / 2 - $2) / 4)) skip=$((($1 * zs / 2 + $2) / 4)) \
		iflag=direct status=none | cmp -s - <(head -c $(((zs / 2 - $2) * 1024)) /dev/zero)
}
head -c 4M /dev/urandom >"$RD_TMP/data"

# what a flush or FUA makes durable first (a flush makes every cached
# write durable): zone 1's first 256 KiB, zone 2's first 128 KiB as a FUA
# write, zone 4 whole, and 32 KiB of zone 6, which stays open
bwrite 1 0 256 "$RD_TMP/data" sync
bwrite 4 0 4096 "$RD_TMP/data" sync
bwrite 6 0 32 "$RD_TMP/data" sync
bwrite 2 0 128 "$RD_TMP/data" fua
# then, cached only: 256 KiB more in zone 1, 128 KiB more in zone 2, and
# zone 3's only write
bwrite 1 256 256 "$RD_TMP/data"
bwrite 2 128 128 "$RD_TMP/data"
bwrite 3 0 64 "$RD_TMP/data"
# zone 5: opened, nothing written
blkzone open -o $((5 * zs)) -c 1 "$dev"
# zone 8: 64 KiB cached, then a 4 KiB FUA write after them, with no flush
# after it (a zone append from the test module: an O_DSYNC write to the
# device would flush the whole cache too). A zone keeps no sector past one
# it lost, so the FUA write is durable only with the cached write below
# it, which the device makes durable first.
bwrite 8 0 64 "$RD_TMP/data"
insmod "$amod" path="$dev" sector=$((8 * zs)) count=1 fua=1 || fail "insmod of the append module"
assert_eq "$(cat /sys/module/rd_selftest_zone_append/parameters/result) $(cat /sys/module/rd_selftest_zone_append/parameters/first_sector)" \
	"0 $((8 * zs + 128))" "result and place of the FUA append to zone 8"
rmmod rd_selftest_zone_append
head -c 64K "$RD_TMP/data" >"$RD_TMP/zone8"
head -c 4K /dev/zero | tr '\0' '\001' >>"$RD_TMP/zone8"
assert_eq "$(zone 1) / $(zone 3) / $(zone 5) / $(zone 6)" \
	"2(oi) 1024 / 2(oi) 128 / 3(oe) 0 / 2(oi) 64" "zones before the cut"
pages=$(sysfs_stat "$rd" allocated_pages)

echo 1 >"$cfg/zc/power_cut"
assert_eq "$(zone 1)" "4(cl) 512" "zone 1 after the cut: back to its flushed 256 KiB"
assert_eq "$(zone 2)" "4(cl) 256" "zone 2 after the cut: back to its FUA write"
assert_eq "$(zone 3)" "1(em) 0" "zone 3 after the cut: empty"
assert_eq "$(zone 4)" "14(fu) 8192" "zone 4 after the cut: full"
assert_eq "$(zone 5)" "1(em) 0" "zone 5, opened with nothing written, after the cut"
assert_eq "$(zone 6)" "4(cl) 64" "zone 6, durable and open, after the cut"
assert_eq "$(zone 8)" "4(cl) 136" "zone 8 after the cut: its FUA write and the write below it"
assert_eq "$(sysfs_stat "$rd" zone_conditions)" "10 0 0 4 1" "zone_conditions after the cut"
assert_eq "$(sysfs_stat "$rd" zone_wp_rollbacks)" 3 "zone_wp_rollbacks"
assert_eq "$(sysfs_stat "$rd" dirty_bytes)" 0 "dirty bytes after the cut"
holds 1 256 "$RD_TMP/data" || fail "zone 1's flushed 256 KiB differ after the cut"
holds 2 128 "$RD_TMP/data" || fail "zone 2's FUA write differs after the cut"
holds 4 4096 "$RD_TMP/data" || fail "full zone 4 differs after the cut"
holds 8 68 "$RD_TMP/zone8" || fail "zone 8's writes differ after the cut"
zeros_from 1 256 || fail "zone 1 past its write pointer is not zeros"
zeros_from 3 0 || fail "zone 3 is not zeros"
# durable: 256 + 128 + 4096 + 32 + 68 KiB, in pages
assert_eq "$(sysfs_stat "$rd" allocated_pages)" $(((256 + 128 + 4096 + 32 + 68) / 4)) \
	"allocated pages after the cut (before it: $pages)"

# The kernel keeps its own copy of each write pointer (zone write plugs)
# and learns the device's only once a write fails: the next write where
# it believes zone 1's pointer is fails at the device, a report tells the
# kernel, and writes go on at the device's pointer.
errors=$(sysfs_stat "$rd" zone_wp_errors)
bwrite 1 512 4 "$RD_TMP/data" 2>/dev/null && fail "a write at zone 1's old write pointer was accepted"
assert_eq "$(sysfs_stat "$rd" zone_wp_errors)" $((errors + 1)) "zone_wp_errors after it"
blkzone report -o $zs -c 1 "$dev" >/dev/null
bwrite 1 256 64 "$RD_TMP/data" || fail "a write at zone 1's write pointer after a report failed"
assert_eq "$(zone 1)" "2(oi) 640" "zone 1 written again"

# --- a sector-unit cut that keeps half the blocks: the first block lost
# sets the write pointer, and the blocks kept past it go with the rest
echo 50 >"$cfg/zc/power_cut_drop_percent"
echo sector >"$cfg/zc/power_cut_unit"
echo 7 >"$cfg/zc/power_cut_seed"
blkzone reset -o $((7 * zs)) -c 1 "$dev"
bwrite 7 0 512 "$RD_TMP/data"
echo 1 >"$cfg/zc/power_cut"
read -r cond wp <<<"$(zone 7)"
echo "zone 7 after a 50% sector cut: $cond, write pointer $wp sectors"
((wp < 1024)) || fail "a 50% cut of 128 cached blocks kept them all"
holds 7 $((wp / 2)) "$RD_TMP/data" || fail "zone 7 below its write pointer differs"
zeros_from 7 $((wp / 2)) || fail "zone 7 past its write pointer is not zeros"
rd_unconfigure zc

# --- file systems: a workload with fsync'd files among cached ones, a
# power cut while mounted, the file system's failing writes, a remount
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
on_exit "umount $mnt 2>/dev/null || :"
# fs_cut FS ITEM: the workload, the cut and the remount on $dev
fs_cut() {
	local i dirty
	mount -t "$1" "$dev" "$mnt"
	: >"$RD_TMP/synced"
	for ((i = 0; i < 12; i++)); do
		head -c $((4096 * (1 + RANDOM % 64))) /dev/urandom >"$mnt/loose.$i"
		if ((i % 3 == 0)); then
			head -c $((4096 * (1 + RANDOM % 32))) /dev/urandom >"$mnt/synced.$i"
			xfs_io -c fsync "$mnt/synced.$i"
			sha1sum "$mnt/synced.$i" | sed "s| $mnt/| |" >>"$RD_TMP/synced"
		fi
	done
	# cached, not flushed: the cut loses these
	for ((i = 0; i < 12; i++)); do
		xfs_io -c "sync_range -w 0 0" "$mnt/loose.$i"
	done
	dirty=$(sysfs_stat "$rd" dirty_bytes)
	((dirty > 0)) || fail "$1: nothing cached before the cut"
	echo 1 >"$cfg/$2/power_cut"
	echo "$1: cut with $dirty dirty bytes: $(sysfs_stat "$rd" zone_wp_rollbacks) zones rolled back"
	(($(sysfs_stat "$rd" zone_wp_rollbacks) > 0)) || fail "$1: the cut rolled no zone back"
	# the file system writes on, fails, and stops
	head -c 1M /dev/urandom >"$mnt/after" 2>/dev/null || :
	sync -f "$mnt" 2>/dev/null || :
	umount "$mnt"
	mount -t "$1" "$dev" "$mnt"
	(cd "$mnt" && sha1sum -c --quiet "$RD_TMP/synced") ||
		fail "$1: an fsync'd file was lost or damaged by the cut"
	head -c 4M /dev/urandom >"$mnt/new"
	sync -f "$mnt" || fail "$1: writing after the remount failed"
	umount "$mnt"
}

# btrfs: 1 GiB of 16 MiB zones
rd_configure zbtrfs size=1G zoned=1 zone_size=16M cache_mode=writeback power=1
dev=$RD_DEV
rd=${dev#/dev/}
mkfs.btrfs -q -f -O zoned "$dev" >/dev/null 2>&1 || fail "mkfs.btrfs -O zoned failed"
fs_cut btrfs zbtrfs
btrfs check "$dev" >"$RD_TMP/check" 2>&1 || { cat "$RD_TMP/check"; fail "btrfs check after the cut"; }
rd_unconfigure zbtrfs

# f2fs: its metadata (34 MiB here) in 3 conventional zones and its data in
# sequential ones; with more conventional zones it puts data there first
modprobe f2fs
rd_configure zf2fs size=1G zoned=1 zone_size=16M zone_nr_conv=3 cache_mode=writeback power=1
dev=$RD_DEV
rd=${dev#/dev/}
mkfs.f2fs -f -m "$dev" >/dev/null 2>&1 || fail "mkfs.f2fs -m failed"
fs_cut f2fs zf2fs
fsck.f2fs -f "$dev" >"$RD_TMP/check" 2>&1 || { cat "$RD_TMP/check"; fail "fsck.f2fs after the cut"; }
rd_unconfigure zf2fs
echo ok
