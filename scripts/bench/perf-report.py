#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the ratios of `make bench-perf` from the perf.tsv files it wrote.

usage: scripts/bench/perf-report.py DIR...   (one DIR per kernel booted)

Each figure is the median over the repeats of one boot; a ratio compares
medians of the same boot only. Beside it, the ratio is also taken within
each repeat, where the two figures were measured seconds apart: the median
of those, a 95% confidence interval for it that assumes nothing about their
distribution (from six repeats on), and in how many repeats ramdisk was
ahead. Writes DIR/perf.md too. Exit status 1 when a figure a ratio needs
is missing (a run failed), else 0: whether a target is met is reported,
not enforced, as this is a benchmark.
"""
import csv
import os
import statistics
import subprocess
import sys
from pathlib import Path

import benchtab

# (label, ours, theirs, goal, kind): each side a (target, job); kind "higher"
# means ours/theirs >= goal, "lower" ours/theirs <= goal, and "latency"
# theirs/ours >= goal (a latency: lower is better, the ratio is a speed-up)
RATIOS = [
    ("4k randread QD1 psync vs brd", ("ramdisk", "randread-4k-qd1-psync"),
     ("brd", "randread-4k-qd1-psync"), 1.15, "higher"),
    ("4k randwrite QD1 psync vs brd", ("ramdisk", "randwrite-4k-qd1-psync"),
     ("brd", "randwrite-4k-qd1-psync"), 1.15, "higher"),
    ("4k randread QD16 io_uring vs brd", ("ramdisk", "randread-4k-qd16-io_uring"),
     ("brd", "randread-4k-qd16-io_uring"), 1.15, "higher"),
    ("4k randwrite QD16 io_uring vs brd", ("ramdisk", "randwrite-4k-qd16-io_uring"),
     ("brd", "randwrite-4k-qd16-io_uring"), 1.15, "higher"),
    ("4k first-touch writes vs brd", ("ramdisk", "fresh-write-4k"),
     ("brd", "fresh-write-4k"), 1.3, "higher"),
    ("1 MiB seq write vs brd", ("ramdisk", "seq-write-1m"), ("brd", "seq-write-1m"), 1.2, "higher"),
    ("1 MiB seq read vs brd", ("ramdisk", "seq-read-1m"), ("brd", "seq-read-1m"), 1.2, "higher"),
    ("1 MiB seq write vs memcpy", ("ramdisk", "seq-write-1m"), ("memcpy", "memcpy-1m"), 0.8, "higher"),
    ("1 MiB seq read vs memcpy", ("ramdisk", "seq-read-1m"), ("memcpy", "memcpy-1m"), 0.8, "higher"),
    ("4k randread QD1 vs null_blk (no data)", ("ramdisk", "randread-4k-qd1-psync"),
     ("null_blk", "randread-4k-qd1-psync"), 0.9, "higher"),
    ("4k randread numjobs=2 vs numjobs=1", ("ramdisk", "randread-4k-numjobs2"),
     ("ramdisk", "randread-4k-numjobs1"), 1.9, "higher"),
    ("index bytes per GiB vs brd (lower is better)", ("ramdisk", "index-bytes-per-gib"),
     ("brd", "index-bytes-per-gib"), 1.0, "lower"),
    # Median completion latencies: the same comparisons, less disturbed
    # by a busy host.
    ("4k randread QD1 p50 latency, brd/ours", ("ramdisk", "randread-4k-qd1-psync-p50"),
     ("brd", "randread-4k-qd1-psync-p50"), 1.15, "latency"),
    ("4k randwrite QD1 p50 latency, brd/ours", ("ramdisk", "randwrite-4k-qd1-psync-p50"),
     ("brd", "randwrite-4k-qd1-psync-p50"), 1.15, "latency"),
    ("4k first-touch p50 latency, brd/ours", ("ramdisk", "fresh-write-4k-p50"),
     ("brd", "fresh-write-4k-p50"), 1.3, "latency"),
    ("1 MiB seq write p50 latency, brd/ours", ("ramdisk", "seq-write-1m-p50"),
     ("brd", "seq-write-1m-p50"), 1.2, "latency"),
    ("1 MiB seq read p50 latency, brd/ours", ("ramdisk", "seq-read-1m-p50"),
     ("brd", "seq-read-1m-p50"), 1.2, "latency"),
    ("4k randread QD1 p50 latency, null_blk/ours", ("ramdisk", "randread-4k-qd1-psync-p50"),
     ("null_blk", "randread-4k-qd1-psync-p50"), 0.9, "latency"),
]


def in_mib(value, unit):
    return value / 1024 if unit == "KiB/s" else value


def load(directory):
    by_rep = {}
    with open(directory / "perf.tsv", newline="") as f:
        for rep, target, job, value, unit in csv.reader(f, delimiter="\t"):
            by_rep.setdefault((target, job), {})[rep] = in_mib(float(value), unit)
    medians = {key: statistics.median(values.values()) for key, values in by_rep.items()}
    return medians, by_rep


# The sign test's interval is computed in C only (userspace/lib/stats.c,
# unit-tested there): rdbench pair writes it into its JSON, which
# pair-report.py only reads, and this report, whose per-repeat ratios come
# from fio and never pass through rdbench, asks `rdbench median` for it.
# One implementation, so the two reports cannot disagree on where the
# interval's ends lie; the cost is that this report needs rdbench built
# (make userspace; scripts/bench/run builds it), or $RDBENCH.
RDBENCH = os.environ.get("RDBENCH") or str(Path(__file__).resolve().parents[2] / "build/bin/rdbench")


def median_interval(values):
    """The sign test's 95% interval for the median of the values, as
    (low, high), or None when there are too few values (under six) for
    any two of them to bound it that surely."""
    if not os.access(RDBENCH, os.X_OK):
        raise OSError(f"{RDBENCH} is missing (make userspace)")
    r = subprocess.run([RDBENCH, "median"], input="\n".join(map(repr, values)) + "\n",
                       capture_output=True, text=True, check=False)
    if r.returncode:
        raise ValueError(f"rdbench median: {r.stderr.strip()}")
    _, low, high = r.stdout.split()
    return None if low == "-" else (float(low), float(high))


def per_repeat(by_rep, ours, theirs, kind):
    """Ratios of the figures each repeat measured on both sides, oriented so
    that above 1 means ramdisk was ahead. Nothing for memory ("lower"): the
    slab's figure of one repeat depends on what earlier repeats freed, so
    only the median across repeats means anything."""
    if kind == "lower":
        return []
    a, b = by_rep.get(ours, {}), by_rep.get(theirs, {})
    ratios = []
    for rep in a.keys() & b.keys():
        if a[rep] and b[rep]:
            ratios.append(b[rep] / a[rep] if kind == "latency" else a[rep] / b[rep])
    return ratios


def per_repeat_cells(ratios):
    if not ratios:
        return "-", "-"
    cell = f"{statistics.median(ratios):.2f}x"
    interval = median_interval(ratios)
    if interval:
        cell += f" [{interval[0]:.2f}, {interval[1]:.2f}]"
    return cell, f"{sum(r > 1 for r in ratios)}/{len(ratios)}"


def report(directory):
    medians, by_rep = load(directory)
    reps = max((len(v) for v in by_rep.values()), default=0)
    rows = []
    missing = False
    for label, ours, theirs, goal, kind in RATIOS:
        if ours not in medians or theirs not in medians or not medians[ours] \
                or not medians[theirs]:
            rows.append([label, "", "", "missing", "", "", goal, ""])
            missing = True
            continue
        if kind == "latency":
            ratio = medians[theirs] / medians[ours]
        else:
            ratio = medians[ours] / medians[theirs]
        met = ratio <= goal if kind == "lower" else ratio >= goal
        within, ahead = per_repeat_cells(per_repeat(by_rep, ours, theirs, kind))
        rows.append([label, f"{medians[ours]:.0f}", f"{medians[theirs]:.0f}", f"{ratio:.2f}x",
                     within, ahead, f"{'≤' if kind == 'lower' else '≥'}{goal}",
                     "yes" if met else "no"])
    lines = [f"### {directory.name} (median of {reps} runs per figure)", ""] + benchtab.table(
        ["measure", "ramdisk", "other", "ratio", "per repeat [95% CI]", "ahead", "goal", "met"],
        "lrrrrrrl", rows)
    lines += ["", "Units: IOPS for 4k jobs, MiB/s for 1 MiB jobs and memcpy, bytes for index "
              "memory, ns for latencies (the median over repeats of each run's median "
              "completion latency). Ratios compare medians measured in the same VM boot; \"per "
              "repeat\" is the median of the ratios within each repeat, with the sign test's "
              "interval, and \"ahead\" counts the repeats ramdisk led.", ""]
    benchtab.write(directory / "perf.md", lines)
    return missing


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    missing = False
    for arg in argv[1:]:
        try:
            missing |= report(Path(arg))
        except (OSError, ValueError) as e:
            print(f"perf-report: {arg}: {e}", file=sys.stderr)
            missing = True
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
