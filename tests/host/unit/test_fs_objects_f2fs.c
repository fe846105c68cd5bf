// SPDX-License-Identifier: GPL-2.0
/*
 * rdcrash's f2fs block names on an image mkfs.f2fs made and sload.f2fs
 * filled: the superblock; one block in each of the checkpoint, SIT, NAT
 * and SSA areas, whose bounds this test reads from the superblock's bytes
 * itself; and the data block holding the marker, found by reading the
 * image, names its file.
 */
#include "check.h"
#include "fs_image.h"
#include "fs_objects_f2fs.h"

#include <stdint.h>
#include <string.h>

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void)
{
	char top[] = "/tmp/rd-unit-f2fs-XXXXXX", image[600], cmd[1400], names[2048];
	static const char *const area[] = { "checkpoint", "SIT", "NAT", "SSA" };
	unsigned char sb[1024];
	uint32_t addr[5];
	long long marker;
	FILE *f;
	int i;

	if (system("command -v mkfs.f2fs >/dev/null && command -v sload.f2fs >/dev/null && "
		   "command -v dump.f2fs >/dev/null")) {
		puts("f2fs: f2fs-tools is not installed here; skipped");
		return 77;
	}
	CHECK(!fs_image_prepare(top, image, sizeof(image)));
	snprintf(cmd, sizeof(cmd),
		 "mkfs.f2fs -q %s >/dev/null 2>&1 && sload.f2fs -f %s/root %s >/dev/null 2>&1",
		 image, top, image);
	CHECK(!system(cmd));

	fs_image_names(f2fs_objects_print, image, 0, 8, names, sizeof(names));
	CHECK(!strcmp(names, "; f2fs: superblock"));

	/* the superblock at byte 1024: cp_blkaddr at 76, then sit, nat, ssa, main */
	f = fopen(image, "r");
	CHECK(f && fseek(f, 1024, SEEK_SET) == 0 && fread(sb, 1, sizeof(sb), f) == sizeof(sb));
	if (f)
		fclose(f);
	CHECK(le32(sb) == 0xf2f52010);
	for (i = 0; i < 5; i++)
		addr[i] = le32(sb + 76 + 4 * i);
	for (i = 0; i < 4; i++) {
		char want[64];

		snprintf(want, sizeof(want), "; f2fs: %s", area[i]);
		/* the first and the last block of each area, in 4 KiB blocks */
		fs_image_names(f2fs_objects_print, image, (uint64_t)addr[i] * 8, 8, names,
			       sizeof(names));
		CHECK(!strcmp(names, want));
		fs_image_names(f2fs_objects_print, image, (uint64_t)(addr[i + 1] - 1) * 8, 8, names,
			       sizeof(names));
		CHECK(!strcmp(names, want));
	}

	marker = fs_image_find_marker(image);
	CHECK(marker >= (long long)addr[4] * 4096);
	fs_image_names(f2fs_objects_print, image, (uint64_t)marker / 512, 8, names, sizeof(names));
	CHECK(!strncmp(names, "; f2fs: inode ", 14) && strstr(names, " file (data)"));
	printf("f2fs: %s\n", names);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	CHECK(!system(cmd));
	return check_done();
}
