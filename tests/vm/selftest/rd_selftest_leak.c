// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded only by the harness's own test: a module whose load leaks one
 * allocation, which the VM runner must turn into a failed run on a kernel
 * with kmemleak.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static const char rd_selftest_leak_mark[] = "deliberate leak from the harness self-test";

static int __init rd_selftest_leak_init(void)
{
	char *lost = kmalloc(sizeof(rd_selftest_leak_mark), GFP_KERNEL);

	if (!lost)
		return -ENOMEM;
	/* recognisable in kmemleak's hex dump; the pointer is dropped here */
	memcpy(lost, rd_selftest_leak_mark, sizeof(rd_selftest_leak_mark));
	pr_info("leaked %zu bytes on purpose\n", sizeof(rd_selftest_leak_mark));
	return 0;
}

static void __exit rd_selftest_leak_exit(void)
{
}

module_init(rd_selftest_leak_init);
module_exit(rd_selftest_leak_exit);
MODULE_DESCRIPTION("ramdisk test harness: proves that a kmemleak report fails a run");
MODULE_LICENSE("GPL");
