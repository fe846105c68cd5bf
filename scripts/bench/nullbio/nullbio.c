// SPDX-License-Identifier: GPL-2.0
/*
 * A bio-based block device that moves no data: every bio ends as soon as
 * it arrives. It is the floor of a bio-based driver's I/O, against which
 * experiment 11 of Documentation/performance-log.md weighs ramdisk's and
 * brd's own work; null_blk, a blk-mq driver, pays for a request and is no
 * such floor. A bench instrument, not a device to use: a read returns
 * whatever the caller's buffer held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/version.h>

/* 1 TiB at most: far beyond any bench, and the sector count cannot wrap */
#define NULLBIO_MAX_MIB (1UL << 20)

static unsigned long nullbio_size_mib = 128;
module_param_named(size_mib, nullbio_size_mib, ulong, 0444);
MODULE_PARM_DESC(size_mib, "Capacity of /dev/nullbio0 in MiB, 1 to 1048576 (default 128)");

static int nullbio_major;
static struct gendisk *nullbio_disk;

static void nullbio_submit_bio(struct bio *bio)
{
	bio_endio(bio);
}

static const struct block_device_operations nullbio_fops = {
	.owner = THIS_MODULE,
	.submit_bio = nullbio_submit_bio,
};

/*
 * The queue set up as ramdisk's and brd's are: page-sized physical
 * blocks, 4 MiB bios, synchronous, nowait. Only the kernels this project
 * tests are handled: 6.11 moved the queue flags into queue_limits, and
 * 6.9 made blk_alloc_disk() take the limits.
 */
static struct gendisk *nullbio_alloc_disk(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	struct queue_limits lim = {
		.physical_block_size = PAGE_SIZE,
		.max_hw_sectors = SZ_4M >> SECTOR_SHIFT,
		.features = BLK_FEAT_SYNCHRONOUS | BLK_FEAT_NOWAIT,
	};

	return blk_alloc_disk(&lim, NUMA_NO_NODE);
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);

	if (!disk)
		return ERR_PTR(-ENOMEM);
	blk_queue_physical_block_size(disk->queue, PAGE_SIZE);
	blk_queue_max_hw_sectors(disk->queue, SZ_4M >> SECTOR_SHIFT);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_flag_set(QUEUE_FLAG_NOWAIT, disk->queue);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, disk->queue);
	return disk;
#else
#error "nullbio handles 6.1-6.8 and 6.11 or later"
#endif
}

static int __init nullbio_init(void)
{
	struct gendisk *disk;
	int err;

	if (!nullbio_size_mib || nullbio_size_mib > NULLBIO_MAX_MIB) {
		pr_err("size_mib %lu is not from 1 to %lu\n", nullbio_size_mib, NULLBIO_MAX_MIB);
		return -EINVAL;
	}
	nullbio_major = register_blkdev(0, "nullbio");
	if (nullbio_major < 0)
		return nullbio_major;
	disk = nullbio_alloc_disk();
	if (IS_ERR(disk)) {
		err = PTR_ERR(disk);
		goto out_unregister;
	}
	disk->major = nullbio_major;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->fops = &nullbio_fops;
	strscpy(disk->disk_name, "nullbio0", DISK_NAME_LEN);
	set_capacity(disk, (sector_t)nullbio_size_mib << (20 - SECTOR_SHIFT));
	err = add_disk(disk);
	if (err)
		goto out_put_disk;
	nullbio_disk = disk;
	return 0;

out_put_disk:
	put_disk(disk);
out_unregister:
	unregister_blkdev(nullbio_major, "nullbio");
	return err;
}

static void __exit nullbio_exit(void)
{
	del_gendisk(nullbio_disk);
	put_disk(nullbio_disk);
	unregister_blkdev(nullbio_major, "nullbio");
}

module_init(nullbio_init);
module_exit(nullbio_exit);
MODULE_DESCRIPTION("Bio-based block device that moves no data, a bench floor");
MODULE_LICENSE("GPL");
