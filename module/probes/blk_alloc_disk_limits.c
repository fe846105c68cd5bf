// SPDX-License-Identifier: GPL-2.0
/* 6.9: blk_alloc_disk() takes queue_limits and returns an ERR_PTR */
#include <linux/blkdev.h>
#include <linux/module.h>
#include <linux/numa.h>

struct gendisk *rd_probe(void);

struct gendisk *rd_probe(void)
{
	struct queue_limits lim = { .logical_block_size = 512 };

	return blk_alloc_disk(&lim, NUMA_NO_NODE);
}

MODULE_LICENSE("GPL");
