#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every durability setting of SQLite (rollback journal and WAL, synchronous OFF to EXTRA), git (core.fsync) and Redis (appendfsync) under rdcrash on ext4 and xfs, each with the verdict the admin guide records: which keep every acknowledged write, which lose some with the data intact, which may corrupt
# KERNELS: named
# Too long for make check under TCG (a setting that syncs often has an
# epoch per sync): make check-crash runs it on the newest kernel; test 141
# runs a setting that holds and one that does not of each application in
# make check.
. "${0%/*}/../lib/common.sh"
. "$RD_TOP/tests/vm/lib/rdcrash-apps.sh"
require_root
require_cmd mkfs.ext4 e2fsck mkfs.xfs xfs_repair jq sqlite3 git redis-server redis-cli

load_module nr_devices=0

# The verdict on ext4, on xfs, then APP SETUP WORK, as the table in the
# admin guide ("Applications under rdcrash") has them
while read -r on_ext4 on_xfs app setup work; do
	app_verdict "$on_ext4" ext4 "$app" "$setup" "$work" --states 4 --seed 7
	app_verdict "$on_xfs" xfs "$app" "$setup" "$work" --states 4 --seed 7
done <<'TABLE'
corrupt corrupt sqlite delete off 4
lost lost sqlite delete normal 4
lost lost sqlite delete full 4
holds holds sqlite delete extra 4
corrupt corrupt sqlite wal off 4
lost lost sqlite wal normal 4
holds holds sqlite wal full 4
holds holds sqlite wal extra 4
lost lost git core.fsyncMethod=fsync 3
lost corrupt git core.fsync=committed 3
lost lost git core.fsync=all 3
holds holds redis always 4
lost lost redis everysec 4
lost lost redis no 4
TABLE
echo ok
