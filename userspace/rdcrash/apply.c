// SPDX-License-Identifier: GPL-2.0
/*
 * Log entries written to a device as the workload's bios wrote them:
 * data with O_DIRECT through an aligned buffer, a discard as BLKDISCARD,
 * a write-zeroes as BLKZEROOUT. The device's own semantics (a discard
 * reads zeros) make the result the same bytes the origin held.
 */
#include "rdcrash.h"

#include <errno.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int apply_piece(int fd, const struct wlog *w, size_t entry, uint32_t first, uint32_t nr)
{
	const struct ramdisk_wlog_entry *e = &w->e[entry];
	uint64_t range[2] = { (e->sector + first) * 512, (uint64_t)nr * 512 };
	size_t len = (size_t)nr * 512;
	void *buf;
	ssize_t n;

	switch (e->type) {
	case RAMDISK_WLOG_DISCARD:
		return ioctl(fd, BLKDISCARD, range);
	case RAMDISK_WLOG_WRITE_ZEROES:
		return ioctl(fd, BLKZEROOUT, range);
	case RAMDISK_WLOG_WRITE:
		break;
	default:
		return 0;
	}
	if (posix_memalign(&buf, 4096, len)) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(buf, w->data + e->data_offset + (size_t)first * 512, len);
	n = pwrite(fd, buf, len, (off_t)range[0]);
	free(buf);
	if (n >= 0 && (size_t)n != len)
		errno = EIO;
	return n >= 0 && (size_t)n == len ? 0 : -1;
}

int apply_entries(int fd, const struct wlog *w, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (wlog_is_data(&w->e[i]) && apply_piece(fd, w, i, 0, w->e[i].nr_sectors))
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
