#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ext4, xfs and ext2 on writeback devices: a seeded fsync-heavy and metadata-heavy workload, cut off from the device and power cut at a random point, each cut from a rollback to a checkpoint of the freshly made file system; ext4 and xfs check clean with every fsync'd file intact after every cut, ext2 (no journal) needs repairs, and a device whose flushes lie is caught
#
# RD_POWER_CUTS: cuts per file system (default 1; `make stress` asks for
# many). RD_CUT_SECONDS: after those, ext4 and xfs go on cutting until
# this many seconds have passed since the start (default 0: no more).
# RD_SEED: the seed of the first cut (default: random, printed, so a
# failing run can be replayed with the same workloads, cut points and
# lost pages). Prints "fs-cuts: ..." at the end, which tests/stress reads.
#
# A cut is cheap: each file system is made once, on a device of its own,
# and checkpointed clean; every cut starts from a rollback to that
# checkpoint (no mkfs, no reboot), and ext4 and xfs cut on their two
# devices at once, one worker each, so both vCPUs have work.
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
#
# The checker is checked too: a last ext4 cut on a device whose flushes
# are dropped (a fault rule: the flush "succeeds", nothing becomes
# durable) must be reported as lost fsync'd files or a failed check.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 mkfs.ext2 e2fsck mkfs.xfs xfs_repair xfs_io sha1sum udevadm dmsetup blockdev

cuts=${RD_POWER_CUTS:-1}
[[ $cuts =~ ^[1-9][0-9]*$ ]] || fail "RD_POWER_CUTS must be a positive count, not '$cuts'"
cut_seconds=${RD_CUT_SECONDS:-0}
[[ $cut_seconds =~ ^[0-9]+$ ]] || fail "RD_CUT_SECONDS must be a number of seconds, not '$cut_seconds'"
seed=${RD_SEED:-$((($(od -An -N4 -tu4 /dev/urandom) % 1000000) + 1))}
[[ $seed =~ ^[0-9]+$ ]] || fail "RD_SEED must be a number, not '$seed'"
echo "RD_SEED=$seed RD_POWER_CUTS=$cuts RD_CUT_SECONDS=$cut_seconds (set them to replay this run)"
deadline=$((SECONDS + cut_seconds))

cfg=$RD_CONFIGFS
# The checkpoints switch no static key under the other worker's I/O
# (QEMU's thread per vCPU, Documentation/development.md).
export RD_HOLD_KEYS=${RD_HOLD_KEYS:-1}
# The file systems' modules load now, before any I/O: a module's load
# patches kernel text, which a guest with a thread per vCPU does not
# survive under load (a soak of two mounts loading ext4 and xfs at once
# beside the stress workers hung in load_module and del_gendisk).
modprobe -a dm-mod ext4 xfs 2>/dev/null || :
load_module nr_devices=0
# The file systems run on device-mapper devices over the RAM disks, so that
# the cut can also cut the file system off (see power_cut_round).
for fs in ext4 xfs ext2; do
	rd_configure "cut-$fs" size=320M cache_mode=writeback power=1
	mkdir -p "$RD_TMP/$fs/mnt"
	on_exit "dmsetup remove --retry rd-cut-$fs-$$ >/dev/null 2>&1 || :"
	on_exit "umount $RD_TMP/$fs/mnt 2>/dev/null || :"
	case $fs in
	ext4) mkfs.ext4 -q -F "$RD_DEV" ;;
	ext2) mkfs.ext2 -q -F "$RD_DEV" ;;
	xfs) mkfs.xfs -q -f "$RD_DEV" ;;
	esac
	# the checkpoint flushes: it holds the new file system, durable
	echo +clean >"$cfg/cut-$fs/checkpoints"
done

# The functions below work on one file system, named by $fs, with its
# device $dev, mount point $mnt and scratch directory $tmp (the worker's).

# One step of the workload: fsync'd files (listed with their checksums and
# sizes in $tmp/synced) among un-synced files, directories, renames and
# removals, some pushed to the device's cache without a flush (sync_range -w).
step() {
	local i=$1 j
	case $((RANDOM % 6)) in
	0 | 1)
		synced_file "synced.$i" $((4096 * (1 + RANDOM % 16)))
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

# synced_file NAME BYTES: a file of random bytes, fsync'd, and listed
synced_file() {
	head -c "$2" /dev/urandom >"$tmp/f"
	cp "$tmp/f" "$mnt/$1"
	xfs_io -c fsync "$mnt/$1"
	echo "$(sha1sum <"$tmp/f" | cut -d' ' -f1) $1 $2" >>"$tmp/synced"
}

# check: 0 when the file system checks clean, else its checker's report
# is in $tmp/fsck
check() {
	case $fs in
	ext4)
		# the journal replays on mount; check after it
		mount "$dev" "$mnt" 2>"$tmp/fsck" || return 1
		umount "$mnt"
		e2fsck -f -n "$dev" >"$tmp/fsck" 2>&1
		;;
	ext2)
		# nothing to replay: mounting would only hide the damage
		e2fsck -f -n "$dev" >"$tmp/fsck" 2>&1
		;;
	xfs)
		mount "$dev" "$mnt" 2>"$tmp/fsck" || return 1
		umount "$mnt"
		xfs_repair -n "$dev" >"$tmp/fsck" 2>&1
		;;
	esac
}

# power_cut_round SEED DROP_PERCENT [RULE]: back to the clean file system,
# a workload (none but one fsync'd file with a fault RULE, which is
# cleared at the cut), a shutdown and a power cut; then $tmp/synced lists
# the fsync'd files
power_cut_round() {
	local steps i last flushes discards item=$cfg/cut-$fs dm=rd-cut-$fs-$$
	RANDOM=$1
	# retried while udev still has the disk open after the last unmount
	for ((i = 0; i < 50; i++)); do
		echo clean 2>/dev/null >"$item/rollback" && break
		udevadm settle
		sleep 0.1
	done
	[ "$i" -lt 50 ] || fail "$fs seed $1: no rollback to the clean file system"
	echo "$2" >"$item/power_cut_drop_percent"
	echo "$1" >"$item/power_cut_seed"
	dmsetup create "$dm" --table "0 $sectors linear $dev 0"
	# ext2 through the ext4 driver: it has the shutdown ioctl
	mount -t "${fs/ext2/ext4}" "/dev/mapper/$dm" "$mnt"
	: >"$tmp/synced"
	steps=$((12 + RANDOM % 24))
	if [ -n "${3:-}" ]; then
		echo "$3" >"$item/fault_schedule"
		steps=0
	fi
	for ((i = 1; i <= steps; i++)); do
		step "$i"
	done
	# one fsync'd file for sure, then un-synced metadata and data in flight
	last=$((steps + 1))
	synced_file "synced.$last" 8192
	mkdir "$mnt/tail"
	for ((i = 0; i < 24; i++)); do
		echo "$i" >"$mnt/tail/small.$i"
	done
	head -c 65536 /dev/urandom >"$mnt/tail/loose"
	xfs_io -c "sync_range -w 0 0" "$mnt/tail/loose"
	echo "$fs seed $1: cut after $steps steps, $(wc -l <"$tmp/synced") fsync'd files," \
		"$(sysfs_stat "$dev" dirty_bytes) dirty bytes, $2% of cached pages lost${3:+, rule $3}"
	# The cut: from here on the file system's I/O fails, as on a machine
	# without power, and the device loses what is not durable. Suspending
	# without lockfs neither syncs nor freezes the file system.
	dmsetup suspend --nolockfs --noflush "$dm"
	dmsetup load "$dm" --table "0 $sectors error"
	dmsetup resume "$dm"
	flushes=$(sysfs_stat "$dev" flushes)
	discards=$(sysfs_stat "$dev" discards)
	echo 1 >"$item/power_cut"
	[ -z "${3:-}" ] || echo clear >"$item/fault_schedule"
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

# lost_synced: how many fsync'd files are missing or damaged; adds the
# intact ones to $tmp/verified ("files N" and "bytes N" lines)
lost_synced() {
	local sum name size lost=0 files=0 bytes=0
	mount "$dev" "$mnt"
	while read -r sum name size; do
		if [ ! -f "$mnt/$name" ] || [ "$(sha1sum <"$mnt/$name" | cut -d' ' -f1)" != "$sum" ]; then
			lost=$((lost + 1))
		else
			files=$((files + 1))
			bytes=$((bytes + size))
		fi
	done <"$tmp/synced"
	umount "$mnt"
	printf 'files %s\nbytes %s\n' $files $bytes >>"$tmp/verified"
	echo "$lost"
}

# use_fs FS: the functions above work on FS from now on
use_fs() {
	fs=$1
	dev=$(rd_dev "cut-$fs")
	sectors=$(blockdev --getsz "$dev")
	mnt=$RD_TMP/$fs/mnt
	tmp=$RD_TMP/$fs
}

# journal_worker FS INDEX: cuts FS, a journalling file system, RD_POWER_CUTS
# times and then until the deadline; each must check clean with every
# fsync'd file intact. Counts in $tmp/cuts.
journal_worker() {
	local k s drop lost t
	use_fs "$1"
	for ((k = 0; k < cuts || SECONDS < deadline; k++)); do
		[ ! -e "$RD_TMP/stop" ] || return 0
		t=$SECONDS
		s=$((seed + 3 * k + $2))
		# the first cut loses every un-flushed write, later ones a random share
		drop=100
		[ "$k" = 0 ] || drop=$((1 + s % 99))
		power_cut_round "$s" "$drop"
		check || { cat "$tmp/fsck"; fail "$fs seed $s: check after a power cut"; }
		lost=$(lost_synced)
		[ "$lost" = 0 ] || fail "$fs seed $s: $lost fsync'd files lost or damaged"
		echo "cuts $((k + 1))" >"$tmp/cuts"
		echo "$fs seed $s: checks clean, every fsync'd file intact ($((SECONDS - t)) s)"
	done
}

# Both journalling workers at once; each fails on its own, naming its
# cut in its reason file.
pids=()
for fs in ext4 xfs; do
	(
		# a failed worker ends the other one too
		trap '[ $? = 0 ] || touch "$RD_TMP/stop"' EXIT
		RD_REASON_FILE=$RD_TMP/$fs/reason
		journal_worker "$fs" ${#pids[@]}
	) &
	pids+=($!)
done
failed=
for fs in ext4 xfs; do
	wait "${pids[0]}" || failed="$failed $fs: $(cat "$RD_TMP/$fs/reason" 2>/dev/null)"
	pids=("${pids[@]:1}")
done
[ -z "$failed" ] || fail "${failed# }"

use_fs ext2
damaged=0
for ((k = 0; k < cuts; k++)); do
	s=$((seed + 3 * k + 2))
	power_cut_round "$s" 100
	if check; then
		echo "ext2 seed $s: checks clean"
	else
		damaged=$((damaged + 1))
		echo "ext2 seed $s: e2fsck -n finds damage:"
		grep -E -m 5 'differences|count wrong|Unattached|Entry' "$tmp/fsck" || :
		e2fsck -f -y "$dev" >/dev/null 2>&1 || :
		echo "ext2 seed $s: after repair $(lost_synced) fsync'd files lost or damaged"
	fi
done
[ "$damaged" -gt 0 ] || fail "ext2 checked clean after all $cuts cuts: the journal-less case shows nothing"

# The checker must see a lie: every flush dropped, so nothing the
# workload fsync'd is durable, and the cut takes it all.
use_fs ext4
tmp=$RD_TMP/control
mkdir -p "$tmp"
power_cut_round "$seed" 100 "+flush every=1 drop"
if check; then
	lost=$(lost_synced)
	[ "$lost" -gt 0 ] ||
		fail "ext4 on a device whose flushes are dropped: every fsync'd file found intact after the cut"
	echo "ext4 with dropped flushes: $lost fsync'd files lost, reported as they must be"
else
	echo "ext4 with dropped flushes: the check fails, as it must"
fi

# total KEY FILE...: the sum of the KEY lines in the FILEs
total() { cat "${@:2}" 2>/dev/null | awk -v k="$1" '$1 == k { s = s + $2 } END { print s + 0 }'; }
# the ext2 files were checked after a repair: not counted as verified
t=$RD_TMP
echo "ext2 needed repairs after $damaged of $cuts cuts;" \
	"ext4 after none of $(total cuts "$t/ext4/cuts"), xfs after none of $(total cuts "$t/xfs/cuts")"
# the one line tests/stress/stress.sh reads
echo "fs-cuts: ext4 $(total cuts "$t/ext4/cuts") xfs $(total cuts "$t/xfs/cuts") ext2 $cuts" \
	"ext2-repaired $damaged files $(total files "$t"/{ext4,xfs}/verified)" \
	"bytes $(total bytes "$t"/{ext4,xfs}/verified)"
