// SPDX-License-Identifier: GPL-2.0
/*
 * ramdisk.conf, read by hand: "[NAME]" starts a device, "KEY = VALUE" sets
 * one of its keys, "#" or ";" starts a comment line. The keys are create's
 * long options (read by create's own code) and fs, mkfs-options, mount,
 * mount-options and image. Any line it cannot read, an unknown or repeated
 * key, a repeated section, or a value create would refuse is one error
 * naming FILE:LINE, before apply has touched anything.
 *
 * Why not libinih: the grammar is twenty lines of C, and what matters is
 * what inih leaves to its caller anyway (unknown keys, duplicates, values);
 * its build-time options (inline comments, multi-line values, line length)
 * differ between distributions, and one more library to link for this is
 * not worth it.
 */
#include "conf.h"

#include "ramdiskctl.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what a file's own keys are, besides create's options */
static const char *const own_keys[] = { "fs", "mkfs-options", "mount", "mount-options", "image" };

struct reader {
	struct conf *c;
	unsigned int line;
	char where[4096 + 16]; /* FILE:LINE of the line being read */
	/* the keys the current section has set, for "set twice" */
	char **seen;
	unsigned int *seen_line;
	size_t nseen;
};

static int conf_error(const char *where, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int conf_error(const char *where, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnx("apply: %s: %s", where, msg);
	return RC_USAGE;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A copy that lives as long as the configuration; NULL when out of memory. */
static char *keep(struct conf *c, const char *s)
{
	char **n = realloc(c->strings, (c->nstrings + 1) * sizeof(*n));
	char *copy = strdup(s);

	if (!n || !copy) {
		free(copy);
		if (n)
			c->strings = n;
		warnx("out of memory");
		return NULL;
	}
	c->strings = n;
	c->strings[c->nstrings++] = copy;
	return copy;
}

static void forget_seen(struct reader *r)
{
	for (size_t i = 0; i < r->nseen; i++)
		free(r->seen[i]);
	free(r->seen);
	free(r->seen_line);
	r->seen = NULL;
	r->seen_line = NULL;
	r->nseen = 0;
}

static int start_section(struct reader *r, char *line)
{
	struct conf *c = r->c;
	struct conf_device *d;
	char *name, *end = line + strlen(line) - 1;

	if (*end != ']')
		return conf_error(r->where, "'%s': a section is [NAME]", line);
	*end = '\0';
	name = trim(line + 1);
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->devices[i].opts.v[COPT_NAME].arg, name))
			return conf_error(r->where, "section [%s] again (first at %s)", name,
					  c->devices[i].where);
	d = realloc(c->devices, (c->count + 1) * sizeof(*d));
	if (!d) {
		warnx("out of memory");
		return RC_ERROR;
	}
	c->devices = d;
	d = &c->devices[c->count++];
	memset(d, 0, sizeof(*d));
	snprintf(d->where, sizeof(d->where), "%s", r->where);
	d->opts.where = r->where;
	if (!(name = keep(c, name)))
		return RC_ERROR;
	forget_seen(r);
	return create_opt_name(&d->opts, name);
}

/* "yes" or "no" and their spellings: 1, or 0, or -1 for neither */
static int boolean(const char *v)
{
	static const char *const yes[] = { "yes", "true", "on", "1" }, *const no[] = { "no",
										       "false",
										       "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	return -1;
}

static int split_words(struct conf *c, struct reader *r, const char *value, char **words)
{
	char *copy = keep(c, value), *save, *w;
	size_t n = 0;

	if (!copy)
		return RC_ERROR;
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == CONF_MKFS_ARGS_MAX)
			return conf_error(r->where, "more than %d mkfs-options",
					  CONF_MKFS_ARGS_MAX);
		words[n++] = w;
	}
	words[n] = NULL;
	return RC_OK;
}

static int set_own_key(struct reader *r, struct conf_device *d, const char *key, const char *value)
{
	struct conf *c = r->c;
	char *v = keep(c, value);

	if (!v)
		return RC_ERROR;
	if (!strcmp(key, "fs")) {
		for (const char *p = v; *p; p++)
			if (!isalnum((unsigned char)*p))
				return conf_error(
					r->where,
					"bad fs '%s': a file system type, as mkfs.TYPE names it (ext4, xfs, ...)",
					v);
		d->fs = v;
	} else if (!strcmp(key, "mkfs-options")) {
		return split_words(c, r, v, d->mkfs_args);
	} else if (!strcmp(key, "mount") || !strcmp(key, "image")) {
		if (v[0] != '/' || !strcmp(v, "/"))
			return conf_error(r->where, "bad %s '%s': want an absolute path", key, v);
		*(strcmp(key, "mount") ? &d->image : &d->mount) = v;
	} else {
		d->mount_options = v;
	}
	return RC_OK;
}

static int set_key(struct reader *r, char *line, char *eq)
{
	struct conf_device *d = r->c->count ? &r->c->devices[r->c->count - 1] : NULL;
	char *key, *value, **seen;
	unsigned int *seen_line;
	int rc, flag;

	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	if (!d)
		return conf_error(r->where, "'%s' before any [NAME] section", key);
	if (!*key)
		return conf_error(r->where, "no key before '='");
	for (size_t i = 0; i < r->nseen; i++)
		if (!strcmp(r->seen[i], key))
			return conf_error(r->where, "%s set again (first at line %u)", key,
					  r->seen_line[i]);
	seen = realloc(r->seen, (r->nseen + 1) * sizeof(*seen));
	if (seen)
		r->seen = seen;
	seen_line = realloc(r->seen_line, (r->nseen + 1) * sizeof(*seen_line));
	if (seen_line)
		r->seen_line = seen_line;
	if (!seen || !seen_line || !(r->seen[r->nseen] = strdup(key))) {
		warnx("out of memory");
		return RC_ERROR;
	}
	r->seen_line[r->nseen++] = r->line;
	if (!*value)
		return conf_error(r->where, "%s has no value", key);
	for (size_t i = 0; i < sizeof(own_keys) / sizeof(own_keys[0]); i++)
		if (!strcmp(key, own_keys[i]))
			return set_own_key(r, d, key, value);
	if (!strcmp(key, "format"))
		return conf_error(
			r->where,
			"format wipes the device: run ramdiskctl create --format once by hand, not at every boot");
	if (create_opt_is_flag(key)) {
		flag = boolean(value);
		if (flag < 0)
			return conf_error(r->where, "bad %s '%s': want yes or no", key, value);
		return flag ? create_opt_set(&d->opts, key, NULL) : RC_OK;
	}
	if (!(value = keep(r->c, value)))
		return RC_ERROR;
	d->opts.where = r->where;
	rc = create_opt_set(&d->opts, key, value);
	if (rc < 0)
		return conf_error(r->where, "unknown key '%s' (see ramdiskctl(8), apply)", key);
	return rc;
}

/* What only the whole section can tell, with its [NAME] line as the place. */
static int check_device(struct conf_device *d)
{
	const char *name = d->opts.v[COPT_NAME].arg;

	d->opts.where = d->where;
	if (d->mount && !d->fs)
		return conf_error(d->where, "[%s]: mount needs fs", name);
	if (d->mount_options && !d->mount)
		return conf_error(d->where, "[%s]: mount-options needs mount", name);
	if (d->mkfs_args[0] && !d->fs)
		return conf_error(d->where, "[%s]: mkfs-options needs fs", name);
	if (d->fs && d->opts.v[COPT_ZONED].set && strcmp(d->fs, "btrfs") && strcmp(d->fs, "f2fs"))
		return conf_error(d->where,
				  "[%s]: fs %s cannot live on a zoned device (btrfs and f2fs can)",
				  name, d->fs);
	return create_opts_check(&d->opts);
}

static int read_lines(struct reader *r, FILE *f)
{
	char *buf = NULL, *line, *eq;
	size_t cap = 0;
	int rc = RC_OK;

	while (!rc && getline(&buf, &cap, f) >= 0) {
		r->line++;
		snprintf(r->where, sizeof(r->where), "%s:%u", r->c->path, r->line);
		line = trim(buf);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[')
			rc = start_section(r, line);
		else if ((eq = strchr(line, '=')))
			rc = set_key(r, line, eq);
		else
			rc = conf_error(r->where, "'%s': want [NAME] or KEY = VALUE", line);
	}
	if (!rc && ferror(f))
		rc = report_errno(errno, "apply: reading %s", r->c->path);
	free(buf);
	return rc;
}

int conf_load(const char *path, struct conf *c)
{
	struct reader r = { .c = c };
	FILE *f;
	int rc;

	memset(c, 0, sizeof(*c));
	c->path = path;
	f = fopen(path, "re");
	if (!f)
		return report_errno(errno, "apply: %s", path);
	rc = read_lines(&r, f);
	fclose(f);
	forget_seen(&r);
	for (size_t i = 0; !rc && i < c->count; i++)
		rc = check_device(&c->devices[i]);
	if (rc)
		conf_free(c);
	return rc;
}

void conf_free(struct conf *c)
{
	for (size_t i = 0; i < c->nstrings; i++)
		free(c->strings[i]);
	free(c->strings);
	free(c->devices);
	c->strings = NULL;
	c->devices = NULL;
	c->count = c->nstrings = 0;
}
