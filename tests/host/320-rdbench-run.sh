#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: each rdbench subcommand on tmpfs with tiny counts: JSON and CSV that parsers accept, counts, labels and cleanup
. "${0%/*}/../lib/common.sh"

rdbench=$RD_BIN/rdbench
[ -x "$rdbench" ] || fail "$rdbench is missing (make userspace-asan)"
require_cmd python3

scratch=$RD_TMP
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	scratch=$(mktemp -d /dev/shm/rdbench-test.XXXXXX)
	on_exit "rm -rf '$scratch'"
else
	echo "note: /dev/shm is not a writable tmpfs; testing in $scratch"
fi
a=$scratch/a
b=$scratch/b
mkdir "$a" "$b"

# bench ARGS...: run rdbench (must succeed), output in $RD_TMP/out, and
# check that neither target keeps anything.
bench() {
	echo "rdbench $*"
	"$rdbench" "$@" >"$RD_TMP/out" 2>"$RD_TMP/err" </dev/null ||
		fail "rdbench $* failed: $(cat "$RD_TMP/err")"
	assert_eq "$(find "$a" "$b" -mindepth 1 | wc -l)" 0 "files left by rdbench $*"
}

# check FORMAT PYTHON: parse $RD_TMP/out as json or csv into `rows` (a list
# of dicts) and run the Python assertions on it.
check() {
	python3 - "$1" "$RD_TMP/out" "$2" <<'PY' || fail "output check failed: $(cat "$RD_TMP/out")"
import csv, json, sys
fmt, path, code = sys.argv[1:]
with open(path, newline="") as f:
    rows = json.load(f) if fmt == "json" else list(csv.DictReader(f))
exec(code)
PY
}

# meta: rows are size-major, labels from both syntaxes, every raw run kept
bench meta --sizes 0k,1k --files 50 --per-dir 10 --runs 2 --json "$a=first" --label second "$b"
check json '
assert [(r["size"], r["target"]) for r in rows] == [
    ("0k", "first"), ("0k", "second"), ("1k", "first"), ("1k", "second")], rows
for r in rows:
    assert r["files"] == 50 and r["threads"] == 1 and r["fsync"] == "no"
    assert r["size_bytes"] in (0, 1024)
    for k in ("create_per_s", "delete_per_s"):
        assert isinstance(r[k], (int, float)) and r[k] > 0
        assert len(r[k + "_runs"]) == 2
        assert r[k + "_min"] <= r[k] <= r[k + "_max"]
assert rows[0]["path"].endswith("/a")
'
bench meta --sizes 4k --files 30 --per-dir 7 --threads 3 --fsync --runs 1 --csv "$a"
check csv '
assert len(rows) == 1, rows
r = rows[0]
assert r["files"] == "30" and r["threads"] == "3" and r["fsync"] == "yes", r
assert float(r["create_per_s"]) > 0 and len(r["create_per_s_runs"].split()) == 1
'
# without --files the count starts at 500 and stops growing at --min-time
bench meta --sizes 0k --min-time 0 --runs 1 --json "$a"
check json 'assert rows[0]["files"] == 500, rows'

# churn: both presets, phases timed, totals consistent
bench churn --preset queue --files 20 --rounds 2 --runs 3 --json "$a" "$b"
check json '
assert len(rows) == 2
for r in rows:
    assert r["preset"] == "queue" and r["files"] == 20 and r["rounds"] == 2
    assert r["size_bytes"] == 4004
    for k in ("write_s", "read_s", "delete_s", "total_s"):
        assert len(r[k + "_runs"]) == 3 and r[k] >= 0
    for i in range(3):
        phases = sum(r[k + "_runs"][i] for k in ("write_s", "read_s", "delete_s"))
        assert phases <= r["total_s_runs"][i] * 1.001 + 1e-6, r
'
bench churn --preset transient --rounds 3 --size 10k --sync --csv "$a"
check csv '
r = rows[0]
assert r["preset"] == "transient" and r["files"] == "1" and r["size_bytes"] == "10240"
assert r["sync"] == "yes"
# the preset brings its five runs unless --runs says otherwise
assert len(r["total_s_runs"].split()) == 5, r
'

# smallwrite: four methods, call counts, speed-up of the slowest is 1
bench smallwrite --total 64k --record 32 --batch 64 --runs 1 --json "$a"
check json '
m = {r["method"].split(" ")[0]: r for r in rows}
assert list(m) == ["write-per-record", "stdio-buffered", "writev-batch", "direct-blocks"], rows
assert m["write-per-record"]["write_calls"] == 2048
assert m["writev-batch"]["write_calls"] == 32
assert m["stdio-buffered"]["write_calls"] == 1
d = m["direct-blocks"]
assert d["write_calls"] == 16 or (d["write_calls"] is None and "unsupported" in d["method"]), d
speedups = [r["speedup"] for r in rows if r["speedup"] is not None]
assert min(speedups) == 1 and all(s >= 1 for s in speedups), speedups
'

# bw: rows per block size, op and target
bench bw --size 256k --bs 4k,64k --runs 2 --csv "$a" --label B "$b"
check csv '
keys = [(r["bs"], r["op"], r["target"]) for r in rows]
assert keys == [(bs, op, t) for bs in ("4k", "64k") for op in ("write", "read")
                for t in (rows[0]["target"], "B")], keys
for r in rows:
    assert r["size_bytes"] == "262144" and float(r["mib_per_s"]) > 0
    assert len(r["mib_per_s_runs"].split()) == 2
'

# the human table: a header and one line per row, no raw lists
bench meta --sizes 0k,1k --files 10 --runs 1 "$a=A" "$b=B"
head -n 1 "$RD_TMP/out" | grep -q '^target  *size  *files  *create_per_s' ||
	fail "human header: $(head -n 1 "$RD_TMP/out")"
assert_eq "$(wc -l <"$RD_TMP/out")" 5 "lines of the human table"
! grep -q _runs "$RD_TMP/out" || fail "raw run lists in the human table"

# progress goes to stderr only when asked
bench churn --preset queue --files 5 --runs 2 --progress --json "$a"
grep -q 'run 2/2' "$RD_TMP/err" || fail "no progress lines with --progress"
check json 'assert len(rows) == 1'
echo "all subcommands ran, parsed and cleaned up"
