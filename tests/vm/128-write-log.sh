#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the write log: started with a checkpoint, it records each acknowledged write (with its data), discard, write-zeroes, flush and mark in order; its dm-log-writes export, replayed onto a clone of the checkpoint, rebuilds the device bit for bit; a log that outgrows write_log_limit stops, says so and keeps what it has while the device writes on, and discards of any size do not fill it; a power cut ends it (cut) with no later entry, and a rollback while it records is refused; a reader whose buffer faults slowly holds up no other configfs operation; while it records, a write that must not wait gets EAGAIN; bad input is refused with the reason logged and nothing changed
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd md5sum blkdiscard od jq xfs_io cmp mkfifo

load_module nr_devices=0
grep -q write_log "$RD_CONFIGFS/features" || fail "features does not list write_log"
cfs=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl
sum() { md5sum <"$1" | cut -d' ' -f1; }
state() { cat "$cfs/$1/write_log"; }
# le64 FILE OFFSET: the little-endian 64-bit number at OFFSET
le64() { od -An -tu8 -j "$2" -N 8 --endian=little "$1" | tr -d ' '; }

# Writeback mode, so that the block layer sends flushes and FUA writes.
rd_configure wl size=16M cache_mode=writeback power=1
dev=$RD_DEV
assert_eq "$(state wl)" off "write_log before a start"
dd if=/dev/urandom of="$dev" bs=1M count=4 oflag=direct status=none

echo "a log started with a checkpoint records what the device acknowledged, in order"
"$ctl" wlog wl start base
assert_eq "$(state wl)" recording "write_log after start base"
grep -q '^base ' "$cfs/wl/checkpoints" || fail "start base took no checkpoint base"
dd if=/dev/urandom of="$dev" bs=64k count=1 seek=3 oflag=direct status=none
dd if=/dev/urandom of="$dev" bs=4k count=1 seek=100 oflag=direct conv=fsync status=none
"$ctl" wlog wl mark after-fsync
blkdiscard -o $((1 << 20)) -l $((1 << 20)) "$dev"
blkdiscard -z -o $((3 << 20)) -l 65536 "$dev"
# three writes of a sector each
dd if=/dev/urandom of="$dev" bs=512 count=3 seek=9001 oflag=direct status=none
"$ctl" wlog wl stop
assert_eq "$(state wl)" stopped "write_log after stop"
"$ctl" wlog wl show --json >"$RD_TMP/log.json"
jq -c '[.write_log[] | [.type, .sector, .sectors, .mark // ""]]' "$RD_TMP/log.json" >"$RD_TMP/log.short"
cat "$RD_TMP/log.short"
# the fsync's flush comes after the write it covers; epochs count them
assert_eq "$(cat "$RD_TMP/log.short")" \
	'[["write",384,128,""],["write",800,8,""],["flush",0,0,""],["mark",0,0,"after-fsync"],["discard",2048,2048,""],["zeroes",6144,128,""],["write",9001,1,""],["write",9002,1,""],["write",9003,1,""]]' \
	"the entries of the log"
assert_eq "$(jq -c '[.write_log[].epoch]' "$RD_TMP/log.json")" '[0,0,0,1,1,1,1,1,1]' "the epochs"
assert_eq "$(jq -c '[.write_log[].seq]' "$RD_TMP/log.json")" '[0,1,2,3,4,5,6,7,8]' "the seqs"

echo "its dm-log-writes export, replayed onto a clone of the checkpoint, rebuilds the device"
"$ctl" wlog wl export "$RD_TMP/log.dmlw"
assert_eq "$(le64 "$RD_TMP/log.dmlw" 0)" $((0x6a736677736872)) "the export's magic"
assert_eq "$(le64 "$RD_TMP/log.dmlw" 8)" 1 "the export's version"
assert_eq "$(le64 "$RD_TMP/log.dmlw" 16)" 9 "the export's nr_entries"
bs=$(od -An -tu4 -j 24 -N 4 --endian=little "$RD_TMP/log.dmlw" | tr -d ' ')
assert_eq "$bs" 512 "the export's sectorsize"
clone=$("$ctl" clone --name replay wl base)
on_exit "rd_unconfigure replay"
[ "$(sum "$clone")" != "$(sum "$dev")" ] || fail "the clone of base is already the device"
assert_eq "$(dmlw_replay "$RD_TMP/log.dmlw" "$clone")" 9 "entries replayed"
assert_eq "$(sum "$clone")" "$(sum "$dev")" "the clone after the replay"
rd_unconfigure replay

echo "a log that outgrows write_log_limit stops, says so, and keeps what it has"
"$ctl" wlog wl clear
assert_eq "$(state wl)" off "write_log after clear"
echo 64K >"$cfs/wl/write_log_limit"
"$ctl" wlog wl start
log_lines=$(dmesg | wc -l)
dd if=/dev/urandom of="$dev" bs=32k count=1 oflag=direct status=none
dd if=/dev/urandom of="$RD_TMP/big" bs=64k count=1 status=none
dd if="$RD_TMP/big" of="$dev" bs=64k count=1 seek=10 oflag=direct status=none
assert_eq "$(state wl)" overflowed "write_log past its limit"
dmesg | tail -n +$((log_lines + 1)) | grep -q "write log reached write_log_limit (65536 bytes) after 1 entries and stopped" ||
	fail "no overflow message in the kernel log"
cmp -n 65536 "$RD_TMP/big" <(dd if="$dev" bs=64k skip=10 count=1 iflag=direct status=none) ||
	fail "the write past the limit did not reach the device"
assert_eq "$("$ctl" wlog wl show --raw --noheadings | wc -l)" 1 "entries kept past the limit"

echo "while the log records, a write that must not wait is sent back with EAGAIN"
rd_configure nw size=16M power=1
nw=$RD_DEV
head -c 4096 /dev/urandom >"$RD_TMP/4k"
"$ctl" wlog nw start
# xfs_io applies -N (RWF_NOWAIT) only to pwritev2(), which -V selects
if xfs_io -d -c "pwrite -V 1 -N -i $RD_TMP/4k 0 4k" "$nw" >"$RD_TMP/out" 2>&1; then
	fail "an RWF_NOWAIT write went through while the log recorded: $(cat "$RD_TMP/out")"
fi
grep -q "Resource temporarily unavailable" "$RD_TMP/out" ||
	fail "an RWF_NOWAIT write while the log recorded: $(cat "$RD_TMP/out")"
assert_eq "$("$ctl" wlog nw show --raw --noheadings | wc -l)" 0 "entries after a refused write"
"$ctl" wlog nw clear
xfs_io -d -c "pwrite -V 1 -N -i $RD_TMP/4k 0 4k" "$nw" >"$RD_TMP/out" 2>&1 ||
	fail "an RWF_NOWAIT write with the log off: $(cat "$RD_TMP/out")"
cmp -n 4096 "$RD_TMP/4k" "$nw" || fail "the RWF_NOWAIT write with the log off did not land"
rd_unconfigure nw

echo "bad input: refused, logged, nothing changed"
rd_refused wl write_log "start" "Device or resource busy" "the write log is overflowed; clear it first"
rd_refused wl write_log "stop" "Invalid argument" "the write log is overflowed, not recording"
rd_refused wl write_log "mark x" "Invalid argument" "a mark needs a write log that is recording"
assert_eq "$(state wl)" overflowed "write_log after the refusals"
"$ctl" wlog wl clear
rd_refused wl write_log "bogus" "Invalid argument" "write_log takes start, start CHECKPOINT"
rd_refused wl write_log "start a/b" "Invalid argument" "a checkpoint name has letters"
rd_refused wl write_log "start base" "File exists" "checkpoint base exists already"
rd_refused wl write_log_limit 0 "Invalid argument" "write_log_limit 0 would hold no entry"
assert_eq "$(state wl)" off "write_log after the refusals"
assert_eq "$(cat "$cfs/wl/write_log_limit")" 65536 "write_log_limit after the refusal"
"$ctl" wlog wl start
rd_refused wl write_log "mark $(printf 'm%.0s' {1..128})" "Invalid argument" "a mark has 1 to 127 characters"
rd_refused wl write_log "mark tab	here" "Invalid argument" "a mark is printable ASCII text"
assert_eq "$("$ctl" wlog wl show --raw --noheadings | wc -l)" 0 "entries after refused marks"
"$ctl" wlog wl clear

echo "discards and write-zeroes cost the log their entries, not their ranges"
# still the 64 KiB limit: the device is 16 MiB
"$ctl" wlog wl start
dd if=/dev/urandom of="$dev" bs=4k count=1 seek=5 oflag=direct status=none
blkdiscard "$dev"
blkdiscard -z "$dev"
blkdiscard -o $((1 << 20)) -l $((8 << 20)) "$dev"
assert_eq "$(state wl)" recording "write_log after discarding the whole device under a 64K limit"
"$ctl" wlog wl show --json >"$RD_TMP/log.json"
assert_eq "$(jq -c '[.write_log[].type] | unique' "$RD_TMP/log.json")" '["discard","write","zeroes"]' \
	"the kinds of entries after the discards"
assert_eq "$(jq '[.write_log[] | select(.type == "discard") | .sectors] | add' "$RD_TMP/log.json")" \
	$(((16 << 20) / 512 + (8 << 20) / 512)) "sectors of the discard entries"
assert_eq "$(jq '[.write_log[] | select(.type == "zeroes") | .sectors] | add' "$RD_TMP/log.json")" \
	$(((16 << 20) / 512)) "sectors of the write-zeroes entries"
"$ctl" wlog wl clear

echo "a power cut ends the log: what it lost is not covered by a later flush"
# the checkpoint has rdcrash's name, so that rdcrash state rebuilds from it
"$ctl" wlog wl start rdcrash-base
log_lines=$(dmesg | wc -l)
dd if="$dev" of="$RD_TMP/before-cut" bs=4k skip=201 count=4 iflag=direct status=none
head -c 16384 /dev/urandom >"$RD_TMP/cut-writes"
for i in 0 1 2 3; do
	dd if="$RD_TMP/cut-writes" of="$dev" bs=4k count=1 skip=$i seek=$((201 + i)) oflag=direct status=none
done
echo 1 >"$cfs/wl/power_cut"
cmp "$RD_TMP/before-cut" <(dd if="$dev" bs=4k skip=201 count=4 iflag=direct status=none) ||
	fail "the cut kept writes that no flush covered"
# a FUA write, whose flush the block layer sends first on a write-back cache
dd if=/dev/urandom of="$dev" bs=4k count=1 seek=300 oflag=direct,dsync status=none
assert_eq "$(state wl)" cut "write_log after a power cut"
dmesg | tail -n +$((log_lines + 1)) | grep -q "a power cut ended the write log after 4 entries" ||
	fail "no line for the cut in the kernel log"
"$ctl" wlog wl show --json >"$RD_TMP/log.json"
assert_eq "$(jq -c '[.write_log[] | [.type, .sector, .epoch]]' "$RD_TMP/log.json")" \
	'[["write",1608,0],["write",1616,0],["write",1624,0],["write",1632,0]]' \
	"the entries of a log the cut ended"
rd_refused wl write_log "stop" "Invalid argument" "the write log is cut, not recording"
rd_refused wl write_log "mark x" "Invalid argument" "a mark needs a write log that is recording; it is cut"
rd_refused wl write_log "start" "Device or resource busy" "the write log is cut; clear it first"
# its export ends with the mark power-cut, the crash point
"$ctl" wlog wl export "$RD_TMP/cut.dmlw"
assert_eq "$(le64 "$RD_TMP/cut.dmlw" 16)" 5 "the export's nr_entries after a cut"
off=$((512 + 4 * (512 + 4096)))
assert_eq "$(le64 "$RD_TMP/cut.dmlw" $((off + 16)))" 8 "the flags of the export's last entry"
assert_eq "$(dd if="$RD_TMP/cut.dmlw" bs=1 skip=$((off + 32)) count=9 status=none)" power-cut \
	"the export's last entry"
# rdcrash takes the log: a crash at its end keeps all of its writes (state
# 0) or none (state 1), which is what the cut left
idx=${dev#/dev/ramdisk}
for st in 0 1; do
	run_cmd 0 "$RD_BIN/rdcrash" state --seed 1 --epoch 0 --state $st "$dev"
	on_exit "rd_unconfigure rdcrash-clone-$idx"
	want=$RD_TMP/cut-writes
	[ $st = 0 ] || want=$RD_TMP/before-cut
	cmp "$want" <(dd if="$out" bs=4k skip=201 count=4 iflag=direct status=none) ||
		fail "rdcrash state $st of the log the cut ended"
	rd_unconfigure "rdcrash-clone-$idx"
done
echo -rdcrash-base >"$cfs/wl/checkpoints"
"$ctl" wlog wl clear

echo "a flush served before a cut whose completion a delay holds past it: EIO to its caller, durable in the log as on the device"
"$ctl" wlog wl start
head -c 4096 /dev/urandom >"$RD_TMP/flushed"
dd if="$RD_TMP/flushed" of="$dev" bs=4k seek=500 oflag=direct status=none
# the flush is served, then its completion waits 3 s: the cut comes first
echo "+flush every=1 delay_us=3000000" >"$cfs/wl/fault_schedule"
rd_flush_logged wl
sleep 0.5
echo 1 >"$cfs/wl/power_cut"
fsync_status=0
wait "$RD_FLUSH_PID" || fsync_status=$?
echo clear >"$cfs/wl/fault_schedule"
[ "$fsync_status" != 0 ] || fail "a flush whose completion a power cut interrupted succeeded"
cmp "$RD_TMP/flushed" <(dd if="$dev" bs=4k skip=500 count=1 iflag=direct status=none) ||
	fail "the cut lost a write that a served flush had made durable"
assert_eq "$(state wl)" cut "write_log after a cut during a delayed flush"
"$ctl" wlog wl show --json >"$RD_TMP/log.json"
assert_eq "$(jq -c '[.write_log[] | [.type, .flags]]' "$RD_TMP/log.json")" \
	'[["write","-"],["flush","-"]]' "the entries of a log cut while a served flush's completion waited"
"$ctl" wlog wl clear

echo "a rollback while the log records is refused; once it stopped, it is not"
"$ctl" wlog wl start
dd if=/dev/urandom of="$dev" bs=4k count=1 seek=400 oflag=direct status=none
before=$(sum "$dev")
rd_refused wl rollback base "Device or resource busy" \
	"rollback refused: the write log is recording; stop or clear it first"
expect_refusal 5 "wl: cannot roll back to checkpoint base while its write log records; stop or clear the log first" \
	"$ctl" rollback wl base
assert_eq "$(state wl)" recording "write_log after a refused rollback"
assert_eq "$(sum "$dev")" "$before" "the device after a refused rollback"
assert_eq "$("$ctl" wlog wl show --raw --noheadings | wc -l)" 1 "entries after a refused rollback"
"$ctl" wlog wl stop
echo base >"$cfs/wl/rollback"
[ "$(sum "$dev")" != "$before" ] || fail "the rollback after a stop changed nothing"
assert_eq "$(state wl)" stopped "write_log after a rollback"
"$ctl" wlog wl clear

echo "a reader whose buffer faults slowly holds up no configfs operation of another device"
rd_configure other
"$ctl" wlog wl start
dd if=/dev/urandom of="$dev" bs=4k count=1 seek=7 oflag=direct status=none
mkfifo "$RD_TMP/go"
exec 3<>"$RD_TMP/go"
"$RD_TOP/build/test-bin/wlog-slow-reader" "$dev" <"$RD_TMP/go" >"$RD_TMP/slow.out" 2>&1 &
slow=$!
on_exit "kill -9 $slow 2>/dev/null"
for ((i = 0; i < 200; i++)); do
	grep -q blocked "$RD_TMP/slow.out" && break
	kill -0 "$slow" 2>/dev/null || break
	sleep 0.1
done
grep -q blocked "$RD_TMP/slow.out" || fail "the reader did not block: $(cat "$RD_TMP/slow.out")"
(cat "$cfs/other/write_log" >/dev/null && echo 4M >"$cfs/other/write_log_limit") &
cfg=$!
for ((i = 0; i < 50; i++)); do
	kill -0 "$cfg" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$cfg" 2>/dev/null && held=1 || held=0
echo go >&3
wait "$cfg" || fail "configfs of the other device failed"
for ((i = 0; i < 300; i++)); do
	kill -0 "$slow" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$slow" 2>/dev/null && fail "the slow reader did not end: $(cat "$RD_TMP/slow.out")"
wait "$slow" || fail "the slow reader: $(cat "$RD_TMP/slow.out")"
exec 3>&-
((held == 0)) || fail "configfs of another device waited 5 s for a write log reader's page fault"
grep -q "read 1 entries, 4096 bytes" "$RD_TMP/slow.out" || fail "the slow reader: $(cat "$RD_TMP/slow.out")"
assert_eq "$(cat "$cfs/other/write_log_limit")" 4194304 "the other device's write_log_limit"
"$ctl" wlog wl clear
rd_unconfigure other

rd_configure cold
rd_refused cold write_log start "No such device" "write_log needs a powered device"
assert_eq "$(state cold)" off "write_log of a powered-off item"
echo "write log ok"
