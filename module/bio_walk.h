/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one walk over the data of a read or write bio. Each step yields the
 * part of the current bio_vec that lies within one page of memory and one
 * page of the device, so a store looks up one of its pages and copies with
 * one call. Positions are bytes, not sectors: a segment need not be whole
 * sectors (see cache.c), and a walk in sectors would lose the remainder.
 *
 * The walk advances its own copy of bi_iter: the bio stays as submitted
 * for the statistics and the FUA that follow it.
 */
#ifndef RAMDISK_BIO_WALK_H
#define RAMDISK_BIO_WALK_H

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/minmax.h>
#include <linux/mm.h>

/* One step of a walk: len bytes at page+off go to (or come from) byte pos of the device. */
struct rd_seg {
	struct page *page;
	unsigned int off;
	unsigned int len;
	u64 pos;
};

struct rd_bio_walk {
	struct bio *bio;
	struct bvec_iter iter;
	u64 pos;
};

static __always_inline void rd_bio_walk_start(struct rd_bio_walk *walk, struct bio *bio)
{
	walk->bio = bio;
	walk->iter = bio->bi_iter;
	walk->pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
}

/* Fills seg with the next step; false when the bio's data is all walked. */
static __always_inline bool rd_bio_walk_next(struct rd_bio_walk *walk, struct rd_seg *seg)
{
	struct bio_vec bv;

	if (!walk->iter.bi_size)
		return false;
	/* one page of memory at most, as bio_for_each_segment() yields */
	bv = bio_iter_iovec(walk->bio, walk->iter);
	seg->page = bv.bv_page;
	seg->off = bv.bv_offset;
	seg->pos = walk->pos;
	seg->len = min_t(unsigned int, bv.bv_len, PAGE_SIZE - offset_in_page(walk->pos));
	bio_advance_iter_single(walk->bio, &walk->iter, seg->len);
	walk->pos += seg->len;
	return true;
}

#endif /* RAMDISK_BIO_WALK_H */
