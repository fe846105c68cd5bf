/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-line attribute files in sysfs and configfs.
 *
 * Every function returns 0, or -1 with errno set by the failing system
 * call (or EINVAL when the contents are not what was asked for), so the
 * caller can tell "module not loaded" (ENOENT) from "busy" (EBUSY) from
 * "not root" (EACCES).
 */
#ifndef RAMDISK_SYSFS_FILE_H
#define RAMDISK_SYSFS_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Read the first line of path into buf, without its newline. */
int sysfs_read_line(const char *path, char *buf, size_t len);

/*
 * Write value with a single write(2), as an attribute's store method sees
 * exactly one call; the file is truncated like the shell's ">" does, so a
 * plain file in a test tree ends up holding just value.
 */
int sysfs_write_line(const char *path, const char *value);

/* Read a file holding one unsigned / signed decimal number. */
int sysfs_read_u64(const char *path, uint64_t *value);
int sysfs_read_s64(const char *path, int64_t *value);

/* Read a file holding two unsigned numbers, e.g. "COUNT BYTES". */
int sysfs_read_u64_pair(const char *path, uint64_t *first, uint64_t *second);

#endif /* RAMDISK_SYSFS_FILE_H */
