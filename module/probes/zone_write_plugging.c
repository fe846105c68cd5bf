// SPDX-License-Identifier: GPL-2.0
/*
 * 6.10 and 6.11: the block layer plugs the writes to each sequential zone
 * of a bio-based zoned disk that asks it to emulate zone append, and
 * zoned is a queue feature
 */
#include <linux/blkdev.h>
#include <linux/module.h>

bool rd_probe(struct bio *bio, struct queue_limits *lim, struct gendisk *disk);

bool rd_probe(struct bio *bio, struct queue_limits *lim, struct gendisk *disk)
{
	lim->features |= BLK_FEAT_ZONED;
	if (blk_revalidate_disk_zones(disk))
		return false;
	return bio_needs_zone_write_plugging(bio) && blk_zone_plug_bio(bio, 0);
}

MODULE_LICENSE("GPL");
