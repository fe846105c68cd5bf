// SPDX-License-Identifier: GPL-2.0
#include "timing.h"

#include "stats.h"

#include <time.h>

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double elapsed_s(uint64_t start_ns, uint64_t end_ns)
{
	return (double)(end_ns - start_ns) / 1e9;
}

uint64_t timer_resolution_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double timer_cost_ns(void)
{
	enum { BATCHES = 9, CALLS = 20000 };
	double per_call[BATCHES];
	struct stats st;

	/* batches, so a preemption spoils one sample and not the median */
	for (int b = 0; b < BATCHES; b++) {
		uint64_t start = now_ns(), end = start;

		for (int i = 0; i < CALLS; i++)
			end = now_ns();
		per_call[b] = (double)(end - start) / CALLS;
	}
	if (stats_compute(per_call, BATCHES, &st))
		return 0;
	return st.median;
}
