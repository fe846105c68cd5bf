#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdbench pair on ramdisk and brd writes every block of the span before it measures and compares the two round by round; scripts/bench/pair-guest runs its six jobs on ramdisk, brd and null_blk and leaves nothing loaded
# KERNELS: first
. "${0%/*}/../lib/common.sh"
require_root
require_cmd python3
[ -x "$RD_BIN/rdbench" ] || fail "$RD_BIN/rdbench is missing (make userspace)"
[ ! -d /sys/module/ramdisk ] || skip "ramdisk is already loaded"
[ ! -d /sys/module/brd ] || skip "brd is already loaded"
[ ! -d /sys/module/null_blk ] || skip "null_blk is already loaded"

# The fill: reads must find data on every target alike, so the span's
# pages all exist before the first round, and no page beyond it.
load_module nr_devices=1 size=32M
modprobe brd rd_nr=1 rd_size=32768 || skip "no brd module"
on_exit "rmmod brd"
"$RD_BIN/rdbench" pair --size 16M --ops 20 --runs 6 --quiet --json \
	/dev/ramdisk0=ramdisk /dev/ram0=brd >"$RD_TMP/pair.json" || fail "rdbench pair failed"
assert_eq "$(sysfs_stat ramdisk0 allocated_bytes)" $((16 << 20)) "allocated bytes after pair --size 16M"
python3 - "$RD_TMP/pair.json" <<'PY' || fail "rdbench pair output: $(cat "$RD_TMP/pair.json")"
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["target"] for r in rows] == ["ramdisk", "brd"], rows
assert all(len(r["iops_runs"]) == 6 and r["iops"] > 0 for r in rows), rows
b = rows[1]
assert 0 < b["ci95_low"] <= b["first_vs_this"] <= b["ci95_high"], b
assert 0 <= b["first_ahead"] <= 6, b
PY
rmmod brd
unload_module

# The guest half of make bench-pair, end to end on small devices.
out=$RD_TMP/out
on_exit "rmmod brd 2>/dev/null; rmmod null_blk 2>/dev/null"
"$RD_TOP/scripts/bench/pair-guest" --out "$out" --module "$RD_MODULE" --reps 1 --runs 6 \
	--size 16 >"$RD_TMP/summary" || fail "pair-guest failed: $(cat "$RD_TMP/summary")"
cat "$RD_TMP/summary"
for job in randread-4k randwrite-4k randread-4k-qd16 randwrite-4k-qd16 randread-1m randwrite-1m; do
	for other in brd null_blk; do
		grep -q "^pair-guest: $job run 1: ramdisk/$other [0-9.]* \[[0-9.]*, [0-9.]*\], ahead in [0-6]/6 rounds" \
			"$RD_TMP/summary" || fail "no $job line for ramdisk/$other"
	done
	python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 3' \
		"$out/pair-$job-1.json" || fail "$out/pair-$job-1.json lacks a target"
done
[ ! -d /sys/module/ramdisk ] || fail "pair-guest left the module loaded"
[ ! -d /sys/kernel/config/nullb/bench ] || fail "pair-guest left a null_blk device"
echo "pair filled, compared and cleaned up"
