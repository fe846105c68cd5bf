// SPDX-License-Identifier: GPL-2.0
/*
 * The badblocks lines, without any I/O, so that a host unit test holds
 * them to the syntax the module takes (Documentation/admin-guide.md, "Bad
 * blocks").
 */
#include "fault_range.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rw_names[] = {
	[FAULT_READ] = "read",
	[FAULT_WRITE] = "write",
	[FAULT_BOTH] = "both",
};

static const char *const error_names[] = {
	[FAULT_EIO] = "eio",
	[FAULT_MEDIUM] = "medium",
	[FAULT_NOSPC] = "nospc",
	[FAULT_TIMEOUT] = "timeout",
};

/* A decimal number that is all of [s, end): digits only, no sign, no overflow. */
static int parse_u64(const char *s, const char *end, uint64_t *v)
{
	char buf[32], *stop;
	size_t len = (size_t)(end - s);

	if (!len || len >= sizeof(buf) || strspn(s, "0123456789") < len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &stop, 10);
	return errno || *stop ? -1 : 0;
}

int fault_parse_range(const char *s, uint64_t *start, uint64_t *end)
{
	const char *dash = strchr(s, '-');
	const char *stop = s + strlen(s);

	if (parse_u64(s, dash ? dash : stop, start))
		return -1;
	if (!dash)
		*end = *start;
	else if (parse_u64(dash + 1, stop, end))
		return -1;
	return *start <= *end ? 0 : -1;
}

static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

int fault_parse_rw(const char *s, enum fault_rw *rw)
{
	int i = lookup(rw_names, sizeof(rw_names) / sizeof(rw_names[0]), s);

	if (i < 0)
		return -1;
	*rw = (enum fault_rw)i;
	return 0;
}

int fault_parse_error(const char *s, enum fault_error *error)
{
	int i = lookup(error_names, sizeof(error_names) / sizeof(error_names[0]), s);

	if (i < 0)
		return -1;
	*error = (enum fault_error)i;
	return 0;
}

const char *fault_rw_name(enum fault_rw rw)
{
	return rw >= FAULT_READ && rw <= FAULT_BOTH ? rw_names[rw] : "?";
}

const char *fault_error_name(enum fault_error error)
{
	return error < FAULT_NR_ERRORS ? error_names[error] : "?";
}

int fault_format_add(const struct fault_range *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "+%" PRIu64 "-%" PRIu64 " rw=%s error=%s sticky=%d", r->start,
			 r->end, fault_rw_name(r->rw), fault_error_name(r->error), r->sticky);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int fault_parse_line(const char *line, struct fault_range *r)
{
	char buf[256], *save = NULL, *tok;
	size_t len = strcspn(line, "\n");
	bool have_rw = false, have_error = false, have_sticky = false;

	if (len >= sizeof(buf) || line[0] != '+')
		return -1;
	memcpy(buf, line + 1, len - 1);
	buf[len - 1] = '\0';
	tok = strtok_r(buf, " ", &save);
	if (!tok || fault_parse_range(tok, &r->start, &r->end))
		return -1;
	while ((tok = strtok_r(NULL, " ", &save))) {
		char *val = strchr(tok, '=');

		if (!val)
			return -1;
		*val++ = '\0';
		if (!strcmp(tok, "rw") && !fault_parse_rw(val, &r->rw)) {
			have_rw = true;
		} else if (!strcmp(tok, "error") && !fault_parse_error(val, &r->error)) {
			have_error = true;
		} else if (!strcmp(tok, "sticky") && (!strcmp(val, "0") || !strcmp(val, "1"))) {
			r->sticky = val[0] == '1';
			have_sticky = true;
		} else {
			return -1;
		}
	}
	/* the module prints every option, so a line without one is not its */
	return have_rw && have_error && have_sticky ? 0 : -1;
}
