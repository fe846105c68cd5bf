#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdbench bw on a loop device: blank is used, a signature needs --destroy-data, mounted is always refused
. "${0%/*}/../lib/common.sh"

rdbench=$RD_BIN/rdbench
[ -x "$rdbench" ] || fail "$rdbench is missing (make userspace-asan)"
require_cmd losetup mkfs.ext4 mount umount
[ "$(id -u)" = 0 ] || skip "needs root for a loop device"

image=$RD_TMP/disk.img
truncate -s 16M "$image"
dev=$(losetup --find --show "$image" 2>/dev/null) || skip "no loop device here"
on_exit "losetup -d $dev"

bw=(bw --size 1M --bs 64k --runs 1 --quiet --csv)

# a blank device is fair game, and all of it by default when it is small
run_cmd 0 "$rdbench" "${bw[@]}" "$dev"
run_cmd 0 "$rdbench" bw --bs 1m --runs 1 --quiet --json "$dev"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r[0]["size_bytes"] == 16 << 20, r' \
	"$RD_TMP/out" || fail "default size on a 16M device: $(cat "$RD_TMP/out")"
expect_refusal 2 "larger than the device" "$rdbench" bw --size 32M --bs 1m --runs 1 "$dev"

# a file system on it: refused, then overwritten on request
mkfs.ext4 -q -F "$dev"
expect_refusal 2 "holds an ext2/3/4 file system" "$rdbench" "${bw[@]}" "$dev"
run_cmd 0 "$rdbench" "${bw[@]}" --destroy-data "$dev"
run_cmd 0 "$rdbench" "${bw[@]}" "$dev"

# a partition table
if command -v sfdisk >/dev/null; then
	printf 'label: dos\n,8M,L\n' | sfdisk -q "$dev" >/dev/null 2>&1 || true
	expect_refusal 2 "partition table" "$rdbench" "${bw[@]}" "$dev"
	run_cmd 0 "$rdbench" "${bw[@]}" --destroy-data "$dev"
fi

# mounted: refused even with --destroy-data
mkfs.ext4 -q -F "$dev"
mnt=$RD_TMP/mnt
mkdir "$mnt"
mount "$dev" "$mnt" || skip "cannot mount here"
on_exit "umount $mnt"
expect_refusal 2 "mounted" "$rdbench" "${bw[@]}" --destroy-data "$dev"
umount "$mnt"
run_cmd 0 "$rdbench" "${bw[@]}" --destroy-data "$dev"
echo "block device checks held"
