#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: badblocks under ext4 with errors=remount-ro: an inode table bad for writes makes ext4 remount read-only
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 dumpe2fs

load_module nr_devices=0
mnt=$RD_TMP/mnt
mkdir -p "$mnt"

# is_ro DEV: whether ext4 on DEV went read-only for an error. Up to 6.5
# /proc/mounts shows ro; since 6.6 ext4 marks itself shut down instead of
# setting SB_RDONLY, so /proc/mounts keeps rw: then the log's line and a
# refused change say it.
is_ro() {
	awk -v d="$1" '$1 == d { split($4, o, ","); if (o[1] == "ro") f = 1 } END { exit !f }' \
		/proc/mounts && return 0
	dmesg >"$RD_TMP/kmsg"
	grep -q "EXT4-fs (${1#/dev/}): Remounting filesystem read-only" "$RD_TMP/kmsg" || return 1
	if touch "$mnt/after-error" 2>/dev/null; then
		fail "ext4 said it went read-only, but a new file was made"
	fi
	return 0
}

# bad_blocks ITEM FIRST LAST OPTIONS: marks 4 KiB file system blocks bad
bad_blocks() {
	printf '+%s-%s %s\n' $(($2 * 8)) $(($3 * 8 + 7)) "$4" >"$RD_CONFIGFS/$1/badblocks" ||
		fail "badblocks on $1"
	echo "$1: blocks $2-$3 bad, $4"
}

# An inode table that cannot be written: the journal commits, the write
# back of the table fails, and the next change sees the error and
# remounts read-only.
rd_configure rit size=64M power=1
dev=$RD_DEV
mkfs.ext4 -q -F -b 4096 -E nodiscard "$dev"
dumpe2fs "$dev" >"$RD_TMP/dumpe2fs" 2>/dev/null
table=$(sed -n 's/^ *Inode table at \([0-9]*\)-\([0-9]*\).*/\1 \2/p' "$RD_TMP/dumpe2fs" | head -n 1)
[ -n "$table" ] || fail "no inode table in dumpe2fs"
mount -o errors=remount-ro "$dev" "$mnt"
on_exit "umount $mnt"
read -r first last <<<"$table"
bad_blocks rit "$first" "$last" "rw=write error=eio"
for i in $(seq 1 20); do
	touch "$mnt/f$i" 2>/dev/null || true
	sync
	is_ro "$dev" && break
	sleep 0.5
done
is_ro "$dev" || fail "ext4 stayed read-write after its inode table could not be written"
echo "read-only after $i rounds of writes"
[ "$(sysfs_stat "${dev#/dev/}" badblock_write_errors)" -gt 0 ] || fail "badblock_write_errors"
umount "$mnt"
echo ok
