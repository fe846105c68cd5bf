# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the file-system tests: one file system's round trip on
# /dev/ramdisk0 (mkfs, write, remount with a cold page cache, verify, clean
# check), with exact page accounting before and a plausible count after.

# usage: fs_roundtrip FS DATA_FILE
fs_roundtrip() {
	local fs=$1 data=$2 dev=/dev/ramdisk0 mnt=$RD_TMP/mnt want i pages
	want=$(md5sum <"$data")
	mkdir -p "$mnt"
	echo "== $fs"
	blkdiscard $dev
	pages=$(sysfs_stat ramdisk0 allocated_pages)
	if [ "$pages" != 0 ]; then
		# Seen once on a loaded host (63 pages after the xfs round): show
		# what was written after the discard, so that the writer can be told.
		cmp $dev /dev/zero 2>&1 | head -n 1
		off=$(cmp $dev /dev/zero 2>/dev/null | sed -n 's/.* byte \([0-9]*\).*/\1/p')
		[ -z "$off" ] || dd if=$dev bs=4096 skip=$(((off - 1) / 4096)) count=1 status=none |
			od -A d -t x1z | head -n 8
	fi
	assert_eq "$pages" 0 "$fs: pages after discarding the device"
	case $fs in
	ext2 | ext4) mkfs."$fs" -q -F $dev ;;
	xfs) mkfs.xfs -q -f $dev ;;
	btrfs) mkfs.btrfs -q -f $dev >/dev/null ;;
	esac
	mount -t "$fs" $dev "$mnt"
	on_exit "umount $mnt"
	mkdir "$mnt/dir"
	for i in 1 2 3; do
		cp "$data" "$mnt/dir/file$i"
	done
	seq 1 20000 >"$mnt/numbers"
	sync
	umount "$mnt"
	# the page cache is gone: what comes back is what the device holds
	echo 3 >/proc/sys/vm/drop_caches
	mount -t "$fs" $dev "$mnt"
	for i in 1 2 3; do
		assert_eq "$(md5sum <"$mnt/dir/file$i")" "$want" "$fs: file$i after remount"
	done
	assert_eq "$(tail -n 1 "$mnt/numbers")" 20000 "$fs: last line of numbers"
	rm "$mnt/dir/file2"
	umount "$mnt"
	case $fs in
	ext2 | ext4) fsck."$fs" -f -n $dev >"$RD_TMP/fsck" 2>&1 || fail "$fs: fsck found errors: $(tail -n 5 "$RD_TMP/fsck")" ;;
	xfs) xfs_repair -n $dev >"$RD_TMP/fsck" 2>&1 || fail "xfs_repair -n found errors: $(tail -n 5 "$RD_TMP/fsck")" ;;
	btrfs) btrfs check $dev >"$RD_TMP/fsck" 2>&1 || fail "btrfs check found errors: $(tail -n 5 "$RD_TMP/fsck")" ;;
	esac
	pages=$(sysfs_stat ramdisk0 allocated_pages)
	[ "$pages" -gt $((18 << 8)) ] || fail "$fs: only $pages pages allocated after writing 18 MiB"
}
