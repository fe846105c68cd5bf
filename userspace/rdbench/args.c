// SPDX-License-Identifier: GPL-2.0
/*
 * The command line every subcommand takes: the common options, the
 * targets in order with their labels, and the checks of option values.
 */
#include "rdbench.h"
#include "size.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	OPT_RUNS = 1000,
	OPT_JSON,
	OPT_CSV,
	OPT_LABEL,
	OPT_FORCE,
	OPT_DESTROY_DATA,
	OPT_PROGRESS,
	OPT_QUIET,
	OPT_HELP,
};

static const struct option common_options[] = {
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "destroy-data", no_argument, NULL, OPT_DESTROY_DATA },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, OPT_HELP },
};

int parse_unsigned(const char *opt, const char *arg, unsigned long min, unsigned long max,
		   unsigned long *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v < min || v > max) {
		warnx("%s: '%s' is not a whole number from %lu to %lu", opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_size_arg(const char *opt, const char *arg, uint64_t *out)
{
	const char *why = NULL;

	if (size_parse(arg, out, &why)) {
		warnx("%s: '%s' is not a size (%s); use e.g. 4096, 4k, 1M", opt, arg,
		      why ? why : "invalid");
		return -1;
	}
	return 0;
}

int parse_size_list(const char *opt, const char *arg, uint64_t *out, size_t max, size_t *n)
{
	const char *p = arg;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[64];

		if (!len || len >= sizeof(item)) {
			warnx("%s: '%s' is not a comma-separated list of sizes", opt, arg);
			return -1;
		}
		if (*n == max) {
			warnx("%s: at most %zu sizes", opt, max);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (parse_size_arg(opt, item, &out[*n]))
			return -1;
		(*n)++;
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

static int add_target(struct common *c, const char *arg, const char *label)
{
	struct target *targets, *t;
	const char *eq = strrchr(arg, '=');
	struct stat st;
	char *path;

	/* DIR=LABEL, unless a path by that whole name exists */
	if (!label && eq && stat(arg, &st) && errno == ENOENT) {
		path = strndup(arg, eq - arg);
		label = eq + 1;
	} else {
		path = strdup(arg);
	}
	if (!path)
		err(EXIT_RUN_FAILED, "out of memory");
	if (!*path || (label && !*label)) {
		warnx("'%s': empty %s", arg, *path ? "label" : "path");
		free(path);
		return -1;
	}
	targets = realloc(c->targets, (c->ntargets + 1) * sizeof(*targets));
	if (!targets)
		err(EXIT_RUN_FAILED, "out of memory");
	c->targets = targets;
	t = &c->targets[c->ntargets++];
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->label = strdup(label ? label : path);
	if (!t->label)
		err(EXIT_RUN_FAILED, "out of memory");
	return 0;
}

static struct option *merge_options(const struct option *sub)
{
	size_t nsub = 0, ncommon = sizeof(common_options) / sizeof(common_options[0]);
	struct option *all;

	while (sub && sub[nsub].name)
		nsub++;
	all = calloc(nsub + ncommon + 1, sizeof(*all));
	if (!all)
		err(EXIT_RUN_FAILED, "out of memory");
	memcpy(all, common_options, sizeof(common_options));
	if (nsub)
		memcpy(all + ncommon, sub, nsub * sizeof(*sub));
	return all;
}

/*
 * Options and targets are taken in order, so "--label A dir1 --label B
 * dir2" names each directory; "--" ends the options.
 */
int parse_command_line(int argc, char **argv, const char *cmd, const struct subcommand_options *sub,
		       struct common *c)
{
	struct option *opts = merge_options(sub->longopts);
	const char *label = NULL;
	bool quiet = false, progress = false, json = false, csv = false;
	unsigned long v;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	c->runs = 3;
	optind = 1;
	/* our own one-line messages, naming rdbench rather than argv[0] */
	opterr = 0;
	for (;;) {
		/* "-": targets come back in order, as the argument of opt 1 */
		int opt = getopt_long(argc, argv, "-:h", opts, NULL);

		if (opt == -1) {
			/* only what follows "--" is left */
			while (optind < argc) {
				if (add_target(c, argv[optind++], label))
					goto out_free;
				label = NULL;
			}
			break;
		}
		if (opt == 1) {
			if (add_target(c, optarg, label))
				goto out_free;
			label = NULL;
			continue;
		}
		switch (opt) {
		case OPT_RUNS:
			if (parse_unsigned("--runs", optarg, 1, 1000, &v))
				goto out_free;
			c->runs = v;
			c->runs_set = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_LABEL:
			if (label) {
				warnx("--label %s: no target after --label %s", optarg, label);
				goto out_free;
			}
			if (!*optarg) {
				warnx("--label: empty label");
				goto out_free;
			}
			label = optarg;
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case OPT_DESTROY_DATA:
			c->destroy_data = true;
			break;
		case OPT_PROGRESS:
			progress = true;
			break;
		case OPT_QUIET:
			quiet = true;
			break;
		case 'h':
		case OPT_HELP:
			usage_subcommand(cmd, stdout);
			exit(0);
		case '?':
			warnx("%s: unknown option %s; see 'rdbench %s --help'", cmd,
			      argv[optind - 1], cmd);
			goto out_free;
		case ':':
			warnx("%s: option %s needs a value", cmd, argv[optind - 1]);
			goto out_free;
		default:
			if (sub->set(sub->cfg, opt, optarg))
				goto out_free;
		}
	}
	if (label) {
		warnx("--label %s: no target follows it", label);
		goto out_free;
	}
	if (json && csv) {
		warnx("--json and --csv exclude each other");
		goto out_free;
	}
	if (!c->ntargets) {
		warnx("%s: no target given; see 'rdbench %s --help'", cmd, cmd);
		goto out_free;
	}
	c->format = json ? OUTPUT_JSON : csv ? OUTPUT_CSV : OUTPUT_HUMAN;
	c->progress = progress || (!quiet && isatty(STDERR_FILENO));
	ret = 0;
out_free:
	free(opts);
	return ret;
}
