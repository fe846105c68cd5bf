// SPDX-License-Identifier: GPL-2.0
/*
 * The submit path: each bio is served in the caller's context (the device
 * is bio-based, no request queue), by one function per operation, on the
 * top store of the device's stack (store.h): the write cache in writeback
 * mode, else the durable store. The functions know the statistics and the
 * flush and FUA contract; the stores know where the bytes live.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/percpu.h>

#include "badblocks.h"
#include "bio_walk.h"
#include "compat.h"
#include "fault.h"
#include "fault_schedule.h"
#include "ramdisk.h"
#include "store.h"
#include "test_hooks.h"
#include "throttle.h"
#include "write_log.h"
#include "zones.h"

/*
 * Ends a bio's own part with status, keeping an error already there: a
 * bio that others were chained to (bio_chain(), as BLKDISCARD splits a
 * range) carries their first error in bi_status, put there when they
 * ended, maybe before this one was even submitted. Writing our success
 * over it lost that error: an unaligned discard whose head could not be
 * zeroed (a shared page at mem_limit) reported the whole range done.
 */
static __always_inline void rd_bio_set_status(struct bio *bio, blk_status_t status)
{
	if (unlikely(status))
		bio->bi_status = status;
}

/* A failed page allocation is an I/O error to the file system, not ENOMEM. */
static blk_status_t rd_errno_to_status(int err)
{
	return err == -ENOMEM ? BLK_STS_IOERR : errno_to_blk_status(err);
}

/*
 * Read or write a bio's data: whole, where the store takes bios, else by
 * the one walk (bio_walk.h), a page at a time.
 */
static blk_status_t rd_rw(struct rd_store *store, struct bio *bio, bool write)
{
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	struct rd_bio_walk walk;
	struct rd_seg seg;
	int err;

	if (store->ops->rw_bio)
		return rd_errno_to_status(
			INDIRECT_CALL_1(store->ops->rw_bio, rd_pages_rw_bio, store, bio));
	rd_bio_walk_start(&walk, bio);
	while (rd_bio_walk_next(&walk, &seg)) {
		if (!write) {
			store->ops->read(store, seg.pos, seg.page, seg.off, seg.len);
			continue;
		}
		err = store->ops->write(store, seg.pos, seg.page, seg.off, seg.len, nowait);
		if (unlikely(err))
			return rd_errno_to_status(err);
	}
	return BLK_STS_OK;
}

/*
 * The bad-block layer, above every store (see badblocks.c): out of line, and
 * reached only while some device in the module has bad blocks
 * (rd_bb_maybe_active()); a device without any of its own is served here
 * as on the common path.
 *
 * A bio that meets a bad sector moves the whole logical blocks before it
 * and fails; nothing at or after that sector is read or written. The good
 * part is done in place, on this same bio with its size cut for the call
 * and restored after, rather than with bio_split() and bio_chain(): a
 * bio-based driver serves the bio in the submitter's context, so there is
 * nothing to queue; a split would allocate from a bio_set, which may
 * sleep or, under REQ_NOWAIT, fail; and the submitter learns one status
 * for the whole bio either way, as the block layer reports a bio-based
 * device's bios whole. The bio stays as submitted for the statistics, the
 * throttle's bandwidth and the completion. An atomic write (REQ_ATOMIC)
 * that meets a bad sector moves nothing, as a disk fails such a command
 * whole.
 */
static noinline blk_status_t rd_rw_badblocks(struct rd_device *rd, struct rd_store *store,
					     struct bio *bio, bool write)
{
	struct rd_badblocks *bb = rd->badblocks;
	unsigned int whole = bio->bi_iter.bi_size;
	blk_status_t fault, status;
	unsigned int good;

	if (!bb || !rd_bb_count(bb))
		return rd_rw(store, bio, write);
	fault = rd_bb_check(bb, bio, write, &good);
	/* an atomic write that cannot be done whole is not done at all */
	if (fault && write && rd_compat_bio_atomic(bio))
		good = 0;
	if (!fault) {
		status = rd_rw(store, bio, write);
		/* a disk remaps a sector it could not read once it is rewritten */
		if (write && !status)
			rd_bb_written(bb, bio);
		return status;
	}
	if (write)
		this_cpu_inc(rd->stats->badblock_write_errors);
	else
		this_cpu_inc(rd->stats->badblock_read_errors);
	if (good) {
		bio->bi_iter.bi_size = good;
		status = rd_rw(store, bio, write);
		bio->bi_iter.bi_size = whole;
		if (status)
			return status;
	}
	return fault;
}

/*
 * Whether the bio may meet bad blocks: a patched-out jump while no device in
 * the module has any. The test of the device's own list is left to
 * rd_rw_badblocks(): made here, its call would keep the store and the bio
 * in saved registers across it on the path of every read (issue 24).
 */
static __always_inline bool rd_bb_maybe_active(void)
{
	return static_branch_unlikely(&rd_bb_in_use);
}

/* FUA on a write, unless the device lies about it (lying-flush) */
static __always_inline bool rd_fua_honoured(const struct rd_device *rd, const struct bio *bio)
{
	return (bio->bi_opf & REQ_FUA) && !READ_ONCE(rd->lying_flush);
}

/*
 * A flush: every write completed before it is durable once it completes.
 * Only a store with a volatile layer has anything to do, and nothing is
 * done by a device that lies about it (lying-flush), as a drive that
 * acknowledges FLUSH CACHE and ignores it. After a power cut that lost
 * completed writes, the next flush reports them, lying or not: the caller
 * was promised them and must not hear they are durable.
 */
static blk_status_t rd_flush(struct rd_device *rd, struct rd_store *store)
{
	int err = 0;

	if (!store->ops->flush)
		return BLK_STS_OK;
	if (!READ_ONCE(rd->lying_flush))
		err = store->ops->flush(store);
	if (test_and_clear_bit(RD_LOST_WRITES, &rd->flags) && !err)
		err = -EIO;
	return rd_errno_to_status(err);
}

static blk_status_t rd_op_read(struct rd_device *rd, struct rd_store *store, struct bio *bio)
{
	unsigned int bytes = bio->bi_iter.bi_size;
	blk_status_t status;

	if (rd_bb_maybe_active())
		status = rd_rw_badblocks(rd, store, bio, false);
	else
		status = rd_rw(store, bio, false);
	this_cpu_inc(rd->stats->reads);
	this_cpu_add(rd->stats->read_bytes, bytes);
	return status;
}

/*
 * Whether an atomic write keeps to the device's limits: whole units, at
 * most the largest, aligned to the smallest, within one boundary window.
 * The block layer checks the size of a REQ_ATOMIC bio before a bio-based
 * driver sees it and the file paths check its alignment, but an in-kernel
 * submitter may still send one that breaks them; a disk refuses such a
 * command rather than write it in pieces.
 */
static bool rd_atomic_write_fits(const struct rd_device *rd, u64 pos, unsigned int bytes)
{
	u64 last = pos + bytes - 1;

	/* the limits are powers of two (rd_config_validate()) */
	if (!rd->atomic_unit_max || !bytes || bytes > rd->atomic_unit_max ||
	    (bytes & (rd->atomic_unit_min - 1)) || (pos & (rd->atomic_unit_min - 1)))
		return false;
	return !rd->atomic_boundary || !((pos ^ last) & ~(u64)(rd->atomic_boundary - 1));
}

/*
 * A write, with its flush before (REQ_PREFLUSH) and its data made durable
 * after (REQ_FUA). Without a volatile layer every write is durable when it
 * completes, so both only count; the block layer strips them anyway while
 * no write cache is advertised.
 *
 * An atomic write (REQ_ATOMIC) is made durable like a FUA write, before
 * the bio lets go of power_sem: a power cut then falls wholly before it
 * (the bio fails, nothing written) or wholly after (all of it durable),
 * so no cut tears it. A disk may make data durable whenever it likes, so
 * this changes nothing else a caller may observe.
 */
static blk_status_t rd_op_write(struct rd_device *rd, struct rd_store *store, struct bio *bio)
{
	unsigned int bytes = bio->bi_iter.bi_size;
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	bool atomic = rd_compat_bio_atomic(bio);
	blk_status_t status;

	if (unlikely(atomic) && !rd_atomic_write_fits(rd, pos, bytes))
		return RD_COMPAT_STS_INVAL;

	if (bio->bi_opf & (REQ_PREFLUSH | REQ_FUA))
		this_cpu_inc(rd->stats->flushes);
	if (bio->bi_opf & REQ_PREFLUSH) {
		status = rd_flush(rd, store);
		if (status)
			return status;
	}
	if (!bytes)
		return BLK_STS_OK;
	if (rd_bb_maybe_active())
		status = rd_rw_badblocks(rd, store, bio, true);
	else
		status = rd_rw(store, bio, true);
	this_cpu_inc(rd->stats->writes);
	this_cpu_add(rd->stats->write_bytes, bytes);
	if (!status && (rd_fua_honoured(rd, bio) || atomic) && store->ops->make_durable)
		status = rd_errno_to_status(store->ops->make_durable(store, pos, bytes));
	return status;
}

static blk_status_t rd_op_flush(struct rd_device *rd, struct rd_store *store)
{
	this_cpu_inc(rd->stats->flushes);
	return rd_flush(rd, store);
}

/*
 * Discard and write-zeroes: zeros read back from a freed page, so freeing
 * is zeroing. A bio that must not wait gets the store's non-sleeping path,
 * and only for a bounded range: the rest is answered -EAGAIN, which sends
 * the caller (io_uring) to retry from a context that may sleep. Counted
 * once, when done.
 */
static blk_status_t rd_op_discard(struct rd_device *rd, struct rd_store *store, struct bio *bio)
{
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	unsigned int bytes = bio->bi_iter.bi_size;
	int err;

	if (nowait && bytes > RD_NOWAIT_DISCARD_BYTES)
		return BLK_STS_AGAIN;
	err = store->ops->discard(store, (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT, bytes,
				  nowait);
	if (err)
		return rd_errno_to_status(err);
	if (bio_op(bio) == REQ_OP_DISCARD) {
		this_cpu_inc(rd->stats->discards);
		this_cpu_add(rd->stats->discard_bytes, bytes);
	} else {
		this_cpu_inc(rd->stats->write_zeroes);
		this_cpu_add(rd->stats->write_zeroes_bytes, bytes);
	}
	return BLK_STS_OK;
}

/* One bio, by operation, on the top store of the device's stack (store.h). */
static __always_inline blk_status_t rd_dispatch(struct rd_device *rd, struct rd_store *store,
						struct bio *bio)
{
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return rd_op_read(rd, store, bio);
	case REQ_OP_WRITE:
		return rd_op_write(rd, store, bio);
	case REQ_OP_FLUSH:
		return rd_op_flush(rd, store);
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		return rd_op_discard(rd, store, bio);
	default:
		return BLK_STS_NOTSUPP;
	}
}

/* A zone a management command reset or finished goes in the write log (zones.h). */
static void rd_zone_logged(void *rd, enum req_op op, sector_t start, sector_t nr)
{
	rd_wlog_zone(rd,
		     op == REQ_OP_ZONE_FINISH ? RAMDISK_WLOG_ZONE_FINISH : RAMDISK_WLOG_ZONE_RESET,
		     start, nr);
}

/*
 * One bio of a zoned device (zones.c): writes and write-zeroes keep to the
 * zone rules, and the zone management commands change the zones. Reads
 * need no rule: a zone reads zeros past its write pointer because nothing
 * was left there.
 *
 * With a write log that records (wb set), a write and a reset or finish
 * are logged while they hold their zone's mutex, so that the log has
 * them in the order the zone served them: a reset that raced a write to
 * its zone would otherwise be logged before a write it followed, and a
 * replay of the log would differ from the device.
 *
 * A bio a fault rule drops (drop) reaches no store, but a write still
 * meets the zone rules and moves the write pointer: what a disk that
 * acknowledged a write and lost its data shows, the pointer past the
 * write and zeros under it. The block layer's zone write plug has moved
 * its copy of the pointer when the write succeeded, so a pointer left
 * behind would fail every later write to the zone, a fault no disk has.
 * A write the zone refuses fails as it would undropped: a disk checks a
 * command before it loses its data.
 *
 * A FUA write makes what precedes it in its zone durable before its own
 * data (rd_zone_write_durable_below()): the zone cannot keep the write and
 * lose a sector below it.
 */
static blk_status_t rd_dispatch_zoned(struct rd_device *rd, struct rd_store *store, struct bio *bio,
				      bool drop, struct rd_wlog_bio *wb)
{
	struct rd_zone *zone;
	blk_status_t status;

	switch (bio_op(bio)) {
	case REQ_OP_WRITE:
	case REQ_OP_WRITE_ZEROES:
		status = rd_zone_write_begin(rd->zones, bio, &zone);
		if (status)
			return status;
		if (!drop) {
			if (rd_fua_honoured(rd, bio))
				status = rd_errno_to_status(
					rd_zone_write_durable_below(rd->zones, zone, store, bio));
			if (!status)
				status = rd_dispatch(rd, store, bio);
		}
		rd_zone_write_end(rd->zones, zone, store, bio, status);
		/* rd_submit_bio_layered()'s own call then finds nothing left to do */
		if (wb)
			rd_wlog_after(rd, wb, status);
		rd_zone_write_unlock(zone);
		return status;
	case REQ_OP_ZONE_RESET:
	case REQ_OP_ZONE_RESET_ALL:
	case REQ_OP_ZONE_OPEN:
	case REQ_OP_ZONE_CLOSE:
	case REQ_OP_ZONE_FINISH:
		return rd_zone_mgmt(rd->zones, store, bio, wb ? rd_zone_logged : NULL, rd);
	default:
		/*
		 * Zone appends among them: the block layer emulates them with
		 * writes at the write pointer (compat.h), so none comes here;
		 * such a write is logged at the sector where the append landed
		 */
		return drop ? BLK_STS_OK : rd_dispatch(rd, store, bio);
	}
}

/*
 * Writeback mode: data goes through the volatile cache, whose mutex and
 * write-back may sleep, so a caller that must not wait is sent to retry
 * from a context that may.
 *
 * A power cut holds power_sem exclusively, so each bio runs wholly before
 * or wholly after it. A bio submitted before a cut (power_gen, read by
 * the caller at submission) that could only run after it was interrupted
 * by the cut: it fails, as a disk never acknowledges a command that power
 * loss cut short. The throttle fails a delayed completion for the same
 * reason, with the same power_gen.
 */
static blk_status_t rd_submit_bio_cached(struct rd_device *rd, struct bio *bio,
					 unsigned long power_gen, bool drop, struct rd_wlog_bio *wb)
{
	blk_status_t status;

	down_read(&rd->power_sem);
	if (READ_ONCE(rd->power_gen) != power_gen) {
		this_cpu_inc(rd->stats->cut_errors);
		status = BLK_STS_IOERR;
	} else if (unlikely(rd->zones)) {
		status = rd_dispatch_zoned(rd, rd->top, bio, drop, wb);
	} else {
		status = rd_dispatch(rd, rd->top, bio);
	}
	up_read(&rd->power_sem);
	return status;
}

/*
 * The fault schedule, above the bad blocks (see fault_schedule.c): out of
 * line, and reached only while some device has a rule. Fails the bio or
 * drops it (true: it is not to be served), or leaves it to be served, in
 * *late_ns how late it is to end. A zoned device's dropped bio goes on to
 * the zone rules with *drop set (rd_dispatch_zoned()).
 */
static noinline bool rd_fault_sched_fails(struct rd_device *rd, struct bio *bio, u64 *late_ns,
					  bool *drop)
{
	struct rd_fault_verdict v;

	if (!rd_fault_sched_draw(rd->fault_sched, bio, &v))
		return false;
	if (v.status) {
		this_cpu_inc(rd->stats->fault_errors);
		bio->bi_status = v.status;
		return true;
	}
	if (v.drop) {
		this_cpu_inc(rd->stats->fault_drops);
		*drop = true;
		return !rd->zones;
	}
	this_cpu_inc(rd->stats->fault_delays);
	*late_ns = v.delay_ns;
	return false;
}

static __always_inline bool rd_fault_sched_active(const struct rd_device *rd)
{
	return static_branch_unlikely(&rd_fault_sched_in_use) && rd->fault_sched &&
	       rd_fault_sched_count(rd->fault_sched);
}

/* Whether a fault layer may have made the bio one that must end late. */
static __always_inline bool rd_fault_timed_out(const struct bio *bio)
{
	return (static_branch_unlikely(&rd_bb_in_use) ||
		static_branch_unlikely(&rd_fault_sched_in_use)) &&
	       bio->bi_status == BLK_STS_TIMEOUT;
}

/*
 * Whether the bio may meet a write log that records, a fault schedule or
 * bad blocks: two patched-out jumps and one load while none of them is in
 * use anywhere.
 */
static __always_inline bool rd_submit_needs_layers(const struct rd_device *rd)
{
	return static_branch_unlikely(&rd_bb_in_use) ||
	       static_branch_unlikely(&rd_fault_sched_in_use) || READ_ONCE(rd->wlog_rec);
}

/*
 * A device with a write cache may sleep in it (its mutex, flushing to make
 * room), so a REQ_NOWAIT bio is refused with BLK_STS_AGAIN before anything
 * is done; true when refused.
 */
static __always_inline bool rd_cache_refuses_nowait(const struct rd_device *rd, struct bio *bio)
{
	if (!rd->cache || !(bio->bi_opf & REQ_NOWAIT))
		return false;
	bio_wouldblock_error(bio);
	return true;
}

/*
 * The end of every bio served: now, or by an hrtimer on a device with a
 * latency or bandwidth set. After power_sem is released, as end_io may
 * submit again.
 */
static __always_inline void rd_end_bio(struct rd_device *rd, struct bio *bio,
				       unsigned long power_gen)
{
	if (unlikely(READ_ONCE(rd->throttled)))
		rd_throttle_end_bio(rd, bio, power_gen);
	else
		bio_endio(bio);
}

/*
 * rd_submit_bio() with the layers above the store: the write log, which
 * sees the bio as submitted, the fault schedule, and a completion that a
 * fault made late. Out of line, so that the path without them keeps no
 * stack frame, locals or tests for them (issue 24 measured those at 0.5%
 * of a 4 KiB read).
 */
static noinline void rd_submit_bio_layered(struct rd_device *rd, struct bio *bio)
{
	unsigned long power_gen = READ_ONCE(rd->power_gen);
	bool logged = READ_ONCE(rd->wlog_rec);
	struct rd_wlog_bio wb;
	blk_status_t status;
	bool drop = false;
	u64 late_ns = 0;

	if (rd_cache_refuses_nowait(rd, bio))
		return;
	/* the write log sees the bio as submitted, whatever the layers below do */
	if (logged && !rd_wlog_before(rd, bio, &wb)) {
		bio_wouldblock_error(bio);
		return;
	}
	rd_test_delay(RD_TEST_LOGGED_UNSERVED);
	if (rd_fault_sched_active(rd) && rd_fault_sched_fails(rd, bio, &late_ns, &drop)) {
		/* failed with the rule's error, or dropped: acknowledged, not done */
		status = drop ? BLK_STS_OK : bio->bi_status;
		goto end;
	}
	if (rd->cache)
		status = rd_submit_bio_cached(rd, bio, power_gen, drop, logged ? &wb : NULL);
	else if (rd->zones)
		status = rd_dispatch_zoned(rd, rd->top, bio, drop, logged ? &wb : NULL);
	else
		status = rd_dispatch(rd, rd->top, bio);
	rd_bio_set_status(bio, status);
end:
	rd_test_delay(RD_TEST_SERVED_UNLOGGED);
	if (logged)
		rd_wlog_after(rd, &wb, status);
	/* a timeout is a command that never answered: it ends after the host waited */
	if (rd_fault_timed_out(bio))
		late_ns = max_t(u64, late_ns, RD_FAULT_TIMEOUT_MS * NSEC_PER_MSEC);
	if (late_ns)
		rd_throttle_end_bio_late(rd, bio, late_ns, power_gen);
	else
		rd_end_bio(rd, bio, power_gen);
}

void rd_submit_bio(struct bio *bio)
{
	struct rd_device *rd = bio->bi_bdev->bd_disk->private_data;
	/* only a device with a cache is ever cut: the others stay at 0 */
	unsigned long power_gen = 0;

	if (unlikely(rd_submit_needs_layers(rd))) {
		rd_submit_bio_layered(rd, bio);
		return;
	}
	if (likely(!rd->cache)) {
		rd_bio_set_status(bio, rd_dispatch(rd, rd->top, bio));
	} else {
		if (rd_cache_refuses_nowait(rd, bio))
			return;
		power_gen = READ_ONCE(rd->power_gen);
		rd_bio_set_status(bio, rd_submit_bio_cached(rd, bio, power_gen, false, NULL));
	}
	rd_end_bio(rd, bio, power_gen);
}

/*
 * A zoned device's bios (dev.c gives such a disk block_device_operations
 * of its own, so the others never come here): cut at zone boundaries and
 * past the zone write plugs first, then served on the layered path, which
 * a zoned device always takes.
 */
void rd_submit_bio_zoned(struct bio *bio)
{
	struct rd_device *rd = bio->bi_bdev->bd_disk->private_data;

	bio = rd_compat_zone_prepare_bio(bio);
	if (bio)
		rd_submit_bio_layered(rd, bio);
}
