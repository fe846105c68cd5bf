#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power_cut_unit=sector under ext4 and xfs: a file overwritten in place and cut before a flush comes back torn sector by sector (old or new, never anything else), and the file system mounts again
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd python3 mkfs.ext4 mkfs.xfs
load_module nr_devices=0
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
on_exit "umount $mnt 2>/dev/null || true"

head -c 262144 /dev/zero | tr '\0' A >"$RD_TMP/A"
head -c 262144 /dev/zero | tr '\0' B >"$RD_TMP/B"

# torn_file FS SEED: a file of As made durable, overwritten in place with
# Bs by a direct write, a cut losing half the not-durable sectors, the file
# system mounted again; sets $map to the file's 512 sectors as letters: A
# (the old data), B (the new), ? (anything else)
torn_file() {
	rd_configure tornfs power=0 size=512M cache_mode=writeback power_cut_unit=sector \
		power_cut_drop_percent=50 power_cut_seed="$2" power=1
	case $1 in
	xfs) mkfs.xfs -q -f "$RD_DEV" ;;
	*) mkfs.ext4 -q -F -E nodiscard "$RD_DEV" ;;
	esac
	mount "$RD_DEV" "$mnt"
	dd if="$RD_TMP/A" of="$mnt/f" bs=256K count=1 conv=fsync status=none || fail "$1: the old data"
	sync -f "$mnt"
	dd if="$RD_TMP/B" of="$mnt/f" bs=256K count=1 oflag=direct conv=notrunc status=none ||
		fail "$1: the overwrite"
	echo 1 >"$RD_CONFIGFS/tornfs/power_cut"
	umount "$mnt"
	mount "$RD_DEV" "$mnt" || fail "$1 did not mount after the cut"
	dd if="$mnt/f" bs=256K count=1 iflag=direct status=none | python3 -c '
import sys
data = sys.stdin.buffer.read()
print("".join("A" if data[i:i + 512] == b"A" * 512 else "B" if data[i:i + 512] == b"B" * 512
              else "?" for i in range(0, 262144, 512)))' >"$RD_TMP/map"
	umount "$mnt"
	map=$(<"$RD_TMP/map")
}

for fs in ext4 xfs; do
	for seed in 1 2 3; do
		torn_file "$fs" "$seed"
		new=$(tr -cd B <<<"$map" | wc -c)
		echo "$fs seed $seed: $new of 512 sectors new: $map"
		[[ $map != *\?* ]] || fail "$fs seed $seed: a sector came back neither old nor new"
		((new > 128 && new < 384)) || fail "$fs seed $seed: $new of 512 sectors new at drop 50%"
		# torn inside pages, not only between them
		mixed=0
		for ((i = 0; i < 512; i += 8)); do
			page=${map:i:8}
			[[ $page == *A* && $page == *B* ]] && mixed=$((mixed + 1))
		done
		((mixed > 32)) || fail "$fs seed $seed: only $mixed of 64 pages torn inside"
	done
done
echo ok
