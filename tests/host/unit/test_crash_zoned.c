// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of rdcrash's crash states of a zoned device, against an
 * oracle that knows nothing of the model: a simulation of a zoned device
 * with a volatile cache. It serves the log as the block layer's contract
 * and the module's zones have it (a write cached per block, a FUA write
 * durable with everything before it in its zone, a reset durable at once,
 * a finish making its zone full) and, at every crash point of an epoch,
 * loses every subset of what is not yet durable, moving each sequential
 * zone's write pointer back to its first lost block, as the module's power
 * cut does. An atomic write is lost whole or not at all; the module makes
 * it durable at once, which the contract allows but does not promise, so
 * the simulation does not. The images it can leave (blocks and write
 * pointers) must be exactly the images of the model's states with tears,
 * each of which must also apply to a zoned device in order (every write
 * at its zone's write pointer). Then: a zone of n writes without FUA has
 * n + 1 states of whole writes; a FUA write leaves only the prefixes that
 * reach it; sampled states are among the enumerated ones; and a seed
 * rebuilds the same state.
 */
#include "crash_plan.h"

#include "check.h"
#include "wlog_fixture.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ZS 8 /* sectors a zone, one block each */
#define NZ 4 /* zone 0 conventional, 1-3 sequential */
#define NB (ZS * NZ)
#define MAX_IMAGES 65536

/* What a device holds: a label per block (entry + 1, block), and each zone's write pointer. */
struct image {
	uint32_t block[NB];
	uint32_t wp[NZ];
};

static const unsigned char seq[NZ] = { 0, 1, 1, 1 };
static const struct crash_zones zones = { ZS, NZ, (unsigned char *)seq };

static uint32_t label(size_t entry, uint32_t b)
{
	return (uint32_t)(entry + 1) << 8 | b;
}

static void image_init(struct image *im)
{
	size_t z;

	memset(im, 0, sizeof(*im));
	for (z = 0; z < NZ; z++)
		im->wp[z] = (uint32_t)(z * ZS);
}

/*
 * Applies entry i, or blocks [first, first + nr) of it, as a zoned device
 * takes it: false if the device would refuse it (a write not at its
 * zone's write pointer).
 */
static bool image_apply(struct image *im, const struct wlog *w, size_t i, uint32_t first,
			uint32_t nr)
{
	const struct ramdisk_wlog_entry *e = &w->e[i];
	uint32_t s = (uint32_t)e->sector, z = s / ZS, b;

	switch (e->type) {
	case RAMDISK_WLOG_ZONE_RESET:
		for (b = z * ZS; b < (z + 1) * ZS; b++)
			im->block[b] = 0;
		im->wp[z] = z * ZS;
		return true;
	case RAMDISK_WLOG_ZONE_FINISH:
		im->wp[z] = (z + 1) * ZS;
		return true;
	case RAMDISK_WLOG_WRITE:
		if (seq[z] && im->wp[z] != s + first)
			return false;
		for (b = first; b < first + nr; b++)
			im->block[s + b] = label(i, b);
		if (seq[z])
			im->wp[z] += nr;
		return true;
	default:
		return true;
	}
}

static bool image_apply_all(struct image *im, const struct wlog *w, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (!image_apply(im, w, i, 0, w->e[i].nr_sectors))
			return false;
	return true;
}

/* A set of images, by brute comparison: the sets here are small. */
struct image_set {
	struct image *im;
	size_t n;
};

static bool set_has(const struct image_set *s, const struct image *im)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!memcmp(&s->im[i], im, sizeof(*im)))
			return true;
	return false;
}

static void set_add(struct image_set *s, const struct image *im)
{
	if (set_has(s, im))
		return;
	CHECK(s->n < MAX_IMAGES);
	if (s->n < MAX_IMAGES)
		s->im[s->n++] = *im;
}

/*
 * The oracle: the device served entries [first, c) on top of base, every
 * earlier epoch durable; then each subset of the blocks not yet durable
 * is lost. A lost block of a sequential zone moves its pointer back to
 * it and the zone reads zeros from there; one of the conventional zone
 * holds what it held at the epoch's start (one write a block there).
 */
static void oracle(const struct wlog *w, const struct image *base, size_t first, size_t c,
		   struct image_set *out)
{
	struct image dev = *base, lost;
	bool durable[NB];
	/* what a crash may lose: a block, or an atomic write's blocks together */
	uint32_t open[NB], len[NB], whole[NB], n = 0, b, z;
	uint64_t mask;
	size_t i;

	for (b = 0; b < NB; b++) {
		durable[b] = true;
		whole[b] = b;
	}
	for (i = first; i < c; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];
		uint32_t s = (uint32_t)e->sector;

		z = s / ZS;
		CHECK(image_apply(&dev, w, i, 0, e->nr_sectors));
		if (e->type == RAMDISK_WLOG_ZONE_RESET) {
			for (b = z * ZS; b < (z + 1) * ZS; b++)
				durable[b] = true;
			continue;
		}
		if (e->type != RAMDISK_WLOG_WRITE)
			continue;
		for (b = s; b < s + e->nr_sectors; b++) {
			durable[b] = e->flags & RAMDISK_WLOG_FUA;
			whole[b] = e->flags & RAMDISK_WLOG_ATOMIC ? s : b;
		}
		if (seq[z] && (e->flags & RAMDISK_WLOG_FUA))
			for (b = z * ZS; b < s; b++)
				durable[b] = true;
	}
	for (b = 0; b < NB; b++) {
		if (durable[b])
			continue;
		if (n && whole[b] == whole[b - 1] && whole[b] != b) {
			len[n - 1]++;
			continue;
		}
		open[n] = b;
		len[n++] = 1;
	}
	CHECK(n <= 16);
	for (mask = 0; mask < 1ull << n; mask++) {
		uint32_t first_lost[NZ];

		lost = dev;
		for (z = 0; z < NZ; z++)
			first_lost[z] = UINT32_MAX;
		for (b = 0; b < n; b++) {
			uint32_t blk = open[b], j;

			if (!(mask >> b & 1))
				continue;
			z = blk / ZS;
			if (seq[z]) {
				if (blk < first_lost[z])
					first_lost[z] = blk;
				continue;
			}
			for (j = blk; j < blk + len[b]; j++)
				lost.block[j] = base->block[j];
		}
		for (z = 0; z < NZ; z++) {
			if (first_lost[z] == UINT32_MAX || first_lost[z] >= lost.wp[z])
				continue;
			for (b = first_lost[z]; b < (z + 1) * ZS; b++)
				lost.block[b] = 0;
			lost.wp[z] = first_lost[z];
		}
		set_add(out, &lost);
	}
}

/*
 * epoch 0, zone 1: w 2, w 3, FUA w 1, w 2; zone 2: w 4, reset, w 2, w 1,
 *          finish; zone 0 (conventional): w 1 at 0, w 1 at 4; flush
 * epoch 1, zone 3: w 3, atomic w 2, w 2; zone 1: w 2; zone 2: reset;
 *          flush (failed); mark; w 1 at 3 (zone 0)
 */
static void make_log(struct wlog *w)
{
	static struct ramdisk_wlog_entry e[20];
	size_t n = 0;

	e[n++] = ent(RAMDISK_WLOG_WRITE, 8, 2, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 16, 4, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 10, 3, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 0, 1, 0);
	e[n++] = ent(RAMDISK_WLOG_ZONE_RESET, 16, 8, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 13, 1, RAMDISK_WLOG_FUA);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 16, 2, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 14, 2, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 18, 1, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 4, 1, 0);
	e[n++] = ent(RAMDISK_WLOG_ZONE_FINISH, 16, 8, 0);
	e[n++] = ent(RAMDISK_WLOG_FLUSH, 0, 0, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 24, 3, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 27, 2, RAMDISK_WLOG_ATOMIC);
	e[n++] = ent(RAMDISK_WLOG_ZONE_RESET, 16, 8, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 29, 2, 0);
	e[n++] = ent(RAMDISK_WLOG_FLUSH, 0, 0, RAMDISK_WLOG_FAILED);
	e[n++] = ent(RAMDISK_WLOG_MARK, 0, 0, 0);
	e[n++] = ent(RAMDISK_WLOG_WRITE, 3, 1, 0);
	wlog_fixture(w, e, n, 11);
}

/* The image of a state: the epochs before applied whole, then its pieces, each accepted. */
static bool state_image(const struct wlog *w, const struct crash_epochs *ep,
			const struct crash_state *st, struct image *im)
{
	size_t i;

	image_init(im);
	if (!image_apply_all(im, w, 0, ep->start[st->epoch]))
		return false;
	for (i = 0; i < st->nr; i++) {
		const struct crash_piece *p = &st->pieces[i];

		CHECK(p->entry >= ep->start[st->epoch] && p->entry < st->cut);
		if (i)
			CHECK(p->entry > st->pieces[i - 1].entry);
		if (!image_apply(im, w, p->entry, p->first, p->nr))
			return false;
	}
	return true;
}

/* Every state of every epoch, enumerated with tears: the oracle's images exactly. */
static void check_against_oracle(const struct wlog *w, const struct crash_epochs *ep)
{
	struct image_set model = { calloc(MAX_IMAGES, sizeof(struct image)), 0 };
	struct image_set truth = { calloc(MAX_IMAGES, sizeof(struct image)), 0 };
	struct crash_epoch_plan plan;
	struct crash_state st;
	struct image base, im;
	size_t k, c, first, end, i;
	uint64_t index;

	CHECK(model.im && truth.im);
	for (k = 0; k < ep->nr; k++) {
		first = ep->start[k];
		end = k + 1 < ep->nr ? ep->start[k + 1] - 1 : ep->start[k + 1];
		image_init(&base);
		CHECK(image_apply_all(&base, w, 0, first));
		model.n = truth.n = 0;
		for (c = first; c <= end; c++)
			oracle(w, &base, first, c, &truth);
		crash_epoch_plan(w, ep, k, 512, 16, 8, &plan);
		CHECK(plan.cover == CRASH_COVER_ALL);
		for (index = 0; index < plan.states; index++) {
			CHECK(!crash_state_build(w, ep, k, &plan, (unsigned int)index, 1, 512,
						 &st));
			CHECK(state_image(w, ep, &st, &im));
			set_add(&model, &im);
			CHECK(set_has(&truth, &im));
			crash_state_free(&st);
		}
		/* every image the device can leave is a state of the model */
		for (i = 0; i < truth.n; i++)
			CHECK(set_has(&model, &truth.im[i]));
		printf("epoch %zu: %u states, %zu images, the device's %zu\n", k, plan.states,
		       model.n, truth.n);
		CHECK(model.n == truth.n && truth.n > 1);
		/* sampled states: valid, among the device's, the same again from their seed */
		for (index = 0; index < 200; index++) {
			struct crash_state again;

			CHECK(!crash_state_make(w, ep, k, (unsigned int)index, 77, 512, &st));
			CHECK(state_image(w, ep, &st, &im));
			CHECK(set_has(&truth, &im));
			CHECK(!crash_state_make(w, ep, k, (unsigned int)index, 77, 512, &again));
			CHECK(crash_state_hash(w, &st) == crash_state_hash(w, &again));
			crash_state_free(&again);
			crash_state_free(&st);
		}
	}
	free(model.im);
	free(truth.im);
}

/* One zone, n writes of two blocks: n + 1 states of whole writes, 2n + 1 with tears. */
static void check_counts(void)
{
	struct ramdisk_wlog_entry e[6];
	struct crash_epoch_plan plan;
	struct crash_epochs ep;
	struct wlog w = { 0 };
	size_t i;

	for (i = 0; i < 3; i++)
		e[i] = ent(RAMDISK_WLOG_WRITE, 8 + 2 * i, 2, 0);
	e[3] = ent(RAMDISK_WLOG_FLUSH, 0, 0, 0);
	w.e = e;
	w.n = 4;
	CHECK(!crash_epochs_find(&w, &ep));
	ep.zones = &zones;
	crash_epoch_plan(&w, &ep, 0, 512, 16, 8, &plan);
	CHECK(plan.subsets == 4);
	CHECK(plan.exist == 7);
	/* the middle write FUA: both writes kept, or the crash came before it (2 + 1 states) */
	e[1].flags = RAMDISK_WLOG_FUA;
	crash_epoch_plan(&w, &ep, 0, 512, 16, 8, &plan);
	CHECK(plan.subsets == 2 + 2);
	crash_epochs_free(&ep);
}

int main(void)
{
	struct crash_epochs ep;
	struct wlog w;

	make_log(&w);
	CHECK(!crash_epochs_find(&w, &ep));
	CHECK(ep.nr == 2);
	ep.zones = &zones;
	check_against_oracle(&w, &ep);
	crash_epochs_free(&ep);
	free(w.data);
	check_counts();
	return check_done();
}
