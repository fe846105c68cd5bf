// SPDX-License-Identifier: GPL-2.0
/*
 * ramdisk: RAM-backed block devices /dev/ramdiskN, sparse and created at
 * load time or through configfs. This file holds the module parameters and
 * the devices they describe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>

#include "badblocks.h"
#include "copy.h"
#include "fault_schedule.h"
#include "ramdisk.h"
#include "store.h"
#include "write_log.h"
#include "zones.h"

static unsigned int rd_nr_devices = 1;
static u64 rd_size = RAMDISK_SIZE_DEFAULT;
static unsigned int rd_max_part;
static unsigned int rd_block_size = RAMDISK_BLOCK_SIZE_DEFAULT;
static u64 rd_mem_limit;
static unsigned int rd_spare_pages = RD_SPARE_PAGES_DEFAULT;
static u64 rd_phys_addr;
static u64 rd_phys_size;
static bool rd_format;
static unsigned int rd_hold_keys;

static struct rd_device *rd_load_devices[RAMDISK_MAX_LOAD_DEVICES];

static int rd_param_uint_in(const char *val, const struct kernel_param *kp, unsigned int min,
			    unsigned int max)
{
	unsigned int n;

	if (kstrtouint(val, 10, &n) || n < min || n > max) {
		pr_warn("%s '%s' is not a number from %u to %u\n", kp->name, val, min, max);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = n;
	return 0;
}

static int rd_param_nr_devices_set(const char *val, const struct kernel_param *kp)
{
	return rd_param_uint_in(val, kp, 0, RAMDISK_MAX_LOAD_DEVICES);
}

static int rd_param_hold_keys_set(const char *val, const struct kernel_param *kp)
{
	return rd_param_uint_in(val, kp, 0, 1);
}

static int rd_param_max_part_set(const char *val, const struct kernel_param *kp)
{
	return rd_param_uint_in(val, kp, 0, RAMDISK_MAX_PART);
}

/* Which sizes this kernel takes is rd_config_validate()'s to say. */
static int rd_param_block_size_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 10, &n)) {
		pr_warn("block_size '%s' is not a number\n", val);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = n;
	return 0;
}

static int rd_param_size_set(const char *val, const struct kernel_param *kp)
{
	u64 bytes;

	if (rd_parse_size(val, &bytes)) {
		pr_warn("%s '%s' is not a size (digits with an optional K, M, G or T)\n", kp->name,
			val);
		return -EINVAL;
	}
	*(u64 *)kp->arg = bytes;
	return 0;
}

static int rd_param_phys_set(const char *val, const struct kernel_param *kp)
{
	u64 v;

	if (rd_parse_phys(val, &v)) {
		pr_warn("%s '%s' is not an address or size (0x hex, or digits with an optional K, M, G or T)\n",
			kp->name, val);
		return -EINVAL;
	}
	*(u64 *)kp->arg = v;
	return 0;
}

static int rd_param_size_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%llu\n", *(u64 *)kp->arg);
}

static int rd_param_read_only_set(const char *val, const struct kernel_param *kp)
{
	pr_warn("%s is read-only\n", kp->name);
	return -EPERM;
}

static int rd_param_allocated_pages_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%ld\n", rd_total_pages());
}

static const struct kernel_param_ops rd_nr_devices_ops = {
	.set = rd_param_nr_devices_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops rd_hold_keys_ops = {
	.set = rd_param_hold_keys_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops rd_max_part_ops = {
	.set = rd_param_max_part_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops rd_block_size_ops = {
	.set = rd_param_block_size_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops rd_size_ops = {
	.set = rd_param_size_set,
	.get = rd_param_size_get,
};

static const struct kernel_param_ops rd_phys_ops = {
	.set = rd_param_phys_set,
	.get = rd_param_size_get,
};

static const struct kernel_param_ops rd_allocated_pages_ops = {
	.set = rd_param_read_only_set,
	.get = rd_param_allocated_pages_get,
};

module_param_cb(nr_devices, &rd_nr_devices_ops, &rd_nr_devices, 0444);
MODULE_PARM_DESC(nr_devices, "Devices created at load time, 0-64 (default 1)");
module_param_cb(size, &rd_size_ops, &rd_size, 0444);
MODULE_PARM_DESC(size, "Size of each load-time device in bytes, K/M/G/T suffixes (default 1G)");
module_param_cb(max_part, &rd_max_part_ops, &rd_max_part, 0444);
MODULE_PARM_DESC(max_part, "Partitions per load-time device, 0-255 (default 0)");
module_param_cb(block_size, &rd_block_size_ops, &rd_block_size, 0444);
MODULE_PARM_DESC(block_size, "Logical block size: 512 (default) to 4096, 65536 on newer kernels");
module_param_cb(mem_limit, &rd_size_ops, &rd_mem_limit, 0444);
MODULE_PARM_DESC(mem_limit,
		 "Memory each load-time device may use, bytes, 0 = unlimited (default 0)");
module_param_named(spare_pages, rd_spare_pages, uint, 0444);
MODULE_PARM_DESC(
	spare_pages,
	"Pages each load-time device allocates ahead of first writes, 0-4096 (default 64)");
/* an address is root's alone, as in /proc/iomem; a size tells nothing */
module_param_cb(phys_addr, &rd_phys_ops, &rd_phys_addr, 0400);
MODULE_PARM_DESC(phys_addr, "ramdisk0 lives in reserved memory from this physical address");
module_param_cb(phys_size, &rd_phys_ops, &rd_phys_size, 0444);
MODULE_PARM_DESC(phys_size, "Reserved bytes for ramdisk0, header included; 0 = RAM pages");
module_param_named(format, rd_format, bool, 0444);
MODULE_PARM_DESC(format, "Write a fresh header and zeros over ramdisk0's reserved memory");
module_param_cb(allocated_pages, &rd_allocated_pages_ops, NULL, 0444);
MODULE_PARM_DESC(allocated_pages, "Read-only: pages held by all devices of the module");
module_param_cb(hold_keys, &rd_hold_keys_ops, &rd_hold_keys, 0444);
MODULE_PARM_DESC(
	hold_keys,
	"Test knob: 1 keeps the static keys of checkpoints, bad blocks and fault schedules on from load to unload, so none is patched under I/O; every write then looks at page sharing (default 0)");

/*
 * hold_keys=1: one reference on each layer's static key from before the
 * first device exists until after the last is gone. The layers' own
 * static_branch_inc() and _dec() then only move a count, and the kernel
 * text of the module is patched only here, while no bio can be in it. A
 * test knob: under QEMU's thread per vCPU, a vCPU can run stale text after
 * a patch (Documentation/development.md), which would hide the races the
 * tests look for behind an oops. The keys only let the layers look: with
 * nothing to find (no checkpoint, no bad block, no rule) every bio is
 * served as without them, a little slower. Not under a queue freeze:
 * static_branch_inc() takes the CPU hotplug lock.
 */
static void rd_keys_hold(void)
{
	if (!rd_hold_keys)
		return;
	rd_pages_sharing_get();
	static_branch_inc(&rd_bb_in_use);
	static_branch_inc(&rd_fault_sched_in_use);
}

static void rd_keys_release(void)
{
	if (!rd_hold_keys)
		return;
	static_branch_dec(&rd_fault_sched_in_use);
	static_branch_dec(&rd_bb_in_use);
	rd_pages_sharing_put();
}

static void rd_remove_load_devices(unsigned int count)
{
	while (count--) {
		/* no opener can exist: an open device pins the module */
		WARN_ON_ONCE(rd_dev_remove(rd_load_devices[count]));
		rd_load_devices[count] = NULL;
	}
}

/*
 * While init runs, the loader holds one reference to the module and each
 * open of a disk takes another. A failed init does not wait for them: the
 * loader frees the module at once. So when a load fails after its first
 * disk appeared (and udev, or anyone, may have opened it), the disks are
 * unplugged, which fails their openers' I/O, and init waits until every
 * opener has closed and the block layer has dropped its reference: only
 * then does nothing point into this module any more.
 */
static void __init rd_remove_load_devices_after_failure(unsigned int count)
{
	unsigned int i, waits = 0;
	int openers;

	for (i = 0; i < count; i++)
		rd_dev_unplug(rd_load_devices[i]);
	while ((openers = module_refcount(THIS_MODULE) - 1) > 0) {
		if (waits++ % 500 == 0)
			pr_warn("insmod failed: waiting for its devices to be closed (open count %d)\n",
				openers);
		msleep(20);
	}
	for (i = 0; i < count; i++) {
		rd_dev_free(rd_load_devices[i]);
		rd_load_devices[i] = NULL;
	}
}

static int __init rd_init(void)
{
	struct rd_config cfg = {
		.size = rd_size,
		.block_size = rd_block_size,
		.max_part = rd_max_part,
		.mem_limit = rd_mem_limit,
		.spare_pages = rd_spare_pages,
		.numa_node = NUMA_NO_NODE,
		/* load-time devices have no write_log file; their limit is only valid */
		.write_log_limit = RD_WLOG_LIMIT_DEFAULT,
		/* nor zones; the size is only valid */
		.zone_size = RD_ZONE_SIZE_DEFAULT,
	};
	struct rd_config phys_cfg;
	unsigned int i;
	int err;

	err = rd_config_validate(&cfg, "insmod");
	if (err)
		return err;
	/* device 0 alone may live in reserved memory: its range is unique */
	phys_cfg = cfg;
	if (rd_phys_size) {
		if (!rd_nr_devices) {
			pr_warn("insmod: phys_size needs nr_devices 1 or more\n");
			return -EINVAL;
		}
		phys_cfg.phys_addr = rd_phys_addr;
		phys_cfg.phys_size = rd_phys_size;
		phys_cfg.format = rd_format;
		phys_cfg.size = rd_phys_size > RD_PHYS_HEADER_BYTES ?
					rd_phys_size - RD_PHYS_HEADER_BYTES :
					0;
		err = rd_config_validate(&phys_cfg, "insmod");
		if (err)
			return err;
	}
	rd_copy_select();
	rd_keys_hold();
	err = rd_dev_major_register();
	if (err)
		goto out_release_keys;

	for (i = 0; i < rd_nr_devices; i++) {
		struct rd_device *rd = rd_dev_create(i ? &cfg : &phys_cfg, "");

		if (IS_ERR(rd)) {
			err = PTR_ERR(rd);
			pr_err("cannot create ramdisk%u: %d\n", i, err);
			goto out_remove_devices;
		}
		rd_load_devices[i] = rd;
	}

	err = rd_configfs_register();
	if (err)
		goto out_remove_devices;
	return 0;

out_remove_devices:
	rd_remove_load_devices_after_failure(i);
	rd_dev_major_unregister();
	rcu_barrier();
out_release_keys:
	rd_keys_release();
	return err;
}

static void __exit rd_exit(void)
{
	rd_configfs_unregister();
	rd_remove_load_devices(rd_nr_devices);
	rd_dev_major_unregister();
	/* discarded pages are freed by RCU callbacks that live in this module */
	rcu_barrier();
	/* no code of the module runs any more: patching it races nothing */
	rd_keys_release();
}

module_init(rd_init);
module_exit(rd_exit);

MODULE_DESCRIPTION("RAM-backed block devices with run-time configuration");
MODULE_LICENSE("GPL");
