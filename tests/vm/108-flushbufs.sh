#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: BLKFLSBUF (blockdev --flushbufs) keeps every byte and every page, open or not, mounted or not
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blockdev cmp mkfs.ext4

load_module size=32M
dev=/dev/ramdisk0
head -c 4M /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of=$dev bs=1M oflag=direct status=none
# buffered too, so the page cache holds something to flush
dd if="$RD_TMP/data" of=$dev bs=1M seek=8 status=none

blockdev --flushbufs $dev
# with another opener, the case where old brd dropped everything
exec 3<$dev
blockdev --flushbufs $dev
exec 3<&-
echo 3 >/proc/sys/vm/drop_caches
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 2048 "pages after --flushbufs"
dd if=$dev of="$RD_TMP/back" bs=1M count=4 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "direct-written data changed by --flushbufs"
dd if=$dev of="$RD_TMP/back" bs=1M skip=8 count=4 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "buffered data changed by --flushbufs"

# Under a mounted file system.
mkfs.ext4 -q -F $dev
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
mount $dev "$mnt"
on_exit "umount $mnt"
cp "$RD_TMP/data" "$mnt/file"
sync
blockdev --flushbufs $dev
umount "$mnt"
blockdev --flushbufs $dev
mount $dev "$mnt"
cmp "$RD_TMP/data" "$mnt/file" || fail "file changed by --flushbufs"
umount "$mnt"
fsck.ext4 -f -n $dev >/dev/null 2>&1 || fail "fsck after --flushbufs found errors"
echo ok
