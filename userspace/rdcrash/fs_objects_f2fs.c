// SPDX-License-Identifier: GPL-2.0
/*
 * Which f2fs object a range of sectors belongs to, from f2fs-tools'
 * dump.f2fs on the unmounted device. The superblock gives the areas in
 * front of the main area (checkpoint, SIT, NAT, SSA); in the main area,
 * `dump.f2fs -b` reads the block's summary and names the inode whose data
 * or node block it is.
 */
#include "fs_objects_f2fs.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

/* dump.f2fs once per block: a long write's first blocks name it. */
#define MAX_LOOKUPS 16

struct f2fs_areas {
	uint64_t block_size, cp, sit, nat, ssa, main;
};

static bool read_areas(const char *dev, struct f2fs_areas *a)
{
	char cmd[256], line[256], field[64];
	unsigned long long v;
	unsigned int hex;
	FILE *p;

	memset(a, 0, sizeof(*a));
	snprintf(cmd, sizeof(cmd), "dump.f2fs -d 1 %s 2>/dev/null", dev);
	p = popen(cmd, "r");
	if (!p)
		return false;
	/* lines like "sit_blkaddr    [0x     600 : 1536]" */
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%63s [0x %x : %llu]", field, &hex, &v) != 3)
			continue;
		if (!strcmp(field, "log_blocksize") && v < 32)
			a->block_size = 1ULL << v;
		else if (!strcmp(field, "cp_blkaddr"))
			a->cp = v;
		else if (!strcmp(field, "sit_blkaddr"))
			a->sit = v;
		else if (!strcmp(field, "nat_blkaddr"))
			a->nat = v;
		else if (!strcmp(field, "ssa_blkaddr"))
			a->ssa = v;
		else if (!strcmp(field, "main_blkaddr"))
			a->main = v;
	}
	pclose(p);
	return a->block_size && a->cp && a->cp <= a->sit && a->sit <= a->nat && a->nat <= a->ssa &&
	       a->ssa <= a->main;
}

/* "inode 6 file (data)" for a block of the main area, from its summary. */
static void main_block_name(const char *dev, uint64_t b, char *what, size_t len)
{
	char cmd[256], line[512], kind[16] = "", name[256] = "";
	bool in = false, obsolete = false;
	unsigned int ino = 0, id;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "dump.f2fs -d 3 -b %" PRIu64 " %s 2>/dev/null", b, dev);
	p = popen(cmd, "r");
	if (!p) {
		snprintf(what, len, "main area");
		return;
	}
	while (fgets(line, sizeof(line), p)) {
		/* the superblock and checkpoint come first; then the block */
		if (strstr(line, "Dump data from block address"))
			in = true;
		if (!in)
			continue;
		if (strstr(line, "not valid") || strstr(line, "Obsolete block"))
			obsolete = true;
		if (sscanf(line, " - Inode block : id = 0x%x", &id) == 1)
			ino = id;
		/* "FS Userdata Area: Data block from 0x1c02", "i_name  [file]" */
		if (!kind[0] && sscanf(line, "FS Userdata Area: %15s block", kind) != 1)
			kind[0] = '\0';
		if (!name[0] && sscanf(line, "i_name [%255[^]]]", name) != 1)
			name[0] = '\0';
	}
	pclose(p);
	if (obsolete || !ino)
		snprintf(what, len, "main area, no live block of an inode");
	else
		snprintf(what, len, "inode %u%s%s (%s)", ino, name[0] ? " " : "", name,
			 !strcmp(kind, "Node") ? "node" : "data");
}

void f2fs_objects_print(const char *dev, uint64_t sector, uint32_t nr_sectors, FILE *out)
{
	char seen[8][320], what[320];
	struct f2fs_areas a;
	uint64_t b, first, last;
	size_t nseen = 0, i;
	int lookups = 0;

	if (!read_areas(dev, &a))
		return;
	first = sector * 512 / a.block_size;
	last = ((sector + nr_sectors) * 512 - 1) / a.block_size;
	for (b = first; b <= last && b - first < 64; b++) {
		if (b < a.cp)
			snprintf(what, sizeof(what),
				 b < 2 ? "superblock" : "in front of the segments");
		else if (b < a.sit)
			snprintf(what, sizeof(what), "checkpoint");
		else if (b < a.nat)
			snprintf(what, sizeof(what), "SIT");
		else if (b < a.ssa)
			snprintf(what, sizeof(what), "NAT");
		else if (b < a.main)
			snprintf(what, sizeof(what), "SSA");
		else if (lookups++ < MAX_LOOKUPS)
			main_block_name(dev, b, what, sizeof(what));
		else
			break;
		for (i = 0; i < nseen && strcmp(seen[i], what); i++)
			;
		if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0]))
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", what);
		fprintf(out, "; f2fs: %s", what);
	}
}
