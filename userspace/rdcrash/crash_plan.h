/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which crash states a write log allows, and which of them to check.
 *
 * The log's successful flushes cut it into epochs: epoch k holds the
 * entries after the kth flush and before the next (epoch 0, those before
 * the first). A crash in epoch k leaves everything before the kth flush
 * on the disk, and of the epoch's own writes, those completed before the
 * crash: a FUA write whole, any other one whole, torn (some of its logical
 * blocks) or not at all, unless it is atomic (whole or not at all).
 *
 * State 0 of an epoch keeps all of it, state 1 none of it; state i >= 2
 * draws a crash point and the writes from a seed made of (seed, epoch, i)
 * alone, so any state can be rebuilt without the others.
 */
#ifndef RDCRASH_CRASH_PLAN_H
#define RDCRASH_CRASH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "wlog.h"

struct crash_epochs {
	size_t nr; /* epochs: flushes + 1 */
	size_t *start; /* first entry of each epoch, and start[nr] = the log's length */
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

/* The epochs of w; 0, or -1 (ENOMEM). */
int crash_epochs_find(const struct wlog *w, struct crash_epochs *ep);
void crash_epochs_free(struct crash_epochs *ep);
/* How many different states epoch k can leave, capped at max. */
unsigned int crash_epoch_states(const struct wlog *w, const struct crash_epochs *ep, size_t k,
				unsigned int max);
/*
 * State index of epoch k: block is the device's logical block in bytes
 * (the unit a write tears in). 0, or -1 (ENOMEM).
 */
int crash_state_make(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		     unsigned int index, uint64_t seed, uint32_t block, struct crash_state *st);
void crash_state_free(struct crash_state *st);
/* A hash of what the state writes: pieces and their bytes (FNV-1a). */
uint64_t crash_state_hash(const struct wlog *w, const struct crash_state *st);

#endif /* RDCRASH_CRASH_PLAN_H */
