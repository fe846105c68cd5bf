#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: lab 6's minird solution loads, keeps data at any offset, carries ext2, refuses bad sizes
. "${0%/*}/../lib/common.sh"
require_cmd mkfs.ext2 cmp

ko=$RD_TOP/build/kernels/$RD_KVER/labs/solution/minird.ko
if [ ! -f "$ko" ]; then
	# make check builds it on the host first (tests/host/510-lab-build.sh)
	echo "building minird for $RD_KVER in the guest"
	"$RD_TOP/scripts/build-lab" "$RD_KVER" >/dev/null ||
		skip "minird is not built for $RD_KVER (scripts/build-lab $RD_KVER)"
fi

echo "size_mib=0 and above 1024 are refused"
expect_fail insmod "$ko" size_mib=0
expect_fail insmod "$ko" size_mib=2048
kernel_log | grep -q 'size_mib 0 is not from 1 to 1024' || fail "no message for size_mib=0"

insmod "$ko" size_mib=4
on_exit "rmmod minird"
assert_eq "$(cat /sys/block/minird0/size)" 8192 "sectors of a 4 MiB minird0"

echo "data written at sector, sub-page and page-crossing offsets reads back"
head -c 300K /dev/urandom >"$RD_TMP/data"
for seek in 0 1 7 9 4095; do
	dd if="$RD_TMP/data" of=/dev/minird0 bs=512 seek="$seek" oflag=direct status=none
	dd if=/dev/minird0 bs=512 skip="$seek" count=600 iflag=direct status=none >"$RD_TMP/back"
	cmp "$RD_TMP/back" "$RD_TMP/data" || fail "data at sector $seek came back different"
done
echo "buffered I/O through the page cache, then a fresh read"
dd if="$RD_TMP/data" of=/dev/minird0 bs=64k seek=10 status=none conv=fsync
echo 3 >/proc/sys/vm/drop_caches
blockdev --flushbufs /dev/minird0
cmp <(dd if=/dev/minird0 bs=64k skip=10 count=5 status=none | head -c 300K) "$RD_TMP/data" ||
	fail "buffered data came back different"

echo "the last sector is writable, the one after is not"
dd if=/dev/urandom of=/dev/minird0 bs=512 seek=8191 count=1 oflag=direct status=none
expect_fail dd if=/dev/zero of=/dev/minird0 bs=512 seek=8192 count=1 oflag=direct status=none

echo "discard is not offered"
expect_fail blkdiscard /dev/minird0

echo "an ext2 file system survives a remount"
mkfs.ext2 -q /dev/minird0
mkdir -p "$RD_TMP/mnt"
mount /dev/minird0 "$RD_TMP/mnt"
on_exit "umount $RD_TMP/mnt"
cp "$RD_TMP/data" "$RD_TMP/mnt/f"
umount "$RD_TMP/mnt"
mount /dev/minird0 "$RD_TMP/mnt"
cmp "$RD_TMP/mnt/f" "$RD_TMP/data" || fail "a file on ext2 came back different"
expect_fail rmmod minird
umount "$RD_TMP/mnt"
fsck.ext2 -fn /dev/minird0 >/dev/null || fail "fsck.ext2 found errors"
