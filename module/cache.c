// SPDX-License-Identifier: GPL-2.0
/*
 * Volatile write cache for writeback mode. Each cached device page keeps
 * a copy of the page and a bitmap of the 512-byte sectors written since
 * they were last made durable, so a power cut loses exactly those sectors
 * and reads see cached sectors over durable ones.
 *
 * The copies are byte-granular: a bio's segments need not be whole sectors
 * (the block layer builds any length the queue's DMA alignment allows, and
 * in-kernel callers such as a SCSI target's iblock backend pass on theirs).
 * A write that covers a sector in part first gives the cache the sector's
 * durable bytes, so a dirty sector is always held whole.
 *
 * One mutex serialises the cache: the durable store's writes may sleep in
 * the allocator, and this mode emulates a disk rather than racing it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "bio_walk.h"
#include "cache.h"
#include "compat.h"
#include "store.h"

#define RD_SECTORS_PER_PAGE (PAGE_SIZE >> SECTOR_SHIFT)

struct rd_cache_page {
	struct page *page;
	DECLARE_BITMAP(dirty, RD_SECTORS_PER_PAGE);
};

struct rd_cache {
	/* base.nr_pages counts the cache pages */
	struct rd_store base;
	struct rd_store *durable;
	struct mutex lock;
	/* device page index -> struct rd_cache_page, under lock */
	struct xarray pages;
	unsigned long max_pages;
	unsigned long dirty_sectors;
	/* where the search for a page to make room starts, so room rotates */
	unsigned long next_victim;
	atomic_long_t power_cuts;
	atomic64_t misdirected_bytes;
	atomic64_t torn_blocks;
};

static struct rd_cache *to_cache(struct rd_store *store)
{
	return container_of(store, struct rd_cache, base);
}

static unsigned int rd_dirty_in(const unsigned long *dirty, unsigned int first, unsigned int end)
{
	unsigned int nr = 0;

	for_each_set_bit_from(first, dirty, end) nr++;
	return nr;
}

static void rd_cache_page_free(struct rd_cache *c, unsigned long index, struct rd_cache_page *cp)
{
	xa_erase(&c->pages, index);
	c->dirty_sectors -= bitmap_weight(cp->dirty, RD_SECTORS_PER_PAGE);
	__free_page(cp->page);
	kfree(cp);
	atomic_long_dec(&c->base.nr_pages);
	atomic_long_dec(&rd_store_total_pages);
}

/* Writes the dirty sectors of one page to the durable store, in runs. */
static int rd_cache_page_writeback(struct rd_cache *c, unsigned long index,
				   struct rd_cache_page *cp, unsigned int first, unsigned int end)
{
	unsigned int start = first, stop;
	int err;

	for_each_set_bitrange_from(start, stop, cp->dirty, end) {
		err = c->durable->ops->write(
			c->durable, ((u64)index << PAGE_SHIFT) + (start << SECTOR_SHIFT), cp->page,
			start << SECTOR_SHIFT, (stop - start) << SECTOR_SHIFT, false);
		if (err)
			return err;
		bitmap_clear(cp->dirty, start, stop - start);
		c->dirty_sectors -= stop - start;
	}
	return 0;
}

/* Makes room for one page by writing another one back, as a disk would. */
static int rd_cache_evict_one(struct rd_cache *c)
{
	struct rd_cache_page *cp;
	unsigned long index = c->next_victim;
	int err;

	cp = xa_find(&c->pages, &index, ULONG_MAX, XA_PRESENT);
	if (!cp) {
		index = 0;
		cp = xa_find(&c->pages, &index, ULONG_MAX, XA_PRESENT);
		if (!cp)
			return 0;
	}
	err = rd_cache_page_writeback(c, index, cp, 0, RD_SECTORS_PER_PAGE);
	if (err)
		return err;
	rd_cache_page_free(c, index, cp);
	c->next_victim = index + 1;
	return 0;
}

static struct rd_cache_page *rd_cache_page_get(struct rd_cache *c, unsigned long index, gfp_t gfp,
					       int *err)
{
	struct rd_cache_page *cp = xa_load(&c->pages, index);

	if (cp) {
		*err = 0;
		return cp;
	}
	if ((unsigned long)atomic_long_read(&c->base.nr_pages) >= c->max_pages) {
		*err = rd_cache_evict_one(c);
		if (*err)
			return NULL;
	}
	*err = -ENOMEM;
	cp = kzalloc(sizeof(*cp), gfp);
	if (!cp)
		return NULL;
	cp->page = alloc_page(gfp | __GFP_NOWARN);
	if (!cp->page)
		goto out_free_cp;
	if (xa_err(xa_store(&c->pages, index, cp, gfp)))
		goto out_free_page;
	atomic_long_inc(&c->base.nr_pages);
	atomic_long_inc(&rd_store_total_pages);
	*err = 0;
	return cp;

out_free_page:
	__free_page(cp->page);
out_free_cp:
	kfree(cp);
	return NULL;
}

static void rd_cache_read(struct rd_store *store, u64 pos, struct page *dst, unsigned int off,
			  unsigned int len)
{
	struct rd_cache *c = to_cache(store);
	unsigned int in_page = offset_in_page(pos);
	unsigned int to = in_page + len;
	unsigned int first = in_page >> SECTOR_SHIFT;
	unsigned int end = DIV_ROUND_UP(to, SECTOR_SIZE);
	unsigned int stop, from, upto;
	struct rd_cache_page *cp;

	mutex_lock(&c->lock);
	c->durable->ops->read(c->durable, pos, dst, off, len);
	cp = xa_load(&c->pages, pos >> PAGE_SHIFT);
	if (cp) {
		/* each run of dirty sectors, clipped to the bytes asked for */
		for_each_set_bitrange_from(first, stop, cp->dirty, end) {
			from = max(first << SECTOR_SHIFT, in_page);
			upto = min(stop << SECTOR_SHIFT, to);
			memcpy_to_page(dst, off + from - in_page, page_address(cp->page) + from,
				       upto - from);
		}
	}
	mutex_unlock(&c->lock);
}

/*
 * Gives a sector that a write is about to cover only in part the bytes it
 * holds now, read from the durable store, unless the cache already holds
 * them (the sector is dirty). A cached sector is then always whole: a
 * flush writes, and a power cut loses, the whole sector, as a disk
 * reads, modifies and writes a sector it is sent less of.
 */
static void rd_cache_fill_sector(struct rd_cache *c, u64 page_pos, struct rd_cache_page *cp,
				 unsigned int sector)
{
	if (test_bit(sector, cp->dirty))
		return;
	c->durable->ops->read(c->durable, page_pos + (sector << SECTOR_SHIFT), cp->page,
			      sector << SECTOR_SHIFT, SECTOR_SIZE);
}

/* rd_submit_bio() refuses REQ_NOWAIT bios of a cached device: nowait is always false here. */
static int rd_cache_write(struct rd_store *store, u64 pos, struct page *src, unsigned int off,
			  unsigned int len, bool nowait)
{
	struct rd_cache *c = to_cache(store);
	unsigned int in_page = offset_in_page(pos);
	unsigned int to = in_page + len;
	u64 page_pos = pos - in_page;
	unsigned int first = in_page >> SECTOR_SHIFT;
	unsigned int end = DIV_ROUND_UP(to, SECTOR_SIZE);
	struct rd_cache_page *cp;
	int err;

	mutex_lock(&c->lock);
	cp = rd_cache_page_get(c, pos >> PAGE_SHIFT, GFP_NOIO, &err);
	if (cp) {
		if (in_page % SECTOR_SIZE)
			rd_cache_fill_sector(c, page_pos, cp, first);
		if (to % SECTOR_SIZE && round_down(to, SECTOR_SIZE) >= in_page)
			rd_cache_fill_sector(c, page_pos, cp, end - 1);
		memcpy_from_page(page_address(cp->page) + in_page, src, off, len);
		c->dirty_sectors += end - first - rd_dirty_in(cp->dirty, first, end);
		bitmap_set(cp->dirty, first, end - first);
	}
	mutex_unlock(&c->lock);
	return err;
}

/* Zeroes the bytes [from, to) of one sector of a cached page if it is dirty. */
static void rd_cache_zero_part(struct rd_cache_page *cp, unsigned int from, unsigned int to)
{
	if (test_bit(from >> SECTOR_SHIFT, cp->dirty))
		memzero_page(cp->page, from, to - from);
}

/*
 * Forgets cached sectors in [pos, pos + len) that are about to be
 * overwritten durably; a dirty sector the range covers in part keeps its
 * other bytes and gets zeros in the covered ones, as the durable store
 * will.
 */
static void rd_cache_forget(struct rd_cache *c, u64 pos, u64 len)
{
	unsigned long index = pos >> PAGE_SHIFT;
	unsigned long last = (pos + len - 1) >> PAGE_SHIFT;
	struct rd_cache_page *cp;

	xa_for_each_range(&c->pages, index, cp, index, last) {
		u64 page_pos = (u64)index << PAGE_SHIFT;
		unsigned int from = max(pos, page_pos) - page_pos;
		unsigned int to = min(pos + len, page_pos + PAGE_SIZE) - page_pos;
		unsigned int first = DIV_ROUND_UP(from, SECTOR_SIZE);
		unsigned int end = to >> SECTOR_SHIFT;

		if (from % SECTOR_SIZE)
			rd_cache_zero_part(cp, from, min(round_up(from, SECTOR_SIZE), to));
		if (to % SECTOR_SIZE && round_down(to, SECTOR_SIZE) >= from)
			rd_cache_zero_part(cp, round_down(to, SECTOR_SIZE), to);
		if (first < end) {
			c->dirty_sectors -= rd_dirty_in(cp->dirty, first, end);
			bitmap_clear(cp->dirty, first, end - first);
		}
		if (bitmap_empty(cp->dirty, RD_SECTORS_PER_PAGE))
			rd_cache_page_free(c, index, cp);
	}
}

/*
 * Discard is durable at once: the cached sectors it covers are dropped.
 * nowait is always false here: a writeback device sends every bio that
 * must not wait back to its caller (rd_submit_bio()).
 */
static int rd_cache_discard(struct rd_store *store, u64 pos, u64 len, bool nowait)
{
	struct rd_cache *c = to_cache(store);
	int err;

	if (!len)
		return 0;
	mutex_lock(&c->lock);
	rd_cache_forget(c, pos, len);
	err = c->durable->ops->discard(c->durable, pos, len, nowait);
	mutex_unlock(&c->lock);
	return err;
}

/*
 * Data a read returns: the durable store's runs and the cached pages, so
 * that a save of a writeback device also copies what is not yet durable.
 * A cached page is reported whole; the reader joins adjacent runs.
 */
static u64 rd_cache_next_extent(struct rd_store *store, u64 pos, u64 *len)
{
	struct rd_cache *c = to_cache(store);
	unsigned long index = pos >> PAGE_SHIFT;
	u64 durable_start, durable_len = 0, cached_start = RD_STORE_NO_EXTENT;

	mutex_lock(&c->lock);
	durable_start = c->durable->ops->next_extent(c->durable, pos, &durable_len);
	if (xa_find(&c->pages, &index, ULONG_MAX, XA_PRESENT))
		cached_start = (u64)index << PAGE_SHIFT;
	mutex_unlock(&c->lock);

	if (durable_start <= cached_start) {
		*len = durable_len;
		return durable_start;
	}
	*len = PAGE_SIZE;
	return cached_start;
}

static int rd_cache_make_durable_locked(struct rd_cache *c, u64 pos, u64 len)
{
	unsigned long index = pos >> PAGE_SHIFT;
	unsigned long last;
	struct rd_cache_page *cp;
	int err = 0;

	if (!len)
		return 0;
	last = (pos + len - 1) >> PAGE_SHIFT;
	xa_for_each_range(&c->pages, index, cp, index, last) {
		u64 page_pos = (u64)index << PAGE_SHIFT;
		u64 from = max(pos, page_pos);
		u64 to = min(pos + len, page_pos + PAGE_SIZE);

		/* a sector the range covers in part is cached whole: write it whole */
		err = rd_cache_page_writeback(c, index, cp, (from - page_pos) >> SECTOR_SHIFT,
					      DIV_ROUND_UP(to - page_pos, SECTOR_SIZE));
		if (err)
			break;
		if (bitmap_empty(cp->dirty, RD_SECTORS_PER_PAGE))
			rd_cache_page_free(c, index, cp);
	}
	return err;
}

static int rd_cache_make_durable(struct rd_cache *c, u64 pos, u64 len)
{
	int err;

	mutex_lock(&c->lock);
	err = rd_cache_make_durable_locked(c, pos, len);
	mutex_unlock(&c->lock);
	return err;
}

/*
 * An atomic write (REQ_ATOMIC) goes whole or not at all. Through the
 * cache a page at a time, a failure part-way (no room, a failed eviction)
 * would leave its first pages cached and the rest not: torn. io.c makes
 * an atomic write durable before it completes anyway, so it goes straight
 * to the durable store, whose own atomic write allocates everything before
 * it copies (rd_pages_rw_bio()) or cannot fail (reserved memory). The
 * sectors of the range the cache holds go down first, so that none of
 * them hides the new data from a read after; if that fails, the atomic
 * write has not begun.
 */
static int rd_cache_write_atomic(struct rd_cache *c, struct bio *bio)
{
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct rd_store *durable = c->durable;
	struct rd_bio_walk walk;
	struct rd_seg seg;
	int err;

	mutex_lock(&c->lock);
	err = rd_cache_make_durable_locked(c, pos, bio->bi_iter.bi_size);
	if (err)
		goto out_unlock;
	if (durable->ops->rw_bio) {
		err = durable->ops->rw_bio(durable, bio);
		goto out_unlock;
	}
	rd_bio_walk_start(&walk, bio);
	while (!err && rd_bio_walk_next(&walk, &seg))
		err = durable->ops->write(durable, seg.pos, seg.page, seg.off, seg.len, false);
out_unlock:
	mutex_unlock(&c->lock);
	return err;
}

/*
 * The cache's bios: an atomic write on its own path, every other read or
 * write a page at a time, as io.c walks a store without rw_bio.
 */
static int rd_cache_rw_bio(struct rd_store *store, struct bio *bio)
{
	bool write = op_is_write(bio_op(bio));
	struct rd_bio_walk walk;
	struct rd_seg seg;
	int err;

	if (write && rd_compat_bio_atomic(bio))
		return rd_cache_write_atomic(to_cache(store), bio);
	rd_bio_walk_start(&walk, bio);
	while (rd_bio_walk_next(&walk, &seg)) {
		if (!write) {
			rd_cache_read(store, seg.pos, seg.page, seg.off, seg.len);
			continue;
		}
		err = rd_cache_write(store, seg.pos, seg.page, seg.off, seg.len, false);
		if (err)
			return err;
	}
	return 0;
}

int rd_cache_flush(struct rd_cache *c)
{
	struct rd_cache_page *cp;
	unsigned long index;
	int err = 0;

	mutex_lock(&c->lock);
	xa_for_each(&c->pages, index, cp) {
		err = rd_cache_page_writeback(c, index, cp, 0, RD_SECTORS_PER_PAGE);
		if (err)
			break;
		rd_cache_page_free(c, index, cp);
		cond_resched();
	}
	mutex_unlock(&c->lock);
	return err;
}

static int rd_cache_store_flush(struct rd_store *store)
{
	return rd_cache_flush(to_cache(store));
}

static int rd_cache_store_make_durable(struct rd_store *store, u64 pos, u64 len)
{
	return rd_cache_make_durable(to_cache(store), pos, len);
}

static const struct rd_store_ops rd_cache_ops = {
	.read = rd_cache_read,
	.rw_bio = rd_cache_rw_bio,
	.write = rd_cache_write,
	.discard = rd_cache_discard,
	.next_extent = rd_cache_next_extent,
	.flush = rd_cache_store_flush,
	.make_durable = rd_cache_store_make_durable,
};

/*
 * A unit the cut does not keep in place, under the misdirected
 * personality: its dirty sectors reach the medium at the same offsets in
 * another unit of the device, drawn from the cut's PRNG, as from a drive
 * whose mapping lost its last updates at power loss and wrote the data
 * where it pointed then. The sectors stay dirty here: at their own
 * address they are lost, and the cut frees them with the rest. A device
 * of one unit has no other address, and a write the durable store
 * refuses (mem_limit) is lost only.
 */
static void rd_cache_misdirect(struct rd_cache *c, unsigned long index, struct rd_cache_page *cp,
			       unsigned int first, unsigned int end, const struct rd_cut *cut,
			       struct rnd_state *rnd)
{
	unsigned int unit = end - first, start = first, stop;
	u64 units = div_u64(cut->nr_sectors, unit);
	u64 own = div_u64(((u64)index << (PAGE_SHIFT - SECTOR_SHIFT)) + first, unit);
	u64 draw, to;

	if (units < 2)
		return;
	draw = ((u64)prandom_u32_state(rnd) << 32) | prandom_u32_state(rnd);
	div64_u64_rem(draw, units - 1, &to);
	if (to >= own)
		to++;
	for_each_set_bitrange_from(start, stop, cp->dirty, end) {
		u64 pos = (to * unit + start - first) << SECTOR_SHIFT;
		unsigned int len = (stop - start) << SECTOR_SHIFT;

		if (c->durable->ops->write(c->durable, pos, cp->page, start << SECTOR_SHIFT, len,
					   false))
			return;
		atomic64_add(len, &c->misdirected_bytes);
	}
}

/*
 * One unit of the cut, sectors first to end of a cached page: kept in
 * place on the draw below drop_percent, else lost, or misdirected.
 */
static void rd_cache_cut_unit(struct rd_cache *c, unsigned long index, struct rd_cache_page *cp,
			      unsigned int first, unsigned int end, const struct rd_cut *cut,
			      struct rnd_state *rnd)
{
	if (cut->drop_percent < 100 && prandom_u32_state(rnd) % 100 >= cut->drop_percent)
		rd_cache_page_writeback(c, index, cp, first, end);
	else if (cut->misdirect)
		rd_cache_misdirect(c, index, cp, first, end, cut, rnd);
}

/*
 * Under torn-media-error: the same draws as rd_cache_cut_blocks(), in the
 * same order, but a physical block is written back only once all of its
 * logical blocks are drawn. One the draws split is torn: a disk that
 * writes a physical block whole and lost power in the middle of one
 * leaves a block whose ECC no longer matches. Its kept blocks still reach
 * the medium (a write that heals part of it reads them back); if the
 * tear cannot be recorded (cut->torn() false) none of it does, and the
 * whole block is lost, which a disk may also do.
 */
static void rd_cache_cut_tearing(struct rd_cache *c, unsigned long index, struct rd_cache_page *cp,
				 const struct rd_cut *cut, struct rnd_state *rnd)
{
	sector_t page_sector = (sector_t)index << (PAGE_SHIFT - SECTOR_SHIFT);
	unsigned int step = cut->block_size >> SECTOR_SHIFT;
	unsigned int phys = cut->physical_block_size >> SECTOR_SHIFT;
	DECLARE_BITMAP(kept, RD_SECTORS_PER_PAGE);
	unsigned int p, first;

	for (p = 0; p < RD_SECTORS_PER_PAGE; p += phys) {
		bool some_kept = false, some_lost = false;

		bitmap_zero(kept, RD_SECTORS_PER_PAGE);
		for (first = p; first < p + phys; first += step) {
			if (!rd_dirty_in(cp->dirty, first, first + step))
				continue;
			if (prandom_u32_state(rnd) % 100 >= cut->drop_percent) {
				__set_bit(first, kept);
				some_kept = true;
			} else {
				some_lost = true;
			}
		}
		if (some_kept && some_lost) {
			if (!cut->torn(cut->torn_arg, page_sector + p, phys))
				continue;
			atomic64_inc(&c->torn_blocks);
		}
		for_each_set_bit(first, kept, RD_SECTORS_PER_PAGE)
			rd_cache_page_writeback(c, index, cp, first, first + step);
	}
}

/*
 * Each logical block of one page that holds dirty sectors is kept or lost
 * on a draw of its own, so a write of several blocks can come back torn,
 * as from a disk that lost power with part of it on the medium; never
 * inside a block, which a disk writes whole.
 */
static void rd_cache_cut_blocks(struct rd_cache *c, unsigned long index, struct rd_cache_page *cp,
				const struct rd_cut *cut, struct rnd_state *rnd)
{
	unsigned int step = cut->block_size >> SECTOR_SHIFT;
	unsigned int first;

	if (cut->torn) {
		rd_cache_cut_tearing(c, index, cp, cut, rnd);
		return;
	}
	for (first = 0; first < RD_SECTORS_PER_PAGE; first += step)
		if (rd_dirty_in(cp->dirty, first, first + step))
			rd_cache_cut_unit(c, index, cp, first, first + step, cut, rnd);
}

/* Tells cut->lost of each run of sectors of one page the cut loses. */
static void rd_cache_report_lost(unsigned long index, struct rd_cache_page *cp,
				 const struct rd_cut *cut)
{
	sector_t page_sector = (sector_t)index << (PAGE_SHIFT - SECTOR_SHIFT);
	unsigned int start = 0, stop;

	for_each_set_bitrange_from(start, stop, cp->dirty, RD_SECTORS_PER_PAGE)
		cut->lost(cut->lost_arg, page_sector + start, stop - start);
}

/*
 * Loses the cached writes. With drop_percent below 100 each cached page
 * (RD_CUT_PAGE) or each logical block holding dirty sectors
 * (RD_CUT_SECTOR) is lost or kept, by a PRNG seeded from the seed and the
 * number of earlier cuts, so a test can replay the same loss; under the
 * misdirected personality what is not kept lands elsewhere, by the same
 * PRNG (rd_cache_misdirect()). Returns the bytes of completed writes that
 * were lost at their own address. What cannot be kept is lost, as it
 * would be anyway.
 */
u64 rd_cache_power_cut(struct rd_cache *c, const struct rd_cut *cut)
{
	struct rnd_state rnd;
	struct rd_cache_page *cp;
	unsigned long index;
	u64 lost = 0;

	mutex_lock(&c->lock);
	prandom_seed_state(&rnd, cut->seed + atomic_long_read(&c->power_cuts));
	xa_for_each(&c->pages, index, cp) {
		/* at 100% and nothing misdirected everything goes, with no draw */
		if (cut->drop_percent < 100 || cut->misdirect) {
			if (cut->unit == RD_CUT_SECTOR)
				rd_cache_cut_blocks(c, index, cp, cut, &rnd);
			else
				rd_cache_cut_unit(c, index, cp, 0, RD_SECTORS_PER_PAGE, cut, &rnd);
		}
		lost += (u64)bitmap_weight(cp->dirty, RD_SECTORS_PER_PAGE) << SECTOR_SHIFT;
		if (cut->lost)
			rd_cache_report_lost(index, cp, cut);
		rd_cache_page_free(c, index, cp);
		cond_resched();
	}
	atomic_long_inc(&c->power_cuts);
	mutex_unlock(&c->lock);
	return lost;
}

struct rd_cache *rd_cache_create(struct rd_store *durable, u64 cache_size)
{
	struct rd_cache *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->base.ops = &rd_cache_ops;
	atomic_long_set(&c->base.nr_pages, 0);
	atomic_long_set(&c->base.alloc_failures, 0);
	c->durable = durable;
	mutex_init(&c->lock);
	xa_init(&c->pages);
	c->max_pages = max_t(u64, cache_size >> PAGE_SHIFT, 1);
	atomic_long_set(&c->power_cuts, 0);
	atomic64_set(&c->misdirected_bytes, 0);
	atomic64_set(&c->torn_blocks, 0);
	return c;
}

static void rd_cache_drop_locked(struct rd_cache *c)
{
	struct rd_cache_page *cp;
	unsigned long index;

	xa_for_each(&c->pages, index, cp) {
		rd_cache_page_free(c, index, cp);
		cond_resched();
	}
}

void rd_cache_drop(struct rd_cache *c)
{
	mutex_lock(&c->lock);
	rd_cache_drop_locked(c);
	mutex_unlock(&c->lock);
}

/* Called once no I/O can reach the device; unflushed data is dropped. */
void rd_cache_destroy(struct rd_cache *c)
{
	rd_cache_drop_locked(c);
	xa_destroy(&c->pages);
	mutex_destroy(&c->lock);
	kfree(c);
}

struct rd_store *rd_cache_store(struct rd_cache *c)
{
	return &c->base;
}

long rd_cache_pages(struct rd_cache *c)
{
	return c ? atomic_long_read(&c->base.nr_pages) : 0;
}

u64 rd_cache_dirty_bytes(struct rd_cache *c)
{
	return c ? (u64)READ_ONCE(c->dirty_sectors) << SECTOR_SHIFT : 0;
}

long rd_cache_power_cuts(struct rd_cache *c)
{
	return c ? atomic_long_read(&c->power_cuts) : 0;
}

u64 rd_cache_misdirected_bytes(struct rd_cache *c)
{
	return c ? atomic64_read(&c->misdirected_bytes) : 0;
}

u64 rd_cache_torn_blocks(struct rd_cache *c)
{
	return c ? atomic64_read(&c->torn_blocks) : 0;
}
