#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: mkfs, mount, write, remount and verify, umount and a clean fsck for ext2 and ext4
. "${0%/*}/../lib/common.sh"
# shellcheck source=../lib/fs-roundtrip.sh
. "${0%/*}/../lib/fs-roundtrip.sh"
require_root
require_cmd mkfs.ext2 mkfs.ext4 fsck.ext4 md5sum

load_module size=64M
head -c 6M /dev/urandom >"$RD_TMP/data"
for fs in ext2 ext4; do
	fs_roundtrip "$fs" "$RD_TMP/data"
done
echo ok
