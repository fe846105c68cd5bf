// SPDX-License-Identifier: GPL-2.0
/*
 * fault: the bad blocks of a configuration (its configfs badblocks file):
 * set a range, list them as a table or JSON, clear one or all.
 */
#include "ramdiskctl.h"

#include "fault_range.h"
#include "sysfs_file.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most ranges the module keeps; the list is read whole into this. */
#define FAULT_LIST_MAX 64

struct fault_opts {
	struct fault_range range;
	bool json, raw, noheadings;
};

static int badblocks_path(const struct rdctl_device *d, char *path, size_t len)
{
	path_fmt(path, len, "%s/%s/badblocks", configfs_root(), d->name);
	if (!module_supports("badblocks")) {
		warnx("fault: the loaded ramdisk module has no bad blocks (see its features)");
		return RC_ERROR;
	}
	return RC_OK;
}

static int write_line(const struct rdctl_device *d, const char *line)
{
	char path[PATH_MAX];
	int rc = badblocks_path(d, path, sizeof(path));

	if (rc)
		return rc;
	if (sysfs_write_line(path, line))
		return report_errno(errno, "fault: %s: writing '%s' to badblocks", d->name, line);
	return RC_OK;
}

/* The module's list into r[]; the number of ranges, or -1 with a message. */
static int read_list(const struct rdctl_device *d, struct fault_range *r, size_t max)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f;

	if (badblocks_path(d, path, sizeof(path)))
		return -1;
	f = fopen(path, "re");
	if (!f) {
		report_errno(errno, "fault: %s: reading badblocks", d->name);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if ((size_t)n == max || fault_parse_line(line, &r[n])) {
			warnx("fault: %s: cannot read the badblocks line '%s'", d->name,
			      strtok(line, "\n"));
			n = -1;
			break;
		}
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

static int print_list(const struct fault_range *r, int n, const struct fault_opts *o)
{
	static const struct {
		const char *name;
		int json;
		int flags;
	} cols[] = {
		{ "START", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "END", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "SECTORS", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "RW", SCOLS_JSON_STRING, 0 },
		{ "ERROR", SCOLS_JSON_STRING, 0 },
		{ "STICKY", SCOLS_JSON_BOOLEAN, 0 },
	};
	const size_t ncols = sizeof(cols) / sizeof(cols[0]);
	struct libscols_table *tb;
	int rc = RC_ERROR;

	/* libsmartcols prints nothing for a table without lines: the header, then */
	if (!n && !o->json) {
		for (size_t i = 0; i < ncols && !o->noheadings; i++)
			printf("%s%s", cols[i].name, i + 1 < ncols ? " " : "\n");
		return RC_OK;
	}
	tb = scols_new_table();

	if (!tb)
		goto out_nomem;
	if (scols_table_set_name(tb, "badblocks"))
		goto out_nomem;
	scols_table_enable_json(tb, o->json);
	scols_table_enable_raw(tb, o->raw);
	scols_table_enable_noheadings(tb, o->noheadings);
	for (size_t i = 0; i < ncols; i++) {
		struct libscols_column *cl =
			scols_table_new_column(tb, cols[i].name, 0, cols[i].flags);

		if (!cl || scols_column_set_json_type(cl, cols[i].json))
			goto out_nomem;
	}
	for (int i = 0; i < n; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);
		char num[3][24];

		if (!ln)
			goto out_nomem;
		snprintf(num[0], sizeof(num[0]), "%" PRIu64, r[i].start);
		snprintf(num[1], sizeof(num[1]), "%" PRIu64, r[i].end);
		snprintf(num[2], sizeof(num[2]), "%" PRIu64, r[i].end - r[i].start + 1);
		if (scols_line_set_data(ln, 0, num[0]) || scols_line_set_data(ln, 1, num[1]) ||
		    scols_line_set_data(ln, 2, num[2]) ||
		    scols_line_set_data(ln, 3, fault_rw_name(r[i].rw)) ||
		    scols_line_set_data(ln, 4, fault_error_name(r[i].error)) ||
		    /* libsmartcols writes a JSON boolean false for "no", true for "yes" */
		    scols_line_set_data(ln, 5, r[i].sticky ? "yes" : "no"))
			goto out_nomem;
	}
	rc = scols_print_table(tb) ? RC_ERROR : RC_OK;
	if (rc)
		warnx("writing the table failed");
	scols_unref_table(tb);
	return rc;
out_nomem:
	scols_unref_table(tb);
	warnx("out of memory");
	return RC_ERROR;
}

/* "--NAME" of the option getopt_long() returned as opt. */
static const char *option_name(const struct option *longopts, int opt)
{
	static char buf[32];

	for (; longopts->name; longopts++) {
		if (longopts->val == opt) {
			snprintf(buf, sizeof(buf), "--%s", longopts->name);
			return buf;
		}
	}
	return "option";
}

/* RC_OK, or the exit status to end with (help was printed, or a usage error). */
static int fault_options(int argc, char **argv, const char *sub, struct fault_opts *o, bool *done)
{
	static const struct option longopts[] = {
		{ "rw", required_argument, NULL, 'w' }, { "error", required_argument, NULL, 'e' },
		{ "heal", no_argument, NULL, 'H' },	{ "json", no_argument, NULL, 'j' },
		{ "raw", no_argument, NULL, 'r' },	{ "noheadings", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },	{ NULL, 0, NULL, 0 },
	};
	bool set = !strcmp(sub, "set"), list = !strcmp(sub, "list");
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":jrnh", longopts, NULL)) != -1) {
		if (opt == 'h') {
			*done = true;
			return command_help("fault");
		}
		if ((strchr("weH", opt) && !set) || (strchr("jrn", opt) && !list))
			return usage_error("fault", "%s takes no %s", sub,
					   option_name(longopts, opt));
		switch (opt) {
		case 'w':
			if (fault_parse_rw(optarg, &o->range.rw))
				return usage_error("fault", "--rw '%s' is not read, write or both",
						   optarg);
			break;
		case 'e':
			if (fault_parse_error(optarg, &o->range.error))
				return usage_error(
					"fault",
					"--error '%s' is not eio, medium, nospc or timeout",
					optarg);
			break;
		case 'H':
			o->range.sticky = false;
			break;
		case 'j':
			o->json = true;
			break;
		case 'r':
			o->raw = true;
			break;
		case 'n':
			o->noheadings = true;
			break;
		default:
			return option_error("fault", argv, opt);
		}
	}
	return RC_OK;
}

int cmd_fault(int argc, char **argv)
{
	struct fault_opts o = { .range = { .rw = FAULT_BOTH, .error = FAULT_EIO, .sticky = true } };
	struct fault_range r[FAULT_LIST_MAX];
	struct rdctl_device d;
	const char *sub, *target;
	bool done = false;
	char line[128];
	int rc, n;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("fault");
	if (argc < 3)
		return usage_error("fault", "takes a device and set, list or clear");
	target = argv[1];
	sub = argv[2];
	if (strcmp(sub, "set") && strcmp(sub, "list") && strcmp(sub, "clear"))
		return usage_error("fault", "unknown action '%s': set, list or clear", sub);
	/* the options and operands after the action, the action as argv[0] */
	rc = fault_options(argc - 2, argv + 2, sub, &o, &done);
	if (rc || done)
		return rc;
	argc -= 2;
	argv += 2;
	if (!strcmp(sub, "set") && optind != argc - 1)
		return usage_error("fault", "set takes one RANGE");
	if (!strcmp(sub, "list") && optind != argc)
		return usage_error("fault", "list takes no RANGE");
	if (!strcmp(sub, "clear") && optind < argc - 1)
		return usage_error("fault", "clear takes one RANGE or none");
	if (optind < argc && fault_parse_range(argv[optind], &o.range.start, &o.range.end))
		return usage_error("fault", "'%s' is not a RANGE: START-END or START, in sectors",
				   argv[optind]);

	rc = resolve_configured("fault", target, &d);
	if (rc)
		return rc;
	if (!strcmp(sub, "list")) {
		n = read_list(&d, r, FAULT_LIST_MAX);
		return n < 0 ? RC_ERROR : print_list(r, n, &o);
	}
	if (!strcmp(sub, "clear") && optind == argc)
		return write_line(&d, "clear");
	if (!strcmp(sub, "clear"))
		snprintf(line, sizeof(line), "-%" PRIu64 "-%" PRIu64, o.range.start, o.range.end);
	else if (fault_format_add(&o.range, line, sizeof(line)))
		return RC_ERROR;
	return write_line(&d, line);
}
