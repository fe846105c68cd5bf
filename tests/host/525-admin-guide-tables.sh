#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the admin guide's tables of parameters, configfs attributes, statistics, ramdiskctl list columns and profile figures match exactly what the sources define, with its defaults; every kernel-log warning has an error row and every row's text is one the module prints
. "${0%/*}/../lib/common.sh"
require_cmd python3

# The checker reads the sources the way a reviewer would: the names in
# module_param_cb()/module_param_named(), the configfs and sysfs attribute
# arrays, the defaults in the variables' initialisers and in
# rd_config_init_default(), and the format strings of pr_warn().
cat >"$RD_TMP/check.py" <<'EOF'
import os
import re
import sys

guide_path, module = sys.argv[1], sys.argv[2]
guide = open(guide_path, encoding="utf-8").read()
src = {f: open(os.path.join(module, f), encoding="utf-8").read()
       for f in os.listdir(module) if f.endswith((".c", ".h"))}
uapi = open(os.path.join(module, "..", "include", "uapi", "ramdisk.h"), encoding="utf-8").read()
errors = []


def section(title):
    m = re.search(r"^## " + re.escape(title) + r".*?$(.*?)(?=^## |\Z)", guide, re.M | re.S)
    if not m:
        errors.append(f"no section '{title}'")
        return ""
    return m.group(1)


def table(text):
    """Rows of the first Markdown table in text, as lists of cells."""
    rows = []
    for line in text.split("\n"):
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r"-+", c) for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]


def name(cell):
    m = re.fullmatch(r"`(?:NAME/)?([a-z][a-z0-9_-]*)`", cell)
    return m.group(1) if m else None


def compare(what, documented, defined):
    for n in sorted(set(defined) - set(documented)):
        errors.append(f"{what}: `{n}` is in the module but not in the admin guide")
    for n in sorted(set(documented) - set(defined)):
        errors.append(f"{what}: `{n}` is in the admin guide but not in the module")


# --- constants, for defaults
consts = {"NUMA_NO_NODE": -1, "PAGE_SIZE": 4096}
for text in [uapi] + list(src.values()):
    for m in re.finditer(r"^#define (\w+) \(?([0-9]+)(?:ULL|UL|U)?(?: << ([0-9]+))?\)?\s*$", text, re.M):
        consts[m.group(1)] = int(m.group(2)) << int(m.group(3) or 0)
for m in re.finditer(r"^\s*(RD_CACHE_\w+),", src["ramdisk.h"], re.M):
    pass
mode_names = dict(re.findall(r"\[(RD_(?:CACHE|CUT|PERSONALITY)_\w+)\] = \"([\w-]+)\"", src["configfs.c"]))


def value(expr):
    expr = expr.strip()
    if expr in consts:
        return consts[expr]
    if expr in mode_names:
        return mode_names[expr]
    if expr in ("true", "false"):
        return int(expr == "true")
    m = re.fullmatch(r"(\d+)(?:ULL|UL|U)?", expr)
    if m:
        return int(m.group(1))
    errors.append(f"cannot read the default '{expr}' in the sources")
    return None


def doc_value(cell):
    """A documented default as a number or a word; None for '-'."""
    cell = cell.strip("`")
    if cell == "-":
        return None
    m = re.fullmatch(r"(\d+)([KMGT]?)", cell)
    if m:
        return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2)]
    try:
        return int(cell, 0)
    except ValueError:
        return cell


# --- module parameters
# Most live in main.c; a parameter that belongs to one part of the module
# (copy.c's) lives there. Each one's variable is in its own file.
params = {}
param_file = {}
for fname, text in src.items():
    for m in re.finditer(r"module_param_cb\((\w+), &\w+, (?:&(\w+)|NULL)", text):
        params[m.group(1)] = m.group(2)
        param_file[m.group(1)] = fname
    for m in re.finditer(r"module_param_named\((\w+), (\w+),", text):
        params[m.group(1)] = m.group(2)
        param_file[m.group(1)] = fname
rows = table(section("Module parameters"))
doc_params = {name(r[0]): r for r in rows}
compare("module parameter", [n for n in doc_params if n], params)
for pname, var in params.items():
    if pname not in doc_params or not var:
        continue
    m = re.search(r"^static [\w ]+? \*?" + var + r"(?: = ([^;]+))?;", src[param_file[pname]], re.M)
    if not m:
        errors.append(f"module parameter {pname}: no variable {var} in {param_file[pname]}")
        continue
    want = value(m.group(1)) if m.group(1) else 0
    got = doc_value(doc_params[pname][1])
    if got != want:
        errors.append(f"module parameter {pname}: the guide says default {doc_params[pname][1]}, main.c {want}")

# --- configfs attributes
cfs = src["configfs.c"]
item_attrs = re.findall(r"&rd_cfg_attr_(\w+),", cfs)
root_attrs = re.findall(r"&rd_attr_(\w+),", cfs)
rows = table(section("Run-time devices: configfs"))
doc_attrs = {name(r[0]): r for r in rows}
compare("configfs attribute", [n for n in doc_attrs if n], item_attrs + root_attrs)
# defaults: fields of struct rd_config start at 0 (kzalloc) unless
# rd_config_init_default() sets them
defaults = {}
init = re.search(r"void rd_config_init_default\(.*?\n\{(.*?)\n\}", src["config.c"], re.S).group(1)
for m in re.finditer(r"cfg->(\w+) = ([^;]+);", init):
    defaults[m.group(1)] = value(m.group(2))
fields = re.findall(r"^\t(?:u64|unsigned int|int|bool) (\w+);", re.search(
    r"struct rd_config \{(.*?)\n\};", src["ramdisk.h"], re.S).group(1), re.M)
for attr in item_attrs:
    if attr not in fields or attr not in doc_attrs:
        continue
    want = defaults.get(attr, 0)
    got = doc_value(doc_attrs[attr][2])
    if got != want:
        errors.append(f"configfs {attr}: the guide says default {doc_attrs[attr][2]}, the module {want}")

# --- statistics
stat_attrs = re.findall(r"&dev_attr_(\w+)\.attr,", src["sysfs.c"])
rows = table(section("Statistics"))
compare("statistics file", [n for n in (name(r[0]) for r in rows) if n], stat_attrs)

# --- ramdiskctl list columns
table_c = open(os.path.join(module, "..", "userspace", "ramdiskctl", "device_table.c"), encoding="utf-8").read()
columns = re.findall(r"\[COL_\w+\] = \{ \"(\w+)\"", table_c)
rows = table(section("ramdiskctl"))
doc_cols = [m.group(1) for m in (re.fullmatch(r"`([A-Z_]+)`", r[0]) for r in rows) if m]
compare("ramdiskctl list column", doc_cols, columns)

# --- profiles: the figures ramdiskctl profile writes
profiles_c = open(os.path.join(module, "..", "userspace", "ramdiskctl", "profiles.c"), encoding="utf-8").read()
profiles = {m.group(1): [int(x) for x in m.group(2).split(",")]
            for m in re.finditer(r"\{ \"([\w-]+)\", ([\d, ]+?)(?:, (?:true|false))? \}", profiles_c)}


def figure(cell):
    m = re.fullmatch(r"(\d+) (us|ms)", cell)
    if m:
        return int(m.group(1)) * (1000 if m.group(2) == "us" else 1000000)
    m = re.fullmatch(r"(\d+) MB/s", cell)
    if m:
        return int(m.group(1))
    return {"0": 0, "unlimited": 0}.get(cell)


rows = table(section("Profiles"))
doc_profiles = {name(r[0]): [figure(c) for c in r[1:5]] for r in rows if name(r[0])}
compare("profile", doc_profiles, profiles)
for pname, figs in profiles.items():
    if pname in doc_profiles and doc_profiles[pname] != figs:
        errors.append(f"profile {pname}: the guide says {doc_profiles[pname]} (ns, ns, ns, MB/s), profiles.c {figs}")

# --- errors: every warning has a row, every row's text is printed
formats = []
for text in src.values():
    for m in re.finditer(r"pr_warn(?:_ratelimited)?\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)", text):
        formats.append("".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(1))).replace("\\n", ""))
# RD_CFG_ENUM_ATTR(name, names, "choices", apply) prints "NAME: name 'VALUE' is choices"
for m in re.finditer(r"^RD_CFG_ENUM_ATTR\((\w+), \w+,\s+\"([^\"]*)\"", src["configfs.c"], re.M):
    formats.append("%s: " + m.group(1) + " '%.*s' is " + m.group(2))
SPEC = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:ll|l|h|z)?[a-zA-Z]")
STAR, WORD, VAL = object(), object(), object()
# names the guide puts where the module prints a value or a name
PLACEHOLDER = re.compile(r"\b(?:NAME|ATTR|VALUE|PARAM|ERRNO|N|B|CK|DISK|insmod)\b|(?<=ramdisk)N\b")


def fmt_tokens(fmt):
    out, pos = [], 0
    for m in SPEC.finditer(fmt):
        out += list(fmt[pos:m.start()]) + [VAL]
        pos = m.end()
    return out + list(fmt[pos:])


def doc_tokens(frag):
    """A row's text: '...' stands for anything, a placeholder for one word;
    the text may be part of a line."""
    out = [STAR]
    for i, part in enumerate(frag.strip().split("...")):
        if i:
            out.append(STAR)
        pos = 0
        part = part.strip()
        for m in PLACEHOLDER.finditer(part):
            out += list(part[pos:m.start()]) + [WORD]
            pos = m.end()
        out += list(part[pos:])
    return out + [STAR]


def same_line(d, f):
    """Whether a line exists that both the row's text and the format print.
    A value (%d, %s, ...) in the format stands for a placeholder or a
    number in the row (NAME, VALUE, 1000, -1), never for other words."""
    sys.setrecursionlimit(10000)
    seen = {}

    def match(i, j):
        key = (i, j)
        if key in seen:
            return seen[key]
        if i == len(d) and j == len(f):
            r = True
        elif i < len(d) and d[i] is STAR:
            r = match(i + 1, j) or (j < len(f) and match(i, j + 1))
        elif i < len(d) and d[i] is WORD:
            r = match(i + 1, j) or (j < len(f) and (f[j] is VAL or not f[j].isspace())
                                    and match(i, j + 1))
        elif j < len(f) and f[j] is VAL:
            r = match(i, j + 1) or (i < len(d) and (d[i] is WORD or (
                d[i] is not STAR and d[i] in "0123456789x-")) and match(i + 1, j))
        else:
            r = i < len(d) and j < len(f) and d[i] == f[j] and match(i + 1, j + 1)
        seen[key] = r
        return r

    return match(0, 0)


rows = table(section("Errors"))
doc_lines = []
for r in rows:
    # the last column quotes the lines; a lone word there (a file) is not one
    doc_lines += [t for t in re.findall(r"`([^`]+)`", r[-1]) if not re.fullmatch(r"\w+", t)]
fmts = [(fmt, fmt_tokens(fmt)) for fmt in formats]
docs = [(frag, doc_tokens(frag)) for frag in doc_lines]
for frag, d in docs:
    if not any(same_line(d, f) for _, f in fmts):
        errors.append(f"error row '{frag}': the module prints no such line")
for fmt, f in fmts:
    if not any(same_line(d, f) for _, d in docs):
        errors.append(f"warning '{fmt}' has no row in the admin guide's Errors table")

for e in errors:
    print(e)
sys.exit(1 if errors else 0)
EOF

check() {
	python3 "$RD_TMP/check.py" "$1" "$RD_TOP/module"
}

echo "Documentation/admin-guide.md against module/"
check "$RD_TOP/Documentation/admin-guide.md" || fail "the admin guide does not match the module: see above"

echo "the check fails on a guide that drifted"
drifted() {
	local what=$1 script=$2
	sed "$script" "$RD_TOP/Documentation/admin-guide.md" >"$RD_TMP/guide.md"
	cmp -s "$RD_TMP/guide.md" "$RD_TOP/Documentation/admin-guide.md" && fail "the edit for '$what' changed nothing"
	if check "$RD_TMP/guide.md" >"$RD_TMP/out"; then
		fail "a guide with $what passed"
	fi
	echo "$what: $(head -n 1 "$RD_TMP/out")"
}
drifted "a statistic missing" '/^| `dirty_bytes` |/d'
drifted "a list column missing" '/^| `PROFILE` |/d'
drifted "a wrong profile figure" 's/^| `ssd` | 90 us |/| `ssd` | 80 us |/'
drifted "an attribute the module lacks" 's/^| `NAME\/size` |/| `NAME\/sizes` |/'
drifted "a parameter missing" '/^| `mem_limit` | 0 |/d'
drifted "a wrong parameter default" 's/^| `nr_devices` | 1 |/| `nr_devices` | 2 |/'
drifted "a wrong attribute default" 's/^\(| `NAME\/cache_size` | rw | \)67108864/\133554432/'
drifted "an error line the module does not print" 's/is neither writethrough nor writeback/is not a cache mode/'
drifted "a warning without a row" '/^| write to `checkpoints`, `rollback` or `write_log` | `ENODEV` |/d'
