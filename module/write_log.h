/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The write log of a device: each write, discard, write-zeroes and flush
 * it acknowledged, and on a zoned device each zone it reset or finished,
 * in order, with the data of each write, and the marks a workload wrote,
 * from the moment it was started (usually together with a checkpoint)
 * until it was stopped or outgrew its limit. Userspace reads
 * it with RAMDISK_IOC_WLOG_READ; a checkpoint plus the log rebuilds any
 * state the device went through, and any state a crash could have left.
 * A power cut of a writeback device ends it ("cut"): the cut is the crash
 * at its end.
 *
 * The submit path calls rd_wlog_before() and rd_wlog_after() around each
 * bio only while the device's wlog_rec is set; the control calls run under
 * rd_lock. The log is reference-counted so that a reader copies its
 * entries out without rd_lock (rd_wlog_get() under it, rd_wlog_put() after).
 */
#ifndef RAMDISK_WRITE_LOG_H
#define RAMDISK_WRITE_LOG_H

#include <linux/blk_types.h>
#include <linux/list.h>
#include <linux/types.h>

struct rd_device;
struct rd_wlog;
struct ramdisk_wlog_read;

/* 64 MiB of entries and data by default */
#define RD_WLOG_LIMIT_DEFAULT (64ULL << 20)

/* What rd_wlog_before() hands to rd_wlog_after() for one bio. */
struct rd_wlog_bio {
	void *entry; /* a write's entry, made before it runs, kept after */
	u64 flush_seq; /* the flush entry logged at submission, or U64_MAX */
	/* on the log's list of flushes not yet completed, while flush_seq is set */
	struct list_head flush_node;
};

/* "start", "start CK", "stop", "mark TEXT" or "clear"; who names the device */
int rd_wlog_command(struct rd_device *rd, const char *who, const char *cmd, u64 limit);
/*
 * The logs of n devices (a power domain's members, under rd_lock), each
 * of limits[i], started with checkpoint ck of them all at one instant;
 * -EBUSY, logged, when one has a log already.
 */
int rd_wlog_start_members(struct rd_device *const *rd, const u64 *limits, unsigned int n,
			  const char *who, const char *ck);
/* "off", "recording", "stopped", "overflowed", "failed" or "cut" */
const char *rd_wlog_state_name(struct rd_device *rd);
/* Whether the device has a log that records: a rollback is refused then. */
bool rd_wlog_recording(struct rd_device *rd);
void rd_wlog_set_limit(struct rd_device *rd, u64 limit);
/* At power-off, once no bio can reach the device: drops the device's reference. */
void rd_wlog_free(struct rd_device *rd);
/* A power cut, under power_sem held for write: a log that records ends ("cut"). */
void rd_wlog_cut(struct rd_device *rd);

/* The submit path: false from before means the bio is to be retried (REQ_NOWAIT). */
bool rd_wlog_before(struct rd_device *rd, struct bio *bio, struct rd_wlog_bio *wb);
/*
 * status is what the device did with this bio alone: its bi_status may
 * already hold the error of a bio chained to it, which says nothing of
 * whether this one's data landed. A second call for the same wb does
 * nothing: a zoned device logs a write under its zone's mutex, and the
 * submit path's own call after it finds the work done.
 */
void rd_wlog_after(struct rd_device *rd, struct rd_wlog_bio *wb, blk_status_t status);
/*
 * A zone management command that succeeded, on the submit path of a bio
 * that rd_wlog_before() saw: type RAMDISK_WLOG_ZONE_RESET or _FINISH of
 * the zone at sector, nr_sectors long. Called with the zone's mutex held
 * (zones.h), never with REQ_NOWAIT.
 */
void rd_wlog_zone(struct rd_device *rd, u16 type, sector_t sector, sector_t nr_sectors);

/* The device's log with a reference, or NULL: under rd_lock. */
struct rd_wlog *rd_wlog_get(struct rd_device *rd);
void rd_wlog_put(struct rd_wlog *log);
/* RAMDISK_IOC_WLOG_READ of a log held by a reference, without rd_lock */
int rd_wlog_read(struct rd_wlog *log, struct ramdisk_wlog_read *req);

#endif /* RAMDISK_WRITE_LOG_H */
