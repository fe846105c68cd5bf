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
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "bio_walk.h"
#include "copy.h"
#include "page_index.h"
#include "spare_pages.h"
#include "store.h"

atomic_long_t rd_store_total_pages = ATOMIC_LONG_INIT(0);

struct rd_page_store {
	struct rd_store base;
	struct rd_page_index index;
	struct rd_spare_pages spare;
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

static void rd_pages_read(struct rd_store *store, u64 pos, struct page *dst, unsigned int off,
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

/* Spares up to the target, within the room mem_limit leaves beside the data. */
static unsigned long rd_pages_spare_goal(struct rd_spare_pages *spare)
{
	struct rd_page_store *ps = container_of(spare, struct rd_page_store, spare);
	unsigned long goal = rd_spare_target(spare);
	u64 limit = rd_store_limit_bytes(&ps->base);
	long used;

	if (limit) {
		used = atomic_long_read(&ps->base.nr_pages);
		goal = min_t(u64, goal, max_t(s64, (s64)(limit >> PAGE_SHIFT) - used, 0));
	}
	return goal;
}

/* A lower limit frees spares at once. */
static void rd_pages_tune(struct rd_store *store)
{
	rd_spare_trim(&to_page_store(store)->spare);
}

static void rd_pages_set_spares(struct rd_store *store, unsigned int target)
{
	rd_spare_set_target(&to_page_store(store)->spare, target);
}

static unsigned int rd_pages_spares(struct rd_store *store)
{
	return rd_spare_count(&to_page_store(store)->spare);
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

	page = rd_spare_take(&ps->spare, gfp);
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

static int rd_pages_write(struct rd_store *store, u64 pos, struct page *src, unsigned int off,
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
	struct rd_pages_cursor cur;
	struct rd_bio_walk walk;
	unsigned int batch = 0;
	struct rd_seg seg;
	int err = 0;

	rd_pages_cursor_reset(&cur);
	rd_bio_walk_start(&walk, bio);
	rcu_read_lock();
	while (rd_bio_walk_next(&walk, &seg)) {
		unsigned int in_page = offset_in_page(seg.pos);
		struct page *page;

		if (++batch == RD_PAGES_RCU_BATCH) {
			batch = 0;
			rcu_read_unlock();
			rcu_read_lock();
			rd_pages_cursor_reset(&cur);
		}
		page = rd_pages_cursor_lookup(&ps->index, &cur, seg.pos >> PAGE_SHIFT);
		if (!write) {
			if (page)
				rd_copy_to_page(seg.page, seg.off, page_address(page) + in_page,
						seg.len);
			else
				memzero_page(seg.page, seg.off, seg.len);
		} else if (page) {
			rd_copy_from_page(page_address(page) + in_page, seg.page, seg.off, seg.len);
		} else {
			/* a first write: the one path that allocates, and retries a lost race */
			rcu_read_unlock();
			err = rd_pages_write(store, seg.pos, seg.page, seg.off, seg.len,
					     bio->bi_opf & REQ_NOWAIT);
			rcu_read_lock();
			rd_pages_cursor_reset(&cur);
			if (err)
				break;
		}
	}
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

	rd_spare_destroy(&ps->spare);
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
	.set_spares = rd_pages_set_spares,
	.spares = rd_pages_spares,
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
	rd_spare_init(&ps->spare, numa_node, rd_pages_spare_goal);
	ps->base.ops = &rd_pages_ops;
	atomic_long_set(&ps->base.nr_pages, 0);
	atomic_long_set(&ps->base.alloc_failures, 0);
	return &ps->base;
}
