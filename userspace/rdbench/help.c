// SPDX-License-Identifier: GPL-2.0
/*
 * The help rdbench prints: each subcommand's synopsis and options, the
 * options they all take, and the note on the timer.
 */
#include "rdbench.h"
#include "timing.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The subcommands in the order the help lists them; main.c runs them. */
struct subcommand_help {
	const char *name;
	const char *synopsis;
	const char *options;
};

static const struct subcommand_help subcommands[] = {
	{ "meta",
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
	{ "churn",
	  "churn --preset transient|queue [--files N] [--size S] [--rounds R]\n"
	  "          [--sync] DIR...",
	  "  Write, read back and delete a set of files, each phase timed.\n"
	  "  transient: 1 file of 700k, 1000 rounds, 5 runs (a web server's\n"
	  "             temporary file loop)\n"
	  "  queue:     10000 files of 4004 bytes, 1 round (a queue of files)\n"
	  "  --files N  files per round     --size S   bytes per file\n"
	  "  --rounds R rounds per run      --sync     fsync each file written\n" },
	{ "smallwrite", "smallwrite [--total 4M] [--record 32] [--batch 1024] DIR...",
	  "  Write --total bytes as --record byte records four ways: one\n"
	  "  write() per record, stdio buffered (64 KiB), writev() of --batch\n"
	  "  records, and O_DIRECT writes of aligned blocks of --batch records;\n"
	  "  each method's time and its speed-up over the slowest.\n" },
	{ "bw", "bw [--bs 4k,64k,1m] [--size S] [--direct] TARGET...",
	  "  Sequential write (ended by fsync) then read bandwidth, MiB/s, per\n"
	  "  block size. TARGET is a directory (a data file in a private\n"
	  "  subdirectory), a file, or a block device.\n"
	  "  --bs LIST   block sizes (default 4k,64k,1m)\n"
	  "  --size S    bytes per pass (default 256M, or the device if smaller)\n"
	  "  --direct    O_DIRECT (page cache bypassed)\n" },
	{ "pair",
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
	{ "median", "median <NUMBERS",
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

void print_timer_note(FILE *out)
{
	fprintf(out,
		"\nTiming: CLOCK_MONOTONIC, resolution %" PRIu64
		" ns; one read costs %.0f ns on this machine.\n"
		"Each phase is timed by two reads around it, none per "
		"operation.\n",
		timer_resolution_ns(), timer_cost_ns());
}

void usage_all(FILE *out)
{
	fprintf(out, "Usage: rdbench COMMAND [OPTIONS] TARGET...\n\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  rdbench %s\n", subcommands[i].synopsis);
	fprintf(out, "\n%s", common_help);
	fprintf(out, "\nSee rdbench COMMAND --help and rdbench(1).\n");
}

static const struct subcommand_help *find_help(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

void usage_subcommand(const char *cmd, FILE *out)
{
	const struct subcommand_help *s = find_help(cmd);

	fprintf(out, "Usage: rdbench %s\n\n%s\n%s", s->synopsis, s->options, common_help);
	print_timer_note(out);
}
