// SPDX-License-Identifier: GPL-2.0
/* Crash states of a write log (crash_plan.h). */
#include "crash_plan.h"

#include "crash_plan_parts.h"
#include "crash_zoned.h"
#include "rng.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int is_flush(const struct ramdisk_wlog_entry *e)
{
	return wlog_flush_durable(e);
}

int crash_epochs_find(const struct wlog *w, struct crash_epochs *ep)
{
	size_t i, k = 0;

	ep->nr = 1;
	ep->zones = NULL;
	for (i = 0; i < w->n; i++)
		ep->nr += is_flush(&w->e[i]);
	ep->start = calloc(ep->nr + 1, sizeof(*ep->start));
	if (!ep->start)
		return -1;
	ep->start[k++] = 0;
	for (i = 0; i < w->n; i++)
		if (is_flush(&w->e[i]))
			ep->start[k++] = i + 1;
	ep->start[k] = w->n;
	return 0;
}

void crash_epochs_free(struct crash_epochs *ep)
{
	free(ep->start);
	ep->start = NULL;
	ep->nr = 0;
}

unsigned int crash_epoch_states(const struct wlog *w, const struct crash_epochs *ep, size_t k,
				unsigned int max)
{
	size_t i, data = 0;

	for (i = ep->start[k]; i < crash_epoch_end(ep, k); i++)
		data += wlog_is_data(&w->e[i]);
	/* nothing to choose: the one state is the durable prefix */
	if (!data)
		return max ? 1 : 0;
	return max;
}

int crash_state_make(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		     unsigned int index, uint64_t seed, uint32_t block, struct crash_state *st)
{
	size_t first = ep->start[k], end = crash_epoch_end(ep, k), room = 0, i;
	uint32_t per_block = block >= 512 ? block / 512 : 1;
	struct rng r;

	if (ep->zones)
		return zoned_state_make(w, ep, k, index, seed, per_block, st);
	memset(st, 0, sizeof(*st));
	st->epoch = k;
	st->index = index;
	if (index == 0)
		st->cut = end;
	else if (index == 1 || end == first)
		st->cut = first;
	crash_state_rng(&r, seed, k, index);
	if (index >= 2 && end > first)
		st->cut = first + 1 + rng_below(&r, end - first);

	for (i = first; i < st->cut; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];
		int whole = index == 0 || (e->flags & RAMDISK_WLOG_FUA);

		if (!wlog_is_data(e))
			continue;
		if (whole ? crash_add_piece(st, &room, i, 0, e->nr_sectors) :
			    crash_add_drawn(st, &room, w, i, per_block, &r))
			goto nomem;
	}
	return 0;

nomem:
	crash_state_free(st);
	errno = ENOMEM;
	return -1;
}

/* States of entries [first, end): none lost a FUA write, or the first lost is f. */
static uint64_t count_states(const struct wlog *w, size_t first, size_t end, uint32_t per_block,
			     bool tears)
{
	uint64_t total = 0, prefix = 1;
	size_t i;

	for (i = first; i < end; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];

		if (!wlog_is_data(e))
			continue;
		if (e->flags & RAMDISK_WLOG_FUA)
			total = crash_add_sat(total, prefix);
		prefix = crash_mul_sat(prefix, crash_choices(e, per_block, tears));
	}
	return crash_add_sat(total, prefix);
}

void crash_epoch_plan(const struct wlog *w, const struct crash_epochs *ep, size_t k, uint32_t block,
		      unsigned int exhaustive, unsigned int sample, struct crash_epoch_plan *plan)
{
	size_t first = ep->start[k], end = crash_epoch_end(ep, k), i;
	uint32_t per_block = block >= 512 ? block / 512 : 1;
	uint64_t budget = 1ull << (exhaustive < 16 ? exhaustive : 16);

	if (budget < sample)
		budget = sample;
	memset(plan, 0, sizeof(*plan));
	for (i = first; i < end; i++)
		plan->writes += wlog_is_data(&w->e[i]);
	if (ep->zones) {
		plan->exist = zoned_count_states(w, ep, k, per_block, true);
		plan->subsets = zoned_count_states(w, ep, k, per_block, false);
	} else {
		plan->exist = count_states(w, first, end, per_block, true);
		plan->subsets = count_states(w, first, end, per_block, false);
	}
	if (plan->exist <= budget) {
		plan->cover = CRASH_COVER_ALL;
		plan->states = (unsigned int)plan->exist;
	} else if (plan->subsets <= budget) {
		plan->cover = CRASH_COVER_SUBSETS;
		plan->states = (unsigned int)plan->subsets;
	} else {
		plan->cover = CRASH_COVER_SAMPLE;
		plan->states = sample;
	}
}

int crash_state_enumerate(const struct wlog *w, const struct crash_epochs *ep, size_t k,
			  const struct crash_epoch_plan *plan, uint64_t index, uint32_t block,
			  struct crash_state *st)
{
	size_t first = ep->start[k], end = crash_epoch_end(ep, k), room = 0, limit = end, i;
	uint32_t per_block = block >= 512 ? block / 512 : 1;
	bool tears = plan->cover == CRASH_COVER_ALL;
	uint64_t all, prefix = 1;

	if (ep->zones)
		return zoned_state_enumerate(w, ep, k, index, per_block, tears, st);
	memset(st, 0, sizeof(*st));
	st->epoch = k;
	st->index = (unsigned int)index;
	/* which FUA write, if any, is the first lost: that block of indices */
	all = count_states(w, first, end, per_block, tears);
	if (index >= all) {
		errno = EINVAL;
		return -1;
	}
	for (i = first; i < end; i++)
		if (wlog_is_data(&w->e[i]) && !(w->e[i].flags & RAMDISK_WLOG_FUA))
			prefix = crash_mul_sat(prefix, crash_choices(&w->e[i], per_block, tears));
	/* prefix is now the block of states that lose no FUA write */
	if (index >= prefix) {
		index -= prefix;
		prefix = 1;
		for (i = first; i < end; i++) {
			const struct ramdisk_wlog_entry *e = &w->e[i];

			if (!wlog_is_data(e))
				continue;
			if (e->flags & RAMDISK_WLOG_FUA) {
				if (index < prefix) {
					limit = i;
					break;
				}
				index -= prefix;
			}
			prefix = crash_mul_sat(prefix, crash_choices(e, per_block, tears));
		}
	}
	st->cut = limit;
	for (i = first; i < limit; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];
		uint64_t c;

		if (!wlog_is_data(e))
			continue;
		c = crash_choices(e, per_block, tears);
		if (crash_add_choice(st, &room, w, i, per_block, index % c))
			goto nomem;
		index /= c;
	}
	return 0;

nomem:
	crash_state_free(st);
	errno = ENOMEM;
	return -1;
}

int crash_state_build(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		      const struct crash_epoch_plan *plan, unsigned int index, uint64_t seed,
		      uint32_t block, struct crash_state *st)
{
	if (plan->cover == CRASH_COVER_SAMPLE)
		return crash_state_make(w, ep, k, index, seed, block, st);
	return crash_state_enumerate(w, ep, k, plan, index, block, st);
}

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

uint64_t crash_state_hash(const struct wlog *w, const struct crash_state *st)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	h = fnv(h, &st->cut, sizeof(st->cut));
	for (i = 0; i < st->nr; i++) {
		const struct crash_piece *p = &st->pieces[i];
		const struct ramdisk_wlog_entry *e = &w->e[p->entry];
		uint64_t where[3] = { e->sector + p->first, p->nr, e->type };

		h = fnv(h, where, sizeof(where));
		if (e->type == RAMDISK_WLOG_WRITE)
			h = fnv(h, w->data + e->data_offset + (size_t)p->first * 512,
				(size_t)p->nr * 512);
	}
	return h;
}
