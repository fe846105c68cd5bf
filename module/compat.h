/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that knows which kernel the module is built for. The probe
 * pass (module/probes/NAME.c) defines HAVE_NAME for each API the target
 * headers have; the wrappers below hide the differences from the rest of
 * the module. Each block names the kernel change it spans. This header
 * knows kernel APIs only, nothing of the driver: it includes none of the
 * module's headers.
 */
#ifndef RAMDISK_COMPAT_H
#define RAMDISK_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>

#include "compat_probes.h"

#ifdef HAVE_QUEUE_LIMITS_FEATURES
/*
 * 6.11: queue features are set in queue_limits, and non-rotational is the
 * default. A memory-backed device completes bios in the submitter's
 * context (synchronous), never needs to wait to accept one (nowait) and
 * gives the entropy pool nothing.
 */
static inline void rd_compat_limits_memory_device(struct queue_limits *lim)
{
	lim->features |= BLK_FEAT_SYNCHRONOUS | BLK_FEAT_NOWAIT;
}

static inline void rd_compat_queue_memory_device(struct request_queue *q)
{
}
#else
static inline void rd_compat_limits_memory_device(struct queue_limits *lim)
{
}

static inline void rd_compat_queue_memory_device(struct request_queue *q)
{
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_set(QUEUE_FLAG_NOWAIT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
}
#endif

#ifdef HAVE_BLK_ALLOC_DISK_LIMITS
/* 6.9: blk_alloc_disk() takes the queue limits and returns an ERR_PTR. */
static inline struct gendisk *rd_compat_alloc_disk(struct queue_limits *lim, int node)
{
	return blk_alloc_disk(lim, node);
}
#else
/*
 * Before 6.9: blk_alloc_disk(node) returns NULL, and the limits are set
 * afterwards, each with its own setter: the fields a bio-based driver sets.
 */
static inline struct gendisk *rd_compat_alloc_disk(struct queue_limits *lim, int node)
{
	struct gendisk *disk = blk_alloc_disk(node);
	struct request_queue *q;

	if (!disk)
		return ERR_PTR(-ENOMEM);
	q = disk->queue;
	blk_queue_logical_block_size(q, lim->logical_block_size);
	blk_queue_physical_block_size(q, lim->physical_block_size);
	blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
	blk_queue_max_discard_sectors(q, lim->max_hw_discard_sectors);
	blk_queue_max_write_zeroes_sectors(q, lim->max_write_zeroes_sectors);
	q->limits.discard_granularity = lim->discard_granularity;
	if (lim->io_min)
		blk_queue_io_min(q, lim->io_min);
	if (lim->io_opt)
		blk_queue_io_opt(q, lim->io_opt);
	return disk;
}
#endif

/*
 * 6.15: logical blocks above the page size (BLK_MAX_BLOCK_SIZE, 64 KiB
 * where the kernel can cache a block in a large folio); before, a logical
 * block was at most a page.
 */
#ifdef BLK_MAX_BLOCK_SIZE
#define RD_COMPAT_MAX_BLOCK_SIZE BLK_MAX_BLOCK_SIZE
#else
#define RD_COMPAT_MAX_BLOCK_SIZE PAGE_SIZE
#endif

#ifdef HAVE_QUEUE_LIMITS_COMMIT_UPDATE_FROZEN
/* 6.12: a limits update of a live queue is made with the queue frozen. */
static inline int rd_compat_commit_live_limits(struct request_queue *q, struct queue_limits *lim)
{
	return queue_limits_commit_update_frozen(q, lim);
}
#elif defined(HAVE_QUEUE_LIMITS_FEATURES)
/* 6.11: the caller of queue_limits_commit_update() froze the queue if it had to. */
static inline int rd_compat_commit_live_limits(struct request_queue *q, struct queue_limits *lim)
{
	return queue_limits_commit_update(q, lim);
}
#endif

#ifdef HAVE_QUEUE_LIMITS_FEATURES
/* 6.11: rotational is a queue feature in queue_limits. */
static inline int rd_compat_set_rotational(struct gendisk *disk, bool rotational)
{
	struct queue_limits lim = queue_limits_start_update(disk->queue);

	if (rotational)
		lim.features |= BLK_FEAT_ROTATIONAL;
	else
		lim.features &= ~BLK_FEAT_ROTATIONAL;
	return rd_compat_commit_live_limits(disk->queue, &lim);
}
#else
static inline int rd_compat_set_rotational(struct gendisk *disk, bool rotational)
{
	if (rotational)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	return 0;
}
#endif

/*
 * 6.5: ->open takes the gendisk and a blk_mode_t, ->release the gendisk
 * alone; before, ->open took the block_device and both an fmode_t. A
 * driver writes each operation once, for every kernel:
 *   int open(RD_COMPAT_OPEN_ARGS(opener)), rd_compat_opener_disk(opener)
 *   void release(RD_COMPAT_RELEASE_ARGS(disk))
 *   int ioctl(RD_COMPAT_IOCTL_ARGS(bdev), unsigned int cmd, unsigned long arg)
 */
#ifdef HAVE_BLOCK_OPEN_GENDISK
#define RD_COMPAT_OPEN_ARGS(opener) struct gendisk *opener, blk_mode_t mode
#define RD_COMPAT_RELEASE_ARGS(disk) struct gendisk *disk
#define RD_COMPAT_IOCTL_ARGS(bdev) struct block_device *bdev, blk_mode_t mode

static inline struct gendisk *rd_compat_opener_disk(struct gendisk *disk)
{
	return disk;
}
#else
#define RD_COMPAT_OPEN_ARGS(opener) struct block_device *opener, fmode_t mode
#define RD_COMPAT_RELEASE_ARGS(disk) struct gendisk *disk, fmode_t mode
#define RD_COMPAT_IOCTL_ARGS(bdev) struct block_device *bdev, fmode_t mode

static inline struct gendisk *rd_compat_opener_disk(struct block_device *bdev)
{
	return bdev->bd_disk;
}
#endif

#ifdef HAVE_QUEUE_LIMITS_FEATURES
/* 6.11: a volatile write cache and FUA are queue features in queue_limits. */
static inline int rd_compat_set_write_cache(struct gendisk *disk)
{
	struct queue_limits lim = queue_limits_start_update(disk->queue);

	lim.features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	return queue_limits_commit_update(disk->queue, &lim);
}
#else
static inline int rd_compat_set_write_cache(struct gendisk *disk)
{
	blk_queue_write_cache(disk->queue, true, true);
	return 0;
}
#endif

#ifdef HAVE_HRTIMER_SETUP
/* 6.13: hrtimer_setup() takes the callback; hrtimer_init() is gone in 6.15. */
static inline void rd_compat_hrtimer_setup(struct hrtimer *timer,
					   enum hrtimer_restart (*fn)(struct hrtimer *),
					   clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_setup(timer, fn, clock, mode);
}
#else
static inline void rd_compat_hrtimer_setup(struct hrtimer *timer,
					   enum hrtimer_restart (*fn)(struct hrtimer *),
					   clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
}
#endif

#ifdef HAVE_SYSTEM_DFL_WQ
/* 6.17: the unbound system workqueue is system_dfl_wq; 7.x warns on the old name. */
static inline struct workqueue_struct *rd_compat_unbound_wq(void)
{
	return system_dfl_wq;
}
#else
static inline struct workqueue_struct *rd_compat_unbound_wq(void)
{
	return system_unbound_wq;
}
#endif

#ifdef HAVE_ATOMIC_WRITE_LIMITS
/*
 * 6.11: a driver reports the atomic writes it takes in queue_limits, and
 * the block layer refuses a REQ_ATOMIC bio whose size breaks them before
 * the driver sees it. After 6.12 the driver must also set the
 * BLK_FEAT_ATOMIC_WRITES feature, or the block layer clears the limits.
 * The largest atomic write is the largest unit: one bio, one unit.
 */
#define RD_COMPAT_ATOMIC_WRITES true
/* what the block layer answers a REQ_ATOMIC bio that breaks the limits */
#define RD_COMPAT_STS_INVAL BLK_STS_INVAL

static inline void rd_compat_limits_atomic_writes(struct queue_limits *lim, unsigned int unit_min,
						  unsigned int unit_max, unsigned int boundary)
{
	lim->atomic_write_hw_unit_min = unit_min;
	lim->atomic_write_hw_unit_max = unit_max;
	lim->atomic_write_hw_max = unit_max;
	lim->atomic_write_hw_boundary = boundary;
#ifdef HAVE_BLK_FEAT_ATOMIC_WRITES
	lim->features |= BLK_FEAT_ATOMIC_WRITES;
#endif
}

/* The units the block layer settled on; it lowers, or clears, what it cannot take. */
static inline void rd_compat_atomic_write_units(const struct request_queue *q,
						unsigned int *unit_min, unsigned int *unit_max)
{
	*unit_min = q->limits.atomic_write_unit_min;
	*unit_max = q->limits.atomic_write_unit_max;
}

static inline bool rd_compat_bio_atomic(const struct bio *bio)
{
	return bio->bi_opf & REQ_ATOMIC;
}
#else
#define RD_COMPAT_ATOMIC_WRITES false
/* no REQ_ATOMIC bio reaches a driver before 6.11 */
#define RD_COMPAT_STS_INVAL BLK_STS_NOTSUPP

static inline void rd_compat_limits_atomic_writes(struct queue_limits *lim, unsigned int unit_min,
						  unsigned int unit_max, unsigned int boundary)
{
}

static inline void rd_compat_atomic_write_units(const struct request_queue *q,
						unsigned int *unit_min, unsigned int *unit_max)
{
	*unit_min = 0;
	*unit_max = 0;
}

static inline bool rd_compat_bio_atomic(const struct bio *bio)
{
	return false;
}
#endif

#ifdef HAVE_FREEZE_QUEUE_MEMFLAGS
/*
 * 6.14: freezing a queue returns the task's memory flags (allocations
 * while frozen must not wait for the queue's I/O), and unfreezing takes
 * them back.
 */
static inline unsigned int rd_compat_freeze_queue(struct request_queue *q)
{
	return blk_mq_freeze_queue(q);
}

static inline void rd_compat_unfreeze_queue(struct request_queue *q, unsigned int memflags)
{
	blk_mq_unfreeze_queue(q, memflags);
}
#else
static inline unsigned int rd_compat_freeze_queue(struct request_queue *q)
{
	blk_mq_freeze_queue(q);
	return 0;
}

static inline void rd_compat_unfreeze_queue(struct request_queue *q, unsigned int memflags)
{
	blk_mq_unfreeze_queue(q);
}
#endif

/*
 * The headers declare the zone helpers whatever the configuration, so the
 * probe compiles, but a kernel built without CONFIG_BLK_DEV_ZONED exports
 * none of them: there the module takes no zoned devices, as before 6.10.
 */
#if defined(HAVE_ZONE_WRITE_PLUGGING) && IS_ENABLED(CONFIG_BLK_DEV_ZONED)
/*
 * 6.10: the block layer plugs the writes to each sequential zone and
 * sends them on one at a time, each at the zone's write pointer. A
 * bio-based driver gets that only when the block layer emulates zone
 * append for it, which it does when the driver states no zone-append
 * limit (6.12's max_zone_append_sectors, later max_hw_zone_append_sectors,
 * left 0 here); such appends then reach the driver as writes at the write
 * pointer. 6.11: zoned is a queue feature, set with the limits.
 */
#define RD_COMPAT_ZONED true

static inline void rd_compat_limits_zoned(struct queue_limits *lim, unsigned int zone_sectors,
					  unsigned int max_open, unsigned int max_active)
{
	lim->features |= BLK_FEAT_ZONED;
	lim->chunk_sectors = zone_sectors;
	lim->max_open_zones = max_open;
	lim->max_active_zones = max_active;
}

/*
 * A bio-based driver cuts its bios at zone boundaries and hands writes to
 * the zone write plugs itself. NULL: the block layer took the bio (it was
 * split and resubmitted, plugged for later, or failed); else the bio to
 * serve now.
 */
static inline struct bio *rd_compat_zone_prepare_bio(struct bio *bio)
{
	bio = bio_split_to_limits(bio);
	if (bio && bio_needs_zone_write_plugging(bio) && blk_zone_plug_bio(bio, 0))
		return NULL;
	return bio;
}

/* a write at the write pointer that the block layer made of a zone append */
static inline bool rd_compat_bio_emulates_zone_append(struct bio *bio)
{
	return bio_flagged(bio, BIO_EMULATES_ZONE_APPEND);
}

/* reads the zones back through ->report_zones and sets up the write plugs */
static inline int rd_compat_revalidate_zones(struct gendisk *disk)
{
	return blk_revalidate_disk_zones(disk);
}
#else
/*
 * Before 6.10 a bio-based zoned driver gets no help to keep the writes to
 * a zone in order (only blk-mq's I/O schedulers did that), and the block
 * layer refuses to revalidate its zones: ramdisk takes no zoned devices;
 * nor on a kernel built without CONFIG_BLK_DEV_ZONED.
 */
#define RD_COMPAT_ZONED false

static inline void rd_compat_limits_zoned(struct queue_limits *lim, unsigned int zone_sectors,
					  unsigned int max_open, unsigned int max_active)
{
}

static inline struct bio *rd_compat_zone_prepare_bio(struct bio *bio)
{
	return bio;
}

static inline bool rd_compat_bio_emulates_zone_append(struct bio *bio)
{
	return false;
}

static inline int rd_compat_revalidate_zones(struct gendisk *disk)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * ->report_zones passes each zone on: before 6.19 to a callback with its
 * data, from 6.19 to disk_report_zone() with the arguments it was given.
 * The function is declared
 *   int report_zones(struct gendisk *disk, sector_t sector, unsigned int nr_zones,
 *                    RD_COMPAT_REPORT_ZONES_PARAMS)
 * and hands zone idx on with rd_compat_report_zone(disk, zone, idx), which
 * uses those parameters.
 */
#ifdef HAVE_REPORT_ZONES_ARGS
#define RD_COMPAT_REPORT_ZONES_PARAMS struct blk_report_zones_args *rd_report_args
#define rd_compat_report_zone(disk, zone, idx) disk_report_zone(disk, zone, idx, rd_report_args)
#else
#define RD_COMPAT_REPORT_ZONES_PARAMS report_zones_cb rd_report_cb, void *rd_report_data
/* the disk is the callback's data's business */
#define rd_compat_report_zone(disk, zone, idx) \
	((void)(disk), rd_report_cb(zone, idx, rd_report_data))
#endif

#endif /* RAMDISK_COMPAT_H */
