/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types of epochs and states, and the pieces crash_plan.c and
 * crash_zoned.c share: building a state's list of pieces, the model's
 * per-write choices, saturating counts and the stream of draws of one
 * state. Below both files (scripts/layers): crash_plan.c calls
 * crash_zoned.c, which must not call back up into it.
 */
#ifndef RDCRASH_CRASH_PLAN_PARTS_H
#define RDCRASH_CRASH_PLAN_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "wlog.h"

/*
 * The zones of a host-managed zoned device: zone_sectors a power of two,
 * seq[i] set for each sequential-write-required zone (crash_zoned.h).
 */
struct crash_zones {
	uint64_t zone_sectors;
	size_t nr;
	unsigned char *seq;
};

struct crash_epochs {
	size_t nr; /* epochs: flushes + 1 */
	size_t *start; /* first entry of each epoch, and start[nr] = the log's length */
	/* NULL for a device without zones; set by the caller after crash_epochs_find() */
	const struct crash_zones *zones;
};

/* Part of a data entry to apply: sectors [first, first + nr) of it, 512 bytes each. */
struct crash_piece {
	size_t entry;
	uint32_t first;
	uint32_t nr;
};

struct crash_state {
	size_t epoch;
	unsigned int index;
	size_t cut; /* entries from here on did not happen */
	struct crash_piece *pieces;
	size_t nr;
};

/* The data entries of epoch k end here: before the flush that closes it. */
size_t crash_epoch_end(const struct crash_epochs *ep, size_t k);
/* An independent stream of draws per (seed, epoch, index). */
void crash_state_rng(struct rng *r, uint64_t seed, size_t k, unsigned int index);
/* Appends sectors [first, first + nr) of entry to the state; -1 when out of memory. */
int crash_add_piece(struct crash_state *st, size_t *room, size_t entry, uint32_t first,
		    uint32_t nr);
/* A write a crash can tear: not a discard, not atomic, more than one block. */
bool crash_tearable(const struct ramdisk_wlog_entry *e, uint32_t per_block);
/*
 * A write's choices in the model without zones: 1 for a FUA write, else
 * whole or lost, and with tears every proper subset of its blocks.
 */
uint64_t crash_choices(const struct ramdisk_wlog_entry *e, uint32_t per_block, bool tears);
/* One choice d below crash_choices() of entry i: 0 whole, 1 lost, d >= 2 tear d - 1. */
int crash_add_choice(struct crash_state *st, size_t *room, const struct wlog *w, size_t i,
		     uint32_t per_block, uint64_t d);
/* A drawn choice of entry i, as crash_state_make() draws them. */
int crash_add_drawn(struct crash_state *st, size_t *room, const struct wlog *w, size_t i,
		    uint32_t per_block, struct rng *r);
uint64_t crash_mul_sat(uint64_t a, uint64_t b);
uint64_t crash_add_sat(uint64_t a, uint64_t b);
void crash_state_free(struct crash_state *st);

#endif /* RDCRASH_CRASH_PLAN_PARTS_H */
