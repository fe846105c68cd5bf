// SPDX-License-Identifier: GPL-2.0
/*
 * Which file-system object a range of sectors belongs to, as the file
 * system's own tools say, for minimise's list of the writes a failure
 * needs, read-only, on the device as the workload left it (unmounted,
 * clean). ext2/3/4: debugfs's icheck (block to inode) and ncheck (inode
 * to path). xfs: xfs_db's blockget, then blockuse from the sector (daddr
 * in xfs_db's words, 512-byte units as ours). btrfs and f2fs have files
 * of their own (fs_objects_btrfs.c, fs_objects_f2fs.c).
 */
#include "fs_objects_btrfs.h"
#include "fs_objects_f2fs.h"
#include "rdcrash.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs cmd, which holds no text from the user, for its output. */
static FILE *tool(const char *cmd)
{
	return popen(cmd, "r");
}

static uint64_t ext_block_size(const char *dev)
{
	char cmd[128], line[256];
	uint64_t bs = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "dumpe2fs -h %s 2>/dev/null", dev);
	p = tool(cmd);
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (!strncmp(line, "Block size:", 11))
			bs = strtoull(line + 11, NULL, 10);
	pclose(p);
	return bs;
}

/* The inode owning fs block b, 0 if none (metadata, free). */
static unsigned long ext_inode_of(const char *dev, uint64_t b)
{
	char cmd[160], line[256];
	unsigned long ino = 0, got;
	uint64_t blk;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "debugfs -R 'icheck %" PRIu64 "' %s 2>/dev/null", b, dev);
	p = tool(cmd);
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%" SCNu64 " %lu", &blk, &got) == 2 && blk == b)
			ino = got;
	pclose(p);
	return ino;
}

static void ext_path_of(const char *dev, unsigned long ino, char *path, size_t len)
{
	char cmd[160], line[512], name[480];
	unsigned long got;
	FILE *p;

	path[0] = '\0';
	snprintf(cmd, sizeof(cmd), "debugfs -R 'ncheck %lu' %s 2>/dev/null", ino, dev);
	p = tool(cmd);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%lu %479[^\n]", &got, name) == 2 && got == ino && !path[0]) {
			/* debugfs writes a name in the root as "//name" */
			const char *n = name;

			while (n[0] == '/' && n[1] == '/')
				n++;
			snprintf(path, len, "%s", n);
		}
	pclose(p);
}

/* xfs: "block B (A/O) type T [inode I [NAME]]" per block, from blockuse. */
static void xfs_objects_print(const char *dev, uint64_t sector, uint32_t nr_sectors, FILE *out)
{
	char cmd[256], line[512], type[32], name[400], seen[8][420];
	unsigned long long ino;
	size_t nseen = 0, i;
	uint64_t bs = 0, count;
	FILE *p;
	int n;

	snprintf(cmd, sizeof(cmd), "xfs_db -r -c 'sb 0' -c 'p blocksize' %s 2>/dev/null", dev);
	p = tool(cmd);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p))
		if (!strncmp(line, "blocksize = ", 12))
			bs = strtoull(line + 12, NULL, 10);
	pclose(p);
	if (bs < 512)
		return;
	count = ((uint64_t)nr_sectors * 512 + bs - 1) / bs;
	if (count > 64)
		count = 64;
	snprintf(cmd, sizeof(cmd),
		 "xfs_db -r -c 'blockget -n' -c 'daddr %" PRIu64 "' -c 'blockuse -n -c %" PRIu64
		 "' %s 2>/dev/null",
		 sector, count, dev);
	p = tool(cmd);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char what[420];

		name[0] = '\0';
		n = sscanf(line, "block %*s %*s type %31s inode %llu %399[^\n]", type, &ino, name);
		if (n < 1)
			continue;
		if (n >= 2)
			snprintf(what, sizeof(what), "inode %llu%s%s", ino, name[0] ? " /" : "",
				 name);
		else
			snprintf(what, sizeof(what), "%s (no inode)", type);
		for (i = 0; i < nseen && strcmp(seen[i], what); i++)
			;
		if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0]))
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", what);
		fprintf(out, "; xfs: %s", what);
	}
	pclose(p);
}

void fs_objects_print(const struct fs_setup *fs, const char *dev, uint64_t sector,
		      uint32_t nr_sectors, FILE *out)
{
	unsigned long seen[8], ino;
	uint64_t bs, b, first, last;
	size_t nseen = 0, i;
	char path[512];

	if (fs && fs->kind && !strcmp(fs->kind->name, "xfs")) {
		xfs_objects_print(dev, sector, nr_sectors, out);
		return;
	}
	if (fs && fs->kind && !strcmp(fs->kind->name, "btrfs")) {
		btrfs_objects_print(dev, sector, nr_sectors, out);
		return;
	}
	if (fs && fs->kind && !strcmp(fs->kind->name, "f2fs")) {
		f2fs_objects_print(dev, sector, nr_sectors, out);
		return;
	}
	if (!fs || !fs->kind || strncmp(fs->kind->name, "ext", 3))
		return;
	bs = ext_block_size(dev);
	if (bs < 1024)
		return;
	first = sector * 512 / bs;
	last = (sector * 512 + (uint64_t)nr_sectors * 512 - 1) / bs;
	/* a long write: the inodes of its first blocks name it well enough */
	if (last - first > 63)
		last = first + 63;
	for (b = first; b <= last; b++) {
		ino = ext_inode_of(dev, b);
		for (i = 0; i < nseen && seen[i] != ino; i++)
			;
		if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0]))
			continue;
		seen[nseen++] = ino;
		if (!ino) {
			fprintf(out, "; %s: no inode (metadata or free)", fs->kind->name);
		} else {
			ext_path_of(dev, ino, path, sizeof(path));
			fprintf(out, "; %s: inode %lu%s%s", fs->kind->name, ino, path[0] ? " " : "",
				path);
		}
	}
}
