#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdbench pair: a row per target, one figure per round, psync or io_uring at --qd, the first target against each other with the sign test's interval from six rounds on; bad options and existing data refused with nothing changed
. "${0%/*}/../lib/common.sh"

rdbench=$RD_BIN/rdbench
[ -x "$rdbench" ] || fail "$rdbench is missing (make userspace-asan)"
require_cmd python3

dir=$RD_TMP/pair
mkdir "$dir"
probe=$dir/probe
if ! python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_CREAT | os.O_RDWR | os.O_DIRECT))' \
	"$probe" 2>/dev/null; then
	skip "$dir does not take O_DIRECT"
fi
rm -f "$probe"

# check PYTHON: the JSON output as `rows`, then the assertions
check() {
	python3 - "$RD_TMP/out" "$1" <<'PY' || fail "output check failed: $(cat "$RD_TMP/out")"
import json, sys
rows = json.load(open(sys.argv[1]))
exec(sys.argv[2])
PY
}

# Three new files (removed afterwards), seven rounds: every round gives each
# target a figure, and the first is compared with the other two.
run_cmd 0 "$rdbench" pair --size 1M --ops 20 --runs 7 --quiet --json "$dir/a=A" "$dir/b=B" "$dir/c=C"
check '
assert [r["target"] for r in rows] == ["A", "B", "C"], rows
for r in rows:
    assert r["op"] == "randread" and r["bs"] == "4k" and r["bs_bytes"] == 4096, r
    assert r["qd"] == 1, r
    assert r["size_bytes"] == 1 << 20 and r["ops_per_round"] == 20, r
    assert len(r["iops_runs"]) == 7 and r["iops_min"] <= r["iops"] <= r["iops_max"], r
first = rows[0]
assert first["first_vs_this"] is None and first["first_ahead"] is None, first
for r in rows[1:]:
    ratios = sorted(a / b for a, b in zip(first["iops_runs"], r["iops_runs"]))
    assert abs(r["first_vs_this"] / ratios[3] - 1) < 1e-6, (r, ratios)
    # seven rounds: the 1st and 7th of the sorted ratios bound the median
    assert abs(r["ci95_low"] / ratios[0] - 1) < 1e-6, (r, ratios)
    assert abs(r["ci95_high"] / ratios[6] - 1) < 1e-6, (r, ratios)
    assert r["first_ahead"] == sum(x > 1 for x in ratios), (r, ratios)
'
assert_eq "$(ls -A "$dir")" "" "files left by rdbench pair"

# Five rounds bound nothing at 95%; writes, 8k, and the CSV form.
run_cmd 0 "$rdbench" pair --op randwrite --bs 8k --size 64k --ops 5 --runs 5 --quiet --csv "$dir/a" "$dir/b"
python3 - "$RD_TMP/out" <<'PY' || fail "CSV check failed: $(cat "$RD_TMP/out")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and rows[1]["op"] == "randwrite" and rows[1]["bs"] == "8k", rows
assert rows[1]["size_bytes"] == "65536" and float(rows[1]["first_vs_this"]) > 0, rows
assert rows[1]["ci95_low"] == "-" and rows[1]["ci95_high"] == "-", rows
PY

# Sixteen in flight through io_uring, where the kernel has it.
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ]; then
	run_cmd 0 "$rdbench" pair --qd 16 --op randwrite --size 1M --ops 64 --runs 6 --quiet --json "$dir/a" "$dir/b"
	check '
assert all(r["qd"] == 16 and r["op"] == "randwrite" and len(r["iops_runs"]) == 6 for r in rows), rows
assert rows[1]["ci95_low"] <= rows[1]["first_vs_this"] <= rows[1]["ci95_high"], rows
'
else
	echo "note: io_uring is disabled here; --qd 16 not run"
fi

# Without --runs, 101 rounds; the human table has no raw lists.
run_cmd 0 "$rdbench" pair --size 64k --ops 1 --quiet "$dir/a" "$dir/b"
head -n 1 "$RD_TMP/out" | grep -q '^target  *op  *bs  *qd  *iops .*first_vs_this  *ci95_low' ||
	fail "human header: $(head -n 1 "$RD_TMP/out")"
! grep -q _runs "$RD_TMP/out" || fail "raw run lists in the human table"
run_cmd 0 "$rdbench" pair --size 64k --ops 1 --quiet --json "$dir/a" "$dir/b"
check 'assert len(rows[0]["iops_runs"]) == 101, rows[0]'

expect_refusal 2 "two or more" "$rdbench" pair --size 64k "$dir/a"
expect_refusal 2 "multiple of 4k" "$rdbench" pair --bs 1000 "$dir/a" "$dir/b"
expect_refusal 2 "multiple of 4k" "$rdbench" pair --bs 2M "$dir/a" "$dir/b"
expect_refusal 2 "randread or randwrite" "$rdbench" pair --op seqread "$dir/a" "$dir/b"
expect_refusal 2 "from 1 to" "$rdbench" pair --ops 0 "$dir/a" "$dir/b"
expect_refusal 2 "from 1 to 128" "$rdbench" pair --qd 0 "$dir/a" "$dir/b"
expect_refusal 2 "from 1 to 128" "$rdbench" pair --qd 129 "$dir/a" "$dir/b"
expect_refusal 2 "smaller than --bs" "$rdbench" pair --size 4k --bs 8k "$dir/a" "$dir/b"
assert_eq "$(ls -A "$dir")" "" "files left by refused runs"

# A file holding data is refused, and keeps it; --destroy-data allows it.
head -c 65536 /dev/urandom >"$dir/precious"
sum=$(cksum <"$dir/precious")
expect_refusal 2 "refusing an existing file with data" "$rdbench" pair --size 64k "$dir/precious" "$dir/b"
assert_eq "$(cksum <"$dir/precious")" "$sum" "the refused file's data"
run_cmd 0 "$rdbench" pair --size 64k --ops 2 --runs 2 --quiet --destroy-data "$dir/precious" "$dir/b"
echo "pair ran, compared and refused as it should"
