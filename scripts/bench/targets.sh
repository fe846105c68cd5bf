# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The bench targets: how to make each one fresh and how to remove it.
# Sourced by scripts/bench/suite. Each kind has target_up_KIND SIZE_MIB,
# which sets TARGET_DEV (a block device or a file) and TARGET_BLOCK (1 for
# a block device), and target_down_KIND. Every up makes the target as new:
# no data written, so the first write measures allocation.
#
# Needs: BENCH_MODULE (ramdisk.ko) for the ramdisk, BENCH_DISK (a block
# device the bench may overwrite) for the disk, BENCH_SCRATCH (a folder).

# Set by target_up for the caller.
# shellcheck disable=SC2034
TARGET_DEV='' TARGET_BLOCK=''
RAMDISK_CONFIGFS=/sys/kernel/config/ramdisk
NULLB_CONFIGFS=/sys/kernel/config/nullb

# A short description of each kind for the report.
target_note() {
	case $1 in
	ramdisk) echo "this project's /dev/ramdiskN, made through configfs" ;;
	brd) echo "the kernel's RAM disk (/dev/ram0, modprobe brd rd_nr=1 rd_size=KiB)" ;;
	null_blk) echo "null_blk with memory_backed=0: no data is copied, the per-I/O floor" ;;
	zram) echo "zram (compressed RAM block device, default compressor)" ;;
	tmpfs) echo "a file in a tmpfs mount (page cache, no block layer)" ;;
	disk) echo "a real disk: ${BENCH_DISK:-?} (in the VM: a virtio disk backed by a host file)" ;;
	*) echo "$1" ;;
	esac
}

# Configfs needs its file system mounted; the VM does not mount it.
mount_configfs() {
	[ -d /sys/kernel/config ] || return 1
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
}

wait_for_block() {
	local dev=$1 i
	for ((i = 0; i < 100; i++)); do
		[ -b "$dev" ] && return 0
		sleep 0.05
	done
	echo "bench: $dev did not appear" >&2
	return 1
}

# --- ramdisk -----------------------------------------------------------

target_up_ramdisk() {
	local mib=$1 index
	if [ ! -d /sys/module/ramdisk ]; then
		[ -f "${BENCH_MODULE:-}" ] || { echo "bench: no ramdisk.ko (BENCH_MODULE)" >&2; return 1; }
		insmod "$BENCH_MODULE" || return 1
		BENCH_LOADED_RAMDISK=1
	fi
	mount_configfs || return 1
	[ -d "$RAMDISK_CONFIGFS" ] || { echo "bench: $RAMDISK_CONFIGFS is missing" >&2; return 1; }
	mkdir "$RAMDISK_CONFIGFS/bench" || return 1
	if ! { echo $((mib << 20)) >"$RAMDISK_CONFIGFS/bench/size" &&
		echo 1 >"$RAMDISK_CONFIGFS/bench/power" &&
		index=$(cat "$RAMDISK_CONFIGFS/bench/index"); }; then
		target_down_ramdisk
		return 1
	fi
	TARGET_DEV=/dev/ramdisk$index
	TARGET_BLOCK=1
	wait_for_block "$TARGET_DEV"
}

target_down_ramdisk() {
	if [ -d "$RAMDISK_CONFIGFS/bench" ]; then
		echo 0 >"$RAMDISK_CONFIGFS/bench/power" 2>/dev/null
		rmdir "$RAMDISK_CONFIGFS/bench"
	fi
}

# Called once at the end: remove the module only if the bench loaded it.
unload_ramdisk() {
	if [ "${BENCH_LOADED_RAMDISK:-0}" = 1 ]; then
		rmmod ramdisk && BENCH_LOADED_RAMDISK=0
	fi
}

# --- brd -----------------------------------------------------------------

target_up_brd() {
	local mib=$1
	if [ -d /sys/module/brd ]; then
		rmmod brd || { echo "bench: brd is in use" >&2; return 1; }
	fi
	modprobe brd rd_nr=1 rd_size=$((mib * 1024)) max_part=0 || return 1
	TARGET_DEV=/dev/ram0
	TARGET_BLOCK=1
	wait_for_block "$TARGET_DEV"
}

target_down_brd() {
	[ ! -d /sys/module/brd ] || rmmod brd
}

# --- null_blk ------------------------------------------------------------

target_up_null_blk() {
	local mib=$1 d=$NULLB_CONFIGFS/bench before b name=
	if [ ! -d /sys/module/null_blk ]; then
		modprobe null_blk nr_devices=0 || return 1
	fi
	mount_configfs || return 1
	mkdir "$d" || return 1
	# The disk's name is nullbN on some kernels and the configfs folder's
	# name on others: take whichever disk powering on adds.
	before=" $(echo /sys/block/*) "
	# irqmode=0 completes in the submitter's context, as a RAM disk does.
	if ! { echo "$mib" >"$d/size" && echo 0 >"$d/memory_backed" &&
		echo 512 >"$d/blocksize" && echo 0 >"$d/irqmode" &&
		echo 1 >"$d/power"; }; then
		target_down_null_blk
		return 1
	fi
	for b in /sys/block/*; do
		[[ $before == *" $b "* ]] || name=${b##*/}
	done
	[ -n "$name" ] || { echo "bench: null_blk powered on but no disk appeared" >&2; return 1; }
	TARGET_DEV=/dev/$name
	TARGET_BLOCK=1
	wait_for_block "$TARGET_DEV"
}

target_down_null_blk() {
	local d=$NULLB_CONFIGFS/bench
	if [ -d "$d" ]; then
		echo 0 >"$d/power" 2>/dev/null
		rmdir "$d"
	fi
}

# --- zram ------------------------------------------------------------------

target_up_zram() {
	local mib=$1
	if [ ! -d /sys/module/zram ]; then
		modprobe zram num_devices=1 || return 1
	fi
	[ -e /sys/block/zram0 ] || { echo "bench: no zram0" >&2; return 1; }
	# reset refuses while anybody has the device open, and udev probes it
	# after every change: wait for that rather than fail
	local tries=0
	until echo 1 2>/dev/null >/sys/block/zram0/reset; do
		((++tries < 50)) || { echo "bench: zram0 stays busy, reset refused" >&2; return 1; }
		udevadm settle 2>/dev/null
		sleep 0.2
	done
	echo $((mib << 20)) >/sys/block/zram0/disksize || return 1
	TARGET_DEV=/dev/zram0
	TARGET_BLOCK=1
	wait_for_block "$TARGET_DEV"
}

target_down_zram() {
	[ ! -e /sys/block/zram0/reset ] || echo 1 >/sys/block/zram0/reset
}

# --- tmpfs -----------------------------------------------------------------

target_up_tmpfs() {
	local mib=$1 dir=$BENCH_SCRATCH/tmpfs
	mkdir -p "$dir"
	mount -t tmpfs -o size=$((mib + 16))m bench-tmpfs "$dir" || return 1
	TARGET_DEV=$dir/target.img
	TARGET_BLOCK=0
	# fio extends the file as it writes; the size is fixed up front so the
	# read jobs never read past its end.
	truncate -s "${mib}M" "$TARGET_DEV"
}

target_down_tmpfs() {
	local dir=$BENCH_SCRATCH/tmpfs
	! mountpoint -q "$dir" || umount "$dir"
}

# --- disk ------------------------------------------------------------------

target_up_disk() {
	local mib=$1 bytes
	[ -b "${BENCH_DISK:-}" ] || { echo "bench: no disk (BENCH_DISK)" >&2; return 1; }
	bytes=$(blockdev --getsize64 "$BENCH_DISK")
	if ((bytes < mib << 20)); then
		echo "bench: $BENCH_DISK holds $((bytes >> 20)) MiB, the bench needs $mib" >&2
		return 1
	fi
	# A fresh disk: discard what the last run wrote, where supported.
	blkdiscard "$BENCH_DISK" 2>/dev/null || true
	TARGET_DEV=$BENCH_DISK
	TARGET_BLOCK=1
}

target_down_disk() {
	:
}

target_up() {
	TARGET_DEV=
	"target_up_$1" "$2"
}

target_down() {
	"target_down_$1"
}
