// SPDX-License-Identifier: GPL-2.0
/* after 6.12: a driver opts in to atomic writes with the BLK_FEAT_ATOMIC_WRITES queue feature */
#include <linux/blkdev.h>
#include <linux/module.h>

void rd_probe(struct queue_limits *lim);

void rd_probe(struct queue_limits *lim)
{
	lim->features |= BLK_FEAT_ATOMIC_WRITES;
}

MODULE_LICENSE("GPL");
