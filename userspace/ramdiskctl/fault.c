// SPDX-License-Identifier: GPL-2.0
/*
 * fault: the injected faults of a configuration. Its bad blocks (the
 * configfs badblocks file): set a range, list them, clear one or all. Its
 * fault schedule (the fault_schedule file): add a rule, list the rules
 * with what they did. clear without a range clears both.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "configured.h"
#include "fault_range.h"
#include "fault_rule.h"
#include "help.h"
#include "module_check.h"
#include "table.h"
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More lines than the module keeps (48 ranges, 16 rules): a list is read whole. */
#define FAULT_LIST_MAX 64

struct fault_opts {
	struct fault_range range;
	struct fault_rule rule;
	bool have_error, have_seed;
	struct table_style style;
};

/* The path of a configuration's attr (badblocks or fault_schedule), when the module has it. */
static int attr_path(const struct rdctl_device *d, const char *attr, char *path, size_t len)
{
	path_fmt(path, len, "%s/%s/%s", rd_configfs_root(), d->name, attr);
	if (!module_supports(attr)) {
		warnx("fault: the loaded ramdisk module has no %s (see its features)",
		      strcmp(attr, "badblocks") ? "fault schedule" : "bad blocks");
		return RC_ERROR;
	}
	return RC_OK;
}

static int write_attr(const struct rdctl_device *d, const char *attr, const char *line)
{
	char path[PATH_MAX];
	int rc = attr_path(d, attr, path, sizeof(path));

	if (rc)
		return rc;
	if (attr_write_line(path, line))
		return report_errno(errno, "fault: %s: writing '%s' to %s", d->name, line, attr);
	return RC_OK;
}

/*
 * The lines of a configuration's attr, each through parse into the n-th
 * slot of the array at items (size bytes each); the number read, or -1
 * with a message.
 */
static int read_lines(const struct rdctl_device *d, const char *attr, void *items, size_t size,
		      int (*parse)(const char *line, void *item))
{
	char path[PATH_MAX], *bad;
	int n;

	if (attr_path(d, attr, path, sizeof(path)))
		return -1;
	n = attr_read_lines(path, items, size, FAULT_LIST_MAX, parse, &bad);
	if (bad)
		warnx("fault: %s: cannot read the %s line '%s'", d->name, attr, bad);
	else if (n < 0)
		report_errno(errno, "fault: %s: reading %s", d->name, attr);
	free(bad);
	return n;
}

static int parse_range_line(const char *line, void *item)
{
	return fault_parse_line(line, item);
}

static int parse_rule_line(const char *line, void *item)
{
	return fault_rule_parse_line(line, item);
}

static int range_cells(struct libscols_line *ln, const void *item)
{
	const struct fault_range *r = item;
	char num[3][24];

	snprintf(num[0], sizeof(num[0]), "%" PRIu64, r->start);
	snprintf(num[1], sizeof(num[1]), "%" PRIu64, r->end);
	snprintf(num[2], sizeof(num[2]), "%" PRIu64, r->end - r->start + 1);
	return scols_line_set_data(ln, 0, num[0]) || scols_line_set_data(ln, 1, num[1]) ||
	       scols_line_set_data(ln, 2, num[2]) ||
	       scols_line_set_data(ln, 3, fault_rw_name(r->rw)) ||
	       scols_line_set_data(ln, 4, fault_error_name(r->error)) ||
	       /* libsmartcols writes a JSON boolean false for "no", true for "yes" */
	       scols_line_set_data(ln, 5, r->sticky ? "yes" : "no");
}

static int print_ranges(const struct fault_range *r, int n, const struct table_style *style)
{
	static const struct table_column cols[] = {
		{ "START", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "END", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "SECTORS", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "RW", SCOLS_JSON_STRING, 0 },
		{ "ERROR", SCOLS_JSON_STRING, 0 },
		{ "STICKY", SCOLS_JSON_BOOLEAN, 0 },
	};
	struct libscols_table *tb =
		table_new("badblocks", cols, sizeof(cols) / sizeof(cols[0]), style);

	if (!tb)
		return RC_ERROR;
	return table_print_items(tb, r, n, sizeof(r[0]), range_cells, style);
}

/* The cells of one rule; a column a rule does not use is left out (JSON null). */
static int rule_cells(struct libscols_line *ln, const void *item)
{
	const struct fault_rule *r = item;
	char kinds[32], prob[16], num[7][24];
	const char *action = r->delay_us ? "delay" : r->drop ? "drop" : fault_error_name(r->error);

	fault_kinds_name(r->kinds, kinds, sizeof(kinds));
	fault_prob_name(r->prob_ppm, prob, sizeof(prob));
	snprintf(num[0], sizeof(num[0]), "%" PRIu32, r->every);
	snprintf(num[1], sizeof(num[1]), "%" PRIu64, r->seed);
	snprintf(num[2], sizeof(num[2]), "%" PRIu32, r->after_flush);
	snprintf(num[3], sizeof(num[3]), "%" PRIu32, r->window_ms);
	snprintf(num[4], sizeof(num[4]), "%" PRIu32, r->delay_us);
	snprintf(num[5], sizeof(num[5]), "%" PRIu64, r->seen);
	snprintf(num[6], sizeof(num[6]), "%" PRIu64, r->injected);
	return scols_line_set_data(ln, 0, kinds) ||
	       (r->every && scols_line_set_data(ln, 1, num[0])) ||
	       (r->prob_ppm &&
		(scols_line_set_data(ln, 2, prob) || scols_line_set_data(ln, 3, num[1]))) ||
	       scols_line_set_data(ln, 4, num[2]) || scols_line_set_data(ln, 5, num[3]) ||
	       scols_line_set_data(ln, 6, action) ||
	       (r->delay_us && scols_line_set_data(ln, 7, num[4])) ||
	       scols_line_set_data(ln, 8, num[5]) || scols_line_set_data(ln, 9, num[6]);
}

static int print_rules(const struct fault_rule *r, int n, const struct table_style *style)
{
	static const struct table_column cols[] = {
		{ "KINDS", SCOLS_JSON_STRING, 0 },
		{ "EVERY", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "PROB", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "SEED", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "AFTER_FLUSH", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "WINDOW_MS", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "ACTION", SCOLS_JSON_STRING, 0 },
		{ "DELAY_US", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "SEEN", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "INJECTED", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
	};
	struct libscols_table *tb =
		table_new("fault_schedule", cols, sizeof(cols) / sizeof(cols[0]), style);

	if (!tb)
		return RC_ERROR;
	return table_print_items(tb, r, n, sizeof(r[0]), rule_cells, style);
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

/* A u32 option's value; RC_OK or a usage error. */
static int u32_option(const struct option *longopts, int opt, const char *arg, uint32_t min,
		      uint32_t max, uint32_t *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || n < min || n > max)
		return usage_error("fault", "%s '%s' is not a number from %" PRIu32 " to %" PRIu32,
				   option_name(longopts, opt), arg, min, max);
	*v = (uint32_t)n;
	return RC_OK;
}

/* Which options each action takes, by their getopt letters. */
static const struct {
	const char *action;
	const char *opts;
} action_opts[] = {
	{ "set", "weH" },   { "list", "jrn" },		{ "clear", "" },
	{ "rules", "jrn" }, { "schedule", "ePSAWDXE" },
};

static const char *allowed_opts(const char *sub)
{
	for (size_t i = 0; i < sizeof(action_opts) / sizeof(action_opts[0]); i++)
		if (!strcmp(action_opts[i].action, sub))
			return action_opts[i].opts;
	return NULL;
}

/* The value of one option; RC_OK or a usage error. */
static int fault_option(const struct option *longopts, int opt, struct fault_opts *o)
{
	switch (opt) {
	case 'w':
		if (fault_parse_rw(optarg, &o->range.rw))
			return usage_error("fault", "--rw '%s' is not read, write or both", optarg);
		return RC_OK;
	case 'e':
		if (fault_parse_error(optarg, &o->range.error))
			return usage_error("fault",
					   "--error '%s' is not eio, medium, nospc or timeout",
					   optarg);
		o->rule.error = o->range.error;
		o->have_error = true;
		return RC_OK;
	case 'H':
		o->range.sticky = false;
		return RC_OK;
	case 'E':
		return u32_option(longopts, opt, optarg, 1, UINT32_MAX, &o->rule.every);
	case 'P':
		if (fault_parse_prob(optarg, &o->rule.prob_ppm))
			return usage_error("fault",
					   "--prob '%s' is not a probability above 0 and at "
					   "most 1, to 6 decimal places",
					   optarg);
		return RC_OK;
	case 'S': {
		char *end;

		errno = 0;
		o->rule.seed = strtoull(optarg, &end, 10);
		if (optarg[0] < '0' || optarg[0] > '9' || *end || errno)
			return usage_error("fault", "--seed '%s' is not a number from 0 to 2^64-1",
					   optarg);
		o->have_seed = true;
		return RC_OK;
	}
	case 'A':
		return u32_option(longopts, opt, optarg, 0, UINT32_MAX, &o->rule.after_flush);
	case 'W':
		return u32_option(longopts, opt, optarg, 0, UINT32_MAX, &o->rule.window_ms);
	case 'D':
		return u32_option(longopts, opt, optarg, 1, FAULT_DELAY_US_MAX, &o->rule.delay_us);
	case 'X':
		o->rule.drop = true;
		return RC_OK;
	case 'j':
		o->style.json = true;
		return RC_OK;
	case 'r':
		o->style.raw = true;
		return RC_OK;
	case 'n':
		o->style.noheadings = true;
		return RC_OK;
	default:
		return RC_USAGE;
	}
}

/* RC_OK, or the exit status to end with (help was printed, or a usage error). */
static int fault_options(int argc, char **argv, const char *sub, struct fault_opts *o, bool *done)
{
	static const struct option longopts[] = {
		{ "rw", required_argument, NULL, 'w' },
		{ "error", required_argument, NULL, 'e' },
		{ "heal", no_argument, NULL, 'H' },
		{ "every", required_argument, NULL, 'E' },
		{ "prob", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 'S' },
		{ "after-flush", required_argument, NULL, 'A' },
		{ "window", required_argument, NULL, 'W' },
		{ "delay", required_argument, NULL, 'D' },
		{ "drop", no_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'j' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *allowed = allowed_opts(sub);
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":jrnh", longopts, NULL)) != -1) {
		if (opt == 'h') {
			*done = true;
			return command_help("fault");
		}
		if (opt == '?' || opt == ':')
			return option_error("fault", argv, opt);
		if (!strchr(allowed, opt))
			return usage_error("fault", "%s takes no %s", sub,
					   option_name(longopts, opt));
		rc = fault_option(longopts, opt, o);
		if (rc)
			return rc;
	}
	return RC_OK;
}

/* A rule from KINDS and the options of schedule; RC_OK or a usage error. */
static int schedule_rule(const char *kinds, struct fault_opts *o)
{
	struct fault_rule *r = &o->rule;

	if (fault_parse_kinds(kinds, &r->kinds))
		return usage_error("fault",
				   "'%s' is not KINDS: any, or read, write, flush and "
				   "discard, comma-separated",
				   kinds);
	if (!r->every == !r->prob_ppm)
		return usage_error("fault", "schedule takes one of --every and --prob");
	if (o->have_seed && !r->prob_ppm)
		return usage_error("fault", "--seed goes with --prob");
	if (o->have_error + !!r->delay_us + r->drop > 1)
		return usage_error("fault", "schedule takes one of --error, --delay and --drop");
	if (fault_rule_invalid(r))
		return usage_error("fault", "schedule: %s", fault_rule_invalid(r));
	return RC_OK;
}

/* The operands after the action's options: their count must fit the action. */
static int check_operands(const char *sub, int left)
{
	if (!strcmp(sub, "set") && left != 1)
		return usage_error("fault", "set takes one RANGE");
	if (!strcmp(sub, "schedule") && left != 1)
		return usage_error("fault", "schedule takes one KINDS");
	if ((!strcmp(sub, "list") || !strcmp(sub, "rules")) && left)
		return usage_error("fault", "%s takes no operand", sub);
	if (!strcmp(sub, "clear") && left > 1)
		return usage_error("fault", "clear takes one RANGE or none");
	return RC_OK;
}

/* clear without a range: every bad block and every rule, where the module has them. */
static int clear_all(const struct rdctl_device *d)
{
	int rc = write_attr(d, "badblocks", "clear");

	if (!rc && module_supports("fault_schedule"))
		rc = write_attr(d, "fault_schedule", "clear");
	return rc;
}

int cmd_fault(int argc, char **argv)
{
	struct fault_opts o = {
		.range = { .rw = FAULT_BOTH, .error = FAULT_EIO, .sticky = true },
		.rule = { .error = FAULT_EIO },
	};
	struct fault_range ranges[FAULT_LIST_MAX];
	struct fault_rule rules[FAULT_LIST_MAX];
	struct rdctl_device d;
	const char *sub, *target;
	bool done = false;
	char line[256];
	int rc, n;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("fault");
	if (argc < 3)
		return usage_error("fault",
				   "takes a device and set, list, clear, schedule or rules");
	target = argv[1];
	sub = argv[2];
	if (!allowed_opts(sub))
		return usage_error("fault",
				   "unknown action '%s': set, list, clear, schedule or rules", sub);
	/* the options and operands after the action, the action as argv[0] */
	rc = fault_options(argc - 2, argv + 2, sub, &o, &done);
	if (rc || done)
		return rc;
	argc -= 2;
	argv += 2;
	rc = check_operands(sub, argc - optind);
	if (rc)
		return rc;
	if (!strcmp(sub, "schedule"))
		rc = schedule_rule(argv[optind], &o);
	else if (optind < argc && fault_parse_range(argv[optind], &o.range.start, &o.range.end))
		rc = usage_error("fault", "'%s' is not a RANGE: START-END or START, in sectors",
				 argv[optind]);
	if (rc)
		return rc;

	rc = resolve_configured("fault", target, &d);
	if (rc)
		return rc;
	if (!strcmp(sub, "list")) {
		n = read_lines(&d, "badblocks", ranges, sizeof(ranges[0]), parse_range_line);
		return n < 0 ? RC_ERROR : print_ranges(ranges, n, &o.style);
	}
	if (!strcmp(sub, "rules")) {
		n = read_lines(&d, "fault_schedule", rules, sizeof(rules[0]), parse_rule_line);
		return n < 0 ? RC_ERROR : print_rules(rules, n, &o.style);
	}
	if (!strcmp(sub, "schedule")) {
		if (fault_rule_format(&o.rule, line, sizeof(line)))
			return RC_ERROR;
		return write_attr(&d, "fault_schedule", line);
	}
	if (!strcmp(sub, "clear") && optind == argc)
		return clear_all(&d);
	if (!strcmp(sub, "clear"))
		snprintf(line, sizeof(line), "-%" PRIu64 "-%" PRIu64, o.range.start, o.range.end);
	else if (fault_format_add(&o.range, line, sizeof(line)))
		return RC_ERROR;
	return write_attr(&d, "badblocks", line);
}
