#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the tables of `make bench-pair` from the JSON files it wrote.

usage: scripts/bench/pair-report.py DIR...   (one DIR per kernel booted)

For each job, the first target (ramdisk) against each other target: every
run's median per-round ratio with its 95% interval, in run order. Writes
DIR/pair.md too. Exit status 1 when a directory holds no run, else 0.
"""
import json
import re
import sys
from pathlib import Path

import benchtab

JOB_ORDER = ["randread-4k", "randwrite-4k", "randread-4k-qd16", "randwrite-4k-qd16",
             "randread-1m", "randwrite-1m"]


def load(directory):
    """{job: {other target: [(ratio, low, high, ahead, rounds), ...]}}, first target"""
    runs, first = {}, None
    files = sorted(directory.glob("pair-*-*.json"),
                   key=lambda p: int(re.search(r"-(\d+)\.json$", p.name).group(1)))
    for path in files:
        job = re.match(r"pair-(.*)-\d+\.json$", path.name).group(1)
        rows = json.loads(path.read_text())
        first = rows[0]["target"]
        for r in rows[1:]:
            runs.setdefault(job, {}).setdefault(r["target"], []).append(
                (r["first_vs_this"], r["ci95_low"], r["ci95_high"], r["first_ahead"],
                 len(r["iops_runs"])))
    return runs, first


def cell(run):
    ratio, low, high, ahead, rounds = run
    interval = f" [{low:.3f}, {high:.3f}]" if low is not None else ""
    return f"{ratio:.3f}{interval} {ahead}/{rounds}"


def report(directory):
    runs, first = load(directory)
    if not runs:
        print(f"pair-report: {directory}: no pair-JOB-RUN.json", file=sys.stderr)
        return False
    others = sorted({o for job in runs.values() for o in job})
    rows = [[job] + [" · ".join(cell(run) for run in runs[job].get(o, [])) for o in others]
            for job in sorted(runs, key=lambda j: (JOB_ORDER + [j]).index(j))]
    lines = [f"### {directory.name}", ""] + benchtab.table(
        ["job"] + [f"{first}/{o}" for o in others], "l" * (len(others) + 1), rows)
    lines += ["", f"Each cell: every run's median of the per-round ratios {first}/other "
              "(IOPS; above 1, ramdisk faster), the sign test's 95% interval for it, and "
              "the rounds ramdisk led.", ""]
    benchtab.write(directory / "pair.md", lines)
    return True


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    ok = True
    for arg in argv[1:]:
        try:
            ok &= report(Path(arg))
        except (OSError, ValueError, KeyError, AttributeError) as e:
            print(f"pair-report: {arg}: {e}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
