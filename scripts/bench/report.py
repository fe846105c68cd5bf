#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a bench results folder into results.json, report.md and plots.

The folder holds what scripts/bench/suite wrote:

  meta.json                        the run: kernel, date, targets in order
  raw/TARGET/TOOL.NAME.REP.json    one tool run (fio JSON or rdbench --json)
  raw/TARGET/TOOL.NAME.REP.failed  a run that failed, with its stderr

Every figure of every run goes into results.json; report.md opens with
a summary (ramdisk against the disk and tmpfs on the seed workloads, per
file system), then holds one table per job with the median of the
repeats for each target and its ratio to the reference target (brd
unless --reference says otherwise), a dagger on every figure whose
repeats spread more than 10%; plots/*.gp are gnuplot scripts for the
main comparisons, each target in its own fixed colour and each bar or
point with an error bar from the smallest to the largest repeat,
rendered to PNG when gnuplot is installed. Standard library only.
"""

import argparse
import colorsys
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import zlib

import benchtab

RAW_NAME = re.compile(r"^(?P<tool>[a-z]+)\.(?P<name>[^.]+)\.(?P<rep>\d+)\.(?P<ext>json|failed)$")

# fio file engines report their operations as reads; name them for what
# they count.
FILE_ENGINE_UNITS = {
    "filecreate": "creates/s",
    "filestat": "stats/s",
    "filedelete": "deletes/s",
}


# A figure whose repeats spread more than this, (max - min) / median,
# gets SPREAD_MARK in the tables: a QUICK=1 run on a busy host once showed
# ramdisk at 0.73x brd with nothing to say that the repeats disagreed.
SPREAD_LIMIT = 0.10
SPREAD_MARK = "\u2020"  # a dagger, explained under every table that has one
SPREAD_NOTE = ("%s the repeats spread more than %d%%: (max - min) / median > %.2f"
               % (SPREAD_MARK, round(SPREAD_LIMIT * 100), SPREAD_LIMIT))

# One colour per target, the same in every plot and every report, so a
# reader learns it once: gnuplot's own colours go by a line's place in the
# plot, which made ramdisk purple in one plot and green in the next and
# gave tmpfs ramdisk's colour where ramdisk was missing. The kinds are
# those of scripts/bench/targets.sh.
TARGET_COLOURS = {
    "ramdisk": "#1f5fbf",   # blue: the subject
    "brd": "#e07b00",       # orange: the reference
    "null_blk": "#6e6e6e",  # grey: no data at all
    "zram": "#8e44ad",      # purple
    "tmpfs": "#2e9e44",     # green
    "disk": "#b03a2e",      # brick red
}
# Other names for the same kinds: null_blk's disks are nullbN.
TARGET_ALIASES = {"nullb": "null_blk"}
# A file system on a block target (ramdisk-ext4, ...) is a shade of the
# target's colour: the family shows, and the file systems stay apart.
FS_SHADES = {"ext2": (1.0, 0.5), "xfs": (1.0, 0.25), "ext4": (0.0, 0.4)}


def mix(colour, toward, share):
    """colour moved share of the way toward white (1.0) or black (0.0)."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#%02x%02x%02x" % tuple(round(c + (toward * 255 - c) * share) for c in rgb)


def known_colours():
    """{target name: colour} for every name with a fixed colour."""
    known = {}
    for kind, colour in list(TARGET_COLOURS.items()) + [
            (alias, TARGET_COLOURS[kind]) for alias, kind in TARGET_ALIASES.items()]:
        known[kind] = colour
        for fs, (toward, share) in FS_SHADES.items():
            known["%s-%s" % (kind, fs)] = mix(colour, toward, share)
    return known


KNOWN_COLOURS = known_colours()


# Strong, dark and pale tones for names without a fixed colour: the fixed
# palette leaves few hues free at any one tone.
FALLBACK_TONES = ((0.85, 0.8), (0.75, 0.5), (0.5, 0.9))


def rgb_distance(a, b):
    return sum((int(a[i:i + 2], 16) - int(b[i:i + 2], 16)) ** 2 for i in (1, 3, 5)) ** 0.5


def fallback_colour(name, taken):
    """A colour for a name without a fixed one: a hue from a checksum of
    the name (Python's hash() changes from run to run), stepped on until it
    stands apart from every fixed colour and every colour taken already."""
    start = zlib.crc32(name.encode()) / 2 ** 32
    # Ask for clearly different first, settle for merely different.
    for apart in (100, 70, 40, 1):
        for step in range(360):
            hue = (start + step * 0.381966) % 1.0
            saturation, value = FALLBACK_TONES[step % len(FALLBACK_TONES)]
            colour = "#%02x%02x%02x" % tuple(
                round(c * 255) for c in colorsys.hsv_to_rgb(hue, saturation, value))
            if all(rgb_distance(colour, t) >= apart for t in taken):
                return colour
    return "#000000"


def target_colours(targets):
    """{target: colour} for one report: the fixed colour of each known
    name, then a fallback for the others that reuses no fixed colour and
    no colour of this report."""
    colours = {}
    for t in targets:
        if t in KNOWN_COLOURS and KNOWN_COLOURS[t] not in colours.values():
            colours[t] = KNOWN_COLOURS[t]
    taken = set(KNOWN_COLOURS.values())
    for t in targets:
        if t not in colours:
            colours[t] = fallback_colour(t, taken | set(colours.values()))
    return colours


class Measurement:
    """One figure (a job's metric) on one target, over the repeats."""

    def __init__(self, tool, suite, job, metric, unit, better, target):
        self.tool = tool
        self.suite = suite
        self.job = job
        self.metric = metric
        self.unit = unit
        self.better = better
        self.target = target
        self.values = []

    def median(self):
        return statistics.median(self.values) if self.values else None

    def low(self):
        return min(self.values) if self.values else None

    def high(self):
        return max(self.values) if self.values else None

    def spread(self):
        """(max - min) / median of the repeats: how far they disagree, as a
        share of the figure the tables show. None with fewer than two
        repeats or a median of zero, where it says nothing."""
        med = self.median()
        if len(self.values) < 2 or not med:
            return None
        return (self.high() - self.low()) / abs(med)

    def spread_out(self):
        """Whether the repeats disagree by more than SPREAD_LIMIT: a busy
        host, not the target, may have made the figure."""
        spread = self.spread()
        return spread is not None and spread > SPREAD_LIMIT

    def as_dict(self):
        return {
            "tool": self.tool,
            "suite": self.suite,
            "job": self.job,
            "metric": self.metric,
            "unit": self.unit,
            "better": self.better,
            "target": self.target,
            "values": self.values,
            "median": self.median(),
            "min": self.low(),
            "max": self.high(),
            "spread": self.spread(),
        }


def parse_size(text):
    """fio size strings such as 4k, 1M, 64KiB, 4096 -> bytes."""
    m = re.match(r"^\s*(\d+)\s*([kmgt]?)(i?b)?\s*$", str(text), re.I)
    if not m:
        return None
    return int(m.group(1)) * 1024 ** "_kmgt".index(m.group(2).lower() or "_")


def job_option(job, doc, name):
    opts = job.get("job options", {})
    if name in opts:
        return opts[name]
    return doc.get("global options", {}).get(name)


def fio_metrics(job, doc):
    """Yield (metric, unit, better, value) for one job of a fio run."""
    engine = job_option(job, doc, "ioengine") or ""
    if engine in FILE_ENGINE_UNITS:
        yield "files_per_s", FILE_ENGINE_UNITS[engine], "higher", job["read"]["iops"]
        return
    bs = parse_size(job_option(job, doc, "bs") or "4k") or 4096
    percentiles = job_option(job, doc, "percentile_list") is not None
    for direction in ("read", "write"):
        d = job.get(direction, {})
        if not d.get("io_bytes"):
            continue
        yield direction + "_iops", "IOPS", "higher", d["iops"]
        yield direction + "_bw", "MiB/s", "higher", d["bw_bytes"] / 2 ** 20
        clat = d.get("clat_ns", {})
        for pct, ns in sorted(clat.get("percentile", {}).items(), key=lambda kv: float(kv[0])):
            if percentiles:
                yield ("%s_clat_p%s" % (direction, pct.rstrip("0").rstrip(".")),
                       "us", "lower", ns / 1000.0)


def fio_jobs(doc):
    """The per-job entries of a fio JSON document, standalone or --client."""
    if "client_stats" in doc:
        return [j for j in doc["client_stats"] if j.get("jobname") != "All clients"]
    return doc.get("jobs", [])


# rdbench row fields that name where it ran, not what it measured: they
# differ between runs and would split one measurement into several.
RDBENCH_PLACE = ("target", "path")


def rdbench_rows(doc):
    """rdbench --json: an array of row objects, one per measured case.
    Yields (label, metric, value): the label joins the row's text fields
    (size=0k fsync=no); the metrics are the measured numbers, those with a
    NAME_runs list beside them, plus rates and speed-ups derived from them."""
    rows = doc.get("rows", []) if isinstance(doc, dict) else doc
    for row in rows:
        if not isinstance(row, dict):
            continue
        label = " ".join("%s=%s" % (k, v) for k, v in row.items()
                         if isinstance(v, str) and k not in RDBENCH_PLACE)
        for key, value in row.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                continue
            if key + "_runs" in row or re.search(r"(_per_s|speedup)$", key):
                yield label or "all", key, value


def rdbench_unit(metric):
    """The unit and direction of an rdbench figure, from its name."""
    m = metric.lower()
    for suffix, unit, better in (
        ("mib_per_s", "MiB/s", "higher"), ("_per_s", "/s", "higher"),
        ("speedup", "x", "higher"), ("_ms", "ms", "lower"), ("_us", "us", "lower"),
        ("_ns", "ns", "lower"), ("seconds", "s", "lower"), ("_s", "s", "lower"),
    ):
        if m.endswith(suffix):
            return unit, better
    return "", "higher"


def load(folder):
    """Read meta.json and every raw run: (meta, measurements, failures)."""
    meta = {}
    meta_path = os.path.join(folder, "meta.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
    found = {}
    failures = []
    raw = os.path.join(folder, "raw")
    for target in sorted(os.listdir(raw)) if os.path.isdir(raw) else []:
        for fname in sorted(os.listdir(os.path.join(raw, target))):
            m = RAW_NAME.match(fname)
            if not m:
                continue
            path = os.path.join(raw, target, fname)
            tool, name = m.group("tool"), m.group("name")
            if m.group("ext") == "failed":
                with open(path, errors="replace") as f:
                    lines = [l for l in f.read().splitlines() if l.strip()]
                failures.append({"target": target, "tool": tool, "suite": name,
                                 "rep": int(m.group("rep")),
                                 "why": lines[-1] if lines else "failed"})
                continue
            with open(path) as f:
                text = f.read()
            # fio may print notes before the JSON document.
            doc = json.loads(text[min(i for i in (text.find("{"), text.find("["), len(text)) if i >= 0):])
            add = lambda job, metric, unit, better, value, tgt=target: found.setdefault(
                (tool, name, job, metric, tgt),
                Measurement(tool, name, job, metric, unit, better, tgt)).values.append(value)
            if tool == "fio":
                jobs = fio_jobs(doc)
                # One client run may drive several servers: keep them apart.
                several = len({j.get("hostname") for j in jobs}) > 1
                for job in jobs:
                    tgt = target
                    if several:
                        tgt = "%s@%s" % (target, job["hostname"])
                    for metric, unit, better, value in fio_metrics(job, doc):
                        add(job["jobname"], metric, unit, better, value, tgt)
            else:
                for label, metric, value in rdbench_rows(doc):
                    unit, better = rdbench_unit(metric)
                    add(label, metric, unit, better, value)
    return meta, list(found.values()), failures


def target_order(meta, measurements):
    order = list(meta.get("targets", []))
    seen = set(order)
    for m in measurements:
        if m.target not in seen:
            seen.add(m.target)
            order.append(m.target)
    present = {m.target for m in measurements}
    return [t for t in order if t in present]


def human(value):
    """Three significant figures, with k or M for large numbers."""
    if value is None:
        return "-"
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= scale * 10:
            return "%.3g%s" % (value / scale, suffix) if value / scale < 1000 else "%d%s" % (value / scale, suffix)
    if abs(value) >= 100:
        return "%d" % round(value)
    return "%.3g" % value


def reference_for(target, reference, targets):
    """The reference a target compares with: brd for raw devices, brd-ext4
    for ext4 on the ramdisk, and so on."""
    base, _, rest = target.partition("-")
    if rest:
        candidate = "%s-%s" % (reference, rest)
        if candidate in targets:
            return candidate
    return reference if reference in targets else None


def shown(m):
    """Whether a figure earns a row in the tables (results.json has all):
    bandwidth for large requests, IOPS and percentiles for small ones."""
    if m.tool != "fio":
        return True
    large = re.search(r"-(\d+)m(-|$)", m.job) is not None
    if m.metric.endswith("_bw"):
        return large
    if m.metric.endswith("_iops"):
        return not large
    return True


def tables(measurements, targets, reference):
    """Markdown tables, one per (tool, suite, job), in suite order."""
    by_job = {}
    for m in sorted((m for m in measurements if shown(m)), key=lambda m: (m.tool, m.suite)):
        by_job.setdefault((m.tool, m.suite, m.job), {}).setdefault(
            (m.metric, m.unit, m.better), {})[m.target] = m
    out = []
    for (tool, suite, job), metrics in by_job.items():
        cols = [t for t in targets if any(t in per for per in metrics.values())]
        out.append("### %s (%s %s)\n" % (job, tool, suite))
        rows = []
        marked = False
        for (metric, unit, better), per in metrics.items():
            cells = []
            for t in cols:
                m = per.get(t)
                if m is None:
                    cells.append("-")
                    continue
                cell = human(m.median())
                ref = per.get(reference_for(t, reference, per))
                if ref is not None and ref.target != t and ref.median():
                    cell += " (%.2fx)" % (m.median() / ref.median())
                if m.spread_out():
                    cell += " " + SPREAD_MARK
                    marked = True
                cells.append(cell)
            label = "%s (%s)" % (metric, unit) if unit else metric
            if better == "lower":
                label += ", lower is better"
            rows.append([label] + cells)
        out += benchtab.table(["metric"] + cols, "l" + "r" * len(cols), rows)
        out.append("")
        # After a blank line: a line right under a table is one more row.
        if marked:
            out += [SPREAD_NOTE, ""]
    return "\n".join(out)


# rdbench meta's row for empty files without fsync, its fields in any order.
EMPTY_NO_FSYNC = r"^(?=.*(^| )size=0k( |$))(?=.*(^| )fsync=no( |$))"
# The seed workloads (the experiments the project started from) as the
# summary shows them: each a list of (label, tool, suite, job pattern,
# metric), the first that ramdisk has on a file system is taken, so a run
# without rdbench still shows fio's file-engine rates.
SEED_WORKLOADS = [
    [("file creates/s, empty files (rdbench meta)",
      "rdbench", "meta", EMPTY_NO_FSYNC, "create_per_s"),
     ("file creates/s (fio filecreate)", "fio", "meta-files", r"^filecreate$", "files_per_s")],
    [("file deletes/s, empty files (rdbench meta)",
      "rdbench", "meta", EMPTY_NO_FSYNC, "delete_per_s"),
     ("file deletes/s (fio filedelete)", "fio", "meta-files", r"^filedelete$", "files_per_s")],
    [("queue of small files, seconds (rdbench churn --preset queue)",
      "rdbench", "churn-queue", r"(^| )preset=queue( |$)", "total_s")],
    [("32-byte writes, one write() each, MiB/s (rdbench smallwrite)",
      "rdbench", "smallwrite", r"^method=write-per-record$", "mib_per_s")],
]

SUBJECT = "ramdisk"


def times_faster(m, other):
    """How many times faster m was than other: the ratio of the rates, or
    of the times the other way round, so above 1 always means m did
    better. None when either is missing."""
    if m is None or other is None or not m.median() or not other.median():
        return None
    ratio = m.median() / other.median()
    return ratio if m.better == "higher" else 1 / ratio


def summary(measurements, targets):
    """The report's opening: per file system, ramdisk's figure on each
    seed workload and how many times faster it was than the same file
    system on the disk and than tmpfs. Only what the run measured."""
    index = {}
    for m in measurements:
        index.setdefault((m.target, m.tool, m.suite, m.metric), []).append(m)

    def find(target, tool, suite, job_re, metric):
        found = [m for m in index.get((target, tool, suite, metric), [])
                 if re.search(job_re, m.job) and m.median() is not None]
        return found[0] if found else None

    out = ["## Summary: %s against the disk and tmpfs\n" % SUBJECT]
    rows = []
    marked = False
    for t in targets:
        if not t.startswith(SUBJECT + "-"):
            continue
        fs = t[len(SUBJECT) + 1:]
        for candidates in SEED_WORKLOADS:
            for label, tool, suite, job_re, metric in candidates:
                m = find(t, tool, suite, job_re, metric)
                if m is None:
                    continue
                cells = [fs, label, human(m.median())]
                if m.spread_out():
                    cells[-1] += " " + SPREAD_MARK
                    marked = True
                for other in ("disk-" + fs, "tmpfs"):
                    o = find(other, tool, suite, job_re, metric)
                    ratio = times_faster(m, o)
                    cell = "-" if ratio is None else "%.2fx" % ratio
                    if ratio is not None and (m.spread_out() or o.spread_out()):
                        cell += " " + SPREAD_MARK
                        marked = True
                    cells.append(cell)
                rows.append(cells)
                break
    if not rows:
        out.append("No file-system workload figures for `%s` in this run"
                   " (targets `%s-FS`): nothing to summarise." % (SUBJECT, SUBJECT))
        return "\n".join(out) + "\n"
    out.append("`%s`'s median on each seed workload, and how many times faster"
               " it was than the same file system on `disk` and than `tmpfs`"
               " (rates divided, or times the other way round: above 1,"
               " `%s` is faster; - where the run has no such figure):\n"
               % (SUBJECT, SUBJECT))
    out += benchtab.table(["file system", "workload", SUBJECT, "vs disk", "vs tmpfs"],
                          "llrrr", rows)
    if marked:
        out += ["", SPREAD_NOTE + " (on a ratio: of either figure behind it)"]
    return "\n".join(out) + "\n"


def gnuplot_quote(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def bar_plot(name, title, ylabel, rows, targets, colours):
    """A clustered bar chart: one cluster per row label, one bar per target,
    each bar the median with an error bar from the smallest to the largest
    repeat. rows: [(label, {target: Measurement})]."""
    cols = [t for t in targets if any(t in vals for _, vals in rows)]
    if not rows or not cols:
        return None
    lines = [
        "set terminal pngcairo size 1000,500 noenhanced",
        "set output %s" % gnuplot_quote(name + ".png"),
        "set title %s" % gnuplot_quote(title),
        "set ylabel %s" % gnuplot_quote(ylabel),
        "set style data histogram",
        # Three columns per bar: median, smallest repeat, largest repeat.
        "set style histogram errorbars gap 1 lw 1",
        "set style fill solid 0.8 border -1",
        # Black, over the bar: in the bar's own colour the lower half hides.
        "set errorbars front linecolor rgb \"#000000\"",
        "set key outside right top",
        "set xtics rotate by -30",
        "set yrange [0:*]",
        "set grid ytics",
        "$data << EOD",
        "label " + " ".join("%s %s %s" % (gnuplot_quote(t), gnuplot_quote(t + " min"),
                                          gnuplot_quote(t + " max")) for t in cols),
    ]
    for label, vals in rows:
        cells = []
        for t in cols:
            m = vals.get(t)
            cells += (["%.6g" % v for v in (m.median(), m.low(), m.high())]
                      if m is not None else ["NaN"] * 3)
        lines.append(gnuplot_quote(label) + " " + " ".join(cells))
    lines.append("EOD")
    plots = ["$data using %d:%d:%d:xtic(1) title columnheader(%d) linecolor rgb %s"
             % (3 * i + 2, 3 * i + 3, 3 * i + 4, 3 * i + 2, gnuplot_quote(colours[t]))
             for i, t in enumerate(cols)]
    lines.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(lines) + "\n"


def line_plot(name, title, xlabel, ylabel, series, targets, colours, logy=False):
    """series: {(target, kind): [(x label, Measurement)]}, drawn against the
    x position with an error bar from the smallest to the largest repeat:
    the target's colour, a dash pattern per kind (read, write, ...)."""
    if not series:
        return None
    lines = [
        "set terminal pngcairo size 1000,500 noenhanced",
        "set output %s" % gnuplot_quote(name + ".png"),
        "set title %s" % gnuplot_quote(title),
        "set xlabel %s" % gnuplot_quote(xlabel),
        "set ylabel %s" % gnuplot_quote(ylabel),
        "set key outside right top",
        "set grid",
    ]
    if logy:
        lines.append("set logscale y")
    kinds = sorted({kind for _, kind in series})
    place = {t: i for i, t in enumerate(targets)}
    plots = []
    # In the report's target order, so the key lists targets as the tables do.
    order = sorted(series, key=lambda k: (place.get(k[0], len(place)), k))
    for i, (target, kind) in enumerate(order):
        lines.append("$s%d << EOD" % i)
        for x, (label, m) in enumerate(series[(target, kind)]):
            lines.append("%d %.6g %.6g %.6g %s" % (x, m.median(), m.low(), m.high(),
                                                 gnuplot_quote(label)))
        lines.append("EOD")
        style = kinds.index(kind) + 1
        plots.append("$s%d using 1:2:3:4:xtic(5) with yerrorlines title %s"
                     " linecolor rgb %s dashtype %d pointtype %d"
                     % (i, gnuplot_quote("%s %s" % (target, kind)),
                        gnuplot_quote(colours[target]), style, style + 4))
    lines.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(lines) + "\n"


def pick(measurements, tool, metric_re, job_re=".*", suite_re=".*"):
    """[(job label, {target: Measurement})] for matching measurements, in order."""
    rows = {}
    for m in measurements:
        if (m.tool == tool and re.search(metric_re, m.metric) and re.search(job_re, m.job)
                and re.search(suite_re, m.suite) and m.median() is not None):
            label = m.job
            if "randrw" in m.job:
                label += " " + m.metric.split("_")[0]
            rows.setdefault(label, {})[m.target] = m
    return list(rows.items())


def in_x_order(series):
    """{key: [(x, label, Measurement)]} -> {key: [(label, Measurement)]},
    the points sorted by x."""
    return {k: [(label, m) for _, label, m in sorted(v, key=lambda p: p[0])]
            for k, v in series.items()}


def plots(measurements, targets, colours):
    """{name: gnuplot script} for the main comparisons."""
    scripts = {}
    fio_raw = [m for m in measurements if m.tool == "fio"]
    scripts["iops-4k"] = bar_plot(
        "iops-4k", "4 KiB random I/O, median IOPS (bars: min to max of the repeats)", "IOPS",
        pick(fio_raw, "fio", r"^(read|write)_iops$", r"^(rand(read|write|rw).*4k-qd)"),
        targets, colours)
    scripts["bandwidth-1m"] = bar_plot(
        "bandwidth-1m", "1 MiB sequential I/O, median MiB/s (bars: min to max of the repeats)",
        "MiB/s", pick(fio_raw, "fio", r"_bw$", r"-1m$"), targets, colours)
    scripts["metadata"] = bar_plot(
        "metadata", "fio file engines, median operations per second (bars: min to max)",
        "files/s", pick(fio_raw, "fio", r"^files_per_s$"), targets, colours)
    lat = {}
    for m in fio_raw:
        r = re.match(r"^(read|write)_clat_p(.+)$", m.metric)
        if r and m.median() is not None:
            lat.setdefault((m.target, r.group(1)), []).append(
                (float(r.group(2)), "p" + r.group(2), m))
    scripts["latency-qd1"] = line_plot(
        "latency-qd1", "4 KiB QD1 completion latency percentiles (bars: min to max)",
        "percentile", "microseconds", in_x_order(lat), targets, colours, logy=True)
    scale = {}
    for m in fio_raw:
        r = re.match(r"^(rand\w+)-4k-numjobs(\d+)$", m.job)
        if r and m.metric.endswith("_iops") and m.median() is not None:
            scale.setdefault((m.target, r.group(1)), []).append((int(r.group(2)), r.group(2), m))
    scripts["numjobs-scaling"] = line_plot(
        "numjobs-scaling", "4 KiB QD1 IOPS against the number of jobs (bars: min to max)",
        "jobs", "IOPS", in_x_order(scale), targets, colours)
    rd = [m for m in measurements if m.tool == "rdbench"]
    rows = {}
    for m in rd:
        if m.unit == "/s" and m.median() is not None:
            rows.setdefault("%s %s %s" % (m.suite, m.job, m.metric), {})[m.target] = m
    scripts["rdbench-rates"] = bar_plot(
        "rdbench-rates", "rdbench, median rates per second (bars: min to max of the repeats)",
        "per second", list(rows.items()), targets, colours)
    return {k: v for k, v in scripts.items() if v}


def render(folder, scripts):
    """Write plots/NAME.gp and, with gnuplot, plots/NAME.png. Returns the
    names rendered to PNG."""
    plot_dir = os.path.join(folder, "plots")
    os.makedirs(plot_dir, exist_ok=True)
    rendered = []
    gnuplot = shutil.which("gnuplot")
    for name, script in sorted(scripts.items()):
        with open(os.path.join(plot_dir, name + ".gp"), "w") as f:
            f.write(script)
        if gnuplot:
            r = subprocess.run([gnuplot, name + ".gp"], cwd=plot_dir,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if r.returncode == 0 and os.path.exists(os.path.join(plot_dir, name + ".png")):
                rendered.append(name)
            else:
                sys.stderr.write("gnuplot %s.gp: %s\n" % (name, r.stderr.decode(errors="replace")))
    return rendered


def report(meta, measurements, failures, targets, reference, rendered):
    # What a reader wants first, before the run's details.
    lines = ["# Benchmark results", "", summary(measurements, targets)]
    lines.append("## Run\n")
    for key in ("date", "kernel", "machine", "mode", "note"):
        if key in meta:
            lines.append("- %s: %s" % (key, meta[key]))
    if meta.get("target_notes"):
        lines.append("- targets:")
        for t in targets:
            if t in meta["target_notes"]:
                lines.append("  - `%s`: %s" % (t, meta["target_notes"][t]))
    reps = sorted({len(m.values) for m in measurements})
    lines.append("- repeats per figure: %s; each cell is the median, and in"
                 " brackets its ratio to `%s` (the same file system on %s for"
                 " mounted targets)" % (", ".join(map(str, reps)) or "0", reference, reference))
    lines.append("- %s marks a figure whose repeats spread more than %d%% of its median:"
                 " (max - min) / median > %.2f"
                 % (SPREAD_MARK, round(SPREAD_LIMIT * 100), SPREAD_LIMIT))
    lines.append("- plots: each target in the same colour in every plot; each bar or point"
                 " is the median, its error bar runs from the smallest to the largest repeat")
    lines.append("")
    if failures:
        lines.append("## Failures\n")
        for f in failures:
            lines.append("- %s %s.%s run %d: %s" % (f["target"], f["tool"], f["suite"], f["rep"], f["why"]))
        lines.append("")
    if rendered:
        lines.append("## Plots\n")
        for name in rendered:
            lines.append("![%s](plots/%s.png)" % (name, name))
        lines.append("")
    lines.append("## Tables\n")
    lines.append(tables(measurements, targets, reference))
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", help="a results folder written by scripts/bench/suite")
    p.add_argument("--reference", help="the target ratios are taken against"
                   " (default: meta.json's reference, else brd)")
    p.add_argument("--no-plots", action="store_true", help="write no gnuplot scripts")
    p.add_argument("--quiet", action="store_true", help="do not print the report")
    args = p.parse_args(argv)

    meta, measurements, failures = load(args.folder)
    if not measurements and not failures:
        sys.stderr.write("report: no runs under %s/raw\n" % args.folder)
        return 1
    targets = target_order(meta, measurements)
    reference = args.reference or meta.get("reference", "brd")
    with open(os.path.join(args.folder, "results.json"), "w") as f:
        json.dump({"run": meta, "targets": targets,
                   "measurements": [m.as_dict() for m in measurements],
                   "failures": failures}, f, indent=1)
        f.write("\n")
    colours = target_colours(targets)
    rendered = [] if args.no_plots else render(args.folder, plots(measurements, targets, colours))
    text = report(meta, measurements, failures, targets, reference, rendered)
    with open(os.path.join(args.folder, "report.md"), "w") as f:
        f.write(text)
    if not args.quiet:
        sys.stdout.write(text)
    return 2 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
