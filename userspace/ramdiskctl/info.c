// SPDX-License-Identifier: GPL-2.0
/* info: one device's configuration and statistics, one "key: value" a line. */
#include "ramdiskctl.h"

#include "create_options.h"
#include "device_table.h"
#include "exported.h"
#include "help.h"
#include "module_check.h"
#include "usage.h"

#include "attr_file.h"
#include "size.h"

#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

static void field(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void field(const char *key, const char *fmt, ...)
{
	va_list ap;

	/* at least one space after a long key */
	printf("%-15s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void text_field(const char *key, const char *value)
{
	field(key, "%s", value);
}

static void unknown(const char *key)
{
	field(key, "unknown");
}

/* " (1.5M)" after a byte count, or nothing when it would only repeat it. */
static const char *human_suffix(uint64_t bytes, char *buf, size_t len)
{
	char h[SIZE_STR_MAX];

	if (bytes < 1024)
		return "";
	snprintf(buf, len, " (%s)", size_format(bytes, h, sizeof(h)));
	return buf;
}

/* "1073741824 (1.0G)": exact for scripts, human for people. */
static void bytes_field(const char *key, bool known, uint64_t v)
{
	char h[SIZE_STR_MAX + 3];

	if (!known)
		unknown(key);
	else
		field(key, "%" PRIu64 "%s", v, human_suffix(v, h, sizeof(h)));
}

static void io_field(const char *key, bool known, uint64_t count, uint64_t bytes)
{
	char h[SIZE_STR_MAX + 3];

	if (!known)
		unknown(key);
	else
		field(key, "%" PRIu64 " bios, %" PRIu64 " bytes%s", count, bytes,
		      human_suffix(bytes, h, sizeof(h)));
}

/*
 * A zoned device: its zones, what a sequential one takes, its limits and,
 * while powered, how many are in each condition.
 */
static void print_zones(const struct rdctl_device *d)
{
	char h[SIZE_STR_MAX + 3];
	const uint64_t *c = d->zone_conditions;

	if (!d->zoned)
		return;
	field("zones:", "%" PRIu64 " of %" PRIu64 " bytes%s, %" PRIu64 " conventional", d->nr_zones,
	      d->zone_size, human_suffix(d->zone_size, h, sizeof(h)), d->zone_nr_conv);
	if (d->zone_capacity)
		bytes_field("zone_capacity:", true, d->zone_capacity);
	field("zone_limits:", "%" PRIu64 " open, %" PRIu64 " active (0: no limit)",
	      d->zone_max_open, d->zone_max_active);
	if (d->has_zone_conditions)
		field("zone_conditions:",
		      "%" PRIu64 " empty, %" PRIu64 " implicitly open, %" PRIu64
		      " explicitly open, %" PRIu64 " closed, %" PRIu64 " full",
		      c[0], c[1], c[2], c[3], c[4]);
}

/*
 * What create sets and info has no line of its own for, in create's
 * order, as the module shows it: a new option of create's table shows
 * here without a line of info's. Nothing for a device made at module load
 * (no configuration to read) or an attribute the module lacks.
 */
static void print_options(const struct rdctl_device *d)
{
	char path[PATH_MAX], value[64], key[48];
	uint64_t bytes;

	if (!d->configured)
		return;
	for (int i = 0; i < COPT_COUNT; i++) {
		const struct create_option *c = &create_options[i];

		if (c->info_own || !c->attr)
			continue;
		path_fmt(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), d->name, c->attr);
		if (attr_read_line(path, value, sizeof(value)))
			continue;
		snprintf(key, sizeof(key), "%s:", c->attr);
		if (c->kind == CK_SIZE && !attr_read_u64(path, &bytes))
			bytes_field(key, true, bytes);
		else
			text_field(key, value);
	}
}

static void print_info(const struct rdctl_device *d)
{
	char dev[32], h[SIZE_STR_MAX + 3];

	field("device:", "%s",
	      d->index < 0 ? "none (powered off)" : rd_devpath(d, dev, sizeof(dev)));
	field("name:", "%s", d->configured ? d->name : "(made at module load)");
	bytes_field("size:", d->has_size, d->size);
	if (d->has_block_size)
		field("block_size:", "%" PRIu64, d->block_size);
	else
		unknown("block_size:");
	if (d->has_max_part)
		field("max_part:", "%" PRId64, d->max_part);
	else
		unknown("max_part:");
	if (d->has_mem_limit && !d->mem_limit)
		field("mem_limit:", "0 (unlimited)");
	else
		bytes_field("mem_limit:", d->has_mem_limit, d->mem_limit);
	if (d->has_node)
		field("numa_node:", "%" PRId64 "%s", d->numa_node,
		      d->numa_node < 0 ? " (any)" : "");
	else
		unknown("numa_node:");
	if (!d->has_backing && d->backing_hidden)
		field("backing:", "unavailable (only root may read it)");
	else if (!d->has_backing)
		unknown("backing:");
	else if (d->phys_size)
		field("backing:", "%s%s, %" PRIu64 " bytes with the header%s%s", d->backing,
		      d->backing_hidden ? " (the address only root may read)" : "", d->phys_size,
		      *d->backing_uuid ? ", uuid " : "", d->backing_uuid);
	else
		field("backing:", "%s", d->backing);
	print_options(d);
	print_emulation(d, text_field);
	print_zones(d);
	if (*d->export)
		field("export:", "%s (NQN %s)", d->export, d->export_nqn);
	if (d->index < 0)
		return;
	if (!d->has_stats) {
		field("statistics:", "unavailable");
		return;
	}
	if (d->has_allocated)
		field("allocated:", "%" PRIu64 " pages, %" PRIu64 " bytes%s", d->allocated_pages,
		      d->allocated_bytes, human_suffix(d->allocated_bytes, h, sizeof(h)));
	else
		unknown("allocated:");
	/* a module older than the page index has no such file: nothing to show */
	if (d->has_index_bytes)
		bytes_field("index_bytes:", true, d->index_bytes);
	/* a module older than spare pages has no such file: nothing to show */
	if (d->has_spare)
		field("spare:", "%" PRIu64 " pages", d->spare_pages);
	io_field("reads:", d->has_reads, d->reads, d->read_bytes);
	io_field("writes:", d->has_writes, d->writes, d->write_bytes);
	io_field("discards:", d->has_discards, d->discards, d->discard_bytes);
	io_field("write_zeroes:", d->has_write_zeroes, d->write_zeroes, d->write_zeroes_bytes);
	if (d->has_flushes)
		field("flushes:", "%" PRIu64, d->flushes);
	else
		unknown("flushes:");
	if (d->has_alloc_failures)
		field("alloc_failures:", "%" PRIu64, d->alloc_failures);
	else
		unknown("alloc_failures:");
	if (d->has_badblock_errors)
		field("badblock_errors:", "%" PRIu64 " reads, %" PRIu64 " writes",
		      d->badblock_read_errors, d->badblock_write_errors);
	if (d->has_fault_counts)
		field("scheduled_faults:",
		      "%" PRIu64 " errors, %" PRIu64 " drops, %" PRIu64 " delays", d->fault_errors,
		      d->fault_drops, d->fault_delays);
	/* a module older than checkpoints has neither: nothing to show */
	if (d->has_checkpoints)
		field("checkpoints:", "%u", d->checkpoints);
	if (d->has_checkpoint_pages)
		field("checkpoint_pages:", "%" PRIu64 " pages", d->checkpoint_pages);
	if (d->clone_of[0])
		field("clone_of:", "%s", d->clone_of);
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		TABLE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct table_opts o = { 0 };
	struct rdctl_device d;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, ":" TABLE_SHORTOPTS "h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("info");
		if (table_option(opt, optarg, &o))
			return option_error("info", argv, opt);
	}
	if (optind == argc)
		return usage_error("info", "which device? give NAME or DEV");
	if (optind + 1 < argc)
		return usage_error("info", "one device at a time");
	if ((rc = table_columns_parse("info", &o)))
		return rc;
	if ((rc = require_module()))
		return rc;
	if ((rc = rd_resolve(argv[optind], &d)))
		return rc;
	rd_load_export(&d);
	/* any table option asks for list's table of this one device */
	if (o.json || o.raw || o.noheadings || o.output || o.all || o.bytes)
		return print_devices(&d, 1, &o);
	print_info(&d);
	return RC_OK;
}
