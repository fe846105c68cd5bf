// SPDX-License-Identifier: GPL-2.0
/* list: every device and configuration as a table or JSON. */
#include "ramdiskctl.h"

#include "die.h"
#include "output.h"
#include "size.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* Human sizes for people; "none" reads better than "0" for no limit. */
static const char *human(bool known, uint64_t v, bool zero_is_none, char *buf, size_t len)
{
	if (!known)
		return "-";
	if (zero_is_none && !v)
		return "none";
	return size_format(v, buf, len);
}

static int add_human_row(struct table *t, const struct rd_device *d)
{
	char dev[32], size[SIZE_STR_MAX], limit[SIZE_STR_MAX], used[SIZE_STR_MAX], block[24],
		parts[24];

	snprintf(block, sizeof(block), "%" PRIu64, d->block_size);
	snprintf(parts, sizeof(parts), "%" PRId64, d->max_part);
	const char *cells[] = {
		rd_devpath(d, dev, sizeof(dev)),
		*d->name ? d->name : "-",
		human(d->has_size, d->size, false, size, sizeof(size)),
		d->has_block_size ? block : "-",
		d->has_max_part ? parts : "-",
		human(d->has_mem_limit, d->mem_limit, true, limit, sizeof(limit)),
		human(d->has_allocated, d->allocated_bytes, false, used, sizeof(used)),
		d->has_backing ? d->backing : "-",
	};
	return table_add_row(t, cells);
}

static int print_human(const struct rd_device *list, size_t count)
{
	static const struct {
		const char *name;
		int kind;
	} cols[] = {
		{ "DEVICE", TABLE_TEXT },  { "NAME", TABLE_TEXT },    { "SIZE", TABLE_NUMBER },
		{ "BLOCK", TABLE_NUMBER }, { "PARTS", TABLE_NUMBER }, { "MEM_LIMIT", TABLE_NUMBER },
		{ "USED", TABLE_NUMBER },  { "BACKING", TABLE_TEXT },
	};
	struct table *t = table_new();
	size_t ncols = sizeof(cols) / sizeof(cols[0]);
	bool any_backing = false;
	int rc = RC_ERROR;

	/* BACKING only from a module that reports it (the last column) */
	for (size_t i = 0; i < count; i++)
		any_backing |= list[i].has_backing;
	if (!any_backing)
		ncols--;
	if (!t)
		goto out_nomem;
	for (size_t i = 0; i < ncols; i++)
		if (table_add_column(t, cols[i].name, cols[i].kind) < 0)
			goto out_nomem;
	for (size_t i = 0; i < count; i++)
		if (add_human_row(t, &list[i]))
			goto out_nomem;
	rc = table_print(t, OUTPUT_HUMAN, stdout) ? RC_ERROR : RC_OK;
	table_free(t);
	return rc;
out_nomem:
	table_free(t);
	errmsg("out of memory");
	return RC_ERROR;
}

/* A JSON field: its key, and where its value lives in struct rd_device. */
struct json_field {
	const char *key;
	enum { F_U64, F_S64 } type;
	size_t value, known; /* offsets; known == 0: always known */
};

#define U64(key, field, known)                                                                   \
	{                                                                                        \
		key, F_U64, offsetof(struct rd_device, field), offsetof(struct rd_device, known) \
	}
#define S64(key, field, known)                                                                   \
	{                                                                                        \
		key, F_S64, offsetof(struct rd_device, field), offsetof(struct rd_device, known) \
	}

static const struct json_field json_fields[] = {
	U64("size", size, has_size),
	U64("block_size", block_size, has_block_size),
	S64("max_part", max_part, has_max_part),
	U64("mem_limit", mem_limit, has_mem_limit),
	S64("numa_node", numa_node, has_node),
	U64("allocated_pages", allocated_pages, has_allocated),
	U64("allocated_bytes", allocated_bytes, has_allocated),
	U64("reads", reads, has_reads),
	U64("read_bytes", read_bytes, has_reads),
	U64("writes", writes, has_writes),
	U64("write_bytes", write_bytes, has_writes),
	U64("discards", discards, has_discards),
	U64("discard_bytes", discard_bytes, has_discards),
	U64("write_zeroes", write_zeroes, has_write_zeroes),
	U64("write_zeroes_bytes", write_zeroes_bytes, has_write_zeroes),
	U64("flushes", flushes, has_flushes),
	U64("alloc_failures", alloc_failures, has_alloc_failures),
};

#define NR_JSON_FIELDS (sizeof(json_fields) / sizeof(json_fields[0]))

static int add_json_row(struct table *t, const struct rd_device *d)
{
	const char *base = (const char *)d;
	char dev[32];

	if (table_row_begin(t) || table_cell(t, "%s", d->name) ||
	    table_cell(t, "%s", d->index < 0 ? "" : rd_devpath(d, dev, sizeof(dev))) ||
	    table_cell(t, "%d", d->index) || table_cell(t, "%d", d->configured ? 0 : 1) ||
	    table_cell(t, "%s", d->has_backing ? d->backing : ""))
		return -1;
	for (size_t i = 0; i < NR_JSON_FIELDS; i++) {
		const struct json_field *f = &json_fields[i];
		int rc;

		if (!*(const bool *)(base + f->known))
			rc = table_cell(t, "-");
		else if (f->type == F_U64)
			rc = table_cell(t, "%" PRIu64, *(const uint64_t *)(base + f->value));
		else
			rc = table_cell(t, "%" PRId64, *(const int64_t *)(base + f->value));
		if (rc)
			return -1;
	}
	return 0;
}

int print_devices_json(const struct rd_device *list, size_t count)
{
	struct table *t = table_new();
	int rc = RC_ERROR;

	if (!t || table_add_column(t, "name", TABLE_TEXT) < 0 ||
	    table_add_column(t, "device", TABLE_TEXT) < 0 ||
	    table_add_column(t, "index", TABLE_NUMBER) < 0 ||
	    table_add_column(t, "load_time", TABLE_NUMBER) < 0 ||
	    table_add_column(t, "backing", TABLE_TEXT) < 0)
		goto out_nomem;
	for (size_t i = 0; i < NR_JSON_FIELDS; i++)
		if (table_add_column(t, json_fields[i].key, TABLE_NUMBER) < 0)
			goto out_nomem;
	for (size_t i = 0; i < count; i++)
		if (add_json_row(t, &list[i]))
			goto out_nomem;
	rc = table_print(t, OUTPUT_JSON, stdout) ? RC_ERROR : RC_OK;
	table_free(t);
	return rc;
out_nomem:
	table_free(t);
	errmsg("out of memory");
	return RC_ERROR;
}

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rd_device *list;
	bool json = false;
	size_t count;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, ":jh", longopts, NULL)) != -1) {
		if (opt == 'j')
			json = true;
		else if (opt == 'h')
			return command_help("list");
		else
			return option_error("list", argv, opt);
	}
	if (optind < argc)
		return usage_error("list", "unexpected argument '%s'", argv[optind]);
	if ((rc = require_module()))
		return rc;
	if (rd_list_all(&list, &count))
		return report_errno(errno, "list: %s", configfs_root());
	rc = json ? print_devices_json(list, count) : print_human(list, count);
	free(list);
	return rc;
}
