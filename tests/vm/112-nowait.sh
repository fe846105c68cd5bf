#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: RWF_NOWAIT direct writes are accepted (the queue supports REQ_NOWAIT) and land like any write
. "${0%/*}/../lib/common.sh"
require_root
require_cmd xfs_io cmp

load_module size=16M
dev=/dev/ramdisk0
head -c 64K /dev/urandom >"$RD_TMP/data"

# The block layer refuses RWF_NOWAIT with EOPNOTSUPP on queues without
# nowait support, so success here means the device advertises it.
xfs_io -d -f -c "pwrite -N -i $RD_TMP/data 0 64k" -c "pwrite -N -i $RD_TMP/data 1m 64k" $dev \
	>"$RD_TMP/out" 2>&1 || fail "RWF_NOWAIT write failed: $(cat "$RD_TMP/out")"
grep -qiE "error|not supported" "$RD_TMP/out" && fail "RWF_NOWAIT write: $(cat "$RD_TMP/out")"
dd if=$dev of="$RD_TMP/back" bs=64K count=1 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "RWF_NOWAIT data at 0 reads back different"
dd if=$dev of="$RD_TMP/back" bs=64K skip=16 count=1 iflag=direct status=none
cmp "$RD_TMP/data" "$RD_TMP/back" || fail "RWF_NOWAIT data at 1 MiB reads back different"
assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 32 "pages after two 64 KiB RWF_NOWAIT writes"
echo ok
