/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A writer of dm-log-writes' log format, the one fstests' replay-log
 * reads: ramdiskctl wlog export turns a device's write log into it, and
 * rdcrash minimise writes a crash state's reproducer in it.
 *
 * The layout, in blocks of the log's sector size (a logical block of the
 * device the log describes): the super block first, then for each entry a
 * block with its header (and a mark's text after the header), and for a
 * write its data. Sectors and lengths in the headers count those blocks.
 */
#ifndef RAMDISK_DMLW_H
#define RAMDISK_DMLW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DMLW_FLUSH 0x1
#define DMLW_FUA 0x2
#define DMLW_DISCARD 0x4
#define DMLW_MARK 0x8

struct dmlw_writer {
	int fd;
	uint32_t bs; /* the log's sector size in bytes */
	off_t off; /* where the next entry goes */
	uint64_t nr; /* entries written */
	unsigned char *block;
};

/* Creates (or truncates) file for a log of bs-byte sectors. 0, or -1 with errno. */
int dmlw_open(struct dmlw_writer *d, const char *file, uint32_t bs);
/*
 * One entry: flags (DMLW_*), and for a write or discard the range in
 * 512-byte sectors, a multiple of the log's sector size. A write's data
 * is len bytes of data, or zeros if data is NULL; a mark's text is text
 * (cut to what fits in the block). 0, or -1 with errno.
 */
int dmlw_add(struct dmlw_writer *d, uint64_t flags, uint64_t sector, uint64_t nr_sectors,
	     const void *data, const char *text);
/* Writes the super block and closes the file. 0, or -1 with errno. */
int dmlw_close(struct dmlw_writer *d);
/* Closes and removes nothing: for a writer given up on after an error. */
void dmlw_abandon(struct dmlw_writer *d);

#endif /* RAMDISK_DMLW_H */
