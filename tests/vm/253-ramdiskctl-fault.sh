#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl fault set, list (table and JSON) and clear drive the badblocks list, schedule and rules the fault schedule; I/O then fails as set; bad ranges, rules and options are refused with exit status 2
. "${0%/*}/../lib/common.sh"
require_cmd dd python3

ctl=$RD_BIN/ramdiskctl

load_module nr_devices=1
dev=$("$ctl" create --name flt --size 16M)
on_exit "$ctl" remove flt
udevadm settle 2>/dev/null || true

run_cmd 0 "$ctl" fault flt list --noheadings
assert_eq "$out" "" "the list of a new device"

run_cmd 0 "$ctl" fault flt set 100-199 --error medium --rw write
run_cmd 0 "$ctl" fault "$dev" set 300 --heal --rw read
run_cmd 0 "$ctl" fault flt set 400-407 --error nospc
assert_eq "$(cat "$RD_CONFIGFS/flt/badblocks")" "+100-199 rw=write error=medium sticky=1
+300-300 rw=read error=eio sticky=0
+400-407 rw=both error=nospc sticky=1" "the module's list"

run_cmd 0 "$ctl" fault flt list --raw
assert_eq "$out" "START END SECTORS RW ERROR STICKY
100 199 100 write medium yes
300 300 1 read eio no
400 407 8 both nospc yes" "fault list --raw"
run_cmd 0 "$ctl" fault flt list --json
python3 -c '
import json, sys
d = json.loads(sys.argv[1])["badblocks"]
assert len(d) == 3, d
assert d[0] == {"start": 100, "end": 199, "sectors": 100, "rw": "write", "error": "medium", "sticky": True}, d[0]
assert d[1]["sticky"] is False and d[1]["sectors"] == 1, d[1]
' "$out" || fail "fault list --json: $out"

# I/O as set: a write over sector 100 fails with ENODATA, a read passes.
dd if=/dev/zero of="$dev" bs=512 seek=100 count=1 oflag=direct status=none 2>"$RD_TMP/err" &&
	fail "a write over a bad range succeeded"
grep -q "No data available" "$RD_TMP/err" || fail "write over 100: $(cat "$RD_TMP/err")"
dd if="$dev" of=/dev/null bs=512 skip=100 count=1 iflag=direct status=none ||
	fail "a read of a write-only bad range"
assert_eq "$(sysfs_stat "$dev" badblock_write_errors)" 1 "badblock_write_errors"
run_cmd 0 "$ctl" info flt
assert_eq "$(sed -n 's/^badblock_errors: *//p' <<<"$out")" "0 reads, 1 writes" "info's badblock_errors"

# clear RANGE takes sectors out; clear alone empties the list.
run_cmd 0 "$ctl" fault flt clear 150-199
run_cmd 0 "$ctl" fault flt list --raw --noheadings
assert_eq "$(head -n 1 <<<"$out")" "100 149 50 write medium yes" "after clear 150-199"
run_cmd 0 "$ctl" fault flt clear
run_cmd 0 "$ctl" fault flt list --noheadings
assert_eq "$out" "" "the list after clear"

# Refused before anything is written: exit status 2.
run_cmd 0 "$ctl" fault flt set 10-19
for args in "set 19-10" "set x" "set 1-2 --rw sideways" "set 1-2 --error enoent" "set" \
	"set 1-2 3-4" "list 1-2" "list --heal" "clear --json" "frobnicate" "set 1-2 --bogus"; do
	# shellcheck disable=SC2086 # the words are the arguments
	run_cmd 2 "$ctl" fault flt $args
done
assert_eq "$(cat "$RD_CONFIGFS/flt/badblocks")" "+10-19 rw=both error=eio sticky=1" \
	"the list after refused commands"

# The fault schedule: schedule adds a rule, rules lists them with their
# counters, clear alone empties the schedule too.
run_cmd 0 "$ctl" fault flt rules --noheadings
assert_eq "$out" "" "the rules of a new device"
run_cmd 0 "$ctl" fault flt schedule write --every 2 --error medium
run_cmd 0 "$ctl" fault flt schedule read,discard --prob 0.25 --seed 7 --after-flush 3 --window 500
run_cmd 0 "$ctl" fault "$dev" schedule flush --every 1 --drop
run_cmd 0 "$ctl" fault flt schedule any --every 10 --delay 2000
assert_eq "$(cat "$RD_CONFIGFS/flt/fault_schedule")" "+write every=2 error=medium # seen=0 injected=0
+read,discard prob=0.250000 seed=7 after_flush=3 window_ms=500 error=eio # seen=0 injected=0
+flush every=1 drop # seen=0 injected=0
+any every=10 delay_us=2000 # seen=0 injected=0" "the module's schedule"
for i in 1 2; do
	dd if=/dev/zero of="$dev" bs=4096 seek=100 count=1 oflag=direct status=none 2>/dev/null || true
done
run_cmd 0 "$ctl" fault flt rules --raw
assert_eq "$out" "KINDS EVERY PROB SEED AFTER_FLUSH WINDOW_MS ACTION DELAY_US SEEN INJECTED
write 2   0 0 medium  2 1
read,discard  0.250000 7 3 500 eio  0 0
flush 1   0 0 drop  0 0
any 10   0 0 delay 2000 2 0" "fault rules --raw"
run_cmd 0 "$ctl" info flt
assert_eq "$(sed -n 's/^scheduled_faults: *//p' <<<"$out")" "1 errors, 0 drops, 0 delays" \
	"info's scheduled_faults"
run_cmd 0 "$ctl" fault flt rules --json
python3 -c '
import json, sys
d = json.loads(sys.argv[1])["fault_schedule"]
assert len(d) == 4, d
assert d[0] == {"kinds": "write", "every": 2, "prob": None, "seed": None, "after_flush": 0,
                "window_ms": 0, "action": "medium", "delay_us": None, "seen": 2, "injected": 1}, d[0]
assert d[1]["prob"] == 0.25 and d[1]["seed"] == 7 and d[1]["every"] is None, d[1]
assert d[3]["action"] == "delay" and d[3]["delay_us"] == 2000, d[3]
' "$out" || fail "fault rules --json: $out"
for args in "schedule write" "schedule write --every 2 --prob 0.5" "schedule write --every 0" \
	"schedule write --prob 0" "schedule write --prob 1.5" "schedule write --every 2 --seed 1" \
	"schedule read --every 2 --drop" "schedule write --every 2 --drop --delay 5" \
	"schedule write --every 2 --error eio --drop" "schedule write --every 2 --delay 60000001" \
	"schedule bogus --every 2" "schedule --every 2" "schedule write,read --every 2 extra" \
	"schedule write --every 2 --rw read" "rules --every 2" "set 1-2 --every 2" \
	"schedule write --every x" "schedule write --every 4294967296"; do
	# shellcheck disable=SC2086 # the words are the arguments
	run_cmd 2 "$ctl" fault flt $args
done
assert_eq "$(wc -l <"$RD_CONFIGFS/flt/fault_schedule")" 4 "the rules after refused commands"
run_cmd 0 "$ctl" fault flt clear
assert_eq "$(cat "$RD_CONFIGFS/flt/fault_schedule")" "" "the schedule after clear"
assert_eq "$(cat "$RD_CONFIGFS/flt/badblocks")" "" "the list after clear"

run_cmd 7 "$ctl" fault nosuch list
# A load-time device has no configuration, so no list.
run_cmd 7 "$ctl" fault ramdisk0 list
echo ok
