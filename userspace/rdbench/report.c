// SPDX-License-Identifier: GPL-2.0
/*
 * Result tables: the median/min/max/raw columns every subcommand uses, and
 * the names of the sizes in their rows.
 */
#include "rdbench.h"
#include "stats.h"

#include <err.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table *report_new(const struct common *c)
{
	struct table *t = table_new();

	(void)c;
	if (!t)
		err(EXIT_RUN_FAILED, "out of memory");
	return t;
}

static void add_column(struct table *t, const char *name, int kind)
{
	if (table_add_column(t, name, kind) < 0)
		err(EXIT_RUN_FAILED, "table column %s", name);
}

int report_stat_columns(struct table *t, const char *name, bool human_range)
{
	int range = TABLE_NUMBER | (human_range ? 0 : TABLE_MACHINE_ONLY);
	char col[96];

	add_column(t, name, TABLE_NUMBER);
	snprintf(col, sizeof(col), "%s_min", name);
	add_column(t, col, range);
	snprintf(col, sizeof(col), "%s_max", name);
	add_column(t, col, range);
	snprintf(col, sizeof(col), "%s_runs", name);
	add_column(t, col, TABLE_NUMBER_LIST | TABLE_MACHINE_ONLY);
	return 0;
}

/* Machine output keeps full precision; people get human_fmt. */
static void format_number(char *buf, size_t len, double v, bool human, const char *human_fmt)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, human ? human_fmt : "%.9g", v);
}

static void cell(struct table *t, const char *s)
{
	if (table_cell(t, "%s", s))
		err(EXIT_RUN_FAILED, "table cell");
}

int report_stat_cells(struct table *t, const struct common *c, const double *values, size_t n,
		      const char *human_fmt)
{
	bool human = c->format == OUTPUT_HUMAN;
	char num[64], *list = NULL;
	size_t list_len = 0;
	struct stats st;
	FILE *f;

	if (!n || stats_compute(values, n, &st)) {
		cell(t, "-");
		cell(t, "-");
		cell(t, "-");
		cell(t, "");
		return 0;
	}
	format_number(num, sizeof(num), st.median, human, human_fmt);
	cell(t, num);
	format_number(num, sizeof(num), st.min, human, human_fmt);
	cell(t, num);
	format_number(num, sizeof(num), st.max, human, human_fmt);
	cell(t, num);
	f = open_memstream(&list, &list_len);
	if (!f)
		err(EXIT_RUN_FAILED, "out of memory");
	for (size_t i = 0; i < n; i++) {
		format_number(num, sizeof(num), values[i], false, NULL);
		fprintf(f, "%s%s", i ? " " : "", num);
	}
	fclose(f);
	cell(t, list);
	free(list);
	return 0;
}

double report_median(const double *values, size_t n)
{
	struct stats st;

	if (!n || stats_compute(values, n, &st))
		return NAN;
	return st.median;
}

int report_print(struct table *t, const struct common *c)
{
	int ret = table_print(t, c->format, stdout);

	if (ret)
		warn("writing the results");
	table_free(t);
	return ret;
}

/* Sizes as lmbench names them: "0k", "4k", "1m", else plain bytes. */
void size_label(uint64_t bytes, char *buf, size_t len)
{
	if (bytes && !(bytes % (1u << 30)))
		snprintf(buf, len, "%" PRIu64 "g", bytes >> 30);
	else if (bytes && !(bytes % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m", bytes >> 20);
	else if (!(bytes % 1024))
		snprintf(buf, len, "%" PRIu64 "k", bytes >> 10);
	else
		snprintf(buf, len, "%" PRIu64, bytes);
}
