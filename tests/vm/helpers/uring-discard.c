// SPDX-License-Identifier: GPL-2.0
/*
 * uring-discard: discards a byte range of a block device through io_uring
 * (IORING_OP_URING_CMD with BLOCK_URING_CMD_DISCARD, Linux 6.12 and
 * later). It is the one way a program can make the block layer send a
 * driver a discard that must not wait (REQ_NOWAIT): io_uring issues the
 * command without blocking first and, when the driver answers EAGAIN,
 * issues it again from a context that may block. The completion the
 * program sees is the last attempt's.
 *
 * usage: uring-discard DEVICE OFFSET LENGTH
 *
 * Prints the completion's result, "0" or an errno name, and exits 0 when
 * it is 0, 1 on any other result, 2 on a usage or set-up error, and 3,
 * printing "unsupported", when the kernel has no io_uring discard.
 *
 * Raw system calls rather than liburing: Debian 12's liburing (2.3) has no
 * helper for this command, and one command needs little of a ring.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef BLOCK_URING_CMD_DISCARD
/* include/uapi/linux/fs.h of Linux 6.12 */
#define BLOCK_URING_CMD_DISCARD _IO(0x12, 0)
#endif

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		errx(2, "%s '%s' is not a number", what, s);
	return v;
}

int main(int argc, char **argv)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	uint64_t offset, length;
	unsigned int *sq_tail, *sq_array, *cq_head;
	char *sq_ring, *cq_ring;
	size_t sq_len, cq_len;
	int fd, ring, res;

	if (argc != 4)
		errx(2, "usage: uring-discard DEVICE OFFSET LENGTH");
	offset = parse_u64(argv[2], "OFFSET");
	length = parse_u64(argv[3], "LENGTH");

	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		err(2, "%s", argv[1]);
	memset(&p, 0, sizeof(p));
	ring = (int)syscall(SYS_io_uring_setup, 1, &p);
	if (ring < 0)
		err(2, "io_uring_setup");

	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq_ring = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
		       IORING_OFF_SQ_RING);
	cq_ring = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
		       IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sq_ring == MAP_FAILED || cq_ring == MAP_FAILED || sqes == MAP_FAILED)
		err(2, "mmap of the ring");

	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_URING_CMD;
	sqes[0].fd = fd;
	sqes[0].cmd_op = BLOCK_URING_CMD_DISCARD;
	sqes[0].addr = offset;
	sqes[0].addr3 = length;

	sq_array = (unsigned int *)(sq_ring + p.sq_off.array);
	sq_tail = (unsigned int *)(sq_ring + p.sq_off.tail);
	sq_array[*sq_tail & *(unsigned int *)(sq_ring + p.sq_off.ring_mask)] = 0;
	atomic_store_explicit((_Atomic unsigned int *)sq_tail, *sq_tail + 1, memory_order_release);

	if (syscall(SYS_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		err(2, "io_uring_enter");
	cq_head = (unsigned int *)(cq_ring + p.cq_off.head);
	if (atomic_load_explicit((_Atomic unsigned int *)(cq_ring + p.cq_off.tail),
				 memory_order_acquire) == *cq_head)
		errx(2, "io_uring_enter returned without a completion");
	cqe = (struct io_uring_cqe *)(cq_ring + p.cq_off.cqes) +
	      (*cq_head & *(unsigned int *)(cq_ring + p.cq_off.ring_mask));
	res = cqe->res;

	if (res == -EOPNOTSUPP) {
		puts("unsupported");
		return 3;
	}
	if (res < 0) {
		puts(strerrorname_np(-res) ? strerrorname_np(-res) : "unknown");
		return 1;
	}
	puts("0");
	return 0;
}
