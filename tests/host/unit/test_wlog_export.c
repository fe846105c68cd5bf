// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the write log's reading side in userspace/lib (wlog.h)
 * for every entry type, a zoned device's among them: the names
 * `ramdiskctl wlog show` prints; which entries change data; and the
 * dm-log-writes export, read back here from the format's layout (not
 * from the writer's code) and replayed onto an image as fstests'
 * replay-log does: a write-zeroes is a write of zeros, a failed flush is
 * left out, a zone reset is a discard of its zone (a ramdisk reads zeros
 * there, as a reset zone does), a zone finish is nothing, and a log a
 * cut ended gets the mark "power-cut". The replayed image equals the
 * image the log describes, built here entry by entry: zeros over a reset
 * zone, nothing for a finish. Logs of 512-byte and 4 KiB sectors.
 */
#include "wlog.h"

#include "check.h"

#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a device of 16 zones of 64 sectors, 512 KiB */
#define ZONE 64u
#define DEV_SECTORS (16u * ZONE)

struct ent_spec {
	unsigned int type;
	uint64_t sector;
	uint32_t nr;
	unsigned int flags;
	const char *mark;
};

/*
 * Zones 0 and 1 conventional: writes anywhere; zones 2 to 5 sequential,
 * written at their pointers, reset, finished. All ranges are multiples of
 * 8 sectors, so a 4 KiB log takes them.
 */
static const struct ent_spec spec[] = {
	{ RAMDISK_WLOG_WRITE, 8, 16, 0, NULL },
	{ RAMDISK_WLOG_WRITE, 2 * ZONE, 24, 0, NULL },
	{ RAMDISK_WLOG_WRITE, 3 * ZONE, 32, RAMDISK_WLOG_FUA, NULL },
	{ RAMDISK_WLOG_FLUSH, 0, 0, 0, NULL },
	{ RAMDISK_WLOG_MARK, 0, 0, 0, "before-reset" },
	{ RAMDISK_WLOG_ZONE_RESET, 2 * ZONE, ZONE, 0, NULL },
	{ RAMDISK_WLOG_WRITE, 2 * ZONE, 8, 0, NULL },
	{ RAMDISK_WLOG_ZONE_FINISH, 3 * ZONE, ZONE, 0, NULL },
	{ RAMDISK_WLOG_WRITE, 4 * ZONE, 16, 0, NULL },
	{ RAMDISK_WLOG_FLUSH, 0, 0, RAMDISK_WLOG_FAILED, NULL },
	/* one a lying device acknowledged and ignored: it made nothing durable either */
	{ RAMDISK_WLOG_FLUSH, 0, 0, RAMDISK_WLOG_IGNORED, NULL },
	{ RAMDISK_WLOG_DISCARD, 16, 8, 0, NULL },
	{ RAMDISK_WLOG_WRITE_ZEROES, 0, 8, 0, NULL },
	{ RAMDISK_WLOG_ZONE_RESET, 4 * ZONE, ZONE, 0, NULL },
	/* the reset of an empty zone: logged when asked, and a no-op */
	{ RAMDISK_WLOG_ZONE_RESET, 5 * ZONE, ZONE, 0, NULL },
	{ RAMDISK_WLOG_MARK, 0, 0, 0, "end" },
};
#define NR (sizeof(spec) / sizeof(spec[0]))

static struct ramdisk_wlog_entry ents[NR];

/* Every write's bytes differ from every other's and from zero. */
static void make_log(struct wlog *w, uint32_t state)
{
	size_t i, off = 0, j;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < NR; i++) {
		ents[i] = (struct ramdisk_wlog_entry){
			.seq = i,
			.sector = spec[i].sector,
			.nr_sectors = spec[i].nr,
			.type = (uint16_t)spec[i].type,
			.flags = (uint16_t)spec[i].flags,
			.data_offset = off,
		};
		if (spec[i].type == RAMDISK_WLOG_WRITE)
			ents[i].data_len = spec[i].nr * 512;
		else if (spec[i].type == RAMDISK_WLOG_MARK)
			ents[i].data_len = (uint32_t)strlen(spec[i].mark);
		off += ents[i].data_len;
	}
	w->e = ents;
	w->n = NR;
	w->data = malloc(off);
	w->data_len = off;
	w->state = state;
	for (i = 0; i < NR; i++) {
		unsigned char *p = w->data + ents[i].data_offset;

		if (spec[i].type == RAMDISK_WLOG_MARK)
			memcpy(p, spec[i].mark, ents[i].data_len);
		else
			for (j = 0; j < ents[i].data_len; j++)
				p[j] = (unsigned char)(1 + (i * 37 + j) % 251);
	}
}

/* The device the log describes, from zeros: what a replay must give. */
static void expected_image(const struct wlog *w, unsigned char *img)
{
	size_t i;

	memset(img, 0, DEV_SECTORS * 512);
	for (i = 0; i < w->n; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];

		switch (e->type) {
		case RAMDISK_WLOG_WRITE:
			memcpy(img + e->sector * 512, w->data + e->data_offset, e->data_len);
			break;
		case RAMDISK_WLOG_DISCARD:
		case RAMDISK_WLOG_WRITE_ZEROES:
		case RAMDISK_WLOG_ZONE_RESET:
			memset(img + e->sector * 512, 0, (size_t)e->nr_sectors * 512);
			break;
		default:
			break;
		}
	}
}

static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static uint32_t le32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* What the export must hold for entry i, in order: -1 for none. */
static int want_flags(size_t i)
{
	switch (spec[i].type) {
	case RAMDISK_WLOG_WRITE:
		return spec[i].flags & RAMDISK_WLOG_FUA ? 0x2 : 0;
	case RAMDISK_WLOG_WRITE_ZEROES:
		return 0;
	case RAMDISK_WLOG_DISCARD:
	case RAMDISK_WLOG_ZONE_RESET:
		return 0x4;
	case RAMDISK_WLOG_FLUSH:
		return spec[i].flags & (RAMDISK_WLOG_FAILED | RAMDISK_WLOG_IGNORED) ? -1 : 0x1;
	case RAMDISK_WLOG_MARK:
		return 0x8;
	default:
		return -1;
	}
}

/*
 * Reads the export back from the format's layout: the super block (magic,
 * version, entries, sector size), then per entry a header block (sector,
 * sectors, flags, data length, a mark's text after it) and a write's
 * data; checks each entry against the log and replays it onto img.
 */
static void check_export(const struct wlog *w, uint32_t bs, const char *path, unsigned char *img)
{
	uint64_t per = bs / 512, nr, k = 0;
	size_t len, off;
	unsigned char *f = slurp(path, &len);
	size_t i;

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(len >= bs);
	CHECK(le64_at(f) == 0x6a736677736872ULL);
	CHECK(le64_at(f + 8) == 1);
	nr = le64_at(f + 16);
	CHECK(le32_at(f + 24) == bs);
	memset(img, 0, DEV_SECTORS * 512);
	off = bs;
	for (i = 0; i < w->n && off + bs <= len; i++) {
		int flags = want_flags(i);
		uint64_t sector, n, fl, dlen;

		if (flags < 0)
			continue;
		sector = le64_at(f + off);
		n = le64_at(f + off + 8);
		fl = le64_at(f + off + 16);
		dlen = le64_at(f + off + 24);
		CHECK(fl == (uint64_t)flags);
		k++;
		if (fl & 0x8) {
			CHECK(spec[i].mark && dlen == strlen(spec[i].mark));
			CHECK(spec[i].mark && dlen <= bs - 32 &&
			      !memcmp(f + off + 32, spec[i].mark, dlen));
			off += bs;
			continue;
		}
		if (fl & 0x1) {
			CHECK(n == 0);
			off += bs;
			continue;
		}
		CHECK(sector == spec[i].sector / per);
		CHECK(n == spec[i].nr / per);
		off += bs;
		if (fl & 0x4) {
			memset(img + sector * bs, 0, n * bs);
			continue;
		}
		CHECK(off + n * bs <= len);
		if (off + n * bs > len)
			break;
		/* a write's data, a write-zeroes' zeros */
		if (spec[i].type == RAMDISK_WLOG_WRITE)
			CHECK(!memcmp(f + off, w->data + w->e[i].data_offset, n * bs));
		memcpy(img + sector * bs, f + off, n * bs);
		off += n * bs;
	}
	if (w->state == RAMDISK_WLOG_CUT) {
		CHECK(off + bs <= len);
		if (off + bs <= len) {
			CHECK(le64_at(f + off + 16) == 0x8);
			CHECK(!memcmp(f + off + 32, "power-cut", 9));
			off += bs;
			k++;
		}
	}
	CHECK(nr == k);
	CHECK(off == len);
	free(f);
}

static void test_names(void)
{
	struct ramdisk_wlog_entry e = { 0 };

	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_WRITE), "write"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_DISCARD), "discard"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_WRITE_ZEROES), "zeroes"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_FLUSH), "flush"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_MARK), "mark"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_ZONE_RESET), "zone-reset"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_ZONE_FINISH), "zone-finish"));
	CHECK(!strcmp(wlog_type_name(0), "?"));
	CHECK(!strcmp(wlog_type_name(RAMDISK_WLOG_ZONE_FINISH + 1), "?"));
	CHECK(!strcmp(wlog_type_name(65535), "?"));
	e.type = RAMDISK_WLOG_WRITE;
	CHECK(wlog_is_data(&e));
	e.type = RAMDISK_WLOG_ZONE_RESET;
	CHECK(!wlog_is_data(&e));
	e.type = RAMDISK_WLOG_ZONE_FINISH;
	CHECK(!wlog_is_data(&e));
}

static void test_export(uint32_t bs, uint32_t state)
{
	char path[] = "/tmp/test_wlog_export.XXXXXX";
	unsigned char *want = malloc(DEV_SECTORS * 512), *got = malloc(DEV_SECTORS * 512);
	struct wlog w;
	int fd = mkstemp(path);

	CHECK(fd >= 0 && want && got);
	if (fd < 0 || !want || !got)
		goto out;
	close(fd);
	make_log(&w, state);
	CHECK(wlog_export_dmlw(&w, bs, path) == 0);
	check_export(&w, bs, path, got);
	expected_image(&w, want);
	CHECK(!memcmp(got, want, DEV_SECTORS * 512));
	/* the reset emptied zone 2 but for the write after it; zone 4 is zeros */
	CHECK(want[2 * ZONE * 512] != 0 && want[(2 * ZONE + 8) * 512] == 0);
	CHECK(want[3 * ZONE * 512] != 0 && want[4 * ZONE * 512] == 0);
	free(w.data);
	unlink(path);
out:
	free(want);
	free(got);
}

static void test_unaligned(void)
{
	char path[] = "/tmp/test_wlog_export.XXXXXX";
	struct ramdisk_wlog_entry e = { .type = RAMDISK_WLOG_ZONE_RESET,
					.sector = 4,
					.nr_sectors = 8 };
	struct wlog w = { .e = &e, .n = 1, .state = RAMDISK_WLOG_STOPPED };
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	/* a zone reset not on 4 KiB sectors cannot go into a 4 KiB log */
	CHECK(wlog_export_dmlw(&w, 4096, path) == -1);
	unlink(path);
}

int main(void)
{
	test_names();
	test_export(512, RAMDISK_WLOG_STOPPED);
	test_export(4096, RAMDISK_WLOG_STOPPED);
	test_export(512, RAMDISK_WLOG_CUT);
	test_unaligned();
	return check_done();
}
