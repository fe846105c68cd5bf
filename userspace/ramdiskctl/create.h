/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What create makes, shared with apply: the options of one device, read
 * from create's command line or from a section of ramdisk.conf by the same
 * code, so the two can never disagree on a name, a value or a rule.
 */
#ifndef RAMDISKCTL_CREATE_H
#define RAMDISKCTL_CREATE_H

#include <stdbool.h>
#include <stdint.h>

struct profile;

struct create_opts {
	/*
	 * Where errors are reported: NULL for create's command line (the
	 * message ends "see ramdiskctl create --help"), else "FILE:LINE" of
	 * the setting being read.
	 */
	const char *where;
	const char *name;
	const char *size_arg;
	uint64_t size;
	bool set_block_size, set_max_part, set_mem_limit, set_node;
	uint64_t block_size;
	/* what the device reports of itself, as a disk does */
	bool set_physical_block_size, set_io_min, set_io_opt, rotational;
	uint64_t physical_block_size, io_min, io_opt;
	/* atomic writes, as a disk reports them (the module checks the rules) */
	bool set_atomic_min, set_atomic_max, set_atomic_boundary;
	uint64_t atomic_min, atomic_max, atomic_boundary;
	long max_part;
	uint64_t mem_limit;
	long numa_node;
	/* --nvram PHYS:SIZE: reserved memory instead of RAM pages */
	bool set_nvram, format;
	uint64_t phys_addr, phys_size;
	/* a host-managed zoned device; the zone options need --zoned */
	bool zoned, set_zone_size, set_zone_capacity, set_zone_nr_conv, set_zone_max_open,
		set_zone_max_active;
	uint64_t zone_size, zone_capacity;
	long zone_nr_conv, zone_max_open, zone_max_active;
	/* what a crash test's device needs besides: a cache, a profile, spares */
	const char *cache_mode;
	bool set_cache_size, set_spare_pages;
	uint64_t cache_size;
	long spare_pages;
	const struct profile *profile;
	const char *profile_name;
};

/*
 * Take create's long option key (without "--") with value (NULL for a
 * flag) into o. RC_OK; RC_USAGE with a message for a bad value; -1,
 * silently, when create has no such option or it wants no value / a
 * value (the caller words that for its own syntax). "name" and "help"
 * are not options here.
 */
int create_opt_set(struct create_opts *o, const char *key, const char *value);
/* The configuration's name, checked as create --name checks it. */
int create_opt_name(struct create_opts *o, const char *name);
/* Whether key is one of create's options that takes no value. */
bool create_opt_is_flag(const char *key);
/* The checks between options, after the last one: RC_OK or RC_USAGE. */
int create_opts_check(struct create_opts *o);
/* Every attribute o writes exists in the loaded module: RC_OK or RC_ERROR. */
int create_check_features(const struct create_opts *o);

/*
 * One configfs attribute as create would leave it: its value, whether the
 * options set it (else value is the module's default), and whether the
 * module takes a new value while the device is powered.
 */
struct create_attr {
	const char *attr;
	char value[40];
	bool set, live;
};
#define CREATE_ATTRS_MAX 32
/*
 * The attributes of o, in the order create writes them (each after those
 * the module checks it against). Returns how many.
 */
int create_opts_attrs(const struct create_opts *o, struct create_attr *attrs);

/*
 * Make the device o describes (o->name must be set), all or nothing, and
 * put its index in *index. Prints nothing on success.
 */
int create_device(const struct create_opts *o, int *index);

#endif /* RAMDISKCTL_CREATE_H */
