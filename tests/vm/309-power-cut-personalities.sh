#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power_cut_personality: unordered (the default) loses cached writes at a cut and keeps flushed and FUA ones; plp keeps every completed write without a flush; lying-flush acknowledges flushes and FUA writes and makes nothing durable, its write log marking them ignored (no fua flag); a change while powered applies to the next bio; a bad word is refused with the reason and nothing changed
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd jq
load_module nr_devices=0
cfg=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl

rd_configure p size=16M cache_mode=writeback power=1
dev=$RD_DEV
head -c 64K /dev/urandom >"$RD_TMP/a"
head -c 64K /dev/urandom >"$RD_TMP/b"

# put FILE KIB_OFFSET [sync|fua]: rd_dd_write of the 64 KiB of FILE
put() {
	rd_dd_write "$dev" "$1" "$2" 64 "${3:-}" || fail "write of $1 at $2 KiB"
}
# holds FILE KIB_OFFSET: whether the device holds FILE there
holds() {
	dd if="$dev" bs=64K skip=$(($2 / 64)) count=1 iflag=direct status=none | cmp -s - "$1"
}
cut() {
	echo 1 >"$cfg/p/power_cut" || fail "power_cut"
}

assert_eq "$(cat "$cfg/p/power_cut_personality")" unordered "the default personality"
rd_refused p power_cut_personality flaky "Invalid argument" \
	"p: power_cut_personality 'flaky' is not one of unordered, plp, lying-flush, misdirected and torn-media-error"
assert_eq "$(cat "$cfg/p/power_cut_personality")" unordered "the personality after a refusal"

echo "unordered: a cut keeps the flushed and FUA writes and loses the cached one"
put "$RD_TMP/a" 0 sync
put "$RD_TMP/a" 64 fua
put "$RD_TMP/b" 128
cut
holds "$RD_TMP/a" 0 || fail "unordered: the flushed write was lost"
holds "$RD_TMP/a" 64 || fail "unordered: the FUA write was lost"
holds "$RD_TMP/b" 128 && fail "unordered: the cached write survived the cut"

echo "plp: a cut keeps every completed write, flushed or not"
echo plp >"$cfg/p/power_cut_personality" || fail "setting plp while powered"
cuts=$(sysfs_stat "$dev" power_cuts)
put "$RD_TMP/b" 128
put "$RD_TMP/b" 192
(($(sysfs_stat "$dev" dirty_bytes) >= 131072)) || fail "plp: the writes were not cached"
cut
assert_eq "$(sysfs_stat "$dev" power_cuts)" $((cuts + 1)) "power_cuts after the plp cut"
assert_eq "$(sysfs_stat "$dev" dirty_bytes)" 0 "dirty bytes after the plp cut"
holds "$RD_TMP/b" 128 || fail "plp: a cut lost a completed write at 128 KiB"
holds "$RD_TMP/b" 192 || fail "plp: a cut lost a completed write at 192 KiB"

echo "lying-flush: flushes and FUA are acknowledged and make nothing durable"
echo lying-flush >"$cfg/p/power_cut_personality" || fail "setting lying-flush while powered"
"$ctl" wlog p start || fail "wlog start"
put "$RD_TMP/b" 256 sync
put "$RD_TMP/b" 320 fua
(($(sysfs_stat "$dev" dirty_bytes) >= 131072)) || fail "lying-flush: a flush or FUA wrote the cache out"
"$ctl" wlog p stop || fail "wlog stop"
"$ctl" wlog p show --json >"$RD_TMP/log.json"
# the writes (dd's, 4 KiB each): the 16 at 256 KiB with no flag, the 16
# at 320 KiB "ignored" (FUA asked, not given); every flush "ignored"
jq -r '.write_log[] | select(.type == "write") | "\(.sector) \(.flags)"' "$RD_TMP/log.json" \
	>"$RD_TMP/writes"
assert_eq "$(wc -l <"$RD_TMP/writes")" 32 "writes in the log"
assert_eq "$(awk '$1 >= 512 && $1 < 640 && $2 == "-"' "$RD_TMP/writes" | wc -l)" 16 \
	"the plain writes, with no flag"
assert_eq "$(awk '$1 >= 640 && $1 < 768 && $2 == "ignored"' "$RD_TMP/writes" | wc -l)" 16 \
	"the FUA writes, marked ignored and not fua"
flushes=$(jq '[.write_log[] | select(.type == "flush")] | length' "$RD_TMP/log.json")
((flushes > 0)) || fail "no flush in the log"
assert_eq "$(jq '[.write_log[] | select(.type == "flush" and .flags != "ignored")] | length' "$RD_TMP/log.json")" \
	0 "flushes not marked ignored"
"$ctl" wlog p clear
cut
holds "$RD_TMP/b" 256 && fail "lying-flush: a flushed write survived the cut"
holds "$RD_TMP/b" 320 && fail "lying-flush: a FUA write survived the cut"
holds "$RD_TMP/a" 0 || fail "lying-flush: a write flushed before it was lost"

echo "back to unordered: flushes work again"
echo unordered >"$cfg/p/power_cut_personality" || fail "setting unordered"
put "$RD_TMP/b" 256 sync
cut
holds "$RD_TMP/b" 256 || fail "unordered again: the flushed write was lost"
rd_unconfigure p
echo ok
