// SPDX-License-Identifier: GPL-2.0
#include "die.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "ramdisk";

void die_init(const char *argv0)
{
	const char *slash;

	if (!argv0 || !*argv0)
		return;
	slash = strrchr(argv0, '/');
	progname = slash && slash[1] ? slash + 1 : argv0;
}

const char *die_progname(void)
{
	return progname;
}

/*
 * Build the whole line first and write it with one call, so messages from
 * several processes sharing a terminal or log never interleave mid-line.
 * errnum < 0 means "no errno suffix".
 */
void verrmsg(int errnum, const char *fmt, va_list ap)
{
	char line[1024];
	int len;

	len = snprintf(line, sizeof(line), "%s: ", progname);
	if (len < 0 || (size_t)len >= sizeof(line))
		len = 0;
	vsnprintf(line + len, sizeof(line) - len, fmt, ap);
	if (errnum >= 0) {
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, ": %s", strerror(errnum));
	}
	fprintf(stderr, "%s\n", line);
}

void errmsg(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	verrmsg(-1, fmt, ap);
	va_end(ap);
	errno = saved;
}

void errmsg_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	verrmsg(saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrmsg(-1, fmt, ap);
	va_end(ap);
	exit(status);
}

void die_errno(int status, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	verrmsg(saved, fmt, ap);
	va_end(ap);
	exit(status);
}
