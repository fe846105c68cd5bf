#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make bench HOST=1 refuses a DISK that is mounted, partitioned or holds a file system, unless DESTROY_DATA=1
# KERNELS: first
. "${0%/*}/../lib/common.sh"

# refused_because DEV WORDS: the guard refuses DEV and says WORDS.
refused_because() {
	local why
	if why=$("$guard" "$1" 2>&1); then
		fail "$1 was not refused (want: $2)"
	fi
	echo "$why"
	grep -q "$2" <<<"$why" || fail "$1: refused without saying '$2'"
}
require_cmd mkfs.ext2 sfdisk wipefs
guard=$RD_TOP/scripts/bench/disk-guard
[ ! -d /sys/module/brd ] || skip "brd is already loaded"
modprobe brd rd_nr=1 rd_size=65536 max_part=4
on_exit "rmmod brd"
dev=/dev/ram0

echo "an empty device passes"
"$guard" $dev || fail "refused an empty device"

echo "a file system signature is refused"
mkfs.ext2 -q -F $dev
expect_fail "$guard" $dev
refused_because $dev 'signature: ext2'
DESTROY_DATA=1 "$guard" $dev || fail "DESTROY_DATA=1 did not override the signature"

echo "a mounted device is refused, even with DESTROY_DATA=1"
mkdir -p "$RD_TMP/mnt"
mount $dev "$RD_TMP/mnt"
on_exit "umount $RD_TMP/mnt"
refused_because $dev 'is mounted'
DESTROY_DATA=1 expect_fail "$guard" $dev
umount "$RD_TMP/mnt"

echo "partitions are refused"
wipefs -q -a $dev
echo ',16M' | sfdisk -q $dev
blockdev --rereadpt $dev 2>/dev/null || partprobe $dev 2>/dev/null || true
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e /sys/class/block/ram0/ram0p1 ] && break; sleep 0.2; done
[ -e /sys/class/block/ram0/ram0p1 ] || skip "no partition appeared on $dev"
refused_because $dev 'has partitions'
DESTROY_DATA=1 "$guard" $dev || fail "DESTROY_DATA=1 did not override partitions"

echo "make bench HOST=1 stops at the guard"
if "$RD_TOP/scripts/bench/run" bench --host --disk $dev --out "$RD_TMP/out" >"$RD_TMP/run.out" 2>&1; then
	fail "run bench --host ran on a partitioned $dev"
fi
cat "$RD_TMP/run.out"
# stopped by the guard, not by anything before it
grep -q 'has partitions' "$RD_TMP/run.out" || fail "run bench --host failed, but not at the guard"
