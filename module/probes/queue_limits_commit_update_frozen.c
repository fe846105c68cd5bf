// SPDX-License-Identifier: GPL-2.0
/* 6.12: queue_limits_commit_update_frozen() freezes the queue around a limits update */
#include <linux/blkdev.h>
#include <linux/module.h>

int rd_probe(struct request_queue *q, struct queue_limits *lim);

int rd_probe(struct request_queue *q, struct queue_limits *lim)
{
	return queue_limits_commit_update_frozen(q, lim);
}

MODULE_LICENSE("GPL");
