// SPDX-License-Identifier: GPL-2.0
/* Bad usage: the message for a word or an option a command cannot take. */
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cmd)
		warnx("%s: %s (see %s %s --help)", cmd, msg, program_invocation_short_name, cmd);
	else
		warnx("%s (see %s --help)", msg, program_invocation_short_name);
	return USAGE_STATUS;
}

int option_error(const char *cmd, char **argv, int opt)
{
	/* getopt_long() leaves the offending word just before optind. */
	const char *word = optind > 0 ? argv[optind - 1] : "?";

	if (opt == ':')
		return usage_error(cmd, "option %s needs a value", word);
	if (optopt && strncmp(word, "--", 2))
		return usage_error(cmd, "unknown option -%c", optopt);
	return usage_error(cmd, "unknown option %s", word);
}
