#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a flush in flight at a power cut: one the device served just before the cut, its log entry not yet told how it ended, ends in the log as a flush that made its writes durable, as the device made them, and the write it covered reads back; one logged and not yet served reads failed from the cut on, fails with EIO and stays failed; the test build holds each at its point while the cut runs
# VMOPTS: --cpus 3
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd cmp jq xfs_io

# The window, in rd_submit_bio_layered(): the cache has served the flush
# (its writes are on the durable store) and the write log has not yet run
# rd_wlog_after() for it. A cut there used to mark every flush not yet
# through rd_wlog_after() failed, and so the log said the write below could
# be lost when the device had made it durable and told the caller so: a
# crash state built from the log lacked data the application had been
# promised, a failure the device could not have caused. The test build
# spins at that point (RD_TEST_SERVED_UNLOGGED) while the cut runs on
# another vCPU.
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
load_test_module nr_devices=0
params=$RD_TEST_PARAMS
# must match enum rd_test_point in module/test_hooks.h
served_unlogged=2
logged_unserved=3
ctl=$RD_BIN/ramdiskctl
# entries: each entry of the log of fl as [type, flags]
entries() {
	"$ctl" wlog fl show --json | jq -c '[.write_log[] | [.type, .flags]]'
}

rd_configure fl size=16M cache_mode=writeback power=1
dev=$RD_DEV
head -c 4096 /dev/urandom >"$RD_TMP/data"
"$ctl" wlog fl start
dd if="$RD_TMP/data" of="$dev" bs=4k seek=8 oflag=direct status=none

echo "a flush held between serving and logging while the cut runs"
on_exit "echo 0 >$params/test_delay_point"
echo 3000000 >"$params/test_delay_us"
echo "$served_unlogged" >"$params/test_delay_point"
# logged at submission, served at once, then held: a little more time
# after its entry appears for the cache to serve it
rd_flush_logged fl
sleep 0.5
echo 1 >"$RD_CONFIGFS/fl/power_cut"
fsync_status=0
wait "$RD_FLUSH_PID" || fsync_status=$?
echo 0 >"$params/test_delay_point"
# had the cut come before the cache served the flush, it would have failed
[ "$fsync_status" = 0 ] ||
	fail "the flush failed ($(cat "$RD_TMP/flush.err")): the cut came before it was served, not inside the window"
cmp "$RD_TMP/data" <(dd if="$dev" bs=4k skip=8 count=1 iflag=direct status=none) ||
	fail "the write a served flush covered was lost in the cut"
assert_eq "$(cat "$RD_CONFIGFS/fl/write_log")" cut "write_log after the cut"
assert_eq "$(entries)" \
	'[["write","-"],["flush","-"]]' "the entries of the log (a flush the device served is not failed)"
"$ctl" wlog fl clear

echo "a flush held between logging and serving while the cut runs"
"$ctl" wlog fl start
head -c 4096 /dev/urandom >"$RD_TMP/lost"
dd if="$RD_TMP/lost" of="$dev" bs=4k seek=16 oflag=direct status=none
echo "$logged_unserved" >"$params/test_delay_point"
rd_flush_logged fl
echo 1 >"$RD_CONFIGFS/fl/power_cut"
# the flush still spins: a reader now must not take it for a durable one
assert_eq "$(entries)" \
	'[["write","-"],["flush","failed"]]' "the log read while a flush the cut stopped was in flight"
fsync_status=0
wait "$RD_FLUSH_PID" || fsync_status=$?
echo 0 >"$params/test_delay_point"
[ "$fsync_status" != 0 ] || fail "a flush that ran after the cut that emptied the cache succeeded"
assert_eq "$(entries)" \
	'[["write","-"],["flush","failed"]]' "the log once the flush the cut stopped failed"
"$ctl" wlog fl clear
echo "flush at cut ok"
