#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: mkfs, mount, write, remount and verify, umount and a clean fsck for xfs and btrfs
. "${0%/*}/../lib/common.sh"
# shellcheck source=../lib/fs-roundtrip.sh
. "${0%/*}/../lib/fs-roundtrip.sh"
require_root
require_cmd mkfs.xfs mkfs.btrfs xfs_repair btrfs md5sum

# mkfs.xfs refuses devices under 300 MiB; the device is sparse anyway.
load_module size=320M
head -c 6M /dev/urandom >"$RD_TMP/data"
for fs in xfs btrfs; do
	fs_roundtrip "$fs" "$RD_TMP/data"
done
echo ok
