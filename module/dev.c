// SPDX-License-Identifier: GPL-2.0
/*
 * Device lifecycle: validation of a configuration, the gendisk and its
 * queue limits, device numbers, and removal that refuses while the device
 * is open or mounted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/rwsem.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "badblocks.h"
#include "cache.h"
#include "checkpoint.h"
#include "compat.h"
#include "ramdisk.h"
#include "store.h"
#include "throttle.h"
#include "write_log.h"
#include "zones.h"

/*
 * Every device owns a fixed run of minors, enough for RAMDISK_MAX_PART
 * partitions, so its numbers do not depend on the max_part of others.
 */
#define RD_MINORS_PER_DEVICE (RAMDISK_MAX_PART + 1)

static DEFINE_IDA(rd_dev_number_ida);
/* The devices that have a disk, by number: a clone finds its origin here. */
static DEFINE_XARRAY(rd_devices);
static int rd_major;

static int rd_open(RD_COMPAT_OPEN_ARGS(opener))
{
	struct rd_device *rd = rd_compat_opener_disk(opener)->private_data;

	if (READ_ONCE(rd->dying))
		return -ENXIO;
	return 0;
}

/* Called under disk->open_mutex, after every close. */
static void rd_release(RD_COMPAT_RELEASE_ARGS(disk))
{
	struct rd_device *rd = disk->private_data;

	if (!disk_openers(disk))
		clear_bit(RD_LOST_WRITES, &rd->flags);
}

static int rd_blk_ioctl(RD_COMPAT_IOCTL_ARGS(bdev), unsigned int cmd, unsigned long arg)
{
	return rd_ioctl(bdev, cmd, arg);
}

/* An open device pins the module (.owner), so rmmod gets EBUSY. */
static const struct block_device_operations rd_fops = {
	.owner = THIS_MODULE,
	.submit_bio = rd_submit_bio,
	.open = rd_open,
	.release = rd_release,
	.ioctl = rd_blk_ioctl,
	.compat_ioctl = blkdev_compat_ptr_ioctl,
};

/* Zone i of the report is the i-th zone from the one that holds sector. */
static int rd_report_zones(struct gendisk *disk, sector_t sector, unsigned int nr_zones,
			   RD_COMPAT_REPORT_ZONES_PARAMS)
{
	struct rd_device *rd = disk->private_data;
	unsigned int first = rd_zones_index(rd->zones, sector);
	unsigned int count = rd_zones_count(rd->zones);
	struct blk_zone zone;
	unsigned int i;
	int err;

	for (i = 0; i < nr_zones && first + i < count; i++) {
		rd_zones_get(rd->zones, first + i, &zone);
		err = rd_compat_report_zone(disk, &zone, i);
		if (err)
			return err;
	}
	return i;
}

/* A zoned device's: every bio passes the zone layer first (io.c). */
static const struct block_device_operations rd_zoned_fops = {
	.owner = THIS_MODULE,
	.submit_bio = rd_submit_bio_zoned,
	.open = rd_open,
	.release = rd_release,
	.ioctl = rd_blk_ioctl,
	.compat_ioctl = blkdev_compat_ptr_ioctl,
	.report_zones = rd_report_zones,
};

/*
 * The block layer quietly lowers or clears atomic write limits it cannot
 * honour. A device that reported less than it was configured for would
 * make a test believe it checked what it did not: refuse it.
 */
static int rd_check_atomic_limits(const struct rd_config *cfg, struct gendisk *disk,
				  const char *who)
{
	unsigned int unit_min, unit_max;

	if (!cfg->atomic_write_unit_max)
		return 0;
	rd_compat_atomic_write_units(disk->queue, &unit_min, &unit_max);
	if (unit_min == rd_config_atomic_unit_min(cfg) && unit_max == cfg->atomic_write_unit_max)
		return 0;
	pr_warn("%s: the block layer took atomic writes of %u to %u bytes, not the %u to %u configured\n",
		who, unit_min, unit_max, rd_config_atomic_unit_min(cfg),
		cfg->atomic_write_unit_max);
	return -EINVAL;
}

/* Largest bio the device accepts; big bios keep sequential I/O cheap. */
#define RD_MAX_HW_SECTORS (SZ_4M >> SECTOR_SHIFT)
/* Discard and write-zeroes bios: whole pages, and bi_size must not overflow. */
#define RD_MAX_DISCARD_SECTORS round_down(UINT_MAX >> SECTOR_SHIFT, PAGE_SIZE >> SECTOR_SHIFT)

/* The disk, with the queue limits of a memory-backed device. */
static struct gendisk *rd_alloc_disk(const struct rd_config *cfg)
{
	struct queue_limits lim = {
		.logical_block_size = cfg->block_size,
		.physical_block_size = rd_config_physical_block_size(cfg),
		.io_min = cfg->io_min,
		.io_opt = cfg->io_opt,
		.max_hw_sectors = RD_MAX_HW_SECTORS,
		.max_hw_discard_sectors = RD_MAX_DISCARD_SECTORS,
		.max_write_zeroes_sectors = RD_MAX_DISCARD_SECTORS,
		.discard_granularity = max_t(unsigned int, cfg->block_size, PAGE_SIZE),
	};
	struct gendisk *disk;
	int err;

	rd_compat_limits_memory_device(&lim);
	if (cfg->zoned)
		rd_compat_limits_zoned(&lim, cfg->zone_size >> SECTOR_SHIFT, cfg->zone_max_open,
				       cfg->zone_max_active);
	if (cfg->atomic_write_unit_max)
		rd_compat_limits_atomic_writes(&lim, rd_config_atomic_unit_min(cfg),
					       cfg->atomic_write_unit_max,
					       cfg->atomic_write_boundary);
	disk = rd_compat_alloc_disk(&lim, cfg->numa_node);
	if (IS_ERR(disk))
		return disk;
	rd_compat_queue_memory_device(disk->queue);
	if (cfg->rotational) {
		err = rd_compat_set_rotational(disk, true);
		if (err) {
			put_disk(disk);
			return ERR_PTR(err);
		}
	}
	return disk;
}

/* Applies a live change of `rotational`, as a write to queue/rotational would. */
void rd_dev_set_rotational(struct rd_device *rd, const struct rd_config *cfg)
{
	int err = rd_compat_set_rotational(rd->disk, cfg->rotational);

	if (err)
		pr_warn("%s: cannot set rotational %d: %d\n", rd->disk->disk_name, cfg->rotational,
			err);
}

/* Under rd_lock, which keeps the device there until the caller lets go of it. */
static struct rd_device *rd_dev_find(const char *disk_name)
{
	struct rd_device *rd;
	unsigned long index;

	xa_for_each(&rd_devices, index, rd)
		if (!strcmp(rd->disk->disk_name, disk_name))
			return rd;
	return NULL;
}

/*
 * The clone reads the checkpoint through the origin's geometry: its size,
 * logical block size and zones are the origin's, whatever the clone's
 * configuration said, and its attributes read them from power-on. (A
 * zone geometry of its own would not fit the checkpoint's write
 * pointers; copying it, as size, spares the user from repeating it.)
 */
int rd_dev_clone_config(struct rd_config *cfg, const char *who)
{
	struct rd_device *origin = rd_dev_find(cfg->clone_disk);

	if (!origin) {
		pr_warn("%s: clone_of names %s, which does not exist\n", who, cfg->clone_disk);
		return -ENODEV;
	}
	if (cfg->phys_size) {
		pr_warn("%s: a clone lives in pages: phys_size must be 0\n", who);
		return -EINVAL;
	}
	cfg->size = get_capacity(origin->disk) << SECTOR_SHIFT;
	cfg->block_size = queue_logical_block_size(origin->disk->queue);
	if (origin->zones)
		rd_zones_config(origin->zones, cfg);
	else
		cfg->zoned = false;
	return 0;
}

/* The durable store: a clone's, one in reserved memory, or sparse pages. */
static int rd_dev_create_store(struct rd_device *rd, const struct rd_config *cfg, const char *who)
{
	if (cfg->clone_disk[0]) {
		struct rd_device *origin = rd_dev_find(cfg->clone_disk);

		if (!origin) {
			pr_warn("%s: clone_of names %s, which does not exist\n", who,
				cfg->clone_disk);
			return -ENODEV;
		}
		rd->store = rd_checkpoint_clone(origin, who, cfg->clone_checkpoint, cfg->numa_node,
						&rd->base);
		if (IS_ERR(rd->store))
			return PTR_ERR(rd->store);
		rd->origin = origin;
		return 0;
	}
	if (cfg->phys_size) {
		rd->store = rd_store_phys_create(cfg, who);
		return PTR_ERR_OR_ZERO(rd->store);
	}
	rd->store = rd_store_pages_create(cfg->size, cfg->numa_node);
	return rd->store ? 0 : -ENOMEM;
}

static void rd_dev_destroy_store(struct rd_device *rd)
{
	rd->store->ops->destroy(rd->store);
	if (rd->origin)
		rd_checkpoint_unclone(rd->origin, rd->base);
}

struct rd_device *rd_dev_create(const struct rd_config *cfg, const char *name)
{
	struct rd_device *rd;
	struct gendisk *disk;
	int err;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return ERR_PTR(-ENOMEM);
	strscpy(rd->name, name, sizeof(rd->name));
	rd->badblocks = cfg->badblocks;
	rd->fault_sched = cfg->fault_sched;
	init_rwsem(&rd->power_sem);
	INIT_LIST_HEAD(&rd->checkpoints);

	rd->index = ida_alloc_max(&rd_dev_number_ida, RAMDISK_MAX_DEVICES - 1, GFP_KERNEL);
	if (rd->index < 0) {
		err = rd->index;
		if (err == -ENOSPC)
			pr_warn("%s: all %d devices exist already\n", name[0] ? name : "insmod",
				RAMDISK_MAX_DEVICES);
		goto out_free_rd;
	}

	err = -ENOMEM;
	rd->stats = alloc_percpu(struct rd_stats);
	if (!rd->stats)
		goto out_free_index;
	err = rd_dev_create_store(rd, cfg, name[0] ? name : "insmod");
	if (err)
		goto out_free_stats;
	rd_store_set_limit(rd->store, cfg->mem_limit);
	rd_store_set_spares(rd->store, cfg->spare_pages);

	err = -ENOMEM;
	rd->throttle = rd_throttle_create();
	if (!rd->throttle)
		goto out_destroy_store;
	rd->throttled = rd_throttle_set(rd->throttle, cfg);
	rd->lying_flush = cfg->power_cut_personality == RD_PERSONALITY_LYING_FLUSH;
	rd->top = rd->store;
	if (cfg->cache_mode == RD_CACHE_WRITEBACK) {
		rd->cache = rd_cache_create(rd->store, cfg->cache_size);
		if (!rd->cache)
			goto out_destroy_throttle;
		rd->top = rd_cache_store(rd->cache);
	}
	if (cfg->zoned) {
		rd->zones = rd_zones_create(cfg);
		if (!rd->zones)
			goto out_destroy_cache;
		/* a clone's from its checkpoint, one in reserved memory's from the store */
		if (rd->base)
			err = rd_checkpoint_clone_zones(rd->base, rd->zones,
							name[0] ? name : "insmod");
		else
			err = rd_zones_load(rd->zones, rd->store, name[0] ? name : "insmod");
		if (err)
			goto out_destroy_zones;
	}

	disk = rd_alloc_disk(cfg);
	if (IS_ERR(disk)) {
		err = PTR_ERR(disk);
		goto out_destroy_zones;
	}
	err = rd_check_atomic_limits(cfg, disk, name[0] ? name : "insmod");
	if (err)
		goto out_put_disk;
	rd->atomic_unit_min = rd_config_atomic_unit_min(cfg);
	rd->atomic_unit_max = cfg->atomic_write_unit_max;
	rd->atomic_boundary = cfg->atomic_write_boundary;
	/* writeback mode is a volatile cache: the block layer sends FLUSH and FUA */
	if (rd->cache) {
		err = rd_compat_set_write_cache(disk);
		if (err)
			goto out_put_disk;
	}
	disk->major = rd_major;
	disk->first_minor = rd->index * RD_MINORS_PER_DEVICE;
	disk->minors = cfg->max_part + 1;
	if (!cfg->max_part)
		disk->flags |= GENHD_FL_NO_PART;
	disk->fops = rd->zones ? &rd_zoned_fops : &rd_fops;
	disk->private_data = rd;
	snprintf(disk->disk_name, DISK_NAME_LEN, RAMDISK_NAME "%d", rd->index);
	set_capacity(disk, cfg->size >> SECTOR_SHIFT);
	rd->disk = disk;
	/* the block layer reads the zones back and sets up its write plugs */
	if (rd->zones) {
		err = rd_compat_revalidate_zones(disk);
		if (err) {
			pr_warn("%s: the block layer took no zones: %d\n",
				name[0] ? name : "insmod", err);
			goto out_put_disk;
		}
	}

	err = xa_insert(&rd_devices, rd->index, rd, GFP_KERNEL);
	if (err)
		goto out_put_disk;
	err = device_add_disk(NULL, disk, rd_disk_attr_groups);
	if (err)
		goto out_forget_device;
	return rd;

out_forget_device:
	xa_erase(&rd_devices, rd->index);

out_put_disk:
	put_disk(disk);
out_destroy_zones:
	rd_zones_destroy(rd->zones);
out_destroy_cache:
	if (rd->cache)
		rd_cache_destroy(rd->cache);
out_destroy_throttle:
	rd_throttle_destroy(rd->throttle);
out_destroy_store:
	rd_dev_destroy_store(rd);
out_free_stats:
	free_percpu(rd->stats);
out_free_index:
	ida_free(&rd_dev_number_ida, rd->index);
out_free_rd:
	kfree(rd);
	return ERR_PTR(err);
}

/*
 * An orderly power-off writes the volatile cache back first, as a disk's
 * driver flushes it at shutdown: what a device in reserved memory had
 * cached is there at the next attach, under a header marked clean. A RAM
 * device frees its pages next, but takes the same path, so that a
 * failure to write back is seen the same way for both.
 */
static void rd_dev_write_back_at_power_off(struct rd_device *rd)
{
	u64 dirty = rd_cache_dirty_bytes(rd->cache);
	int err = rd_cache_flush(rd->cache);

	if (err)
		pr_warn("ramdisk%d: writing back %llu cached bytes at power-off failed: %d\n",
			rd->index, dirty, err);
}

/*
 * Takes the disk away, open or not: no new open succeeds, and I/O of
 * openers still holding it fails from now on. The device's memory stays
 * until rd_dev_free().
 */
void rd_dev_unplug(struct rd_device *rd)
{
	mutex_lock(&rd->disk->open_mutex);
	WRITE_ONCE(rd->dying, true);
	mutex_unlock(&rd->disk->open_mutex);
	xa_erase(&rd_devices, rd->index);
	del_gendisk(rd->disk);
}

/* Removes the device and frees its memory; -EBUSY while it is open. */
int rd_dev_remove(struct rd_device *rd)
{
	struct gendisk *disk = rd->disk;

	/* Opens run under open_mutex: none can slip in after this check. */
	mutex_lock(&disk->open_mutex);
	if (disk_openers(disk)) {
		mutex_unlock(&disk->open_mutex);
		return -EBUSY;
	}
	WRITE_ONCE(rd->dying, true);
	mutex_unlock(&disk->open_mutex);

	xa_erase(&rd_devices, rd->index);
	del_gendisk(disk);
	rd_dev_free(rd);
	return 0;
}

/*
 * Frees an unplugged device that nobody holds open any more: an opener's
 * ioctl and close still reach the driver after del_gendisk().
 */
void rd_dev_free(struct rd_device *rd)
{
	struct gendisk *disk = rd->disk;

	/* the clones went first (configfs refuses power-off before): they read its checkpoints */
	WARN_ON_ONCE(rd->clones);

	/* delayed completions still use the disk and the module */
	rd_throttle_destroy(rd->throttle);
	put_disk(disk);
	rd_wlog_free(rd);
	/* first, so that writing the cache back copies no shared page */
	rd_checkpoints_free(rd);
	if (rd->cache) {
		rd_dev_write_back_at_power_off(rd);
		rd_cache_destroy(rd->cache);
	}
	rd_zones_destroy(rd->zones);
	rd_dev_destroy_store(rd);
	free_percpu(rd->stats);
	ida_free(&rd_dev_number_ida, rd->index);
	kfree(rd);
}

/*
 * Frozen, so that no bio is between its log entry (which records whether
 * its flush or FUA was honoured) and its service.
 */
void rd_dev_set_personality(struct rd_device *rd, const struct rd_config *cfg)
{
	bool lying = cfg->power_cut_personality == RD_PERSONALITY_LYING_FLUSH;
	struct rd_frozen f;

	if (lying == rd->lying_flush)
		return;
	rd_freeze(rd, &f);
	WRITE_ONCE(rd->lying_flush, lying);
	rd_thaw(rd, &f);
}

void rd_dev_set_throttle(struct rd_device *rd, const struct rd_config *cfg)
{
	WRITE_ONCE(rd->throttled, rd_throttle_set(rd->throttle, cfg));
}

/* torn-media-error: a torn physical block goes into the bad blocks */
static bool rd_dev_cut_torn(void *bb, sector_t sector, unsigned int nr)
{
	return rd_bb_add_torn(bb, sector, sector + nr - 1);
}

/*
 * Only writeback mode holds anything volatile. The cut waits for the bios
 * running now and holds off the next ones (power_sem), so it falls between
 * bios. Completed writes it loses while the device is open are reported
 * by the next flush (RD_LOST_WRITES); rd_release() forgets them once
 * the last opener has gone, as the kernel does not report a writeback
 * error to a file opened after it. Called with open_mutex and, in
 * writeback mode, power_sem held for write.
 */
static void rd_dev_cut_locked(struct rd_device *rd, const struct rd_config *cfg)
{
	struct rd_cut cut = {
		/* power-loss protection: the capacitors write the whole cache out */
		.drop_percent = cfg->power_cut_personality == RD_PERSONALITY_PLP ?
					0 :
					cfg->power_cut_drop_percent,
		.seed = cfg->power_cut_seed,
		.unit = cfg->power_cut_unit,
		.block_size = cfg->block_size,
		.misdirect = cfg->power_cut_personality == RD_PERSONALITY_MISDIRECTED,
		.nr_sectors = cfg->size >> SECTOR_SHIFT,
		.physical_block_size = rd_config_physical_block_size(cfg),
	};

	if (!rd->cache)
		return;
	if (rd->zones) {
		rd_zones_cut_begin(rd->zones);
		cut.lost = rd_zones_cut_lost;
		cut.lost_arg = rd->zones;
	}
	if (cfg->power_cut_personality == RD_PERSONALITY_TORN_MEDIA_ERROR && rd->badblocks) {
		cut.torn = rd_dev_cut_torn;
		cut.torn_arg = rd->badblocks;
	}
	/* only those who hold the device open were promised anything */
	if (rd_cache_power_cut(rd->cache, &cut) && disk_openers(rd->disk))
		set_bit(RD_LOST_WRITES, &rd->flags);
	if (rd->zones)
		rd_zones_cut_end(rd->zones, rd->top);
	/* before any bio runs again, so that none misses a torn block */
	if (cut.torn)
		rd_bb_key_sync(rd->badblocks);
	/* the log's history ends at the cut: no later flush covers what it lost */
	rd_wlog_cut(rd);
	WRITE_ONCE(rd->power_gen, rd->power_gen + 1);
}

/*
 * Cuts every member at one instant: no bio of any member runs, or
 * completes unfailed, between the first member's cut and the last's, as
 * each holds its power_sem shared while it runs and a late completion
 * checks power_gen. The locks go in the members' order (by index, as the
 * caller sorts them) and every open_mutex before every power_sem, the
 * order a single cut takes them in; rd_lock, held by the caller, tells
 * lockdep that nobody else takes two of them at once.
 *
 * Clean cached pages of every disk and partition go too, so that
 * buffered readers see the durable state; partitions come and go under
 * open_mutex.
 */
void rd_dev_power_cut_members(const struct rd_cut_member *m, unsigned int n)
{
	struct block_device *part;
	unsigned long idx;
	unsigned int i;

	lockdep_assert_held(&rd_lock);
	for (i = 0; i < n; i++)
		mutex_lock_nest_lock(&m[i].rd->disk->open_mutex, &rd_lock);
	for (i = 0; i < n; i++)
		if (m[i].rd->cache)
			down_write_nest_lock(&m[i].rd->power_sem, &rd_lock);
	for (i = 0; i < n; i++)
		rd_dev_cut_locked(m[i].rd, m[i].cfg);
	for (i = n; i-- > 0;)
		if (m[i].rd->cache)
			up_write(&m[i].rd->power_sem);
	for (i = n; i-- > 0;) {
		xa_for_each(&m[i].rd->disk->part_tbl, idx, part)
			invalidate_bdev(part);
		mutex_unlock(&m[i].rd->disk->open_mutex);
	}
}

void rd_dev_power_cut(struct rd_device *rd, const struct rd_config *cfg)
{
	struct rd_cut_member m = { .rd = rd, .cfg = cfg };

	rd_dev_power_cut_members(&m, 1);
}

long rd_total_pages(void)
{
	return atomic_long_read(&rd_store_total_pages);
}

/*
 * The name /proc/devices lists beside the major. Not "ramdisk": brd
 * registers its major under that name, and both can be loaded at once.
 */
#define RD_MAJOR_NAME "ramdisk-ko"

int rd_dev_major_register(void)
{
	int major = register_blkdev(0, RD_MAJOR_NAME);

	if (major < 0) {
		pr_err("cannot get a block major number: %d\n", major);
		return major;
	}
	rd_major = major;
	return 0;
}

void rd_dev_major_unregister(void)
{
	unregister_blkdev(rd_major, RD_MAJOR_NAME);
}
