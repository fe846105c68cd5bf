// SPDX-License-Identifier: GPL-2.0
/*
 * Log entries written to a device as the workload's bios wrote them:
 * data with O_DIRECT through an aligned buffer, a discard as BLKDISCARD,
 * a write-zeroes as BLKZEROOUT, a zone reset or finish as BLKRESETZONE or
 * BLKFINISHZONE. The device's own semantics (a discard reads zeros) make
 * the result the same bytes the origin held.
 */
#include "rdcrash.h"

#include <errno.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int write_piece(int fd, const struct wlog *w, const struct ramdisk_wlog_entry *e,
		       uint32_t first, uint32_t nr)
{
	size_t len = (size_t)nr * 512;
	void *buf;
	ssize_t n;

	if (posix_memalign(&buf, 4096, len)) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(buf, w->data + e->data_offset + (size_t)first * 512, len);
	n = pwrite(fd, buf, len, (off_t)((e->sector + first) * 512));
	free(buf);
	if (n >= 0 && (size_t)n != len)
		errno = EIO;
	return n >= 0 && (size_t)n == len ? 0 : -1;
}

/*
 * After a rollback, the kernel's copy of a zone's write pointer (its zone
 * write plug) may still be where the workload left it: the first write
 * at the device's pointer then fails, and a zone report, which the failed
 * write made the kernel wait for, sets the copy right (design.md, Zoned
 * checkpoints). So a write refused with EIO is tried once more after a
 * report of its zone: true when it may be. On a device without zones the
 * report fails and the error stands.
 */
static bool may_retry(int fd, uint64_t sector)
{
	struct {
		struct blk_zone_report r;
		struct blk_zone z;
	} rep = { .r = { .sector = sector, .nr_zones = 1 } };

	if (errno != EIO)
		return false;
	if (ioctl(fd, BLKREPORTZONE, &rep)) {
		errno = EIO;
		return false;
	}
	return true;
}

static int apply_piece(int fd, const struct wlog *w, size_t entry, uint32_t first, uint32_t nr)
{
	const struct ramdisk_wlog_entry *e = &w->e[entry];
	uint64_t range[2] = { (e->sector + first) * 512, (uint64_t)nr * 512 };
	struct blk_zone_range zone = { e->sector, e->nr_sectors };

	switch (e->type) {
	case RAMDISK_WLOG_DISCARD:
		return ioctl(fd, BLKDISCARD, range);
	case RAMDISK_WLOG_WRITE_ZEROES:
		if (!ioctl(fd, BLKZEROOUT, range))
			return 0;
		return may_retry(fd, e->sector + first) ? ioctl(fd, BLKZEROOUT, range) : -1;
	case RAMDISK_WLOG_WRITE:
		if (!write_piece(fd, w, e, first, nr))
			return 0;
		return may_retry(fd, e->sector + first) ? write_piece(fd, w, e, first, nr) : -1;
	case RAMDISK_WLOG_ZONE_RESET:
		return ioctl(fd, BLKRESETZONE, &zone);
	case RAMDISK_WLOG_ZONE_FINISH:
		return ioctl(fd, BLKFINISHZONE, &zone);
	default:
		return 0;
	}
}

int apply_entries(int fd, const struct wlog *w, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (apply_piece(fd, w, i, 0, w->e[i].nr_sectors))
			return -1;
	return 0;
}

int apply_state(int fd, const struct wlog *w, const struct crash_state *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (apply_piece(fd, w, st->pieces[i].entry, st->pieces[i].first, st->pieces[i].nr))
			return -1;
	return 0;
}
