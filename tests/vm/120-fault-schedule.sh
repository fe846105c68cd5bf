#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fault_schedule: every Nth bio of a kind fails unserved, drop makes writes succeed unserved, a seeded probability replays the same faults, after_flush and window_ms gate a rule, delay_us ends bios late, counters count, bad input is refused with the rules unchanged
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd

load_module nr_devices=0
grep -qw fault_schedule "$RD_CONFIGFS/features" ||
	fail "features does not list fault_schedule: $(cat "$RD_CONFIGFS/features")"
rd_configure fs size=16M power=1
dev=$RD_DEV
rd=${dev#/dev/}
fs=$RD_CONFIGFS/fs/fault_schedule

# rule LINE...: writes each line to the schedule, failing the test on a refusal
rule() {
	local line
	for line in "$@"; do
		printf '%s\n' "$line" >"$fs" || fail "fault_schedule refused '$line'"
	done
}

# outcomes CMD: runs CMD (a dd of block $i) for i in 0..N-1, prints a
# string of one letter per run: o for success, x for failure
outcomes() {
	local n=$1 i s=""
	shift
	for ((i = 0; i < n; i++)); do
		if "$@" "$i" 2>/dev/null; then s+=o; else s+=x; fi
	done
	echo "$s"
}
read_block() {
	dd if="$dev" of=/dev/null bs=4096 skip="$1" count=1 iflag=direct status=none
}
write_block() {
	dd if="$RD_TMP/new" of="$dev" bs=4096 seek="$1" count=1 oflag=direct status=none
}

head -c 1M /dev/urandom >"$RD_TMP/old"
head -c 4096 /dev/urandom >"$RD_TMP/new"
dd if="$RD_TMP/old" of="$dev" bs=1M oflag=direct status=none
assert_eq "$(cat "$fs")" "" "the schedule of a new device"

# Every third write fails, unserved: its block keeps the old data; reads
# are of another kind and pass.
rule "+write every=3"
assert_eq "$(outcomes 9 write_block)" "ooxooxoox" "writes under every=3"
assert_eq "$(outcomes 4 read_block)" "oooo" "reads under a write rule"
assert_eq "$(cat "$fs")" "+write every=3 error=eio # seen=9 injected=3" "the rule after 9 writes"
assert_eq "$(sysfs_stat "$rd" fault_errors)" 3 "fault_errors"
dd if="$dev" of="$RD_TMP/got" bs=4096 skip=2 count=1 iflag=direct status=none
cmp "$RD_TMP/got" <(dd if="$RD_TMP/old" bs=4096 skip=2 count=1 status=none) ||
	fail "a failed write changed its block"
dd if="$dev" of="$RD_TMP/got" bs=4096 skip=1 count=1 iflag=direct status=none
cmp "$RD_TMP/got" "$RD_TMP/new" || fail "a write that passed did not land"
rule clear
assert_eq "$(cat "$fs")" "" "the schedule after clear"
assert_eq "$(outcomes 3 write_block)" "ooo" "writes after clear"

# The error is the rule's; two kinds in one rule.
rule "+read,write every=1 error=medium"
err=$(dd if="$dev" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>&1) &&
	fail "a read passed under error=medium"
grep -q "No data available" <<<"$err" || fail "a read under error=medium: $err"
assert_eq "$(outcomes 2 write_block)" "xx" "writes under read,write every=1"
rule clear

# drop: writes succeed and never land, as under dm-flakey's drop_writes.
rule "+write every=1 drop"
dd if="$RD_TMP/new" of="$dev" bs=4096 seek=40 count=1 oflag=direct status=none ||
	fail "a dropped write failed"
rule clear
dd if="$dev" of="$RD_TMP/got" bs=4096 skip=40 count=1 iflag=direct status=none
cmp "$RD_TMP/got" <(dd if="$RD_TMP/old" bs=4096 skip=40 count=1 status=none) ||
	fail "a dropped write landed"
assert_eq "$(sysfs_stat "$rd" fault_drops)" 1 "fault_drops"

# A seeded probability: about P of the bios fail, and the same seed over
# the same bios fails the same ones; another seed, others.
rule "+read prob=0.3 seed=42"
first=$(outcomes 80 read_block)
rule clear "+read prob=0.3 seed=42"
again=$(outcomes 80 read_block)
rule clear "+read prob=0.3 seed=43"
other=$(outcomes 80 read_block)
echo "seed 42: $first"
echo "seed 42: $again"
echo "seed 43: $other"
assert_eq "$again" "$first" "the faults of seed 42 replayed"
[ "$other" != "$first" ] || fail "seeds 42 and 43 gave the same faults"
failed=$(tr -cd x <<<"$first" | wc -c)
if [ "$failed" -lt 8 ] || [ "$failed" -gt 40 ]; then
	fail "$failed of 80 reads failed at prob=0.3"
fi
rule clear "+read prob=1"
assert_eq "$(outcomes 3 read_block)" "xxx" "reads at prob=1"
rule clear

# A rule that opens after the 2nd flush: flushes reach the device only
# when it has a write cache, so this part runs in writeback mode.
rd_configure fswb size=16M cache_mode=writeback power=1
devwb=$RD_DEV
fswb=$RD_CONFIGFS/fswb/fault_schedule
wb_write() {
	dd if="$RD_TMP/new" of="$devwb" bs=4096 seek="$1" count=1 oflag=direct status=none
}
printf '%s\n' "+write every=1 after_flush=2" >"$fswb" || fail "after_flush rule"
assert_eq "$(outcomes 2 wb_write)" "oo" "writes before any flush"
sync "$devwb" || fail "the first flush"
assert_eq "$(outcomes 2 wb_write)" "oo" "writes after one flush"
sync "$devwb" || fail "the second flush"
assert_eq "$(outcomes 2 wb_write)" "xx" "writes after the second flush"
# A flush rule fails the flush: fsync of the device reports it.
printf '%s\n' clear "+flush every=1" >"$fswb" || fail "flush rule"
wb_write 0 || fail "a write under a flush rule"
if sync "$devwb" 2>/dev/null; then
	fail "fsync passed under +flush every=1"
fi
[ "$(sysfs_stat "${devwb#/dev/}" dirty_bytes)" -gt 0 ] || fail "a failed flush wrote the cache back"
printf '%s\n' clear >"$fswb"
sync "$devwb" || fail "fsync after clear"
assert_eq "$(sysfs_stat "${devwb#/dev/}" dirty_bytes)" 0 "dirty_bytes after a flush"

# A window: the rule fails writes for 1.5 s from when it was written, then
# never again.
rule "+write every=1 window_ms=1500"
write_block 0 2>/dev/null && fail "a write inside the window passed"
sleep 2
assert_eq "$(outcomes 3 write_block)" "ooo" "writes after the window"
assert_eq "$(cat "$fs")" "+write every=1 window_ms=1500 error=eio # seen=1 injected=1" \
	"the rule after its window"
rule clear

# A latency spike: every 2nd read ends 300 ms late, and succeeds.
rule "+read every=2 delay_us=300000"
read_block 0 || fail "the first read"
start=$(date +%s%N)
read_block 1 || fail "a delayed read failed"
took=$((($(date +%s%N) - start) / 1000000))
echo "the delayed read took $took ms"
[ "$took" -ge 300 ] || fail "the delayed read took $took ms, want at least 300"
assert_eq "$(sysfs_stat "$rd" fault_delays)" 1 "fault_delays"
rule clear

# A line read back is a line that may be written; the counters start again.
rule "+discard,flush prob=0.000001 seed=18446744073709551615 after_flush=4294967295 window_ms=7 delay_us=60000000"
line=$(cat "$fs")
rule clear "$line"
assert_eq "$(cat "$fs")" "$line" "a line written back"
rule clear "+write,discard,flush prob=1 seed=0 drop"
assert_eq "$(cat "$fs")" "+write,flush,discard prob=1 seed=0 drop # seen=0 injected=0" "a drop rule"
rule clear "+any every=4294967295 error=timeout"
assert_eq "$(cat "$fs")" "+any every=4294967295 error=timeout # seen=0 injected=0" "+any"
rule clear

# Refused: EINVAL, one line in the log naming the device, the attribute
# and the value, and the rules as they were.
rule "+read every=7"
before=$(cat "$fs")
for value in "+write" "write every=2" "+write every=0" "+write every=2 prob=0.5" \
	"+write prob=1.5" "+write prob=0" "+write prob=0.0000001" "+write prob=.5" \
	"+write every=2 seed=3" "+bogus every=2" "+read,,write every=2" \
	"+write every=2 error=eio delay_us=5" "+write every=2 delay_us=0" \
	"+write every=2 delay_us=60000001" "+write every=-1" "+write every=2 foo=1" \
	"+write every=4294967296" "+write every=2 error=enoent" "clear all" "+" \
	"+read every=2 drop" "+any every=2 drop" "+write every=2 drop error=eio" \
	"+write every=2 drop delay_us=5" "+write every=2 drop=1"; do
	mark="rdtest-120-$RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	if err=$( (printf '%s\n' "$value" >"$fs") 2>&1); then
		fail "fault_schedule '$value' was accepted"
	fi
	grep -q "Invalid argument" <<<"$err" || fail "fault_schedule '$value': $err"
	assert_eq "$(cat "$fs")" "$before" "the rules after the refused '$value'"
	dmesg | sed -n "/$mark/,\$p" | grep -qF "ramdisk: fs: fault_schedule '$value' is not +KINDS" ||
		fail "no log line for fault_schedule '$value'"
done
# A full schedule refuses one more rule with ENOSPC.
for i in $(seq 2 16); do
	rule "+read every=$((1000 + i))"
done
if err=$( (echo "+read every=2" >"$fs") 2>&1); then
	fail "a 17th rule was accepted"
fi
grep -q "No space left on device" <<<"$err" || fail "a 17th rule: $err"
assert_eq "$(wc -l <"$fs")" 16 "rules after the refused 17th"
dmesg | grep -qF "ramdisk: fs: fault_schedule has 16 rules already" ||
	fail "no log line for the 17th rule"
rule clear

# The rules belong to the configuration: they stay over a power cycle.
rule "+read every=1"
rd_set fs power=0 || fail "power off"
rd_set fs power=1 || fail "power on"
dev=$(rd_dev fs)
read_block 0 2>/dev/null && fail "a read after a power cycle passed under every=1"
echo ok
