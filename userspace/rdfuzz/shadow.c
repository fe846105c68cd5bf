// SPDX-License-Identifier: GPL-2.0
/*
 * What a device must read back. Every written sector carries records that
 * name the device generation, the sector and the write, so a read can tell
 * the data we wrote from zeros, from an older write to the same sector
 * (allowed after a failed write or a power cut) and from anything else:
 * data of an earlier device, or of another sector, is never allowed.
 */
#include "rdfuzz.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define RECORD_MAGIC 0x7264667a7a726563ull /* "rdfzzrec" */

struct record {
	uint64_t magic;
	uint64_t seq;
	uint64_t sector;
	uint32_t gen;
	uint32_t check; /* so a record cut in half is not taken for a whole one */
};

#define RECORDS_PER_SECTOR (512 / sizeof(struct record))

static uint32_t record_check(const struct record *r)
{
	uint64_t x = r->magic ^ r->seq * 31 ^ r->sector * 131 ^ (uint64_t)r->gen * 8191;

	return (uint32_t)(x ^ (x >> 32));
}

void shadow_reset(struct shadow *s, uint32_t gen, bool trusted)
{
	memset(s->seq, 0, sizeof(s->seq));
	s->gen = gen;
	s->trusted = trusted;
}

void shadow_set(struct shadow *s, uint64_t off, uint64_t len, uint64_t seq)
{
	uint64_t sec;

	for (sec = off / 512; sec < (off + len + 511) / 512 && sec < SHADOW_SECTORS; sec++)
		s->seq[sec] = seq;
}

void shadow_fill(const struct shadow *s, void *buf, uint64_t off, uint64_t len, uint64_t seq)
{
	struct record *out = buf;
	uint64_t sec, i;

	for (sec = 0; sec < len / 512; sec++) {
		struct record r = {
			.magic = RECORD_MAGIC,
			.seq = seq,
			.sector = off / 512 + sec,
			.gen = s->gen,
		};

		r.check = record_check(&r);
		for (i = 0; i < RECORDS_PER_SECTOR; i++)
			out[sec * RECORDS_PER_SECTOR + i] = r;
	}
}

static bool all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* NULL when the sector is what s allows, else why not. */
static const char *sector_bad(const struct shadow *s, const unsigned char *p, uint64_t sector,
			      uint64_t *seen_gen)
{
	uint64_t want = sector < SHADOW_SECTORS ? s->seq[sector] : SEQ_UNKNOWN;
	const struct record *r = (const void *)p;
	size_t i;

	*seen_gen = 0;
	if (all_zero(p, 512))
		return want == 0 || want == SEQ_UNKNOWN ? NULL : "zeros where data was written";
	for (i = 0; i < RECORDS_PER_SECTOR; i++) {
		if (r[i].magic != RECORD_MAGIC || record_check(&r[i]) != r[i].check ||
		    memcmp(&r[i], &r[0], sizeof(r[0])))
			return "bytes nobody wrote to this device (stale or corrupt)";
	}
	*seen_gen = r[0].gen;
	if (r[0].gen != s->gen)
		return "data of an earlier device";
	if (r[0].sector != sector)
		return "data of another sector";
	if (want == 0)
		return "data where zeros must be";
	if (want != SEQ_UNKNOWN && r[0].seq != want)
		return "an older or newer write than the last";
	return NULL;
}

unsigned int shadow_check(const struct shadow *s, const void *buf, uint64_t off, uint64_t len,
			  char *why, size_t why_size)
{
	const unsigned char *p = buf;
	unsigned int bad = 0;
	uint64_t sec, gen;
	const char *what;

	if (!s->trusted)
		return 0;
	for (sec = 0; sec < len / 512; sec++) {
		what = sector_bad(s, p + sec * 512, off / 512 + sec, &gen);
		if (!what)
			continue;
		if (!bad++)
			snprintf(why, why_size, "sector %" PRIu64 ": %s (gen %" PRIu64 ", want %u)",
				 off / 512 + sec, what, gen, s->gen);
	}
	return bad;
}

bool shadow_records_are(const void *buf, uint64_t sector, uint64_t len, uint32_t gen, uint64_t seq)
{
	const unsigned char *p = buf; /* the log packs a mark's text before: unaligned */
	struct record got;
	uint64_t sec, i;

	for (sec = 0; sec < len / 512; sec++) {
		struct record want = {
			.magic = RECORD_MAGIC,
			.seq = seq,
			.sector = sector + sec,
			.gen = gen,
		};

		want.check = record_check(&want);
		for (i = 0; i < RECORDS_PER_SECTOR; i++) {
			memcpy(&got, p + (sec * RECORDS_PER_SECTOR + i) * sizeof(got), sizeof(got));
			if (memcmp(&got, &want, sizeof(want)))
				return false;
		}
	}
	return true;
}
