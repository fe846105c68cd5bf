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

/* Columns of the table; the last four only from a module that reports them. */
enum column {
	COL_DEVICE,
	COL_NAME,
	COL_SIZE,
	COL_BLOCK,
	COL_PARTS,
	COL_MEM_LIMIT,
	COL_USED,
	COL_CACHE,
	COL_PROFILE,
	COL_DIRTY,
	COL_BACKING,
	NR_COLUMNS,
};

static const struct {
	const char *name;
	int kind;
} columns[NR_COLUMNS] = {
	[COL_DEVICE] = { "DEVICE", TABLE_TEXT },   [COL_NAME] = { "NAME", TABLE_TEXT },
	[COL_SIZE] = { "SIZE", TABLE_NUMBER },	   [COL_BLOCK] = { "BLOCK", TABLE_NUMBER },
	[COL_PARTS] = { "PARTS", TABLE_NUMBER },   [COL_MEM_LIMIT] = { "MEM_LIMIT", TABLE_NUMBER },
	[COL_USED] = { "USED", TABLE_NUMBER },	   [COL_CACHE] = { "CACHE", TABLE_TEXT },
	[COL_PROFILE] = { "PROFILE", TABLE_TEXT }, [COL_DIRTY] = { "DIRTY", TABLE_NUMBER },
	[COL_BACKING] = { "BACKING", TABLE_TEXT },
};

static int add_human_row(struct table *t, const struct rd_device *d, const bool *shown)
{
	char dev[32], size[SIZE_STR_MAX], limit[SIZE_STR_MAX], used[SIZE_STR_MAX], block[24],
		parts[24], dirty[SIZE_STR_MAX];
	const char *profile = rd_profile_name(d);
	const char *cells[NR_COLUMNS + 1];
	size_t n = 0;

	snprintf(block, sizeof(block), "%" PRIu64, d->block_size);
	snprintf(parts, sizeof(parts), "%" PRId64, d->max_part);
	const char *all[NR_COLUMNS] = {
		[COL_DEVICE] = rd_devpath(d, dev, sizeof(dev)),
		[COL_NAME] = *d->name ? d->name : "-",
		[COL_SIZE] = human(d->has_size, d->size, false, size, sizeof(size)),
		[COL_BLOCK] = d->has_block_size ? block : "-",
		[COL_PARTS] = d->has_max_part ? parts : "-",
		[COL_MEM_LIMIT] = human(d->has_mem_limit, d->mem_limit, true, limit, sizeof(limit)),
		[COL_USED] = human(d->has_allocated, d->allocated_bytes, false, used, sizeof(used)),
		[COL_CACHE] = d->has_cache_mode ? d->cache_mode : "-",
		[COL_PROFILE] = profile ? profile : "-",
		[COL_DIRTY] = human(d->has_dirty, d->dirty_bytes, false, dirty, sizeof(dirty)),
		[COL_BACKING] = d->has_backing ? d->backing : "-",
	};
	for (size_t i = 0; i < NR_COLUMNS; i++)
		if (shown[i])
			cells[n++] = all[i];
	cells[n] = NULL;
	return table_add_row(t, cells);
}

static int print_human(const struct rd_device *list, size_t count)
{
	bool shown[NR_COLUMNS];
	struct table *t = table_new();
	int rc = RC_ERROR;

	for (size_t i = 0; i < NR_COLUMNS; i++)
		shown[i] = i < COL_CACHE;
	for (size_t i = 0; i < count; i++) {
		shown[COL_CACHE] |= list[i].has_cache_mode;
		shown[COL_PROFILE] |= list[i].has_throttle;
		shown[COL_DIRTY] |= list[i].has_dirty;
		shown[COL_BACKING] |= list[i].has_backing;
	}
	if (!t)
		goto out_nomem;
	for (size_t i = 0; i < NR_COLUMNS; i++)
		if (shown[i] && table_add_column(t, columns[i].name, columns[i].kind) < 0)
			goto out_nomem;
	for (size_t i = 0; i < count; i++)
		if (add_human_row(t, &list[i], shown))
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
	U64("index_bytes", index_bytes, has_index_bytes),
	U64("spare_pages", spare_pages, has_spare),
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
	U64("read_latency_ns", read_latency_ns, has_throttle),
	U64("write_latency_ns", write_latency_ns, has_throttle),
	U64("flush_latency_ns", flush_latency_ns, has_throttle),
	U64("bandwidth_mbps", bandwidth_mbps, has_throttle),
	U64("dirty_bytes", dirty_bytes, has_dirty),
	U64("power_cuts", power_cuts, has_power_cuts),
};

#define NR_JSON_FIELDS (sizeof(json_fields) / sizeof(json_fields[0]))

static int add_json_row(struct table *t, const struct rd_device *d)
{
	const char *profile = rd_profile_name(d);
	const char *base = (const char *)d;
	char dev[32];

	if (table_row_begin(t) || table_cell(t, "%s", d->name) ||
	    table_cell(t, "%s", d->index < 0 ? "" : rd_devpath(d, dev, sizeof(dev))) ||
	    table_cell(t, "%d", d->index) || table_cell(t, "%d", d->configured ? 0 : 1) ||
	    table_cell(t, "%s", d->has_backing ? d->backing : "") ||
	    table_cell(t, "%s", d->has_cache_mode ? d->cache_mode : "") ||
	    table_cell(t, "%s", profile ? profile : ""))
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
	    table_add_column(t, "backing", TABLE_TEXT) < 0 ||
	    table_add_column(t, "cache_mode", TABLE_TEXT) < 0 ||
	    table_add_column(t, "profile", TABLE_TEXT) < 0)
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
