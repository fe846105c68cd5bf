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

#endif /* RAMDISK_STATS_H */
