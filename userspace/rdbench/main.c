// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench: compare RAM disks, tmpfs and real disks with the workloads of
 * Documentation/man/rdbench.1. This file dispatches the subcommands and
 * parses the options and targets they share.
 */
#include "rdbench.h"
#include "size.h"
#include "timing.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *synopsis;
	const char *options;
};

static const struct subcommand subcommands[] = {
	{ "meta", meta_main,
	  "meta [--sizes 0k,1k,4k,10k] [--files N] [--per-dir 100] [--fsync]\n"
	  "          [--threads T] [--min-time SECONDS] DIR...",
	  "  Create and delete rates (files/s) per file size, lmbench lat_fs\n"
	  "  style. Without --files the count doubles from 500 until the\n"
	  "  create phase lasts --min-time (default 0.2 s).\n"
	  "  --sizes LIST     file sizes (default 0k,1k,4k,10k)\n"
	  "  --files N        files per measurement (fixed; default automatic)\n"
	  "  --per-dir N      files per subdirectory (default 100)\n"
	  "  --fsync          fsync each file before closing it\n"
	  "  --threads T      create and delete in T threads (default 1)\n"
	  "  --min-time S     shortest create phase to trust (default 0.2)\n" },
	{ "churn", churn_main,
	  "churn --preset transient|queue [--files N] [--size S] [--rounds R]\n"
	  "          [--sync] DIR...",
	  "  Write, read back and delete a set of files, each phase timed.\n"
	  "  transient: 1 file of 700k, 1000 rounds, 5 runs (a web server's\n"
	  "             temporary file loop)\n"
	  "  queue:     10000 files of 4004 bytes, 1 round (a queue of files)\n"
	  "  --files N  files per round     --size S   bytes per file\n"
	  "  --rounds R rounds per run      --sync     fsync each file written\n" },
	{ "smallwrite", smallwrite_main,
	  "smallwrite [--total 4M] [--record 32] [--batch 1024] DIR...",
	  "  Write --total bytes as --record byte records four ways: one\n"
	  "  write() per record, stdio buffered (64 KiB), writev() of --batch\n"
	  "  records, and O_DIRECT writes of aligned blocks of --batch records;\n"
	  "  each method's time and its speed-up over the slowest.\n" },
	{ "bw", bw_main, "bw [--bs 4k,64k,1m] [--size S] [--direct] TARGET...",
	  "  Sequential write (ended by fsync) then read bandwidth, MiB/s, per\n"
	  "  block size. TARGET is a directory (a data file in a private\n"
	  "  subdirectory), a file, or a block device.\n"
	  "  --bs LIST   block sizes (default 4k,64k,1m)\n"
	  "  --size S    bytes per pass (default 256M, or the device if smaller)\n"
	  "  --direct    O_DIRECT (page cache bypassed)\n" },
	{ "pair", pair_main,
	  "pair [--op randread|randwrite] [--bs 4k] [--qd 1] [--ops 256] [--size S]\n"
	  "          TARGET TARGET...",
	  "  Random O_DIRECT I/O on the targets in turn: each round (a run; 101\n"
	  "  by default), every target does the same --ops offsets, so a\n"
	  "  drifting host weighs on all alike. Per target: IOPS, and the median\n"
	  "  over rounds of the first target's IOPS over this one's, its 95%\n"
	  "  interval (sign test) and the rounds the first led. Every block is\n"
	  "  written once, untimed, before the rounds.\n"
	  "  --op OP     randread (default) or randwrite\n"
	  "  --bs S      I/O size, a multiple of 4k up to 1M (default 4k)\n"
	  "  --qd N      I/Os in flight: 1 (default) is pread/pwrite, more\n"
	  "              goes through io_uring (up to 128)\n"
	  "  --ops N     I/Os per target per round (default 256)\n"
	  "  --size S    bytes the offsets span (default 256M, or the\n"
	  "              smallest device if smaller)\n" },
	{ "median", median_main, "median <NUMBERS",
	  "  The median of the numbers on stdin and the sign test's 95%\n"
	  "  interval for it, as pair computes them: one line, MEDIAN LOW\n"
	  "  HIGH ('- -' below six numbers). No options, no targets.\n" },
};

static const char common_help[] =
	"Common options:\n"
	"  --runs K          repeat K times; report median, min, max (default "
	"3)\n"
	"  --json, --csv     machine output with every run's raw figure\n"
	"  --label NAME      name the next target (or write TARGET=NAME)\n"
	"  --force           use a directory that is not empty\n"
	"  --destroy-data    overwrite an existing file, or a block device\n"
	"                    holding a file system signature\n"
	"  --progress        progress on stderr (default when it is a tty)\n"
	"  --quiet           no progress\n"
	"  -h, --help        this help\n";

static void print_timer_note(FILE *out)
{
	fprintf(out,
		"\nTiming: CLOCK_MONOTONIC, resolution %" PRIu64
		" ns; one read costs %.0f ns on this machine.\n"
		"Each phase is timed by two reads around it, none per "
		"operation.\n",
		timer_resolution_ns(), timer_cost_ns());
}

static void usage_all(FILE *out)
{
	fprintf(out, "Usage: rdbench COMMAND [OPTIONS] TARGET...\n\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  rdbench %s\n", subcommands[i].synopsis);
	fprintf(out, "\n%s", common_help);
	fprintf(out, "\nSee rdbench COMMAND --help and rdbench(1).\n");
}

static const struct subcommand *find_subcommand(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static void usage_subcommand(const char *cmd, FILE *out)
{
	const struct subcommand *s = find_subcommand(cmd);

	fprintf(out, "Usage: rdbench %s\n\n%s\n%s", s->synopsis, s->options, common_help);
	print_timer_note(out);
}

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

/* Sizes as lmbench names them: "0k", "4k", "1m", else plain bytes. */
void size_label(uint64_t bytes, char *buf, size_t len)
{
	if (bytes && !(bytes % (1u << 30)))
		snprintf(buf, len, "%" PRIu64 "g", bytes >> 30);
	else if (bytes && !(bytes % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m", bytes >> 20);
	else if (!(bytes % 1024))
		snprintf(buf, len, "%" PRIu64 "k", bytes >> 10);
	else
		snprintf(buf, len, "%" PRIu64, bytes);
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
