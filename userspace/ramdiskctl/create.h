/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What create makes, shared with apply: the options of one device, read
 * from create's command line or from a section of ramdisk.conf by the same
 * code, so the two can never disagree on a name, a value or a rule.
 */
#ifndef RAMDISKCTL_CREATE_H
#define RAMDISKCTL_CREATE_H

#include "create_options.h"

#include <stdbool.h>
#include <stdint.h>

struct module_defaults;
struct profile;

/* What one option of create_options[] was given as. */
struct create_value {
	bool set;
	const char *arg; /* the text given; NULL for a flag */
	uint64_t bytes; /* CK_SIZE's value */
	long number; /* CK_NUMBER's value */
};

struct create_opts {
	/*
	 * Where errors are reported: NULL for create's command line (the
	 * message ends "see ramdiskctl create --help"), else "FILE:LINE" of
	 * the setting being read.
	 */
	const char *where;
	struct create_value v[COPT_COUNT]; /* by enum create_opt */
	/* --nvram PHYS:SIZE: reserved memory instead of RAM pages */
	uint64_t phys_addr, phys_size;
	const struct profile *profile; /* --profile's */
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
 * options set it (else value is the module's default, "" when unknown),
 * and whether the module takes a new value while the device is powered.
 */
struct create_attr {
	const char *attr;
	char value[40];
	bool set, live;
};
#define CREATE_ATTRS_MAX 32
/*
 * The attributes of o, in the order create writes them (each after those
 * the module checks it against), those o leaves out at d's defaults (or ""
 * when d is NULL). Returns how many.
 */
int create_opts_attrs(const struct create_opts *o, const struct module_defaults *d,
		      struct create_attr *attrs);

/*
 * Make the device o describes (o->name must be set), all or nothing, and
 * put its index in *index. Prints nothing on success.
 */
int create_device(const struct create_opts *o, int *index);

#endif /* RAMDISKCTL_CREATE_H */
