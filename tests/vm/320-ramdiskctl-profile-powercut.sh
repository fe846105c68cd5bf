#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl profile sets the documented figures and refuses unknown names; powercut loses unflushed writes; info shows cache mode and dirty bytes
. "${0%/*}/../lib/common.sh"
require_root
require_cmd udevadm

cfg=/sys/kernel/config/ramdisk
ctl=$RD_BIN/ramdiskctl
load_module nr_devices=0
mkdir $cfg/emu
on_exit "rmdir $cfg/emu"
echo 8M >$cfg/emu/size
echo writeback >$cfg/emu/cache_mode
echo 1 >$cfg/emu/power
on_exit "echo 0 >$cfg/emu/power"
udevadm settle
dev=/dev/ramdisk$(cat $cfg/emu/index)

"$ctl" profile emu ssd >"$RD_TMP/out" || fail "profile ssd"
cat "$RD_TMP/out"
assert_eq "$(cat $cfg/emu/read_latency_ns)" 90000 "ssd read latency"
assert_eq "$(cat $cfg/emu/bandwidth_mbps)" 500 "ssd bandwidth"
grep -qx "write_latency_ns=30000" "$RD_TMP/out" || fail "profile does not show what it set"
expect_fail "$ctl" profile emu floppy
assert_eq "$(cat $cfg/emu/read_latency_ns)" 90000 "latency after a refused profile"
"$ctl" profile "$dev" none >/dev/null || fail "profile none"
assert_eq "$(cat $cfg/emu/read_latency_ns)" 0 "latency after profile none"

head -c 4096 /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of="$dev" bs=4096 oflag=direct status=none
"$ctl" info emu >"$RD_TMP/info" || fail "info"
cat "$RD_TMP/info"
grep -q "^cache_mode: *writeback" "$RD_TMP/info" || fail "info lacks the cache mode"
grep -q "^dirty_bytes: *4096" "$RD_TMP/info" || fail "info lacks the dirty bytes"
"$ctl" powercut emu || fail "powercut"
cmp -s -n 4096 "$RD_TMP/data" "$dev" && fail "an unflushed write survived powercut"
assert_eq "$(sysfs_stat "${dev#/dev/}" power_cuts)" 1 "power_cuts after powercut"
echo 0 >$cfg/emu/power
expect_fail "$ctl" powercut emu
echo ok
