// SPDX-License-Identifier: GPL-2.0
/* 6.11: queue_limits carries a driver's atomic write limits; REQ_ATOMIC marks such a write */
#include <linux/blkdev.h>
#include <linux/module.h>

bool rd_probe(struct queue_limits *lim, const struct bio *bio);

bool rd_probe(struct queue_limits *lim, const struct bio *bio)
{
	lim->atomic_write_hw_unit_min = 512;
	lim->atomic_write_hw_unit_max = 4096;
	lim->atomic_write_hw_max = 4096;
	lim->atomic_write_hw_boundary = 0;
	return bio->bi_opf & REQ_ATOMIC;
}

MODULE_LICENSE("GPL");
