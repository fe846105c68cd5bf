#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a zoned device keeps a write log that replays to the same device: started with a checkpoint, it holds writes to conventional and sequential zones, a write-zeroes and a discard, zone appends as writes where they landed, zone resets (a reset of all zones as one entry per zone it emptied), finishes and marks, in order, and no open, close or failed command; replayed by the oracle onto a clone of the checkpoint it gives the origin's bytes and zone report (open zones read as closed), onto a file its bytes, and its dm-log-writes export (resets as discards, finishes left out) replayed onto a file the same bytes; a rollback while it records is refused
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone cmp dd jq
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER's block layer cannot host a zoned bio-based device (131 tests the refusal)"
cfs=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl
replay=$RD_TOP/build/test-bin/wlog-replay
[ -x "$replay" ] || fail "$replay is missing (make userspace)"
amod=$RD_TOP/build/kernels/$RD_KVER/selftest/rd_selftest_zone_append.ko
[ -f "$amod" ] || fail "$amod is missing: scripts/build-module $RD_KVER builds it"

# --- 16 zones of 2 MiB (4096 sectors) taking 1.5 MiB each, the first two
# conventional; at most 4 open and 6 active (zoned=1 after the sizes)
zs=4096
rd_configure zw size=32M zone_size=2M zone_capacity=1536K zone_nr_conv=2 \
	zone_max_open=4 zone_max_active=6 zoned=1 power=1
odev=$RD_DEV
onum=${odev#/dev/}

# put DEV ZONE SECTORS_INTO KIB: one O_DIRECT write of KIB KiB of random
# data into a zone (one log entry), failing the test on a refusal
put() {
	dd if=/dev/urandom of="$1" bs="$4K" count=1 seek=$((($2 * zs + $3) * 512)) \
		oflag=direct,seek_bytes iflag=fullblock status=none ||
		fail "write of $4 KiB at sector $3 of zone $2 of $1"
}
# zcmd DEV CMD ZONE: zone_cmd with this test's zone size
zcmd() { zone_cmd "$1" "$zs" "$2" "$3"; }
# same DEV FILE WHAT: the device, read past the page cache, equals FILE
same() {
	cmp <(dd if="$1" bs=1M iflag=direct status=none) "$2" >"$RD_TMP/cmp.out" 2>&1 ||
		fail "$3: $(cat "$RD_TMP/cmp.out")"
}
# entries: the log's entries but flushes, "TYPE SECTOR SECTORS [MARK]" a line
entries() {
	"$ctl" wlog zw show --json |
		jq -r '.write_log[] | select(.type != "flush") | "\(.type) \(.sector) \(.sectors) \(.mark // "")"' |
		sed 's/ *$//'
}
# append ZONE COUNT: COUNT zone appends of 4 KiB to ZONE from the test
# module (user space cannot send one); prints where the first landed
append() {
	local params=/sys/module/rd_selftest_zone_append/parameters r
	insmod "$amod" path="$odev" sector=$(($1 * zs)) count="$2" ||
		fail "insmod of the append module failed"
	r="$(cat "$params/result") $(cat "$params/done") $(cat "$params/first_sector")"
	rmmod rd_selftest_zone_append
	assert_eq "$r" "0 $2 $(($1 * zs))" "result, done and first sector of $2 appends to zone $1"
}

# --- the device at the checkpoint: data in conventional zone 0, zone 2
# partly written, zone 3 finished, zone 4 written and closed
put "$odev" 0 0 64
put "$odev" 2 0 64
put "$odev" 3 0 64
zcmd "$odev" finish 3
put "$odev" 4 0 16
zcmd "$odev" close 4
"$ctl" wlog zw start base || fail "a zoned device refused wlog start base"
assert_eq "$(cat "$cfs/zw/write_log")" recording "write_log after start base"
grep -q '^base pages=' "$cfs/zw/checkpoints" || fail "no checkpoint base: $(cat "$cfs/zw/checkpoints")"
rd_image "$odev" "$RD_TMP/base.img"
rd_refused zw write_log start "Device or resource busy" "the write log is recording; clear it first"
rd_refused zw rollback base "Device or resource busy" \
	"rollback refused: the write log is recording; stop or clear it first"

# --- what the log records
put "$odev" 0 128 16
put "$odev" 2 128 64
"$ctl" wlog zw mark m1
zcmd "$odev" reset 2
put "$odev" 2 0 8
# write-zeroes at the pointer moves it; a discard below it leaves it
blkdiscard -z -o $(((2 * zs + 16) * 512)) -l 4096 "$odev" || fail "write-zeroes at zone 2's pointer"
blkdiscard -o $((2 * zs * 512)) -l 4096 "$odev" || fail "discard below zone 2's pointer"
appends=$(sysfs_stat "$odev" zone_appends)
append 5 4
assert_eq "$(sysfs_stat "$odev" zone_appends)" $((appends + 4)) "zone_appends after 4 appends"
zcmd "$odev" finish 6
# open and close: not logged, only the write between them
zcmd "$odev" open 7
put "$odev" 7 0 16
zcmd "$odev" close 7

# failed commands and writes are not logged: zones 10 and 11 opened make
# 6 active zones (2, 4, 5, 7, 10, 11), so finishing empty zone 12 breaks
# zone_max_active; a write away from zone 2's pointer (24) fails too
before=$(rd_wlog_entries zw)
zcmd "$odev" open 10
zcmd "$odev" open 11
errors=$(sysfs_stat "$odev" zone_resource_errors)
blkzone finish -o $((12 * zs)) -c 1 "$odev" 2>/dev/null && fail "finishing zone 12 with 6 zones active was accepted"
assert_eq "$(sysfs_stat "$odev" zone_resource_errors)" $((errors + 1)) "zone_resource_errors after the refused finish"
dd if=/dev/urandom of="$odev" bs=4K count=1 seek=$(((2 * zs + 64) * 512)) oflag=direct,seek_bytes \
	status=none 2>/dev/null && fail "a write away from zone 2's write pointer was accepted"
zcmd "$odev" close 10
zcmd "$odev" close 11
assert_eq "$(rd_wlog_entries zw)" "$before" "entries after open, close and failed commands"
"$ctl" wlog zw mark m2

# a reset of every zone (the whole disk): an entry per zone it emptied
blkzone reset "$odev" || fail "blkzone reset of the whole of $odev"
put "$odev" 3 0 64
put "$odev" 8 0 64
zcmd "$odev" finish 9
"$ctl" wlog zw mark end
"$ctl" wlog zw stop
assert_eq "$(cat "$cfs/zw/write_log")" stopped "write_log after stop"

entries >"$RD_TMP/entries"
cat "$RD_TMP/entries"
z() { echo $(($1 * zs + ${2:-0})); }
cat >"$RD_TMP/want" <<EOF
write 128 32
write $(z 2 128) 128
mark 0 0 m1
zone-reset $(z 2) $zs
write $(z 2) 16
zeroes $(z 2 16) 8
discard $(z 2) 8
write $(z 5) 8
write $(z 5 8) 8
write $(z 5 16) 8
write $(z 5 24) 8
zone-finish $(z 6) $zs
write $(z 7) 32
mark 0 0 m2
zone-reset $(z 2) $zs
zone-reset $(z 3) $zs
zone-reset $(z 4) $zs
zone-reset $(z 5) $zs
zone-reset $(z 6) $zs
zone-reset $(z 7) $zs
write $(z 3) 128
write $(z 8) 128
zone-finish $(z 9) $zs
mark 0 0 end
EOF
diff -u "$RD_TMP/want" "$RD_TMP/entries" || fail "the entries of the zoned device's log"
rd_image "$odev" "$RD_TMP/origin.img"
zone_report "$odev" >"$RD_TMP/report.origin"

echo "the oracle's replay onto a clone of base gives the origin's bytes and zones"
rd_configure zc "clone_of=$onum base" power=1
cdev=$RD_DEV
same "$cdev" "$RD_TMP/base.img" "the clone of base against the device at base"
"$replay" "$odev" "$cdev" || fail "wlog-replay onto the zoned clone"
same "$cdev" "$RD_TMP/origin.img" "the zoned clone after the replay against the origin"
zone_report "$cdev" >"$RD_TMP/report.clone"
diff -u "$RD_TMP/report.origin" "$RD_TMP/report.clone" ||
	fail "the zoned clone's report after the replay differs from the origin's"
rd_unconfigure zc

echo "the oracle's replay onto a file gives the origin's bytes"
cp "$RD_TMP/base.img" "$RD_TMP/oracle.img"
"$replay" "$odev" "$RD_TMP/oracle.img" || fail "wlog-replay onto a file"
cmp "$RD_TMP/oracle.img" "$RD_TMP/origin.img" || fail "the file after the oracle's replay differs from the origin"

echo "the dm-log-writes export, replayed onto a file, gives the origin's bytes"
"$ctl" wlog zw export "$RD_TMP/log.dmlw" || fail "export of the zoned device's log"
# the 24 entries above but the two finishes, and any flush that did not fail
flushes=$("$ctl" wlog zw show --json |
	jq '[.write_log[] | select(.type == "flush" and .flags != "failed")] | length')
cp "$RD_TMP/base.img" "$RD_TMP/rl.img"
assert_eq "$(dmlw_replay "$RD_TMP/log.dmlw" "$RD_TMP/rl.img")" $((22 + flushes)) \
	"entries replayed from the export"
cmp "$RD_TMP/rl.img" "$RD_TMP/origin.img" || fail "the export replayed onto a file differs from the origin"

echo "a stopped and cleared log lets the rollback through"
"$ctl" wlog zw clear
for ((i = 0; i < 50; i++)); do
	printf 'base\n' >"$cfs/zw/rollback" 2>/dev/null && break
	udevadm settle
	sleep 0.1
done
((i < 50)) || fail "rollback to base refused 50 times after clear"
same "$odev" "$RD_TMP/base.img" "the device rolled back to base"
rd_unconfigure zw
echo ok
