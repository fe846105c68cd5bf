#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash refuses a host-managed zoned device before it touches it (no mkfs, no write log, no checkpoint, no clone), saying why: its crash states are clones of checkpoints with the write log replayed on them, and its model does not yet keep a prefix of each zone's writes (a zoned device's write log: 145)
. "${0%/*}/../lib/common.sh"
require_root
require_cmd md5sum
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER takes no zoned devices (test 131 checks the refusal)"
rdcrash=$RD_BIN/rdcrash

rd_configure zb size=256M zoned=1 zone_size=16M cache_mode=writeback power=1
dev=$RD_DEV
# data at the first zone's write pointer, which a mkfs would overwrite
head -c 1M /dev/urandom | dd of="$dev" bs=1M oflag=direct status=none
before=$(head -c 1M "$dev" | md5sum)

for fs in btrfs f2fs; do
	status=0
	"$rdcrash" run --fs "$fs" --workload create-fsync --states 1 zb >"$RD_TMP/out" 2>"$RD_TMP/err" ||
		status=$?
	assert_eq "$status" 1 "rdcrash's status on a zoned device ($fs)"
	grep -q "zb: a host-managed zoned device: rdcrash does not build crash states of zoned devices yet" "$RD_TMP/err" ||
		fail "rdcrash on a zoned device ($fs) did not say why: $(cat "$RD_TMP/err")"
	assert_eq "$(head -c 1M "$dev" | md5sum)" "$before" "the zoned device's data after the refusal ($fs)"
	assert_eq "$(cat "$RD_CONFIGFS/zb/write_log")" off "the write log after the refusal ($fs)"
	assert_eq "$(cat "$RD_CONFIGFS/zb/checkpoints")" "" "checkpoints after the refusal ($fs)"
	assert_eq "$(find "$RD_CONFIGFS" -mindepth 1 -maxdepth 1 -type d | wc -l)" 1 \
		"configfs items after the refusal ($fs)"
done
rd_unconfigure zb
echo ok
