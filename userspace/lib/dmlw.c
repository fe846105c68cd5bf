// SPDX-License-Identifier: GPL-2.0
/*
 * dm-log-writes' format, written from its description in the kernel's
 * drivers/md/dm-log-writes.c: little-endian, a super block of magic,
 * version, entry count and sector size, and per entry a header of sector,
 * length, flags and data length.
 */
#include "dmlw.h"

#include "full_io.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DMLW_MAGIC 0x6a736677736872ULL
#define DMLW_VERSION 1

struct dmlw_super {
	uint64_t magic, version, nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct dmlw_entry {
	uint64_t sector, nr_sectors, flags, data_len;
};

int dmlw_open(struct dmlw_writer *d, const char *file, uint32_t bs)
{
	memset(d, 0, sizeof(*d));
	if (bs < 512 || bs & (bs - 1)) {
		errno = EINVAL;
		return -1;
	}
	d->block = calloc(1, bs);
	if (!d->block)
		return -1;
	d->fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (d->fd < 0) {
		free(d->block);
		d->block = NULL;
		return -1;
	}
	d->bs = bs;
	d->off = bs;
	return 0;
}

int dmlw_add(struct dmlw_writer *d, uint64_t flags, uint64_t sector, uint64_t nr_sectors,
	     const void *data, const char *text)
{
	uint64_t per = d->bs / 512, mlen = 0, dlen = 0;
	struct dmlw_entry h;

	if (sector % per || nr_sectors % per) {
		errno = EINVAL;
		return -1;
	}
	if (flags & DMLW_MARK) {
		mlen = strlen(text);
		if (mlen > d->bs - sizeof(h) - 1)
			mlen = d->bs - sizeof(h) - 1;
		nr_sectors = 0;
	} else if (!(flags & DMLW_DISCARD)) {
		dlen = nr_sectors * 512;
	}
	h.sector = htole64(sector / per);
	h.nr_sectors = htole64(nr_sectors / per);
	h.flags = htole64(flags);
	h.data_len = htole64(mlen);
	memset(d->block, 0, d->bs);
	memcpy(d->block, &h, sizeof(h));
	if (mlen)
		memcpy(d->block + sizeof(h), text, mlen);
	if (pwrite_full(d->fd, d->block, d->bs, d->off))
		return -1;
	d->off += d->bs;
	if (dlen && data) {
		if (pwrite_full(d->fd, data, dlen, d->off))
			return -1;
	} else if (dlen) {
		/* zeros: a hole the file reads back as zeros, then its end */
		memset(d->block, 0, d->bs);
		if (pwrite_full(d->fd, d->block, d->bs, d->off + (off_t)dlen - d->bs))
			return -1;
	}
	d->off += (off_t)dlen;
	d->nr++;
	return 0;
}

int dmlw_close(struct dmlw_writer *d)
{
	struct dmlw_super super = { 0 };
	int rc = 0;

	super.magic = htole64(DMLW_MAGIC);
	super.version = htole64(DMLW_VERSION);
	super.nr_entries = htole64(d->nr);
	super.sectorsize = htole32(d->bs);
	memset(d->block, 0, d->bs);
	memcpy(d->block, &super, sizeof(super));
	if (pwrite_full(d->fd, d->block, d->bs, 0))
		rc = -1;
	if (close(d->fd) && !rc)
		rc = -1;
	free(d->block);
	d->block = NULL;
	d->fd = -1;
	return rc;
}

void dmlw_abandon(struct dmlw_writer *d)
{
	int e = errno;

	if (d->fd >= 0)
		close(d->fd);
	free(d->block);
	d->block = NULL;
	d->fd = -1;
	errno = e;
}
