#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fio verify=crc32c over the whole device, mixed block sizes, several jobs, sync and async
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio

load_module size=96M
dev=/dev/ramdisk0

run_fio() { # NAME ENGINE DEPTH
	local status=0
	fio --name="$1" --filename=$dev --direct=1 --ioengine="$2" --iodepth="$3" \
		--rw=randwrite --bssplit=4k/40:16k/30:64k/20:1m/10 --blockalign=4k \
		--numjobs=4 --size=24M --offset_increment=24M \
		--verify=crc32c --verify_fatal=1 --verify_state_save=0 --do_verify=1 \
		--randrepeat=0 --group_reporting --output="$RD_TMP/$1.out" || status=$?
	[ "$status" = 0 ] || fail "fio $1 exited with $status: $(grep -iE 'err|verify' "$RD_TMP/$1.out" | head -n 5)"
	grep -q 'err= 0' "$RD_TMP/$1.out" || fail "fio $1 reports errors: $(grep 'err=' "$RD_TMP/$1.out")"
}

run_fio psync psync 1
# Every byte of the device was written at least once by some block.
pages=$(sysfs_stat ramdisk0 allocated_pages)
[ "$pages" -le $((96 << 8)) ] || fail "$pages pages allocated for a 96 MiB device"
run_fio libaio libaio 8

# 512-byte blocks interleaved with large ones, unaligned to pages.
status=0
fio --name=sectors --filename=$dev --direct=1 --ioengine=psync --rw=randwrite \
	--bssplit=512/50:1536/25:132k/25 --numjobs=2 --size=8M --offset_increment=8M \
	--verify=crc32c --verify_fatal=1 --verify_state_save=0 --randrepeat=0 --output="$RD_TMP/sectors.out" || status=$?
[ "$status" = 0 ] || fail "fio with 512-byte blocks exited with $status"
grep -q 'err= 0' "$RD_TMP/sectors.out" || fail "fio with 512-byte blocks reports errors"
assert_eq "$(sysfs_stat ramdisk0 alloc_failures)" 0 "alloc_failures"
echo ok
