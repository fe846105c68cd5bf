// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the io_uring helper: every I/O of a run lands at the offset
 * the callback gave, from the buffer of its slot; reads fill the slots;
 * a short transfer, a bad descriptor and a stop request end a run.
 */
#include "uring.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BLOCK = 4096, BLOCKS = 64, DEPTH = 4 };

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "uring: %s\n", what);
		failures++;
	}
}

static uint64_t next_block(void *arg)
{
	uint64_t *i = arg;

	return (*i)++ * BLOCK;
}

/* A slot's buffer holds one byte value, 'A' + slot, throughout. */
static int uniform_slot_byte(const char *p)
{
	for (size_t i = 1; i < BLOCK; i++)
		if (p[i] != p[0])
			return 0;
	return p[0] >= 'A' && p[0] < 'A' + DEPTH;
}

int main(void)
{
	static char bufs[DEPTH * BLOCK], block[BLOCK];
	char path[] = "/tmp/test_uring.XXXXXX";
	int fd = mkstemp(path), stop = 0, seen[DEPTH] = { 0 };
	struct uring *u;
	uint64_t next;

	if (fd < 0 || ftruncate(fd, (off_t)BLOCKS * BLOCK)) {
		perror("temporary file");
		return 1;
	}
	unlink(path);
	u = uring_open(DEPTH);
	if (!u && (errno == ENOSYS || errno == EPERM)) {
		printf("uring: io_uring is not available here (%s); skipped\n", strerror(errno));
		return 0;
	}
	check(u != NULL, "uring_open failed");
	if (!u)
		return 1;

	for (int s = 0; s < DEPTH; s++)
		memset(bufs + s * BLOCK, 'A' + s, BLOCK);
	next = 0;
	check(!uring_run(u, fd, true, bufs, BLOCK, BLOCKS, next_block, &next, &stop),
	      "writing every block failed");
	check(next == BLOCKS, "not one offset asked per I/O");
	for (int b = 0; b < BLOCKS; b++) {
		check(pread(fd, block, BLOCK, (off_t)b * BLOCK) == BLOCK, "pread");
		check(uniform_slot_byte(block), "a block not written whole from one slot");
		if (block[0] >= 'A' && block[0] < 'A' + DEPTH)
			seen[block[0] - 'A'] = 1;
	}
	for (int s = 0; s < DEPTH; s++)
		check(seen[s], "a slot that never wrote: the queue was not kept DEPTH deep");

	memset(bufs, 0, sizeof(bufs));
	next = 0;
	check(!uring_run(u, fd, false, bufs, BLOCK, BLOCKS, next_block, &next, &stop),
	      "reading every block failed");
	for (int s = 0; s < DEPTH; s++)
		check(uniform_slot_byte(bufs + s * BLOCK), "a slot's buffer not filled by a read");

	/* past the end of the file: a read of 0 bytes is a short transfer */
	next = BLOCKS;
	errno = 0;
	check(uring_run(u, fd, false, bufs, BLOCK, 1, next_block, &next, &stop) == -1 &&
		      errno == EIO,
	      "a short read did not fail with EIO");
	next = 0;
	errno = 0;
	check(uring_run(u, -1, false, bufs, BLOCK, 1, next_block, &next, &stop) == -1 &&
		      errno == EBADF,
	      "a bad descriptor did not fail with EBADF");
	stop = 1;
	next = 0;
	errno = 0;
	check(uring_run(u, fd, false, bufs, BLOCK, 8, next_block, &next, &stop) == -1 &&
		      errno == EINTR,
	      "a stop request did not end the run with EINTR");
	uring_close(u);
	close(fd);
	if (failures)
		return 1;
	printf("uring: all checks passed\n");
	return 0;
}
