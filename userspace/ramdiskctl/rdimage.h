/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The save image of a ramdisk device: only the ranges that hold data, each
 * with its checksum, so that a restore can prove the whole image sound
 * before it writes a byte.
 *
 * Layout, all integers little-endian:
 *   header   64 bytes  magic "RDIMAGE1", version, header bytes, device
 *                      size, block size, flags, extent count, data bytes,
 *                      CRC-32 of the 60 bytes before it
 *   extents            for each: offset, length, 0, CRC-32 of those 20
 *                      bytes (24 bytes); the data; CRC-32 of the data
 *   trailer  24 bytes  magic "RDIMGEND", extent count, CRC-32 of every
 *                      byte before the trailer, CRC-32 of the 20 bytes
 *                      before it
 * CRC-32 is zlib's crc32() (reflected 0xEDB88320, inverted in and out):
 * callers checksum data with crc32_z() from <zlib.h>, starting from 0.
 */
#ifndef RAMDISK_RDIMAGE_H
#define RAMDISK_RDIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDIMAGE_VERSION 1
#define RDIMAGE_HEADER_BYTES 64
#define RDIMAGE_EXTENT_BYTES 24
#define RDIMAGE_TRAILER_BYTES 24

struct rdimage_header {
	uint64_t device_size;
	uint32_t block_size;
	uint32_t flags;
	uint64_t extent_count;
	uint64_t data_bytes;
};

struct rdimage_extent {
	uint64_t offset;
	uint64_t length;
};

void rdimage_header_pack(const struct rdimage_header *h, unsigned char out[RDIMAGE_HEADER_BYTES]);
/* 0, or -1 with *why saying what is wrong with the bytes. */
int rdimage_header_unpack(const unsigned char in[RDIMAGE_HEADER_BYTES], struct rdimage_header *h,
			  const char **why);

void rdimage_extent_pack(const struct rdimage_extent *e, unsigned char out[RDIMAGE_EXTENT_BYTES]);
int rdimage_extent_unpack(const unsigned char in[RDIMAGE_EXTENT_BYTES], struct rdimage_extent *e,
			  const char **why);

void rdimage_trailer_pack(uint64_t extent_count, uint32_t file_crc,
			  unsigned char out[RDIMAGE_TRAILER_BYTES]);
int rdimage_trailer_unpack(const unsigned char in[RDIMAGE_TRAILER_BYTES], uint64_t *extent_count,
			   uint32_t *file_crc, const char **why);

void rdimage_put_le32(unsigned char *p, uint32_t v);
uint32_t rdimage_get_le32(const unsigned char *p);

#endif /* RAMDISK_RDIMAGE_H */
