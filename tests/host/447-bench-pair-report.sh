#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: pair-report.py puts every run of a job side by side in run order, per other target, with its interval and lead count, and fails on a directory without runs
. "${0%/*}/../lib/common.sh"
require_cmd python3

report=$RD_TOP/scripts/bench/pair-report.py
out=$RD_TMP/2026-01-01-pair-test
mkdir "$out"
# one_run FILE RATIO_BRD LOW HIGH AHEAD: a run of three targets, 6 rounds
one_run() {
	cat >"$out/$1" <<JSON
[{"target": "ramdisk", "iops_runs": [1, 1, 1, 1, 1, 1], "first_vs_this": null,
  "ci95_low": null, "ci95_high": null, "first_ahead": null},
 {"target": "brd", "iops_runs": [1, 1, 1, 1, 1, 1], "first_vs_this": $2,
  "ci95_low": $3, "ci95_high": $4, "first_ahead": $5},
 {"target": "null_blk", "iops_runs": [1, 1, 1, 1, 1, 1], "first_vs_this": 0.5,
  "ci95_low": 0.4, "ci95_high": 0.6, "first_ahead": 0}]
JSON
}
# run 10 sorts after run 2 as a number, not as text
one_run pair-randread-4k-10.json 1.3 1.2 1.4 6
one_run pair-randread-4k-2.json 1.1 1.0 1.2 4
one_run pair-randwrite-1m-1.json 0.9 0.8 1.0 1
one_run pair-randread-1m-1.json 1.0 0.9 1.1 3

status=0
python3 "$report" "$out" >"$RD_TMP/report" || status=$?
cat "$RD_TMP/report"
assert_eq "$status" 0 "exit status"
cmp -s "$RD_TMP/report" "$out/pair.md" || fail "printed report differs from pair.md"
grep -qF '| job | ramdisk/brd | ramdisk/null_blk |' "$RD_TMP/report" || fail "header"
grep -qF '| randread-4k | 1.100 [1.000, 1.200] 4/6 · 1.300 [1.200, 1.400] 6/6 | 0.500 [0.400, 0.600] 0/6 · 0.500 [0.400, 0.600] 0/6 |' \
	"$RD_TMP/report" || fail "runs of a job not side by side in run order"
# jobs in the fixed order: 4 KiB before 1 MiB, reads before writes
order=$(grep -o '^| rand[a-z0-9-]*' "$RD_TMP/report" | tr -d '| ' | paste -sd' ')
assert_eq "$order" "randread-4k randread-1m randwrite-1m" "job order"

mkdir "$RD_TMP/empty"
status=0
python3 "$report" "$RD_TMP/empty" >/dev/null 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 1 "exit status without runs"
grep -q "no pair-JOB-RUN.json" "$RD_TMP/err" || fail "no reason given: $(cat "$RD_TMP/err")"
echo ok
