// SPDX-License-Identifier: GPL-2.0
/*
 * The submit path: each bio is served in the caller's context (the device
 * is bio-based, no request queue) and handed to the backing store whole,
 * or, for a store that works page by page, split into segments that lie
 * within one page of the device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/percpu.h>

#include "cache.h"
#include "ramdisk.h"
#include "store.h"
#include "throttle.h"

/* A failed page allocation is an I/O error to the file system, not ENOMEM. */
static blk_status_t rd_errno_to_status(int err)
{
	return err == -ENOMEM ? BLK_STS_IOERR : errno_to_blk_status(err);
}

static blk_status_t rd_do_rw(struct rd_store *store, struct bio *bio, bool write)
{
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct bvec_iter iter;
	struct bio_vec bv;
	int err;

	if (store->ops->rw_bio)
		return rd_errno_to_status(
			INDIRECT_CALL_1(store->ops->rw_bio, rd_pages_rw_bio, store, bio));
	bio_for_each_segment(bv, bio, iter) {
		unsigned int off = bv.bv_offset;
		unsigned int left = bv.bv_len;

		while (left) {
			unsigned int len =
				min_t(unsigned int, left, PAGE_SIZE - offset_in_page(pos));

			if (write) {
				err = INDIRECT_CALL_1(store->ops->write, rd_pages_write, store, pos,
						      bv.bv_page, off, len, nowait);
				if (unlikely(err))
					return rd_errno_to_status(err);
			} else {
				INDIRECT_CALL_1(store->ops->read, rd_pages_read, store, pos,
						bv.bv_page, off, len);
			}
			pos += len;
			off += len;
			left -= len;
		}
	}
	return BLK_STS_OK;
}

/*
 * Discard and write-zeroes: zeros read back from a freed page, so freeing
 * is zeroing. A bio that must not wait gets the store's non-sleeping path,
 * and only for a bounded range: the rest is answered -EAGAIN, which sends
 * the caller (io_uring) to retry from a context that may sleep.
 */
static blk_status_t rd_do_discard(struct rd_store *store, struct bio *bio)
{
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	unsigned int bytes = bio->bi_iter.bi_size;

	if (nowait && bytes > RD_NOWAIT_DISCARD_BYTES)
		return BLK_STS_AGAIN;
	store->ops->discard(store, (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT, bytes, nowait);
	return BLK_STS_OK;
}

/*
 * A flush: every write completed before it is durable once it completes.
 * After a power cut that lost completed writes, the next flush reports
 * them: the caller was promised them and must not hear they are durable.
 */
static blk_status_t rd_flush(struct rd_device *rd, struct rd_cache *cache)
{
	int err;

	if (!cache)
		return BLK_STS_OK;
	err = rd_cache_flush(cache);
	if (test_and_clear_bit(RD_LOST_WRITES, &rd->flags) && !err)
		err = -EIO;
	return rd_errno_to_status(err);
}

/*
 * One bio, by operation. cache is rd->cache, passed apart so that the
 * writethrough path, where it is a constant NULL, compiles without the
 * cache's branches.
 */
static __always_inline blk_status_t rd_dispatch(struct rd_device *rd, struct rd_cache *cache,
						struct rd_store *store, struct bio *bio)
{
	unsigned int bytes = bio->bi_iter.bi_size;
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	blk_status_t status = BLK_STS_OK;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		status = rd_do_rw(store, bio, false);
		this_cpu_inc(rd->stats->reads);
		this_cpu_add(rd->stats->read_bytes, bytes);
		break;
	case REQ_OP_WRITE:
		/*
		 * Without a volatile cache every write is durable when it
		 * completes, so a flush or FUA only needs counting. The block
		 * layer strips both while no write cache is advertised.
		 */
		if (bio->bi_opf & (REQ_PREFLUSH | REQ_FUA))
			this_cpu_inc(rd->stats->flushes);
		if (bio->bi_opf & REQ_PREFLUSH) {
			status = rd_flush(rd, cache);
			if (status)
				break;
		}
		if (!bytes)
			break;
		status = rd_do_rw(store, bio, true);
		this_cpu_inc(rd->stats->writes);
		this_cpu_add(rd->stats->write_bytes, bytes);
		if (cache && (bio->bi_opf & REQ_FUA) && !status)
			status = rd_errno_to_status(rd_cache_make_durable(cache, pos, bytes));
		break;
	case REQ_OP_FLUSH:
		this_cpu_inc(rd->stats->flushes);
		status = rd_flush(rd, cache);
		break;
	case REQ_OP_DISCARD:
		status = rd_do_discard(store, bio);
		if (status)
			break;
		this_cpu_inc(rd->stats->discards);
		this_cpu_add(rd->stats->discard_bytes, bytes);
		break;
	case REQ_OP_WRITE_ZEROES:
		status = rd_do_discard(store, bio);
		if (status)
			break;
		this_cpu_inc(rd->stats->write_zeroes);
		this_cpu_add(rd->stats->write_zeroes_bytes, bytes);
		break;
	default:
		status = BLK_STS_NOTSUPP;
		break;
	}
	return status;
}

/*
 * Writeback mode: data goes through the volatile cache, whose mutex and
 * write-back may sleep, so a caller that must not wait is sent to retry
 * from a context that may.
 *
 * A power cut holds power_sem exclusively, so each bio runs wholly before
 * or wholly after it. A bio submitted before a cut that could only run
 * after it was interrupted by the cut: it fails, as a disk never
 * acknowledges a command that power loss cut short.
 */
static blk_status_t rd_submit_bio_cached(struct rd_device *rd, struct bio *bio)
{
	unsigned long power_gen = READ_ONCE(rd->power_gen);
	blk_status_t status;

	down_read(&rd->power_sem);
	if (READ_ONCE(rd->power_gen) != power_gen) {
		this_cpu_inc(rd->stats->cut_errors);
		status = BLK_STS_IOERR;
	} else {
		status = rd_dispatch(rd, rd->cache, rd_cache_store(rd->cache), bio);
	}
	up_read(&rd->power_sem);
	return status;
}

void rd_submit_bio(struct bio *bio)
{
	struct rd_device *rd = bio->bi_bdev->bd_disk->private_data;

	if (likely(!rd->cache)) {
		bio->bi_status = rd_dispatch(rd, NULL, rd->store, bio);
	} else {
		if (bio->bi_opf & REQ_NOWAIT) {
			bio_wouldblock_error(bio);
			return;
		}
		bio->bi_status = rd_submit_bio_cached(rd, bio);
	}
	/* completion comes after power_sem is released: end_io may submit again */
	if (unlikely(READ_ONCE(rd->throttled)))
		rd_throttle_end_bio(rd->throttle, bio);
	else
		bio_endio(bio);
}
