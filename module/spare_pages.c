// SPDX-License-Identifier: GPL-2.0
/*
 * The spare-page pool (spare_pages.h). The worker runs on whichever CPU is
 * idle, asks for RD_SPARE_BLOCK_ORDER pages at a time and splits the
 * block, so that the allocator's own cost is shared by eight pages. A page
 * taken from the pool holds whatever the allocator left in it: the writer
 * zeroes what its write does not cover, as for any new page.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "spare_pages.h"

#define RD_SPARE_BLOCK_ORDER 3

static void rd_spare_add(struct rd_spare_pages *spare, struct list_head *pages, unsigned int nr)
{
	spin_lock(&spare->lock);
	list_splice_tail(pages, &spare->list);
	WRITE_ONCE(spare->nr, spare->nr + nr);
	spin_unlock(&spare->lock);
}

static void rd_spare_trim_to(struct rd_spare_pages *spare, unsigned long goal)
{
	struct page *page, *next;
	LIST_HEAD(surplus);

	spin_lock(&spare->lock);
	while (spare->nr > goal) {
		page = list_last_entry(&spare->list, struct page, lru);
		list_move(&page->lru, &surplus);
		WRITE_ONCE(spare->nr, spare->nr - 1);
	}
	spin_unlock(&spare->lock);
	list_for_each_entry_safe(page, next, &surplus, lru)
		__free_page(page);
}

void rd_spare_trim(struct rd_spare_pages *spare)
{
	rd_spare_trim_to(spare, spare->goal(spare));
}

/*
 * The worker. GFP_NOIO as on the write path, and no retries: a page set
 * aside ahead is not worth pushing the system into reclaim for.
 */
static void rd_spare_refill(struct work_struct *work)
{
	struct rd_spare_pages *spare = container_of(work, struct rd_spare_pages, refill);
	const gfp_t gfp = GFP_NOIO | __GFP_NORETRY | __GFP_NOWARN;
	const unsigned int block = 1 << RD_SPARE_BLOCK_ORDER;
	unsigned long goal;

	while ((goal = spare->goal(spare)) > rd_spare_count(spare)) {
		unsigned int i, nr = 1;
		struct page *page = NULL;
		LIST_HEAD(pages);

		if (goal - rd_spare_count(spare) >= block) {
			page = alloc_pages_node(spare->numa_node, gfp, RD_SPARE_BLOCK_ORDER);
			if (page) {
				split_page(page, RD_SPARE_BLOCK_ORDER);
				nr = block;
			}
		}
		if (!page)
			page = alloc_pages_node(spare->numa_node, gfp, 0);
		if (!page)
			return;
		for (i = 0; i < nr; i++)
			list_add_tail(&page[i].lru, &pages);
		rd_spare_add(spare, &pages, nr);
		/* writes may have used the room mem_limit left meanwhile */
		rd_spare_trim(spare);
		cond_resched();
	}
	rd_spare_trim_to(spare, goal);
}

struct page *rd_spare_take(struct rd_spare_pages *spare, gfp_t gfp)
{
	unsigned int target = rd_spare_target(spare);
	struct page *page = NULL;
	unsigned int left = 0;

	if (!target && !rd_spare_count(spare))
		return alloc_pages_node(spare->numa_node, gfp | __GFP_NOWARN, 0);
	spin_lock(&spare->lock);
	if (spare->nr) {
		page = list_first_entry(&spare->list, struct page, lru);
		list_del(&page->lru);
		left = spare->nr - 1;
		WRITE_ONCE(spare->nr, left);
	}
	spin_unlock(&spare->lock);
	/* refill from half empty, so that the worker runs while writes go on */
	if (target && left <= target / 2)
		queue_work(rd_compat_unbound_wq(), &spare->refill);
	if (page)
		return page;
	return alloc_pages_node(spare->numa_node, gfp | __GFP_NOWARN, 0);
}

/*
 * A lower target frees spares at once; a higher one waits for the next
 * first write, so a device nobody wrote to holds no page at all.
 */
void rd_spare_set_target(struct rd_spare_pages *spare, unsigned int target)
{
	WRITE_ONCE(spare->target, target);
	rd_spare_trim(spare);
}

void rd_spare_init(struct rd_spare_pages *spare, int numa_node, rd_spare_goal_fn goal)
{
	spin_lock_init(&spare->lock);
	INIT_LIST_HEAD(&spare->list);
	spare->nr = 0;
	spare->target = 0;
	spare->numa_node = numa_node;
	spare->goal = goal;
	INIT_WORK(&spare->refill, rd_spare_refill);
}

void rd_spare_destroy(struct rd_spare_pages *spare)
{
	struct page *page, *next;

	cancel_work_sync(&spare->refill);
	list_for_each_entry_safe(page, next, &spare->list, lru)
		__free_page(page);
	spare->nr = 0;
}
