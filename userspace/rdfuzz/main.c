// SPDX-License-Identifier: GPL-2.0
/*
 * rdfuzz: options, the loop and the summary. See rdfuzz.h for what a step
 * does and why a seed replays.
 */
#include "attr_file.h"
#include "ramdisk.h"
#include "rdfuzz.h"
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The attributes when --dry-run cannot read the features file. */
static const char default_features[] =
	"atomic_write_boundary,atomic_write_unit_max,atomic_write_unit_min,"
	"badblocks,bandwidth_mbps,block_size,cache_mode,cache_size,checkpoints,clone_of,"
	"fault_schedule,"
	"flush_latency_ns,format,index,"
	"io_min,io_opt,max_part,mem_limit,numa_node,phys_addr,phys_size,"
	"physical_block_size,power,power_cut,power_cut_drop_percent,power_cut_personality,"
	"power_cut_seed,"
	"power_cut_unit,power_domain,read_latency_ns,rollback,rotational,size,spare_pages,write_latency_ns,"
	"write_log,write_log_limit,zone_capacity,zone_max_active,zone_max_open,zone_nr_conv,"
	"zone_size,zoned";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rdfuzz [--seed N] [--iterations N] [--duration SECONDS] [--slots N]\n"
		"              [--root DIR] [--log FILE|-] [--dry-run]\n"
		"Random values and orders on the ramdisk control surface: configfs\n"
		"attributes, block ioctls, sysfs files, power on and off with I/O in\n"
		"flight. A seed gives the same actions every time.\n"
		"  --seed N        the generator's seed (default: from the clock; printed)\n"
		"  --iterations N  steps to run (default 1000, or none with --duration)\n"
		"  --duration S    stop after S seconds\n"
		"  --slots N       configfs directories to play with, 1 to %d (default 3)\n"
		"  --root DIR      the configfs root (default $RAMDISK_CONFIGFS, else\n"
		"                  " RAMDISK_CONFIGFS_ROOT ")\n"
		"  --log FILE      one line per step: the draw, '|', what happened\n"
		"  --dry-run       draw and log the steps, touch nothing\n"
		"Exit status: 0 no report, 1 reports (printed on stderr), 2 usage,\n"
		"3 the module is not there or a slot could not be removed.\n",
		SLOTS_MAX);
}

static uint64_t parse_u64(const char *opt, const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		exit(usage_error(NULL, "%s: '%s' is not a whole number", opt, s));
	return v;
}

static void load_attrs(struct fuzz *f)
{
	static char text[4096];
	char path[512], *tok, *save;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/features", f->root);
	n = attr_read(path, text, sizeof(text));
	if (n < 0 && !f->dry_run)
		err(3, "%s (is ramdisk.ko loaded?)", path);
	if (n <= 0)
		snprintf(text, sizeof(text), "%s", default_features);
	for (tok = strtok_r(text, ",\n", &save); tok && f->nr_attrs < ATTRS_MAX - 1;
	     tok = strtok_r(NULL, ",\n", &save))
		f->attrs[f->nr_attrs++] = tok;
	/* a name no build has: the lookup must fail cleanly */
	f->attrs[f->nr_attrs++] = "no_such_attribute";
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "slots", required_argument, NULL, 'n' },
		{ "root", required_argument, NULL, 'r' },
		{ "log", required_argument, NULL, 'l' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct fuzz f;
	uint64_t seed = 0, iterations = 0, duration = 0;
	bool have_seed = false, have_iterations = false;
	const char *log_path = NULL;
	double start, elapsed;
	int c, left;

	/* a message is one write(2), whole, even beside other processes */
	setvbuf(stderr, NULL, _IOLBF, 0);
	f.root = rd_configfs_root();
	f.nr_slots = 3;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = parse_u64("--seed", optarg);
			have_seed = true;
			break;
		case 'i':
			iterations = parse_u64("--iterations", optarg);
			have_iterations = true;
			break;
		case 'd':
			duration = parse_u64("--duration", optarg);
			break;
		case 'n':
			f.nr_slots = (unsigned int)parse_u64("--slots", optarg);
			if (!f.nr_slots || f.nr_slots > SLOTS_MAX)
				return usage_error(NULL, "--slots: %u is not between 1 and %d",
						   f.nr_slots, SLOTS_MAX);
			break;
		case 'r':
			f.root = optarg;
			break;
		case 'l':
			log_path = optarg;
			break;
		case 'D':
			f.dry_run = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return option_error(NULL, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(NULL, "unexpected argument '%s'", argv[optind]);
	if (!have_iterations)
		iterations = duration ? UINT64_MAX : 1000;
	if (!have_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if (log_path) {
		f.log = strcmp(log_path, "-") ? fopen(log_path, "we") : stdout;
		if (!f.log)
			err(2, "--log %s", log_path);
	}

	printf("rdfuzz: seed %" PRIu64 " (replay with --seed %" PRIu64 ")\n", seed, seed);
	fflush(stdout);
	rng_seed(&f.rng, seed);
	load_attrs(&f);
	fuzz_init(&f);
	start = now_s();
	while (f.step < iterations && (!duration || now_s() - start < (double)duration))
		fuzz_step(&f);
	left = fuzz_cleanup(&f);
	elapsed = now_s() - start;
	if (f.log && f.log != stdout)
		fclose(f.log);

	printf("rdfuzz: checked %" PRIu64 " write logs (%" PRIu64 " entries, %" PRIu64
	       " log commands), read back %" PRIu64 " rollbacks, %" PRIu64
	       " new clones and %" PRIu64 " windows whole\n",
	       f.logs_checked, f.log_entries_checked, f.log_commands, f.rollbacks_verified,
	       f.clones_verified, f.windows_verified);
	printf("rdfuzz: cut %" PRIu64 " power domains, %" PRIu64
	       " members in writeback mode; %" PRIu64
	       " domains' checkpoints taken or dropped; %" PRIu64
	       " domains' write log commands taken\n",
	       f.domain_cuts, f.domain_members_cut, f.domain_checkpoints, f.domain_logs);
	printf("rdfuzz: seed %" PRIu64 ": %" PRIu64 " steps in %.1f s, %" PRIu64
	       " values accepted, %" PRIu64 " refused, %" PRIu64 " bytes written, %" PRIu64
	       " bytes verified, %" PRIu64 " reports\n",
	       seed, f.step, elapsed, f.ok, f.refused, f.bytes_written, f.bytes_verified,
	       f.reports);
	if (left)
		return 3;
	return f.reports ? 1 : 0;
}
