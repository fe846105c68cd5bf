/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The index of the sparse store: which page holds each PAGE_SIZE of the
 * device. A radix tree whose height is fixed when the store is made, from
 * the device's size, so that a lookup is a fixed number of loads and no
 * check of what kind of entry it met:
 *
 *   root (at most 512 slots) -> interior nodes (512 slots, 4 KiB) -> ...
 *     -> leaves (64 page pointers, 512 bytes)
 *
 * A device of up to 128 MiB has a root and leaves only. A leaf covers as
 * little of the device as an xarray node does, so data written in runs
 * costs no more index than under an xarray. The interior levels are eight
 * times as wide, which keeps the tree shallow; the price is that a page
 * alone in its 128 MiB of a larger device costs a 4 KiB node besides its
 * leaf.
 *
 * Lookups run under rcu_read_lock() without a lock. Insertion and removal
 * take the index's lock. A leaf or node left empty is unlinked under it and
 * freed after a grace period; pages are handed back to the store to free.
 */
#ifndef RAMDISK_PAGE_INDEX_H
#define RAMDISK_PAGE_INDEX_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct page;

/* Takes a page out of the index's hands; arg is the caller's. */
typedef void (*rd_index_release_fn)(struct page *page, void *arg);

#define RD_INDEX_LEAF_SHIFT 6
#define RD_INDEX_LEAF_SLOTS (1UL << RD_INDEX_LEAF_SHIFT)
#define RD_INDEX_NODE_SHIFT 9
#define RD_INDEX_NODE_SLOTS (1UL << RD_INDEX_NODE_SHIFT)
/* 6 + 9 * 5 bits of page number: more than MAX_LFS_FILESIZE needs */
#define RD_INDEX_MAX_HEIGHT 5
#define RD_INDEX_NONE ULONG_MAX

struct rd_index_leaf {
	struct page __rcu *pages[RD_INDEX_LEAF_SLOTS];
};

struct rd_index_node {
	/* leaves on the lowest interior level, nodes above it */
	void __rcu *slots[RD_INDEX_NODE_SLOTS];
};

struct rd_page_index {
	void __rcu **root;
	unsigned long root_slots;
	/* a root slot covers 1 << root_shift pages of the device */
	unsigned int root_shift;
	pgoff_t nr_pages;
	int numa_node;
	/* serializes insertion and removal */
	spinlock_t lock;
	/* bytes of root, nodes and leaves */
	atomic_long_t bytes;
};

int rd_index_init(struct rd_page_index *ix, pgoff_t nr_pages, int numa_node);
/* Frees the index and hands every page to release; no reader may remain. */
long rd_index_destroy(struct rd_page_index *ix, rd_index_release_fn release, void *arg);
/*
 * Publishes page at index; -EEXIST when another page holds it, -ENOMEM
 * when a leaf or node cannot be allocated with gfp.
 */
int rd_index_insert(struct rd_page_index *ix, pgoff_t index, struct page *page, gfp_t gfp);
/*
 * Takes the pages first..last out and hands each to release, which must
 * keep it valid for readers until a grace period passes. Returns how many
 * it took. May sleep, unless nowait: then leaves and nodes it empties stay
 * linked (freeing them may wait for RCU), for a later removal or insertion
 * to free or fill.
 */
long rd_index_remove(struct rd_page_index *ix, pgoff_t first, pgoff_t last,
		     rd_index_release_fn release, void *arg, bool nowait);
/*
 * Puts new where old is; -EAGAIN when the slot holds another page (or
 * none) by now. Readers that found old may go on using it.
 */
int rd_index_replace(struct rd_page_index *ix, pgoff_t index, struct page *old, struct page *new);
/*
 * Fills dst, made by rd_index_init() for as many pages as src and empty,
 * with src's pages, handing each to hold as it goes in, and counts them
 * in *copied. Neither may change meanwhile. -ENOMEM, with part of them in
 * dst, when a leaf or node cannot be allocated with gfp.
 */
int rd_index_copy(struct rd_page_index *dst, struct rd_page_index *src,
		  void (*hold)(struct page *page), gfp_t gfp, long *copied);
/* Exchanges the trees of two indexes of one size; no reader may be on either. */
void rd_index_swap(struct rd_page_index *a, struct rd_page_index *b);
/* Under rcu_read_lock(): the first index at or after index holding a page. */
pgoff_t rd_index_find(struct rd_page_index *ix, pgoff_t index);

/* Under rcu_read_lock(): the leaf covering index, NULL when there is none. */
static __always_inline struct rd_index_leaf *rd_index_leaf(struct rd_page_index *ix, pgoff_t index)
{
	unsigned int shift = ix->root_shift;
	void *child;

	if (unlikely(index >= ix->nr_pages))
		return NULL;
	child = rcu_dereference(ix->root[index >> shift]);
	while (child && shift > RD_INDEX_LEAF_SHIFT) {
		struct rd_index_node *node = child;

		shift -= RD_INDEX_NODE_SHIFT;
		child = rcu_dereference(node->slots[(index >> shift) & (RD_INDEX_NODE_SLOTS - 1)]);
	}
	return child;
}

static __always_inline struct page *rd_index_leaf_page(struct rd_index_leaf *leaf, pgoff_t index)
{
	return rcu_dereference(leaf->pages[index & (RD_INDEX_LEAF_SLOTS - 1)]);
}

/* Under rcu_read_lock(): the page at index, NULL when none was written. */
static __always_inline struct page *rd_index_lookup(struct rd_page_index *ix, pgoff_t index)
{
	struct rd_index_leaf *leaf = rd_index_leaf(ix, index);

	return leaf ? rd_index_leaf_page(leaf, index) : NULL;
}

#endif /* RAMDISK_PAGE_INDEX_H */
