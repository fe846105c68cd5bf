// SPDX-License-Identifier: GPL-2.0
/* Crash states of a host-managed zoned device (crash_zoned.h). */
#include "crash_zoned.h"

#include "crash_plan_parts.h"
#include "rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NO_ENTRY SIZE_MAX

/*
 * A unit of an epoch's choices: one data entry outside the sequential
 * zones (plain), or one sequential zone: its last reset before the limit,
 * then the writes and finishes after it, in log order.
 */
struct unit {
	bool plain;
	size_t entry; /* plain: the entry; zone: the last reset, or NO_ENTRY */
	size_t zone;
	size_t *members; /* zone: writes and finishes after the reset */
	size_t nr, room;
	size_t writes; /* of the members, writes */
	size_t min; /* writes that must survive: through the last FUA write */
	uint64_t choices;
};

/* The units of entries [first, limit) of a log, as a scan of them builds them. */
struct scan {
	const struct wlog *w;
	const struct crash_zones *z;
	uint32_t per_block;
	bool tears;
	struct unit *u;
	size_t nr, room;
	size_t *unit_of; /* per zone: its unit + 1, or 0 */
};

static int scan_init(struct scan *s, const struct wlog *w, const struct crash_zones *z,
		     uint32_t per_block, bool tears)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->z = z;
	s->per_block = per_block;
	s->tears = tears;
	s->unit_of = calloc(z->nr ? z->nr : 1, sizeof(*s->unit_of));
	return s->unit_of ? 0 : -1;
}

static void scan_free(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->u[i].members);
	free(s->u);
	free(s->unit_of);
	memset(s, 0, sizeof(*s));
}

/* The sequential zone that holds the whole entry, or NO_ENTRY. */
static size_t seq_zone(const struct crash_zones *z, const struct ramdisk_wlog_entry *e)
{
	uint64_t idx = e->sector / z->zone_sectors;

	if (idx >= z->nr || !z->seq[idx] || !e->nr_sectors ||
	    (e->sector + e->nr_sectors - 1) / z->zone_sectors != idx)
		return NO_ENTRY;
	return (size_t)idx;
}

static struct unit *new_unit(struct scan *s)
{
	struct unit *u;

	if (s->nr == s->room) {
		s->room = s->room ? s->room * 2 : 16;
		u = realloc(s->u, s->room * sizeof(*u));
		if (!u)
			return NULL;
		s->u = u;
	}
	u = &s->u[s->nr++];
	memset(u, 0, sizeof(*u));
	u->entry = NO_ENTRY;
	u->choices = 1;
	return u;
}

/* Tears of a write the zone keeps the blocks before of: its proper prefixes. */
static uint64_t prefix_tears(const struct scan *s, const struct ramdisk_wlog_entry *e)
{
	if (!s->tears || !crash_tearable(e, s->per_block))
		return 0;
	return e->nr_sectors / s->per_block - 1;
}

/* Entry i joins the scan. 0, or -1 when out of memory. */
static int scan_add(struct scan *s, size_t i)
{
	const struct ramdisk_wlog_entry *e = &s->w->e[i];
	bool zone_cmd = e->type == RAMDISK_WLOG_ZONE_RESET || e->type == RAMDISK_WLOG_ZONE_FINISH;
	size_t zone;
	struct unit *u;

	if (!wlog_is_data(e) && !zone_cmd)
		return 0;
	zone = e->type == RAMDISK_WLOG_DISCARD ? NO_ENTRY : seq_zone(s->z, e);
	if (zone == NO_ENTRY) {
		/* a zone command names a sequential zone; any other has nothing to keep */
		if (zone_cmd)
			return 0;
		u = new_unit(s);
		if (!u)
			return -1;
		u->plain = true;
		u->entry = i;
		u->choices = crash_choices(e, s->per_block, s->tears);
		return 0;
	}
	if (s->unit_of[zone]) {
		u = &s->u[s->unit_of[zone] - 1];
	} else {
		u = new_unit(s);
		if (!u)
			return -1;
		u->zone = zone;
		s->unit_of[zone] = s->nr;
	}
	if (e->type == RAMDISK_WLOG_ZONE_RESET) {
		/* durable at once: what the zone took before no longer matters */
		u->entry = i;
		u->nr = u->writes = u->min = 0;
		u->choices = 1;
		return 0;
	}
	if (u->nr == u->room) {
		size_t *m;

		u->room = u->room ? u->room * 2 : 8;
		m = realloc(u->members, u->room * sizeof(*m));
		if (!m)
			return -1;
		u->members = m;
	}
	u->members[u->nr++] = i;
	if (e->type == RAMDISK_WLOG_ZONE_FINISH)
		return 0;
	u->writes++;
	if (e->flags & RAMDISK_WLOG_FUA) {
		/* durable with everything before it in the zone */
		u->min = u->writes;
		u->choices = 1;
	} else {
		/* kept up to the write before it, or torn to a prefix of it */
		u->choices = crash_add_sat(u->choices, 1 + prefix_tears(s, e));
	}
	return 0;
}

/*
 * Whether entry i is durable as soon as it completes, so that a state
 * without it is one whose crash came before it: a FUA write, a zone reset,
 * a finish (which a cut undoes only by losing a write below it).
 */
static bool durable_event(const struct scan *s, size_t i)
{
	const struct ramdisk_wlog_entry *e = &s->w->e[i];

	if (e->type == RAMDISK_WLOG_ZONE_RESET || e->type == RAMDISK_WLOG_ZONE_FINISH)
		return seq_zone(s->z, e) != NO_ENTRY;
	return wlog_is_data(e) && (e->flags & RAMDISK_WLOG_FUA);
}

/* A scan of entries [first, limit); 0, or -1 when out of memory (s freed). */
static int scan_range(struct scan *s, const struct wlog *w, const struct crash_epochs *ep,
		      size_t first, size_t limit, uint32_t per_block, bool tears)
{
	size_t i;

	if (scan_init(s, w, ep->zones, per_block, tears))
		return -1;
	for (i = first; i < limit; i++) {
		if (scan_add(s, i)) {
			scan_free(s);
			return -1;
		}
	}
	return 0;
}

/* The states of the units scanned so far, saturating. */
static uint64_t scan_product(const struct scan *s)
{
	uint64_t p = 1;
	size_t i;

	for (i = 0; i < s->nr && p != UINT64_MAX; i++)
		p = crash_mul_sat(p, s->u[i].choices);
	return p;
}

/*
 * The blocks of a state's index, as crash_plan.c orders them: first the
 * states that lose no durable event (durable_event(); the limit is the
 * epoch's end), then for each such event in turn those whose first lost
 * event it is (the crash came before it: the limit is that entry). Finds
 * the limit of index, and index within its block, scanning [first, end).
 * If count is set, only counts.
 */
static int find_limit(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		      uint32_t per_block, bool tears, uint64_t *index, size_t *limit,
		      uint64_t *count)
{
	size_t first = ep->start[k], end = crash_epoch_end(ep, k), i, nev = 0, j;
	uint64_t total = 0, *blocks = NULL, at_end;
	size_t *event = NULL;
	struct scan s;
	int rc = -1;

	if (scan_init(&s, w, ep->zones, per_block, tears))
		return -1;
	for (i = first; i < end; i++)
		nev += durable_event(&s, i);
	event = calloc(nev + 1, sizeof(*event));
	blocks = calloc(nev + 1, sizeof(*blocks));
	if (!event || !blocks)
		goto out;
	for (i = first, j = 0; i < end; i++) {
		if (durable_event(&s, i)) {
			event[j] = i;
			blocks[j++] = scan_product(&s);
		}
		if (scan_add(&s, i))
			goto out;
	}
	at_end = scan_product(&s);
	total = at_end;
	for (j = 0; j < nev; j++)
		total = crash_add_sat(total, blocks[j]);
	if (count) {
		*count = total;
		rc = 0;
		goto out;
	}
	if (*index >= total) {
		errno = EINVAL;
		goto out;
	}
	*limit = end;
	if (*index >= at_end) {
		*index -= at_end;
		for (j = 0; j < nev && *index >= blocks[j]; j++)
			*index -= blocks[j];
		*limit = event[j];
	}
	rc = 0;
out:
	free(event);
	free(blocks);
	scan_free(&s);
	return rc;
}

uint64_t zoned_count_states(const struct wlog *w, const struct crash_epochs *ep, size_t k,
			    uint32_t per_block, bool tears)
{
	uint64_t count;

	/* out of memory: as many as can be, so that the epoch is sampled */
	if (find_limit(w, ep, k, per_block, tears, NULL, NULL, &count))
		return UINT64_MAX;
	return count;
}

/* Writes [0, keep) of a zone unit whole, keep's next torn to blocks, and its finishes when all stay. */
static int add_zone(struct crash_state *st, size_t *room, const struct scan *s,
		    const struct unit *u, size_t keep, uint64_t blocks)
{
	size_t j, writes = 0;

	if (u->entry != NO_ENTRY &&
	    crash_add_piece(st, room, u->entry, 0, s->w->e[u->entry].nr_sectors))
		return -1;
	for (j = 0; j < u->nr; j++) {
		const struct ramdisk_wlog_entry *e = &s->w->e[u->members[j]];

		if (e->type == RAMDISK_WLOG_ZONE_FINISH) {
			if (keep == u->writes &&
			    crash_add_piece(st, room, u->members[j], 0, e->nr_sectors))
				return -1;
			continue;
		}
		if (writes < keep) {
			if (crash_add_piece(st, room, u->members[j], 0, e->nr_sectors))
				return -1;
		} else if (writes == keep && blocks) {
			if (crash_add_piece(st, room, u->members[j], 0,
					    (uint32_t)blocks * s->per_block))
				return -1;
		}
		writes++;
	}
	return 0;
}

/* The nth write of a zone unit's members. */
static const struct ramdisk_wlog_entry *nth_write(const struct scan *s, const struct unit *u,
						  size_t n)
{
	size_t j;

	for (j = 0; j < u->nr; j++) {
		const struct ramdisk_wlog_entry *e = &s->w->e[u->members[j]];

		if (e->type != RAMDISK_WLOG_ZONE_FINISH && !n--)
			return e;
	}
	return NULL;
}

/*
 * Choice d of a zone unit: 0 keeps every write; then, for keep from
 * writes - 1 down to min, the tears of write keep (its longest prefix
 * first), then keep whole writes and nothing of the next.
 */
static int add_zone_choice(struct crash_state *st, size_t *room, const struct scan *s,
			   const struct unit *u, uint64_t d)
{
	size_t keep;

	if (!d)
		return add_zone(st, room, s, u, u->writes, 0);
	d--;
	for (keep = u->writes; keep-- > u->min;) {
		uint64_t tears = prefix_tears(s, nth_write(s, u, keep));

		if (d < tears)
			return add_zone(st, room, s, u, keep, tears - d);
		d -= tears;
		if (!d)
			return add_zone(st, room, s, u, keep, 0);
		d--;
	}
	errno = EINVAL;
	return -1;
}

static int piece_order(const void *a, const void *b)
{
	const struct crash_piece *x = a, *y = b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The state's pieces in log order: a zone's reset before its writes, as the device took them. */
static void sort_pieces(struct crash_state *st)
{
	if (st->nr)
		qsort(st->pieces, st->nr, sizeof(*st->pieces), piece_order);
}

/* A state built (rc 0): its scan freed, its pieces in log order; else freed, errno kept. */
static int state_done(struct crash_state *st, struct scan *s, int rc)
{
	scan_free(s);
	if (rc) {
		crash_state_free(st);
		return -1;
	}
	sort_pieces(st);
	return 0;
}

int zoned_state_enumerate(const struct wlog *w, const struct crash_epochs *ep, size_t k,
			  uint64_t index, uint32_t per_block, bool tears, struct crash_state *st)
{
	size_t first = ep->start[k], limit, room = 0, i;
	struct scan s;

	memset(st, 0, sizeof(*st));
	st->epoch = k;
	st->index = (unsigned int)index;
	if (find_limit(w, ep, k, per_block, tears, &index, &limit, NULL))
		return -1;
	st->cut = limit;
	if (scan_range(&s, w, ep, first, limit, per_block, tears))
		return -1;
	for (i = 0; i < s.nr; i++) {
		const struct unit *u = &s.u[i];
		uint64_t d = index % u->choices;

		index /= u->choices;
		if (u->plain ? crash_add_choice(st, &room, w, u->entry, per_block, d) :
			       add_zone_choice(st, &room, &s, u, d))
			goto fail;
	}
	return state_done(st, &s, 0);
fail:
	return state_done(st, &s, -1);
}

int zoned_state_make(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		     unsigned int index, uint64_t seed, uint32_t per_block, struct crash_state *st)
{
	size_t first = ep->start[k], end = crash_epoch_end(ep, k), room = 0, i;
	struct scan s;
	struct rng r;

	memset(st, 0, sizeof(*st));
	st->epoch = k;
	st->index = index;
	crash_state_rng(&r, seed, k, index);
	if (index == 0)
		st->cut = end;
	else if (index == 1 || end == first)
		st->cut = first;
	else
		st->cut = first + 1 + rng_below(&r, end - first);
	if (scan_range(&s, w, ep, first, st->cut, per_block, true))
		return -1;
	for (i = 0; i < s.nr; i++) {
		const struct unit *u = &s.u[i];
		const struct ramdisk_wlog_entry *e;
		size_t keep;
		uint64_t tears;
		int rc;

		if (u->plain) {
			e = &w->e[u->entry];
			rc = index == 0 || (e->flags & RAMDISK_WLOG_FUA) ?
				     crash_add_piece(st, &room, u->entry, 0, e->nr_sectors) :
				     crash_add_drawn(st, &room, w, u->entry, per_block, &r);
		} else if (index == 0) {
			rc = add_zone(st, &room, &s, u, u->writes, 0);
		} else {
			/* a prefix from the last FUA write up, and half the time a tear of the next */
			keep = u->min + rng_below(&r, u->writes - u->min + 1);
			tears = keep < u->writes ? prefix_tears(&s, nth_write(&s, u, keep)) : 0;
			rc = add_zone(st, &room, &s, u, keep,
				      tears && rng_below(&r, 2) ? 1 + rng_below(&r, tears) : 0);
		}
		if (rc)
			goto fail;
	}
	return state_done(st, &s, 0);
fail:
	return state_done(st, &s, -1);
}
