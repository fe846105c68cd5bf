#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut a fio JSON document down to what scripts/bench/report.py reads.

usage: tests/host/data/prune-fio-json.py <fio-output.json >fixture.json

A fio run writes some 500 lines per job, of which the report reads a
dozen fields; recorded whole, the fixtures under tests/host/data/bench-run
were half of tests/ by lines. Kept, in fio's order and layout (two-space
indent, "key" : value) and with each value's text as fio wrote it:

  "global options", each job's "job options": ioengine, bs, percentile_list
  "jobs" (or "client_stats" from fio --client), each job's jobname and
      hostname
  a file-engine job (filecreate, filestat, filedelete): read.iops
  any other job, per direction "read" and "write": io_bytes; when it is
      not 0 also bw_bytes, iops and clat_ns.percentile

What report.py does not look at (fio version, timestamps, slat, lat,
trim, latency_*, disk_util, ...) goes, and so does an options block left
empty (the report reads a missing one as empty). Running the filter on
its own output changes nothing. See README.md beside this file.
"""
import json
import sys

# The options report.py's job_option() looks up: the engine decides how a
# job is read, percentile_list whether its percentiles become figures.
OPTIONS = ("ioengine", "bs", "percentile_list")
# report.py's FILE_ENGINE_UNITS: of these jobs it reads read.iops only.
FILE_ENGINES = ("filecreate", "filestat", "filedelete")


class Number(str):
    """A number as fio wrote it ("0.000000" stays so; a float would not)."""


def options(block):
    return {k: v for k, v in block.items() if k in OPTIONS}


def direction(d):
    """A job's "read" or "write": the report skips it when io_bytes is 0."""
    if "io_bytes" not in d or float(d["io_bytes"]) == 0:
        return {k: v for k, v in d.items() if k == "io_bytes"}
    kept = {}
    for k, v in d.items():
        if k in ("io_bytes", "bw_bytes", "iops"):
            kept[k] = v
        elif k == "clat_ns" and "percentile" in v:
            kept[k] = {"percentile": v["percentile"]}
    return kept


def job(j, global_options):
    if j.get("jobname") == "All clients":
        return {"jobname": j["jobname"]}  # read only to be skipped
    engine = j.get("job options", {}).get("ioengine", global_options.get("ioengine"))
    kept = {}
    for k, v in j.items():
        if k in ("jobname", "hostname"):
            kept[k] = v
        elif k == "job options" and options(v):
            kept[k] = options(v)
        elif engine in FILE_ENGINES:
            if k == "read":
                kept[k] = {"iops": v["iops"]}
        elif k in ("read", "write"):
            kept[k] = direction(v)
    return kept


def prune(doc):
    kept = {}
    for k, v in doc.items():
        if k == "global options" and options(v):
            kept[k] = options(v)
        elif k in ("jobs", "client_stats"):
            kept[k] = [job(j, doc.get("global options", {})) for j in v]
    return kept


def write(value, out, indent=0):
    """fio's own layout, so that a fixture reads like the run it came from."""
    pad = "  " * (indent + 1)
    if isinstance(value, (dict, list)):
        items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        out.write("{\n" if isinstance(value, dict) else "[\n")
        for i, (k, v) in enumerate(items):
            out.write(pad if k is None else pad + json.dumps(k) + " : ")
            write(v, out, indent + 1)
            out.write(",\n" if i < len(items) - 1 else "\n")
        out.write("  " * indent + ("}" if isinstance(value, dict) else "]"))
    elif isinstance(value, Number):
        out.write(value)
    else:
        out.write(json.dumps(value))


def main():
    text = sys.stdin.read()
    # fio may print notes before the document, as report.py knows too.
    start = text.find("{")
    if start < 0:
        sys.stderr.write("prune-fio-json: no JSON object on standard input\n")
        return 1
    doc = json.loads(text[start:], parse_int=Number, parse_float=Number)
    write(prune(doc), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
