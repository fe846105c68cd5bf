// SPDX-License-Identifier: GPL-2.0
/* 6.9: blk_alloc_disk() takes the queue limits and returns an ERR_PTR */
#include <linux/blkdev.h>
#include <linux/numa.h>

struct gendisk *minird_probe(void);

struct gendisk *minird_probe(void)
{
	struct queue_limits lim = { .logical_block_size = 512 };

	return blk_alloc_disk(&lim, NUMA_NO_NODE);
}
