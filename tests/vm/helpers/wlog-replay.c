// SPDX-License-Identifier: GPL-2.0
/*
 * wlog-replay: an oracle for the write log, written from
 * include/uapi/ramdisk.h alone and sharing no code with ramdiskctl or
 * rdcrash, whose readings of the log it checks.
 *
 *   wlog-replay [--to-mark TEXT] DEV IMAGE
 *	reads DEV's write log with RAMDISK_IOC_WLOG_READ and applies its
 *	writes, discards, write-zeroes and zone resets and finishes, in
 *	order, onto IMAGE (a file or a device that holds the log's base: the
 *	checkpoint it started with), up to the first mark TEXT (exit 3 when
 *	there is none) or to the end. On a file or a device without zones a
 *	zone reset is zeros over the zone and a finish nothing (the data
 *	alone); on a zoned IMAGE (a clone of the checkpoint) they are
 *	BLKRESETZONE and BLKFINISHZONE, data goes with O_DIRECT, a discard is
 *	BLKDISCARD and a write-zeroes a write of zeros, so that its zones
 *	end as DEV's did.
 *
 *   wlog-replay --cut AFTER [--strict] DEV IMAGE
 *	for a log a power cut ended: IMAGE gets what the cut may not lose
 *	(the floor), and AFTER (the device after the cut) is checked against
 *	the promise, per 512-byte sector: it holds the floor's content or
 *	that of a write logged after the sector's floor entry that no flush
 *	covered. A sector's floor entry is its last discard, write-zeroes,
 *	FUA write, or write logged before the last flush that did not fail.
 *	With --strict every sector must hold the floor (a cut that drops
 *	every cached page of a cache that never evicted and never flushed
 *	a write logged after its last flush). Exit 1 when a sector breaks it.
 *
 * Every entry is checked too: sequence numbers from 0 without gaps, data
 * length and type consistent, inside the device. One line of totals is
 * printed. WLOG_REPLAY_SKIP=SEQ leaves the write SEQ out, and
 * WLOG_REPLAY_SKIP=last undoes the last write replayed (a broken oracle, to
 * show that the test fails).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ramdisk.h"

#define SECTOR 512ULL
#define BATCH 1024

static const char *prog = "wlog-replay";
/* IMAGE is a zoned block device: written with O_DIRECT, zones by command */
static bool img_zoned;

struct reader {
	int fd;
	uint64_t next;
	struct ramdisk_wlog_entry *ents;
	unsigned char *data;
	uint64_t data_size;
	uint32_t count, pos;
	bool end;
	uint32_t state;
	uint64_t nr_entries;
};

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(2);
}

static void bad(const char *fmt, unsigned long long a, unsigned long long b)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(2);
}

static void reader_init(struct reader *r, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->ents = calloc(BATCH, sizeof(*r->ents));
	r->data_size = 8ULL << 20;
	r->data = malloc(r->data_size);
	if (!r->ents || !r->data)
		die("malloc");
}

/* The next entry and its data, or NULL past the last one given. */
static const struct ramdisk_wlog_entry *reader_next(struct reader *r, const unsigned char **data)
{
	struct ramdisk_wlog_read req;
	const struct ramdisk_wlog_entry *e;

	while (r->pos == r->count) {
		if (r->end)
			return NULL;
		memset(&req, 0, sizeof(req));
		req.first = r->next;
		req.count = BATCH;
		req.entries = (uintptr_t)r->ents;
		req.data = (uintptr_t)r->data;
		req.data_size = r->data_size;
		if (ioctl(r->fd, RAMDISK_IOC_WLOG_READ, &req) < 0) {
			if (errno != EMSGSIZE || req.data_used <= r->data_size)
				die("RAMDISK_IOC_WLOG_READ");
			free(r->data);
			r->data_size = req.data_used;
			r->data = malloc(r->data_size);
			if (!r->data)
				die("malloc");
			continue;
		}
		r->state = req.state;
		r->nr_entries = req.nr_entries;
		r->count = req.count;
		r->pos = 0;
		if (req.data_used > r->data_size)
			bad("data_used %llu beyond the buffer of %llu", req.data_used,
			    r->data_size);
		/* no END while the log records: what it holds now is the end */
		if ((req.flags & RAMDISK_WLOG_END) || !req.count ||
		    r->next + req.count >= req.nr_entries)
			r->end = true;
	}
	e = &r->ents[r->pos++];
	if (e->seq != r->next)
		bad("entry seq %llu where %llu was due", e->seq, r->next);
	r->next++;
	if (e->data_len && e->data_offset + e->data_len > r->data_size)
		bad("entry %llu: data past the buffer (offset %llu)", e->seq, e->data_offset);
	*data = r->data + e->data_offset;
	return e;
}

static void check_entry(const struct ramdisk_wlog_entry *e, uint64_t dev_sectors)
{
	switch (e->type) {
	case RAMDISK_WLOG_ZONE_RESET:
	case RAMDISK_WLOG_ZONE_FINISH:
		/* a whole zone: a power of two of sectors, at its start */
		if (e->data_len || !e->nr_sectors || (e->nr_sectors & (e->nr_sectors - 1)) ||
		    e->sector % e->nr_sectors)
			bad("zone command %llu names no zone (%llu sectors)", e->seq,
			    e->nr_sectors);
		break;
	case RAMDISK_WLOG_WRITE:
		if ((uint64_t)e->data_len != e->nr_sectors * SECTOR || !e->nr_sectors)
			bad("write %llu: %llu bytes of data", e->seq, e->data_len);
		break;
	case RAMDISK_WLOG_DISCARD:
	case RAMDISK_WLOG_WRITE_ZEROES:
		if (e->data_len || !e->nr_sectors)
			bad("discard or zeroes %llu: %llu bytes of data", e->seq, e->data_len);
		break;
	case RAMDISK_WLOG_FLUSH:
		if (e->data_len || e->nr_sectors)
			bad("flush %llu covers %llu sectors", e->seq, e->nr_sectors);
		return;
	case RAMDISK_WLOG_MARK:
		if (!e->data_len || e->data_len > 127)
			bad("mark %llu of %llu characters", e->seq, e->data_len);
		return;
	default:
		bad("entry %llu of type %llu", e->seq, e->type);
	}
	if (e->sector + e->nr_sectors > dev_sectors)
		bad("entry %llu ends past the device at sector %llu", e->seq,
		    e->sector + e->nr_sectors);
}

/* O_DIRECT wants aligned memory: a zoned IMAGE's data goes through this */
static void *bounce;
static uint64_t bounce_len;

static void *aligned(const void *buf, uint64_t len)
{
	if (len > bounce_len) {
		free(bounce);
		if (posix_memalign(&bounce, 4096, len))
			die("posix_memalign");
		bounce_len = len;
	}
	if (buf)
		memcpy(bounce, buf, len);
	return bounce;
}

static void put(int fd, const void *buf, uint64_t len, uint64_t off)
{
	ssize_t n;

	if (img_zoned)
		buf = aligned(buf, len);
	while (len) {
		n = pwrite(fd, buf, len, off);
		if (n <= 0)
			die("write to the image");
		buf = (const char *)buf + n;
		len -= n;
		off += n;
	}
}

static void get(int fd, void *buf, uint64_t len, uint64_t off)
{
	char *to = img_zoned ? aligned(NULL, len) : buf;
	uint64_t left = len;
	ssize_t n;

	while (left) {
		n = pread(fd, to + (len - left), left, off + (len - left));
		if (n <= 0)
			die("read");
		left -= n;
	}
	if (to != (char *)buf)
		memcpy(buf, to, len);
}

static const unsigned char zeros[1 << 16];

static void put_zeros(int fd, uint64_t sector, uint64_t nr)
{
	uint64_t off = sector * SECTOR, len = nr * SECTOR, n;

	while (len) {
		n = len < sizeof(zeros) ? len : sizeof(zeros);
		put(fd, zeros, n, off);
		off += n;
		len -= n;
	}
}

static uint64_t dev_sectors_of(int fd)
{
	uint64_t bytes;

	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		die("BLKGETSIZE64");
	return bytes / SECTOR;
}

/*
 * A zoned IMAGE: what is not a write, done as DEV was told to, so that
 * the write pointers and conditions follow (a write of zeros at the
 * pointer moves it as a write-zeroes did; zeros written over a discarded
 * range would not be at it).
 */
static void zoned_apply(int img, const struct ramdisk_wlog_entry *e)
{
	struct blk_zone_range zr = { .sector = e->sector, .nr_sectors = e->nr_sectors };
	uint64_t range[2] = { e->sector * SECTOR, e->nr_sectors * SECTOR };

	switch (e->type) {
	case RAMDISK_WLOG_DISCARD:
		if (ioctl(img, BLKDISCARD, range) < 0)
			die("BLKDISCARD on the image");
		break;
	case RAMDISK_WLOG_WRITE_ZEROES:
		put_zeros(img, e->sector, e->nr_sectors);
		break;
	case RAMDISK_WLOG_ZONE_RESET:
		if (ioctl(img, BLKRESETZONE, &zr) < 0)
			die("BLKRESETZONE on the image");
		break;
	case RAMDISK_WLOG_ZONE_FINISH:
		if (ioctl(img, BLKFINISHZONE, &zr) < 0)
			die("BLKFINISHZONE on the image");
		break;
	default:
		break;
	}
}

struct totals {
	uint64_t entries, writes, fua, flushes, failed, discards, zeroes, marks, bytes;
	uint64_t resets, finishes;
};

static void count(struct totals *t, const struct ramdisk_wlog_entry *e)
{
	t->entries++;
	switch (e->type) {
	case RAMDISK_WLOG_WRITE:
		t->writes++;
		t->bytes += e->data_len;
		t->fua += !!(e->flags & RAMDISK_WLOG_FUA);
		break;
	case RAMDISK_WLOG_FLUSH:
		t->flushes++;
		t->failed += !!(e->flags & RAMDISK_WLOG_FAILED);
		break;
	case RAMDISK_WLOG_DISCARD:
		t->discards++;
		break;
	case RAMDISK_WLOG_WRITE_ZEROES:
		t->zeroes++;
		break;
	case RAMDISK_WLOG_ZONE_RESET:
		t->resets++;
		break;
	case RAMDISK_WLOG_ZONE_FINISH:
		t->finishes++;
		break;
	default:
		t->marks++;
	}
}

static const char *state_name(uint32_t s)
{
	static const char *const names[] = { "off",	   "recording", "stopped",
					     "overflowed", "failed",	"cut" };

	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static void print_totals(const struct totals *t, const struct reader *r, const char *end)
{
	printf("%s: %llu entries (%llu writes of %llu bytes, %llu fua, %llu flushes of which %llu failed, "
	       "%llu discards, %llu write-zeroes, %llu marks, %llu zone resets, %llu zone finishes), "
	       "log %s, replayed to %s\n",
	       prog, (unsigned long long)t->entries, (unsigned long long)t->writes,
	       (unsigned long long)t->bytes, (unsigned long long)t->fua,
	       (unsigned long long)t->flushes, (unsigned long long)t->failed,
	       (unsigned long long)t->discards, (unsigned long long)t->zeroes,
	       (unsigned long long)t->marks, (unsigned long long)t->resets,
	       (unsigned long long)t->finishes, state_name(r->state), end);
}

/* WLOG_REPLAY_SKIP=last: what the last write replayed overwrote */
static unsigned char *undo;
static uint64_t undo_len, undo_off;

static void undo_last(int img)
{
	if (undo_len)
		put(img, undo, undo_len, undo_off);
}

static int replay(int dev, int img, const char *mark, int64_t skip)
{
	uint64_t dev_sectors = dev_sectors_of(dev);
	const struct ramdisk_wlog_entry *e;
	const unsigned char *data;
	struct totals t = { 0 };
	struct reader r;

	reader_init(&r, dev);
	while ((e = reader_next(&r, &data))) {
		check_entry(e, dev_sectors);
		if (e->type == RAMDISK_WLOG_MARK && mark && strlen(mark) == e->data_len &&
		    !memcmp(mark, data, e->data_len)) {
			undo_last(img);
			print_totals(&t, &r, mark);
			return 0;
		}
		count(&t, e);
		if (e->type == RAMDISK_WLOG_WRITE && skip == -2) {
			free(undo);
			undo_len = e->data_len;
			undo_off = e->sector * SECTOR;
			undo = malloc(undo_len);
			if (!undo)
				die("malloc");
			get(img, undo, undo_len, undo_off);
		}
		if (e->type == RAMDISK_WLOG_WRITE && (int64_t)e->seq != skip)
			put(img, data, e->data_len, e->sector * SECTOR);
		else if (img_zoned)
			zoned_apply(img, e);
		else if (e->type == RAMDISK_WLOG_DISCARD || e->type == RAMDISK_WLOG_WRITE_ZEROES ||
			 e->type == RAMDISK_WLOG_ZONE_RESET)
			put_zeros(img, e->sector, e->nr_sectors);
	}
	if (mark) {
		fprintf(stderr, "%s: no mark %s in the log's %llu entries\n", prog, mark,
			(unsigned long long)t.entries);
		return 3;
	}
	undo_last(img);
	print_totals(&t, &r, "the end");
	return 0;
}

/* Whether a data entry is durable at a cut: its content is a floor. */
static bool durable(const struct ramdisk_wlog_entry *e, uint64_t last_flush)
{
	return e->type != RAMDISK_WLOG_WRITE || (e->flags & RAMDISK_WLOG_FUA) ||
	       e->seq < last_flush;
}

static int cut_check(int dev, int img, const char *after_path, bool strict, int64_t skip)
{
	uint64_t dev_sectors = dev_sectors_of(dev), last_flush = 0, s, i;
	uint64_t n_floor = 0, n_later = 0, n_bad = 0, first_bad = UINT64_MAX;
	const struct ramdisk_wlog_entry *e;
	const unsigned char *data;
	unsigned char *after, *floor;
	uint64_t *floor_seq;
	bool *later_ok;
	struct totals t = { 0 };
	struct reader r;
	int afd;

	/* pass 1: the last flush that did not fail */
	reader_init(&r, dev);
	while ((e = reader_next(&r, &data))) {
		check_entry(e, dev_sectors);
		count(&t, e);
		/* a flush the device ignored (lying-flush) made nothing durable either */
		if (e->type == RAMDISK_WLOG_FLUSH &&
		    !(e->flags & (RAMDISK_WLOG_FAILED | RAMDISK_WLOG_IGNORED)))
			last_flush = e->seq;
	}
	if (r.state != RAMDISK_WLOG_CUT) {
		fprintf(stderr, "%s: the log is %s, not cut\n", prog, state_name(r.state));
		return 2;
	}
	print_totals(&t, &r, "the cut");

	/* pass 2: the floor, and the entry that set each sector's */
	floor_seq = calloc(dev_sectors, sizeof(*floor_seq));
	later_ok = calloc(dev_sectors, sizeof(*later_ok));
	after = malloc(dev_sectors * SECTOR);
	floor = malloc(dev_sectors * SECTOR);
	if (!floor_seq || !later_ok || !after || !floor)
		die("malloc");
	get(img, floor, dev_sectors * SECTOR, 0);
	afd = open(after_path, O_RDONLY);
	if (afd < 0)
		die(after_path);
	get(afd, after, dev_sectors * SECTOR, 0);
	close(afd);
	reader_init(&r, dev);
	while ((e = reader_next(&r, &data))) {
		if (e->type == RAMDISK_WLOG_FLUSH || e->type == RAMDISK_WLOG_MARK ||
		    e->type == RAMDISK_WLOG_ZONE_FINISH)
			continue;
		if (!durable(e, last_flush) || (int64_t)e->seq == skip)
			continue;
		for (i = 0; i < e->nr_sectors; i++) {
			s = e->sector + i;
			floor_seq[s] = e->seq + 1;
			if (e->type == RAMDISK_WLOG_WRITE)
				memcpy(floor + s * SECTOR, data + i * SECTOR, SECTOR);
			else
				memset(floor + s * SECTOR, 0, SECTOR);
		}
	}
	/* pass 3: which sectors hold a write logged after their floor */
	reader_init(&r, dev);
	while ((e = reader_next(&r, &data))) {
		if (e->type != RAMDISK_WLOG_WRITE || durable(e, last_flush))
			continue;
		for (i = 0; i < e->nr_sectors; i++) {
			s = e->sector + i;
			if (e->seq + 1 > floor_seq[s] &&
			    !memcmp(after + s * SECTOR, data + i * SECTOR, SECTOR))
				later_ok[s] = true;
		}
	}
	for (s = 0; s < dev_sectors; s++) {
		if (!memcmp(after + s * SECTOR, floor + s * SECTOR, SECTOR)) {
			n_floor++;
		} else if (later_ok[s] && !strict) {
			n_later++;
		} else {
			n_bad++;
			if (first_bad == UINT64_MAX)
				first_bad = s;
		}
	}
	put(img, floor, dev_sectors * SECTOR, 0);
	printf("%s: after the cut %llu sectors hold the floor, %llu a later write, %llu neither\n",
	       prog, (unsigned long long)n_floor, (unsigned long long)n_later,
	       (unsigned long long)n_bad);
	if (n_bad) {
		fprintf(stderr,
			"%s: sector %llu after the cut is neither what the log made durable nor a later write%s\n",
			prog, (unsigned long long)first_bad,
			strict ? " (strict: only the floor)" : "");
		return 1;
	}
	return 0;
}

/* A block device with zones (BLKGETZONESZ: 0 for one without) */
static bool image_is_zoned(int fd)
{
	unsigned int zone_sectors = 0;
	struct stat st;

	if (fstat(fd, &st) < 0)
		die("fstat of the image");
	return S_ISBLK(st.st_mode) && !ioctl(fd, BLKGETZONESZ, &zone_sectors) && zone_sectors;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [--to-mark TEXT | --cut AFTER [--strict]] DEV IMAGE\n"
		"  (--cut takes no zoned IMAGE)\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to-mark", required_argument, NULL, 'm' },
		{ "cut", required_argument, NULL, 'c' },
		{ "strict", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mark = NULL, *after = NULL, *skip_env;
	bool strict = false;
	int64_t skip = -1;
	int dev, img, c, ret;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mark = optarg;
			break;
		case 'c':
			after = optarg;
			break;
		case 's':
			strict = true;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || (mark && after) || (strict && !after))
		usage();
	skip_env = getenv("WLOG_REPLAY_SKIP");
	if (skip_env && !strcmp(skip_env, "last"))
		skip = -2;
	else if (skip_env && *skip_env)
		skip = strtoll(skip_env, NULL, 0);
	dev = open(argv[optind], O_RDONLY);
	if (dev < 0)
		die(argv[optind]);
	img = open(argv[optind + 1], O_RDWR);
	if (img < 0)
		die(argv[optind + 1]);
	if (image_is_zoned(img)) {
		if (after)
			usage();
		close(img);
		img_zoned = true;
		img = open(argv[optind + 1], O_RDWR | O_DIRECT);
		if (img < 0)
			die(argv[optind + 1]);
	}
	if (after)
		ret = cut_check(dev, img, after, strict, skip);
	else
		ret = replay(dev, img, mark, skip);
	if (fsync(img) < 0 && errno != EINVAL)
		die("fsync of the image");
	close(img);
	close(dev);
	return ret;
}
