/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tables ramdiskctl prints, on libsmartcols as lsblk and zramctl are:
 * aligned, --raw, --noheadings or --json from one description.
 */
#ifndef RAMDISKCTL_TABLE_H
#define RAMDISKCTL_TABLE_H

#include <libsmartcols.h>
#include <stdbool.h>
#include <stddef.h>

struct table_column {
	const char *name;
	int json_type; /* SCOLS_JSON_* */
	int flags; /* SCOLS_FL_* */
};

struct table_style {
	bool json, raw, noheadings;
};

/*
 * A table with these columns, named for the JSON document ({"name": [...]});
 * NULL, after a message, when out of memory.
 */
struct libscols_table *table_new(const char *name, const struct table_column *cols, size_t n,
				 const struct table_style *style);
/*
 * Prints tb and frees it: RC_OK or RC_ERROR after a message. A table
 * without lines prints its header alone (libsmartcols would print nothing),
 * or an empty JSON list.
 */
int table_print(struct libscols_table *tb, const struct table_style *style);
/*
 * Adds a line to tb for each of the n items of size bytes at items, its
 * cells set by cells (nonzero when out of memory), then prints and frees
 * tb as table_print() does: RC_OK, or RC_ERROR after a message.
 */
int table_print_items(struct libscols_table *tb, const void *items, size_t n, size_t size,
		      int (*cells)(struct libscols_line *ln, const void *item),
		      const struct table_style *style);

#endif /* RAMDISKCTL_TABLE_H */
