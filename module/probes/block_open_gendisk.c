// SPDX-License-Identifier: GPL-2.0
/* 6.5: block_device_operations.open takes (gendisk, blk_mode_t), .release (gendisk) */
#include <linux/blkdev.h>
#include <linux/module.h>

static int rd_probe_open(struct gendisk *disk, blk_mode_t mode)
{
	return mode & BLK_OPEN_WRITE ? 0 : 1;
}

static void rd_probe_release(struct gendisk *disk)
{
}

const struct block_device_operations rd_probe_fops = {
	.open = rd_probe_open,
	.release = rd_probe_release,
};

MODULE_LICENSE("GPL");
