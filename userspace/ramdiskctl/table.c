// SPDX-License-Identifier: GPL-2.0
/*
 * The one place ramdiskctl sets up libsmartcols, so that every table
 * takes --json, --raw and --noheadings alike.
 */
#include "table.h"

#include "ramdiskctl.h"

#include <err.h>
#include <stdio.h>

struct libscols_table *table_new(const char *name, const struct table_column *cols, size_t n,
				 const struct table_style *style)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb || scols_table_set_name(tb, name))
		goto out_nomem;
	scols_table_enable_json(tb, style->json);
	scols_table_enable_raw(tb, style->raw);
	scols_table_enable_noheadings(tb, style->noheadings);
	for (size_t i = 0; i < n; i++) {
		struct libscols_column *cl =
			scols_table_new_column(tb, cols[i].name, 0, cols[i].flags);

		if (!cl || scols_column_set_json_type(cl, cols[i].json_type))
			goto out_nomem;
	}
	return tb;
out_nomem:
	scols_unref_table(tb);
	warnx("out of memory");
	return NULL;
}

int table_print(struct libscols_table *tb, const struct table_style *style)
{
	int rc = RC_OK;

	if (!scols_table_get_nlines(tb) && !style->json) {
		size_t n = scols_table_get_ncols(tb);

		for (size_t i = 0; i < n && !style->noheadings; i++)
			printf("%s%s", scols_column_get_name(scols_table_get_column(tb, i)),
			       i + 1 < n ? " " : "\n");
	} else if (scols_print_table(tb)) {
		warnx("writing the table failed");
		rc = RC_ERROR;
	}
	scols_unref_table(tb);
	return rc;
}

int table_print_items(struct libscols_table *tb, const void *items, size_t n, size_t size,
		      int (*cells)(struct libscols_line *ln, const void *item),
		      const struct table_style *style)
{
	for (size_t i = 0; i < n; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln || cells(ln, (const char *)items + i * size)) {
			scols_unref_table(tb);
			warnx("out of memory");
			return RC_ERROR;
		}
	}
	return table_print(tb, style);
}
