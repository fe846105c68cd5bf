// SPDX-License-Identifier: GPL-2.0
/*
 * odd-iov: writes and reads a block device through I/O vectors that need
 * not be whole sectors, following steps read from standard input, and
 * checks after each step that the device holds what a disk would.
 *
 * It keeps two images of the device's first SPAN bytes: what it must read
 * now, and what it must read after a power cut (its content as of the
 * last flush). The steps, one a line ('#' starts a comment):
 *
 *   fill SEED                  one direct write of the pattern SEED over SPAN
 *   write [-b] [-s] TARGET OFFSET SEED VECTORS
 *                              pwritev() of the pattern SEED at OFFSET;
 *                              TARGET is "dev" (--dev) or "scsi" (--scsi, a
 *                              disk over it); -b: buffered, then fsync();
 *                              -s: O_DSYNC
 *   read [-b] TARGET OFFSET VECTORS
 *                              preadv() at OFFSET: the bytes must be what
 *                              the device holds
 *   flush                      fsync() of --dev: a flush
 *   cut                        writes 1 to --cut; in writeback mode the
 *                              device then reads as of the last flush
 *   check WHAT                 direct and buffered reads of --dev match
 *
 * EINVAL is an answer to a write or a read (nothing moves); any other
 * error, a short transfer or a wrong byte fails.
 *
 * VECTORS is LEN[@OFF],...: each vector in a buffer of its own, at byte
 * OFF of it (default 0). "100,412" is two vectors; "512@3996" is one that
 * crosses a page boundary after 100 bytes, which reaches a disk whose DMA
 * alignment allows it as segments of 100 and 412 bytes. The pages of a
 * buffer are mapped in descending physical order (from /proc/self/pagemap,
 * which needs root), so that no two neighbours are contiguous and the
 * block layer cannot merge them into one segment.
 *
 * Exit status: 0 all steps done and checked, 1 a check failed, 2 usage,
 * 4 a system call failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

enum { MAX_VECS = 16, MAX_PAGES = 257, PAGE = 4096 };

static const char *dev_path, *scsi_path, *cut_path;
static int writeback;
static size_t span;
static unsigned char *want, *durable;
static unsigned int line_no;

static void usage(void)
{
	fprintf(stderr,
		"Usage: odd-iov --dev DEV [--scsi DISK] [--cut FILE] --mode MODE --span BYTES "
		"<STEPS\n");
	exit(2);
}

static void failf(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "odd-iov: line %u: ", line_no);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* The byte the pattern SEED holds at device offset pos. */
static unsigned char pattern_byte(uint64_t seed, uint64_t pos)
{
	uint64_t x = (pos + 1) * 0x9e3779b97f4a7c15ULL ^ (seed + 1) * 0xbf58476d1ce4e5b9ULL;

	x ^= x >> 29;
	x *= 0x94d049bb133111ebULL;
	return (unsigned char)(x >> 40);
}

static uint64_t number(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = s ? strtoull(s, &end, 0) : 0;
	if (!s || errno || end == s || *end)
		failf(2, "'%s' is not a number", s ? s : "");
	return v;
}

static int open_dev(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		failf(4, "%s: %s", path, strerror(errno));
	return fd;
}

/* The physical frame behind a mapped page, or 0 when the kernel hides it. */
static uint64_t frame_of(int pagemap, const void *addr)
{
	uint64_t entry;

	if (pread(pagemap, &entry, sizeof(entry), (off_t)((uintptr_t)addr / PAGE * 8)) !=
	    (ssize_t)sizeof(entry))
		failf(4, "read /proc/self/pagemap: %s", strerror(errno));
	return entry >> 63 ? entry & ((1ULL << 55) - 1) : 0;
}

/* A buffer of n pages whose neighbours are not physically contiguous. */
static char *scattered(size_t n)
{
	uint64_t frame[MAX_PAGES];
	size_t order[MAX_PAGES], i, j, t;
	int fd, pagemap;
	char *tmp, *area;

	if (n > MAX_PAGES)
		failf(2, "a vector of more than %d pages", MAX_PAGES);
	fd = memfd_create("odd-iov", 0);
	if (fd < 0 || ftruncate(fd, (off_t)(n * PAGE)))
		failf(4, "memfd: %s", strerror(errno));
	tmp = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	area = mmap(NULL, n * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (tmp == MAP_FAILED || area == MAP_FAILED)
		failf(4, "mmap: %s", strerror(errno));
	memset(tmp, 0, n * PAGE);
	pagemap = open_dev("/proc/self/pagemap", O_RDONLY);
	for (i = 0; i < n; i++) {
		frame[i] = frame_of(pagemap, tmp + i * PAGE);
		order[i] = i;
	}
	close(pagemap);
	if (n > 1 && !frame[0])
		fprintf(stderr, "odd-iov: no physical addresses (not root): "
				"neighbouring pages may merge into one segment\n");
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && frame[order[j]] > frame[order[j - 1]]; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		if (mmap(area + i * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
			 (off_t)(order[i] * PAGE)) == MAP_FAILED)
			failf(4, "mmap: %s", strerror(errno));
	munmap(tmp, n * PAGE);
	close(fd);
	return area;
}

/* Parses "LEN[@OFF],..." into vectors; returns their count. */
static int vectors(char *spec, struct iovec *iov, size_t *total)
{
	char *tok, *at, *save = NULL;
	int n = 0;

	*total = 0;
	for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t len, off = 0;

		if (n == MAX_VECS)
			failf(2, "more than %d vectors", MAX_VECS);
		at = strchr(tok, '@');
		if (at) {
			*at = '\0';
			off = number(at + 1);
		}
		len = number(tok);
		if (!len || len > 1 << 20 || off > 1 << 20)
			failf(2, "vector %s out of range", tok);
		iov[n].iov_base = scattered((off + len + PAGE - 1) / PAGE) + off;
		iov[n].iov_len = len;
		*total += len;
		n++;
	}
	if (!n)
		failf(2, "no vectors");
	return n;
}

static void release(struct iovec *iov, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		uintptr_t base = (uintptr_t)iov[i].iov_base / PAGE * PAGE;
		size_t off = (uintptr_t)iov[i].iov_base - base;

		munmap((void *)base, (off + iov[i].iov_len + PAGE - 1) / PAGE * PAGE);
	}
}

static void flush(void)
{
	int fd = open_dev(dev_path, O_RDONLY);

	if (fsync(fd))
		failf(4, "fsync %s: %s", dev_path, strerror(errno));
	close(fd);
	memcpy(durable, want, span);
}

/*
 * write [-b] [-s] TARGET OFFSET SEED VECTORS, or read [-b] TARGET OFFSET
 * VECTORS: EINVAL is an answer (nothing changes); any other error, a short
 * transfer or a byte that is not what the device must hold fails.
 */
static void step_io(int write_op, char **arg, int nargs)
{
	int direct = O_DIRECT, dsync = 0, fd, n, i = 0, err = 0;
	const char *path, *target;
	struct iovec iov[MAX_VECS];
	uint64_t pos, seed = 0, at;
	unsigned char *p;
	char spec[128];
	size_t total, j;
	ssize_t done;

	for (; i < nargs && arg[i][0] == '-'; i++) {
		if (!strcmp(arg[i], "-b"))
			direct = 0;
		else if (!strcmp(arg[i], "-s") && write_op)
			dsync = O_DSYNC;
		else
			failf(2, "unknown flag %s", arg[i]);
	}
	if (nargs - i != (write_op ? 4 : 3))
		failf(2,
		      "write [-b] [-s] TARGET OFFSET SEED VECTORS or read [-b] TARGET OFFSET VECTORS");
	target = arg[i++];
	path = !strcmp(target, "dev") ? dev_path : !strcmp(target, "scsi") ? scsi_path : NULL;
	if (!path)
		failf(2, "no such target '%s'", target);
	pos = number(arg[i++]);
	if (write_op)
		seed = number(arg[i++]);
	snprintf(spec, sizeof(spec), "%s", arg[i]);
	n = vectors(arg[i], iov, &total);
	if (pos + total > span)
		failf(2, "I/O beyond --span");

	/* what to write, or what a read that moves nothing would leave */
	for (i = 0, at = pos; i < n; i++)
		for (p = iov[i].iov_base, j = 0; j < iov[i].iov_len; j++, at++)
			p[j] = write_op ? pattern_byte(seed, at) : (unsigned char)~want[at];
	fd = open_dev(path, (write_op ? O_WRONLY : O_RDONLY) | direct | dsync);
	done = write_op ? pwritev(fd, iov, n, (off_t)pos) : preadv(fd, iov, n, (off_t)pos);
	if (done < 0)
		err = errno;
	else if ((size_t)done != total)
		failf(4, "%s %s: %zd of %zu bytes", write_op ? "pwritev" : "preadv", path, done,
		      total);
	if (err == EINVAL) {
		printf("%s refuses %s vectors %s (EINVAL)\n", path, write_op ? "write" : "read",
		       spec);
	} else if (err) {
		failf(4, "%s %s: %s", write_op ? "pwritev" : "preadv", path, strerror(err));
	} else if (write_op) {
		if (!direct && fsync(fd))
			failf(4, "fsync %s: %s", path, strerror(errno));
		for (i = 0, at = pos; i < n; i++)
			for (p = iov[i].iov_base, j = 0; j < iov[i].iov_len; j++)
				want[at++] = p[j];
		/* O_DSYNC on a block device flushes the whole device, as fsync() does */
		if (dsync || !direct)
			memcpy(durable, want, span);
		printf("%s: wrote vectors %s at %llu\n", path, spec, (unsigned long long)pos);
	} else {
		for (i = 0, at = pos; i < n; i++)
			for (p = iov[i].iov_base, j = 0; j < iov[i].iov_len; j++, at++)
				if (p[j] != want[at])
					failf(1,
					      "%s: preadv %s at %llu: byte %llu (vector %d, byte %zu) is %#x, want %#x",
					      path, spec, (unsigned long long)pos,
					      (unsigned long long)at, i, j, p[j], want[at]);
		printf("%s: read vectors %s at %llu\n", path, spec, (unsigned long long)pos);
	}
	close(fd);
	release(iov, n);
}

static void compare(const unsigned char *got, const char *how, const char *what)
{
	size_t i;

	for (i = 0; i < span; i++)
		if (got[i] != want[i])
			failf(1, "%s reads differ after %s: byte %zu is %#x, want %#x", how, what,
			      i, got[i], want[i]);
}

static void check(const char *what)
{
	unsigned char *got;
	int fd;

	if (posix_memalign((void **)&got, PAGE, span))
		failf(4, "out of memory");
	fd = open_dev(dev_path, O_RDONLY | O_DIRECT);
	if (pread(fd, got, span, 0) != (ssize_t)span)
		failf(4, "direct read of %s: %s", dev_path, strerror(errno));
	close(fd);
	compare(got, "direct", what);
	fd = open_dev(dev_path, O_RDONLY);
	/* what the page cache holds may predate writes through another disk */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (pread(fd, got, span, 0) != (ssize_t)span)
		failf(4, "buffered read of %s: %s", dev_path, strerror(errno));
	close(fd);
	compare(got, "buffered", what);
	free(got);
	printf("ok: %s\n", what);
}

static void cut(void)
{
	int fd = open_dev(cut_path, O_WRONLY);

	if (write(fd, "1\n", 2) != 2)
		failf(4, "%s: %s", cut_path, strerror(errno));
	close(fd);
	if (writeback)
		memcpy(want, durable, span);
	/*
	 * The SCSI target holds the device open, so a cut that lost
	 * completed writes is reported to the next flush, once: take that
	 * report here, so that the flushes of the sequence mean their own.
	 */
	fd = open_dev(dev_path, O_RDONLY);
	if (fsync(fd) && errno != EIO)
		failf(4, "fsync %s after a cut: %s", dev_path, strerror(errno));
	close(fd);
}

int main(int argc, char **argv)
{
	char line[512], *arg[16], *save, *p;
	const char *mode = NULL;
	int i, n;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--dev"))
			dev_path = argv[i + 1];
		else if (!strcmp(argv[i], "--scsi"))
			scsi_path = argv[i + 1];
		else if (!strcmp(argv[i], "--cut"))
			cut_path = argv[i + 1];
		else if (!strcmp(argv[i], "--mode"))
			mode = argv[i + 1];
		else if (!strcmp(argv[i], "--span"))
			span = number(argv[i + 1]);
		else
			usage();
	}
	if (i != argc || !dev_path || !mode || !span || span % PAGE)
		usage();
	writeback = !strcmp(mode, "writeback");
	want = calloc(1, span);
	durable = calloc(1, span);
	if (!want || !durable)
		failf(4, "out of memory");

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		line_no++;
		p = strchr(line, '#');
		if (p)
			*p = '\0';
		n = 0;
		for (p = strtok_r(line, " \t\n", &save); p && n < 16;
		     p = strtok_r(NULL, " \t\n", &save))
			arg[n++] = p;
		if (!n)
			continue;
		if (!strcmp(arg[0], "fill") && n == 2) {
			char dev[] = "dev", zero[] = "0", whole[32];
			char *w[4] = { dev, zero, arg[1], whole };

			snprintf(whole, sizeof(whole), "%zu", span);
			step_io(1, w, 4);
		} else if (!strcmp(arg[0], "write") || !strcmp(arg[0], "read")) {
			step_io(arg[0][0] == 'w', arg + 1, n - 1);
		} else if (!strcmp(arg[0], "flush") && n == 1) {
			flush();
		} else if (!strcmp(arg[0], "cut") && n == 1 && cut_path) {
			cut();
		} else if (!strcmp(arg[0], "check") && n >= 2) {
			char what[512] = "";

			for (i = 1; i < n; i++) {
				strncat(what, arg[i], sizeof(what) - strlen(what) - 2);
				if (i + 1 < n)
					strcat(what, " ");
			}
			check(what);
		} else {
			failf(2, "cannot do '%s' here", arg[0]);
		}
	}
	return 0;
}
