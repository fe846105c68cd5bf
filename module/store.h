/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stores of one device, behind a small table of operations, so that
 * the I/O path (io.c) serves every backing and every layer alike.
 *
 * Stores stack. At the bottom is the durable store: the sparse pages
 * (store_pages.c) or a reserved physical range (store_phys.c). A layer is
 * a store that serves an operation itself or passes it to the store below,
 * which it holds: the write cache (cache.c) keeps writes until a flush,
 * a FUA write or lack of room passes them down. io.c calls only the top
 * store and knows the contract (statistics, PREFLUSH before data, FUA
 * after it), not the layers. The cache is the only layer of this shape.
 * The zones, the bad blocks and the fault schedule sit above it, as a
 * disk judges a command before caching it, but as checks in io.c around
 * the dispatch rather than stores: their answer is a status or a partial
 * transfer decided before the data moves, and they must cost nothing
 * while unused (Documentation/design.md, "The fault layer" and "Zones").
 *
 * Every operation works on a range that lies inside one PAGE_SIZE page of
 * the device, except discard and make_durable, which take any range, and
 * rw_bio, which takes a whole bio (and walks it with bio_walk.h).
 */
#ifndef RAMDISK_STORE_H
#define RAMDISK_STORE_H

#include <linux/atomic.h>
#include <linux/limits.h>
#include <linux/types.h>

struct bio;
struct page;
struct rd_config;
struct rd_store;
struct rd_store_checkpoint;

#define RD_STORE_NO_EXTENT U64_MAX
/*
 * The most a discard that must not wait (REQ_NOWAIT) may cover: its work
 * grows with the range (reserved memory is zeroed byte by byte), so the
 * submit path answers a larger one -EAGAIN and the caller retries from a
 * context that may sleep.
 */
#define RD_NOWAIT_DISCARD_BYTES (1U << 20)
/* A reserved range starts with a header page; the data follows it. */
#define RD_PHYS_HEADER_BYTES 4096
/*
 * A zoned device's write pointers live in the header page too, one 32-bit
 * word a zone after the header and the zone geometry: at most this many
 * zones in reserved memory.
 */
#define RD_PHYS_ZONES_MAX 896

struct rd_store_ops {
	/* copy len bytes at byte offset pos of the device into page+off */
	void (*read)(struct rd_store *store, u64 pos, struct page *page, unsigned int off,
		     unsigned int len);
	/*
	 * optional: the whole of a read or write bio, where a store does
	 * better than page by page; returns as write does. A store whose
	 * write can fail part-way has one, to do an atomic write
	 * (REQ_ATOMIC) whole or not at all: it fails before changing a byte
	 */
	int (*rw_bio)(struct rd_store *store, struct bio *bio);
	/*
	 * copy page+off into the device; 0, -ENOSPC (mem_limit), -ENOMEM
	 * (allocation failed) or -EAGAIN (nowait and memory is needed)
	 */
	int (*write)(struct rd_store *store, u64 pos, struct page *page, unsigned int off,
		     unsigned int len, bool nowait);
	/*
	 * make [pos, pos + len) read as zeros, freeing whole pages; with
	 * nowait it must not sleep, and the caller keeps the range within
	 * RD_NOWAIT_DISCARD_BYTES. 0, or as write when part of a page that a
	 * checkpoint shares must be copied to be zeroed
	 */
	int (*discard)(struct rd_store *store, u64 pos, u64 len, bool nowait);
	/*
	 * the first byte at or after pos that holds data, with the length of
	 * the run of data there in *len; RD_STORE_NO_EXTENT when none
	 */
	u64 (*next_extent)(struct rd_store *store, u64 pos, u64 *len);
	/*
	 * frees the store; the device calls it for the durable store only (the
	 * write cache's store is freed with the cache, rd_cache_destroy())
	 */
	void (*destroy)(struct rd_store *store);
	/*
	 * optional, for a layer that holds writes: flush makes every
	 * completed write durable, make_durable those in [pos, pos + len)
	 * (FUA); 0 or the errno of the store below
	 */
	int (*flush)(struct rd_store *store);
	int (*make_durable)(struct rd_store *store, u64 pos, u64 len);
	/* optional: limit_bytes changed */
	void (*tune)(struct rd_store *store);
	/* optional: pages to allocate ahead of first writes (spare_pages.h), and how many are now */
	void (*set_spares)(struct rd_store *store, unsigned int target);
	unsigned int (*spares)(struct rd_store *store);
	/* optional: bytes the store spends on finding its pages */
	long (*index_bytes)(struct rd_store *store);
	/*
	 * optional, checkpoints (checkpoint.c): the store's data now, shared
	 * until either side changes it, or an ERR_PTR; the store's data made
	 * the checkpoint's again; a checkpoint let go. The caller has stopped
	 * the device's I/O for checkpoint and rollback.
	 */
	struct rd_store_checkpoint *(*checkpoint)(struct rd_store *store);
	int (*rollback)(struct rd_store *store, struct rd_store_checkpoint *ck);
	void (*checkpoint_free)(struct rd_store *store, struct rd_store_checkpoint *ck);
	/* the pages the checkpoint holds, and those that only it holds */
	void (*checkpoint_usage)(struct rd_store *store, struct rd_store_checkpoint *ck,
				 long *pages, long *own);
	/* pages that only checkpoints hold, on top of those the device reads */
	long (*checkpoint_pages)(struct rd_store *store);
	/*
	 * optional, clones (checkpoint.c): a new store whose data is the
	 * checkpoint's, sharing its pages until the new store changes them,
	 * or an ERR_PTR. The checkpoint must outlive the new store.
	 */
	struct rd_store *(*clone)(struct rd_store *store, struct rd_store_checkpoint *ck,
				  int numa_node);
};

struct rd_store {
	const struct rd_store_ops *ops;
	/* pages holding data now, the device's and its checkpoints' */
	atomic_long_t nr_pages;
	/* allocations refused by mem_limit or failed in the allocator */
	atomic_long_t alloc_failures;
	/* bytes, 0 = unlimited; read without a lock, may change in use */
	u64 limit_bytes;
};

struct rd_store *rd_store_pages_create(u64 size, int numa_node);
/* Attaches a reserved physical range; an ERR_PTR, logged, when refused. */
struct rd_store *rd_store_phys_create(const struct rd_config *cfg, const char *who);
bool rd_store_is_phys(const struct rd_store *store);
/* "phys ADDR SIZE UUID\n" for the sysfs backing file */
int rd_store_phys_describe(const struct rd_store *store, char *buf, size_t len);
/*
 * A zoned device's word a zone in the header page (zones.c reads and
 * writes them), *unclean set when the last detach was not orderly; NULL
 * for a store that keeps none.
 */
__le32 *rd_store_phys_zone_words(struct rd_store *store, bool *unclean);

/*
 * The page store's bio operation, named so the I/O path can call it
 * directly (INDIRECT_CALL_1) instead of through a retpoline.
 */
int rd_pages_rw_bio(struct rd_store *store, struct bio *bio);

/*
 * Page sharing in the page store: on from before the first page of a
 * checkpoint is shared until after its last is let go. The write path
 * looks at a page's holders only while it is on. Not while the device's
 * queue is frozen: it takes the CPU hotplug lock.
 */
void rd_pages_sharing_get(void);
void rd_pages_sharing_put(void);

/* pages held by all stores of the module */
extern atomic_long_t rd_store_total_pages;

static inline void rd_store_set_limit(struct rd_store *store, u64 bytes)
{
	WRITE_ONCE(store->limit_bytes, bytes);
	if (store->ops->tune)
		store->ops->tune(store);
}

static inline void rd_store_set_spares(struct rd_store *store, unsigned int pages)
{
	if (store->ops->set_spares)
		store->ops->set_spares(store, pages);
}

static inline unsigned int rd_store_spares(struct rd_store *store)
{
	return store->ops->spares ? store->ops->spares(store) : 0;
}

static inline u64 rd_store_limit_bytes(const struct rd_store *store)
{
	return READ_ONCE(store->limit_bytes);
}

#endif /* RAMDISK_STORE_H */
