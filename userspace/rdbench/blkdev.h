/* SPDX-License-Identifier: GPL-2.0 */
/* Checks before rdbench writes to a block device or an existing file. */
#ifndef RDBENCH_BLKDEV_H
#define RDBENCH_BLKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* True when dev, or a partition of it, appears in /proc/self/mountinfo. */
bool blkdev_mounted(dev_t dev);

/*
 * Open the device exclusively (fails while anything holds it: a mount, md,
 * dm, swap), read its size and look for a known signature at its start.
 * *sig is NULL or a name such as "an ext2/3/4 file system". 0 or -1 with a
 * message.
 */
int blkdev_check(const char *path, uint64_t *size, const char **sig);

/* The same signature look-up on a regular file (a disk image). */
int file_signature(const char *path, const char **sig);

/* The signature in the first len bytes of a device, or NULL. */
const char *fs_signature(const unsigned char *buf, size_t len);

#endif /* RDBENCH_BLKDEV_H */
