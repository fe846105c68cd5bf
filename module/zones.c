// SPDX-License-Identifier: GPL-2.0
/*
 * Host-managed zones, with the rules of a ZNS (NVMe) or ZBC (SMR) device
 * as the kernel models them (include/uapi/linux/blkzoned.h):
 *
 * - Conventional zones, at the start of the device, take any write.
 * - A sequential zone takes writes only at its write pointer, and only up
 *   to its capacity; anything else fails with BLK_STS_IOERR, as on a disk
 *   (an unaligned write, or a write to a full zone). It reads zeros past
 *   its write pointer: a reset frees its pages, and a write that fails
 *   leaves nothing of itself behind.
 * - A write to an empty or closed zone opens it implicitly. At most
 *   max_open zones are open and max_active open or closed; a zone that
 *   would break a limit fails with BLK_STS_ZONE_OPEN_RESOURCE or
 *   BLK_STS_ZONE_ACTIVE_RESOURCE, except that, as on ZNS, the device first
 *   closes the zone it opened implicitly longest ago to make room for
 *   another open one.
 * - Management commands move zones between conditions as null_blk's
 *   model does, the emulator zoned file systems are tested on, so a test
 *   sees the same answers from both: closing an empty or full zone, or
 *   opening a full one, fails; finishing a full zone or resetting an empty
 *   one does nothing.
 *
 * - With a volatile write cache (writeback mode), a zone's data is durable
 *   up to its write pointer only once a flush, a FUA write or the cache's
 *   need for room has written it; a FUA write first makes durable what
 *   precedes it in its zone, as a disk that writes a zone in order has
 *   before it can say the write is. A power cut moves each write pointer
 *   back to the first sector it lost, so that the zone still holds every
 *   sector below its write pointer and zeros past it: what a disk reports
 *   after power comes back. Sectors the cut kept past that point go too,
 *   as a zone cannot hold data past its write pointer. Zones that were
 *   open come back closed, as on ZNS.
 *
 * Locking. Each zone has a mutex, which a write holds while it moves
 * data, and a management command while it works: a zone's write pointer
 * moves by whole bios, and no reset lands in the middle of a write. The
 * block layer sends one write per zone at a time anyway (its zone write
 * plugs); the mutex keeps management commands, which it does not plug,
 * apart from them. Conditions, write pointers and the open and active
 * counts change under the device's spinlock, so that one zone's implicit
 * open may close another, and a report reads each zone whole without
 * waiting for a write.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "compat.h"
#include "ramdisk.h"
#include "store.h"
#include "zones.h"

/*
 * The most zones a device has: their state takes about 100 bytes each
 * with lock debugging, so 256 Ki zones stay within tens of MiB.
 */
#define RD_ZONES_MAX (1U << 18)
/* The smallest zone: one of the largest logical blocks, 64 KiB. */
#define RD_ZONE_SIZE_MIN SZ_64K
/* chunk_sectors, which carries the zone size to the block layer, is 32 bits of sectors. */
#define RD_ZONE_SIZE_MAX (1ULL << 31 << SECTOR_SHIFT)

struct rd_zone {
	/* held by a write while it moves data, and by a management command */
	struct mutex lock;
	/* the rest under rd_zones.lock */
	sector_t wp;
	u8 cond; /* enum blk_zone_cond */
	/* a write holds the zone: it is not to be closed implicitly */
	bool busy;
	/* on rd_zones.imp_open while implicitly open, oldest first */
	struct list_head imp_open;
	/* during a power cut: the first sector lost, or wp */
	sector_t cut_wp;
};

struct rd_zones {
	unsigned int nr_zones;
	unsigned int nr_conv;
	unsigned int shift; /* a zone is 1 << shift sectors */
	sector_t cap; /* the sectors a sequential zone takes */
	unsigned int max_open; /* 0 = no limit */
	unsigned int max_active;

	spinlock_t lock;
	unsigned int nr_imp_open;
	unsigned int nr_exp_open;
	unsigned int nr_closed;
	struct list_head imp_open;
	u64 resets;
	u64 appends;
	u64 implicit_closes;
	u64 wp_errors;
	u64 resource_errors;
	u64 wp_rollbacks;
	/* in reserved memory: a word a zone that outlives the module (store_phys.c) */
	__le32 *words;

	struct rd_zone zones[];
};

static int rd_zones_validate_sizes(const struct rd_config *cfg, const char *who)
{
	if (!is_power_of_2(cfg->zone_size) || cfg->zone_size < RD_ZONE_SIZE_MIN ||
	    cfg->zone_size > RD_ZONE_SIZE_MAX) {
		pr_warn("%s: zone_size %llu is not a power of two from %u to %llu\n", who,
			cfg->zone_size, RD_ZONE_SIZE_MIN, RD_ZONE_SIZE_MAX);
		return -EINVAL;
	}
	if (cfg->zone_size < cfg->block_size || cfg->zone_capacity % cfg->block_size) {
		pr_warn("%s: zone_size %llu and zone_capacity %llu must be whole logical blocks of %u bytes\n",
			who, cfg->zone_size, cfg->zone_capacity, cfg->block_size);
		return -EINVAL;
	}
	if (cfg->zone_capacity > cfg->zone_size) {
		pr_warn("%s: zone_capacity %llu is above zone_size %llu\n", who, cfg->zone_capacity,
			cfg->zone_size);
		return -EINVAL;
	}
	if (cfg->zone_max_active && cfg->zone_max_open > cfg->zone_max_active) {
		pr_warn("%s: zone_max_open %u is above zone_max_active %u\n", who,
			cfg->zone_max_open, cfg->zone_max_active);
		return -EINVAL;
	}
	return 0;
}

/*
 * The zone settings are checked whenever one changes, and their relation
 * to the rest of the configuration once zoned is 1: a configuration is
 * then written in any order that keeps it whole.
 */
int rd_zones_validate(const struct rd_config *cfg, const char *who)
{
	u64 nr_zones;
	int err;

	err = rd_zones_validate_sizes(cfg, who);
	if (err || !cfg->zoned)
		return err;
	if (!RD_COMPAT_ZONED) {
		pr_warn("%s: zoned is not supported: this kernel's block layer has no zone write plugging for a bio-based driver (6.10)\n",
			who);
		return -EOPNOTSUPP;
	}
	if (cfg->size % cfg->zone_size) {
		pr_warn("%s: size %llu is not a whole number of zones of %llu bytes\n", who,
			cfg->size, cfg->zone_size);
		return -EINVAL;
	}
	nr_zones = div64_u64(cfg->size, cfg->zone_size);
	if (nr_zones > RD_ZONES_MAX) {
		pr_warn("%s: %llu zones are more than the %u a device may have; make zone_size larger\n",
			who, nr_zones, RD_ZONES_MAX);
		return -EINVAL;
	}
	if (cfg->zone_nr_conv >= nr_zones) {
		pr_warn("%s: zone_nr_conv %u leaves none of the %llu zones sequential\n", who,
			cfg->zone_nr_conv, nr_zones);
		return -EINVAL;
	}
	if (cfg->zone_max_active > nr_zones - cfg->zone_nr_conv ||
	    cfg->zone_max_open > nr_zones - cfg->zone_nr_conv) {
		pr_warn("%s: zone_max_open %u and zone_max_active %u must not exceed the %llu sequential zones\n",
			who, cfg->zone_max_open, cfg->zone_max_active,
			nr_zones - cfg->zone_nr_conv);
		return -EINVAL;
	}
	if (cfg->phys_size && nr_zones > RD_PHYS_ZONES_MAX) {
		pr_warn("%s: %llu zones are more than the %u a zoned device in reserved memory may have; make zone_size larger\n",
			who, nr_zones, RD_PHYS_ZONES_MAX);
		return -EINVAL;
	}
	if (cfg->phys_size && cfg->cache_mode != RD_CACHE_WRITETHROUGH) {
		pr_warn("%s: a zoned device in reserved memory takes cache_mode writethrough only: its write pointers are kept as each write completes, before a cache would make the data durable\n",
			who);
		return -EINVAL;
	}
	if (cfg->max_part) {
		pr_warn("%s: a zoned disk has no partitions: max_part must be 0\n", who);
		return -EINVAL;
	}
	if (cfg->atomic_write_unit_max) {
		pr_warn("%s: a zoned device takes no atomic writes: atomic_write_unit_max must be 0\n",
			who);
		return -EINVAL;
	}
	return 0;
}

struct rd_zones *rd_zones_create(const struct rd_config *cfg)
{
	unsigned int nr_zones = div64_u64(cfg->size, cfg->zone_size);
	struct rd_zones *z;
	unsigned int i;

	z = kvzalloc(struct_size(z, zones, nr_zones), GFP_KERNEL);
	if (!z)
		return NULL;
	z->nr_zones = nr_zones;
	z->nr_conv = cfg->zone_nr_conv;
	z->shift = ilog2(cfg->zone_size >> SECTOR_SHIFT);
	z->cap = (cfg->zone_capacity ?: cfg->zone_size) >> SECTOR_SHIFT;
	z->max_open = cfg->zone_max_open;
	z->max_active = cfg->zone_max_active;
	spin_lock_init(&z->lock);
	INIT_LIST_HEAD(&z->imp_open);
	for (i = 0; i < nr_zones; i++) {
		struct rd_zone *zone = &z->zones[i];

		mutex_init(&zone->lock);
		INIT_LIST_HEAD(&zone->imp_open);
		zone->wp = (sector_t)i << z->shift;
		zone->cond = i < z->nr_conv ? BLK_ZONE_COND_NOT_WP : BLK_ZONE_COND_EMPTY;
	}
	return z;
}

void rd_zones_destroy(struct rd_zones *z)
{
	unsigned int i;

	if (!z)
		return;
	for (i = 0; i < z->nr_zones; i++)
		mutex_destroy(&z->zones[i].lock);
	kvfree(z);
}

/*
 * A saved zone's word: its write pointer in sectors from its start, or
 * RD_ZONE_WORD_FULL for a full zone. Open zones come back closed, as
 * after a power cycle.
 */
#define RD_ZONE_WORD_FULL BIT(31)

/* Saves the zone's word, if the device keeps them. Under z->lock or alone. */
static void rd_zone_save(struct rd_zones *z, struct rd_zone *zone, u32 word)
{
	if (z->words)
		WRITE_ONCE(z->words[zone - z->zones], cpu_to_le32(word));
}

static u32 rd_zone_word_locked(const struct rd_zones *z, const struct rd_zone *zone)
{
	if (zone->cond == BLK_ZONE_COND_FULL)
		return RD_ZONE_WORD_FULL;
	return zone->wp - ((sector_t)(zone - z->zones) << z->shift);
}

/* A word a sequential zone of these may come back from: full, or a pointer within its capacity. */
static bool rd_zone_word_valid(const struct rd_zones *z, u32 word)
{
	return word == RD_ZONE_WORD_FULL || word <= z->cap;
}

static void rd_zone_leave_locked(struct rd_zones *z, struct rd_zone *zone);

/*
 * The zone comes back from its word as after a power cycle: full, closed
 * at its write pointer, or empty. Open zones have no word of their own:
 * they come back closed. Under z->lock or alone.
 */
static void rd_zone_set_word_locked(struct rd_zones *z, struct rd_zone *zone, u32 word)
{
	sector_t start = (sector_t)(zone - z->zones) << z->shift;

	rd_zone_leave_locked(z, zone);
	if (word == RD_ZONE_WORD_FULL) {
		zone->cond = BLK_ZONE_COND_FULL;
		zone->wp = start + (1ULL << z->shift);
	} else if (word) {
		zone->cond = BLK_ZONE_COND_CLOSED;
		zone->wp = start + word;
		z->nr_closed++;
	} else {
		zone->cond = BLK_ZONE_COND_EMPTY;
		zone->wp = start;
	}
}

static void rd_zone_clear(struct rd_store *store, sector_t sector, sector_t nr, bool nowait);

int rd_zones_load(struct rd_zones *z, struct rd_store *store, const char *who)
{
	bool unclean = false;
	__le32 *words = rd_store_phys_zone_words(store, &unclean);
	unsigned int i;

	if (!words)
		return 0;
	/* every word checked before any is used: a refusal changes nothing */
	for (i = z->nr_conv; i < z->nr_zones; i++) {
		u32 word = le32_to_cpu(words[i]);

		if (rd_zone_word_valid(z, word))
			continue;
		pr_warn("%s: zone %u's saved write pointer (0x%08x) is past its capacity of %llu sectors; refusing to attach (format=1 starts afresh)\n",
			who, i, word, (u64)z->cap);
		return -EINVAL;
	}
	for (i = z->nr_conv; i < z->nr_zones; i++) {
		struct rd_zone *zone = &z->zones[i];
		sector_t end = ((sector_t)i + 1) << z->shift;

		/* no bio yet: the device is being made */
		rd_zone_set_word_locked(z, zone, le32_to_cpu(words[i]));
		/* a write the crash cut short may have left data past the pointer */
		if (unclean && zone->wp < end)
			rd_zone_clear(store, zone->wp, end - zone->wp, false);
	}
	z->words = words;
	return 0;
}

/*
 * A checkpoint's zones are the words a disk that loses power keeps:
 * taken, rolled back to and cloned with every bio held off, so that no
 * write is half done and each word matches the pages taken beside it.
 */
void rd_zones_save_words(struct rd_zones *z, u32 *words)
{
	unsigned int i;

	spin_lock(&z->lock);
	for (i = 0; i < z->nr_zones; i++)
		words[i] = i < z->nr_conv ? 0 : rd_zone_word_locked(z, &z->zones[i]);
	spin_unlock(&z->lock);
}

int rd_zones_check_words(const struct rd_zones *z, const u32 *words, unsigned int nr,
			 const char *who)
{
	unsigned int i;

	if (!words || nr != z->nr_zones) {
		pr_warn("%s: the checkpoint holds %u zones' write pointers, not the %u of this device\n",
			who, words ? nr : 0, z->nr_zones);
		return -EINVAL;
	}
	for (i = z->nr_conv; i < z->nr_zones; i++) {
		if (rd_zone_word_valid(z, words[i]))
			continue;
		pr_warn("%s: the checkpoint's write pointer of zone %u (0x%08x) is past its capacity of %llu sectors\n",
			who, i, words[i], (u64)z->cap);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every zone leaves its condition, and the open and closed counts with
 * it, as it takes its word: the counts stay those of the conditions at
 * each step. The statistics since the device was made stay; a rollback
 * is no reset nor power cut.
 */
void rd_zones_restore_words(struct rd_zones *z, const u32 *words)
{
	unsigned int i;

	for (i = z->nr_conv; i < z->nr_zones; i++) {
		struct rd_zone *zone = &z->zones[i];

		mutex_lock(&zone->lock);
		spin_lock(&z->lock);
		rd_zone_set_word_locked(z, zone, words[i]);
		rd_zone_save(z, zone, words[i]);
		spin_unlock(&z->lock);
		mutex_unlock(&zone->lock);
		cond_resched();
	}
}

void rd_zones_config(const struct rd_zones *z, struct rd_config *cfg)
{
	cfg->zoned = true;
	cfg->zone_size = (u64)SECTOR_SIZE << z->shift;
	cfg->zone_capacity = (u64)z->cap << SECTOR_SHIFT;
	cfg->zone_nr_conv = z->nr_conv;
	cfg->zone_max_open = z->max_open;
	cfg->zone_max_active = z->max_active;
}

unsigned int rd_zones_count(const struct rd_zones *z)
{
	return z->nr_zones;
}

unsigned int rd_zones_index(const struct rd_zones *z, sector_t sector)
{
	return sector >> z->shift;
}

static sector_t rd_zone_start(const struct rd_zones *z, const struct rd_zone *zone)
{
	return (sector_t)(zone - z->zones) << z->shift;
}

void rd_zones_get(struct rd_zones *z, unsigned int idx, struct blk_zone *out)
{
	struct rd_zone *zone = &z->zones[idx];

	memset(out, 0, sizeof(*out));
	out->start = (sector_t)idx << z->shift;
	out->len = 1ULL << z->shift;
	if (idx < z->nr_conv) {
		out->type = BLK_ZONE_TYPE_CONVENTIONAL;
		out->cond = BLK_ZONE_COND_NOT_WP;
		out->wp = out->start + out->len;
		out->capacity = out->len;
		return;
	}
	out->type = BLK_ZONE_TYPE_SEQWRITE_REQ;
	out->capacity = z->cap;
	spin_lock(&z->lock);
	out->cond = zone->cond;
	out->wp = zone->wp;
	spin_unlock(&z->lock);
	/* a full zone's write pointer is past its end, as disks report it */
	if (out->cond == BLK_ZONE_COND_FULL)
		out->wp = out->start + out->len;
}

static unsigned int rd_zones_nr_active(const struct rd_zones *z)
{
	return z->nr_imp_open + z->nr_exp_open + z->nr_closed;
}

/* The zone leaves the condition it is in, and the counts with it. Under z->lock. */
static void rd_zone_leave_locked(struct rd_zones *z, struct rd_zone *zone)
{
	switch (zone->cond) {
	case BLK_ZONE_COND_IMP_OPEN:
		list_del_init(&zone->imp_open);
		z->nr_imp_open--;
		break;
	case BLK_ZONE_COND_EXP_OPEN:
		z->nr_exp_open--;
		break;
	case BLK_ZONE_COND_CLOSED:
		z->nr_closed--;
		break;
	default:
		break;
	}
}

/* An open zone closes: empty again if nothing was written to it. Under z->lock. */
static void rd_zone_close_locked(struct rd_zones *z, struct rd_zone *zone)
{
	rd_zone_leave_locked(z, zone);
	if (zone->wp == rd_zone_start(z, zone)) {
		zone->cond = BLK_ZONE_COND_EMPTY;
	} else {
		zone->cond = BLK_ZONE_COND_CLOSED;
		z->nr_closed++;
	}
}

/*
 * Room for one more open zone, closing the zone that was opened
 * implicitly longest ago if the limit is reached and one is idle, as a
 * ZNS device does. Under z->lock.
 */
static bool rd_zones_room_to_open_locked(struct rd_zones *z)
{
	struct rd_zone *victim;

	if (!z->max_open || z->nr_imp_open + z->nr_exp_open < z->max_open)
		return true;
	list_for_each_entry(victim, &z->imp_open, imp_open) {
		if (victim->busy)
			continue;
		rd_zone_close_locked(z, victim);
		z->implicit_closes++;
		return true;
	}
	return false;
}

/* Opens the zone, implicitly for a write or explicitly by command. Under z->lock. */
static blk_status_t rd_zone_open_locked(struct rd_zones *z, struct rd_zone *zone, bool explicit)
{
	switch (zone->cond) {
	case BLK_ZONE_COND_EXP_OPEN:
		return BLK_STS_OK;
	case BLK_ZONE_COND_IMP_OPEN:
		if (explicit) {
			rd_zone_leave_locked(z, zone);
			zone->cond = BLK_ZONE_COND_EXP_OPEN;
			z->nr_exp_open++;
		}
		return BLK_STS_OK;
	case BLK_ZONE_COND_EMPTY:
		if (z->max_active && rd_zones_nr_active(z) >= z->max_active) {
			z->resource_errors++;
			return BLK_STS_ZONE_ACTIVE_RESOURCE;
		}
		break;
	case BLK_ZONE_COND_CLOSED:
		break;
	default:
		return BLK_STS_IOERR;
	}
	if (!rd_zones_room_to_open_locked(z)) {
		z->resource_errors++;
		return BLK_STS_ZONE_OPEN_RESOURCE;
	}
	rd_zone_leave_locked(z, zone);
	if (explicit) {
		zone->cond = BLK_ZONE_COND_EXP_OPEN;
		z->nr_exp_open++;
	} else {
		zone->cond = BLK_ZONE_COND_IMP_OPEN;
		z->nr_imp_open++;
		list_add_tail(&zone->imp_open, &z->imp_open);
	}
	return BLK_STS_OK;
}

/* A bio that must not wait does not wait for a zone either. */
static bool rd_zone_lock(struct rd_zone *zone, const struct bio *bio)
{
	if (!(bio->bi_opf & REQ_NOWAIT)) {
		mutex_lock(&zone->lock);
		return true;
	}
	return mutex_trylock(&zone->lock);
}

blk_status_t rd_zone_write_begin(struct rd_zones *z, struct bio *bio, struct rd_zone **out)
{
	sector_t sector = bio->bi_iter.bi_sector;
	sector_t nr = bio_sectors(bio);
	unsigned int idx = sector >> z->shift;
	struct rd_zone *zone;
	blk_status_t status;

	*out = NULL;
	/* an empty write carries a flush only */
	if (!nr || idx < z->nr_conv)
		return BLK_STS_OK;
	zone = &z->zones[idx];
	if (!rd_zone_lock(zone, bio))
		return BLK_STS_AGAIN;
	spin_lock(&z->lock);
	if (zone->cond == BLK_ZONE_COND_FULL || sector != zone->wp ||
	    sector + nr > rd_zone_start(z, zone) + z->cap) {
		z->wp_errors++;
		status = BLK_STS_IOERR;
	} else {
		status = rd_zone_open_locked(z, zone, false);
	}
	if (!status)
		zone->busy = true;
	spin_unlock(&z->lock);
	if (status) {
		mutex_unlock(&zone->lock);
		return status;
	}
	*out = zone;
	return BLK_STS_OK;
}

/*
 * Zeros over a range of a zone that must read as zeros, in parts that are
 * either whole pages or a piece of one page.
 *
 * A discard fails only where it must copy a page a checkpoint shares to
 * zero a piece of it (store.h), and such a page holds what it held when
 * a checkpoint was taken, rolled back to or cloned: zeros past the zone's
 * write pointer then, which is no further on now. (A reset, which takes
 * whole pages away, is what moves a pointer back below it: a failed
 * write leaves it, and a power cut moves it back only over writes the
 * cache took since, as a checkpoint empties the cache and a rollback
 * drops it.) So the piece reads zeros already: its failure is let pass,
 * and the parts after it are cleared all the same. Whole pages are let
 * go, never copied: a failure there is a bug to report.
 */
static void rd_zone_clear(struct rd_store *store, sector_t sector, sector_t nr, bool nowait)
{
	u64 pos = (u64)sector << SECTOR_SHIFT;
	u64 len = (u64)nr << SECTOR_SHIFT;

	while (len) {
		bool piece = offset_in_page(pos) || len < PAGE_SIZE;
		u64 part;
		int err;

		if (piece)
			part = min_t(u64, len, PAGE_SIZE - offset_in_page(pos));
		else
			part = round_down(nowait ? min_t(u64, len, RD_NOWAIT_DISCARD_BYTES) : len,
					  PAGE_SIZE);
		err = store->ops->discard(store, pos, part, nowait);
		WARN_ONCE(err && !piece,
			  "ramdisk: clearing %llu bytes at %llu of a zone failed: %d\n", part, pos,
			  err);
		pos += part;
		len -= part;
	}
}

int rd_zone_write_durable_below(struct rd_zones *z, struct rd_zone *zone, struct rd_store *store,
				struct bio *bio)
{
	sector_t start;

	if (!zone || !(bio->bi_opf & REQ_FUA) || !store->ops->make_durable)
		return 0;
	start = rd_zone_start(z, zone);
	/* the write is at the write pointer (rd_zone_write_begin()) */
	if (bio->bi_iter.bi_sector == start)
		return 0;
	return store->ops->make_durable(store, (u64)start << SECTOR_SHIFT,
					(u64)(bio->bi_iter.bi_sector - start) << SECTOR_SHIFT);
}

void rd_zone_write_end(struct rd_zones *z, struct rd_zone *zone, struct rd_store *store,
		       struct bio *bio, blk_status_t status)
{
	sector_t nr = bio_sectors(bio);
	sector_t start;

	if (!zone)
		return;
	start = rd_zone_start(z, zone);
	/* the write pointer stays, so what the write left past it goes */
	if (status)
		rd_zone_clear(store, bio->bi_iter.bi_sector, nr, bio->bi_opf & REQ_NOWAIT);
	spin_lock(&z->lock);
	zone->busy = false;
	if (!status) {
		if (rd_compat_bio_emulates_zone_append(bio))
			z->appends++;
		zone->wp += nr;
		if (zone->wp == start + z->cap) {
			rd_zone_leave_locked(z, zone);
			zone->cond = BLK_ZONE_COND_FULL;
		}
		/* after the data: a saved pointer never runs ahead of it */
		rd_zone_save(z, zone, rd_zone_word_locked(z, zone));
	} else if (zone->cond == BLK_ZONE_COND_IMP_OPEN && zone->wp == start) {
		/* opened for a write that failed: as if it never came */
		rd_zone_leave_locked(z, zone);
		zone->cond = BLK_ZONE_COND_EMPTY;
	}
	spin_unlock(&z->lock);
}

void rd_zone_write_unlock(struct rd_zone *zone)
{
	if (zone)
		mutex_unlock(&zone->lock);
}

/* With the zone's mutex held: back to empty, its pages freed; false if it was empty. */
static bool rd_zone_reset(struct rd_zones *z, struct rd_zone *zone, struct rd_store *store)
{
	sector_t start = rd_zone_start(z, zone);
	u8 cond;

	spin_lock(&z->lock);
	cond = zone->cond;
	spin_unlock(&z->lock);
	if (cond == BLK_ZONE_COND_EMPTY)
		return false;
	/* saved empty first: data a crash leaves past the pointer is cleared at attach */
	rd_zone_save(z, zone, 0);
	rd_zone_clear(store, start, 1ULL << z->shift, false);
	spin_lock(&z->lock);
	rd_zone_leave_locked(z, zone);
	zone->cond = BLK_ZONE_COND_EMPTY;
	zone->wp = start;
	z->resets++;
	spin_unlock(&z->lock);
	return true;
}

/* With the zone's mutex held. Under z->lock. */
static blk_status_t rd_zone_finish_locked(struct rd_zones *z, struct rd_zone *zone)
{
	switch (zone->cond) {
	case BLK_ZONE_COND_FULL:
		return BLK_STS_OK;
	case BLK_ZONE_COND_EMPTY:
		/* a zone passes through open to full: it needs to be active */
		if (z->max_active && rd_zones_nr_active(z) >= z->max_active) {
			z->resource_errors++;
			return BLK_STS_ZONE_ACTIVE_RESOURCE;
		}
		break;
	default:
		break;
	}
	rd_zone_leave_locked(z, zone);
	zone->cond = BLK_ZONE_COND_FULL;
	zone->wp = rd_zone_start(z, zone) + (1ULL << z->shift);
	rd_zone_save(z, zone, RD_ZONE_WORD_FULL);
	return BLK_STS_OK;
}

/* With the zone's mutex held. Under z->lock. */
static blk_status_t rd_zone_close_cmd_locked(struct rd_zones *z, struct rd_zone *zone)
{
	switch (zone->cond) {
	case BLK_ZONE_COND_CLOSED:
		return BLK_STS_OK;
	case BLK_ZONE_COND_IMP_OPEN:
	case BLK_ZONE_COND_EXP_OPEN:
		rd_zone_close_locked(z, zone);
		return BLK_STS_OK;
	default:
		return BLK_STS_IOERR;
	}
}

/*
 * Management commands come from ioctls and file systems, in contexts that
 * may sleep, never with REQ_NOWAIT: each waits for the write in progress
 * on its zone. A reset of all zones takes them one at a time, and tells
 * done of each it emptied: one that was empty already changed no more
 * than it would have by being left alone.
 */
blk_status_t rd_zone_mgmt(struct rd_zones *z, struct rd_store *store, struct bio *bio,
			  rd_zone_done_fn done, void *arg)
{
	sector_t sector = bio->bi_iter.bi_sector;
	unsigned int idx = sector >> z->shift;
	sector_t len = 1ULL << z->shift;
	struct rd_zone *zone;
	blk_status_t status;

	if (bio_op(bio) == REQ_OP_ZONE_RESET_ALL) {
		for (idx = z->nr_conv; idx < z->nr_zones; idx++) {
			zone = &z->zones[idx];
			mutex_lock(&zone->lock);
			if (rd_zone_reset(z, zone, store) && done)
				done(arg, REQ_OP_ZONE_RESET, rd_zone_start(z, zone), len);
			mutex_unlock(&zone->lock);
		}
		return BLK_STS_OK;
	}
	/* a command names a sequential zone by its first sector */
	if (idx >= z->nr_zones || idx < z->nr_conv || (sector & (len - 1)))
		return BLK_STS_IOERR;
	zone = &z->zones[idx];
	mutex_lock(&zone->lock);
	if (bio_op(bio) == REQ_OP_ZONE_RESET) {
		/* the command as given, an empty zone's too: it succeeded */
		rd_zone_reset(z, zone, store);
		if (done)
			done(arg, REQ_OP_ZONE_RESET, sector, len);
		mutex_unlock(&zone->lock);
		return BLK_STS_OK;
	}
	spin_lock(&z->lock);
	switch (bio_op(bio)) {
	case REQ_OP_ZONE_OPEN:
		status = rd_zone_open_locked(z, zone, true);
		break;
	case REQ_OP_ZONE_CLOSE:
		status = rd_zone_close_cmd_locked(z, zone);
		break;
	case REQ_OP_ZONE_FINISH:
		status = rd_zone_finish_locked(z, zone);
		break;
	default:
		status = BLK_STS_NOTSUPP;
		break;
	}
	spin_unlock(&z->lock);
	/* open and close change no data and no write pointer: nothing to log */
	if (!status && bio_op(bio) == REQ_OP_ZONE_FINISH && done)
		done(arg, REQ_OP_ZONE_FINISH, sector, len);
	mutex_unlock(&zone->lock);
	return status;
}

void rd_zones_cut_begin(struct rd_zones *z)
{
	unsigned int i;

	spin_lock(&z->lock);
	for (i = z->nr_conv; i < z->nr_zones; i++)
		z->zones[i].cut_wp = z->zones[i].wp;
	spin_unlock(&z->lock);
}

/* Under the cache's mutex, with every bio held off: cut_wp is the cut's alone. */
void rd_zones_cut_lost(void *arg, sector_t sector, unsigned int nr)
{
	struct rd_zones *z = arg;
	unsigned int idx = sector >> z->shift;
	struct rd_zone *zone;

	if (idx < z->nr_conv || idx >= z->nr_zones)
		return;
	zone = &z->zones[idx];
	zone->cut_wp = min(zone->cut_wp, sector);
}

void rd_zones_cut_end(struct rd_zones *z, struct rd_store *store)
{
	unsigned int i;

	for (i = z->nr_conv; i < z->nr_zones; i++) {
		struct rd_zone *zone = &z->zones[i];
		sector_t start = rd_zone_start(z, zone);
		sector_t wp;

		mutex_lock(&zone->lock);
		spin_lock(&z->lock);
		wp = zone->wp;
		spin_unlock(&z->lock);
		/* a zone holds nothing past its write pointer, kept or not */
		if (zone->cut_wp < wp)
			rd_zone_clear(store, zone->cut_wp, wp - zone->cut_wp, false);
		spin_lock(&z->lock);
		if (zone->cut_wp < wp) {
			/*
			 * A full zone may come back closed beyond max_active:
			 * opening another then fails until one is finished or
			 * reset, as on a disk in that state
			 */
			rd_zone_leave_locked(z, zone);
			zone->wp = zone->cut_wp;
			if (zone->wp == start) {
				zone->cond = BLK_ZONE_COND_EMPTY;
			} else {
				zone->cond = BLK_ZONE_COND_CLOSED;
				z->nr_closed++;
			}
			z->wp_rollbacks++;
			rd_zone_save(z, zone, rd_zone_word_locked(z, zone));
		} else if (zone->cond == BLK_ZONE_COND_IMP_OPEN ||
			   zone->cond == BLK_ZONE_COND_EXP_OPEN) {
			rd_zone_close_locked(z, zone);
		}
		spin_unlock(&z->lock);
		mutex_unlock(&zone->lock);
		cond_resched();
	}
}

void rd_zones_stats(struct rd_zones *z, struct rd_zone_stats *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	spin_lock(&z->lock);
	for (i = z->nr_conv; i < z->nr_zones; i++) {
		switch (z->zones[i].cond) {
		case BLK_ZONE_COND_EMPTY:
			s->empty++;
			break;
		case BLK_ZONE_COND_FULL:
			s->full++;
			break;
		default:
			break;
		}
	}
	s->imp_open = z->nr_imp_open;
	s->exp_open = z->nr_exp_open;
	s->closed = z->nr_closed;
	s->resets = z->resets;
	s->appends = z->appends;
	s->implicit_closes = z->implicit_closes;
	s->wp_errors = z->wp_errors;
	s->resource_errors = z->resource_errors;
	s->wp_rollbacks = z->wp_rollbacks;
	spin_unlock(&z->lock);
}
