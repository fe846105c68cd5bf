// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of n values; NULL with errno EINVAL for a NaN, or ENOMEM. */
static double *sorted_copy(const double *values, size_t n)
{
	double *sorted;

	for (size_t i = 0; i < n; i++) {
		/* NaN has no place in an order; refuse rather than guess */
		if (values[i] != values[i]) {
			errno = EINVAL;
			return NULL;
		}
	}
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return NULL;
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_doubles);
	return sorted;
}

int stats_compute(const double *values, size_t n, struct stats *out)
{
	double *sorted;

	if (!n) {
		errno = EINVAL;
		return -1;
	}
	sorted = sorted_copy(values, n);
	if (!sorted)
		return -1;
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

int stats_median_interval95(const double *values, size_t n, double *low, double *high)
{
	/* log P(Binomial(n, 1/2) = j), stepped from j = 0 upwards */
	double log_p = -(double)n * M_LN2, tail = 0;
	double *sorted;
	size_t k = 0;

	/*
	 * The k-th order statistic lies above the median with probability
	 * P(Binomial(n, 1/2) < k); k grows while both ends together stay
	 * within 5%.
	 */
	while (k < n / 2) {
		double p = exp(log_p);

		if (tail + p > 0.025)
			break;
		tail += p;
		log_p += log((double)(n - k) / (double)(k + 1));
		k++;
	}
	if (!k) {
		errno = EDOM;
		return -1;
	}
	sorted = sorted_copy(values, n);
	if (!sorted)
		return -1;
	*low = sorted[k - 1];
	*high = sorted[n - k];
	free(sorted);
	return 0;
}
