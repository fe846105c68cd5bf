// SPDX-License-Identifier: GPL-2.0
/* 6.14: freezing a queue returns the task's memory flags, which unfreezing takes back */
#include <linux/blk-mq.h>
#include <linux/module.h>

void rd_probe(struct request_queue *q);

void rd_probe(struct request_queue *q)
{
	unsigned int memflags = blk_mq_freeze_queue(q);

	blk_mq_unfreeze_queue(q, memflags);
}

MODULE_LICENSE("GPL");
