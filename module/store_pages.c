// SPDX-License-Identifier: GPL-2.0
/*
 * Sparse backing store: one page per PAGE_SIZE of the device, allocated on
 * first write and kept in the page index (page_index.h).
 *
 * Readers and writers look pages up under RCU without a lock; only the
 * insertion of a new page and discard take the index's lock. A page leaves
 * the index before it is freed, and is freed only after an RCU grace
 * period, so a copy that found it under rcu_read_lock() stays valid.
 *
 * A checkpoint is a second index holding the same pages: they are shared,
 * and a write to a shared page copies it first (copy-on-write). How many
 * other indexes hold a page is in its page->private, changed under
 * rd_share_lock; the last holder frees it. While no checkpoint exists
 * (rd_shared_pages_in_use off) every page has one holder and the write
 * path never looks.
 *
 * page->private also says when a page has left a device's index
 * (RD_PAGE_LEFT_INDEX): a writer that looked the page up just before
 * another writer's copy took its place must not take it for a page of the
 * device's own, though only one holder, or none, is left. The mark stays
 * until the page is freed. rd_page_in_place() states the whole rule.
 *
 * A clone is a store of another device whose index starts as a copy of a
 * checkpoint's. Its device index is one more holder of those pages, which
 * stay charged to the store that made them: the checkpoint holds each of
 * them for the clone's whole life (checkpoint.c refuses to drop it), so a
 * clone is never the last holder of a page it did not make, and the pages
 * it makes (copies, first writes) are its alone, as it takes no
 * checkpoints.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/jump_label.h>

#include "bio_walk.h"
#include "compat.h"
#include "copy.h"
#include "page_index.h"
#include "spare_pages.h"
#include "store.h"
#include "test_hooks.h"

atomic_long_t rd_store_total_pages = ATOMIC_LONG_INIT(0);

/* On while any checkpoint exists: some page may have more than one holder. */
static DEFINE_STATIC_KEY_FALSE(rd_shared_pages_in_use);
/*
 * Guards the holder counts in page->private. One lock for the module:
 * counts change only when a checkpoint is made, rolled back to or
 * dropped, and when a shared page is copied or discarded, never on the
 * path of a write to a page of its own.
 */
static DEFINE_SPINLOCK(rd_share_lock);

/*
 * In page->private above the count: a device's live index let go of the
 * page while a writer of that device may still have it in hand. Kept
 * until the page is freed, or until the checkpoint drop that knows no
 * such writer can be left (rd_pages_checkpoint_free()).
 */
#define RD_PAGE_LEFT_INDEX BIT(BITS_PER_LONG - 1)

struct rd_page_store {
	struct rd_store base;
	struct rd_page_index index;
	struct rd_spare_pages spare;
	/* pages only checkpoints hold: the old versions of pages changed since */
	atomic_long_t checkpoint_pages;
	/* a clone: pages others also hold are its checkpoint's, charged there */
	bool borrows;
};

/* A named checkpoint's pages: an index of the device's size (checkpoint.c names them). */
struct rd_store_checkpoint {
	struct rd_page_index index;
	long pages;
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

/*
 * Whether a writer that found the page in its device's index, under
 * rcu_read_lock(), may write into it in place. The rule: only when
 * page->private is 0, that is no index but the device's holds the page
 * and no live index has let go of it since it was allocated. Otherwise the
 * writer copies the page (rd_pages_unshare()) and looks again.
 *
 * The answer holds while the writer's bio runs, because page->private
 * becomes non-zero only while the device's queue is frozen (a checkpoint
 * or a rollback: no writer is between lookup and copy) or while another
 * holder exists (a clone made of a checkpoint, which holds the page
 * already), and a page leaves a live index in a writer's hands only
 * through a copy, which marks it RD_PAGE_LEFT_INDEX before anyone may free
 * it. Nobody clears that mark while a writer may still have the page in
 * hand: not the last holder (the page keeps its mark until the RCU
 * callback frees it), not a checkpoint drop unless it knows that no such
 * writer can exist. So a writer that looked a page up before a copy took
 * its place sees it as shared however late it looks, and writes into the
 * copy instead: no write goes into a page on its way to be freed.
 */
static __always_inline bool rd_page_in_place(struct page *page)
{
	return !static_branch_unlikely(&rd_shared_pages_in_use) || !READ_ONCE(page->private);
}

/* The indexes that hold the page beside the first. */
static unsigned long rd_page_holders(struct page *page)
{
	return page_private(page) & ~RD_PAGE_LEFT_INDEX;
}

/*
 * One more index holds the page: a checkpoint of the device's index, the
 * device's new index at a rollback, or a clone's. A mark the page has
 * stays: a writer of another index may still have it in hand.
 */
static void rd_page_hold(struct page *page)
{
	spin_lock(&rd_share_lock);
	set_page_private(page, page_private(page) + 1);
	spin_unlock(&rd_share_lock);
}

/*
 * One index lets go of the page; true when it was the last holder, which
 * frees it. A live index (one a device's writers use) that lets go of the
 * page marks it as having left, which the page then keeps, even after
 * its last holder let go: a writer that found it in that index may still
 * look at it until a grace period has passed, and a page with private 0
 * would be one it may write in place (rd_page_in_place()). The free
 * clears page->private.
 */
static bool rd_page_let_go(struct page *page, bool live_index)
{
	unsigned long holders, left;
	bool last = true;

	if (!static_branch_unlikely(&rd_shared_pages_in_use))
		return true;
	spin_lock(&rd_share_lock);
	holders = rd_page_holders(page);
	left = page_private(page) & RD_PAGE_LEFT_INDEX;
	if (live_index)
		left = RD_PAGE_LEFT_INDEX;
	if (holders) {
		set_page_private(page, (holders - 1) | left);
		last = false;
	} else if (left) {
		set_page_private(page, left);
	}
	spin_unlock(&rd_share_lock);
	return last;
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
	/* one holder: this index */
	set_page_private(page, 0);
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

/* The last holder let go a grace period ago: no writer has the page in hand. */
static void rd_pages_free_rcu(struct rcu_head *head)
{
	struct page *page = container_of(head, struct page, rcu_head);

	set_page_private(page, 0);
	__free_page(page);
}

/*
 * The device's index lets go of a page: discard or copy-on-write in the
 * live index (live_index), or the old index after a rollback, whose
 * readers and writers are gone. Readers may still hold the page for a
 * moment, so the last holder frees it after a grace period; a page that
 * checkpoints still hold now lives on for them alone.
 */
static void rd_pages_let_go_device(struct rd_page_store *ps, struct page *page, bool live_index)
{
	if (!rd_page_let_go(page, live_index)) {
		if (!ps->borrows)
			atomic_long_inc(&ps->checkpoint_pages);
		return;
	}
	rd_pages_uncharge(ps, 1);
	call_rcu(&page->rcu_head, rd_pages_free_rcu);
}

static void rd_pages_release(struct page *page, void *arg)
{
	rd_pages_let_go_device(arg, page, true);
}

/* The old index after a rollback: no writer has its pages in hand any more. */
static void rd_pages_release_retired(struct page *page, void *arg)
{
	rd_pages_let_go_device(arg, page, false);
}

/*
 * Gives the page at pos a copy of its own in place of the shared one, so
 * that a write changes only the device's data, not a checkpoint's. 0 when
 * the caller should look again (copied, or someone else got there first),
 * or the errors of a first write.
 */
static int rd_pages_unshare(struct rd_page_store *ps, u64 pos, bool nowait)
{
	gfp_t gfp = nowait ? GFP_NOWAIT : GFP_NOIO;
	pgoff_t index = pos >> PAGE_SHIFT;
	struct page *old, *new;
	int err = -EAGAIN;

	if (!rd_pages_charge(ps)) {
		atomic_long_inc(&ps->base.alloc_failures);
		return -ENOSPC;
	}
	new = rd_spare_take(&ps->spare, gfp);
	if (!new) {
		rd_pages_uncharge(ps, 1);
		if (nowait)
			return -EAGAIN;
		atomic_long_inc(&ps->base.alloc_failures);
		return -ENOMEM;
	}
	set_page_private(new, 0);
	rcu_read_lock();
	old = rd_index_lookup(&ps->index, index);
	/* shared pages are never written in place, nor unshared under us: the copy is stable */
	if (old && !rd_page_in_place(old)) {
		copy_page(page_address(new), page_address(old));
		err = rd_index_replace(&ps->index, index, old, new);
	}
	rcu_read_unlock();
	if (err) {
		__free_page(new);
		rd_pages_uncharge(ps, 1);
		return 0;
	}
	rd_pages_release(old, ps);
	return 0;
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
		rd_test_delay(RD_TEST_WRITE_LOOKED_UP);
		if (likely(page) && likely(rd_page_in_place(page))) {
			rd_copy_from_page(page_address(page) + offset_in_page(pos), src, off, len);
			rcu_read_unlock();
			return 0;
		}
		rcu_read_unlock();
		if (page)
			err = rd_pages_unshare(ps, pos, nowait) ?: -EEXIST;
		else
			err = rd_pages_insert(ps, pos, src, off, len, nowait);
	} while (err == -EEXIST);
	return err;
}

/*
 * Gives every page of [pos, pos + len) a page of the device's own that a
 * write may change in place: a zeroed page where none was (which reads
 * as the hole did), a copy where a checkpoint shares it. Nothing a reader
 * sees changes, so a failure here (ENOSPC at mem_limit, ENOMEM, EAGAIN
 * under nowait) leaves the data as it was, whatever pages it allocated
 * already, which stay, as after any write that needed them.
 */
static int rd_pages_prepare(struct rd_page_store *ps, u64 pos, u64 len, bool nowait)
{
	pgoff_t index, last = (pos + len - 1) >> PAGE_SHIFT;
	struct page *page;
	bool ready;
	int err;

	for (index = pos >> PAGE_SHIFT; index <= last; index++) {
		for (;;) {
			rcu_read_lock();
			page = rd_index_lookup(&ps->index, index);
			ready = page && rd_page_in_place(page);
			rcu_read_unlock();
			if (ready)
				break;
			/* 0 from either: look again (copied, or lost a race) */
			if (page)
				err = rd_pages_unshare(ps, (u64)index << PAGE_SHIFT, nowait);
			else
				err = rd_pages_insert(ps, (u64)index << PAGE_SHIFT, ZERO_PAGE(0), 0,
						      PAGE_SIZE, nowait);
			if (err && err != -EEXIST)
				return err;
		}
	}
	return 0;
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

	/*
	 * An atomic write is done whole or not at all, as a disk does it:
	 * every page it needs is allocated and charged before the first
	 * byte is copied, so the walk below finds each of them its own.
	 * (A discard of the same blocks racing it could still take a page
	 * away in between; that race is the caller's, as between any two
	 * commands in flight at once.)
	 */
	if (write && unlikely(rd_compat_bio_atomic(bio)) && bio->bi_iter.bi_size) {
		err = rd_pages_prepare(ps, (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT,
				       bio->bi_iter.bi_size, bio->bi_opf & REQ_NOWAIT);
		if (err)
			return err;
	}
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
			continue;
		}
		rd_test_delay(RD_TEST_WRITE_LOOKED_UP);
		if (likely(page) && likely(rd_page_in_place(page))) {
			rd_copy_from_page(page_address(page) + in_page, seg.page, seg.off, seg.len);
		} else {
			/*
			 * a first write, or one to a page a checkpoint shares: the
			 * paths that allocate, and retry a lost race
			 */
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

/*
 * Zeroes a range inside one page, if that page exists; a shared page is
 * copied first, which may fail as a write does.
 */
static int rd_pages_zero(struct rd_page_store *ps, u64 pos, unsigned int len, bool nowait)
{
	struct page *page;
	int err;

	for (;;) {
		rcu_read_lock();
		page = rd_index_lookup(&ps->index, pos >> PAGE_SHIFT);
		if (!page || rd_page_in_place(page))
			break;
		rcu_read_unlock();
		err = rd_pages_unshare(ps, pos, nowait);
		if (err)
			return err;
	}
	if (page)
		memset(page_address(page) + offset_in_page(pos), 0, len);
	rcu_read_unlock();
	return 0;
}

static int rd_pages_discard(struct rd_store *store, u64 pos, u64 len, bool nowait)
{
	struct rd_page_store *ps = to_page_store(store);
	u64 end = pos + len;
	u64 head_end = min(round_up(pos, PAGE_SIZE), end);
	u64 tail_start;
	int err;

	if (pos < head_end) {
		err = rd_pages_zero(ps, pos, head_end - pos, nowait);
		if (err)
			return err;
	}
	if (head_end == end)
		return 0;
	tail_start = max(round_down(end, PAGE_SIZE), head_end);
	if (head_end < tail_start)
		rd_index_remove(&ps->index, head_end >> PAGE_SHIFT, (tail_start >> PAGE_SHIFT) - 1,
				rd_pages_release, ps, nowait);
	if (tail_start < end)
		return rd_pages_zero(ps, tail_start, end - tail_start, nowait);
	return 0;
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

/*
 * No reader or writer is left, and checkpoints went first: each page has
 * this index for its one holder, unless the store is a clone and the page
 * its checkpoint's, which the clone's index leaves unmarked: none of its
 * writers can have it in hand.
 */
static void rd_pages_free_now(struct page *page, void *arg)
{
	struct rd_page_store *ps = arg;

	if (!rd_page_let_go(page, false)) {
		WARN_ON_ONCE(!ps->borrows);
		return;
	}
	rd_pages_uncharge(ps, 1);
	set_page_private(page, 0);
	__free_page(page);
}

/* Called once no I/O can reach the store any more, and its checkpoints are gone. */
static void rd_pages_destroy(struct rd_store *store)
{
	struct rd_page_store *ps = to_page_store(store);

	rd_spare_destroy(&ps->spare);
	rd_index_destroy(&ps->index, rd_pages_free_now, ps);
	kfree(ps);
}

/*
 * A checkpoint lets go of a page. When it was the last holder, the page
 * was one that only checkpoints held; readers of the device that found it
 * before it was copied may still be on it, so it goes after a grace period.
 */
static void rd_pages_checkpoint_release(struct page *page, void *arg)
{
	struct rd_page_store *ps = arg;

	if (!rd_page_let_go(page, false))
		return;
	atomic_long_dec(&ps->checkpoint_pages);
	rd_pages_uncharge(ps, 1);
	call_rcu(&page->rcu_head, rd_pages_free_rcu);
}

void rd_pages_sharing_get(void)
{
	static_branch_inc(&rd_shared_pages_in_use);
}

void rd_pages_sharing_put(void)
{
	static_branch_dec(&rd_shared_pages_in_use);
}

/*
 * Calls visit() on every page of the checkpoint, in index order, inside
 * rcu_read_lock() and rd_share_lock, whose holder counts and marks visit()
 * may read and change. One page at a time, so that a checkpoint of
 * millions of pages lets the CPU go between them.
 */
static void rd_pages_checkpoint_walk(struct rd_page_store *ps, struct rd_store_checkpoint *ck,
				     void (*visit)(struct rd_page_store *ps, pgoff_t index,
						   struct page *page, void *arg),
				     void *arg)
{
	pgoff_t index = 0;
	struct page *page;

	for (;;) {
		rcu_read_lock();
		index = rd_index_find(&ck->index, index);
		page = index == RD_INDEX_NONE ? NULL : rd_index_lookup(&ck->index, index);
		if (page) {
			spin_lock(&rd_share_lock);
			visit(ps, index, page, arg);
			spin_unlock(&rd_share_lock);
		}
		rcu_read_unlock();
		if (!page)
			return;
		index++;
		cond_resched();
	}
}

/*
 * Clears the mark of a page that, once the checkpoint lets go, the
 * device's live index alone holds. The mark was set by a clone of this
 * checkpoint, copying a page the device had not changed: the clones are
 * gone, the device's queue is frozen, and a clone of another checkpoint
 * that held the page would hold it still through that checkpoint. So no
 * writer has such a page in hand, and without the mark the device's next
 * write goes into it in place rather than copying it for nothing.
 */
static void rd_pages_unmark_live(struct rd_page_store *ps, pgoff_t index, struct page *page,
				 void *unused)
{
	if (rd_index_lookup(&ps->index, index) == page &&
	    page_private(page) == (RD_PAGE_LEFT_INDEX | 1))
		set_page_private(page, 1);
}

/* With the device's queue frozen, or once no I/O can reach it; no clone is left. */
static void rd_pages_checkpoint_free(struct rd_store *store, struct rd_store_checkpoint *ck)
{
	struct rd_page_store *ps = to_page_store(store);

	rd_pages_checkpoint_walk(ps, ck, rd_pages_unmark_live, NULL);
	rd_index_destroy(&ck->index, rd_pages_checkpoint_release, ps);
	kfree(ck);
}

/*
 * A new index holding every page of the device's: no data is copied. The
 * caller has stopped I/O to the device (the queue is frozen), so no write
 * is changing a page in place while it becomes shared.
 */
static struct rd_store_checkpoint *rd_pages_checkpoint(struct rd_store *store)
{
	struct rd_page_store *ps = to_page_store(store);
	struct rd_store_checkpoint *ck;
	int err;

	ck = kzalloc(sizeof(*ck), GFP_NOIO);
	if (!ck)
		return ERR_PTR(-ENOMEM);
	err = rd_index_init(&ck->index, ps->index.nr_pages, ps->index.numa_node);
	if (err) {
		kfree(ck);
		return ERR_PTR(err);
	}
	err = rd_index_copy(&ck->index, &ps->index, rd_page_hold, GFP_NOIO, &ck->pages);
	if (err) {
		rd_pages_checkpoint_free(store, ck);
		return ERR_PTR(err);
	}
	return ck;
}

/*
 * The device's pages become the checkpoint's again: a new index is built
 * holding the checkpoint's pages, so that a failure to allocate it changes
 * nothing, then takes the place of the old one, whose pages (those
 * written since) are let go. The caller has stopped I/O and made sure
 * that nobody has the device open.
 */
static int rd_pages_rollback(struct rd_store *store, struct rd_store_checkpoint *ck)
{
	struct rd_page_store *ps = to_page_store(store);
	struct rd_page_index fresh;
	long live;
	int err;

	err = rd_index_init(&fresh, ps->index.nr_pages, ps->index.numa_node);
	if (err)
		return err;
	err = rd_index_copy(&fresh, &ck->index, rd_page_hold, GFP_NOIO, &live);
	if (err) {
		rd_index_destroy(&fresh, rd_pages_checkpoint_release, ps);
		return err;
	}
	rd_index_swap(&ps->index, &fresh);
	/* a reader that looked a page up before the queue froze is gone by now */
	synchronize_rcu();
	rd_index_destroy(&fresh, rd_pages_release_retired, ps);
	/* whatever the device holds beside its index, only checkpoints hold */
	atomic_long_set(&ps->checkpoint_pages, atomic_long_read(&ps->base.nr_pages) - live);
	return 0;
}

/* A page that only the checkpoint holds, which dropping it would give back. */
static void rd_pages_count_own(struct rd_page_store *ps, pgoff_t index, struct page *page,
			       void *own)
{
	*(long *)own += !rd_page_holders(page);
}

/* What dropping the checkpoint would give back: the pages that only it holds. */
static void rd_pages_checkpoint_usage(struct rd_store *store, struct rd_store_checkpoint *ck,
				      long *pages, long *own)
{
	*pages = ck->pages;
	*own = 0;
	rd_pages_checkpoint_walk(to_page_store(store), ck, rd_pages_count_own, own);
}

/*
 * A new store holding the checkpoint's pages: no data is copied. The
 * device's own writers may run meanwhile: every page of the checkpoint is
 * shared already, so one more holder changes no writer's choice to copy.
 */
static struct rd_store *rd_pages_clone(struct rd_store *store, struct rd_store_checkpoint *ck,
				       int numa_node)
{
	struct rd_store *clone;
	long pages;
	int err;

	clone = rd_store_pages_create((u64)ck->index.nr_pages << PAGE_SHIFT, numa_node);
	if (!clone)
		return ERR_PTR(-ENOMEM);
	to_page_store(clone)->borrows = true;
	err = rd_index_copy(&to_page_store(clone)->index, &ck->index, rd_page_hold, GFP_KERNEL,
			    &pages);
	if (err) {
		rd_pages_destroy(clone);
		return ERR_PTR(err);
	}
	return clone;
}

static long rd_pages_index_bytes(struct rd_store *store)
{
	return atomic_long_read(&to_page_store(store)->index.bytes);
}

static long rd_pages_checkpoint_pages(struct rd_store *store)
{
	return atomic_long_read(&to_page_store(store)->checkpoint_pages);
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
	.checkpoint = rd_pages_checkpoint,
	.rollback = rd_pages_rollback,
	.checkpoint_free = rd_pages_checkpoint_free,
	.checkpoint_usage = rd_pages_checkpoint_usage,
	.checkpoint_pages = rd_pages_checkpoint_pages,
	.clone = rd_pages_clone,
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
	atomic_long_set(&ps->checkpoint_pages, 0);
	return &ps->base;
}
