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
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/xarray.h>

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
/* The block layer keeps a device's size in bytes in a loff_t. */
#define RD_MAX_BYTES round_down((u64)MAX_LFS_FILESIZE, PAGE_SIZE)

DEFINE_MUTEX(rd_lock);
static DEFINE_IDA(rd_dev_number_ida);
/* The devices that have a disk, by number: a clone finds its origin here. */
static DEFINE_XARRAY(rd_devices);
static int rd_major;

void rd_freeze(struct rd_device *rd, struct rd_frozen *f)
{
	f->noio = memalloc_noio_save();
	f->memflags = rd_compat_freeze_queue(rd->disk->queue);
}

void rd_thaw(struct rd_device *rd, struct rd_frozen *f)
{
	rd_compat_unfreeze_queue(rd->disk->queue, f->memflags);
	memalloc_noio_restore(f->noio);
}

void rd_config_init_default(struct rd_config *cfg)
{
	cfg->size = RAMDISK_SIZE_DEFAULT;
	cfg->block_size = RAMDISK_BLOCK_SIZE_DEFAULT;
	cfg->max_part = 0;
	cfg->mem_limit = 0;
	cfg->spare_pages = RD_SPARE_PAGES_DEFAULT;
	cfg->numa_node = NUMA_NO_NODE;
	cfg->cache_mode = RD_CACHE_WRITETHROUGH;
	cfg->cache_size = RD_CACHE_SIZE_DEFAULT;
	cfg->power_cut_drop_percent = 100;
	cfg->power_cut_seed = 1;
	cfg->power_cut_unit = RD_CUT_PAGE;
	cfg->write_log_limit = RD_WLOG_LIMIT_DEFAULT;
	cfg->zone_size = RD_ZONE_SIZE_DEFAULT;
}

/* The physical block: the device's unit of atomic writes and alignment. */
static unsigned int rd_physical_block_size(const struct rd_config *cfg)
{
	if (cfg->physical_block_size)
		return cfg->physical_block_size;
	return max_t(unsigned int, cfg->block_size, PAGE_SIZE);
}

/*
 * Block sizes as a disk reports them: a logical block the block layer of
 * this kernel can cache, a physical block no smaller (a 512e disk: 512
 * logical, 4096 physical), a minimum I/O of whole physical blocks and an
 * optimal I/O of whole minimum ones (a RAID chunk and its stripe).
 */
static int rd_config_validate_geometry(const struct rd_config *cfg, const char *who)
{
	unsigned int phys = rd_physical_block_size(cfg);
	unsigned int io_min = max(cfg->io_min, phys);

	if (cfg->block_size < SECTOR_SIZE || cfg->block_size > RD_COMPAT_MAX_BLOCK_SIZE ||
	    !is_power_of_2(cfg->block_size)) {
		pr_warn("%s: block_size %u is not a power of two from 512 to %lu, this kernel's largest\n",
			who, cfg->block_size, (unsigned long)RD_COMPAT_MAX_BLOCK_SIZE);
		return -EINVAL;
	}
	if (cfg->physical_block_size && (cfg->physical_block_size < cfg->block_size ||
					 cfg->physical_block_size > RAMDISK_BLOCK_SIZE_MAX ||
					 !is_power_of_2(cfg->physical_block_size))) {
		pr_warn("%s: physical_block_size %u is not a power of two from block_size %u to %d\n",
			who, cfg->physical_block_size, cfg->block_size, RAMDISK_BLOCK_SIZE_MAX);
		return -EINVAL;
	}
	if (cfg->io_min % phys) {
		pr_warn("%s: io_min %u is not a multiple of the physical block size %u\n", who,
			cfg->io_min, phys);
		return -EINVAL;
	}
	if (cfg->io_opt % io_min) {
		pr_warn("%s: io_opt %u is not a multiple of the minimum I/O size %u\n", who,
			cfg->io_opt, io_min);
		return -EINVAL;
	}
	/*
	 * The cache keeps and loses whole pages: a logical block larger than
	 * a page would come back half-written after a power cut, which no
	 * disk does to one block.
	 */
	if (cfg->cache_mode == RD_CACHE_WRITEBACK && cfg->block_size > PAGE_SIZE) {
		pr_warn("%s: cache_mode writeback needs block_size at most the page size, %lu\n",
			who, PAGE_SIZE);
		return -EINVAL;
	}
	return 0;
}

/*
 * An atomic write size or boundary: a power of two of whole logical
 * blocks, as a disk counts them (NVMe AWUPF and NABSPF are counts of
 * logical blocks). 0 = not set.
 */
static bool rd_atomic_size_ok(unsigned int bytes, unsigned int block_size)
{
	return !bytes || (is_power_of_2(bytes) && bytes >= block_size);
}

/*
 * Atomic writes as the block layer takes them: units from the smallest to
 * the largest, and a boundary no larger than the largest write would
 * leave writes that can never be whole.
 */
static int rd_config_validate_atomic(const struct rd_config *cfg, const char *who)
{
	static const char *const names[] = { "atomic_write_unit_min", "atomic_write_unit_max",
					     "atomic_write_boundary" };
	const unsigned int vals[] = { cfg->atomic_write_unit_min, cfg->atomic_write_unit_max,
				      cfg->atomic_write_boundary };
	int i;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		if (!rd_atomic_size_ok(vals[i], cfg->block_size)) {
			pr_warn("%s: %s %u is not a power of two at least block_size %u\n", who,
				names[i], vals[i], cfg->block_size);
			return -EINVAL;
		}
	}
	if (cfg->atomic_write_unit_max > RD_ATOMIC_WRITE_MAX) {
		pr_warn("%s: atomic_write_unit_max %u is above %u, the largest bio the block layer always builds whole\n",
			who, cfg->atomic_write_unit_max, RD_ATOMIC_WRITE_MAX);
		return -EINVAL;
	}
	if (cfg->atomic_write_unit_min > cfg->atomic_write_unit_max) {
		pr_warn("%s: atomic_write_unit_min %u is above atomic_write_unit_max %u\n", who,
			cfg->atomic_write_unit_min, cfg->atomic_write_unit_max);
		return -EINVAL;
	}
	if (cfg->atomic_write_boundary && cfg->atomic_write_boundary < cfg->atomic_write_unit_max) {
		pr_warn("%s: atomic_write_boundary %u is below atomic_write_unit_max %u\n", who,
			cfg->atomic_write_boundary, cfg->atomic_write_unit_max);
		return -EINVAL;
	}
	if (cfg->atomic_write_boundary && !cfg->atomic_write_unit_max) {
		pr_warn("%s: atomic_write_boundary %u needs atomic_write_unit_max set first\n", who,
			cfg->atomic_write_boundary);
		return -EINVAL;
	}
	return 0;
}

/* Returns -EINVAL and logs why when cfg cannot make a device. */
int rd_config_validate(const struct rd_config *cfg, const char *who)
{
	int err;

	err = rd_config_validate_geometry(cfg, who);
	if (err)
		return err;
	err = rd_config_validate_atomic(cfg, who);
	if (err)
		return err;
	err = rd_zones_validate(cfg, who);
	if (err)
		return err;
	if (!cfg->size) {
		pr_warn("%s: size 0 is invalid, a device needs at least one page\n", who);
		return -EINVAL;
	}
	if (cfg->size % cfg->block_size) {
		pr_warn("%s: size %llu is not a multiple of block_size %u\n", who, cfg->size,
			cfg->block_size);
		return -EINVAL;
	}
	if (cfg->size % PAGE_SIZE) {
		pr_warn("%s: size %llu is not a multiple of the page size %lu\n", who, cfg->size,
			PAGE_SIZE);
		return -EINVAL;
	}
	if (cfg->size > RD_MAX_BYTES) {
		pr_warn("%s: size %llu is above the largest block device, %llu bytes\n", who,
			cfg->size, RD_MAX_BYTES);
		return -EINVAL;
	}
	if (cfg->phys_size && (cfg->phys_size < 2 * RD_PHYS_HEADER_BYTES ||
			       cfg->size != cfg->phys_size - RD_PHYS_HEADER_BYTES)) {
		pr_warn("%s: size %llu must be phys_size %llu less the %d-byte header\n", who,
			cfg->size, cfg->phys_size, RD_PHYS_HEADER_BYTES);
		return -EINVAL;
	}
	if (cfg->cache_mode == RD_CACHE_WRITEBACK && cfg->cache_size < PAGE_SIZE) {
		pr_warn("%s: cache_size %llu is below one page, %lu bytes\n", who, cfg->cache_size,
			PAGE_SIZE);
		return -EINVAL;
	}
	if (cfg->power_cut_drop_percent > 100) {
		pr_warn("%s: power_cut_drop_percent %u is above 100\n", who,
			cfg->power_cut_drop_percent);
		return -EINVAL;
	}
	if (!cfg->write_log_limit) {
		pr_warn("%s: write_log_limit 0 would hold no entry\n", who);
		return -EINVAL;
	}
	if (cfg->spare_pages > RD_SPARE_PAGES_MAX) {
		pr_warn("%s: spare_pages %u is above %d\n", who, cfg->spare_pages,
			RD_SPARE_PAGES_MAX);
		return -EINVAL;
	}
	if (cfg->max_part > RAMDISK_MAX_PART) {
		pr_warn("%s: max_part %u is above %d\n", who, cfg->max_part, RAMDISK_MAX_PART);
		return -EINVAL;
	}
	if (cfg->numa_node != NUMA_NO_NODE &&
	    (cfg->numa_node < 0 || cfg->numa_node >= MAX_NUMNODES ||
	     !node_online(cfg->numa_node))) {
		pr_warn("%s: numa_node %d is neither -1 nor an online node\n", who, cfg->numa_node);
		return -EINVAL;
	}
	return 0;
}

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

/* unit_min 0 with atomic writes on: one logical block, the least a disk writes */
static unsigned int rd_atomic_unit_min(const struct rd_config *cfg)
{
	return cfg->atomic_write_unit_min ?: cfg->block_size;
}

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
	if (unit_min == rd_atomic_unit_min(cfg) && unit_max == cfg->atomic_write_unit_max)
		return 0;
	pr_warn("%s: the block layer took atomic writes of %u to %u bytes, not the %u to %u configured\n",
		who, unit_min, unit_max, rd_atomic_unit_min(cfg), cfg->atomic_write_unit_max);
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
		.physical_block_size = rd_physical_block_size(cfg),
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
		rd_compat_limits_atomic_writes(&lim, rd_atomic_unit_min(cfg),
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
	if (cfg->cache_mode == RD_CACHE_WRITEBACK) {
		rd->cache = rd_cache_create(rd->store, cfg->cache_size);
		if (!rd->cache)
			goto out_destroy_throttle;
	}
	if (cfg->zoned) {
		rd->zones = rd_zones_create(cfg);
		if (!rd->zones)
			goto out_destroy_cache;
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
	rd->atomic_unit_min = rd_atomic_unit_min(cfg);
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

void rd_dev_set_throttle(struct rd_device *rd, const struct rd_config *cfg)
{
	WRITE_ONCE(rd->throttled, rd_throttle_set(rd->throttle, cfg));
}

/*
 * Only writeback mode holds anything volatile. The cut waits for the bios
 * running now and holds off the next ones (power_sem), so it falls between
 * bios. Completed writes it loses while the device is open are reported
 * by the next flush (RD_LOST_WRITES); rd_release() forgets them once
 * the last opener has gone, as the kernel does not report a writeback
 * error to a file opened after it.
 *
 * Clean cached pages of the disk and of every partition go too, so that
 * buffered readers see the durable state; partitions come and go under
 * open_mutex.
 */
void rd_dev_power_cut(struct rd_device *rd, const struct rd_config *cfg)
{
	struct rd_cut cut = {
		.drop_percent = cfg->power_cut_drop_percent,
		.seed = cfg->power_cut_seed,
		.unit = cfg->power_cut_unit,
		.block_size = cfg->block_size,
	};
	struct gendisk *disk = rd->disk;
	struct block_device *part;
	unsigned long idx;

	mutex_lock(&disk->open_mutex);
	if (rd->cache) {
		down_write(&rd->power_sem);
		if (rd->zones) {
			rd_zones_cut_begin(rd->zones);
			cut.lost = rd_zones_cut_lost;
			cut.lost_arg = rd->zones;
		}
		/* only those who hold the device open were promised anything */
		if (rd_cache_power_cut(rd->cache, &cut) && disk_openers(disk))
			set_bit(RD_LOST_WRITES, &rd->flags);
		if (rd->zones)
			rd_zones_cut_end(rd->zones, rd_cache_store(rd->cache));
		/* the log's history ends at the cut: no later flush covers what it lost */
		rd_wlog_cut(rd);
		WRITE_ONCE(rd->power_gen, rd->power_gen + 1);
		up_write(&rd->power_sem);
	}
	xa_for_each(&disk->part_tbl, idx, part)
		invalidate_bdev(part);
	mutex_unlock(&disk->open_mutex);
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
