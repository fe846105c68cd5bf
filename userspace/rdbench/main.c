// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench: compare RAM disks, tmpfs and real disks with the workloads of
 * Documentation/man/rdbench.1. This file dispatches the subcommands.
 */
#include "rdbench.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Each subcommand's main; help.c has their synopses and options. */
struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
};

static const struct subcommand subcommands[] = {
	{ .name = "meta", .main = meta_main },
	{ .name = "churn", .main = churn_main },
	{ .name = "smallwrite", .main = smallwrite_main },
	{ .name = "bw", .main = bw_main },
	{ .name = "pair", .main = pair_main },
	{ .name = "median", .main = median_main },
};

static const struct subcommand *find_subcommand(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct subcommand *s;

	/* a message is one write(2), whole, even beside other processes */
	setvbuf(stderr, NULL, _IOLBF, 0);
	/* as its progress lines and help do, whatever the file is called */
	program_invocation_short_name = "rdbench";
	if (argc < 2) {
		usage_all(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage_all(stdout);
		print_timer_note(stdout);
		return 0;
	}
	s = find_subcommand(argv[1]);
	if (!s) {
		warnx("unknown command '%s'; see 'rdbench --help'", argv[1]);
		return EXIT_USAGE;
	}
	safety_init();
	return s->main(argc - 1, argv + 1);
}
