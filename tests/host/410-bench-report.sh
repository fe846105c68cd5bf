#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the bench report generator turns recorded fio JSON into results.json, tables and plots
. "${0%/*}/../lib/common.sh"
require_cmd python3

report=$RD_TOP/scripts/bench/report.py
out=$RD_TMP/run
cp -r "$RD_TOP/tests/host/data/bench-run" "$out"

# The fixture holds one failed run, so the generator reports it and
# exits 2; anything else is a crash.
status=0
python3 "$report" --reference disk-file "$out" >"$RD_TMP/stdout" || status=$?
assert_eq "$status" 2 "exit status with one failed run"
cmp -s "$RD_TMP/stdout" "$out/report.md" || fail "printed report differs from report.md"

# Every raw figure reaches results.json: 2 targets x 3 repeats, and the
# medians are the medians of what fio wrote.
python3 - "$out" <<'PY' || fail "results.json check failed"
import json, statistics, sys, os
folder = sys.argv[1]
res = json.load(open(os.path.join(folder, "results.json")))
ms = {(m["target"], m["job"], m["metric"]): m for m in res["measurements"]}
assert res["targets"] == ["disk-file", "shm-file"], res["targets"]
for rep_target in ("disk-file", "shm-file"):
    m = ms[(rep_target, "randread-4k-qd1-psync", "read_iops")]
    want = [json.load(open(os.path.join(folder, "raw", rep_target,
                                        "fio.rand-4k-qd1.%d.json" % r)))["jobs"][0]["read"]["iops"]
            for r in (1, 2, 3)]
    assert m["values"] == want, (m["values"], want)
    assert m["median"] == statistics.median(want)
    assert m["unit"] == "IOPS" and m["better"] == "higher"
p99 = ms[("shm-file", "lat-randwrite-4k-qd1", "write_clat_p99.99")]
assert p99["unit"] == "us" and p99["better"] == "lower" and len(p99["values"]) == 3
assert ms[("disk-file", "filecreate", "files_per_s")]["unit"] == "creates/s"
assert ms[("disk-file", "filedelete", "files_per_s")]["unit"] == "deletes/s"
# rdbench rows: labelled by their text fields without the path, one
# figure per measured number; the configuration numbers are not figures.
cr = ms[("shm-file", "size=0k fsync=no", "create_per_s")]
assert cr["tool"] == "rdbench" and cr["suite"] == "meta" and len(cr["values"]) == 3, cr
assert cr["unit"] == "/s" and cr["better"] == "higher"
tot = ms[("disk-file", "preset=transient size=700k sync=no", "total_s")]
assert tot["unit"] == "s" and tot["better"] == "lower"
assert ("disk-file", "size=0k fsync=no", "files") not in ms
assert ("disk-file", "size=0k fsync=no", "create_per_s_min") not in ms
assert ms[("disk-file", "method=writev-batch", "speedup")]["unit"] == "x"
assert len(res["failures"]) == 1 and res["failures"][0]["target"] == "readonly-file"
assert "Operation not permitted" in res["failures"][0]["why"]
print(len(res["measurements"]), "measurements")
PY

# Tables: a column per target, the median, and the ratio to the reference.
md=$out/report.md
grep -q '^### randread-4k-qd1-psync (fio rand-4k-qd1)$' "$md" || fail "no table for randread-4k-qd1-psync"
row=$(grep -A4 '^### randread-4k-qd1-psync' "$md" | grep '^| read_iops')
python3 - "$out" "$row" <<'PY' || fail "ratio in the table is wrong: $row"
import json, sys, os
res = json.load(open(os.path.join(sys.argv[1], "results.json")))
med = {m["target"]: m["median"] for m in res["measurements"]
       if m["job"] == "randread-4k-qd1-psync" and m["metric"] == "read_iops"}
want = "(%.2fx)" % (med["shm-file"] / med["disk-file"])
assert want in sys.argv[2], (want, sys.argv[2])
PY
grep -q 'readonly-file fio.verify-crc32c run 1' "$md" || fail "failed run not listed"
# 1 MiB jobs show bandwidth, not IOPS.
grep -A4 '^### seq-read-1m' "$md" | grep -q '^| read_bw (MiB/s)' || fail "seq-read-1m shows no bandwidth"
if grep -A4 '^### seq-read-1m' "$md" | grep -q '^| read_iops'; then
	fail "seq-read-1m shows IOPS"
fi

# Plots: a gnuplot script per main comparison, rendered when gnuplot is here.
for p in iops-4k bandwidth-1m latency-qd1 metadata rdbench-rates; do
	[ -s "$out/plots/$p.gp" ] || fail "no plots/$p.gp"
	if command -v gnuplot >/dev/null; then
		[ "$(head -c 4 "$out/plots/$p.png" | od -An -c | tr -d ' ')" = '211PNG' ] ||
			fail "plots/$p.png is not a PNG"
		grep -q "!\[$p\](plots/$p.png)" "$md" || fail "report.md does not show $p.png"
	fi
done

# The fio fixtures hold only what the report reads (tests/host/data/README.md):
# one that grew back whole would hide a field the report starts to need.
for f in "$RD_TOP"/tests/host/data/bench-run/raw/*/fio.*.json; do
	"$RD_TOP/tests/host/data/prune-fio-json.py" <"$f" >"$RD_TMP/pruned.json"
	cmp -s "$RD_TMP/pruned.json" "$f" ||
		fail "${f#"$RD_TOP"/} holds more than the report reads: run tests/host/data/prune-fio-json.py on it"
done

# An empty folder is an error, not an empty report.
mkdir "$RD_TMP/empty"
expect_fail python3 "$report" --quiet "$RD_TMP/empty"
echo "report generator ok"
