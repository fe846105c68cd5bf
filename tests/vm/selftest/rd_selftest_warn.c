// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded only by the harness's own test: a module whose load prints a
 * WARNING, which the VM runner must turn into a failed run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/module.h>

static int __init rd_selftest_warn_init(void)
{
	WARN(1, "deliberate warning from the harness self-test\n");
	return 0;
}

static void __exit rd_selftest_warn_exit(void)
{
}

module_init(rd_selftest_warn_init);
module_exit(rd_selftest_warn_exit);
MODULE_DESCRIPTION("ramdisk test harness: proves that a WARN fails a run");
MODULE_LICENSE("GPL");
