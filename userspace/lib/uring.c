// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring for rdbench pair --qd: the rings mapped once, one submission
 * queue entry per I/O, each completion's buffer reused by the next I/O.
 */
#include "uring.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct uring {
	int fd;
	unsigned int depth;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq_ring, *cq_ring;
	size_t sq_ring_len, cq_ring_len, sqes_len;
};

static void *map_ring(int fd, size_t len, off_t what)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, what);

	return p == MAP_FAILED ? NULL : p;
}

void uring_close(struct uring *u)
{
	if (!u)
		return;
	if (u->sqes)
		munmap(u->sqes, u->sqes_len);
	if (u->cq_ring && u->cq_ring != u->sq_ring)
		munmap(u->cq_ring, u->cq_ring_len);
	if (u->sq_ring)
		munmap(u->sq_ring, u->sq_ring_len);
	close(u->fd);
	free(u);
}

struct uring *uring_open(unsigned int depth)
{
	struct io_uring_params p;
	struct uring *u = calloc(1, sizeof(*u));
	int saved;

	if (!u)
		return NULL;
	memset(&p, 0, sizeof(p));
	u->fd = (int)syscall(__NR_io_uring_setup, depth, &p);
	if (u->fd < 0) {
		free(u);
		return NULL;
	}
	u->depth = depth;
	u->sq_ring_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	u->cq_ring_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	/* one mapping serves both rings where the kernel allows it (5.4) */
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (u->cq_ring_len > u->sq_ring_len)
			u->sq_ring_len = u->cq_ring_len;
		u->cq_ring_len = u->sq_ring_len;
	}
	u->sq_ring = map_ring(u->fd, u->sq_ring_len, IORING_OFF_SQ_RING);
	if (!u->sq_ring)
		goto out_close;
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		u->cq_ring = u->sq_ring;
	else
		u->cq_ring = map_ring(u->fd, u->cq_ring_len, IORING_OFF_CQ_RING);
	if (!u->cq_ring)
		goto out_close;
	u->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	u->sqes = map_ring(u->fd, u->sqes_len, IORING_OFF_SQES);
	if (!u->sqes)
		goto out_close;
	u->sq_tail = (unsigned int *)((char *)u->sq_ring + p.sq_off.tail);
	u->sq_mask = (unsigned int *)((char *)u->sq_ring + p.sq_off.ring_mask);
	u->sq_array = (unsigned int *)((char *)u->sq_ring + p.sq_off.array);
	u->cq_head = (unsigned int *)((char *)u->cq_ring + p.cq_off.head);
	u->cq_tail = (unsigned int *)((char *)u->cq_ring + p.cq_off.tail);
	u->cq_mask = (unsigned int *)((char *)u->cq_ring + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)((char *)u->cq_ring + p.cq_off.cqes);
	return u;

out_close:
	saved = errno;
	uring_close(u);
	errno = saved;
	return NULL;
}

/* Only this thread writes the submission tail: a plain read of it is safe. */
static void queue_io(struct uring *u, int fd, bool write, char *buf, size_t len, uint64_t offset,
		     unsigned int slot)
{
	unsigned int tail = *u->sq_tail, index = tail & *u->sq_mask;
	struct io_uring_sqe *sqe = &u->sqes[index];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = write ? IORING_OP_WRITE : IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)buf;
	sqe->len = (unsigned int)len;
	sqe->off = offset;
	sqe->user_data = slot;
	u->sq_array[index] = index;
	/* the entry must be complete before the kernel sees the new tail */
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

int uring_run(struct uring *u, int fd, bool write, char *bufs, size_t len, unsigned long ops,
	      uint64_t (*next_offset)(void *arg), void *arg, volatile const int *stop)
{
	unsigned long issued = 0, done = 0;
	unsigned int pending = 0;
	int err = 0;

	for (unsigned int slot = 0; slot < u->depth && issued < ops; slot++, issued++, pending++)
		queue_io(u, fd, write, bufs + (size_t)slot * len, len, next_offset(arg), slot);
	/*
	 * After an error or a stop request nothing new is queued, but what is
	 * in flight is still reaped: the next run must find the rings empty.
	 */
	while (done < issued) {
		unsigned int head, tail;
		int ret;

		if (*stop && !err)
			err = EINTR;
		ret = (int)syscall(__NR_io_uring_enter, u->fd, pending, 1, IORING_ENTER_GETEVENTS,
				   NULL, 0);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			/* the ring itself failed: nothing more can be reaped */
			return -1;
		}
		pending -= (unsigned int)ret;
		head = *u->cq_head;
		/* the completions up to tail are written before tail is */
		tail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
		for (; head != tail; head++) {
			const struct io_uring_cqe *cqe = &u->cqes[head & *u->cq_mask];
			unsigned int slot = (unsigned int)cqe->user_data;

			done++;
			if (cqe->res != (int)len && !err)
				err = cqe->res < 0 ? -cqe->res : EIO;
			if (!err && issued < ops) {
				queue_io(u, fd, write, bufs + (size_t)slot * len, len,
					 next_offset(arg), slot);
				issued++;
				pending++;
			}
		}
		__atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
	}
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
