// SPDX-License-Identifier: GPL-2.0
/*
 * create's options: the table, and getopt_long()'s arrays made from it.
 * A new attribute of the module that create sets is one line here, its
 * value's place in create_opts_attrs() (create.c), its help and its man
 * page entry, which tests/host/550-man-pages.sh holds to this table.
 */
#include "create_options.h"

#include "ramdisk.h"

#include <getopt.h>
#include <limits.h>
#include <string.h>

static const char *const cache_modes[] = { "writethrough", "writeback", NULL };

/* Long options without a letter come back from getopt_long() as this plus their index. */
#define LONG_ONLY_BASE 256

const struct create_option create_options[COPT_COUNT] = {
	[COPT_NAME] = { "name", 'n', NULL, CK_NAME, "name", .arg = "NAME", .info_own = true },
	[COPT_SIZE] = { "size", 's', "size", CK_SIZE, "size", .arg = "SIZE", .info_own = true },
	[COPT_BLOCK_SIZE] = { "block-size", 'b', "block_size", CK_SIZE, "block size", .arg = "B",
			      .info_own = true },
	[COPT_MAX_PART] = { "max-part", 'p', "max_part", CK_NUMBER, "max-part", 0, RAMDISK_MAX_PART,
			    .arg = "N", .info_own = true },
	[COPT_MEM_LIMIT] = { "mem-limit", 'm', "mem_limit", CK_SIZE, "mem-limit", .live = true,
			     .arg = "SIZE", .info_own = true },
	[COPT_NUMA_NODE] = { "numa-node", 'N', "numa_node", CK_NUMBER, "numa-node", -1, INT_MAX,
			     .arg = "NODE", .info_own = true },
	/* writes phys_addr and phys_size; the module makes the size of it */
	[COPT_NVRAM] = { "nvram", 0, "phys_size", CK_NVRAM, "nvram", .arg = "PHYS:SIZE",
			 .info_own = true },
	[COPT_FORMAT] = { "format", 0, "format", CK_FLAG, "format", .info_own = true },
	[COPT_PHYSICAL_BLOCK_SIZE] = { "physical-block-size", 0, "physical_block_size", CK_SIZE,
				       "physical block size", .arg = "B" },
	[COPT_IO_MIN] = { "io-min", 0, "io_min", CK_SIZE, "minimum I/O size", .arg = "B" },
	[COPT_IO_OPT] = { "io-opt", 0, "io_opt", CK_SIZE, "optimal I/O size", .arg = "B" },
	[COPT_ROTATIONAL] = { "rotational", 0, "rotational", CK_FLAG, "rotational", .live = true },
	[COPT_ATOMIC_MIN] = { "atomic-write-unit-min", 0, "atomic_write_unit_min", CK_SIZE,
			      "atomic write unit min", .arg = "B" },
	[COPT_ATOMIC_MAX] = { "atomic-write-unit-max", 0, "atomic_write_unit_max", CK_SIZE,
			      "atomic write unit max", .arg = "B" },
	[COPT_ATOMIC_BOUNDARY] = { "atomic-write-boundary", 0, "atomic_write_boundary", CK_SIZE,
				   "atomic write boundary", .arg = "B" },
	[COPT_ZONED] = { "zoned", 0, "zoned", CK_FLAG, "zoned", .info_own = true },
	[COPT_ZONE_SIZE] = { "zone-size", 0, "zone_size", CK_SIZE, "zone size", .arg = "B",
			     .info_own = true },
	[COPT_ZONE_CAPACITY] = { "zone-capacity", 0, "zone_capacity", CK_SIZE, "zone capacity",
				 .arg = "B", .info_own = true },
	[COPT_ZONE_NR_CONV] = { "zone-nr-conv", 0, "zone_nr_conv", CK_NUMBER, "zone-nr-conv", 0,
				INT_MAX, .arg = "N", .info_own = true },
	[COPT_ZONE_MAX_OPEN] = { "zone-max-open", 0, "zone_max_open", CK_NUMBER, "zone-max-open", 0,
				 INT_MAX, .arg = "N", .info_own = true },
	[COPT_ZONE_MAX_ACTIVE] = { "zone-max-active", 0, "zone_max_active", CK_NUMBER,
				   "zone-max-active", 0, INT_MAX, .arg = "N", .info_own = true },
	[COPT_CACHE_SIZE] = { "cache-size", 0, "cache_size", CK_SIZE, "cache size", .arg = "SIZE" },
	/* the module checks its ceiling (4096), which may grow */
	[COPT_SPARE_PAGES] = { "spare-pages", 0, "spare_pages", CK_NUMBER, "spare-pages", 0,
			       INT_MAX, .live = true, .arg = "N" },
	[COPT_CACHE_MODE] = { "cache-mode", 0, "cache_mode", CK_WORD, "cache mode",
			      .words = cache_modes, .arg = "MODE", .info_own = true },
	/*
	 * Writes the throttle attributes and rotational; a module without
	 * the first has none of them. Changed live by apply, as profile does.
	 */
	[COPT_PROFILE] = { "profile", 0, "read_latency_ns", CK_PROFILE, "profile", .live = true,
			   .arg = "NAME", .info_own = true },
};

int create_option_find(const char *key)
{
	for (int i = 0; i < COPT_COUNT; i++)
		if (!strcmp(create_options[i].option, key))
			return i;
	return -1;
}

static int getopt_val(int i)
{
	return create_options[i].letter ? create_options[i].letter : LONG_ONLY_BASE + i;
}

void create_options_getopt(struct option *longopts, char *shortopts)
{
	char *s = shortopts;

	*s++ = ':';
	for (int i = 0; i < COPT_COUNT; i++) {
		const struct create_option *c = &create_options[i];

		longopts[i] = (struct option){ c->option, c->arg ? required_argument : no_argument,
					       NULL, getopt_val(i) };
		if (c->letter) {
			*s++ = c->letter;
			if (c->arg)
				*s++ = ':';
		}
	}
	longopts[COPT_COUNT] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[COPT_COUNT + 1] = (struct option){ NULL, 0, NULL, 0 };
	*s++ = 'h';
	*s = '\0';
}

int create_option_of(int val)
{
	for (int i = 0; i < COPT_COUNT; i++)
		if (getopt_val(i) == val)
			return i;
	return -1;
}
