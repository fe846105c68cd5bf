#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sums two `perf report --sort dso,sym -t TAB` outputs (ramdisk, brd)
into the shares that bear on a driver's cost, then lists the heaviest
symbols of each side by side.

A copy the compiler inlined into the driver (brd's memcpy() on 6.12) has
no symbol of its own: its share is then part of the driver's code, and the
copy's line says "inline". The driver's total is comparable either way, and
the rest of the I/O (system call, block layer, rdbench) is the same work
for both drivers, so the ratio of the rest's shares estimates the ratio of
their times per I/O.

usage: report.py RAMDISK_REPORT BRD_REPORT TOP
"""
import re
import sys

DRIVERS = ("ramdisk", "brd")
# perf puts module code under [kernel.kallsyms]: a driver's own functions
# are told by their prefix
PREFIX = {"ramdisk": "rd_", "brd": "brd_"}
# the kernel's copy routines; ramdisk's own are named rd_copy_*
COPY = re.compile(r"^(rd_copy_\w+|memcpy\w*|__memcpy\w*|copy_page\w*)$")
LOOKUP = re.compile(r"^(xas_\w+|xa_load)$")
RCU = re.compile(r"^__rcu_read_(lock|unlock)$")
GROUPS = ("copy", "driver's own code", "xarray lookup", "RCU read side",
          "rest of the I/O")


def parse(path):
    """[(percent, dso, symbol)] from one report"""
    rows = []
    with open(path, encoding="utf-8") as report:
        for line in report:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3 or not fields[0].strip().endswith("%"):
                continue
            sym = re.sub(r"^\[.\]\s*", "", fields[2].strip())
            rows.append((float(fields[0].strip().rstrip("%")), fields[1].strip(), sym))
    return rows


def group(row, driver):
    _, dso, sym = row
    if COPY.match(sym):
        return "copy"
    if dso == "[kernel.kallsyms]" and sym.startswith(PREFIX[driver]):
        return "driver's own code"
    if LOOKUP.match(sym):
        return "xarray lookup"
    if RCU.match(sym):
        return "RCU read side"
    return "rest of the I/O"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    tables = {d: parse(p) for d, p in zip(DRIVERS, sys.argv[1:3])}
    top = int(sys.argv[3])
    for driver, rows in tables.items():
        if not rows:
            sys.exit(f"profile: no samples in {driver}'s report")
    shares = {d: {name: sum(r[0] for r in rows if group(r, d) == name) for name in GROUPS}
              for d, rows in tables.items()}
    print(f"{'share of the samples on the I/O vCPU':40} {'ramdisk':>8} {'brd':>8}")
    for name in GROUPS:
        cells = []
        for driver in DRIVERS:
            share = shares[driver][name]
            if name == "copy" and share == 0 and shares[driver]["driver's own code"] > 0:
                cells.append(f"{'inline':>8}")
            else:
                cells.append(f"{share:7.2f}%")
        print(f"{name:40} {' '.join(cells)}")
    totals = [sum(shares[d][name] for name in GROUPS[:-1]) for d in DRIVERS]
    print(f"{'the driver: all but the rest':40} {totals[0]:7.2f}% {totals[1]:7.2f}%")
    rest = [shares[d][GROUPS[-1]] for d in DRIVERS]
    if rest[1] > 0:
        print(f"brd's time per I/O over ramdisk's, if the rest takes both as long: "
              f"{rest[0] / rest[1]:.3f}")
    print()
    print(f"{'ramdisk':>8}  {'symbol':34} {'brd':>8}  symbol")
    for i in range(top):
        cells = []
        for driver in DRIVERS:
            rows = tables[driver]
            cells.append(f"{rows[i][0]:7.2f}%  {rows[i][2][:34]:34}" if i < len(rows)
                         else f"{'':8}  {'':34}")
        print(" ".join(cells).rstrip())


if __name__ == "__main__":
    main()
