// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded only by the harness's own test: its load sleeps uninterruptibly,
 * so insmod sits in D state where no signal reaches it, as a task caught in
 * a deadlock would. The VM runner must see the hung-task report and stop
 * the guest instead of waiting for its timeout.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>

static unsigned int sleep_secs = 600;
module_param(sleep_secs, uint, 0444);
MODULE_PARM_DESC(sleep_secs, "seconds the load sleeps in D state (default 600)");

static int __init rd_selftest_hang_init(void)
{
	pr_info("deliberate hang from the harness self-test: %u s in D state\n", sleep_secs);
	schedule_timeout_uninterruptible((long)sleep_secs * HZ);
	return -EAGAIN;
}

module_init(rd_selftest_hang_init);
MODULE_DESCRIPTION("ramdisk test harness: proves that a hung task stops the guest");
MODULE_LICENSE("GPL");
