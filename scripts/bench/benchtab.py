# SPDX-License-Identifier: GPL-2.0
"""The Markdown the bench reports write (report.py, pair-report.py,
perf-report.py): one place for the table syntax and for "write DIR/NAME.md
and print it", so the reports cannot drift apart in either.

Imported from the scripts beside it (Python puts a script's own folder
first on sys.path).
"""


def row(cells):
    """One table row. An empty cell is one space wide, so a row of blanks
    reads "| | |" rather than "|  |  |"."""
    return "|" + "|".join(f" {c} " if c != "" else " " for c in map(str, cells)) + "|"


def rule(align):
    """The line under the header: "l" for a left-aligned column (`---`),
    "r" for a right-aligned one (`---:`)."""
    return "|" + "".join("---:|" if a == "r" else "---|" for a in align)


def table(header, align, rows):
    """The lines of a table: header, rule, one line per row of cells."""
    return [row(header), rule(align)] + [row(r) for r in rows]


def write(path, lines):
    """Writes the lines to path with a final newline, prints them, and
    returns the text (without that newline)."""
    text = "\n".join(lines)
    path.write_text(text + "\n")
    print(text)
    return text
