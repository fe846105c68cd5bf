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

#include "crash_plan_parts.h"
#include "wlog.h"

/* The epochs of w, zones NULL; 0, or -1 (ENOMEM). */
int crash_epochs_find(const struct wlog *w, struct crash_epochs *ep);
void crash_epochs_free(struct crash_epochs *ep);
/* How many different states epoch k can leave, capped at max. */
unsigned int crash_epoch_states(const struct wlog *w, const struct crash_epochs *ep, size_t k,
				unsigned int max);
/*
 * Exhaustive epochs. The states the model allows an epoch are its writes'
 * choices: each whole or lost, a tearable one also torn in any proper
 * subset of its blocks, except that a lost FUA write means the crash came
 * before it completed, so every write after it is lost too. An epoch with
 * few of them is checked whole rather than sampled:
 *   CRASH_COVER_ALL      every state, tears included;
 *   CRASH_COVER_SUBSETS  every state of whole writes (every allowed subset
 *                        of the epoch's writes), no tear;
 *   CRASH_COVER_SAMPLE   states drawn from the seed (crash_state_make).
 * A subset state's crash point is the latest its writes allow (the first
 * lost FUA write, else the epoch's end), so that it is judged against every
 * mark it can have followed. Its index decodes to the writes' choices in
 * mixed radix, the epoch's first write the fastest digit, 0 keeping all.
 */
enum crash_cover { CRASH_COVER_SAMPLE, CRASH_COVER_SUBSETS, CRASH_COVER_ALL };

struct crash_epoch_plan {
	enum crash_cover cover;
	size_t writes; /* data entries in the epoch */
	uint64_t exist; /* states the model allows, UINT64_MAX for that many or more */
	uint64_t subsets; /* of them, those of whole writes */
	unsigned int states; /* states to check */
};

/*
 * How to check epoch k: every state when they number at most budget (tears
 * included, else whole writes only), or when the epoch has at most
 * exhaustive writes every subset; otherwise sample states. block is the
 * tear unit in bytes.
 */
void crash_epoch_plan(const struct wlog *w, const struct crash_epochs *ep, size_t k, uint32_t block,
		      unsigned int exhaustive, unsigned int sample, struct crash_epoch_plan *plan);
/* State index (below plan->states) of an exhaustive epoch. 0, or -1 (ENOMEM). */
int crash_state_enumerate(const struct wlog *w, const struct crash_epochs *ep, size_t k,
			  const struct crash_epoch_plan *plan, uint64_t index, uint32_t block,
			  struct crash_state *st);
/* State index of epoch k as its plan says: enumerated or drawn from seed. */
int crash_state_build(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		      const struct crash_epoch_plan *plan, unsigned int index, uint64_t seed,
		      uint32_t block, struct crash_state *st);

/*
 * State index of epoch k: block is the device's logical block in bytes
 * (the unit a write tears in). 0, or -1 (ENOMEM).
 */
int crash_state_make(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		     unsigned int index, uint64_t seed, uint32_t block, struct crash_state *st);
/* A hash of what the state writes: pieces and their bytes (FNV-1a). */
uint64_t crash_state_hash(const struct wlog *w, const struct crash_state *st);

#endif /* RDCRASH_CRASH_PLAN_H */
