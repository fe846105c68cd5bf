/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named checkpoints of a powered device: its data at one moment, kept
 * beside the live data at the cost of the pages changed since, and a
 * rollback to one of them. The store shares the pages (store.h); this
 * file names them, stops I/O around the moments that need it, speaks the
 * configfs syntax, and lends a checkpoint to a clone (a new device that
 * starts from it). All of it runs under rd_lock.
 */
#ifndef RAMDISK_CHECKPOINT_H
#define RAMDISK_CHECKPOINT_H

#include <linux/list.h>
#include <linux/types.h>

struct rd_device;

#define RD_MAX_CHECKPOINTS 16

/* A checkpoint name: letters, digits, '.', '_' and '-', len characters of text. */
int rd_checkpoint_name_parse(const char *who, const char *text, size_t len, char *name);
/*
 * Takes checkpoint NAME and, when then is given, calls it with the queue
 * still frozen: no bio runs between the checkpoint and what then sets up.
 */
int rd_checkpoint_take_then(struct rd_device *rd, const char *who, const char *name,
			    void (*then)(struct rd_device *rd, void *arg), void *arg);
/*
 * Checkpoint NAME of n devices at one instant, all or none (a power
 * domain's, under rd_lock), calling then with each device's args[] in
 * the same freeze (as rd_checkpoint_take_then()); and its drop from all
 * of them, or none.
 */
int rd_checkpoint_take_members(struct rd_device *const *rd, unsigned int n, const char *who,
			       const char *name, void (*then)(struct rd_device *rd, void *arg),
			       void *const *args);
int rd_checkpoint_drop_members(struct rd_device *const *rd, unsigned int n, const char *who,
			       const char *name);
/* "+NAME" takes a checkpoint, "-NAME" drops it; who names the device in messages */
int rd_checkpoint_command(struct rd_device *rd, const char *who, const char *cmd);
/*
 * The device's data becomes NAME's again; -EBUSY while the device is open.
 * The caller refuses it while the write log records (configfs.c).
 */
int rd_checkpoint_rollback(struct rd_device *rd, const char *who, const char *name);
/* "NAME pages=N own=M" lines, oldest first */
ssize_t rd_checkpoint_show(struct rd_device *rd, char *buf, size_t size);
/* Drops them all: before the store goes, at power-off. */
void rd_checkpoints_free(struct rd_device *rd);

struct rd_checkpoint;
struct rd_store;
struct rd_zones;

/*
 * Parses clone_of: "DISK NAME" (a disk name of at most disk_len - 1
 * characters and a checkpoint name) or an empty line, which clears both.
 */
int rd_checkpoint_parse_clone_of(const char *who, const char *text, char *disk, size_t disk_len,
				 char *name);

/*
 * A store for a clone: checkpoint NAME of origin, shared copy-on-write.
 * The checkpoint and origin stay pinned (no drop, no power-off) until
 * rd_checkpoint_unclone(), which is called after the store is destroyed.
 */
struct rd_store *rd_checkpoint_clone(struct rd_device *origin, const char *who, const char *name,
				     int numa_node, struct rd_checkpoint **base);
void rd_checkpoint_unclone(struct rd_device *origin, struct rd_checkpoint *base);
/*
 * A zoned clone's zones, as the checkpoint holds them (open ones closed);
 * -EINVAL, logged, when the checkpoint holds none or another geometry's.
 */
int rd_checkpoint_clone_zones(struct rd_checkpoint *base, struct rd_zones *zones, const char *who);

#endif /* RAMDISK_CHECKPOINT_H */
