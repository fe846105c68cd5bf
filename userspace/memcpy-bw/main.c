// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy-bw: the bandwidth of the C library's memcpy() on this machine,
 * copying between two buffers in blocks of one size. A RAM disk moves
 * every byte with one copy, so this is the ceiling its sequential
 * bandwidth is compared with (make bench-perf).
 *
 * The buffers are larger than the caches a RAM disk's working set would
 * live in, and both are touched before the clock starts, so page faults
 * are not timed.
 */
#include "size.h"
#include "timing.h"

#include <err.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RUNS = 101 };

static void usage(FILE *f)
{
	fprintf(f, "Usage: memcpy-bw [--bs SIZE] [--total SIZE] [--runs N]\n"
		   "\n"
		   "Copies --total bytes (default 256M) between two buffers in blocks of\n"
		   "--bs bytes (default 1M), --runs times (default 5), and prints the\n"
		   "median bandwidth: \"bs=BYTES MiB/s=X\".\n");
}

static uint64_t size_option(const char *name, const char *arg)
{
	const char *why;
	uint64_t bytes;

	if (size_parse(arg, &bytes, &why))
		errx(2, "%s: '%s': %s", name, arg, why);
	if (!bytes)
		errx(2, "%s: must not be 0", name);
	return bytes;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "bs", required_argument, NULL, 'b' },
		{ "total", required_argument, NULL, 't' },
		{ "runs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t bs = 1 << 20, total = 256 << 20, alloc;
	double mibs[MAX_RUNS];
	char *src, *dst, *end;
	long runs = 5;
	int opt;

	/* a message is one write(2), whole, even beside other processes */
	setvbuf(stderr, NULL, _IOLBF, 0);
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'b':
			bs = size_option("--bs", optarg);
			break;
		case 't':
			total = size_option("--total", optarg);
			break;
		case 'r':
			runs = strtol(optarg, &end, 10);
			if (*end || runs < 1 || runs > MAX_RUNS)
				errx(2, "--runs: '%s': a number from 1 to %d", optarg, MAX_RUNS);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (bs > total || total % bs)
		errx(2, "--total must be a multiple of --bs");

	/* C11 wants the size of an aligned_alloc() a multiple of the alignment */
	alloc = (total + 4095) / 4096 * 4096;
	src = aligned_alloc(4096, alloc);
	dst = aligned_alloc(4096, alloc);
	if (!src || !dst)
		errx(1, "cannot allocate 2 x %llu bytes", (unsigned long long)total);
	memset(src, 0x5a, total);
	memset(dst, 0, total);

	for (long r = 0; r < runs; r++) {
		uint64_t start = now_ns();

		for (uint64_t off = 0; off < total; off += bs)
			memcpy(dst + off, src + off, bs);
		mibs[r] = (double)total / (1 << 20) / elapsed_s(start, now_ns());
		/* the copy must not be optimised away: its result is looked at */
		if (dst[total - 1] != 0x5a)
			errx(1, "copy check failed");
	}
	qsort(mibs, runs, sizeof(mibs[0]), compare_double);
	printf("bs=%llu MiB/s=%.0f\n", (unsigned long long)bs, mibs[runs / 2]);
	free(src);
	free(dst);
	return 0;
}
