// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring for rdbench pair --qd, on liburing: one submission queue entry
 * per I/O, each completion's buffer reused by the next I/O.
 */
#include "uring.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

struct uring {
	struct io_uring ring;
	unsigned int depth;
};

struct uring *uring_open(unsigned int depth)
{
	struct uring *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return NULL;
	/* -ENOSYS without io_uring, -EPERM when it is disabled by sysctl */
	ret = io_uring_queue_init(depth, &u->ring, 0);
	if (ret < 0) {
		free(u);
		errno = -ret;
		return NULL;
	}
	u->depth = depth;
	return u;
}

void uring_close(struct uring *u)
{
	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u);
}

/*
 * A free entry exists for every slot: at most depth I/Os are in flight on
 * a queue of depth entries, and an entry is free once submitted.
 */
static int queue_io(struct uring *u, int fd, bool write, char *buf, size_t len, uint64_t offset,
		    unsigned int slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe)
		return EBUSY;
	if (write)
		io_uring_prep_write(sqe, fd, buf, (unsigned int)len, offset);
	else
		io_uring_prep_read(sqe, fd, buf, (unsigned int)len, offset);
	io_uring_sqe_set_data64(sqe, slot);
	return 0;
}

int uring_run(struct uring *u, int fd, bool write, char *bufs, size_t len, unsigned long ops,
	      uint64_t (*next_offset)(void *arg), void *arg, volatile const int *stop)
{
	unsigned long issued = 0, done = 0;
	int err = 0;

	for (unsigned int slot = 0; slot < u->depth && issued < ops && !err; slot++) {
		err = queue_io(u, fd, write, bufs + (size_t)slot * len, len, next_offset(arg),
			       slot);
		if (!err)
			issued++;
	}
	/*
	 * After an error or a stop request nothing new is queued, but what is
	 * in flight is still reaped: the next run must find the rings empty.
	 */
	while (done < issued) {
		struct io_uring_cqe *cqe;
		int ret;

		if (*stop && !err)
			err = EINTR;
		/* entries not taken by an interrupted call go with the next one */
		ret = io_uring_submit_and_wait(&u->ring, 1);
		if (ret < 0) {
			if (ret == -EINTR)
				continue;
			/* the ring itself failed: nothing more can be reaped */
			errno = -ret;
			return -1;
		}
		while (!io_uring_peek_cqe(&u->ring, &cqe)) {
			unsigned int slot = (unsigned int)io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(&u->ring, cqe);
			done++;
			if (res != (int)len && !err)
				err = res < 0 ? -res : EIO;
			if (!err && issued < ops) {
				err = queue_io(u, fd, write, bufs + (size_t)slot * len, len,
					       next_offset(arg), slot);
				if (!err)
					issued++;
			}
		}
	}
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
