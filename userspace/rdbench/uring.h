/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal io_uring on liburing: enough to keep a queue of fixed-size
 * reads or writes full, as fio's io_uring engine does at iodepth N.
 */
#ifndef RAMDISK_URING_H
#define RAMDISK_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uring;

/* A ring for depth I/Os in flight; NULL with errno (ENOSYS: no io_uring). */
struct uring *uring_open(unsigned int depth);
void uring_close(struct uring *u);

/*
 * ops I/Os of len bytes on fd, depth at a time, the offset of each from
 * next_offset(arg); the k-th I/O in flight uses bufs + k * len. Returns 0,
 * or -1 with errno: the I/O's own error, EIO for a short transfer, EINTR
 * when *stop was set. Either way the I/Os in flight are reaped first, so
 * the ring is ready for the next run.
 */
int uring_run(struct uring *u, int fd, bool write, char *bufs, size_t len, unsigned long ops,
	      uint64_t (*next_offset)(void *arg), void *arg, volatile const int *stop);

#endif /* RAMDISK_URING_H */
