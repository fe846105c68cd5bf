/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CLOCK_MONOTONIC time stamps for benchmarks. A phase is timed with one
 * stamp before and one after, never one per operation, so the timer's own
 * cost (see timer_cost_ns) is paid twice per phase whatever its length.
 */
#ifndef RAMDISK_TIMING_H
#define RAMDISK_TIMING_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (unaffected by clock setting). */
uint64_t now_ns(void);

/* Seconds between two now_ns() stamps. */
double elapsed_s(uint64_t start_ns, uint64_t end_ns);

/* The clock's resolution as reported by clock_getres(), in ns. */
uint64_t timer_resolution_ns(void);

/* Median cost of one now_ns() call in ns, measured over a few batches. */
double timer_cost_ns(void);

#endif /* RAMDISK_TIMING_H */
