/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Devices as a table or JSON (list, and info's --json and table views),
 * printed by libsmartcols.
 */
#ifndef RAMDISKCTL_DEVICE_TABLE_H
#define RAMDISKCTL_DEVICE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rdctl_device;

struct table_opts {
	bool json, raw, noheadings, bytes, all;
	const char *output; /* --output's list, NULL for the defaults */
	bool plus; /* --output +COLS: after the defaults */
	int cols[64]; /* the columns --output or --output-all named */
	size_t ncols;
};
/* The options list and info share, for getopt_long(). */
#define TABLE_SHORTOPTS "jrnbo:"
#define TABLE_LONGOPTS                                                                         \
	{ "json", no_argument, NULL, 'j' }, { "raw", no_argument, NULL, 'r' },                 \
		{ "noheadings", no_argument, NULL, 'n' }, { "bytes", no_argument, NULL, 'b' }, \
		{ "output", required_argument, NULL, 'o' },                                    \
	{                                                                                      \
		"output-all", no_argument, NULL, 'O'                                           \
	}
/* Take one of those options into o: 0, or -1 when opt is not one. */
int table_option(int opt, const char *arg, struct table_opts *o);
/* Check --output's names; RC_OK, or a usage error (RC_USAGE). */
int table_columns_parse(const char *cmd, struct table_opts *o);
int print_devices(const struct rdctl_device *list, size_t count, const struct table_opts *o);
/* The columns and what they show, for list --help and info --help. */
void print_columns_help(FILE *out);

#endif /* RAMDISKCTL_DEVICE_TABLE_H */
