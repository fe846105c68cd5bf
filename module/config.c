// SPDX-License-Identifier: GPL-2.0
/*
 * A device's configuration: the defaults a new one starts from, and the
 * checks that refuse, with a message naming the attribute, one that
 * cannot make a device. Both configfs (at power-on and on a live change)
 * and the load-time devices go through them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/nodemask.h>
#include <linux/numa.h>

#include "cache.h"
#include "compat.h"
#include "ramdisk.h"
#include "store.h"
#include "write_log.h"
#include "zones.h"

/* The block layer keeps a device's size in bytes in a loff_t. */
#define RD_MAX_BYTES round_down((u64)MAX_LFS_FILESIZE, PAGE_SIZE)

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
	cfg->power_cut_personality = RD_PERSONALITY_UNORDERED;
	cfg->write_log_limit = RD_WLOG_LIMIT_DEFAULT;
	cfg->zone_size = RD_ZONE_SIZE_DEFAULT;
}

unsigned int rd_config_physical_block_size(const struct rd_config *cfg)
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
	unsigned int phys = rd_config_physical_block_size(cfg);
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
	/* a sequential zone takes a write at its write pointer or not at all */
	if (cfg->zoned && cfg->power_cut_personality == RD_PERSONALITY_MISDIRECTED) {
		pr_warn("%s: power_cut_personality misdirected is for a device that is not zoned: a zone's writes have one place, its write pointer\n",
			who);
		return -EINVAL;
	}
	/* the cache tears a physical block within one of its pages */
	if (cfg->power_cut_personality == RD_PERSONALITY_TORN_MEDIA_ERROR &&
	    rd_config_physical_block_size(cfg) > PAGE_SIZE) {
		pr_warn("%s: power_cut_personality torn-media-error needs a physical block of at most the page size, %lu\n",
			who, PAGE_SIZE);
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

/* unit_min 0 with atomic writes on: one logical block, the least a disk writes */
unsigned int rd_config_atomic_unit_min(const struct rd_config *cfg)
{
	return cfg->atomic_write_unit_min ?: cfg->block_size;
}
