/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary of repeated measurements: the median, which one slow run cannot
 * move, and the min and max, which show how much the runs spread.
 */
#ifndef RAMDISK_STATS_H
#define RAMDISK_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double median;
	double min;
	double max;
};

/*
 * Summarise n values (not modified). The median of an even count is the
 * mean of the two middle values. Returns 0, or -1 with errno EINVAL when
 * n is 0 or a value is NaN, ENOMEM when the sort copy cannot be made.
 */
int stats_compute(const double *values, size_t n, struct stats *out);

/*
 * The sign test's interval for the median of n values (not modified): the
 * k-th smallest and the k-th largest, with k as large as it can be while
 * the median lies between them with at least 95% confidence, whatever the
 * values' distribution. Returns 0, or -1 with errno EDOM when n is under
 * 6 (no two of them bound the median that surely), EINVAL for a NaN, or
 * ENOMEM.
 */
int stats_median_interval95(const double *values, size_t n, double *low, double *high);

#endif /* RAMDISK_STATS_H */
