/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the unit tests of rdcrash's block names: a file-system image made
 * from a folder by the file system's own offline tools (no mount, no
 * module), and the place of a marker in it, found by reading the image's
 * bytes rather than through any tool the code under test asks.
 */
#ifndef RD_UNIT_FS_IMAGE_H
#define RD_UNIT_FS_IMAGE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FS_IMAGE_MARKER "rdcrash-unit-marker:"
#define FS_IMAGE_SIZE (256ULL << 20)

/* A folder with dir/file (64 KiB starting with the marker) and small. */
static inline int fs_image_tree(const char *top)
{
	char path[512], buf[65536];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/root/dir", top);
	if (mkdir(top, 0755) && access(top, F_OK))
		return -1;
	snprintf(buf, sizeof(buf), "%s/root", top);
	if (mkdir(buf, 0755) || mkdir(path, 0755))
		return -1;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('a' + i % 23);
	memcpy(buf, FS_IMAGE_MARKER, strlen(FS_IMAGE_MARKER));
	snprintf(path, sizeof(path), "%s/root/dir/file", top);
	f = fopen(path, "w");
	if (!f || fwrite(buf, 1, sizeof(buf), f) != sizeof(buf) || fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s/root/small", top);
	f = fopen(path, "w");
	if (!f || fputs("small\n", f) < 0 || fclose(f))
		return -1;
	return 0;
}

/*
 * top (a mkdtemp template) made, the folder in it, and image named
 * TOP/image: an empty file of FS_IMAGE_SIZE for the tools to format.
 */
static inline int fs_image_prepare(char *top, char *image, size_t len)
{
	FILE *f;

	if (!mkdtemp(top) || fs_image_tree(top))
		return -1;
	snprintf(image, len, "%s/image", top);
	f = fopen(image, "w");
	if (!f)
		return -1;
	if (ftruncate(fileno(f), (off_t)FS_IMAGE_SIZE)) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* The byte offset in the image of the first 4 KiB block starting with the marker; -1 if none. */
static inline long long fs_image_find_marker(const char *image)
{
	static char block[4096];
	long long off = 0, found = -1;
	FILE *f = fopen(image, "r");

	if (!f)
		return -1;
	while (fread(block, 1, sizeof(block), f) == sizeof(block)) {
		if (!memcmp(block, FS_IMAGE_MARKER, strlen(FS_IMAGE_MARKER))) {
			found = off;
			break;
		}
		off += sizeof(block);
	}
	fclose(f);
	return found;
}

/* What print(image, sector, nr) wrote, in buf. */
static inline void fs_image_names(void (*print)(const char *, uint64_t, uint32_t, FILE *),
				  const char *image, uint64_t sector, uint32_t nr, char *buf,
				  size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (!f)
		return;
	print(image, sector, nr, f);
	fclose(f);
}

#endif /* RD_UNIT_FS_IMAGE_H */
