// SPDX-License-Identifier: GPL-2.0
/* 6.13: hrtimer_setup() sets the callback with the clock and mode; hrtimer_init() goes in 6.15 */
#include <linux/hrtimer.h>
#include <linux/module.h>

static enum hrtimer_restart rd_probe_fn(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

void rd_probe(struct hrtimer *timer);

void rd_probe(struct hrtimer *timer)
{
	hrtimer_setup(timer, rd_probe_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
}

MODULE_LICENSE("GPL");
