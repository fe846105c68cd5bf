// SPDX-License-Identifier: GPL-2.0
/*
 * Is a block device in use or does it hold data? Mounts are read from
 * /proc/self/mountinfo by major:minor; other holders are caught by an
 * exclusive open; data by the magic numbers of the common formats, read
 * from the first 128 KiB (no libblkid needed).
 */
#include "blkdev.h"

#include "rdbench.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

enum { SIGNATURE_SPAN = 128 * 1024 };

struct magic {
	size_t offset;
	const char *bytes;
	size_t len;
	const char *name;
};

/* checked in order; the first match names the content */
static const struct magic magics[] = {
	{ 0x438, "\x53\xef", 2, "an ext2/3/4 file system" },
	{ 0, "XFSB", 4, "an XFS file system" },
	{ 0x10040, "_BHRfS_M", 8, "a btrfs file system" },
	{ 0x400, "\x10\x20\xf5\xf2", 4, "an F2FS file system" },
	{ 0, "LUKS\xba\xbe", 6, "a LUKS volume" },
	{ 0x218, "LVM2 001", 8, "an LVM physical volume" },
	{ 0, "hsqs", 4, "a squashfs image" },
	{ 0x8001, "CD001", 5, "an ISO 9660 image" },
	{ 4096 - 10, "SWAPSPACE2", 10, "a swap area" },
	{ 4096 - 10, "SWAP-SPACE", 10, "a swap area" },
	{ 512, "EFI PART", 8, "a GPT partition table" },
	{ 4096, "EFI PART", 8, "a GPT partition table" },
	{ 3, "NTFS    ", 8, "an NTFS file system" },
	{ 0x36, "FAT", 3, "a FAT file system" },
	{ 0x52, "FAT32", 5, "a FAT file system" },
	{ 0x1fe, "\x55\xaa", 2, "a DOS partition table (MBR)" },
};

const char *fs_signature(const unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];

		/* FAT's name fields count only on a boot sector */
		if (m->offset == 0x36 || m->offset == 0x52) {
			if (len < 0x200 || buf[0x1fe] != 0x55 || buf[0x1ff] != 0xaa)
				continue;
		}
		if (m->offset + m->len <= len && !memcmp(buf + m->offset, m->bytes, m->len))
			return m->name;
	}
	return NULL;
}

static int read_signature(int fd, const char *path, const char **sig)
{
	unsigned char *buf = calloc(1, SIGNATURE_SPAN);
	ssize_t n;

	if (!buf)
		err(EXIT_RUN_FAILED, "out of memory");
	n = pread(fd, buf, SIGNATURE_SPAN, 0);
	if (n < 0) {
		warn("%s: cannot read it", path);
		free(buf);
		return -1;
	}
	*sig = fs_signature(buf, (size_t)n);
	free(buf);
	return 0;
}

int file_signature(const char *path, const char **sig)
{
	int fd = open(path, O_RDONLY);
	int ret;

	if (fd < 0) {
		warn("%s: cannot open it", path);
		return -1;
	}
	ret = read_signature(fd, path, sig);
	close(fd);
	return ret;
}

/* The whole disk a partition belongs to, from sysfs; dev itself if none. */
static dev_t whole_disk(dev_t dev)
{
	unsigned int major_nr, minor_nr;
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (access(path, F_OK))
		return dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(dev), minor(dev));
	f = fopen(path, "re");
	if (!f)
		return dev;
	if (fscanf(f, "%u:%u", &major_nr, &minor_nr) == 2)
		dev = makedev(major_nr, minor_nr);
	fclose(f);
	return dev;
}

bool blkdev_mounted(dev_t dev)
{
	unsigned int major_nr, minor_nr;
	bool mounted = false;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	/* "ID PARENT MAJOR:MINOR ROOT MOUNTPOINT ..." */
	while (!mounted && getline(&line, &cap, f) > 0) {
		dev_t m;

		if (sscanf(line, "%*u %*u %u:%u", &major_nr, &minor_nr) != 2)
			continue;
		m = makedev(major_nr, minor_nr);
		mounted = m == dev || whole_disk(m) == dev;
	}
	free(line);
	fclose(f);
	return mounted;
}

int blkdev_check(const char *path, uint64_t *size, const char **sig)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	int ret = -1;

	if (fd < 0) {
		if (errno == EBUSY)
			warnx("%s: refusing a device in use (mounted, swap, "
			      "or held by md, dm or another program)",
			      path);
		else
			warn("%s: cannot open it", path);
		return -1;
	}
	if (ioctl(fd, BLKGETSIZE64, size)) {
		warn("%s: cannot read the device size", path);
		goto out_close;
	}
	ret = read_signature(fd, path, sig);
out_close:
	close(fd);
	return ret;
}
