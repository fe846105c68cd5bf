/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that knows which kernel the module is built for. The probe
 * pass (module/probes/NAME.c) defines HAVE_NAME for each API the target
 * headers have; the wrappers below hide the differences from the rest of
 * the module. Each block names the kernel change it spans.
 */
#ifndef RAMDISK_COMPAT_H
#define RAMDISK_COMPAT_H

#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>

#include "compat_probes.h"
#include "ramdisk.h"

/* Largest bio the device accepts; big bios keep sequential I/O cheap. */
#define RD_MAX_HW_SECTORS (SZ_4M >> SECTOR_SHIFT)
/* Discard and write-zeroes bios: whole pages, and bi_size must not overflow. */
#define RD_MAX_DISCARD_SECTORS round_down(UINT_MAX >> SECTOR_SHIFT, PAGE_SIZE >> SECTOR_SHIFT)

#ifdef HAVE_QUEUE_LIMITS_FEATURES
/* 6.11: queue features are set in queue_limits; non-rotational is the default. */
static inline void rd_compat_limits_features(struct queue_limits *lim)
{
	lim->features |= BLK_FEAT_SYNCHRONOUS | BLK_FEAT_NOWAIT;
}

static inline void rd_compat_queue_flags(struct request_queue *q)
{
}
#else
static inline void rd_compat_limits_features(struct queue_limits *lim)
{
}

static inline void rd_compat_queue_flags(struct request_queue *q)
{
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_set(QUEUE_FLAG_NOWAIT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
}
#endif

#ifdef HAVE_BLK_ALLOC_DISK_LIMITS
/* 6.9: blk_alloc_disk() takes the queue limits and returns an ERR_PTR. */
static inline struct gendisk *rd_compat_alloc_disk(unsigned int block_size, int node)
{
	struct queue_limits lim = {
		.logical_block_size = block_size,
		.physical_block_size = PAGE_SIZE,
		.max_hw_sectors = RD_MAX_HW_SECTORS,
		.max_hw_discard_sectors = RD_MAX_DISCARD_SECTORS,
		.max_write_zeroes_sectors = RD_MAX_DISCARD_SECTORS,
		.discard_granularity = PAGE_SIZE,
	};
	struct gendisk *disk;

	rd_compat_limits_features(&lim);
	disk = blk_alloc_disk(&lim, node);
	if (!IS_ERR(disk))
		rd_compat_queue_flags(disk->queue);
	return disk;
}
#else
/* Before 6.9: blk_alloc_disk(node) returns NULL; limits are set afterwards. */
static inline struct gendisk *rd_compat_alloc_disk(unsigned int block_size, int node)
{
	struct gendisk *disk = blk_alloc_disk(node);
	struct request_queue *q;

	if (!disk)
		return ERR_PTR(-ENOMEM);
	q = disk->queue;
	blk_queue_logical_block_size(q, block_size);
	blk_queue_physical_block_size(q, PAGE_SIZE);
	blk_queue_max_hw_sectors(q, RD_MAX_HW_SECTORS);
	blk_queue_max_discard_sectors(q, RD_MAX_DISCARD_SECTORS);
	blk_queue_max_write_zeroes_sectors(q, RD_MAX_DISCARD_SECTORS);
	q->limits.discard_granularity = PAGE_SIZE;
	rd_compat_queue_flags(q);
	return disk;
}
#endif

#ifdef HAVE_BLOCK_OPEN_GENDISK
/* 6.5: ->open takes the gendisk and a blk_mode_t, ->release the gendisk alone. */
static inline int rd_compat_open(struct gendisk *disk, blk_mode_t mode)
{
	return rd_dev_open(disk);
}

static inline void rd_compat_release(struct gendisk *disk)
{
	rd_dev_release(disk);
}

static inline int rd_compat_ioctl(struct block_device *bdev, blk_mode_t mode, unsigned int cmd,
				  unsigned long arg)
{
	return rd_ioctl(bdev, cmd, arg);
}
#else
static inline int rd_compat_open(struct block_device *bdev, fmode_t mode)
{
	return rd_dev_open(bdev->bd_disk);
}

static inline void rd_compat_release(struct gendisk *disk, fmode_t mode)
{
	rd_dev_release(disk);
}

static inline int rd_compat_ioctl(struct block_device *bdev, fmode_t mode, unsigned int cmd,
				  unsigned long arg)
{
	return rd_ioctl(bdev, cmd, arg);
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

#endif /* RAMDISK_COMPAT_H */
