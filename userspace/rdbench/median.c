// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench median: the median of numbers read from stdin and the sign
 * test's 95% interval for it, by the same code (userspace/lib/stats.c)
 * that rdbench pair uses for its ratios. scripts/bench/perf-report.py
 * asks it for the interval of fio's per-repeat ratios, so that interval
 * is computed in one place only.
 */
#include "rdbench.h"
#include "stats.h"

#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char median_help[] =
	"Usage: rdbench median <NUMBERS\n\n"
	"  Reads numbers from stdin (separated by blanks or newlines) and\n"
	"  prints one line: their median, then the low and high end of the\n"
	"  sign test's 95% interval for it, or '- -' for the interval below\n"
	"  six numbers. No options; no targets.\n";

int median_main(int argc, char **argv)
{
	size_t n = 0, cap = 0;
	double *values = NULL, low, high;
	struct stats st;
	char word[64];
	int ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			fputs(median_help, stdout);
			return 0;
		}
		warnx("median: takes no arguments (%s); see 'rdbench median --help'", argv[1]);
		return EXIT_USAGE;
	}
	while ((ret = scanf("%63s", word)) == 1) {
		char *end;
		double v;

		errno = 0;
		v = strtod(word, &end);
		if (*end || errno || !isfinite(v)) {
			warnx("median: '%s' is not a number", word);
			free(values);
			return EXIT_USAGE;
		}
		if (n == cap) {
			double *grown;

			cap = cap ? 2 * cap : 64;
			grown = realloc(values, cap * sizeof(*values));
			if (!grown) {
				free(values);
				err(EXIT_RUN_FAILED, "median");
			}
			values = grown;
		}
		values[n++] = v;
	}
	if (!n) {
		warnx("median: no numbers on stdin");
		free(values);
		return EXIT_USAGE;
	}
	if (stats_compute(values, n, &st)) {
		free(values);
		err(EXIT_RUN_FAILED, "median");
	}
	if (stats_median_interval95(values, n, &low, &high)) {
		if (errno != EDOM) {
			free(values);
			err(EXIT_RUN_FAILED, "median");
		}
		printf("%.17g - -\n", st.median);
	} else {
		printf("%.17g %.17g %.17g\n", st.median, low, high);
	}
	free(values);
	return 0;
}
