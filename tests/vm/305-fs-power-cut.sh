#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ext4 and xfs on a writeback device: fsync-heavy writes, shutdown without log flush, power cut at a random point; the file system checks clean and every fsync'd file is intact
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 e2fsck mkfs.xfs xfs_repair xfs_io sha1sum udevadm

cfg=/sys/kernel/config/ramdisk
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
load_module nr_devices=0
mkdir $cfg/crash
on_exit "rmdir $cfg/crash"
echo 320M >$cfg/crash/size
echo writeback >$cfg/crash/cache_mode
echo 1 >$cfg/crash/power
on_exit "echo 0 >$cfg/crash/power"
udevadm settle
dev=/dev/ramdisk$(cat $cfg/crash/index)

# round FS SEED: fsync'd files are listed with their checksums in $RD_TMP/synced
round() {
	local fs=$1 n i
	RANDOM=$2
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	esac
	sync "$dev"
	mount "$dev" "$mnt"
	on_exit "umount $mnt 2>/dev/null || :"
	: >"$RD_TMP/synced"
	n=$((8 + RANDOM % 16))
	for i in $(seq 1 "$n"); do
		head -c $((4096 * (1 + RANDOM % 16))) /dev/urandom >"$RD_TMP/f"
		cp "$RD_TMP/f" "$mnt/synced.$i"
		xfs_io -c fsync "$mnt/synced.$i"
		echo "$(sha1sum <"$RD_TMP/f" | cut -d' ' -f1) synced.$i" >>"$RD_TMP/synced"
		# unsynced writes in between, lost or not
		head -c 65536 /dev/urandom >"$mnt/loose.$i"
	done
	echo "$fs: $n fsync'd files, $(sysfs_stat "${dev#/dev/}" dirty_bytes) dirty bytes at the cut"
	# Stop the file system where it is, without writing its log, then cut.
	xfs_io -x -c shutdown "$mnt"
	echo 1 >$cfg/crash/power_cut
	umount "$mnt"
	case $fs in
	ext4)
		# the journal replays on mount; check after it
		mount "$dev" "$mnt" && umount "$mnt"
		e2fsck -f -n "$dev" >"$RD_TMP/fsck" 2>&1 || { cat "$RD_TMP/fsck"; fail "e2fsck after a power cut"; }
		;;
	xfs)
		mount "$dev" "$mnt" && umount "$mnt"
		xfs_repair -n "$dev" >"$RD_TMP/fsck" 2>&1 || { cat "$RD_TMP/fsck"; fail "xfs_repair after a power cut"; }
		;;
	esac
	mount "$dev" "$mnt"
	while read -r sum name; do
		[ "$(sha1sum <"$mnt/$name" | cut -d' ' -f1)" = "$sum" ] || fail "$fs: fsync'd $name damaged"
	done <"$RD_TMP/synced"
	umount "$mnt"
}

round ext4 11
round xfs 12
echo ok
