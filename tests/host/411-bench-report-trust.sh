#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the bench report gives each target one colour in every plot, min-to-max error bars from the repeats, a dagger on figures whose repeats spread more than 10%, and opens with ramdisk against the disk and tmpfs per file system
. "${0%/*}/../lib/common.sh"
require_cmd python3

report=$RD_TOP/scripts/bench/report.py
recorded=$RD_TOP/tests/host/data/bench-run/raw/disk-file

# A results folder with known repeats, in the format of the recorded
# runs: fio documents copied from tests/host/data with their figures
# replaced, rdbench rows written out. Target names are the suite's.
make_run() {
	python3 - "$recorded" "$1" "$2" <<'PY'
import json, os, sys
recorded, out, targets = sys.argv[1], sys.argv[2], sys.argv[3].split()
REPS = (1, 2, 3)

# (job, direction) -> target -> one value per repeat
IOPS = {
    # randread: ramdisk within 10% by (max - min) / median (11000/110500),
    # though not by (max - min) / min; brd just above (11000/105000)
    ("randread-4k-qd1-psync", "read"): {
        "ramdisk": [100000, 110500, 111000], "brd": [100000, 111000, 105000],
        "tmpfs": [50000, 50500, 51000], "disk": [2000, 2100, 2050],
        "mystery": [70000, 70000, 70000]},
    ("randwrite-4k-qd1-psync", "write"): {
        "ramdisk": [80000, 100000, 90000], "brd": [90000, 91000, 92000],
        "tmpfs": [40000, 40000, 40000], "disk": [1000, 1000, 1000],
        "mystery": [60000, 61000, 62000]},
}
BW_MIB = {
    ("seq-write-1m", "write"): {"ramdisk": [1000, 1100, 1200], "brd": [900, 900, 900],
                                "tmpfs": [300, 320, 310], "disk": [100, 150, 120],
                                "mystery": [500, 500, 500]},
    ("seq-read-1m", "read"): {"ramdisk": [2000, 2000, 2000], "brd": [1500, 1600, 1550],
                              "tmpfs": [700, 700, 700], "disk": [200, 200, 200],
                              "mystery": [800, 800, 800]},
}
FILES = {  # fio file engines on the mounts
    "filecreate": {"ramdisk-ext4": [3000] * 3, "brd-ext4": [3100] * 3, "disk-ext4": [1500] * 3,
                   "ramdisk-xfs": [3000, 3000, 3000], "tmpfs": [6000] * 3},
    "filestat": {"ramdisk-ext4": [9000] * 3, "brd-ext4": [9000] * 3, "disk-ext4": [9000] * 3,
                 "ramdisk-xfs": [9000] * 3, "tmpfs": [9000] * 3},
    "filedelete": {"ramdisk-ext4": [2000] * 3, "brd-ext4": [2000] * 3, "disk-ext4": [1000] * 3,
                   "ramdisk-xfs": [4000] * 3, "tmpfs": [5000] * 3},
}
# rdbench on the mounts: ramdisk-xfs has none, so its summary falls back
# to fio's file engines; there is no disk-xfs at all.
META = {  # target -> (create_per_s, delete_per_s) per repeat, empty files
    "ramdisk-ext4": ([10000] * 3, [20000, 30000, 25000]),
    "brd-ext4": ([11000] * 3, [26000] * 3),
    "disk-ext4": ([5000] * 3, [12500] * 3),
    "tmpfs": ([40000] * 3, [50000] * 3),
}
QUEUE_S = {"ramdisk-ext4": [2.0] * 3, "brd-ext4": [2.2] * 3, "disk-ext4": [3.0] * 3,
           "tmpfs": [0.5] * 3}
SMALLWRITE_MIB = {"ramdisk-ext4": [8.0] * 3, "brd-ext4": [8.0] * 3, "disk-ext4": [4.0] * 3,
                  "tmpfs": [16.0] * 3}


def save(target, name, doc):
    os.makedirs(os.path.join(out, "raw", target), exist_ok=True)
    with open(os.path.join(out, "raw", target, name), "w") as f:
        json.dump(doc, f, indent=1)


def fio(target, suite, rep, figures, field):
    doc = json.load(open(os.path.join(recorded, "fio.%s.%d.json" % (suite, rep))))
    for (job, direction), per in figures.items():
        if target not in per:
            return False
        j = next(j for j in doc["jobs"] if j["jobname"] == job)
        value = per[target][rep - 1]
        j[direction][field] = value * 2 ** 20 if field == "bw_bytes" else value
    save(target, "fio.%s.%d.json" % (suite, rep), doc)
    return True


def rdbench(target, suite, rep, rows):
    for row in rows:
        row.update({"target": "/mnt/" + suite, "path": "/mnt/" + suite})
        for key in [k for k in row if k.endswith("_runs")]:
            base = key[:-5]
            row[base] = row[base + "_min"] = row[base + "_max"] = row[key][0]
    save(target, "rdbench.%s.%d.json" % (suite, rep), rows)


for t in targets:
    for rep in REPS:
        i = rep - 1
        if fio(t, "rand-4k-qd1", rep, IOPS, "iops"):
            fio(t, "seq-1m", rep, BW_MIB, "bw_bytes")
            # latency percentiles as recorded: for the line plot's colours
            save(t, "fio.lat-4k-qd1.%d.json" % rep,
                 json.load(open(os.path.join(recorded, "fio.lat-4k-qd1.%d.json" % rep))))
        if t in FILES["filecreate"]:
            fio(t, "meta-files", rep, {(job, "read"): per for job, per in FILES.items()}, "iops")
        if t in META:
            create, delete = META[t]
            rdbench(t, "meta", rep, [
                {"size": "0k", "size_bytes": 0, "files": 500, "threads": 1, "fsync": "no",
                 "create_per_s_runs": [create[i]], "delete_per_s_runs": [delete[i]]},
                {"size": "4k", "size_bytes": 4096, "files": 500, "threads": 1, "fsync": "no",
                 "create_per_s_runs": [1.0], "delete_per_s_runs": [1.0]}])
            rdbench(t, "churn-queue", rep, [
                {"preset": "queue", "files": 1000, "size": "4004", "size_bytes": 4004,
                 "rounds": 1, "sync": "no", "write_s_runs": [QUEUE_S[t][i] / 2],
                 "total_s_runs": [QUEUE_S[t][i]]}])
            rdbench(t, "smallwrite", rep, [
                {"method": "write-per-record", "total_bytes": 1048576, "record_bytes": 32,
                 "seconds_runs": [1 / SMALLWRITE_MIB[t][i]], "mib_per_s": SMALLWRITE_MIB[t][i],
                 "speedup": 1}])
json.dump({"date": "2026-12-05", "kernel": "crafted", "targets": targets, "reference": "brd"},
          open(os.path.join(out, "meta.json"), "w"))
PY
}

# plots FOLDER: the colour of each target in each plot, and every bar's
# and point's median, min and max, read back from the gnuplot scripts.
# Prints JSON {"colours": {plot: {target: colour}}, "bars": [[plot,
# label, target, median, min, max]], "colour_errors": [...],
# "bar_errors": [...]}.
read_plots() {
	python3 - "$1" <<'PY'
import json, os, re, shlex, sys
folder = os.path.join(sys.argv[1], "plots")
colours, bars, errors, bar_errors = {}, [], [], []
for name in sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".gp")):
    text = open(os.path.join(folder, name + ".gp")).read()
    blocks = dict(re.findall(r"^\$(\w+) << EOD\n(.*?)^EOD$", text, re.S | re.M))
    plot = text[text.index("\nplot ") + 6:].replace("\\\n", " ")
    per = colours[name] = {}
    for clause in re.split(r",\s+(?=\$)", plot.strip()):
        m = re.match(r'\$(\w+) using ([\d:]+)(?::xtic\(\d\))? .*?title ("[^"]*"|\S+)', clause)
        block, using, title = m.groups()
        m = re.search(r' linecolor rgb "(#[0-9a-f]{6})"', clause)
        colour = m.group(1) if m else None
        if not colour:
            errors.append("%s: no colour in: %s" % (name, clause))
        cols = [int(c) for c in using.split(":")]
        rows = [shlex.split(l) for l in blocks[block].splitlines()]
        if "histogram" in text:
            if "set style histogram errorbars" not in text or len(cols) != 3:
                bar_errors.append("%s: bar without min and max columns: %s" % (name, clause))
                continue
            header = rows[0]
            target = header[cols[0] - 1]
            if header[cols[1] - 1] != target + " min" or header[cols[2] - 1] != target + " max":
                bar_errors.append("%s: columns %s of %s are not its min and max" % (name, using, target))
            for row in rows[1:]:
                bars.append([name, row[0], target] + [float(row[c - 1]) for c in cols])
        else:
            if len(cols) != 4 or "yerrorlines" not in clause:
                bar_errors.append("%s: points without min and max: %s" % (name, clause))
                continue
            target, kind = shlex.split(title)[0].rsplit(" ", 1)
            for row in rows:
                bars.append([name, "%s %s" % (kind, row[-1]), target]
                            + [float(row[c - 1]) for c in cols[1:]])
        if per.get(target, colour) != colour:
            errors.append("%s: %s in two colours" % (name, target))
        per[target] = colour
json.dump({"colours": colours, "bars": bars, "colour_errors": errors,
           "bar_errors": bar_errors}, sys.stdout)
PY
}

all="ramdisk brd tmpfs disk mystery ramdisk-ext4 brd-ext4 disk-ext4 ramdisk-xfs"
run=$RD_TMP/trust
make_run "$run" "$all"
status=0
python3 "$report" --quiet "$run" || status=$?
assert_eq "$status" 0 "exit status on the crafted run"
read_plots "$run" >"$RD_TMP/plots.json"
# Without ramdisk: the colours of those left must not move.
few=$RD_TMP/few
make_run "$few" "tmpfs mystery"
python3 "$report" --quiet "$few"
read_plots "$few" >"$RD_TMP/few.json"

# One colour per target across every plot, no colour shared, and the
# same colours in a run that lacks most targets.
python3 - "$RD_TMP/plots.json" "$RD_TMP/few.json" "$all" <<'PY' || fail "plot colours"
import json, sys
got, few, targets = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3].split()
assert not got["colour_errors"], got["colour_errors"]
assert not few["colour_errors"], few["colour_errors"]
def one_colour_each(colours):
    seen = {}
    for plot, per in colours.items():
        for t, c in per.items():
            assert seen.setdefault(t, c) == c, "%s is %s in %s but %s elsewhere" % (t, c, plot, seen[t])
    by_colour = {}
    for t, c in seen.items():
        by_colour.setdefault(c, []).append(t)
    shared = [ts for ts in by_colour.values() if len(ts) > 1]
    assert not shared, "targets sharing a colour: %s" % shared
    return seen
seen = one_colour_each(got["colours"])
assert sorted(seen) == sorted(targets), (sorted(seen), targets)
few_seen = one_colour_each(few["colours"])
for t in few_seen:
    assert few_seen[t] == seen[t], "%s: %s with ramdisk in the run, %s without" % (t, seen[t], few_seen[t])
print("colours:", seen)
PY

# Every bar and point: the median of the repeats, min and max as error bar.
python3 - "$RD_TMP/plots.json" "$run" <<'PY' || fail "error bars do not match the repeats"
import json, os, sys
got = json.load(open(sys.argv[1]))
assert not got["bar_errors"], got["bar_errors"]
res = json.load(open(os.path.join(sys.argv[2], "results.json")))
def labels(plot, m):
    """The row labels a measurement can take in a plot."""
    if plot == "iops-4k" and m["metric"].endswith("_iops"):
        return {m["job"], m["job"] + " " + m["metric"].split("_")[0]}
    if plot == "bandwidth-1m" and m["metric"].endswith("_bw"):
        return {m["job"]}
    if plot == "metadata" and m["metric"] == "files_per_s":
        return {m["job"]}
    if plot == "rdbench-rates" and m["unit"] == "/s":
        return {"%s %s %s" % (m["suite"], m["job"], m["metric"])}
    if plot == "latency-qd1" and "_clat_p" in m["metric"]:
        kind, pct = m["metric"].split("_clat_")
        return {"%s %s" % (kind, pct)}
    return set()
close = lambda a, b: abs(a - b) <= 1e-5 * max(abs(a), abs(b), 1e-9)
checked = 0
for plot, label, target, med, low, high in got["bars"]:
    ms = [m for m in res["measurements"] if m["target"] == target and label in labels(plot, m)]
    if med != med:  # NaN: this target has no such figure
        assert not ms, (plot, label, target)
        continue
    assert len(ms) == 1, (plot, label, target, len(ms))
    v = ms[0]["values"]
    want = (ms[0]["median"], min(v), max(v))
    assert all(close(a, b) for a, b in zip((med, low, high), want)), (plot, label, target, (med, low, high), v)
    checked += 1
# and against what the crafted input says, for one bar
row = [b for b in got["bars"] if b[:3] == ["iops-4k", "randwrite-4k-qd1-psync", "ramdisk"]]
assert row and row[0][3:] == [90000, 80000, 100000], row
assert {b[0] for b in got["bars"]} >= {"iops-4k", "bandwidth-1m", "metadata", "rdbench-rates", "latency-qd1"}
print(checked, "bars and points match their repeats")
PY

# The spread marker: on a figure whose repeats spread more than 10% of
# the median, not on one within it, with the definition under the table.
md=$run/report.md
cell() { # cell JOB METRIC TARGET: that table cell of report.md
	python3 - "$md" "$@" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
job, metric, target = sys.argv[2:]
at = next(i for i, l in enumerate(lines) if l.startswith("### %s (" % job))
header = [c.strip() for c in lines[at + 2].strip("|").split("|")]
row = next(l for l in lines[at + 4:] if l.startswith("| %s " % metric))
print([c.strip() for c in row.strip("|").split("|")][header.index(target)])
PY
}
mark=$(printf '\xe2\x80\xa0')
note="$mark the repeats spread more than 10%: (max - min) / median > 0.10"
c=$(cell randread-4k-qd1-psync read_iops ramdisk)
[[ $c != *"$mark"* ]] || fail "ramdisk randread (spread 11000/110500) is marked: $c"
c=$(cell randread-4k-qd1-psync read_iops brd)
[[ $c == *"$mark" ]] || fail "brd randread (spread 11000/105000) is not marked: $c"
c=$(cell randwrite-4k-qd1-psync write_iops ramdisk)
[[ $c == *"$mark" ]] || fail "ramdisk randwrite (80k to 100k) is not marked: $c"
c=$(cell randwrite-4k-qd1-psync write_iops brd)
[[ $c != *"$mark"* ]] || fail "brd randwrite (90k to 92k) is marked: $c"
grep -A6 '^### randread-4k-qd1-psync' "$md" | grep -qxF "$note" ||
	fail "no footnote under the randread table"
if grep -A6 '^### seq-read-1m' "$md" | grep -qF "$mark"; then
	fail "a mark or footnote under seq-read-1m, where no repeats spread"
fi
grep -qF "$mark marks a figure whose repeats spread more than 10% of its median: (max - min) / median > 0.10" "$md" ||
	fail "the report does not define the marker"

# The summary: the report's first table, ramdisk against disk and tmpfs
# per file system, "-" where a target is missing.
python3 - "$md" <<'PY' || fail "summary table"
import sys
lines = open(sys.argv[1]).read().splitlines()
first = next(i for i, l in enumerate(lines) if l.startswith("|"))
assert lines[first] == "| file system | workload | ramdisk | vs disk | vs tmpfs |", lines[first]
assert lines[0] == "# Benchmark results" and first < 10, first
assert not any(l.startswith("### ") for l in lines[:first]), "detail before the summary"
rows = []
for l in lines[first + 2:]:
    if not l.startswith("|"):
        break
    rows.append([c.strip() for c in l.strip("|").split("|")])
got = {(r[0], r[1].split(",")[0].split(" (")[0]): r[2:] for r in rows}
d = "\u2020"
want = {
    ("ext4", "file creates/s"): ["10k", "2.00x", "0.25x"],
    ("ext4", "file deletes/s"): ["25k " + d, "2.00x " + d, "0.50x " + d],
    ("ext4", "queue of small files"): ["2", "1.50x", "0.25x"],
    ("ext4", "32-byte writes"): ["8", "2.00x", "0.50x"],
    ("xfs", "file creates/s"): ["3000", "-", "0.50x"],
    ("xfs", "file deletes/s"): ["4000", "-", "0.80x"],
}
assert got == want, "\n%s\n%s" % (got, want)
assert "fio filecreate" in [r for r in rows if r[0] == "xfs"][0][1], rows
PY

# No ramdisk on a file system: the summary says so in one line.
sed -n '/^## Summary/,/^## Run/p' "$few/report.md" >"$RD_TMP/summary"
grep -qF 'No file-system workload figures for `ramdisk` in this run' "$RD_TMP/summary" ||
	fail "no line saying the summary is empty"
if grep -q '^|' "$RD_TMP/summary"; then
	fail "a summary table without ramdisk figures"
fi
echo "report trust checks ok"
