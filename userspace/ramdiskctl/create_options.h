/* SPDX-License-Identifier: GPL-2.0 */
/*
 * create's options, one table: each option's names, the configfs attribute
 * it sets, what kind of value it takes and whether the module takes a new
 * value while the device is powered. create's command line, ramdisk.conf's
 * keys, the check of the module's features and info's lines for what it
 * has no line of its own for are read from it; the host
 * tests hold create's help and ramdiskctl(8) to it.
 */
#ifndef RAMDISKCTL_CREATE_OPTIONS_H
#define RAMDISKCTL_CREATE_OPTIONS_H

#include <stdbool.h>

struct option;

/*
 * One per option, in the order create checks the module's features (the
 * first the module lacks is the one named).
 */
enum create_opt {
	COPT_NAME,
	COPT_SIZE,
	COPT_BLOCK_SIZE,
	COPT_MAX_PART,
	COPT_MEM_LIMIT,
	COPT_NUMA_NODE,
	COPT_NVRAM,
	COPT_FORMAT,
	COPT_PHYSICAL_BLOCK_SIZE,
	COPT_IO_MIN,
	COPT_IO_OPT,
	COPT_ROTATIONAL,
	COPT_ATOMIC_MIN,
	COPT_ATOMIC_MAX,
	COPT_ATOMIC_BOUNDARY,
	COPT_ZONED,
	/* from here to COPT_ZONE_MAX_ACTIVE: the options that need --zoned */
	COPT_ZONE_SIZE,
	COPT_ZONE_CAPACITY,
	COPT_ZONE_NR_CONV,
	COPT_ZONE_MAX_OPEN,
	COPT_ZONE_MAX_ACTIVE,
	COPT_CACHE_SIZE,
	COPT_SPARE_PAGES,
	COPT_CACHE_MODE,
	COPT_PROFILE,
	COPT_COUNT
};

enum create_opt_kind {
	CK_SIZE, /* bytes, with K, M, G or T (size.h) */
	CK_NUMBER, /* a decimal integer from min to max */
	CK_FLAG, /* no value */
	CK_WORD, /* one of words[] */
	CK_NAME, /* the configuration's name: the command line's alone */
	CK_NVRAM, /* PHYS:SIZE, which sets the size too */
	CK_PROFILE, /* a profile's name (profiles.c) */
};

struct create_option {
	const char *option; /* the long option, without "--"; ramdisk.conf's key */
	char letter; /* the short option, or 0 for none */
	/*
	 * The attribute the loaded module must list in features for the
	 * option to be taken, and (but for --profile's) the one it writes;
	 * NULL for none.
	 */
	const char *attr;
	enum create_opt_kind kind;
	/* the value in messages: "bad block size '3x': ..." */
	const char *what;
	long min, max; /* CK_NUMBER's bounds */
	const char *const *words; /* CK_WORD's, NULL-terminated */
	bool live; /* the module takes a new value while the device is powered */
	/*
	 * info has a line of its own for the attribute (or none: format is
	 * an action, not a state); else info prints it as the module shows it
	 */
	bool info_own;
	const char *arg; /* the value's name in the help ("B", "SIZE"); NULL for a flag */
};

extern const struct create_option create_options[COPT_COUNT];

/* The option key names (without "--"), or -1. */
int create_option_find(const char *key);
/*
 * getopt_long()'s view of the table, with "help" ('h') added and the
 * terminating entry: shortopts starts with ':', as every error is ours
 * to word. create_option_of() turns what getopt_long() returns back into
 * an option, or -1 for 'h', '?' and ':'.
 */
#define CREATE_LONGOPTS_LEN (COPT_COUNT + 2)
#define CREATE_SHORTOPTS_LEN (1 + 2 * COPT_COUNT + 1 + 1)
void create_options_getopt(struct option *longopts, char *shortopts);
int create_option_of(int val);

#endif /* RAMDISKCTL_CREATE_OPTIONS_H */
