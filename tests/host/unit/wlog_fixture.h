/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Write logs made by hand for the unit tests of their readers: an entry
 * from its fields, and a log of entries numbered in order, each write's
 * data in one buffer filled from a multiplier, so that every test's bytes
 * stay what they were when its hashes were pinned.
 */
#ifndef RD_UNIT_WLOG_FIXTURE_H
#define RD_UNIT_WLOG_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "wlog.h"

static inline struct ramdisk_wlog_entry ent(unsigned int type, uint64_t sector, uint32_t nr,
					    unsigned int flags)
{
	return (struct ramdisk_wlog_entry){
		.sector = sector, .nr_sectors = nr, .type = type, .flags = flags
	};
}

/* w holds the n entries at e, numbered, their data byte i being i * mul + i / 512. */
static inline void wlog_fixture(struct wlog *w, struct ramdisk_wlog_entry *e, size_t n,
				unsigned int mul)
{
	size_t i, off = 0;

	memset(w, 0, sizeof(*w));
	w->e = e;
	w->n = n;
	for (i = 0; i < n; i++) {
		e[i].seq = i;
		e[i].data_offset = off;
		e[i].data_len = e[i].type == RAMDISK_WLOG_WRITE ? e[i].nr_sectors * 512 : 0;
		off += e[i].data_len;
	}
	w->data_len = off;
	w->data = malloc(off ? off : 1);
	for (i = 0; i < off; i++)
		w->data[i] = (unsigned char)(i * mul + i / 512);
}

#endif /* RD_UNIT_WLOG_FIXTURE_H */
