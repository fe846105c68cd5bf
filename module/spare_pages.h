/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spare pages: a pool of zero-order pages that a worker allocates ahead of
 * first writes, so that a first write takes a page from a list instead of
 * waiting for the page allocator (which zeroes every page it hands out on
 * kernels booted with init_on_alloc). The owner says how many it wants at
 * any moment; the pool never holds more.
 */
#ifndef RAMDISK_SPARE_PAGES_H
#define RAMDISK_SPARE_PAGES_H

#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct rd_spare_pages;

/*
 * How many spare pages the owner wants now: at most target, and no more
 * than its mem_limit leaves beside the pages that hold data.
 */
typedef unsigned long (*rd_spare_goal_fn)(struct rd_spare_pages *spare);

struct rd_spare_pages {
	/* guards list and nr */
	spinlock_t lock;
	struct list_head list;
	unsigned int nr;
	/* the most to hold; 0 = none, every page is allocated in place */
	unsigned int target;
	int numa_node;
	rd_spare_goal_fn goal;
	struct work_struct refill;
};

void rd_spare_init(struct rd_spare_pages *spare, int numa_node, rd_spare_goal_fn goal);
/* A page for a first write: a spare one, else one allocated now with gfp. */
struct page *rd_spare_take(struct rd_spare_pages *spare, gfp_t gfp);
void rd_spare_set_target(struct rd_spare_pages *spare, unsigned int target);
/* Frees spares beyond the goal, as after a lower target or limit. */
void rd_spare_trim(struct rd_spare_pages *spare);
/* Stops the worker and frees every spare page. */
void rd_spare_destroy(struct rd_spare_pages *spare);

static inline unsigned int rd_spare_count(const struct rd_spare_pages *spare)
{
	return READ_ONCE(spare->nr);
}

static inline unsigned int rd_spare_target(const struct rd_spare_pages *spare)
{
	return READ_ONCE(spare->target);
}

#endif /* RAMDISK_SPARE_PAGES_H */
