// SPDX-License-Identifier: GPL-2.0
/*
 * Insertion, removal and search in the page index (page_index.h). Lookups
 * are inline in the header, as they are the I/O path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "page_index.h"

#define RD_INDEX_LEAF_MASK (RD_INDEX_LEAF_SLOTS - 1)
#define RD_INDEX_NODE_MASK (RD_INDEX_NODE_SLOTS - 1)

/* The first page number after the span of 1 << shift pages holding index. */
static pgoff_t rd_index_span_end(pgoff_t index, unsigned int shift)
{
	return (index | ((1UL << shift) - 1)) + 1;
}

int rd_index_init(struct rd_page_index *ix, pgoff_t nr_pages, int numa_node)
{
	unsigned int shift = RD_INDEX_LEAF_SHIFT;
	size_t size;

	if (!nr_pages)
		return -EINVAL;
	/* the smallest height whose root fits in one node */
	while (((nr_pages - 1) >> shift) >= RD_INDEX_NODE_SLOTS)
		shift += RD_INDEX_NODE_SHIFT;
	ix->root_shift = shift;
	ix->root_slots = ((nr_pages - 1) >> shift) + 1;
	ix->nr_pages = nr_pages;
	ix->numa_node = numa_node;
	size = ix->root_slots * sizeof(*ix->root);
	ix->root = kzalloc_node(size, GFP_KERNEL, numa_node);
	if (!ix->root)
		return -ENOMEM;
	spin_lock_init(&ix->lock);
	atomic_long_set(&ix->bytes, kmalloc_size_roundup(size));
	return 0;
}

/* Frees a leaf (shift == RD_INDEX_LEAF_SHIFT) or a node and all below it. */
static long rd_index_free_tree(void *child, unsigned int shift, rd_index_release_fn release,
			       void *arg)
{
	unsigned long i;
	long freed = 0;

	if (shift == RD_INDEX_LEAF_SHIFT) {
		struct rd_index_leaf *leaf = child;

		for (i = 0; i < RD_INDEX_LEAF_SLOTS; i++) {
			struct page *page = rcu_dereference_raw(leaf->pages[i]);

			if (page) {
				release(page, arg);
				freed++;
			}
		}
	} else {
		struct rd_index_node *node = child;

		for (i = 0; i < RD_INDEX_NODE_SLOTS; i++) {
			void *grandchild = rcu_dereference_raw(node->slots[i]);

			if (grandchild)
				freed += rd_index_free_tree(grandchild, shift - RD_INDEX_NODE_SHIFT,
							    release, arg);
		}
	}
	kfree(child);
	/* a device of many GiB holds millions of pages */
	cond_resched();
	return freed;
}

long rd_index_destroy(struct rd_page_index *ix, rd_index_release_fn release, void *arg)
{
	unsigned long i;
	long freed = 0;

	for (i = 0; i < ix->root_slots; i++) {
		void *child = rcu_dereference_raw(ix->root[i]);

		if (child)
			freed += rd_index_free_tree(child, ix->root_shift, release, arg);
	}
	kfree(ix->root);
	ix->root = NULL;
	atomic_long_set(&ix->bytes, 0);
	return freed;
}

/* Leaves and nodes allocated before taking the lock, used if missing. */
struct rd_index_spares {
	struct rd_index_node *nodes[RD_INDEX_MAX_HEIGHT];
	unsigned int nr_nodes;
	struct rd_index_leaf *leaf;
};

/*
 * The slot for index. Where the path is missing a level, it is missing all
 * the levels below too: they are linked in from the spares only when there
 * are enough for all of them, so that a failed allocation leaves no empty
 * node behind. Otherwise NULL, with *nodes_needed set.
 */
static struct page __rcu **rd_index_slot_locked(struct rd_page_index *ix, pgoff_t index,
						struct rd_index_spares *spares,
						unsigned int *nodes_needed)
{
	unsigned int shift = ix->root_shift;
	void __rcu **slotp = &ix->root[index >> shift];
	bool linking = false;

	for (;;) {
		bool leaf_level = shift == RD_INDEX_LEAF_SHIFT;
		void *child = rcu_dereference_protected(*slotp, lockdep_is_held(&ix->lock));

		if (!child) {
			unsigned int nodes = (shift - RD_INDEX_LEAF_SHIFT) / RD_INDEX_NODE_SHIFT;

			if (!linking && (spares->nr_nodes < nodes || !spares->leaf)) {
				*nodes_needed = nodes;
				return NULL;
			}
			linking = true;
			if (leaf_level) {
				child = spares->leaf;
				spares->leaf = NULL;
			} else {
				child = spares->nodes[--spares->nr_nodes];
			}
			atomic_long_add(leaf_level ? sizeof(struct rd_index_leaf) :
						     sizeof(struct rd_index_node),
					&ix->bytes);
			/* the spare was zeroed before the lock: publish it whole */
			rcu_assign_pointer(*slotp, child);
		}
		if (leaf_level)
			return &((struct rd_index_leaf *)child)->pages[index & RD_INDEX_LEAF_MASK];
		shift -= RD_INDEX_NODE_SHIFT;
		slotp = &((struct rd_index_node *)child)
				 ->slots[(index >> shift) & RD_INDEX_NODE_MASK];
	}
}

int rd_index_insert(struct rd_page_index *ix, pgoff_t index, struct page *page, gfp_t gfp)
{
	struct rd_index_spares spares = {};
	struct page __rcu **slot;
	unsigned int nodes_needed;
	int err;

	if (WARN_ON_ONCE(index >= ix->nr_pages))
		return -EIO;
	for (;;) {
		spin_lock(&ix->lock);
		slot = rd_index_slot_locked(ix, index, &spares, &nodes_needed);
		if (slot)
			break;
		spin_unlock(&ix->lock);
		/* GFP_NOIO may sleep: allocate outside the lock */
		err = -ENOMEM;
		while (spares.nr_nodes < nodes_needed) {
			spares.nodes[spares.nr_nodes] = kzalloc_node(
				sizeof(struct rd_index_node), gfp | __GFP_NOWARN, ix->numa_node);
			if (!spares.nodes[spares.nr_nodes])
				goto out_free_spares;
			spares.nr_nodes++;
		}
		if (!spares.leaf) {
			spares.leaf = kzalloc_node(sizeof(*spares.leaf), gfp | __GFP_NOWARN,
						   ix->numa_node);
			if (!spares.leaf)
				goto out_free_spares;
		}
	}
	if (rcu_access_pointer(*slot)) {
		err = -EEXIST;
	} else {
		/* the page holds its data already: readers see it whole */
		rcu_assign_pointer(*slot, page);
		err = 0;
	}
	spin_unlock(&ix->lock);
out_free_spares:
	kfree(spares.leaf);
	while (spares.nr_nodes)
		kfree(spares.nodes[--spares.nr_nodes]);
	return err;
}

static bool rd_index_leaf_empty(struct rd_index_leaf *leaf)
{
	unsigned long i;

	for (i = 0; i < RD_INDEX_LEAF_SLOTS; i++)
		if (rcu_access_pointer(leaf->pages[i]))
			return false;
	return true;
}

static bool rd_index_node_empty(struct rd_index_node *node)
{
	unsigned long i;

	for (i = 0; i < RD_INDEX_NODE_SLOTS; i++)
		if (rcu_access_pointer(node->slots[i]))
			return false;
	return true;
}

/*
 * Removes the pages of one leaf's span that lie in index..last, then
 * unlinks the leaf and the nodes above it that this left empty, into
 * unlinked[] (not when unlinked is NULL). Returns the first page number
 * after what it covered.
 */
static pgoff_t rd_index_remove_leaf_locked(struct rd_page_index *ix, pgoff_t index, pgoff_t last,
					   rd_index_release_fn release, void *arg, long *removed,
					   void **unlinked, unsigned int *nr_unlinked)
{
	void __rcu **path[RD_INDEX_MAX_HEIGHT];
	unsigned int shift = ix->root_shift;
	void __rcu **slotp = &ix->root[index >> shift];
	unsigned int depth = 0;
	struct rd_index_leaf *leaf;
	unsigned long i, from, to;

	for (;;) {
		void *child = rcu_dereference_protected(*slotp, lockdep_is_held(&ix->lock));

		path[depth++] = slotp;
		if (!child)
			return rd_index_span_end(index, shift);
		if (shift == RD_INDEX_LEAF_SHIFT) {
			leaf = child;
			break;
		}
		shift -= RD_INDEX_NODE_SHIFT;
		slotp = &((struct rd_index_node *)child)
				 ->slots[(index >> shift) & RD_INDEX_NODE_MASK];
	}

	from = index & RD_INDEX_LEAF_MASK;
	to = min_t(pgoff_t, last - (index - from), RD_INDEX_LEAF_MASK);
	for (i = from; i <= to; i++) {
		struct page *page =
			rcu_dereference_protected(leaf->pages[i], lockdep_is_held(&ix->lock));

		if (page) {
			RCU_INIT_POINTER(leaf->pages[i], NULL);
			release(page, arg);
			(*removed)++;
		}
	}

	/* from the leaf up; the root array itself stays */
	if (!unlinked || !rd_index_leaf_empty(leaf))
		return rd_index_span_end(index, RD_INDEX_LEAF_SHIFT);
	RCU_INIT_POINTER(*path[--depth], NULL);
	unlinked[(*nr_unlinked)++] = leaf;
	atomic_long_sub(sizeof(*leaf), &ix->bytes);
	while (depth > 0) {
		struct rd_index_node *node =
			rcu_dereference_protected(*path[depth - 1], lockdep_is_held(&ix->lock));

		if (!rd_index_node_empty(node))
			break;
		RCU_INIT_POINTER(*path[--depth], NULL);
		unlinked[(*nr_unlinked)++] = node;
		atomic_long_sub(sizeof(*node), &ix->bytes);
	}
	return rd_index_span_end(index, RD_INDEX_LEAF_SHIFT);
}

long rd_index_remove(struct rd_page_index *ix, pgoff_t first, pgoff_t last,
		     rd_index_release_fn release, void *arg, bool nowait)
{
	pgoff_t index = first;
	long removed = 0;

	if (!nowait)
		might_sleep();
	last = min(last, ix->nr_pages - 1);
	while (index <= last) {
		void *unlinked[RD_INDEX_MAX_HEIGHT];
		unsigned int i, nr_unlinked = 0;
		pgoff_t next;

		/* one leaf at a time, so that the lock is never held long */
		spin_lock(&ix->lock);
		next = rd_index_remove_leaf_locked(ix, index, last, release, arg, &removed,
						   nowait ? NULL : unlinked, &nr_unlinked);
		spin_unlock(&ix->lock);
		/* lock-free readers may still stand on them */
		for (i = 0; i < nr_unlinked; i++)
			kvfree_rcu_mightsleep(unlinked[i]);
		if (!nowait)
			cond_resched();
		if (next <= index)
			break;
		index = next;
	}
	return removed;
}

int rd_index_replace(struct rd_page_index *ix, pgoff_t index, struct page *old, struct page *new)
{
	struct rd_index_leaf *leaf;
	int err = -EAGAIN;

	rcu_read_lock();
	spin_lock(&ix->lock);
	leaf = rd_index_leaf(ix, index);
	if (leaf && rcu_access_pointer(leaf->pages[index & RD_INDEX_LEAF_MASK]) == old) {
		/* new holds its data already: readers see it whole */
		rcu_assign_pointer(leaf->pages[index & RD_INDEX_LEAF_MASK], new);
		err = 0;
	}
	spin_unlock(&ix->lock);
	rcu_read_unlock();
	return err;
}

/*
 * Page by page through the insertion path: simple, and the index levels
 * it allocates are those any writer would. A copy of a GiB of pages is
 * 262,144 insertions, milliseconds beside what copying the data would
 * cost.
 */
int rd_index_copy(struct rd_page_index *dst, struct rd_page_index *src,
		  void (*hold)(struct page *page), gfp_t gfp, long *copied)
{
	pgoff_t index = 0;
	struct page *page;
	int err;

	*copied = 0;
	if (WARN_ON_ONCE(dst->nr_pages != src->nr_pages))
		return -EINVAL;
	for (;;) {
		rcu_read_lock();
		index = rd_index_find(src, index);
		page = index == RD_INDEX_NONE ? NULL : rd_index_lookup(src, index);
		rcu_read_unlock();
		if (!page)
			return 0;
		err = rd_index_insert(dst, index, page, gfp);
		if (err)
			return err;
		hold(page);
		(*copied)++;
		cond_resched();
		index++;
	}
}

void rd_index_swap(struct rd_page_index *a, struct rd_page_index *b)
{
	void __rcu **root = a->root;
	long bytes = atomic_long_read(&a->bytes);

	if (WARN_ON_ONCE(a->nr_pages != b->nr_pages))
		return;
	a->root = b->root;
	atomic_long_set(&a->bytes, atomic_long_read(&b->bytes));
	b->root = root;
	atomic_long_set(&b->bytes, bytes);
}

pgoff_t rd_index_find(struct rd_page_index *ix, pgoff_t index)
{
	while (index < ix->nr_pages) {
		unsigned int shift = ix->root_shift;
		void *child = rcu_dereference(ix->root[index >> shift]);
		struct rd_index_leaf *leaf;
		unsigned long i;

		while (child && shift > RD_INDEX_LEAF_SHIFT) {
			struct rd_index_node *node = child;

			shift -= RD_INDEX_NODE_SHIFT;
			child = rcu_dereference(node->slots[(index >> shift) & RD_INDEX_NODE_MASK]);
		}
		if (child) {
			leaf = child;
			for (i = index & RD_INDEX_LEAF_MASK; i < RD_INDEX_LEAF_SLOTS; i++) {
				if (rcu_access_pointer(leaf->pages[i])) {
					index = (index & ~RD_INDEX_LEAF_MASK) + i;
					return index < ix->nr_pages ? index : RD_INDEX_NONE;
				}
			}
		}
		/* nothing in the span that slot covers: step over all of it */
		if (rd_index_span_end(index, shift) <= index)
			break;
		index = rd_index_span_end(index, shift);
	}
	return RD_INDEX_NONE;
}
