/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named checkpoints of a powered device: its data at one moment, kept
 * beside the live data at the cost of the pages changed since, and a
 * rollback to one of them. The store shares the pages (store.h); this
 * file names them, stops I/O around the moments that need it, and speaks
 * the configfs syntax. All of it runs under rd_lock.
 */
#ifndef RAMDISK_CHECKPOINT_H
#define RAMDISK_CHECKPOINT_H

#include <linux/list.h>
#include <linux/types.h>

struct rd_device;

#define RD_CHECKPOINT_NAME_LEN 32
#define RD_MAX_CHECKPOINTS 16

/* "+NAME" takes a checkpoint, "-NAME" drops it; who names the device in messages */
int rd_checkpoint_command(struct rd_device *rd, const char *who, const char *cmd);
/* The device's data becomes NAME's again; -EBUSY while the device is open. */
int rd_checkpoint_rollback(struct rd_device *rd, const char *who, const char *name);
/* "NAME pages=N own=M" lines, oldest first */
ssize_t rd_checkpoint_show(struct rd_device *rd, char *buf, size_t size);
/* Drops them all: before the store goes, at power-off. */
void rd_checkpoints_free(struct rd_device *rd);

#endif /* RAMDISK_CHECKPOINT_H */
