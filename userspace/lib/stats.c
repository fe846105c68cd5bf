// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int stats_compute(const double *values, size_t n, struct stats *out)
{
	double *sorted;

	if (!n) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		/* NaN has no place in an order; refuse rather than guess */
		if (values[i] != values[i]) {
			errno = EINVAL;
			return -1;
		}
	}
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_doubles);
	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	if (n % 2)
		out->median = sorted[n / 2];
	else
		out->median = sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
	free(sorted);
	return 0;
}
