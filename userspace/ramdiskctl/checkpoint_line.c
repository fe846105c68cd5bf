// SPDX-License-Identifier: GPL-2.0
/* The names and lines of a configuration's checkpoints file (checkpoint_line.h). */
#include "checkpoint_line.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The characters of a name, as the module's isalnum() and "._-" in the C locale. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

const char *checkpoint_name_invalid(const char *name)
{
	size_t len = strlen(name);

	if (!len)
		return "it is empty";
	if (len > CHECKPOINT_NAME_MAX)
		return "it is longer than 31 characters";
	for (size_t i = 0; i < len; i++)
		if (!name_char(name[i]))
			return "it has characters other than letters, digits, '.', '_' and '-'";
	return NULL;
}

/* "KEY=N" at *p, then a space or the end; moves *p past it. 0 or -1. */
static int parse_count(const char **p, const char *key, uint64_t *v)
{
	size_t klen = strlen(key);
	unsigned long long n;
	char *end;

	if (strncmp(*p, key, klen) || (*p)[klen] != '=')
		return -1;
	*p += klen + 1;
	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	n = strtoull(*p, &end, 10);
	if (errno)
		return -1;
	*v = n;
	*p = end;
	return 0;
}

int checkpoint_parse_line(const char *line, struct checkpoint_line *c)
{
	size_t len = strcspn(line, "\n"), nlen = strcspn(line, " \n");
	const char *p = line + nlen;

	/* one line: nothing after its newline */
	if (line[len] && line[len + 1])
		return -1;
	if (!nlen || nlen > CHECKPOINT_NAME_MAX)
		return -1;
	memcpy(c->name, line, nlen);
	c->name[nlen] = '\0';
	if (checkpoint_name_invalid(c->name) || *p++ != ' ' ||
	    parse_count(&p, "pages", &c->pages) || *p++ != ' ' || parse_count(&p, "own", &c->own) ||
	    (*p && *p != '\n'))
		return -1;
	return 0;
}
