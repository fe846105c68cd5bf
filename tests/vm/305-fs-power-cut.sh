#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ext4, xfs and ext2 on a writeback device: a seeded fsync-heavy and metadata-heavy workload, cut off from the device and power cut at a random point; ext4 and xfs check clean with every fsync'd file intact after every cut, ext2 (no journal) needs repairs
#
# RD_POWER_CUTS: cuts per file system (default 1; `make stress` asks for
# many). RD_SEED: the seed of the first cut (default: random, printed, so
# a failing run can be replayed with the same workloads, cut points and
# lost pages).
#
# Why ext2 differs: a journalling file system makes each change durable
# as one committed transaction, so whatever share of its un-flushed writes
# a cut loses, it finds itself as of its last commit. ext2 (driven here by
# the ext4 driver, which also runs ext2 layouts, with no journal) writes
# metadata in place, and fsync makes durable the file, its inode block
# and its directory's block, whatever else they hold, but not the bitmaps
# and counters: after the cut e2fsck finds directory entries pointing at
# inodes never written and blocks and inodes in use that the bitmaps call
# free. The test asserts that at least one ext2 cut leaves such damage;
# with this workload every cut has so far.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 mkfs.ext2 e2fsck mkfs.xfs xfs_repair xfs_io sha1sum udevadm dmsetup blockdev

cuts=${RD_POWER_CUTS:-1}
[[ $cuts =~ ^[1-9][0-9]*$ ]] || fail "RD_POWER_CUTS must be a positive count, not '$cuts'"
seed=${RD_SEED:-$((($(od -An -N4 -tu4 /dev/urandom) % 1000000) + 1))}
[[ $seed =~ ^[0-9]+$ ]] || fail "RD_SEED must be a number, not '$seed'"
echo "RD_SEED=$seed RD_POWER_CUTS=$cuts (set both to replay this run)"

cfg=$RD_CONFIGFS
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
load_module nr_devices=0
rd_configure crash size=320M cache_mode=writeback power=1
dev=$RD_DEV
sectors=$(blockdev --getsz "$dev")
# The file system runs on a device-mapper device over the RAM disk, so that
# the cut can also cut the file system off (see power_cut_round).
dm=rd-crash-$$
modprobe dm-mod 2>/dev/null || :
on_exit "dmsetup remove --retry $dm >/dev/null 2>&1 || :"
on_exit "umount $mnt 2>/dev/null || :"

# One step of the workload: fsync'd files (listed with their checksums in
# $RD_TMP/synced) among un-synced files, directories, renames and removals,
# some pushed to the device's cache without a flush (sync_range -w).
step() {
	local i=$1 j
	case $((RANDOM % 6)) in
	0 | 1)
		head -c $((4096 * (1 + RANDOM % 16))) /dev/urandom >"$RD_TMP/f"
		cp "$RD_TMP/f" "$mnt/synced.$i"
		xfs_io -c fsync "$mnt/synced.$i"
		echo "$(sha1sum <"$RD_TMP/f" | cut -d' ' -f1) synced.$i" >>"$RD_TMP/synced"
		;;
	2)
		mkdir "$mnt/dir.$i"
		for ((j = 0; j < 24; j++)); do
			echo "$i.$j" >"$mnt/dir.$i/small.$j"
		done
		;;
	3)
		head -c $((65536 + 4096 * (RANDOM % 16))) /dev/urandom >"$mnt/loose.$i"
		xfs_io -c "sync_range -w 0 0" "$mnt/loose.$i"
		;;
	4)
		j=$(find "$mnt" -maxdepth 1 -name 'loose.*' | head -n 1)
		[ -z "$j" ] || mv "$j" "$mnt/renamed.$i"
		;;
	5)
		j=$(find "$mnt" -maxdepth 1 -name 'dir.*' | head -n 1)
		[ -z "$j" ] || rm -r "$j"
		;;
	esac
}

# check FS: 0 when the file system checks clean, else its checker's report
# is in $RD_TMP/fsck
check() {
	case $1 in
	ext4)
		# the journal replays on mount; check after it
		mount "$dev" "$mnt" 2>"$RD_TMP/fsck" || return 1
		umount "$mnt"
		e2fsck -f -n "$dev" >"$RD_TMP/fsck" 2>&1
		;;
	ext2)
		# nothing to replay: mounting would only hide the damage
		e2fsck -f -n "$dev" >"$RD_TMP/fsck" 2>&1
		;;
	xfs)
		mount "$dev" "$mnt" 2>"$RD_TMP/fsck" || return 1
		umount "$mnt"
		xfs_repair -n "$dev" >"$RD_TMP/fsck" 2>&1
		;;
	esac
}

# power_cut_round FS SEED DROP_PERCENT: a workload, a shutdown and a power
# cut; then $RD_TMP/synced lists the fsync'd files
power_cut_round() {
	local fs=$1 steps i last flushes discards
	RANDOM=$2
	echo "$3" >"$cfg/crash/power_cut_drop_percent"
	echo "$2" >"$cfg/crash/power_cut_seed"
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	ext2) mkfs.ext2 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	esac
	sync "$dev"
	dmsetup create "$dm" --table "0 $sectors linear $dev 0"
	# ext2 through the ext4 driver: it has the shutdown ioctl
	mount -t "${fs/ext2/ext4}" "/dev/mapper/$dm" "$mnt"
	: >"$RD_TMP/synced"
	steps=$((12 + RANDOM % 24))
	for ((i = 1; i <= steps; i++)); do
		step "$i"
	done
	# one fsync'd file for sure, then un-synced metadata and data in flight
	last=$((steps + 1))
	head -c 8192 /dev/urandom >"$RD_TMP/f"
	cp "$RD_TMP/f" "$mnt/synced.$last"
	xfs_io -c fsync "$mnt/synced.$last"
	echo "$(sha1sum <"$RD_TMP/f" | cut -d' ' -f1) synced.$last" >>"$RD_TMP/synced"
	mkdir "$mnt/tail"
	for ((i = 0; i < 24; i++)); do
		echo "$i" >"$mnt/tail/small.$i"
	done
	head -c 65536 /dev/urandom >"$mnt/tail/loose"
	xfs_io -c "sync_range -w 0 0" "$mnt/tail/loose"
	echo "$fs seed $2: cut after $steps steps, $(wc -l <"$RD_TMP/synced") fsync'd files," \
		"$(sysfs_stat "$dev" dirty_bytes) dirty bytes, $3% of cached pages lost"
	# The cut: from here on the file system's I/O fails, as on a machine
	# without power, and the device loses what is not durable. Suspending
	# without lockfs neither syncs nor freezes the file system.
	dmsetup suspend --nolockfs --noflush "$dm"
	dmsetup load "$dm" --table "0 $sectors error"
	dmsetup resume "$dm"
	flushes=$(sysfs_stat "$dev" flushes)
	discards=$(sysfs_stat "$dev" discards)
	echo 1 >"$cfg/crash/power_cut"
	# stop it without its log, else it retries failed writes for a while;
	# one that met a failed write may have stopped already
	xfs_io -x -c shutdown "$mnt" 2>/dev/null || :
	umount "$mnt"
	dmsetup remove --retry "$dm"
	udevadm settle
	assert_eq "$(sysfs_stat "$dev" flushes)" "$flushes" "flushes after the cut"
	assert_eq "$(sysfs_stat "$dev" discards)" "$discards" "discards after the cut"
	assert_eq "$(sysfs_stat "$dev" dirty_bytes)" 0 "dirty bytes after the cut"
}

# lost_synced: how many fsync'd files are missing or damaged
lost_synced() {
	local sum name lost=0
	mount "$dev" "$mnt"
	while read -r sum name; do
		if [ ! -f "$mnt/$name" ] || [ "$(sha1sum <"$mnt/$name" | cut -d' ' -f1)" != "$sum" ]; then
			lost=$((lost + 1))
		fi
	done <"$RD_TMP/synced"
	umount "$mnt"
	echo "$lost"
}

n=0
for fs in ext4 xfs; do
	for ((k = 0; k < cuts; k++)); do
		# the first cut loses every un-flushed write, later ones a random share
		drop=100
		[ "$k" = 0 ] || drop=$((1 + (seed + n) % 99))
		power_cut_round "$fs" $((seed + n)) "$drop"
		check "$fs" || { cat "$RD_TMP/fsck"; fail "$fs seed $((seed + n)): check after a power cut"; }
		lost=$(lost_synced)
		[ "$lost" = 0 ] || fail "$fs seed $((seed + n)): $lost fsync'd files lost or damaged"
		n=$((n + 1))
	done
done

damaged=0
for ((k = 0; k < cuts; k++)); do
	power_cut_round ext2 $((seed + n)) 100
	if check ext2; then
		echo "ext2 seed $((seed + n)): checks clean"
	else
		damaged=$((damaged + 1))
		echo "ext2 seed $((seed + n)): e2fsck -n finds damage:"
		grep -E -m 5 'differences|count wrong|Unattached|Entry' "$RD_TMP/fsck" || :
		e2fsck -f -y "$dev" >/dev/null 2>&1 || :
		echo "ext2 seed $((seed + n)): after repair $(lost_synced) fsync'd files lost or damaged"
	fi
	n=$((n + 1))
done
[ "$damaged" -gt 0 ] || fail "ext2 checked clean after all $cuts cuts: the journal-less case shows nothing"
echo "ext2 needed repairs after $damaged of $cuts cuts; ext4 and xfs after none of $cuts each"
