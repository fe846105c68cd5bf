#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: real applications under rdcrash, with the examples of Documentation/examples/rdcrash: SQLite in WAL mode keeps every committed transaction at synchronous=FULL and loses some, never corrupting, at NORMAL; git with its default core.fsync loses commits; Redis keeps every acknowledged SET at appendfsync always and loses some at no; a state never fails outside the application
# KERNELS: first
# What the applications promise does not depend on the kernel, and what
# rdcrash drives in the module is tested on every kernel (124, 127, 128);
# test 142 (make check-crash) runs every setting on ext4 and xfs.
. "${0%/*}/../lib/common.sh"
. "$RD_TOP/tests/vm/lib/rdcrash-apps.sh"
require_root
require_cmd mkfs.ext4 e2fsck jq sqlite3 git redis-server redis-cli

load_module nr_devices=0

# Two transactions, and one state of an epoch where more exist: a setting
# that syncs has an epoch a sync, one that does not fails in its first.
app_verdict holds ext4 sqlite wal "full 2" --states 1 --seed 1
app_verdict lost ext4 sqlite wal "normal 2" --states 1 --seed 1
app_verdict lost ext4 git core.fsyncMethod=fsync 2 --states 1 --seed 1
app_verdict holds ext4 redis always 2 --states 1 --seed 1
app_verdict lost ext4 redis no 2 --states 1 --seed 1
echo ok
