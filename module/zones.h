/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host-managed zones: the state of each zone of a zoned device and the
 * rules a ZBC or ZNS device enforces on it (zones.c). The submit path of a
 * zoned device (io.c) asks them before each write and management command;
 * the stores below know nothing of zones.
 */
#ifndef RAMDISK_ZONES_H
#define RAMDISK_ZONES_H

#include <linux/blk_types.h>
#include <linux/blkzoned.h>
#include <linux/types.h>

struct bio;
struct rd_config;
struct rd_store;
struct rd_zone;
struct rd_zones;

/* 64 MiB zones unless the configuration says otherwise */
#define RD_ZONE_SIZE_DEFAULT (64ULL << 20)

/* -EINVAL or -EOPNOTSUPP, logged, when cfg's zone settings cannot make a device */
int rd_zones_validate(const struct rd_config *cfg, const char *who);
/* NULL when out of memory; every sequential zone starts empty */
struct rd_zones *rd_zones_create(const struct rd_config *cfg);
void rd_zones_destroy(struct rd_zones *zones);
/*
 * In reserved memory: takes the zones the store saved (empty, closed at
 * their write pointers, or full) and keeps them saved from now on; after
 * an unorderly detach, clears what lies past each write pointer. 0 for a
 * store that saves none; -EINVAL, logged, for a saved pointer past its
 * zone's capacity.
 */
int rd_zones_load(struct rd_zones *zones, struct rd_store *store, const char *who);

/*
 * Checkpoints (checkpoint.c) keep the zones as a disk that loses power
 * keeps them, one u32 word a zone (rd_zones_count() of them, 0 for a
 * conventional one): the write pointer's offset, or a mark for full.
 * rd_zones_save_words() fills such an array; rd_zones_check_words()
 * says, logged, whether one of nr words fits these zones, and is called
 * before anything changes; rd_zones_restore_words() then sets every
 * sequential zone from it, open ones closed. The caller holds off every
 * bio for save and restore.
 */
void rd_zones_save_words(struct rd_zones *zones, u32 *words);
int rd_zones_check_words(const struct rd_zones *zones, const u32 *words, unsigned int nr,
			 const char *who);
void rd_zones_restore_words(struct rd_zones *zones, const u32 *words);
/* A clone's configuration (dev.c) takes the zone settings these zones were made from. */
void rd_zones_config(const struct rd_zones *zones, struct rd_config *cfg);

unsigned int rd_zones_count(const struct rd_zones *zones);
/* the zone that holds the sector */
unsigned int rd_zones_index(const struct rd_zones *zones, sector_t sector);
/* zone idx as ->report_zones gives it */
void rd_zones_get(struct rd_zones *zones, unsigned int idx, struct blk_zone *out);

/*
 * A write or write-zeroes bio, which the block layer has already cut at
 * zone boundaries. rd_zone_write_begin() returns BLK_STS_OK when it may be
 * served now, with *zone the sequential zone it writes (NULL for a
 * conventional one), which it holds until rd_zone_write_unlock(); else the
 * status a zoned disk gives. rd_zone_write_end() moves the write pointer
 * past a write that succeeded, and clears from the store what a failed
 * one left past it, so that a zone reads zeros past its write pointer;
 * the caller then logs the write, if the device keeps a write log, before
 * rd_zone_write_unlock() lets a management command reach the zone.
 */
blk_status_t rd_zone_write_begin(struct rd_zones *zones, struct bio *bio, struct rd_zone **zone);
/*
 * Between the two, for a FUA write to a sequential zone on a store with a
 * volatile layer: make what the zone holds below the write durable first.
 * A zone keeps no sector past one it lost (a cut moves its write pointer
 * back to the first sector lost), so a FUA write is durable only with all
 * that precedes it in its zone, as on a disk that writes a zone in order.
 * 0, or the store's error, in which case the write must fail unserved.
 */
int rd_zone_write_durable_below(struct rd_zones *zones, struct rd_zone *zone,
				struct rd_store *store, struct bio *bio);
void rd_zone_write_end(struct rd_zones *zones, struct rd_zone *zone, struct rd_store *store,
		       struct bio *bio, blk_status_t status);
void rd_zone_write_unlock(struct rd_zone *zone);

/*
 * What a management command did, for the write log: called with the
 * zone's mutex held, so that its entry and those of the writes to the zone
 * go in the order the device served them. op is REQ_OP_ZONE_RESET for
 * each zone reset (by a reset of all zones: each sequential zone that was
 * not empty) and REQ_OP_ZONE_FINISH for a zone finished; start and nr are
 * the zone's sectors. Not called for a command that failed, nor for open
 * and close.
 */
typedef void (*rd_zone_done_fn)(void *arg, enum req_op op, sector_t start, sector_t nr);

/*
 * REQ_OP_ZONE_RESET, _RESET_ALL, _OPEN, _CLOSE and _FINISH; a reset frees
 * the zone's pages. done, with arg, may be NULL.
 */
blk_status_t rd_zone_mgmt(struct rd_zones *zones, struct rd_store *store, struct bio *bio,
			  rd_zone_done_fn done, void *arg);

/*
 * A power cut in writeback mode (dev.c). rd_zones_cut_begin() before the
 * cache loses anything; rd_zones_cut_lost() hears of each run of sectors
 * it lost (a struct rd_cut's lost callback, zones its argument);
 * rd_zones_cut_end() then moves each zone's write pointer back to the
 * first sector it lost, clears what lay past it through the store, and
 * closes the zones that were open, as a disk that loses power does. The
 * caller holds off every bio from begin to end.
 */
void rd_zones_cut_begin(struct rd_zones *zones);
void rd_zones_cut_lost(void *zones, sector_t sector, unsigned int nr);
void rd_zones_cut_end(struct rd_zones *zones, struct rd_store *store);

/* The sysfs statistics. */
struct rd_zone_stats {
	/* zones in each condition now */
	unsigned int empty, imp_open, exp_open, closed, full;
	/* counts since the device was made */
	u64 resets, appends, implicit_closes, wp_errors, resource_errors;
	/* zones whose write pointer a power cut moved back */
	u64 wp_rollbacks;
};

void rd_zones_stats(struct rd_zones *zones, struct rd_zone_stats *stats);

#endif /* RAMDISK_ZONES_H */
