// SPDX-License-Identifier: GPL-2.0
/*
 * Which btrfs object a range of sectors belongs to, from btrfs-progs'
 * read-only dumps of the unmounted device. btrfs places its blocks by
 * logical address: the chunk tree maps a device offset to one, and then
 * the extent tree names the inode whose data it holds (and the file
 * system tree its path), or the tree block's own header names the tree it
 * belongs to. `btrfs inspect-internal logical-resolve` does the first half
 * only on a mounted file system, which minimise does not have.
 *
 * Only single-device profiles are understood (single and DUP): a ramdisk
 * holds one device of the file system.
 */
#include "fs_objects_btrfs.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SUPER_OFFSET 65536ULL
#define SUPER_MIRROR1 (64ULL << 20)
#define SUPER_MIRROR2 (256ULL << 30)
#define SUPER_SIZE 4096ULL
#define FIRST_INODE 256ULL /* each tree's top directory */
#define MAX_CHUNKS 64
#define MAX_REFS 4096

struct chunk {
	uint64_t logical, length, phys[2];
	int nr_stripes;
	char type[32]; /* DATA, METADATA, SYSTEM, with the profile after '|' */
};

/* The last extent and tree block named: a long write's blocks share them. */
struct last_named {
	uint64_t extent, extent_len, node;
	char extent_what[480], node_what[480];
};

struct inode_ref {
	uint64_t ino, parent;
	char name[64];
};

static int load_chunks(const char *dev, struct chunk *c, int max)
{
	char cmd[256], line[512];
	unsigned long long v, w;
	int n = -1, s;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "btrfs inspect-internal dump-tree -t chunk %s 2>/dev/null", dev);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		const char *k = strstr(line, "CHUNK_ITEM ");

		if (k && sscanf(k, "CHUNK_ITEM %llu)", &v) == 1) {
			if (n + 1 == max)
				break;
			n++;
			memset(&c[n], 0, sizeof(c[n]));
			c[n].logical = v;
		} else if (n >= 0 && sscanf(line, " length %llu owner %*s stripe_len %*s type %31s",
					    &v, c[n].type) == 2) {
			c[n].length = v;
		} else if (n >= 0 &&
			   sscanf(line, " stripe %d devid %llu offset %llu", &s, &w, &v) == 3 &&
			   c[n].nr_stripes < 2) {
			c[n].phys[c[n].nr_stripes++] = v;
		}
	}
	pclose(p);
	return n + 1;
}

static uint64_t node_size(const char *dev)
{
	char cmd[256], line[256];
	unsigned long long v = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "btrfs inspect-internal dump-super %s 2>/dev/null", dev);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "nodesize %llu", &v) == 1)
			break;
	pclose(p);
	return v;
}

/* The chunk holding device offset phys, and the logical address there. */
static const struct chunk *to_logical(const struct chunk *c, int n, uint64_t phys,
				      uint64_t *logical)
{
	int i, s;

	for (i = 0; i < n; i++)
		for (s = 0; s < c[i].nr_stripes; s++)
			if (phys >= c[i].phys[s] && phys - c[i].phys[s] < c[i].length) {
				*logical = c[i].logical + (phys - c[i].phys[s]);
				return &c[i];
			}
	return NULL;
}

/* "tree block of FS_TREE (leaf)", from the header at logical address bytenr. */
static void tree_block_name(const char *dev, uint64_t bytenr, char *what, size_t len)
{
	char cmd[256], line[512], kind[16], owner[64];
	FILE *p;

	snprintf(what, len, "metadata, no tree block at %" PRIu64, bytenr);
	snprintf(cmd, sizeof(cmd), "btrfs inspect-internal dump-tree -b %" PRIu64 " %s 2>/dev/null",
		 bytenr, dev);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		const char *o = strstr(line, " owner ");

		if (o && sscanf(line, "%15s", kind) == 1 &&
		    (!strcmp(kind, "leaf") || !strcmp(kind, "node")) &&
		    sscanf(o, " owner %63s", owner) == 1) {
			snprintf(what, len, "tree block of %s (%s)", owner, kind);
			break;
		}
	}
	pclose(p);
}

/*
 * The data extent holding logical: the tree (its name in the dump, FS_TREE
 * or a number) and inode of its first data backref. False if none or
 * shared (a backref by parent block names no inode).
 */
static bool data_owner(const char *dev, uint64_t logical, char *root, size_t rlen, uint64_t *ino,
		       uint64_t *ext, uint64_t *ext_len)
{
	char cmd[256], line[512], r[64];
	unsigned long long start, length, obj;
	bool in = false, found = false;
	const char *k;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "btrfs inspect-internal dump-tree -t extent %s 2>/dev/null",
		 dev);
	p = popen(cmd, "r");
	if (!p)
		return false;
	while (!found && fgets(line, sizeof(line), p)) {
		k = strstr(line, " key (");
		if (k) {
			in = sscanf(k, " key (%llu EXTENT_ITEM %llu)", &start, &length) == 2 &&
			     logical >= start && logical - start < length;
			continue;
		}
		if (in &&
		    sscanf(line, " extent data backref root %63s objectid %llu", r, &obj) == 2) {
			snprintf(root, rlen, "%s", r);
			*ino = obj;
			*ext = start;
			*ext_len = length;
			found = true;
		}
	}
	pclose(p);
	return found;
}

/* "/a/b" for inode ino of tree root, from its INODE_REF items; "" if unknown. */
static void inode_path(const char *dev, const char *root, uint64_t ino, char *path, size_t len)
{
	struct inode_ref *refs;
	char cmd[256], line[512], *name;
	unsigned long long a, b;
	int n = 0, i, depth;
	bool want = false;
	FILE *p;

	path[0] = '\0';
	refs = calloc(MAX_REFS, sizeof(*refs));
	if (!refs)
		return;
	/* the file system tree is 5; a subvolume's is its number */
	snprintf(cmd, sizeof(cmd), "btrfs inspect-internal dump-tree -t %s %s 2>/dev/null",
		 strcmp(root, "FS_TREE") ? root : "5", dev);
	p = popen(cmd, "r");
	if (!p)
		goto free_refs;
	while (fgets(line, sizeof(line), p) && n < MAX_REFS) {
		const char *k = strstr(line, " key (");

		if (k) {
			want = sscanf(k, " key (%llu INODE_REF %llu)", &a, &b) == 2;
			if (want) {
				refs[n].ino = a;
				refs[n].parent = b;
			}
			continue;
		}
		name = strstr(line, " name: ");
		if (want && name) {
			name += 7;
			name[strcspn(name, "\n")] = '\0';
			snprintf(refs[n].name, sizeof(refs[n].name), "%s", name);
			n++;
			want = false;
		}
	}
	pclose(p);
	/* from the inode up to the top directory, each name put in front */
	for (depth = 0; ino != FIRST_INODE && depth < 32; depth++) {
		size_t have = strlen(path), add;

		for (i = 0; i < n && refs[i].ino != ino; i++)
			;
		add = i < n ? strlen(refs[i].name) + 1 : 0;
		if (!add || have + add >= len) {
			path[0] = '\0';
			break;
		}
		memmove(path + add, path, have + 1);
		path[0] = '/';
		memcpy(path + 1, refs[i].name, add - 1);
		ino = refs[i].parent;
	}
free_refs:
	free(refs);
}

static void block_name(const char *dev, const struct chunk *c, int n, uint64_t nodesize,
		       struct last_named *last, uint64_t phys, char *what, size_t len)
{
	uint64_t logical, ino, ext, ext_len;
	char root[64], path[400];
	const struct chunk *ch;

	if (phys >= SUPER_OFFSET && phys - SUPER_OFFSET < SUPER_SIZE) {
		snprintf(what, len, "superblock");
		return;
	}
	if ((phys >= SUPER_MIRROR1 && phys - SUPER_MIRROR1 < SUPER_SIZE) ||
	    (phys >= SUPER_MIRROR2 && phys - SUPER_MIRROR2 < SUPER_SIZE)) {
		snprintf(what, len, "superblock mirror");
		return;
	}
	ch = to_logical(c, n, phys, &logical);
	if (!ch) {
		snprintf(what, len, "outside every chunk");
		return;
	}
	if (!strncmp(ch->type, "DATA", 4)) {
		if (last->extent_len && logical >= last->extent &&
		    logical - last->extent < last->extent_len) {
			snprintf(what, len, "%s", last->extent_what);
			return;
		}
		if (!data_owner(dev, logical, root, sizeof(root), &ino, &ext, &ext_len)) {
			snprintf(what, len, "data, no extent of an inode at %" PRIu64, logical);
			return;
		}
		inode_path(dev, root, ino, path, sizeof(path));
		snprintf(what, len, "inode %" PRIu64 "%s%s%s%s", ino,
			 strcmp(root, "FS_TREE") ? " of tree " : "",
			 strcmp(root, "FS_TREE") ? root : "", path[0] ? " " : "", path);
		last->extent = ext;
		last->extent_len = ext_len;
		snprintf(last->extent_what, sizeof(last->extent_what), "%s", what);
		return;
	}
	logical -= (logical - ch->logical) % nodesize;
	if (!last->node_what[0] || last->node != logical) {
		tree_block_name(dev, logical, last->node_what, sizeof(last->node_what));
		last->node = logical;
	}
	snprintf(what, len, "%s", last->node_what);
}

void btrfs_objects_print(const char *dev, uint64_t sector, uint32_t nr_sectors, FILE *out)
{
	char seen[8][480], what[480];
	struct last_named last = { 0 };
	struct chunk chunks[MAX_CHUNKS];
	uint64_t nodesize, phys, end;
	size_t nseen = 0, i;
	int n, blocks = 0;

	n = load_chunks(dev, chunks, MAX_CHUNKS);
	nodesize = node_size(dev);
	if (!n || !nodesize)
		return;
	end = (sector + nr_sectors) * 512;
	/* a long write: its first blocks name it well enough */
	for (phys = sector * 512 & ~4095ULL; phys < end && blocks < 64; phys += 4096, blocks++) {
		block_name(dev, chunks, n, nodesize, &last, phys, what, sizeof(what));
		for (i = 0; i < nseen && strcmp(seen[i], what); i++)
			;
		if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0]))
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", what);
		fprintf(out, "; btrfs: %s", what);
	}
}
