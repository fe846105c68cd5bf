/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdbench's result table, printed as an aligned human table, JSON or CSV.
 *
 * Written by hand rather than with libsmartcols (which ramdiskctl prints
 * with): scripts/bench reads rdbench's JSON as a bare array of objects
 * holding arrays of numbers, and its CSV, neither of which libsmartcols
 * writes.
 *
 * Every cell is stored as a string, so callers format numbers the way they
 * want them shown; the column kind only decides how a cell is written:
 *
 *   TABLE_TEXT         left-aligned; a JSON string.
 *   TABLE_NUMBER       right-aligned; a bare JSON number when the cell is
 *                      one, null when it is empty or "-", else a string.
 *   TABLE_NUMBER_LIST  space-separated numbers (e.g. every run's raw
 *                      figure); a JSON array of numbers, a CSV string.
 *
 * TABLE_MACHINE_ONLY may be or-ed into the kind to leave a column out of
 * the human table (raw figures that only scripts want).
 *
 * JSON output is one array holding one object per row, keys in column
 * order. CSV output is a header line and one line per row, quoted as
 * RFC 4180 says (fields holding a comma, quote, CR or LF are quoted, and
 * quotes doubled), lines ended by LF.
 */
#ifndef RAMDISK_OUTPUT_H
#define RAMDISK_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

enum table_kind {
	TABLE_TEXT = 0,
	TABLE_NUMBER = 1,
	TABLE_NUMBER_LIST = 2,
	TABLE_KIND_MASK = 0xff,
	TABLE_MACHINE_ONLY = 0x100,
};

enum output_format {
	OUTPUT_HUMAN,
	OUTPUT_JSON,
	OUTPUT_CSV,
};

struct table;

/* NULL when out of memory. */
struct table *table_new(void);
void table_free(struct table *t);

/* Add a column (before the first row). Returns its index, or -1. */
int table_add_column(struct table *t, const char *name, int kind);
/*
 * Build a row cell by cell: table_row_begin(), then one table_cell() per
 * column in order. Missing trailing cells stay empty; extra cells fail.
 * Both return 0 or -1 (errno set: EINVAL before any column, ENOMEM).
 */
int table_row_begin(struct table *t);
int table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write the table; 0, or -1 on a write error (errno set). */
int table_print(const struct table *t, enum output_format fmt, FILE *out);

/* Write one JSON string literal (quotes included), escaped, always UTF-8. */
void json_write_string(FILE *out, const char *s);

/* Write one CSV field, quoted only when RFC 4180 needs it. */
void csv_write_field(FILE *out, const char *s);

/* True when s is a number in JSON's grammar (e.g. "-1.5e3", not "1."). */
int json_is_number(const char *s);

#endif /* RAMDISK_OUTPUT_H */
