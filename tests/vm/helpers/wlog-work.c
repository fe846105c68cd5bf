// SPDX-License-Identifier: GPL-2.0
/*
 * wlog-work DEV SEED THREADS OPS [plain]: a concurrent workload for the
 * write log's oracle (test 138). THREADS writers each own one slice of
 * DEV (so that no two writes in flight overlap, and the order the log
 * gives them is the order they landed in) and run OPS operations drawn
 * from SEED: O_DIRECT writes of 512 B to 1 MiB (sizes spread evenly over
 * the powers of two) of fresh random data, some with RWF_DSYNC (a FUA
 * write on a write-back cache), fdatasync (a flush), BLKDISCARD and
 * BLKZEROOUT. With "plain" only writes without FUA. With "aio" each write
 * goes through io_submit() and the writer waits in io_getevents(), where
 * SIGSTOP stops it with its write still in flight (in a latency, say): the
 * test then cuts the power under I/O and no write follows the cut. A
 * write or flush that fails with EIO (a power cut overtook it) is
 * counted, not fatal. Prints the operations done.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define SECTOR 512ULL
#define MAX_IO (1ULL << 20)

static int fd;
static uint64_t dev_bytes, seed;
static unsigned int nthreads, nops;
static int plain, use_aio;

struct worker {
	pthread_t tid;
	unsigned int id;
	uint64_t rng;
	unsigned long writes, fua, flushes, discards, zeroes, eio;
};

static uint64_t next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void fail(const char *what)
{
	fprintf(stderr, "wlog-work: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One write through the kernel's AIO, waited for: its bytes, or -1 and errno. */
static ssize_t aio_write(aio_context_t ctx, void *buf, uint64_t len, uint64_t off, int flags)
{
	struct iocb cb = { 0 }, *cbs[1] = { &cb };
	struct io_event ev;
	long n;

	cb.aio_fildes = fd;
	cb.aio_lio_opcode = IOCB_CMD_PWRITE;
	cb.aio_buf = (uintptr_t)buf;
	cb.aio_nbytes = len;
	cb.aio_offset = off;
	cb.aio_rw_flags = flags;
	if (syscall(SYS_io_submit, ctx, 1, cbs) != 1)
		return -1;
	do
		n = syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		fail("io_getevents");
	if (ev.res < 0) {
		errno = -ev.res;
		return -1;
	}
	return ev.res;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t slice = dev_bytes / nthreads / SECTOR * SECTOR;
	uint64_t base = w->id * slice, len, off, range[2], *p;
	unsigned int op, i, kind;
	aio_context_t ctx = 0;
	struct iovec iov;
	void *buf;
	ssize_t n;

	if (posix_memalign(&buf, 4096, MAX_IO))
		fail("posix_memalign");
	if (use_aio && syscall(SYS_io_setup, 1, &ctx) < 0)
		fail("io_setup");
	for (op = 0; op < nops; op++) {
		kind = next(&w->rng) % 100;
		if (plain)
			kind = 0;
		len = SECTOR << (next(&w->rng) % 12);
		len += next(&w->rng) % 2 ? 0 : (next(&w->rng) % (len / SECTOR)) * SECTOR;
		if (len > MAX_IO)
			len = MAX_IO;
		if (len > slice)
			len = slice;
		off = base + next(&w->rng) % ((slice - len) / SECTOR + 1) * SECTOR;
		if (kind < 70) {
			for (p = buf, i = 0; i < len / 8; i++)
				p[i] = next(&w->rng);
			iov.iov_base = buf;
			iov.iov_len = len;
			if (use_aio)
				n = aio_write(ctx, buf, len, off, kind >= 55 ? RWF_DSYNC : 0);
			else
				n = pwritev2(fd, &iov, 1, off, kind >= 55 ? RWF_DSYNC : 0);
			if (n < 0 && errno == EIO) {
				w->eio++;
			} else if (n != (ssize_t)len) {
				fail("pwritev2");
			} else {
				w->writes++;
				w->fua += kind >= 55;
			}
		} else if (kind < 80) {
			if (fdatasync(fd) < 0 && errno != EIO)
				fail("fdatasync");
			w->flushes++;
		} else {
			range[0] = off;
			range[1] = len;
			if (ioctl(fd, kind < 90 ? BLKDISCARD : BLKZEROOUT, range) < 0) {
				if (errno != EIO)
					fail(kind < 90 ? "BLKDISCARD" : "BLKZEROOUT");
				w->eio++;
			} else if (kind < 90) {
				w->discards++;
			} else {
				w->zeroes++;
			}
		}
	}
	if (use_aio)
		syscall(SYS_io_destroy, ctx);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long writes = 0, fua = 0, flushes = 0, discards = 0, zeroes = 0, eio = 0;
	struct worker *ws;
	unsigned int i;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: wlog-work DEV SEED THREADS OPS [plain|aio]\n");
		return 2;
	}
	seed = strtoull(argv[2], NULL, 0);
	nthreads = strtoul(argv[3], NULL, 0);
	nops = strtoul(argv[4], NULL, 0);
	plain = argc == 6 && !strcmp(argv[5], "plain");
	use_aio = argc == 6 && !strcmp(argv[5], "aio");
	if (!nthreads)
		return 2;
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0)
		fail(argv[1]);
	if (ioctl(fd, BLKGETSIZE64, &dev_bytes) < 0)
		fail("BLKGETSIZE64");
	ws = calloc(nthreads, sizeof(*ws));
	if (!ws)
		fail("calloc");
	for (i = 0; i < nthreads; i++) {
		ws[i].id = i;
		ws[i].rng = (seed + 1) * 0x9e3779b97f4a7c15ULL + i * 0xbf58476d1ce4e5b9ULL + 1;
		if (pthread_create(&ws[i].tid, NULL, work, &ws[i]))
			fail("pthread_create");
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(ws[i].tid, NULL);
		writes += ws[i].writes;
		fua += ws[i].fua;
		flushes += ws[i].flushes;
		discards += ws[i].discards;
		zeroes += ws[i].zeroes;
		eio += ws[i].eio;
	}
	printf("wlog-work: %lu writes (%lu fua), %lu flushes, %lu discards, %lu write-zeroes, %lu EIO\n",
	       writes, fua, flushes, discards, zeroes, eio);
	return 0;
}
