// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded only by the harness's own test: a module whose load leaks a few
 * allocations, which the VM runner must turn into a failed run on a kernel
 * with kmemleak.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static const char rd_selftest_leak_mark[] = "deliberate leak from the harness self-test";

/*
 * Where each pointer escapes, so that the compiler must keep the copy of
 * the mark; it is cleared at once, which leaves the object unreferenced.
 */
static void *rd_selftest_leak_last;

/*
 * Several objects: on 6.12-debug one leaked object once went unreported,
 * likely because a stale copy of its pointer survived somewhere kmemleak
 * scans (a cached stack, a register spill). Each later pointer overwrites
 * the slot of the one before, so most of them cannot be found that way.
 */
#define RD_SELFTEST_LEAK_OBJECTS 4

/*
 * Not __init: the init section is freed once the module is loaded, and
 * kmemleak's backtrace could then name no function, only an address.
 */
static noinline int rd_selftest_leak_alloc(void)
{
	int i;

	for (i = 0; i < RD_SELFTEST_LEAK_OBJECTS; i++) {
		char *lost = kmalloc(sizeof(rd_selftest_leak_mark), GFP_KERNEL);

		if (!lost)
			return -ENOMEM;
		/* recognisable in kmemleak's hex dump */
		memcpy(lost, rd_selftest_leak_mark, sizeof(rd_selftest_leak_mark));
		WRITE_ONCE(rd_selftest_leak_last, lost);
		WRITE_ONCE(rd_selftest_leak_last, NULL);
	}
	pr_info("leaked %d objects of %zu bytes on purpose\n", RD_SELFTEST_LEAK_OBJECTS,
		sizeof(rd_selftest_leak_mark));
	return 0;
}

static int __init rd_selftest_leak_init(void)
{
	return rd_selftest_leak_alloc();
}

static void __exit rd_selftest_leak_exit(void)
{
}

module_init(rd_selftest_leak_init);
module_exit(rd_selftest_leak_exit);
MODULE_DESCRIPTION("ramdisk test harness: proves that a kmemleak report fails a run");
MODULE_LICENSE("GPL");
