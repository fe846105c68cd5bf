// SPDX-License-Identifier: GPL-2.0
/*
 * Sparse backing store: one page per PAGE_SIZE of the device, allocated on
 * first write and kept in the page index (page_index.h).
 *
 * Readers and writers look pages up under RCU without a lock; only the
 * insertion of a new page and discard take the index's lock. A page leaves
 * the index before it is freed, and is freed only after an RCU grace
 * period, so a copy that found it under rcu_read_lock() stays valid.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "copy.h"
#include "page_index.h"
#include "store.h"

atomic_long_t rd_store_total_pages = ATOMIC_LONG_INIT(0);

/*
 * Spare pages. The page allocator zeroes every page it hands out when the
 * kernel runs with init_on_alloc, as Debian's do, and under QEMU's TCG that
 * zeroing is half the cost of a 4 KiB first write. A worker allocates up
 * to spare_target pages ahead, on whichever CPU is idle, and a first write
 * takes one of those; only when none is left does it allocate in place.
 * The worker asks for RD_PAGES_BLOCK_ORDER pages at a time and splits the
 * block, so that the allocator's own cost is shared by eight pages, and
 * keeps the spares within the room mem_limit leaves beside the pages that
 * hold data. The write path zeroes what a partial write leaves of a spare
 * page as of any new page: it does not rely on init_on_alloc.
 */
#define RD_PAGES_BLOCK_ORDER 3

struct rd_page_store {
	struct rd_store base;
	struct rd_page_index index;
	/* guards spare_list and base.nr_spare */
	spinlock_t spare_lock;
	struct list_head spare_list;
	struct work_struct spare_work;
};

static struct rd_page_store *to_page_store(struct rd_store *store)
{
	return container_of(store, struct rd_page_store, base);
}

/* Counts a page about to be allocated; false when mem_limit forbids it. */
static bool rd_pages_charge(struct rd_page_store *ps)
{
	u64 limit = READ_ONCE(ps->base.limit_bytes);
	long nr = atomic_long_inc_return(&ps->base.nr_pages);

	if (limit && ((u64)nr << PAGE_SHIFT) > limit) {
		atomic_long_dec(&ps->base.nr_pages);
		return false;
	}
	atomic_long_inc(&rd_store_total_pages);
	return true;
}

static void rd_pages_uncharge(struct rd_page_store *ps, long nr)
{
	atomic_long_sub(nr, &ps->base.nr_pages);
	atomic_long_sub(nr, &rd_store_total_pages);
}

void rd_pages_read(struct rd_store *store, u64 pos, struct page *dst, unsigned int off,
		   unsigned int len)
{
	struct rd_page_store *ps = to_page_store(store);
	struct page *page;

	rcu_read_lock();
	page = rd_index_lookup(&ps->index, pos >> PAGE_SHIFT);
	if (page)
		rd_copy_to_page(dst, off, page_address(page) + offset_in_page(pos), len);
	else
		memzero_page(dst, off, len);
	rcu_read_unlock();
}

/*
 * Where a bio's walk stands: the leaf of the last page it looked up. The
 * next page of the device is usually in the same leaf, one load away.
 */
struct rd_pages_cursor {
	struct rd_index_leaf *leaf;
	pgoff_t leaf_first;
};

/* Forgets the leaf, which may be freed once the walk leaves RCU. */
static void rd_pages_cursor_reset(struct rd_pages_cursor *cur)
{
	cur->leaf = NULL;
	cur->leaf_first = RD_INDEX_NONE;
}

static __always_inline struct page *
rd_pages_cursor_lookup(struct rd_page_index *ix, struct rd_pages_cursor *cur, pgoff_t index)
{
	pgoff_t leaf_first = index & ~(RD_INDEX_LEAF_SLOTS - 1);

	if (leaf_first != cur->leaf_first) {
		cur->leaf = rd_index_leaf(ix, index);
		cur->leaf_first = leaf_first;
	}
	return cur->leaf ? rd_index_leaf_page(cur->leaf, index) : NULL;
}

/* How many spare pages the store should hold now. */
static unsigned long rd_pages_spare_goal(struct rd_page_store *ps)
{
	unsigned long goal = READ_ONCE(ps->base.spare_target);
	u64 limit = rd_store_limit_bytes(&ps->base);
	long used;

	if (limit) {
		used = atomic_long_read(&ps->base.nr_pages);
		goal = min_t(u64, goal, max_t(s64, (s64)(limit >> PAGE_SHIFT) - used, 0));
	}
	return goal;
}

static void rd_pages_spare_add(struct rd_page_store *ps, struct list_head *pages, unsigned int nr)
{
	spin_lock(&ps->spare_lock);
	list_splice_tail(pages, &ps->spare_list);
	WRITE_ONCE(ps->base.nr_spare, ps->base.nr_spare + nr);
	spin_unlock(&ps->spare_lock);
}

/* Frees spare pages beyond the goal, as after a lower target or limit. */
static void rd_pages_spare_trim(struct rd_page_store *ps, unsigned long goal)
{
	struct page *page, *next;
	LIST_HEAD(surplus);

	spin_lock(&ps->spare_lock);
	while (ps->base.nr_spare > goal) {
		page = list_last_entry(&ps->spare_list, struct page, lru);
		list_move(&page->lru, &surplus);
		WRITE_ONCE(ps->base.nr_spare, ps->base.nr_spare - 1);
	}
	spin_unlock(&ps->spare_lock);
	list_for_each_entry_safe(page, next, &surplus, lru)
		__free_page(page);
}

/*
 * The worker. GFP_NOIO as on the write path, and no retries: a page set
 * aside ahead is not worth pushing the system into reclaim for.
 */
static void rd_pages_spare_refill(struct work_struct *work)
{
	struct rd_page_store *ps = container_of(work, struct rd_page_store, spare_work);
	const gfp_t gfp = GFP_NOIO | __GFP_NORETRY | __GFP_NOWARN;
	const unsigned int block = 1 << RD_PAGES_BLOCK_ORDER;
	unsigned long goal;

	while ((goal = rd_pages_spare_goal(ps)) > READ_ONCE(ps->base.nr_spare)) {
		unsigned int i, nr = 1;
		struct page *page = NULL;
		LIST_HEAD(pages);

		if (goal - READ_ONCE(ps->base.nr_spare) >= block) {
			page = alloc_pages_node(ps->base.numa_node, gfp, RD_PAGES_BLOCK_ORDER);
			if (page) {
				split_page(page, RD_PAGES_BLOCK_ORDER);
				nr = block;
			}
		}
		if (!page)
			page = alloc_pages_node(ps->base.numa_node, gfp, 0);
		if (!page)
			return;
		for (i = 0; i < nr; i++)
			list_add_tail(&page[i].lru, &pages);
		rd_pages_spare_add(ps, &pages, nr);
		/* writes may have used the room mem_limit left meanwhile */
		rd_pages_spare_trim(ps, rd_pages_spare_goal(ps));
		cond_resched();
	}
	rd_pages_spare_trim(ps, goal);
}

/*
 * A lower target or limit frees spares at once; a higher one waits for the
 * next first write, so a device nobody wrote to holds no page at all.
 */
static void rd_pages_tune(struct rd_store *store)
{
	struct rd_page_store *ps = to_page_store(store);

	rd_pages_spare_trim(ps, rd_pages_spare_goal(ps));
}

/* A page for a first write: a spare one, else one allocated now. */
static struct page *rd_pages_alloc(struct rd_page_store *ps, gfp_t gfp)
{
	unsigned int target = READ_ONCE(ps->base.spare_target);
	struct page *page = NULL;
	unsigned int left = 0;

	if (!target && !READ_ONCE(ps->base.nr_spare))
		return alloc_pages_node(ps->base.numa_node, gfp | __GFP_NOWARN, 0);
	spin_lock(&ps->spare_lock);
	if (ps->base.nr_spare) {
		page = list_first_entry(&ps->spare_list, struct page, lru);
		list_del(&page->lru);
		left = ps->base.nr_spare - 1;
		WRITE_ONCE(ps->base.nr_spare, left);
	}
	spin_unlock(&ps->spare_lock);
	/* refill from half empty, so that the worker runs while writes go on */
	if (target && left <= target / 2)
		queue_work(rd_compat_unbound_wq(), &ps->spare_work);
	if (page)
		return page;
	return alloc_pages_node(ps->base.numa_node, gfp | __GFP_NOWARN, 0);
}

/*
 * A new page holds its data before it is published, so no reader can see
 * it half written or stale: a write that covers the whole page needs no
 * zeroing, a partial one zeroes only the bytes around it.
 */
static struct page *rd_pages_new(struct rd_page_store *ps, unsigned int in_page, struct page *src,
				 unsigned int off, unsigned int len, gfp_t gfp)
{
	struct page *page;
	void *addr;

	page = rd_pages_alloc(ps, gfp);
	if (!page)
		return NULL;
	addr = page_address(page);
	if (len != PAGE_SIZE) {
		memset(addr, 0, in_page);
		memset(addr + in_page + len, 0, PAGE_SIZE - in_page - len);
	}
	rd_copy_from_page(addr + in_page, src, off, len);
	return page;
}

/*
 * Publishes a new page holding the write at pos; -EEXIST when another
 * writer published that page first, and the write must go into theirs.
 */
static int rd_pages_insert(struct rd_page_store *ps, u64 pos, struct page *src, unsigned int off,
			   unsigned int len, bool nowait)
{
	/* GFP_NOIO: reclaim must not recurse into block or fs I/O */
	gfp_t gfp = nowait ? GFP_NOWAIT : GFP_NOIO;
	struct page *page;
	int err;

	if (!rd_pages_charge(ps)) {
		atomic_long_inc(&ps->base.alloc_failures);
		return -ENOSPC;
	}
	page = rd_pages_new(ps, offset_in_page(pos), src, off, len, gfp);
	if (!page)
		goto out_uncharge;
	err = rd_index_insert(&ps->index, pos >> PAGE_SHIFT, page, gfp);
	if (likely(!err))
		return 0;
	__free_page(page);
	if (err != -EEXIST)
		goto out_uncharge;
	rd_pages_uncharge(ps, 1);
	return -EEXIST;

out_uncharge:
	rd_pages_uncharge(ps, 1);
	if (nowait)
		return -EAGAIN;
	atomic_long_inc(&ps->base.alloc_failures);
	return -ENOMEM;
}

int rd_pages_write(struct rd_store *store, u64 pos, struct page *src, unsigned int off,
		   unsigned int len, bool nowait)
{
	struct rd_page_store *ps = to_page_store(store);
	struct page *page;
	int err;

	do {
		rcu_read_lock();
		page = rd_index_lookup(&ps->index, pos >> PAGE_SHIFT);
		if (likely(page)) {
			rd_copy_from_page(page_address(page) + offset_in_page(pos), src, off, len);
			rcu_read_unlock();
			return 0;
		}
		rcu_read_unlock();
		err = rd_pages_insert(ps, pos, src, off, len, nowait);
	} while (err == -EEXIST);
	return err;
}

/*
 * A read or write bio walks the index once, page after page. The RCU read
 * lock is dropped now and then, so that a 4 MiB bio does not hold back
 * grace periods (or, without preemptible RCU, preemption) for the whole
 * copy, and around the allocation of a page a write finds missing; the
 * walk then starts again from the root, as the nodes it stood on may be
 * gone.
 */
#define RD_PAGES_RCU_BATCH 64

int rd_pages_rw_bio(struct rd_store *store, struct bio *bio)
{
	struct rd_page_store *ps = to_page_store(store);
	bool write = op_is_write(bio_op(bio));
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct rd_pages_cursor cur;
	unsigned int batch = 0;
	struct bvec_iter iter;
	struct bio_vec bv;
	int err = 0;

	rd_pages_cursor_reset(&cur);
	rcu_read_lock();
	bio_for_each_segment(bv, bio, iter) {
		unsigned int off = bv.bv_offset;
		unsigned int left = bv.bv_len;

		while (left) {
			unsigned int in_page = offset_in_page(pos);
			unsigned int len = min_t(unsigned int, left, PAGE_SIZE - in_page);
			struct page *page;

			if (++batch == RD_PAGES_RCU_BATCH) {
				batch = 0;
				rcu_read_unlock();
				rcu_read_lock();
				rd_pages_cursor_reset(&cur);
			}
			page = rd_pages_cursor_lookup(&ps->index, &cur, pos >> PAGE_SHIFT);
			if (!write) {
				if (page)
					rd_copy_to_page(bv.bv_page, off,
							page_address(page) + in_page, len);
				else
					memzero_page(bv.bv_page, off, len);
			} else if (page) {
				rd_copy_from_page(page_address(page) + in_page, bv.bv_page, off,
						  len);
			} else {
				bool nowait = bio->bi_opf & REQ_NOWAIT;

				rcu_read_unlock();
				err = rd_pages_insert(ps, pos, bv.bv_page, off, len, nowait);
				if (err == -EEXIST)
					err = rd_pages_write(store, pos, bv.bv_page, off, len,
							     nowait);
				rcu_read_lock();
				rd_pages_cursor_reset(&cur);
				if (err)
					goto out_unlock;
			}
			pos += len;
			off += len;
			left -= len;
		}
	}
out_unlock:
	rcu_read_unlock();
	return err;
}

/* Zeroes a range inside one page, if that page exists. */
static void rd_pages_zero(struct rd_page_store *ps, u64 pos, unsigned int len)
{
	struct page *page;

	rcu_read_lock();
	page = rd_index_lookup(&ps->index, pos >> PAGE_SHIFT);
	if (page)
		memset(page_address(page) + offset_in_page(pos), 0, len);
	rcu_read_unlock();
}

static void rd_pages_free_rcu(struct rcu_head *head)
{
	__free_page(container_of(head, struct page, rcu_head));
}

/* Readers may still hold the page for a moment. */
static void rd_pages_free_later(struct page *page)
{
	call_rcu(&page->rcu_head, rd_pages_free_rcu);
}

static void rd_pages_free_range(struct rd_page_store *ps, pgoff_t first, pgoff_t last, bool nowait)
{
	rd_pages_uncharge(ps,
			  rd_index_remove(&ps->index, first, last, rd_pages_free_later, nowait));
}

static void rd_pages_discard(struct rd_store *store, u64 pos, u64 len, bool nowait)
{
	struct rd_page_store *ps = to_page_store(store);
	u64 end = pos + len;
	u64 head_end = min(round_up(pos, PAGE_SIZE), end);
	u64 tail_start;

	if (pos < head_end)
		rd_pages_zero(ps, pos, head_end - pos);
	if (head_end == end)
		return;
	tail_start = max(round_down(end, PAGE_SIZE), head_end);
	if (head_end < tail_start)
		rd_pages_free_range(ps, head_end >> PAGE_SHIFT, (tail_start >> PAGE_SHIFT) - 1,
				    nowait);
	if (tail_start < end)
		rd_pages_zero(ps, tail_start, end - tail_start);
}

/*
 * The first page at or after pos and the run of pages that follow it
 * without a gap. A page counts from its first byte, as a save must copy
 * it whole.
 */
static u64 rd_pages_next_extent(struct rd_store *store, u64 pos, u64 *len)
{
	struct rd_page_store *ps = to_page_store(store);
	pgoff_t first, next;

	rcu_read_lock();
	first = rd_index_find(&ps->index, pos >> PAGE_SHIFT);
	if (first == RD_INDEX_NONE) {
		rcu_read_unlock();
		return RD_STORE_NO_EXTENT;
	}
	next = first + 1;
	/* runs are reported in pieces so that the lock is held briefly */
	while (next - first < 65536 && rd_index_lookup(&ps->index, next))
		next++;
	rcu_read_unlock();
	*len = (u64)(next - first) << PAGE_SHIFT;
	return (u64)first << PAGE_SHIFT;
}

static void rd_pages_free_now(struct page *page)
{
	__free_page(page);
}

/* Called once no I/O can reach the store any more. */
static void rd_pages_destroy(struct rd_store *store)
{
	struct rd_page_store *ps = to_page_store(store);
	struct page *spare, *next;

	cancel_work_sync(&ps->spare_work);
	list_for_each_entry_safe(spare, next, &ps->spare_list, lru)
		__free_page(spare);
	rd_pages_uncharge(ps, rd_index_destroy(&ps->index, rd_pages_free_now));
	kfree(ps);
}

static long rd_pages_index_bytes(struct rd_store *store)
{
	return atomic_long_read(&to_page_store(store)->index.bytes);
}

static const struct rd_store_ops rd_pages_ops = {
	.read = rd_pages_read,
	.rw_bio = rd_pages_rw_bio,
	.write = rd_pages_write,
	.discard = rd_pages_discard,
	.next_extent = rd_pages_next_extent,
	.destroy = rd_pages_destroy,
	.tune = rd_pages_tune,
	.index_bytes = rd_pages_index_bytes,
};

struct rd_store *rd_store_pages_create(u64 size, int numa_node)
{
	struct rd_page_store *ps;

	ps = kzalloc_node(sizeof(*ps), GFP_KERNEL, numa_node);
	if (!ps)
		return NULL;
	if (rd_index_init(&ps->index, size >> PAGE_SHIFT, numa_node)) {
		kfree(ps);
		return NULL;
	}
	spin_lock_init(&ps->spare_lock);
	INIT_LIST_HEAD(&ps->spare_list);
	INIT_WORK(&ps->spare_work, rd_pages_spare_refill);
	ps->base.ops = &rd_pages_ops;
	ps->base.numa_node = numa_node;
	atomic_long_set(&ps->base.nr_pages, 0);
	atomic_long_set(&ps->base.alloc_failures, 0);
	return &ps->base;
}
