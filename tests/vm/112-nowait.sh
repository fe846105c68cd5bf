#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: RWF_NOWAIT direct writes are accepted (the queue supports REQ_NOWAIT) and land like any write; a writeback device refuses them with EAGAIN and keeps nothing
. "${0%/*}/../lib/common.sh"
require_root
require_cmd xfs_io cmp

load_module size=16M
dev=/dev/ramdisk0
head -c 64K /dev/urandom >"$RD_TMP/data"

# The block layer refuses RWF_NOWAIT with EOPNOTSUPP on queues without
# nowait support, so success here means the device advertises it.
# xfs_io applies -N only to pwritev2(), which -V selects.
xfs_io -d -f -c "pwrite -V 1 -N -i $RD_TMP/data 0 64k" -c "pwrite -V 1 -N -i $RD_TMP/data 1m 64k" $dev \
	>"$RD_TMP/out" 2>&1 || fail "RWF_NOWAIT write failed: $(cat "$RD_TMP/out")"
grep -qiE "error|not supported" "$RD_TMP/out" && fail "RWF_NOWAIT write: $(cat "$RD_TMP/out")"
dd if=$dev of="$RD_TMP/back" bs=64K count=1 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "RWF_NOWAIT data at 0 reads back different"
dd if=$dev of="$RD_TMP/back" bs=64K skip=16 count=1 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "RWF_NOWAIT data at 1 MiB reads back different"
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 32 "pages after two 64 KiB RWF_NOWAIT writes"

# The write cache's mutex and write-back may sleep: a writeback device
# sends nowait I/O back with EAGAIN rather than blocking the submitter.
rd_configure nowait-wb size=1M cache_mode=writeback cache_size=8K power=1
wb=$RD_DEV
if xfs_io -d -c "pwrite -V 1 -N -i $RD_TMP/data 0 64k" "$wb" >"$RD_TMP/out" 2>&1; then
	fail "RWF_NOWAIT write to a writeback device succeeded: $(cat "$RD_TMP/out")"
fi
grep -q "Resource temporarily unavailable" "$RD_TMP/out" ||
	fail "RWF_NOWAIT write to a writeback device was not refused with EAGAIN: $(cat "$RD_TMP/out")"
assert_eq "$(sysfs_stat "$wb" allocated_pages)" 0 "pages after a refused RWF_NOWAIT write"
cmp -n 65536 "$wb" /dev/zero || fail "a refused RWF_NOWAIT write left data behind"
# The same write without RWF_NOWAIT goes through the cache (16 pages for
# a cache of 2: write-back runs while it is made).
xfs_io -d -c "pwrite -i $RD_TMP/data 0 64k" "$wb" >"$RD_TMP/out" 2>&1 ||
	fail "blocking write to the writeback device failed: $(cat "$RD_TMP/out")"
dd if="$wb" of="$RD_TMP/back" bs=64K count=1 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "writeback device reads back different"
echo ok
