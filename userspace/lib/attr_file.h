/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribute files in sysfs and configfs: one-line values, and the lists
 * the module keeps one item a line; and where the module's configfs tree
 * is. ramdiskctl, rdcrash and rdfuzz all go through here, so that every
 * write is one write(2) and every failure keeps its errno.
 *
 * Every function returns 0 (or a count), or -1 with errno set by the
 * failing system call (or EINVAL when the contents are not what was asked
 * for), so the caller can tell "module not loaded" (ENOENT) from "busy"
 * (EBUSY) from "not root" (EACCES). None prints: the caller words the
 * message for its command.
 */
#ifndef RAMDISK_ATTR_FILE_H
#define RAMDISK_ATTR_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The module's configfs root: $RAMDISK_CONFIGFS when set and not empty
 * (the host tests' fake trees), else RAMDISK_CONFIGFS_ROOT.
 */
const char *rd_configfs_root(void);

/*
 * Read what one read(2) gives, at most size - 1 bytes, into buf and end it
 * with a NUL: attribute files hand over their whole value in the first
 * read. Returns the number of bytes read.
 */
ssize_t attr_read(const char *path, char *buf, size_t size);

/* Read the first line of path into buf, without its newline. */
int attr_read_line(const char *path, char *buf, size_t len);

/*
 * Write len bytes of buf with a single write(2), as an attribute's store
 * method sees exactly one call; the file is truncated like the shell's ">"
 * does, so a plain file in a test tree ends up holding just what was
 * written. Returns the count write(2) returned, which a store method may
 * make short (rdfuzz writes any bytes, NULs and more than a page among
 * them).
 */
ssize_t attr_write(const char *path, const void *buf, size_t len);

/* attr_write() of a string, all of which must be taken (else EIO). */
int attr_write_line(const char *path, const char *value);

/*
 * Read a file holding one unsigned / signed decimal number; a failure
 * leaves *value (or *first and *second below) as it was.
 */
int attr_read_u64(const char *path, uint64_t *value);
int attr_read_s64(const char *path, int64_t *value);

/* Read a file holding two unsigned numbers, e.g. "COUNT BYTES". */
int attr_read_u64_pair(const char *path, uint64_t *first, uint64_t *second);

/*
 * Read a list, each line through parse into the next of the max items of
 * size bytes at items; parse returns 0, or nonzero for a line it refuses.
 * Returns the number of lines, or -1 with errno. A line parse refuses, or
 * a line past max, is EINVAL, and *bad is that line without its newline
 * (malloc'ed, for the caller's message, to be freed); else *bad is NULL.
 */
int attr_read_lines(const char *path, void *items, size_t size, int max,
		    int (*parse)(const char *line, void *item), char **bad);

#endif /* RAMDISK_ATTR_FILE_H */
