// SPDX-License-Identifier: GPL-2.0
/*
 * Devices as a table or JSON, printed by libsmartcols (the library zramctl
 * and lsblk print with): list's output, and info's --json and table views;
 * their columns, and the options that choose them.
 */
#include "ramdiskctl.h"

#include "device_table.h"
#include "profiles.h"
#include "table.h"
#include "usage.h"

#include "size.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/*
 * How a column's cells are written. V_BYTES are human sizes ("1.0G") in
 * the table unless --bytes, and exact bytes in JSON; numbers stay numbers
 * in JSON, a value not known is "-" in the table and null in JSON.
 */
enum value_kind { V_TEXT, V_NUMBER, V_BYTES };

/*
 * Every column; the header is the name, JSON keys are its lower case.
 * The first eleven are the table's, the rest the figures list --json has
 * always shown (BLOCK_SIZE, MAX_PART, CACHE_MODE name the figures of
 * BLOCK, PARTS, CACHE with the keys of JSON); EXPORT and EXPORT_NQN came
 * last, so that no older column moved. Never rename one.
 */
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
	COL_INDEX,
	COL_LOAD_TIME,
	COL_CACHE_MODE,
	COL_BLOCK_SIZE,
	COL_MAX_PART,
	COL_NUMA_NODE,
	COL_ALLOCATED_PAGES,
	COL_ALLOCATED_BYTES,
	COL_INDEX_BYTES,
	COL_SPARE_PAGES,
	COL_READS,
	COL_READ_BYTES,
	COL_WRITES,
	COL_WRITE_BYTES,
	COL_DISCARDS,
	COL_DISCARD_BYTES,
	COL_WRITE_ZEROES,
	COL_WRITE_ZEROES_BYTES,
	COL_FLUSHES,
	COL_ALLOC_FAILURES,
	COL_READ_LATENCY_NS,
	COL_WRITE_LATENCY_NS,
	COL_FLUSH_LATENCY_NS,
	COL_BANDWIDTH_MBPS,
	COL_DIRTY_BYTES,
	COL_POWER_CUTS,
	COL_EXPORT,
	COL_EXPORT_NQN,
	NR_COLUMNS,
};

static const struct {
	const char *name;
	enum value_kind kind;
	const char *help;
} columns[NR_COLUMNS] = {
	[COL_DEVICE] = { "DEVICE", V_TEXT, "device path, /dev/ramdiskN" },
	[COL_NAME] = { "NAME", V_TEXT, "configuration name" },
	[COL_SIZE] = { "SIZE", V_BYTES, "capacity" },
	[COL_BLOCK] = { "BLOCK", V_NUMBER, "logical block size" },
	[COL_PARTS] = { "PARTS", V_NUMBER, "partitions allowed" },
	[COL_MEM_LIMIT] = { "MEM_LIMIT", V_BYTES, "most RAM the data may take" },
	[COL_USED] = { "USED", V_BYTES, "RAM the data takes" },
	[COL_CACHE] = { "CACHE", V_TEXT, "cache mode" },
	[COL_PROFILE] = { "PROFILE", V_TEXT, "emulated disk profile" },
	[COL_DIRTY] = { "DIRTY", V_BYTES, "bytes a power cut would lose" },
	[COL_BACKING] = { "BACKING", V_TEXT, "pages or phys@ADDR" },
	[COL_INDEX] = { "INDEX", V_NUMBER, "N of /dev/ramdiskN, -1 when off" },
	[COL_LOAD_TIME] = { "LOAD_TIME", V_NUMBER, "1 when made at module load" },
	[COL_CACHE_MODE] = { "CACHE_MODE", V_TEXT, "cache mode" },
	[COL_BLOCK_SIZE] = { "BLOCK_SIZE", V_NUMBER, "logical block size" },
	[COL_MAX_PART] = { "MAX_PART", V_NUMBER, "partitions allowed" },
	[COL_NUMA_NODE] = { "NUMA_NODE", V_NUMBER, "NUMA node, -1 for any" },
	[COL_ALLOCATED_PAGES] = { "ALLOCATED_PAGES", V_NUMBER, "data pages" },
	[COL_ALLOCATED_BYTES] = { "ALLOCATED_BYTES", V_NUMBER, "data bytes" },
	[COL_INDEX_BYTES] = { "INDEX_BYTES", V_NUMBER, "memory of the page index" },
	[COL_SPARE_PAGES] = { "SPARE_PAGES", V_NUMBER, "pages allocated ahead" },
	[COL_READS] = { "READS", V_NUMBER, "read bios" },
	[COL_READ_BYTES] = { "READ_BYTES", V_NUMBER, "bytes read" },
	[COL_WRITES] = { "WRITES", V_NUMBER, "write bios" },
	[COL_WRITE_BYTES] = { "WRITE_BYTES", V_NUMBER, "bytes written" },
	[COL_DISCARDS] = { "DISCARDS", V_NUMBER, "discard bios" },
	[COL_DISCARD_BYTES] = { "DISCARD_BYTES", V_NUMBER, "bytes discarded" },
	[COL_WRITE_ZEROES] = { "WRITE_ZEROES", V_NUMBER, "write-zeroes bios" },
	[COL_WRITE_ZEROES_BYTES] = { "WRITE_ZEROES_BYTES", V_NUMBER, "bytes zeroed" },
	[COL_FLUSHES] = { "FLUSHES", V_NUMBER, "flushes" },
	[COL_ALLOC_FAILURES] = { "ALLOC_FAILURES", V_NUMBER, "failed page allocations" },
	[COL_READ_LATENCY_NS] = { "READ_LATENCY_NS", V_NUMBER, "emulated read latency" },
	[COL_WRITE_LATENCY_NS] = { "WRITE_LATENCY_NS", V_NUMBER, "emulated write latency" },
	[COL_FLUSH_LATENCY_NS] = { "FLUSH_LATENCY_NS", V_NUMBER, "emulated flush latency" },
	[COL_BANDWIDTH_MBPS] = { "BANDWIDTH_MBPS", V_NUMBER, "emulated bandwidth, 0 none" },
	[COL_DIRTY_BYTES] = { "DIRTY_BYTES", V_NUMBER, "bytes a power cut would lose" },
	[COL_POWER_CUTS] = { "POWER_CUTS", V_NUMBER, "power cuts so far" },
	[COL_EXPORT] = { "EXPORT", V_TEXT, "NVMe-oF export: tcp IP:PORT or loop" },
	[COL_EXPORT_NQN] = { "EXPORT_NQN", V_TEXT, "the exporting subsystem's NQN" },
};

/*
 * The table's columns; CACHE to BACKING only when some device reports
 * them, EXPORT only when some device is exported.
 */
static const enum column table_default[] = {
	COL_DEVICE, COL_NAME,  COL_SIZE,    COL_BLOCK, COL_PARTS,   COL_MEM_LIMIT,
	COL_USED,   COL_CACHE, COL_PROFILE, COL_DIRTY, COL_BACKING, COL_EXPORT,
};

/* JSON's fields, in the order list --json has always written them. */
static const enum column json_default[] = {
	COL_NAME,
	COL_DEVICE,
	COL_INDEX,
	COL_LOAD_TIME,
	COL_BACKING,
	COL_CACHE_MODE,
	COL_PROFILE,
	COL_SIZE,
	COL_BLOCK_SIZE,
	COL_MAX_PART,
	COL_MEM_LIMIT,
	COL_NUMA_NODE,
	COL_ALLOCATED_PAGES,
	COL_ALLOCATED_BYTES,
	COL_INDEX_BYTES,
	COL_SPARE_PAGES,
	COL_READS,
	COL_READ_BYTES,
	COL_WRITES,
	COL_WRITE_BYTES,
	COL_DISCARDS,
	COL_DISCARD_BYTES,
	COL_WRITE_ZEROES,
	COL_WRITE_ZEROES_BYTES,
	COL_FLUSHES,
	COL_ALLOC_FAILURES,
	COL_READ_LATENCY_NS,
	COL_WRITE_LATENCY_NS,
	COL_FLUSH_LATENCY_NS,
	COL_BANDWIDTH_MBPS,
	COL_DIRTY_BYTES,
	COL_POWER_CUTS,
	COL_EXPORT,
	COL_EXPORT_NQN,
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void print_columns_help(FILE *out)
{
	fprintf(out, "Columns (--output; JSON keys are in lower case):\n");
	for (size_t i = 0; i < NR_COLUMNS; i++)
		fprintf(out, "    %-20s %s\n", columns[i].name, columns[i].help);
	fprintf(out, "The table shows DEVICE to BACKING (CACHE to BACKING only when\n"
		     "the module reports them) and EXPORT when a device is exported;\n"
		     "--json every column but BLOCK, PARTS, USED, CACHE and DIRTY,\n"
		     "whose figures BLOCK_SIZE, MAX_PART, ALLOCATED_BYTES, CACHE_MODE\n"
		     "and DIRTY_BYTES give.\n");
}

int table_option(int opt, const char *arg, struct table_opts *o)
{
	switch (opt) {
	case 'j':
		o->json = true;
		return 0;
	case 'r':
		o->raw = true;
		return 0;
	case 'n':
		o->noheadings = true;
		return 0;
	case 'b':
		o->bytes = true;
		return 0;
	case 'O':
		o->all = true;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	}
	return -1;
}

static int find_column(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_COLUMNS; i++)
		if (strlen(columns[i].name) == len && !strncasecmp(columns[i].name, name, len))
			return (int)i;
	return -1;
}

int table_columns_parse(const char *cmd, struct table_opts *o)
{
	const char *p = o->output;

	o->ncols = 0;
	o->plus = false;
	if (o->all) {
		for (size_t i = 0; i < NR_COLUMNS; i++)
			o->cols[o->ncols++] = (int)i;
		return RC_OK;
	}
	if (!p)
		return RC_OK;
	/* "+COLS": the default columns and these */
	if (*p == '+') {
		o->plus = true;
		p++;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		int col = find_column(p, len);

		if (col < 0)
			return usage_error(cmd,
					   "unknown column '%.*s' (the columns are in %s help %s)",
					   (int)len, p, program_invocation_short_name, cmd);
		if (o->ncols == ARRAY_LEN(o->cols))
			return usage_error(cmd, "too many columns");
		o->cols[o->ncols++] = col;
		if (!p[len])
			break;
		p += len + 1;
	}
	return RC_OK;
}

static const char *u64(bool known, uint64_t v, char *buf, size_t len)
{
	if (!known)
		return NULL;
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static const char *s64(bool known, int64_t v, char *buf, size_t len)
{
	if (!known)
		return NULL;
	snprintf(buf, len, "%" PRId64, v);
	return buf;
}

/* Exact bytes for scripts, a human size (and "none" for 0) for people. */
static const char *bytes(bool known, uint64_t v, bool human, bool zero_is_none, char *buf,
			 size_t len)
{
	if (!known)
		return NULL;
	if (!human)
		return u64(true, v, buf, len);
	if (zero_is_none && !v)
		return "none";
	return size_format(v, buf, len);
}

/* A cell's text, or NULL when the value is not known. */
static const char *cell(const struct rdctl_device *d, enum column col, bool human, char *buf,
			size_t len)
{
	switch (col) {
	case COL_DEVICE:
		return d->index < 0 ? NULL : rd_devpath(d, buf, len);
	case COL_NAME:
		return *d->name ? d->name : NULL;
	case COL_SIZE:
		return bytes(d->has_size, d->size, human, false, buf, len);
	case COL_BLOCK:
	case COL_BLOCK_SIZE:
		return u64(d->has_block_size, d->block_size, buf, len);
	case COL_PARTS:
	case COL_MAX_PART:
		return s64(d->has_max_part, d->max_part, buf, len);
	case COL_MEM_LIMIT:
		return bytes(d->has_mem_limit, d->mem_limit, human, true, buf, len);
	case COL_USED:
		return bytes(d->has_allocated, d->allocated_bytes, human, false, buf, len);
	case COL_CACHE:
	case COL_CACHE_MODE:
		return d->has_cache_mode ? d->cache_mode : NULL;
	case COL_PROFILE:
		return rd_profile_name(d);
	case COL_DIRTY:
		return bytes(d->has_dirty, d->dirty_bytes, human, false, buf, len);
	case COL_BACKING:
		return d->has_backing ? d->backing : NULL;
	case COL_INDEX:
		return s64(true, d->index, buf, len);
	case COL_LOAD_TIME:
		return s64(true, !d->configured, buf, len);
	case COL_NUMA_NODE:
		return s64(d->has_node, d->numa_node, buf, len);
	case COL_ALLOCATED_PAGES:
		return u64(d->has_allocated, d->allocated_pages, buf, len);
	case COL_ALLOCATED_BYTES:
		return u64(d->has_allocated, d->allocated_bytes, buf, len);
	case COL_INDEX_BYTES:
		return u64(d->has_index_bytes, d->index_bytes, buf, len);
	case COL_SPARE_PAGES:
		return u64(d->has_spare, d->spare_pages, buf, len);
	case COL_READS:
		return u64(d->has_reads, d->reads, buf, len);
	case COL_READ_BYTES:
		return u64(d->has_reads, d->read_bytes, buf, len);
	case COL_WRITES:
		return u64(d->has_writes, d->writes, buf, len);
	case COL_WRITE_BYTES:
		return u64(d->has_writes, d->write_bytes, buf, len);
	case COL_DISCARDS:
		return u64(d->has_discards, d->discards, buf, len);
	case COL_DISCARD_BYTES:
		return u64(d->has_discards, d->discard_bytes, buf, len);
	case COL_WRITE_ZEROES:
		return u64(d->has_write_zeroes, d->write_zeroes, buf, len);
	case COL_WRITE_ZEROES_BYTES:
		return u64(d->has_write_zeroes, d->write_zeroes_bytes, buf, len);
	case COL_FLUSHES:
		return u64(d->has_flushes, d->flushes, buf, len);
	case COL_ALLOC_FAILURES:
		return u64(d->has_alloc_failures, d->alloc_failures, buf, len);
	case COL_READ_LATENCY_NS:
		return u64(d->has_throttle, d->read_latency_ns, buf, len);
	case COL_WRITE_LATENCY_NS:
		return u64(d->has_throttle, d->write_latency_ns, buf, len);
	case COL_FLUSH_LATENCY_NS:
		return u64(d->has_throttle, d->flush_latency_ns, buf, len);
	case COL_BANDWIDTH_MBPS:
		return u64(d->has_throttle, d->bandwidth_mbps, buf, len);
	case COL_DIRTY_BYTES:
		return u64(d->has_dirty, d->dirty_bytes, buf, len);
	case COL_POWER_CUTS:
		return u64(d->has_power_cuts, d->power_cuts, buf, len);
	case COL_EXPORT:
		return *d->export ? d->export : NULL;
	case COL_EXPORT_NQN:
		return *d->export_nqn ? d->export_nqn : NULL;
	case NR_COLUMNS:
		break;
	}
	return NULL;
}

/*
 * The columns to print: --output's, else the defaults (JSON's, or the
 * table's without the emulation columns no device reports), then any
 * "+COLS".
 */
static size_t pick_columns(const struct rdctl_device *list, size_t count,
			   const struct table_opts *o, int *cols)
{
	bool shown[NR_COLUMNS] = { false };
	size_t n = 0;

	if (o->ncols && !o->plus) {
		memcpy(cols, o->cols, o->ncols * sizeof(*cols));
		return o->ncols;
	}
	if (o->json) {
		for (size_t i = 0; i < ARRAY_LEN(json_default); i++)
			cols[n++] = json_default[i];
	} else {
		for (size_t i = 0; i < count; i++) {
			shown[COL_CACHE] |= list[i].has_cache_mode;
			shown[COL_PROFILE] |= list[i].has_throttle;
			shown[COL_DIRTY] |= list[i].has_dirty;
			shown[COL_BACKING] |= list[i].has_backing;
			shown[COL_EXPORT] |= list[i].export[0] != '\0';
		}
		for (size_t i = 0; i < ARRAY_LEN(table_default); i++) {
			enum column c = table_default[i];

			if (c < COL_CACHE || shown[c])
				cols[n++] = c;
		}
	}
	for (size_t i = 0; i < o->ncols; i++)
		cols[n++] = o->cols[i];
	return n;
}

/*
 * libsmartcols prints nothing for a table without lines; a person (or
 * grep) still wants the header saying what would be listed.
 */
int print_devices(const struct rdctl_device *list, size_t count, const struct table_opts *o)
{
	int cols[ARRAY_LEN(json_default) + ARRAY_LEN(o->cols)];
	struct table_column tcols[ARRAY_LEN(cols)];
	const struct table_style style = { o->json, o->raw, o->noheadings };
	bool human = !o->json && !o->bytes;
	struct libscols_table *tb;
	size_t n = pick_columns(list, count, o, cols);

	for (size_t i = 0; i < n; i++) {
		bool text = columns[cols[i]].kind == V_TEXT;

		tcols[i] = (struct table_column){ columns[cols[i]].name,
						  text ? SCOLS_JSON_STRING : SCOLS_JSON_NUMBER,
						  text ? 0 : SCOLS_FL_RIGHT };
	}
	/* the JSON document is {"devices": [...]} */
	tb = table_new("devices", tcols, n, &style);
	if (!tb)
		return RC_ERROR;
	for (size_t r = 0; r < count; r++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			goto out_nomem;
		for (size_t i = 0; i < n; i++) {
			char buf[64];
			const char *s = cell(&list[r], cols[i], human, buf, sizeof(buf));

			/* JSON shows an unknown value as null, the table as "-" */
			if (!s && o->json)
				continue;
			if (scols_line_set_data(ln, i, s ? s : "-"))
				goto out_nomem;
		}
	}
	return table_print(tb, &style);
out_nomem:
	scols_unref_table(tb);
	warnx("out of memory");
	return RC_ERROR;
}
