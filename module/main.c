// SPDX-License-Identifier: GPL-2.0
/*
 * ramdisk: RAM-backed block devices. Module entry points; the block device
 * itself is added in later commits.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>

static int __init rd_init(void)
{
	return 0;
}

static void __exit rd_exit(void)
{
}

module_init(rd_init);
module_exit(rd_exit);

MODULE_DESCRIPTION("RAM-backed block devices with run-time configuration");
MODULE_LICENSE("GPL");
