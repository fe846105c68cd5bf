// SPDX-License-Identifier: GPL-2.0
/* Unit test of the save-image pieces: CRC-32 and the packed records. */
#include "rdimage.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                              \
		}                                                                                \
	} while (0)

static void test_crc(void)
{
	/* the published check value of CRC-32 (zlib, PNG, Ethernet) */
	CHECK(crc32_update(0, "123456789", 9) == 0xCBF43926u);
	CHECK(crc32_update(0, "", 0) == 0);
	/* continuing a CRC equals computing it in one go */
	CHECK(crc32_update(crc32_update(0, "1234", 4), "56789", 5) == 0xCBF43926u);
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

int main(void)
{
	test_crc();
	test_header();
	test_extent_and_trailer();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
