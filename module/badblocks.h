/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bad blocks: a per-device list of sector ranges that fail reads, writes
 * or both, with the error a real disk would give for each. The list lives
 * with the configfs item, so it survives power cycles and may change while
 * the device is powered. The submit path consults it only while some list
 * in the module is non-empty (the static key), so a device without bad
 * blocks pays one patched-out jump.
 */
#ifndef RAMDISK_BADBLOCKS_H
#define RAMDISK_BADBLOCKS_H

#include <linux/blk_types.h>
#include <linux/jump_label.h>
#include <linux/types.h>

struct bio;
struct rd_badblocks;

/*
 * Set while at least one list is non-empty; changed only from process
 * context (configfs writes, the release of an item), never from the
 * submit path.
 */
DECLARE_STATIC_KEY_FALSE(rd_bb_in_use);

struct rd_badblocks *rd_bb_create(void);
void rd_bb_destroy(struct rd_badblocks *bb);
/* ranges now; read without a lock, a hint for the submit path */
unsigned int rd_bb_count(const struct rd_badblocks *bb);

/* The configfs attribute: one range per line, and a command written to it. */
ssize_t rd_bb_show(struct rd_badblocks *bb, char *page, size_t size);
/* -EINVAL (logged, nothing changed), -ENOSPC (list full) or -ENOMEM */
int rd_bb_store(struct rd_badblocks *bb, const char *who, const char *page);

/*
 * The submit path. rd_bb_check() returns BLK_STS_OK when the bio meets no
 * bad sector, else the status of the first bad range it meets, with in
 * *good the bytes before that sector (whole logical blocks). rd_bb_written()
 * heals the sectors of a write that succeeded, in the ranges that heal.
 */
blk_status_t rd_bb_check(struct rd_badblocks *bb, struct bio *bio, bool write, unsigned int *good);
void rd_bb_written(struct rd_badblocks *bb, struct bio *bio);

/*
 * A physical block a power cut tore (power_cut_personality
 * torn-media-error): sectors [start, end] read as a medium error until a
 * write heals them. It replaces what it overlaps, as a range written to
 * configfs does. Allocates nothing (the cut runs with I/O held); false
 * when the list has no room. rd_bb_key_sync() then lets the key follow.
 */
bool rd_bb_add_torn(struct rd_badblocks *bb, u64 start, u64 end);
/* process context, under rd_lock */
void rd_bb_key_sync(struct rd_badblocks *bb);

#endif /* RAMDISK_BADBLOCKS_H */
