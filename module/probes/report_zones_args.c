// SPDX-License-Identifier: GPL-2.0
/* 6.19: ->report_zones hands each zone to disk_report_zone() with the arguments it got */
#include <linux/blkdev.h>
#include <linux/module.h>

int rd_probe(struct gendisk *disk, struct blk_zone *zone, struct blk_report_zones_args *args);

int rd_probe(struct gendisk *disk, struct blk_zone *zone, struct blk_report_zones_args *args)
{
	return disk_report_zone(disk, zone, 0, args);
}

MODULE_LICENSE("GPL");
