#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a bench results folder into results.json, report.md and plots.

The folder holds what scripts/bench/suite wrote:

  meta.json                        the run: kernel, date, targets in order
  raw/TARGET/TOOL.NAME.REP.json    one tool run (fio JSON or rdbench --json)
  raw/TARGET/TOOL.NAME.REP.failed  a run that failed, with its stderr

Every figure of every run goes into results.json; report.md holds one
table per job with the median of the repeats for each target and its
ratio to the reference target (brd unless --reference says otherwise);
plots/*.gp are gnuplot scripts for the main comparisons, rendered to PNG
when gnuplot is installed. Standard library only.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

import benchtab

RAW_NAME = re.compile(r"^(?P<tool>[a-z]+)\.(?P<name>[^.]+)\.(?P<rep>\d+)\.(?P<ext>json|failed)$")

# fio file engines report their operations as reads; name them for what
# they count.
FILE_ENGINE_UNITS = {
    "filecreate": "creates/s",
    "filestat": "stats/s",
    "filedelete": "deletes/s",
}


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
                cells.append(cell)
            label = "%s (%s)" % (metric, unit) if unit else metric
            if better == "lower":
                label += ", lower is better"
            rows.append([label] + cells)
        out += benchtab.table(["metric"] + cols, "l" + "r" * len(cols), rows)
        out.append("")
    return "\n".join(out)


def gnuplot_quote(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def bar_plot(name, title, ylabel, rows, targets):
    """A clustered bar chart: one cluster per row label, one bar per target.
    rows: [(label, {target: value})]."""
    cols = [t for t in targets if any(t in vals for _, vals in rows)]
    if not rows or not cols:
        return None
    lines = [
        "set terminal pngcairo size 1000,500 noenhanced",
        "set output %s" % gnuplot_quote(name + ".png"),
        "set title %s" % gnuplot_quote(title),
        "set ylabel %s" % gnuplot_quote(ylabel),
        "set style data histogram",
        "set style histogram clustered gap 1",
        "set style fill solid 0.8 border -1",
        "set key outside right top",
        "set xtics rotate by -30",
        "set yrange [0:*]",
        "set grid ytics",
        "$data << EOD",
        "label " + " ".join(gnuplot_quote(t) for t in cols),
    ]
    for label, vals in rows:
        lines.append(gnuplot_quote(label) + " " + " ".join(
            "%.6g" % vals[t] if t in vals else "NaN" for t in cols))
    lines.append("EOD")
    plots = ["$data using %d:xtic(1) title columnheader(%d)" % (i + 2, i + 2)
             for i in range(len(cols))]
    lines.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(lines) + "\n"


def line_plot(name, title, xlabel, ylabel, series, logy=False):
    """series: {target: [(x label, y)]}, drawn against the x position."""
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
    plots = []
    for i, (target, points) in enumerate(series.items()):
        lines.append("$s%d << EOD" % i)
        for x, (label, y) in enumerate(points):
            lines.append("%d %.6g %s" % (x, y, gnuplot_quote(label)))
        lines.append("EOD")
        plots.append("$s%d using 1:2:xtic(3) with linespoints title %s" % (i, gnuplot_quote(target)))
    lines.append("plot " + ", \\\n     ".join(plots))
    return "\n".join(lines) + "\n"


def pick(measurements, tool, metric_re, job_re=".*", suite_re=".*"):
    """{job label: {target: median}} for matching measurements, in order."""
    rows = {}
    for m in measurements:
        if (m.tool == tool and re.search(metric_re, m.metric) and re.search(job_re, m.job)
                and re.search(suite_re, m.suite) and m.median() is not None):
            label = m.job
            if "randrw" in m.job:
                label += " " + m.metric.split("_")[0]
            rows.setdefault(label, {})[m.target] = m.median()
    return list(rows.items())


def plots(measurements, targets):
    """{name: gnuplot script} for the main comparisons."""
    scripts = {}
    fio_raw = [m for m in measurements if m.tool == "fio"]
    scripts["iops-4k"] = bar_plot(
        "iops-4k", "4 KiB random I/O, median IOPS", "IOPS",
        pick(fio_raw, "fio", r"^(read|write)_iops$", r"^(rand(read|write|rw).*4k-qd)"), targets)
    scripts["bandwidth-1m"] = bar_plot(
        "bandwidth-1m", "1 MiB sequential I/O, median MiB/s", "MiB/s",
        pick(fio_raw, "fio", r"_bw$", r"-1m$"), targets)
    scripts["metadata"] = bar_plot(
        "metadata", "fio file engines, median operations per second", "files/s",
        [(j, v) for j, v in pick(fio_raw, "fio", r"^files_per_s$")], targets)
    lat = {}
    for m in fio_raw:
        r = re.match(r"^(read|write)_clat_p(.+)$", m.metric)
        if r and m.median() is not None:
            key = "%s %s" % (m.target, r.group(1))
            lat.setdefault(key, []).append((float(r.group(2)), "p" + r.group(2), m.median()))
    scripts["latency-qd1"] = line_plot(
        "latency-qd1", "4 KiB QD1 completion latency percentiles", "percentile", "microseconds",
        {k: [(label, y) for _, label, y in sorted(v)] for k, v in lat.items()}, logy=True)
    scale = {}
    for m in fio_raw:
        r = re.match(r"^(rand\w+)-4k-numjobs(\d+)$", m.job)
        if r and m.metric.endswith("_iops") and m.median() is not None:
            scale.setdefault("%s %s" % (m.target, r.group(1)), []).append(
                (int(r.group(2)), r.group(2), m.median()))
    scripts["numjobs-scaling"] = line_plot(
        "numjobs-scaling", "4 KiB QD1 IOPS against the number of jobs", "jobs", "IOPS",
        {k: [(label, y) for _, label, y in sorted(v)] for k, v in scale.items()})
    rd = [m for m in measurements if m.tool == "rdbench"]
    rows = {}
    for m in rd:
        unit = m.unit
        if unit in ("/s",) and m.median() is not None:
            rows.setdefault("%s %s %s" % (m.suite, m.job, m.metric), {})[m.target] = m.median()
    scripts["rdbench-rates"] = bar_plot(
        "rdbench-rates", "rdbench, median rates per second", "per second",
        list(rows.items()), targets)
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
    lines = ["# Benchmark results", ""]
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
    rendered = [] if args.no_plots else render(args.folder, plots(measurements, targets))
    text = report(meta, measurements, failures, targets, reference, rendered)
    with open(os.path.join(args.folder, "report.md"), "w") as f:
        f.write(text)
    if not args.quiet:
        sys.stdout.write(text)
    return 2 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
