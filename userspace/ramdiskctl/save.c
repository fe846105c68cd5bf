// SPDX-License-Identifier: GPL-2.0
/*
 * save: copy the ranges of a device that hold data into a compact image
 * (rdimage.h). The module names the ranges (RAMDISK_IOC_GET_EXTENTS), so a
 * mostly empty device saves in the time it takes to read its data.
 */
#include "ramdiskctl.h"

#include "full_io.h"
#include "help.h"
#include "rdimage.h"
#include "usage.h"
#include "ramdisk.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define COPY_CHUNK (1 << 20)

/* Every extent of the device; *list is malloc'ed. */
static int get_extents(int fd, const char *dev, struct rdimage_extent **list, size_t *count)
{
	static struct ramdisk_extent batch[256];
	struct ramdisk_extents req = { 0 };
	size_t cap = 0;

	*list = NULL;
	*count = 0;
	for (;;) {
		req.count = sizeof(batch) / sizeof(batch[0]);
		req.flags = 0;
		req.extents = (uintptr_t)batch;
		if (ioctl(fd, RAMDISK_IOC_GET_EXTENTS, &req)) {
			int err = errno;

			free(*list);
			if (err == ENOTTY)
				warnx("save: %s is not a ramdisk device (or its module is too old)",
				      dev);
			else
				warnx("save: %s: listing extents: %s", dev, strerror(err));
			return RC_ERROR;
		}
		for (uint32_t i = 0; i < req.count; i++) {
			if (*count == cap) {
				size_t ncap = cap ? cap * 2 : 256;
				struct rdimage_extent *n = realloc(*list, ncap * sizeof(*n));

				if (!n) {
					free(*list);
					warnx("out of memory");
					return RC_ERROR;
				}
				*list = n;
				cap = ncap;
			}
			(*list)[*count].offset = batch[i].offset;
			(*list)[(*count)++].length = batch[i].length;
		}
		if ((req.flags & RAMDISK_EXTENTS_LAST) || !req.count)
			return RC_OK;
		req.start = batch[req.count - 1].offset + batch[req.count - 1].length;
	}
}

/* Writes buf whole to fd and folds it into the file's CRC. */
static int write_all(int fd, const void *buf, size_t len, uint32_t *file_crc)
{
	*file_crc = (uint32_t)crc32_z(*file_crc, buf, len);
	return write_full(fd, buf, len);
}

static int save(int dev_fd, const char *dev, int out, const char *file)
{
	unsigned char hdr[RDIMAGE_HEADER_BYTES], rec[RDIMAGE_EXTENT_BYTES], le[4];
	unsigned char tr[RDIMAGE_TRAILER_BYTES];
	struct rdimage_header h = { 0 };
	struct rdimage_extent *list;
	uint32_t file_crc = 0;
	size_t count;
	int sector, rc;
	unsigned char *buf;

	if (ioctl(dev_fd, BLKGETSIZE64, &h.device_size) || ioctl(dev_fd, BLKSSZGET, &sector)) {
		warn("save: %s: not a block device", dev);
		return RC_ERROR;
	}
	h.block_size = (uint32_t)sector;
	if ((rc = get_extents(dev_fd, dev, &list, &count)))
		return rc;
	h.extent_count = count;
	for (size_t i = 0; i < count; i++)
		h.data_bytes += list[i].length;
	buf = malloc(COPY_CHUNK);
	if (!buf) {
		free(list);
		warnx("out of memory");
		return RC_ERROR;
	}
	rdimage_header_pack(&h, hdr);
	rc = RC_ERROR;
	if (write_all(out, hdr, sizeof(hdr), &file_crc))
		goto out_write;
	for (size_t i = 0; i < count; i++) {
		uint32_t data_crc = 0;
		uint64_t done = 0;

		rdimage_extent_pack(&list[i], rec);
		if (write_all(out, rec, sizeof(rec), &file_crc))
			goto out_write;
		while (done < list[i].length) {
			size_t want = list[i].length - done < COPY_CHUNK ? list[i].length - done :
									   COPY_CHUNK;
			ssize_t n = pread(dev_fd, buf, want, (off_t)(list[i].offset + done));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				warnx("save: %s: reading at %llu: %s", dev,
				      (unsigned long long)(list[i].offset + done),
				      n ? strerror(errno) : "unexpected end");
				goto out_free;
			}
			data_crc = (uint32_t)crc32_z(data_crc, buf, (size_t)n);
			if (write_all(out, buf, (size_t)n, &file_crc))
				goto out_write;
			done += (uint64_t)n;
		}
		rdimage_put_le32(le, data_crc);
		if (write_all(out, le, sizeof(le), &file_crc))
			goto out_write;
	}
	rdimage_trailer_pack(count, file_crc, tr);
	if (write_all(out, tr, sizeof(tr), &file_crc) || fsync(out))
		goto out_write;
	rc = RC_OK;
	goto out_free;
out_write:
	warn("save: writing %s", file);
out_free:
	free(buf);
	free(list);
	return rc;
}

/*
 * For apply --down: the image goes to a new file beside FILE, fsync'ed,
 * then renamed over it and the folder fsync'ed, so a save that fails (a
 * full disk, a read error, a crash midway) leaves the previous image as it
 * was. The folder is made when missing.
 */
int save_image_atomic(const char *dev, const char *file)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	int dev_fd, out, dir_fd, rc;

	path_fmt(tmp, sizeof(tmp), "%s.tmp.XXXXXX", file);
	path_fmt(dir, sizeof(dir), "%s", file);
	dirname(dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return report_errno(errno, "save: making %s", dir);
	dev_fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (dev_fd < 0)
		return report_errno(errno, "save: %s", dev);
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		rc = report_errno(errno, "save: %s", tmp);
		close(dev_fd);
		return rc;
	}
	rc = save(dev_fd, dev, out, tmp);
	if (!rc && fchmod(out, 0600))
		rc = report_errno(errno, "save: %s", tmp);
	if (close(out) && !rc)
		rc = report_errno(errno, "save: closing %s", tmp);
	close(dev_fd);
	if (!rc && rename(tmp, file))
		rc = report_errno(errno, "save: renaming %s to %s", tmp, file);
	if (rc) {
		unlink(tmp);
		return rc;
	}
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0 || fsync(dir_fd))
		rc = report_errno(errno, "save: flushing %s", dir);
	if (dir_fd >= 0)
		close(dir_fd);
	return rc;
}

int cmd_save(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char devpath[64];
	const char *dev, *file;
	int opt, dev_fd, out, rc;

	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("save");
		return option_error("save", argv, opt);
	}
	if (argc - optind != 2)
		return usage_error("save", "give DEV and FILE");
	dev = argv[optind];
	/* "ramdiskN" as the other commands take it */
	if (rd_parse_devname(dev) >= 0 && !strchr(dev, '/')) {
		snprintf(devpath, sizeof(devpath), "/dev/%s", dev);
		dev = devpath;
	}
	file = argv[optind + 1];
	dev_fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (dev_fd < 0)
		return report_errno(errno, "save: %s", dev);
	out = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		rc = report_errno(errno, "save: %s", file);
		close(dev_fd);
		return rc;
	}
	rc = save(dev_fd, dev, out, file);
	if (close(out) && !rc)
		rc = report_errno(errno, "save: closing %s", file);
	close(dev_fd);
	/* no half-written image is left to be mistaken for a good one */
	if (rc)
		unlink(file);
	return rc;
}
