// SPDX-License-Identifier: GPL-2.0
/* 6.11: queue features (NOWAIT, SYNCHRONOUS, ...) live in queue_limits.features */
#include <linux/blkdev.h>
#include <linux/module.h>

void rd_probe(struct queue_limits *lim);

void rd_probe(struct queue_limits *lim)
{
	lim->features |= BLK_FEAT_NOWAIT | BLK_FEAT_SYNCHRONOUS;
}

MODULE_LICENSE("GPL");
