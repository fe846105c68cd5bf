// SPDX-License-Identifier: GPL-2.0
/*
 * restore: make a device equal to a save image. The whole image is read
 * and checked first (sizes, every checksum, truncation); only an image
 * found sound is written, so a bad one leaves the device untouched.
 */
#include "ramdiskctl.h"

#include "help.h"
#include "rdimage.h"
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <zlib.h>

#define COPY_CHUNK (1 << 20)

struct image {
	int fd;
	const char *path;
	uint32_t file_crc;
	unsigned char *buf;
};

/* Reads exactly len bytes; -1 and a message when the image ends first. */
static int read_exact(struct image *im, void *buf, size_t len)
{
	char *p = buf;
	size_t left = len;

	while (left) {
		ssize_t n = read(im->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			warn("restore: reading %s", im->path);
			return -1;
		}
		if (!n) {
			warnx("restore: %s: the image is truncated", im->path);
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	im->file_crc = (uint32_t)crc32_z(im->file_crc, buf, len);
	return 0;
}

static int bad_image(const struct image *im, const char *why)
{
	warnx("restore: %s: %s; nothing was written", im->path, why);
	return RC_BAD_IMAGE;
}

/*
 * One pass over the image: checks everything, and when dev_fd >= 0 also
 * writes each extent to the device.
 */
static int walk_image(struct image *im, const struct rdimage_header *h, int dev_fd, const char *dev)
{
	unsigned char rec[RDIMAGE_EXTENT_BYTES], le[4], tr[RDIMAGE_TRAILER_BYTES], extra;
	uint64_t next_free = 0, count;
	uint32_t file_crc, want_crc;
	const char *why;

	for (uint64_t i = 0; i < h->extent_count; i++) {
		struct rdimage_extent e;
		uint32_t data_crc = 0;
		uint64_t done = 0;

		if (read_exact(im, rec, sizeof(rec)))
			return RC_BAD_IMAGE;
		if (rdimage_extent_unpack(rec, &e, &why))
			return bad_image(im, why);
		if (e.offset < next_free || !e.length || e.offset > h->device_size ||
		    e.length > h->device_size - e.offset)
			return bad_image(im, "an extent lies outside the device or out of order");
		next_free = e.offset + e.length;
		while (done < e.length) {
			size_t want = e.length - done < COPY_CHUNK ? e.length - done : COPY_CHUNK;

			if (read_exact(im, im->buf, want))
				return RC_BAD_IMAGE;
			data_crc = (uint32_t)crc32_z(data_crc, im->buf, want);
			if (dev_fd >= 0 && pwrite(dev_fd, im->buf, want,
						  (off_t)(e.offset + done)) != (ssize_t)want) {
				warn("restore: %s: writing at %llu", dev,
				     (unsigned long long)(e.offset + done));
				return RC_ERROR;
			}
			done += want;
		}
		if (read_exact(im, le, sizeof(le)))
			return RC_BAD_IMAGE;
		if (rdimage_get_le32(le) != data_crc)
			return bad_image(im, "extent data fails its checksum (corrupted image)");
	}
	file_crc = im->file_crc;
	if (read_exact(im, tr, sizeof(tr)))
		return RC_BAD_IMAGE;
	if (rdimage_trailer_unpack(tr, &count, &want_crc, &why))
		return bad_image(im, why);
	if (count != h->extent_count || want_crc != file_crc)
		return bad_image(im, "the image fails its whole-file checksum");
	if (read(im->fd, &extra, 1) != 0)
		return bad_image(im, "bytes follow the image trailer");
	return RC_OK;
}

static int restore(struct image *im, int dev_fd, const char *dev)
{
	unsigned char hdr[RDIMAGE_HEADER_BYTES];
	struct rdimage_header h;
	uint64_t dev_size, range[2];
	const char *why;
	int sector, rc;

	if (ioctl(dev_fd, BLKGETSIZE64, &dev_size) || ioctl(dev_fd, BLKSSZGET, &sector)) {
		warn("restore: %s: not a block device", dev);
		return RC_ERROR;
	}
	if (read_exact(im, hdr, sizeof(hdr)))
		return RC_BAD_IMAGE;
	if (rdimage_header_unpack(hdr, &h, &why))
		return bad_image(im, why);
	if (h.device_size != dev_size || h.block_size != (uint32_t)sector) {
		warnx("restore: %s holds a device of %llu bytes in %u-byte blocks, %s has %llu bytes in %d-byte blocks; nothing was written",
		      im->path, (unsigned long long)h.device_size, h.block_size, dev,
		      (unsigned long long)dev_size, sector);
		return RC_MISMATCH;
	}
	if ((rc = walk_image(im, &h, -1, dev)))
		return rc;

	/* Sound: everything outside the extents becomes zeros, then the data. */
	range[0] = 0;
	range[1] = dev_size;
	if (ioctl(dev_fd, BLKDISCARD, range)) {
		warn("restore: %s: discarding the old contents", dev);
		return RC_ERROR;
	}
	if (lseek(im->fd, 0, SEEK_SET)) {
		warn("restore: %s: rewinding", im->path);
		return RC_ERROR;
	}
	im->file_crc = 0;
	if (read_exact(im, hdr, sizeof(hdr)))
		return RC_ERROR;
	/* a file changed between the passes is caught by the checksums again */
	if ((rc = walk_image(im, &h, dev_fd, dev)))
		return rc;
	if (fsync(dev_fd)) {
		warn("restore: %s: flushing", dev);
		return RC_ERROR;
	}
	return RC_OK;
}

int restore_image(const char *file, const char *dev)
{
	struct image im = { .path = file };
	int dev_fd, rc;

	im.fd = open(im.path, O_RDONLY | O_CLOEXEC);
	if (im.fd < 0)
		return report_errno(errno, "restore: %s", im.path);
	dev_fd = open(dev, O_RDWR | O_CLOEXEC);
	if (dev_fd < 0) {
		rc = report_errno(errno, "restore: %s", dev);
		close(im.fd);
		return rc;
	}
	im.buf = malloc(COPY_CHUNK);
	if (!im.buf) {
		warnx("out of memory");
		rc = RC_ERROR;
	} else {
		rc = restore(&im, dev_fd, dev);
	}
	free(im.buf);
	close(dev_fd);
	close(im.fd);
	return rc;
}

int cmd_restore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char devpath[64];
	const char *dev;
	int opt;

	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("restore");
		return option_error("restore", argv, opt);
	}
	if (argc - optind != 2)
		return usage_error("restore", "give FILE and DEV");
	dev = argv[optind + 1];
	/* "ramdiskN" as the other commands take it */
	if (rd_parse_devname(dev) >= 0 && !strchr(dev, '/')) {
		snprintf(devpath, sizeof(devpath), "/dev/%s", dev);
		dev = devpath;
	}
	return restore_image(argv[optind], dev);
}
