// SPDX-License-Identifier: GPL-2.0
/*
 * create: mkdir a configuration, write its attributes, power it on.
 * clone: the same for a clone, a device that starts as a checkpoint of
 * another and shares its pages until it writes them.
 *
 * Either the whole device comes up or nothing is left behind: any failure
 * after mkdir powers the configuration off and removes it, and the usual
 * terminating signals are held off until that is decided, so even Ctrl-C
 * cannot strand a half-made configuration.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "checkpoint_line.h"
#include "configured.h"
#include "create.h"
#include "help.h"
#include "module_check.h"
#include "profiles.h"
#include "signals.h"
#include "size.h"
#include "usage.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PART_LIMIT 255
/* the largest block the module takes on any kernel (RAMDISK_BLOCK_SIZE_MAX) */
#define BLOCK_SIZE_MAX 65536
/* Enough tries to get past anyone racing us for the same rdN. */
#define AUTO_NAME_TRIES 64

/* long options without a letter */
enum {
	OPT_ZONE_SIZE = 256,
	OPT_ZONE_CAPACITY,
	OPT_ZONE_NR_CONV,
	OPT_ZONE_MAX_OPEN,
	OPT_ZONE_MAX_ACTIVE,
	OPT_CACHE_MODE,
	OPT_CACHE_SIZE,
	OPT_PROFILE,
	OPT_SPARE_PAGES,
};

/*
 * A bad value: on create's command line "create: MSG (see ramdiskctl create
 * --help)", in ramdisk.conf "apply: FILE:LINE: MSG" with the options named
 * as the file's keys (no "--"). Returns RC_USAGE.
 */
static int opts_error(const struct create_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int opts_error(const struct create_opts *o, const char *fmt, ...)
{
	char msg[512], *dash;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!o->where)
		return usage_error("create", "%s", msg);
	while ((dash = strstr(msg, "--")))
		memmove(dash, dash + 2, strlen(dash + 2) + 1);
	warnx("apply: %s: %s", o->where, msg);
	return RC_USAGE;
}

static int parse_size_opt(const struct create_opts *o, const char *what, const char *arg,
			  uint64_t *v)
{
	const char *why;

	if (size_parse(arg, v, &why))
		return opts_error(o, "bad %s '%s': %s", what, arg, why);
	return RC_OK;
}

/* PHYS:SIZE, each a size with suffixes or PHYS in 0x hex: "512M:64M". */
static int parse_nvram(const char *arg, struct create_opts *o)
{
	char addr[64];
	const char *colon = strchr(arg, ':'), *why = "no ':' between PHYS and SIZE";
	char *end;

	if (!colon || (size_t)(colon - arg) >= sizeof(addr))
		return opts_error(o, "bad --nvram '%s': %s", arg, why);
	memcpy(addr, arg, (size_t)(colon - arg));
	addr[colon - arg] = '\0';
	if (!strncmp(addr, "0x", 2) || !strncmp(addr, "0X", 2)) {
		errno = 0;
		o->phys_addr = strtoull(addr + 2, &end, 16);
		if (!addr[2] || *end || errno)
			return opts_error(o, "bad --nvram address '%s'", addr);
	} else if (size_parse(addr, &o->phys_addr, &why)) {
		return opts_error(o, "bad --nvram address '%s': %s", addr, why);
	}
	if (size_parse(colon + 1, &o->phys_size, &why))
		return opts_error(o, "bad --nvram size '%s': %s", colon + 1, why);
	if (o->phys_size < 8192)
		return opts_error(o,
				  "bad --nvram size '%s': want 8K or more (4K of it is the header)",
				  colon + 1);
	o->set_nvram = true;
	/* the device is the range less its 4 KiB header page */
	o->size = o->phys_size - 4096;
	return RC_OK;
}

static int parse_long_opt(const struct create_opts *o, const char *what, const char *arg, long min,
			  long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	if (!*arg || isspace((unsigned char)*arg) || *end || errno || *v < min || *v > max)
		return opts_error(o, "bad %s '%s': want %ld to %ld", what, arg, min, max);
	return RC_OK;
}

/* Names become configfs directories and appear in sysfs; keep them tame. */
static int check_name(const struct create_opts *o, const char *name)
{
	size_t len = strlen(name);

	if (!len || len > RD_NAME_MAX)
		return opts_error(o, "name must be 1 to %d characters", RD_NAME_MAX);
	if (!isalnum((unsigned char)name[0]))
		return opts_error(o,
				  "bad name '%s': must start with a letter "
				  "or digit",
				  name);
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			return opts_error(o,
					  "bad name '%s': use letters, "
					  "digits, '_', '.' and '-'",
					  name);
	/* remove and info would read "ramdisk3" as the device ramdisk3. */
	if (rd_parse_devname(name) >= 0)
		return opts_error(o, "bad name '%s': looks like a device name", name);
	return RC_OK;
}

static bool power_of_2_in(uint64_t v, uint64_t min, uint64_t max)
{
	return v >= min && v <= max && !(v & (v - 1));
}

/*
 * What any kernel refuses; whether this one caches a logical block above
 * the page size is the module's to say.
 */
static int check_geometry(const struct create_opts *o)
{
	uint64_t block = o->set_block_size ? o->block_size : 512;
	uint64_t phys = o->set_physical_block_size ? o->physical_block_size : 0;
	long page = sysconf(_SC_PAGESIZE);

	if (o->set_block_size && !power_of_2_in(block, 512, BLOCK_SIZE_MAX))
		return opts_error(o,
				  "bad block size %" PRIu64 ": want a power of two from 512 to %d",
				  block, BLOCK_SIZE_MAX);
	if (phys && !power_of_2_in(phys, block, BLOCK_SIZE_MAX))
		return opts_error(o,
				  "bad physical block size %" PRIu64
				  ": want a power of two from the block size, %" PRIu64 ", to %d",
				  phys, block, BLOCK_SIZE_MAX);
	if (!phys)
		phys = block > (uint64_t)page ? block : (uint64_t)page;
	if (o->set_io_min && (o->io_min % phys || o->io_min > UINT32_MAX))
		return opts_error(o,
				  "bad minimum I/O size %" PRIu64
				  ": want a multiple of the physical block size, %" PRIu64,
				  o->io_min, phys);
	if (o->set_io_opt && o->io_min > phys)
		phys = o->io_min;
	if (o->set_io_opt && (o->io_opt % phys || o->io_opt > UINT32_MAX))
		return opts_error(o,
				  "bad optimal I/O size %" PRIu64
				  ": want a multiple of the minimum I/O size, %" PRIu64,
				  o->io_opt, phys);
	if ((o->set_atomic_min && o->atomic_min > UINT32_MAX) ||
	    (o->set_atomic_max && o->atomic_max > UINT32_MAX) ||
	    (o->set_atomic_boundary && o->atomic_boundary > UINT32_MAX))
		return opts_error(o, "bad atomic write size: want at most 4G - 1");
	if (!o->size)
		return opts_error(o, "bad size '%s': must not be zero", o->size_arg);
	if (o->size % block)
		return opts_error(o,
				  "bad size '%s': not a multiple of the "
				  "block size %" PRIu64,
				  o->size_arg, block);
	if (page > 0 && o->size % (uint64_t)page)
		return opts_error(o,
				  "bad size '%s': not a multiple of the "
				  "page size %ld",
				  o->size_arg, page);
	return RC_OK;
}

/* create's options; "name" and "help" are the command line's alone. */
static const struct option create_longopts[] = {
	{ "name", required_argument, NULL, 'n' },
	{ "size", required_argument, NULL, 's' },
	{ "block-size", required_argument, NULL, 'b' },
	{ "max-part", required_argument, NULL, 'p' },
	{ "mem-limit", required_argument, NULL, 'm' },
	{ "numa-node", required_argument, NULL, 'N' },
	{ "nvram", required_argument, NULL, 'R' },
	{ "format", no_argument, NULL, 'F' },
	{ "physical-block-size", required_argument, NULL, 'P' },
	{ "io-min", required_argument, NULL, 'I' },
	{ "io-opt", required_argument, NULL, 'O' },
	{ "rotational", no_argument, NULL, 'r' },
	{ "atomic-write-unit-min", required_argument, NULL, 'a' },
	{ "atomic-write-unit-max", required_argument, NULL, 'A' },
	{ "atomic-write-boundary", required_argument, NULL, 'B' },
	{ "zoned", no_argument, NULL, 'Z' },
	{ "zone-size", required_argument, NULL, OPT_ZONE_SIZE },
	{ "zone-capacity", required_argument, NULL, OPT_ZONE_CAPACITY },
	{ "zone-nr-conv", required_argument, NULL, OPT_ZONE_NR_CONV },
	{ "zone-max-open", required_argument, NULL, OPT_ZONE_MAX_OPEN },
	{ "zone-max-active", required_argument, NULL, OPT_ZONE_MAX_ACTIVE },
	{ "cache-mode", required_argument, NULL, OPT_CACHE_MODE },
	{ "cache-size", required_argument, NULL, OPT_CACHE_SIZE },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "spare-pages", required_argument, NULL, OPT_SPARE_PAGES },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One option but --name and --help, by its getopt code. */
static int set_option(struct create_opts *o, int opt, const char *arg)
{
	int rc = RC_OK;

	switch (opt) {
	case 's':
		o->size_arg = arg;
		rc = parse_size_opt(o, "size", arg, &o->size);
		break;
	case 'b':
		o->set_block_size = true;
		rc = parse_size_opt(o, "block size", arg, &o->block_size);
		break;
	case 'p':
		o->set_max_part = true;
		rc = parse_long_opt(o, "max-part", arg, 0, MAX_PART_LIMIT, &o->max_part);
		break;
	case 'm':
		o->set_mem_limit = true;
		rc = parse_size_opt(o, "mem-limit", arg, &o->mem_limit);
		break;
	case 'N':
		o->set_node = true;
		rc = parse_long_opt(o, "numa-node", arg, -1, INT_MAX, &o->numa_node);
		break;
	case 'R':
		rc = parse_nvram(arg, o);
		break;
	case 'F':
		o->format = true;
		break;
	case 'P':
		o->set_physical_block_size = true;
		rc = parse_size_opt(o, "physical block size", arg, &o->physical_block_size);
		break;
	case 'I':
		o->set_io_min = true;
		rc = parse_size_opt(o, "minimum I/O size", arg, &o->io_min);
		break;
	case 'O':
		o->set_io_opt = true;
		rc = parse_size_opt(o, "optimal I/O size", arg, &o->io_opt);
		break;
	case 'r':
		o->rotational = true;
		break;
	case 'a':
		o->set_atomic_min = true;
		rc = parse_size_opt(o, "atomic write unit min", arg, &o->atomic_min);
		break;
	case 'A':
		o->set_atomic_max = true;
		rc = parse_size_opt(o, "atomic write unit max", arg, &o->atomic_max);
		break;
	case 'B':
		o->set_atomic_boundary = true;
		rc = parse_size_opt(o, "atomic write boundary", arg, &o->atomic_boundary);
		break;
	case 'Z':
		o->zoned = true;
		break;
	case OPT_ZONE_SIZE:
		o->set_zone_size = true;
		rc = parse_size_opt(o, "zone size", arg, &o->zone_size);
		break;
	case OPT_ZONE_CAPACITY:
		o->set_zone_capacity = true;
		rc = parse_size_opt(o, "zone capacity", arg, &o->zone_capacity);
		break;
	case OPT_ZONE_NR_CONV:
		o->set_zone_nr_conv = true;
		rc = parse_long_opt(o, "zone-nr-conv", arg, 0, INT_MAX, &o->zone_nr_conv);
		break;
	case OPT_ZONE_MAX_OPEN:
		o->set_zone_max_open = true;
		rc = parse_long_opt(o, "zone-max-open", arg, 0, INT_MAX, &o->zone_max_open);
		break;
	case OPT_ZONE_MAX_ACTIVE:
		o->set_zone_max_active = true;
		rc = parse_long_opt(o, "zone-max-active", arg, 0, INT_MAX, &o->zone_max_active);
		break;
	case OPT_CACHE_MODE:
		o->cache_mode = arg;
		if (strcmp(arg, "writethrough") && strcmp(arg, "writeback"))
			rc = opts_error(o, "bad cache mode '%s': want writethrough or writeback",
					arg);
		break;
	case OPT_CACHE_SIZE:
		o->set_cache_size = true;
		rc = parse_size_opt(o, "cache size", arg, &o->cache_size);
		break;
	case OPT_PROFILE:
		o->profile_name = arg;
		o->profile = rd_profile_find(arg);
		if (!o->profile)
			rc = opts_error(
				o, "unknown profile '%s': want nvram, ssd, hdd, disk-1994 or none",
				arg);
		break;
	case OPT_SPARE_PAGES:
		o->set_spare_pages = true;
		rc = parse_long_opt(o, "spare-pages", arg, 0, INT_MAX, &o->spare_pages);
		break;
	default:
		return -1;
	}
	return rc;
}

static const struct option *find_option(const char *key)
{
	for (const struct option *opt = create_longopts; opt->name; opt++)
		if (!strcmp(opt->name, key) && strcmp(key, "name") && strcmp(key, "help"))
			return opt;
	return NULL;
}

int create_opt_name(struct create_opts *o, const char *name)
{
	o->name = name;
	return check_name(o, name);
}

bool create_opt_is_flag(const char *key)
{
	const struct option *opt = find_option(key);

	return opt && opt->has_arg == no_argument;
}

int create_opt_set(struct create_opts *o, const char *key, const char *value)
{
	const struct option *opt = find_option(key);

	if (!opt || (opt->has_arg == no_argument) != !value)
		return -1;
	return set_option(o, opt->val, value);
}

int create_opts_check(struct create_opts *o)
{
	if (o->set_nvram && o->size_arg)
		return opts_error(o, "--nvram sets the size; leave out --size");
	if (o->format && !o->set_nvram)
		return opts_error(o, "--format goes with --nvram");
	if (!o->zoned && (o->set_zone_size || o->set_zone_capacity || o->set_zone_nr_conv ||
			  o->set_zone_max_open || o->set_zone_max_active))
		return opts_error(o, "the --zone-* options go with --zoned");
	if (o->set_cache_size && (!o->cache_mode || strcmp(o->cache_mode, "writeback")))
		return opts_error(o, "--cache-size goes with --cache-mode writeback");
	if (o->profile && o->rotational)
		return opts_error(
			o, "--profile %s says whether the disk spins; leave out --rotational",
			o->profile_name);
	if (o->set_nvram)
		o->size_arg = "--nvram";
	if (!o->size_arg)
		return opts_error(o, "--size is required");
	return check_geometry(o);
}

static int parse_args(int argc, char **argv, struct create_opts *o)
{
	int opt, rc;

	while ((opt = getopt_long(argc, argv, ":n:s:b:p:m:N:h", create_longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			o->name = optarg;
			rc = check_name(o, optarg);
			break;
		case 'h':
			command_help("create");
			return -1;
		case '?':
		case ':':
			return option_error("create", argv, opt);
		default:
			rc = set_option(o, opt, optarg);
			break;
		}
		if (rc)
			return rc;
	}
	if (optind < argc)
		return usage_error("create", "unexpected argument '%s'", argv[optind]);
	return create_opts_check(o);
}

/* Every attribute we are about to write must exist in this build. */
int create_check_features(const struct create_opts *o)
{
	static const struct {
		const char *attr, *option;
		size_t offset;
	} optional[] = {
		{ "block_size", "--block-size", offsetof(struct create_opts, set_block_size) },
		{ "max_part", "--max-part", offsetof(struct create_opts, set_max_part) },
		{ "mem_limit", "--mem-limit", offsetof(struct create_opts, set_mem_limit) },
		{ "numa_node", "--numa-node", offsetof(struct create_opts, set_node) },
		{ "phys_size", "--nvram", offsetof(struct create_opts, set_nvram) },
		{ "physical_block_size", "--physical-block-size",
		  offsetof(struct create_opts, set_physical_block_size) },
		{ "io_min", "--io-min", offsetof(struct create_opts, set_io_min) },
		{ "io_opt", "--io-opt", offsetof(struct create_opts, set_io_opt) },
		{ "rotational", "--rotational", offsetof(struct create_opts, rotational) },
		{ "atomic_write_unit_min", "--atomic-write-unit-min",
		  offsetof(struct create_opts, set_atomic_min) },
		{ "atomic_write_unit_max", "--atomic-write-unit-max",
		  offsetof(struct create_opts, set_atomic_max) },
		{ "atomic_write_boundary", "--atomic-write-boundary",
		  offsetof(struct create_opts, set_atomic_boundary) },
		{ "zoned", "--zoned", offsetof(struct create_opts, zoned) },
		{ "cache_size", "--cache-size", offsetof(struct create_opts, set_cache_size) },
		{ "spare_pages", "--spare-pages", offsetof(struct create_opts, set_spare_pages) },
	};

	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++) {
		const bool *set = (const bool *)((const char *)o + optional[i].offset);

		if (*set && !module_supports(optional[i].attr)) {
			warnx("%s%s: %s: this ramdisk module has no %s attribute",
			      o->where ? "apply: " : "create", o->where ? o->where : "",
			      optional[i].option + 2 * !!o->where, optional[i].attr);
			return RC_ERROR;
		}
	}
	/* options that are not flags */
	if ((o->cache_mode && !module_supports("cache_mode")) ||
	    (o->profile && !module_supports("read_latency_ns"))) {
		warnx("%s%s: %s: this ramdisk module has no %s attribute",
		      o->where ? "apply: " : "create", o->where ? o->where : "",
		      (o->cache_mode ? "--cache-mode" : "--profile") + 2 * !!o->where,
		      o->cache_mode ? "cache_mode" : "read_latency_ns");
		return RC_ERROR;
	}
	return RC_OK;
}

static void config_dir(char *buf, size_t len, const char *name)
{
	path_fmt(buf, len, "%s/%s", rd_configfs_root(), name);
}

static int mkdir_failed(int err, const char *name)
{
	if (err == EEXIST) {
		warnx("create: %s already exists", name);
		return RC_EXISTS;
	}
	if (err == ENOENT) {
		warnx("create: %s vanished; was the ramdisk module unloaded?", rd_configfs_root());
		return RC_NO_MODULE;
	}
	return report_errno(err, "create: %s", name);
}

/* mkdir the configuration; its name goes to name (size RD_NAME_MAX + 1). */
static int make_config(const struct create_opts *o, char *name)
{
	char dir[PATH_MAX];

	if (o->name) {
		strcpy(name, o->name);
		config_dir(dir, sizeof(dir), name);
		return mkdir(dir, 0755) ? mkdir_failed(errno, name) : RC_OK;
	}
	/* The lowest free rdN; another creator may take it first. */
	for (unsigned int n = 0, tries = 0; tries < AUTO_NAME_TRIES; n++) {
		struct stat st;

		snprintf(name, RD_NAME_MAX + 1, "rd%u", n);
		config_dir(dir, sizeof(dir), name);
		if (!stat(dir, &st))
			continue;
		if (!mkdir(dir, 0755))
			return RC_OK;
		if (errno != EEXIST)
			return mkdir_failed(errno, name);
		tries++;
	}
	warnx("create: no free rdN name after %d tries", AUTO_NAME_TRIES);
	return RC_ERROR;
}

static int write_attr(const char *name, const char *attr, const char *value)
{
	char path[PATH_MAX];
	int err;

	path_fmt(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), name, attr);
	if (!attr_write_line(path, value))
		return RC_OK;
	err = errno;
	if (err == EINVAL)
		warnx("create: %s: the module refused %s=%s (dmesg says why)", name, attr, value);
	else if (err == ENOENT)
		warnx("create: %s: no %s attribute; is this the ramdisk "
		      "module of this tool's version?",
		      name, attr);
	else
		report_errno(err, "create: %s: setting %s=%s", name, attr, value);
	return err == ENOENT ? RC_ERROR : rc_from_errno(err);
}

/* attr=value, or the module's default when the options leave it unset */
static void put_attr(struct create_attr *attrs, int *n, const char *attr, bool set, bool live,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void put_attr(struct create_attr *attrs, int *n, const char *attr, bool set, bool live,
		     const char *fmt, ...)
{
	struct create_attr *a = &attrs[(*n)++];
	va_list ap;

	a->attr = attr;
	a->set = set;
	a->live = live;
	va_start(ap, fmt);
	vsnprintf(a->value, sizeof(a->value), fmt, ap);
	va_end(ap);
}

int create_opts_attrs(const struct create_opts *o, struct create_attr *attrs)
{
	bool writeback = o->cache_mode && !strcmp(o->cache_mode, "writeback");
	int n = 0;

	/*
	 * block_size first: the module checks size and the physical block
	 * against it, the physical block before io_min, io_min before io_opt.
	 */
	put_attr(attrs, &n, "block_size", o->set_block_size, false, "%" PRIu64,
		 o->set_block_size ? o->block_size : 512);
	put_attr(attrs, &n, "physical_block_size", o->set_physical_block_size, false, "%" PRIu64,
		 o->physical_block_size);
	put_attr(attrs, &n, "io_min", o->set_io_min, false, "%" PRIu64, o->io_min);
	put_attr(attrs, &n, "io_opt", o->set_io_opt, false, "%" PRIu64, o->io_opt);
	/* a profile sets rotational itself (and refuses --rotational) */
	if (!o->profile)
		put_attr(attrs, &n, "rotational", o->rotational, true, "%d", o->rotational);
	/* after block_size, which they are checked against; the largest unit first */
	put_attr(attrs, &n, "atomic_write_unit_max", o->set_atomic_max, false, "%" PRIu64,
		 o->atomic_max);
	put_attr(attrs, &n, "atomic_write_unit_min", o->set_atomic_min, false, "%" PRIu64,
		 o->atomic_min);
	put_attr(attrs, &n, "atomic_write_boundary", o->set_atomic_boundary, false, "%" PRIu64,
		 o->atomic_boundary);
	if (o->set_nvram) {
		/* phys_size sets size to the range less its header */
		put_attr(attrs, &n, "phys_addr", true, false, "0x%" PRIx64, o->phys_addr);
		put_attr(attrs, &n, "phys_size", true, false, "%" PRIu64, o->phys_size);
		if (o->format)
			put_attr(attrs, &n, "format", true, false, "1");
	} else {
		put_attr(attrs, &n, "phys_size", false, false, "0");
		put_attr(attrs, &n, "size", true, false, "%" PRIu64, o->size);
	}
	put_attr(attrs, &n, "max_part", o->set_max_part, false, "%ld", o->max_part);
	put_attr(attrs, &n, "mem_limit", o->set_mem_limit, true, "%" PRIu64, o->mem_limit);
	put_attr(attrs, &n, "numa_node", o->set_node, false, "%ld",
		 o->set_node ? o->numa_node : -1);
	/* the write cache and the spare pages, before power-on */
	put_attr(attrs, &n, "cache_mode", o->cache_mode, false, "%s",
		 writeback ? "writeback" : "writethrough");
	if (writeback)
		put_attr(attrs, &n, "cache_size", o->set_cache_size, false, "%" PRIu64,
			 o->set_cache_size ? o->cache_size : (uint64_t)64 << 20);
	put_attr(attrs, &n, "spare_pages", o->set_spare_pages, true, "%ld",
		 o->set_spare_pages ? o->spare_pages : 64);
	/*
	 * After size: the zone settings, the largest limit before the one it
	 * bounds, and zoned last, when the module checks them against the size.
	 */
	if (o->zoned) {
		put_attr(attrs, &n, "zone_size", o->set_zone_size, false, "%" PRIu64,
			 o->set_zone_size ? o->zone_size : (uint64_t)64 << 20);
		put_attr(attrs, &n, "zone_capacity", o->set_zone_capacity, false, "%" PRIu64,
			 o->zone_capacity);
		put_attr(attrs, &n, "zone_nr_conv", o->set_zone_nr_conv, false, "%ld",
			 o->zone_nr_conv);
		put_attr(attrs, &n, "zone_max_active", o->set_zone_max_active, false, "%ld",
			 o->zone_max_active);
		put_attr(attrs, &n, "zone_max_open", o->set_zone_max_open, false, "%ld",
			 o->zone_max_open);
	}
	put_attr(attrs, &n, "zoned", o->zoned, false, "%d", o->zoned);
	return n;
}

/* The attributes the options set, in order, then the profile. */
static int configure(const struct create_opts *o, const char *name)
{
	struct create_attr attrs[CREATE_ATTRS_MAX];
	int n = create_opts_attrs(o, attrs), rc;

	for (int i = 0; i < n; i++)
		if (attrs[i].set && (rc = write_attr(name, attrs[i].attr, attrs[i].value)))
			return rc;
	return o->profile ? rd_profile_apply("create", name, o->profile, false) : RC_OK;
}

static int power_on(const char *name, int *index)
{
	char path[PATH_MAX];
	int64_t v;
	int rc;

	if ((rc = write_attr(name, "power", "1")))
		return rc;
	path_fmt(path, sizeof(path), "%s/%s/index", rd_configfs_root(), name);
	if (attr_read_s64(path, &v) || v < 0 || v > INT_MAX) {
		warnx("create: %s: powered on but its index is unreadable", name);
		return RC_ERROR;
	}
	*index = (int)v;
	return RC_OK;
}

/* Undo make_config() and whatever configure()/power_on() got done. */
static void undo_create(const char *name, bool tried_power)
{
	char path[PATH_MAX];

	path_fmt(path, sizeof(path), "%s/%s/power", rd_configfs_root(), name);
	if (tried_power && attr_write_line(path, "0") && errno != ENOENT)
		warn("create: %s: powering off again", name);
	config_dir(path, sizeof(path), name);
	if (rmdir(path))
		warn("create: could not remove the half-made %s "
		     "(rmdir it by hand)",
		     path);
}

/* The end of clone: a failure is undone, a success prints the device. */
static int finish_create(const char *name, int rc, bool tried_power, int index)
{
	if (rc) {
		undo_create(name, tried_power);
		return rc;
	}
	printf("/dev/ramdisk%d\n", index);
	fflush(stdout);
	return RC_OK;
}

int create_device(const struct create_opts *o, int *index)
{
	char name[RD_NAME_MAX + 1];
	sigset_t old;
	int rc;
	bool tried_power = false;

	hold_signals(&old);
	rc = make_config(o, name);
	if (!rc) {
		rc = configure(o, name);
		if (!rc) {
			tried_power = true;
			rc = power_on(name, index);
		}
		if (rc)
			undo_create(name, tried_power);
	}
	/* A signal that arrived meanwhile is delivered (and acted on) here. */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int cmd_create(int argc, char **argv)
{
	struct create_opts o = { 0 };
	int rc, index = -1;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? RC_OK : rc;
	if ((rc = require_module()) || (rc = create_check_features(&o)) ||
	    (rc = create_device(&o, &index)))
		return rc;
	printf("/dev/ramdisk%d\n", index);
	return RC_OK;
}

/* What the module's refusal to power a clone on means, as one line. */
static int clone_refused(const char *name, const struct rdctl_device *origin, const char *ck,
			 int err)
{
	switch (err) {
	case ENOENT:
		warnx("clone: %s has no checkpoint %s (see %s checkpoint %s list)", origin->name,
		      ck, program_invocation_short_name, origin->name);
		return RC_NO_DEVICE;
	case ENODEV:
		warnx("clone: %s was powered off or removed meanwhile", origin->name);
		return RC_NO_DEVICE;
	default:
		return report_errno(err, "clone: %s: powering on a clone of %s checkpoint %s", name,
				    origin->name, ck);
	}
}

int cmd_clone(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "mem-limit", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct create_opts o = { 0 };
	char name[RD_NAME_MAX + 1], path[PATH_MAX], value[64];
	struct rdctl_device origin;
	const char *ck, *why;
	sigset_t old;
	int opt, rc, index = -1;
	bool tried_power = false;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":n:m:h", longopts, NULL)) != -1) {
		rc = RC_OK;
		if (opt == 'h')
			return command_help("clone");
		if (opt == 'n') {
			o.name = optarg;
			rc = check_name(&o, optarg);
		} else if (opt == 'm') {
			o.set_mem_limit = true;
			rc = parse_size_opt(&o, "mem-limit", optarg, &o.mem_limit);
		} else {
			return option_error("clone", argv, opt);
		}
		if (rc)
			return rc;
	}
	if (argc - optind != 2)
		return usage_error("clone", "takes a device and a checkpoint name");
	ck = argv[optind + 1];
	why = checkpoint_name_invalid(ck);
	if (why)
		return usage_error("clone", "'%s' is not a checkpoint name: %s", ck, why);
	rc = resolve_configured("clone", argv[optind], &origin);
	if (rc)
		return rc;
	if (!module_supports("clone_of")) {
		warnx("clone: the loaded ramdisk module has no clones (see its features)");
		return RC_ERROR;
	}
	if (origin.index < 0) {
		warnx("clone: %s is powered off; a device has checkpoints only while powered",
		      origin.name);
		return RC_NO_DEVICE;
	}
	snprintf(value, sizeof(value), "ramdisk%d %s", origin.index, ck);

	hold_signals(&old);

	rc = make_config(&o, name);
	if (rc)
		goto out_unblock;
	rc = write_attr(name, "clone_of", value);
	if (!rc && o.set_mem_limit) {
		snprintf(path, sizeof(path), "%" PRIu64, o.mem_limit);
		rc = write_attr(name, "mem_limit", path);
	}
	if (!rc) {
		tried_power = true;
		path_fmt(path, sizeof(path), "%s/%s/power", rd_configfs_root(), name);
		if (attr_write_line(path, "1"))
			rc = clone_refused(name, &origin, ck, errno);
		else
			rc = power_on(name, &index);
	}
	rc = finish_create(name, rc, tried_power, index);
out_unblock:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
