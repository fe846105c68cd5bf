// SPDX-License-Identifier: GPL-2.0
/*
 * The delay points of the test build (test_hooks.h); never part of the
 * module that is shipped. Both parameters may change while I/O runs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>

#include "test_hooks.h"

static unsigned int test_delay_point;
module_param(test_delay_point, uint, 0644);
MODULE_PARM_DESC(test_delay_point, "test build: the delay point (enum rd_test_point) that spins");

static unsigned int test_delay_us;
module_param(test_delay_us, uint, 0644);
MODULE_PARM_DESC(test_delay_us, "test build: how long the delay point spins, in microseconds");

/* A busy wait: the points sit inside RCU read-side sections, where no sleep is allowed. */
void rd_test_delay(enum rd_test_point point)
{
	unsigned int us;

	if (READ_ONCE(test_delay_point) != point)
		return;
	for (us = READ_ONCE(test_delay_us); us >= 1000; us -= 1000)
		mdelay(1);
	udelay(us);
}
