// SPDX-License-Identifier: GPL-2.0
/*
 * A reader that keeps a device open and busy for a while, so that power
 * off, rmdir and attribute changes meet a device with I/O in flight. It
 * only reads and flushes: what it reads is not checked (the main thread
 * may be writing the same sectors), its job is to be there.
 */
#include "rdfuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct busy {
	pthread_t thread;
	int fd;
	struct rng rng;
	unsigned int ms;
	atomic_bool stop;
	atomic_bool done;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void *busy_main(void *arg)
{
	struct busy *b = arg;
	uint64_t end = now_ms() + b->ms;
	void *buf;

	if (posix_memalign(&buf, 4096, SHADOW_IO_MAX)) {
		atomic_store(&b->done, true);
		return NULL;
	}
	while (!atomic_load(&b->stop) && now_ms() < end) {
		uint64_t off = rng_below(&b->rng, SHADOW_BYTES / 4096) * 4096;
		size_t len = 4096 * (1 + rng_below(&b->rng, SHADOW_IO_MAX / 4096));

		if (off + len > SHADOW_BYTES)
			len = SHADOW_BYTES - off;
		if (pread(b->fd, buf, len, (off_t)off) < 0 && errno != EINVAL)
			break;
		if (!rng_below(&b->rng, 16))
			fsync(b->fd);
	}
	free(buf);
	atomic_store(&b->done, true);
	return NULL;
}

struct busy *busy_start(const char *dev, uint64_t seed, unsigned int ms)
{
	struct busy *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (b->fd < 0) {
		free(b);
		return NULL;
	}
	rng_seed(&b->rng, seed);
	b->ms = ms;
	if (pthread_create(&b->thread, NULL, busy_main, b)) {
		close(b->fd);
		free(b);
		return NULL;
	}
	return b;
}

bool busy_running(struct busy *b)
{
	return !atomic_load(&b->done);
}

void busy_stop(struct busy *b)
{
	atomic_store(&b->stop, true);
	pthread_join(b->thread, NULL);
	close(b->fd);
	free(b);
}
