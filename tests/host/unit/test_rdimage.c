// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the save-image pieces: CRC-32 and the packed records, and
 * an image an older ramdiskctl saved (tests/host/data/rdimage/README):
 * every checksum in it holds, packing its records again gives the same
 * bytes, and its data is the device it was saved from.
 */
#include "rdimage.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifndef RD_SOURCE_DIR
#define RD_SOURCE_DIR "."
#endif
#define OLD_IMAGE RD_SOURCE_DIR "/tests/host/data/rdimage/format1-975c151.img"
#define OLD_DEVICE_SIZE (16u << 20)

static void test_crc(void)
{
	/* the images use this CRC-32: its published check value (zlib, PNG, Ethernet) */
	CHECK(crc32_z(0, (const unsigned char *)"123456789", 9) == 0xCBF43926u);
	CHECK(crc32_z(0, (const unsigned char *)"", 0) == 0);
	/* continuing a CRC equals computing it in one go */
	CHECK(crc32_z(crc32_z(0, (const unsigned char *)"1234", 4), (const unsigned char *)"56789",
		      5) == 0xCBF43926u);
}

static void test_header(void)
{
	struct rdimage_header h = { 4ULL << 30, 4096, 0, 3, 12288 }, back;
	unsigned char buf[RDIMAGE_HEADER_BYTES];
	const char *why = NULL;

	rdimage_header_pack(&h, buf);
	CHECK(!memcmp(buf, "RDIMAGE1", 8));
	CHECK(!rdimage_header_unpack(buf, &back, &why));
	CHECK(back.device_size == h.device_size && back.block_size == 4096 &&
	      back.extent_count == 3 && back.data_bytes == 12288);
	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] ^= 0x10;
		why = NULL;
		CHECK(rdimage_header_unpack(buf, &back, &why) && why);
		buf[i] ^= 0x10;
	}
}

static void test_extent_and_trailer(void)
{
	struct rdimage_extent e = { 1ULL << 33, 65536 }, back;
	unsigned char rec[RDIMAGE_EXTENT_BYTES], tr[RDIMAGE_TRAILER_BYTES];
	const char *why;
	uint64_t count;
	uint32_t crc;

	rdimage_extent_pack(&e, rec);
	CHECK(!rdimage_extent_unpack(rec, &back, &why));
	CHECK(back.offset == e.offset && back.length == e.length);
	rec[3] ^= 1;
	CHECK(rdimage_extent_unpack(rec, &back, &why));

	rdimage_trailer_pack(7, 0xdeadbeef, tr);
	CHECK(!rdimage_trailer_unpack(tr, &count, &crc, &why));
	CHECK(count == 7 && crc == 0xdeadbeef);
	tr[0] = 'X';
	CHECK(rdimage_trailer_unpack(tr, &count, &crc, &why));
}

static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* The device the old image holds, as the README writes it. */
static unsigned char *old_device(void)
{
	static const char line[] = "ramdisk save image, format 1\n";
	unsigned char *dev = calloc(1, OLD_DEVICE_SIZE);
	char num[16];

	if (!dev)
		return NULL;
	for (unsigned int i = 0; i < 1200; i++) {
		snprintf(num, sizeof(num), "%04u\n", i);
		memcpy(dev + 5 * i, num, 5);
	}
	for (size_t i = 0; i < 3000; i++)
		dev[1048576 + 100 + i] = (unsigned char)line[i % (sizeof(line) - 1)];
	memcpy(dev + OLD_DEVICE_SIZE - 100, "tail", 4);
	return dev;
}

static void test_old_image(void)
{
	unsigned char *img, *want, *got, again[RDIMAGE_HEADER_BYTES];
	struct rdimage_header h;
	const char *why = NULL;
	size_t len = 0, pos;
	uint64_t count;
	uint32_t crc;

	img = read_file(OLD_IMAGE, &len);
	if (!img) {
		fprintf(stderr, "cannot read %s\n", OLD_IMAGE);
		failures++;
		return;
	}
	want = old_device();
	got = calloc(1, OLD_DEVICE_SIZE);
	CHECK(want && got);
	if (!want || !got || len < RDIMAGE_HEADER_BYTES + RDIMAGE_TRAILER_BYTES)
		goto out;

	CHECK(!rdimage_header_unpack(img, &h, &why));
	CHECK(h.device_size == OLD_DEVICE_SIZE && h.block_size == 512 && h.flags == 0 &&
	      h.extent_count == 3 && h.data_bytes == 16384);
	rdimage_header_pack(&h, again);
	CHECK(!memcmp(again, img, RDIMAGE_HEADER_BYTES));
	pos = RDIMAGE_HEADER_BYTES;
	for (uint64_t i = 0; i < h.extent_count; i++) {
		struct rdimage_extent e;

		if (pos + RDIMAGE_EXTENT_BYTES > len)
			break;
		CHECK(!rdimage_extent_unpack(img + pos, &e, &why));
		rdimage_extent_pack(&e, again);
		CHECK(!memcmp(again, img + pos, RDIMAGE_EXTENT_BYTES));
		pos += RDIMAGE_EXTENT_BYTES;
		if (e.offset > OLD_DEVICE_SIZE || e.length > OLD_DEVICE_SIZE - e.offset ||
		    pos + e.length + 4 > len) {
			CHECK(!"an extent inside the device and the image");
			goto out;
		}
		memcpy(got + e.offset, img + pos, e.length);
		CHECK((uint32_t)crc32_z(0, img + pos, e.length) ==
		      rdimage_get_le32(img + pos + e.length));
		pos += e.length + 4;
	}
	CHECK(pos + RDIMAGE_TRAILER_BYTES == len);
	if (pos + RDIMAGE_TRAILER_BYTES != len)
		goto out;
	CHECK(!rdimage_trailer_unpack(img + pos, &count, &crc, &why));
	CHECK(count == h.extent_count && crc == (uint32_t)crc32_z(0, img, pos));
	rdimage_trailer_pack(count, crc, again);
	CHECK(!memcmp(again, img + pos, RDIMAGE_TRAILER_BYTES));
	CHECK(!memcmp(got, want, OLD_DEVICE_SIZE));
out:
	free(got);
	free(want);
	free(img);
}

int main(void)
{
	test_crc();
	test_header();
	test_extent_and_trailer();
	test_old_image();
	return check_done();
}
