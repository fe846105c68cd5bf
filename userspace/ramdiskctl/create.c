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
#include "module_defaults.h"
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

/* the largest block the module takes on any kernel (RAMDISK_BLOCK_SIZE_MAX) */
#define BLOCK_SIZE_MAX 65536
/* Enough tries to get past anyone racing us for the same rdN. */
#define AUTO_NAME_TRIES 64

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

static bool is_set(const struct create_opts *o, enum create_opt id)
{
	return o->v[id].set;
}

static bool is_writeback(const struct create_opts *o)
{
	return is_set(o, COPT_CACHE_MODE) && !strcmp(o->v[COPT_CACHE_MODE].arg, "writeback");
}

/* A size option's value; 0 when it is not given. */
static uint64_t bytes_of(const struct create_opts *o, enum create_opt id)
{
	return o->v[id].bytes;
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

/* One of the words: "bad cache mode 'x': want writethrough or writeback". */
static int parse_word(const struct create_opts *o, const struct create_option *c, const char *arg)
{
	char want[256] = "";
	size_t len = 0;

	for (int i = 0; c->words[i]; i++)
		if (!strcmp(arg, c->words[i]))
			return RC_OK;
	for (int i = 0; c->words[i]; i++) {
		const char *sep = !i ? "" : c->words[i + 1] ? ", " : " or ";

		len += snprintf(want + len, sizeof(want) - len, "%s%s", sep, c->words[i]);
	}
	return opts_error(o, "bad %s '%s': want %s", c->what, arg, want);
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
	bool nvram = is_set(o, COPT_NVRAM);
	/* --nvram's range less its 4 KiB header page is the device */
	uint64_t size = nvram ? o->phys_size - 4096 : bytes_of(o, COPT_SIZE);
	const char *size_arg = nvram ? "--nvram" : o->v[COPT_SIZE].arg;
	uint64_t block = is_set(o, COPT_BLOCK_SIZE) ? bytes_of(o, COPT_BLOCK_SIZE) : 512;
	uint64_t phys = bytes_of(o, COPT_PHYSICAL_BLOCK_SIZE);
	uint64_t io_min = bytes_of(o, COPT_IO_MIN), io_opt = bytes_of(o, COPT_IO_OPT);
	long page = sysconf(_SC_PAGESIZE);

	if (is_set(o, COPT_BLOCK_SIZE) && !power_of_2_in(block, 512, BLOCK_SIZE_MAX))
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
	if (is_set(o, COPT_IO_MIN) && (io_min % phys || io_min > UINT32_MAX))
		return opts_error(o,
				  "bad minimum I/O size %" PRIu64
				  ": want a multiple of the physical block size, %" PRIu64,
				  io_min, phys);
	if (is_set(o, COPT_IO_OPT) && io_min > phys)
		phys = io_min;
	if (is_set(o, COPT_IO_OPT) && (io_opt % phys || io_opt > UINT32_MAX))
		return opts_error(o,
				  "bad optimal I/O size %" PRIu64
				  ": want a multiple of the minimum I/O size, %" PRIu64,
				  io_opt, phys);
	if (bytes_of(o, COPT_ATOMIC_MIN) > UINT32_MAX ||
	    bytes_of(o, COPT_ATOMIC_MAX) > UINT32_MAX ||
	    bytes_of(o, COPT_ATOMIC_BOUNDARY) > UINT32_MAX)
		return opts_error(o, "bad atomic write size: want at most 4G - 1");
	if (!size)
		return opts_error(o, "bad size '%s': must not be zero", size_arg);
	if (size % block)
		return opts_error(o,
				  "bad size '%s': not a multiple of the "
				  "block size %" PRIu64,
				  size_arg, block);
	if (page > 0 && size % (uint64_t)page)
		return opts_error(o,
				  "bad size '%s': not a multiple of the "
				  "page size %ld",
				  size_arg, page);
	return RC_OK;
}

/* Option id given as arg (NULL for a flag), by its kind. */
static int set_option(struct create_opts *o, enum create_opt id, const char *arg)
{
	const struct create_option *c = &create_options[id];
	struct create_value *v = &o->v[id];
	int rc = RC_OK;

	v->set = true;
	v->arg = arg;
	switch (c->kind) {
	case CK_SIZE:
		rc = parse_size_opt(o, c->what, arg, &v->bytes);
		break;
	case CK_NUMBER:
		rc = parse_long_opt(o, c->what, arg, c->min, c->max, &v->number);
		break;
	case CK_FLAG:
		break;
	case CK_WORD:
		rc = parse_word(o, c, arg);
		break;
	case CK_NAME:
		rc = check_name(o, arg);
		break;
	case CK_NVRAM:
		rc = parse_nvram(arg, o);
		break;
	case CK_PROFILE:
		o->profile = rd_profile_find(arg);
		if (!o->profile)
			rc = opts_error(
				o, "unknown profile '%s': want nvram, ssd, hdd, disk-1994 or none",
				arg);
		break;
	}
	return rc;
}

int create_opt_name(struct create_opts *o, const char *name)
{
	return set_option(o, COPT_NAME, name);
}

/* create's option key as ramdisk.conf names it, or -1: "name" is the section's. */
static int conf_option(const char *key)
{
	int id = create_option_find(key);

	return id < 0 || create_options[id].kind == CK_NAME ? -1 : id;
}

bool create_opt_is_flag(const char *key)
{
	int id = conf_option(key);

	return id >= 0 && create_options[id].kind == CK_FLAG;
}

int create_opt_set(struct create_opts *o, const char *key, const char *value)
{
	int id = conf_option(key);

	if (id < 0 || (create_options[id].kind == CK_FLAG) != !value)
		return -1;
	return set_option(o, id, value);
}

int create_opts_check(struct create_opts *o)
{
	bool writeback = is_writeback(o);

	if (is_set(o, COPT_NVRAM) && is_set(o, COPT_SIZE))
		return opts_error(o, "--nvram sets the size; leave out --size");
	if (is_set(o, COPT_FORMAT) && !is_set(o, COPT_NVRAM))
		return opts_error(o, "--format goes with --nvram");
	if (!is_set(o, COPT_ZONED))
		for (int id = COPT_ZONE_SIZE; id <= COPT_ZONE_MAX_ACTIVE; id++)
			if (is_set(o, id))
				return opts_error(o, "the --zone-* options go with --zoned");
	if (is_set(o, COPT_CACHE_SIZE) && !writeback)
		return opts_error(o, "--cache-size goes with --cache-mode writeback");
	if (is_set(o, COPT_PROFILE) && is_set(o, COPT_ROTATIONAL))
		return opts_error(
			o, "--profile %s says whether the disk spins; leave out --rotational",
			o->v[COPT_PROFILE].arg);
	if (!is_set(o, COPT_NVRAM) && !is_set(o, COPT_SIZE))
		return opts_error(o, "--size is required");
	return check_geometry(o);
}

static int parse_args(int argc, char **argv, struct create_opts *o)
{
	struct option longopts[CREATE_LONGOPTS_LEN];
	char shortopts[CREATE_SHORTOPTS_LEN];
	int opt, id, rc;

	create_options_getopt(longopts, shortopts);
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			command_help("create");
			return -1;
		}
		id = create_option_of(opt);
		if (id < 0)
			return option_error("create", argv, opt);
		rc = set_option(o, id, optarg);
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
	for (int id = 0; id < COPT_COUNT; id++) {
		const struct create_option *c = &create_options[id];

		if (is_set(o, id) && c->attr && !module_supports(c->attr)) {
			warnx("%s%s: %s%s: this ramdisk module has no %s attribute",
			      o->where ? "apply: " : "create", o->where ? o->where : "",
			      o->where ? "" : "--", c->option, c->attr);
			return RC_ERROR;
		}
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

	if (is_set(o, COPT_NAME)) {
		strcpy(name, o->v[COPT_NAME].arg);
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

/* attr=value, as the options make it (set) or the module's default */
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

/*
 * An attribute the options leave out: the module's default, or "" when
 * there are no defaults (create, which writes only what is set) or they
 * name none.
 */
static void put_default(struct create_attr *attrs, int *n, const struct module_defaults *d,
			const char *attr, bool live)
{
	char value[sizeof(attrs->value)] = "";

	if (d)
		module_default(d, attr, value, sizeof(value));
	put_attr(attrs, n, attr, false, live, "%s", value);
}

/* Option id's attribute: its value when given, else the module's default. */
static void put_opt(struct create_attr *attrs, int *n, const struct create_opts *o,
		    enum create_opt id, const struct module_defaults *d)
{
	const struct create_option *c = &create_options[id];
	const struct create_value *v = &o->v[id];

	if (!v->set)
		put_default(attrs, n, d, c->attr, c->live);
	else if (c->kind == CK_SIZE)
		put_attr(attrs, n, c->attr, true, c->live, "%" PRIu64, v->bytes);
	else if (c->kind == CK_NUMBER)
		put_attr(attrs, n, c->attr, true, c->live, "%ld", v->number);
	else if (c->kind == CK_FLAG)
		put_attr(attrs, n, c->attr, true, c->live, "1");
	else
		put_attr(attrs, n, c->attr, true, c->live, "%s", v->arg);
}

int create_opts_attrs(const struct create_opts *o, const struct module_defaults *d,
		      struct create_attr *attrs)
{
	bool writeback = is_writeback(o);
	int n = 0;

	/*
	 * block_size first: the module checks size and the physical block
	 * against it, the physical block before io_min, io_min before io_opt.
	 */
	put_opt(attrs, &n, o, COPT_BLOCK_SIZE, d);
	put_opt(attrs, &n, o, COPT_PHYSICAL_BLOCK_SIZE, d);
	put_opt(attrs, &n, o, COPT_IO_MIN, d);
	put_opt(attrs, &n, o, COPT_IO_OPT, d);
	/* a profile sets rotational itself (and refuses --rotational) */
	if (!is_set(o, COPT_PROFILE))
		put_opt(attrs, &n, o, COPT_ROTATIONAL, d);
	/* after block_size, which they are checked against; the largest unit first */
	put_opt(attrs, &n, o, COPT_ATOMIC_MAX, d);
	put_opt(attrs, &n, o, COPT_ATOMIC_MIN, d);
	put_opt(attrs, &n, o, COPT_ATOMIC_BOUNDARY, d);
	if (is_set(o, COPT_NVRAM)) {
		/* phys_size sets size to the range less its header */
		put_attr(attrs, &n, "phys_addr", true, false, "0x%" PRIx64, o->phys_addr);
		put_attr(attrs, &n, "phys_size", true, false, "%" PRIu64, o->phys_size);
		if (is_set(o, COPT_FORMAT))
			put_opt(attrs, &n, o, COPT_FORMAT, d);
	} else {
		put_default(attrs, &n, d, "phys_size", false);
		put_opt(attrs, &n, o, COPT_SIZE, d);
	}
	put_opt(attrs, &n, o, COPT_MAX_PART, d);
	put_opt(attrs, &n, o, COPT_MEM_LIMIT, d);
	put_opt(attrs, &n, o, COPT_NUMA_NODE, d);
	/* the write cache and the spare pages, before power-on */
	put_opt(attrs, &n, o, COPT_CACHE_MODE, d);
	if (writeback)
		put_opt(attrs, &n, o, COPT_CACHE_SIZE, d);
	put_opt(attrs, &n, o, COPT_SPARE_PAGES, d);
	/*
	 * After size: the zone settings, the largest limit before the one it
	 * bounds, and zoned last, when the module checks them against the size.
	 */
	if (is_set(o, COPT_ZONED)) {
		put_opt(attrs, &n, o, COPT_ZONE_SIZE, d);
		put_opt(attrs, &n, o, COPT_ZONE_CAPACITY, d);
		put_opt(attrs, &n, o, COPT_ZONE_NR_CONV, d);
		put_opt(attrs, &n, o, COPT_ZONE_MAX_ACTIVE, d);
		put_opt(attrs, &n, o, COPT_ZONE_MAX_OPEN, d);
	}
	put_opt(attrs, &n, o, COPT_ZONED, d);
	return n;
}

/* The attributes the options set, in order, then the profile. */
static int configure(const struct create_opts *o, const char *name)
{
	struct create_attr attrs[CREATE_ATTRS_MAX];
	int n = create_opts_attrs(o, NULL, attrs), rc;

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
		if (opt == 'n')
			rc = set_option(&o, COPT_NAME, optarg);
		else if (opt == 'm')
			rc = set_option(&o, COPT_MEM_LIMIT, optarg);
		else
			return option_error("clone", argv, opt);
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
	if (!rc && is_set(&o, COPT_MEM_LIMIT)) {
		snprintf(path, sizeof(path), "%" PRIu64, bytes_of(&o, COPT_MEM_LIMIT));
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
