/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writes that finish: write(2) and pwrite(2) may write less than asked
 * (a pipe, a signal), so these go on until all of buf is out.
 */
#ifndef RAMDISK_FULL_IO_H
#define RAMDISK_FULL_IO_H

#include <stddef.h>
#include <sys/types.h>

/* All len bytes of buf to fd; 0, or -1 with errno (EIO for a write of 0). */
int write_full(int fd, const void *buf, size_t len);
/* The same at offset off of fd, which does not move. */
int pwrite_full(int fd, const void *buf, size_t len, off_t off);

#endif /* RAMDISK_FULL_IO_H */
