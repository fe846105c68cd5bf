// SPDX-License-Identifier: GPL-2.0
/*
 * rdcrash's btrfs block names on an image mkfs.btrfs --rootdir made: the
 * superblock; the data block holding the marker, found by reading the
 * image, names its file's path; and every tree block found by its header
 * in the image (this file system's fsid, and the block's own address)
 * names the tree its header's owner field says.
 */
#include "check.h"
#include "fs_image.h"
#include "fs_objects_btrfs.h"

#include <stdint.h>
#include <string.h>

static const char *tree_name(uint64_t owner)
{
	switch (owner) {
	case 1:
		return "ROOT_TREE";
	case 2:
		return "EXTENT_TREE";
	case 3:
		return "CHUNK_TREE";
	case 4:
		return "DEV_TREE";
	case 5:
		return "FS_TREE";
	case 7:
		return "CSUM_TREE";
	case 9:
		return "UUID_TREE";
	case 10:
		return "FREE_SPACE_TREE";
	case 11:
		return "BLOCK_GROUP_TREE";
	default:
		return NULL;
	}
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int main(void)
{
	char top[] = "/tmp/rd-unit-btrfs-XXXXXX", image[600], cmd[1400], names[2048], want[128];
	unsigned char super[4096], block[4096];
	long long marker;
	int trees = 0, left_behind = 0;
	unsigned int seen = 0;
	long long off;
	FILE *f;

	if (system("command -v mkfs.btrfs >/dev/null && command -v btrfs >/dev/null")) {
		puts("btrfs: btrfs-progs is not installed here; skipped");
		return 77;
	}
	CHECK(!fs_image_prepare(top, image, sizeof(image)));
	snprintf(cmd, sizeof(cmd), "mkfs.btrfs -q --rootdir %s/root %s >/dev/null 2>&1", top,
		 image);
	CHECK(!system(cmd));

	fs_image_names(btrfs_objects_print, image, 128, 8, names, sizeof(names));
	CHECK(!strcmp(names, "; btrfs: superblock"));

	marker = fs_image_find_marker(image);
	CHECK(marker > 0);
	fs_image_names(btrfs_objects_print, image, (uint64_t)marker / 512, 8, names, sizeof(names));
	CHECK(!strncmp(names, "; btrfs: inode ", 15) && strstr(names, " /dir/file"));

	/* every tree block, by its header: fsid at 32, bytenr 48, owner 88, level 100 */
	f = fopen(image, "r");
	CHECK(f && fseek(f, 65536, SEEK_SET) == 0 &&
	      fread(super, 1, sizeof(super), f) == sizeof(super));
	for (off = 0; f && fseek(f, off, SEEK_SET) == 0 &&
		      fread(block, 1, sizeof(block), f) == sizeof(block);
	     off += 4096) {
		const char *tree = tree_name(le64(block + 88));

		if (off == 65536 || memcmp(block + 32, super + 32, 16) || !le64(block + 48) ||
		    !tree)
			continue;
		/*
		 * A DUP profile's second copy maps to the same block, and names
		 * it. mkfs leaves the blocks of its first, temporary chunks
		 * behind, outside every chunk it keeps: that is their name.
		 */
		fs_image_names(btrfs_objects_print, image, (uint64_t)off / 512, 8, names,
			       sizeof(names));
		if (!strcmp(names, "; btrfs: outside every chunk")) {
			left_behind++;
			continue;
		}
		snprintf(want, sizeof(want), "; btrfs: tree block of %s (%s)", tree,
			 block[100] ? "node" : "leaf");
		CHECK(!strcmp(names, want));
		if (strcmp(names, want))
			fprintf(stderr, "at %lld: '%s', want '%s'\n", off, names, want);
		trees++;
		seen |= 1u << le64(block + 88);
	}
	if (f)
		fclose(f);
	/* the root, extent, chunk, device, file-system and checksum trees at least */
	CHECK((seen & 0xbe) == 0xbe);
	printf("btrfs: %d tree blocks named as their headers say, %d left behind by mkfs\n", trees,
	       left_behind);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	CHECK(!system(cmd));
	return check_done();
}
