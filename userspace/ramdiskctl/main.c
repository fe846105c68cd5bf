// SPDX-License-Identifier: GPL-2.0
/* ramdiskctl: command dispatch; help.c holds the help and the exit status table. */
#include "ramdiskctl.h"

#include "help.h"
#include "usage.h"

#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

/* What runs each command; help.c holds what each one does. */
static const struct command commands[] = {
	{ "create", cmd_create },     { "remove", cmd_remove },	  { "apply", cmd_apply },
	{ "list", cmd_list },	      { "info", cmd_info },	  { "powercut", cmd_powercut },
	{ "profile", cmd_profile },   { "fault", cmd_fault },	  { "checkpoint", cmd_checkpoint },
	{ "rollback", cmd_rollback }, { "clone", cmd_clone },	  { "wlog", cmd_wlog },
	{ "save", cmd_save },	      { "restore", cmd_restore }, { "export", cmd_export },
	{ "unexport", cmd_unexport },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* A full disk or closed pipe must not pass for success. */
static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		warn("writing output");
		return rc ? rc : RC_ERROR;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const struct command *c;

	/* a message is one write(2), whole, even beside other processes */
	setvbuf(stderr, NULL, _IOLBF, 0);
	if (argc < 2) {
		print_overview(stderr);
		return RC_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return finish(command_help(NULL));
	if (!strcmp(argv[1], "help")) {
		if (argc > 3)
			return usage_error("help", "too many arguments");
		if (argc == 3 && !find_command(argv[2]))
			return usage_error(NULL, "unknown command '%s'", argv[2]);
		return finish(command_help(argc == 3 ? argv[2] : NULL));
	}
	c = find_command(argv[1]);
	if (!c) {
		if (argv[1][0] == '-')
			return usage_error(NULL, "unknown option %s", argv[1]);
		return usage_error(NULL, "unknown command '%s'", argv[1]);
	}
	/* Each command parses its own argv with getopt_long() from 1. */
	optind = 1;
	opterr = 0;
	return finish(c->run(argc - 1, argv + 1));
}
