// SPDX-License-Identifier: GPL-2.0
/* Packing and checking the pieces of a ramdisk save image (rdimage.h). */
#include "rdimage.h"

#include <string.h>
#include <zlib.h>

static const char header_magic[8] = { 'R', 'D', 'I', 'M', 'A', 'G', 'E', '1' };
static const char trailer_magic[8] = { 'R', 'D', 'I', 'M', 'G', 'E', 'N', 'D' };

/* The format's CRC-32 is zlib's: crc32_z(0, ...) over the bytes. */
static uint32_t crc(const void *buf, size_t len)
{
	return (uint32_t)crc32_z(0, buf, len);
}

void rdimage_put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

uint32_t rdimage_get_le32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void rdimage_header_pack(const struct rdimage_header *h, unsigned char out[RDIMAGE_HEADER_BYTES])
{
	memset(out, 0, RDIMAGE_HEADER_BYTES);
	memcpy(out, header_magic, 8);
	rdimage_put_le32(out + 8, RDIMAGE_VERSION);
	rdimage_put_le32(out + 12, RDIMAGE_HEADER_BYTES);
	put_le64(out + 16, h->device_size);
	rdimage_put_le32(out + 24, h->block_size);
	rdimage_put_le32(out + 28, h->flags);
	put_le64(out + 32, h->extent_count);
	put_le64(out + 40, h->data_bytes);
	rdimage_put_le32(out + 60, crc(out, 60));
}

int rdimage_header_unpack(const unsigned char in[RDIMAGE_HEADER_BYTES], struct rdimage_header *h,
			  const char **why)
{
	if (memcmp(in, header_magic, 8)) {
		*why = "not a ramdisk image (bad magic)";
		return -1;
	}
	if (rdimage_get_le32(in + 60) != crc(in, 60)) {
		*why = "image header fails its checksum";
		return -1;
	}
	if (rdimage_get_le32(in + 8) != RDIMAGE_VERSION ||
	    rdimage_get_le32(in + 12) != RDIMAGE_HEADER_BYTES) {
		*why = "unknown image version";
		return -1;
	}
	h->device_size = get_le64(in + 16);
	h->block_size = rdimage_get_le32(in + 24);
	h->flags = rdimage_get_le32(in + 28);
	h->extent_count = get_le64(in + 32);
	h->data_bytes = get_le64(in + 40);
	return 0;
}

void rdimage_extent_pack(const struct rdimage_extent *e, unsigned char out[RDIMAGE_EXTENT_BYTES])
{
	memset(out, 0, RDIMAGE_EXTENT_BYTES);
	put_le64(out, e->offset);
	put_le64(out + 8, e->length);
	rdimage_put_le32(out + 20, crc(out, 20));
}

int rdimage_extent_unpack(const unsigned char in[RDIMAGE_EXTENT_BYTES], struct rdimage_extent *e,
			  const char **why)
{
	if (rdimage_get_le32(in + 20) != crc(in, 20)) {
		*why = "an extent record fails its checksum";
		return -1;
	}
	e->offset = get_le64(in);
	e->length = get_le64(in + 8);
	return 0;
}

void rdimage_trailer_pack(uint64_t extent_count, uint32_t file_crc,
			  unsigned char out[RDIMAGE_TRAILER_BYTES])
{
	memcpy(out, trailer_magic, 8);
	put_le64(out + 8, extent_count);
	rdimage_put_le32(out + 16, file_crc);
	rdimage_put_le32(out + 20, crc(out, 20));
}

int rdimage_trailer_unpack(const unsigned char in[RDIMAGE_TRAILER_BYTES], uint64_t *extent_count,
			   uint32_t *file_crc, const char **why)
{
	if (memcmp(in, trailer_magic, 8) || rdimage_get_le32(in + 20) != crc(in, 20)) {
		*why = "the image trailer is missing or corrupted";
		return -1;
	}
	*extent_count = get_le64(in + 8);
	*file_crc = rdimage_get_le32(in + 16);
	return 0;
}
