/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The volatile write cache of a device in writeback mode: completed writes
 * live here until a flush, a FUA write or lack of room makes them durable,
 * and a power cut loses what is still here.
 */
#ifndef RAMDISK_CACHE_H
#define RAMDISK_CACHE_H

#include <linux/types.h>

struct rd_cache;
struct rd_store;

/* What a power cut below 100% keeps or loses on one draw. */
enum rd_cut_unit {
	RD_CUT_PAGE, /* a cached page, whole */
	RD_CUT_SECTOR, /* each logical block (sector): writes come back torn */
};

struct rd_cut {
	unsigned int drop_percent; /* share of the units lost */
	u64 seed;
	enum rd_cut_unit unit;
	unsigned int block_size; /* the device's logical block, at most a page */
	/*
	 * power_cut_personality misdirected: a unit the cut does not keep in
	 * place reaches the medium at another unit of the device's
	 * nr_sectors instead of vanishing
	 */
	bool misdirect;
	u64 nr_sectors;
	/*
	 * power_cut_personality torn-media-error: with RD_CUT_SECTOR, a
	 * physical block (at most a page) whose logical blocks the draws
	 * split, some kept and some lost, is torn: torn() is told of it and
	 * returns whether it recorded it; one it cannot record is lost whole.
	 */
	bool (*torn)(void *arg, sector_t sector, unsigned int nr);
	void *torn_arg;
	unsigned int physical_block_size;
	/*
	 * If set, told of each run of sectors the cut loses, before the cut
	 * returns: a zoned device moves its write pointers back by them.
	 */
	void (*lost)(void *arg, sector_t sector, unsigned int nr);
	void *lost_arg;
};

struct rd_cache *rd_cache_create(struct rd_store *durable, u64 cache_size);
void rd_cache_destroy(struct rd_cache *cache);
/* the store the I/O path reads and writes through while the cache exists */
struct rd_store *rd_cache_store(struct rd_cache *cache);
/* 0 or the durable store's errno; the I/O path reaches it as the store's flush */
int rd_cache_flush(struct rd_cache *cache);
/* the bytes of completed writes the cut lost */
u64 rd_cache_power_cut(struct rd_cache *cache, const struct rd_cut *cut);
/* forgets every cached write, counting no cut: a rollback supersedes them */
void rd_cache_drop(struct rd_cache *cache);
long rd_cache_pages(struct rd_cache *cache);
u64 rd_cache_dirty_bytes(struct rd_cache *cache);
long rd_cache_power_cuts(struct rd_cache *cache);
/* the bytes of cached writes that cuts wrote at another address (misdirected) */
u64 rd_cache_misdirected_bytes(struct rd_cache *cache);
/* the physical blocks that cuts tore and recorded as bad (torn-media-error) */
u64 rd_cache_torn_blocks(struct rd_cache *cache);

#endif /* RAMDISK_CACHE_H */
