// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of crash states that crash_plan.c and crash_zoned.c share
 * (crash_plan_parts.h): below both, so that neither calls up into the
 * other's caller.
 */
#include "crash_plan_parts.h"

#include <stdbool.h>
#include <stdlib.h>

size_t crash_epoch_end(const struct crash_epochs *ep, size_t k)
{
	size_t end = ep->start[k + 1];

	return k + 1 < ep->nr ? end - 1 : end;
}

/* splitmix64 of a mix of the three */
void crash_state_rng(struct rng *r, uint64_t seed, size_t k, unsigned int index)
{
	struct rng mix;

	rng_seed(&mix, seed ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull));
	rng_seed(r, rng_next(&mix) ^ ((uint64_t)index << 32 | index));
	rng_next(r);
}

int crash_add_piece(struct crash_state *st, size_t *room, size_t entry, uint32_t first, uint32_t nr)
{
	struct crash_piece *p;

	if (st->nr == *room) {
		*room = *room ? *room * 2 : 16;
		p = realloc(st->pieces, *room * sizeof(*p));
		if (!p)
			return -1;
		st->pieces = p;
	}
	st->pieces[st->nr++] = (struct crash_piece){ entry, first, nr };
	return 0;
}

/* Whether a torn write keeps block b: asked of each block in turn, from 0. */
typedef bool (*keep_fn)(void *ctx, uint32_t b);

/* The pieces of a torn write of blocks blocks: the kept ones, in runs. */
static int add_runs(struct crash_state *st, size_t *room, size_t entry, uint32_t blocks,
		    uint32_t per_block, keep_fn keep, void *ctx)
{
	uint32_t b, run = 0;

	for (b = 0; b <= blocks; b++) {
		if (b < blocks && keep(ctx, b)) {
			run++;
			continue;
		}
		if (run && crash_add_piece(st, room, entry, (b - run) * per_block, run * per_block))
			return -1;
		run = 0;
	}
	return 0;
}

/* A drawn tear: each block kept or lost by one draw. */
static bool keep_drawn(void *ctx, uint32_t b)
{
	(void)b;
	return rng_below(ctx, 2);
}

/* An enumerated tear: the set bits of a mask. */
static bool keep_masked(void *ctx, uint32_t b)
{
	return *(const uint64_t *)ctx >> b & 1;
}

int crash_add_drawn(struct crash_state *st, size_t *room, const struct wlog *w, size_t i,
		    uint32_t per_block, struct rng *r)
{
	const struct ramdisk_wlog_entry *e = &w->e[i];

	if (!rng_below(r, 2))
		return 0;
	/* a write of one block, an atomic one, or a discard cannot tear */
	if (crash_tearable(e, per_block) && rng_below(r, 2))
		return add_runs(st, room, i, e->nr_sectors / per_block, per_block, keep_drawn, r);
	return crash_add_piece(st, room, i, 0, e->nr_sectors);
}

int crash_add_choice(struct crash_state *st, size_t *room, const struct wlog *w, size_t i,
		     uint32_t per_block, uint64_t d)
{
	const struct ramdisk_wlog_entry *e = &w->e[i];
	uint64_t mask = d - 1;

	if (d == 1)
		return 0;
	if (d == 0)
		return crash_add_piece(st, room, i, 0, e->nr_sectors);
	return add_runs(st, room, i, e->nr_sectors / per_block, per_block, keep_masked, &mask);
}

bool crash_tearable(const struct ramdisk_wlog_entry *e, uint32_t per_block)
{
	return e->type != RAMDISK_WLOG_DISCARD && !(e->flags & RAMDISK_WLOG_ATOMIC) &&
	       e->nr_sectors > per_block;
}

uint64_t crash_mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint64_t crash_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * While no FUA write before it is lost: a FUA write is whole (its loss is
 * counted apart); any other is whole or lost, and with tears one of its
 * 2^blocks - 2 proper tears as well: 2^blocks in all.
 */
uint64_t crash_choices(const struct ramdisk_wlog_entry *e, uint32_t per_block, bool tears)
{
	uint32_t blocks = e->nr_sectors / per_block;

	if (e->flags & RAMDISK_WLOG_FUA)
		return 1;
	if (!tears || !crash_tearable(e, per_block))
		return 2;
	return blocks >= 64 ? UINT64_MAX : 1ull << blocks;
}

void crash_state_free(struct crash_state *st)
{
	free(st->pieces);
	st->pieces = NULL;
	st->nr = 0;
}
