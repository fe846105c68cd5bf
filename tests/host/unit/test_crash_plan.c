// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of rdcrash's crash states: epochs split at successful flushes
 * only (not at one that failed, nor at one a lying device ignored); state 0 keeps an epoch whole and state 1 none of it; a FUA write
 * before the crash point is always whole, an atomic write never torn, a
 * torn write's pieces whole logical blocks inside it; nothing at or after
 * the crash point; and the same seed gives the same states bit for bit,
 * the very bytes this build gave when it was written (a seed printed
 * by one version must rebuild the same state in the next). An epoch
 * checked whole has as many states as a brute-force count of the model's
 * choices says (2^n for n writes that cannot tear), all different.
 */
#include "crash_plan.h"

#include "check.h"
#include "wlog_fixture.h"

#include <stdlib.h>
#include <string.h>

/*
 * epoch 0: w w(fua) w(atomic, 16) discard | flush
 * epoch 1: w(32) mark w | flush(failed) w | flush
 * epoch 2: (empty)
 */
static void make_log(struct wlog *w)
{
	static struct ramdisk_wlog_entry e[12];

	e[0] = ent(RAMDISK_WLOG_WRITE, 0, 8, 0);
	e[1] = ent(RAMDISK_WLOG_WRITE, 64, 8, RAMDISK_WLOG_FUA);
	e[2] = ent(RAMDISK_WLOG_WRITE, 128, 16, RAMDISK_WLOG_ATOMIC);
	e[3] = ent(RAMDISK_WLOG_DISCARD, 256, 64, 0);
	e[4] = ent(RAMDISK_WLOG_FLUSH, 0, 0, 0);
	e[5] = ent(RAMDISK_WLOG_WRITE, 512, 32, 0);
	e[6] = ent(RAMDISK_WLOG_MARK, 0, 0, 0);
	e[7] = ent(RAMDISK_WLOG_WRITE, 1024, 8, 0);
	e[8] = ent(RAMDISK_WLOG_FLUSH, 0, 0, RAMDISK_WLOG_FAILED);
	e[9] = ent(RAMDISK_WLOG_WRITE, 2048, 16, 0);
	e[10] = ent(RAMDISK_WLOG_FLUSH, 0, 0, 0);
	wlog_fixture(w, e, 11, 7);
}

/* Every piece lies inside its entry, on block boundaries, before the cut. */
static void check_pieces(const struct wlog *w, const struct crash_epochs *ep,
			 const struct crash_state *st, uint32_t per_block)
{
	size_t i;

	for (i = 0; i < st->nr; i++) {
		const struct crash_piece *p = &st->pieces[i];
		const struct ramdisk_wlog_entry *e = &w->e[p->entry];

		CHECK(p->entry >= ep->start[st->epoch] && p->entry < st->cut);
		CHECK(wlog_is_data(e));
		CHECK(p->nr && p->first + p->nr <= e->nr_sectors);
		CHECK(p->first % per_block == 0 && p->nr % per_block == 0);
		if (e->flags & (RAMDISK_WLOG_FUA | RAMDISK_WLOG_ATOMIC) ||
		    e->type == RAMDISK_WLOG_DISCARD)
			CHECK(p->first == 0 && p->nr == e->nr_sectors);
	}
}

/* A log of one epoch: the writes described by nr (sectors) and flags, then a flush. */
static void make_epoch(struct wlog *w, struct ramdisk_wlog_entry *e, size_t n, const uint32_t *nr,
		       const unsigned int *flags)
{
	size_t i;

	for (i = 0; i < n; i++)
		e[i] = ent(RAMDISK_WLOG_WRITE, i * 64, nr[i], flags[i]);
	e[n] = ent(RAMDISK_WLOG_FLUSH, 0, 0, 0);
	wlog_fixture(w, e, n + 1, 13);
}

/*
 * The oracle: the states counted one by one, by brute force over every
 * write's choices (whole, lost, each proper tear), keeping those the model
 * allows (after a lost FUA write, every write is lost).
 */
static uint64_t brute_count(const struct wlog *w, uint32_t per_block, int tears)
{
	uint64_t radix[8], digit[8] = { 0 }, count = 0;
	size_t n = w->n - 1, i;

	for (i = 0; i < n; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];
		int can_tear = tears && !(e->flags & (RAMDISK_WLOG_FUA | RAMDISK_WLOG_ATOMIC)) &&
			       e->nr_sectors > per_block;

		radix[i] = can_tear ? 1ull << (e->nr_sectors / per_block) : 2;
	}
	for (;;) {
		int ok = 1, lost_fua = 0;

		for (i = 0; i < n; i++) {
			if (lost_fua && digit[i] != 1)
				ok = 0;
			if ((w->e[i].flags & RAMDISK_WLOG_FUA) && digit[i] == 1)
				lost_fua = 1;
		}
		count += ok;
		for (i = 0; i < n && ++digit[i] == radix[i]; i++)
			digit[i] = 0;
		if (i == n)
			return count;
	}
}

/*
 * Every state of an exhaustive epoch, built: as many as the plan says,
 * the oracle's count, all different, valid, and state 0 keeping all.
 */
static void check_exhaustive(const uint32_t *nr, const unsigned int *flags, size_t n,
			     uint32_t block, unsigned int exhaustive, enum crash_cover want)
{
	struct ramdisk_wlog_entry e[9];
	uint32_t per_block = block / 512;
	struct crash_epoch_plan plan;
	struct crash_epochs ep;
	struct crash_state st;
	uint64_t *hashes, i, j;
	struct wlog w;

	make_epoch(&w, e, n, nr, flags);
	CHECK(!crash_epochs_find(&w, &ep));
	crash_epoch_plan(&w, &ep, 0, block, exhaustive, 1, &plan);
	CHECK(plan.cover == want);
	CHECK(plan.writes == n);
	CHECK(plan.exist == brute_count(&w, per_block, 1));
	CHECK(plan.subsets == brute_count(&w, per_block, 0));
	CHECK(plan.states == (want == CRASH_COVER_ALL ? plan.exist : plan.subsets));
	hashes = calloc(plan.states, sizeof(*hashes));
	for (i = 0; i < plan.states; i++) {
		CHECK(!crash_state_enumerate(&w, &ep, 0, &plan, i, block, &st));
		check_pieces(&w, &ep, &st, per_block);
		if (want == CRASH_COVER_SUBSETS)
			for (j = 0; j < st.nr; j++)
				CHECK(st.pieces[j].nr == w.e[st.pieces[j].entry].nr_sectors);
		/* the crash point: the first lost FUA write, else the epoch's end */
		for (j = 0; j < n; j++) {
			size_t p;

			if (!(flags[j] & RAMDISK_WLOG_FUA))
				continue;
			for (p = 0; p < st.nr && st.pieces[p].entry != j; p++)
				;
			if (p == st.nr)
				break;
		}
		CHECK(st.cut == j);
		if (i == 0)
			CHECK(st.nr == n && st.cut == n);
		hashes[i] = crash_state_hash(&w, &st);
		for (j = 0; j < i; j++)
			CHECK(hashes[j] != hashes[i]);
		crash_state_free(&st);
	}
	CHECK(crash_state_enumerate(&w, &ep, 0, &plan, plan.states, block, &st) == -1);
	free(hashes);
	crash_epochs_free(&ep);
	free(w.data);
}

static void test_exhaustive(void)
{
	static const uint32_t one_block[6] = { 8, 8, 8, 8, 8, 8 };
	static const unsigned int plain[6], fua_at_2[6] = { 0, 0, RAMDISK_WLOG_FUA };
	static const uint32_t mixed[4] = { 16, 24, 8, 16 };
	static const unsigned int mixed_flags[4] = { 0, RAMDISK_WLOG_FUA, 0, RAMDISK_WLOG_ATOMIC };
	struct ramdisk_wlog_entry e[40];
	uint32_t many[32], n;
	unsigned int none[32] = { 0 };
	struct crash_epoch_plan plan;
	struct crash_epochs ep;
	struct wlog w;

	/* n writes of one 4 KiB block each: exactly 2^n states */
	for (n = 0; n <= 6; n++)
		check_exhaustive(one_block, plain, n, 4096, 6, CRASH_COVER_ALL);
	make_epoch(&w, e, 6, one_block, plain);
	CHECK(!crash_epochs_find(&w, &ep));
	crash_epoch_plan(&w, &ep, 0, 4096, 6, 1, &plan);
	CHECK(plan.states == 64 && plan.exist == 64);
	/* one write more than the bound is sampled; a larger --states takes it whole */
	crash_epoch_plan(&w, &ep, 0, 4096, 5, 8, &plan);
	CHECK(plan.cover == CRASH_COVER_SAMPLE && plan.states == 8 && plan.exist == 64);
	crash_epoch_plan(&w, &ep, 0, 4096, 0, 64, &plan);
	CHECK(plan.cover == CRASH_COVER_ALL && plan.states == 64);
	crash_epochs_free(&ep);
	free(w.data);
	/* a FUA write: after its loss nothing else survives */
	check_exhaustive(one_block, fua_at_2, 5, 4096, 5, CRASH_COVER_ALL);
	/* tears at 4 KiB: 2 + 6 + 2 + 2 choices and a FUA write's loss */
	check_exhaustive(mixed, mixed_flags, 4, 4096, 6, CRASH_COVER_ALL);
	/* the same writes tear in 512 bytes too many ways: whole writes only */
	check_exhaustive(mixed, mixed_flags, 4, 512, 4, CRASH_COVER_SUBSETS);
	/* far too many to count: saturated, sampled */
	for (n = 0; n < 32; n++)
		many[n] = 128;
	make_epoch(&w, e, 32, many, none);
	CHECK(!crash_epochs_find(&w, &ep));
	crash_epoch_plan(&w, &ep, 0, 512, 16, 8, &plan);
	CHECK(plan.cover == CRASH_COVER_SAMPLE && plan.exist == UINT64_MAX);
	CHECK(plan.subsets == 1ull << 32 && plan.states == 8);
	crash_epochs_free(&ep);
	free(w.data);
}

int main(void)
{
	struct crash_epochs ep;
	struct crash_state st;
	uint64_t h1 = 0, h2 = 0, h3 = 0;
	unsigned int i, torn = 0, fua_seen = 0;
	struct wlog w;
	size_t k;

	make_log(&w);
	CHECK(!crash_epochs_find(&w, &ep));
	/* the failed flush cuts nothing */
	CHECK(ep.nr == 3);
	CHECK(ep.start[0] == 0 && ep.start[1] == 5 && ep.start[2] == 11 && ep.start[3] == 11);
	/* nor does one a lying device ignored */
	crash_epochs_free(&ep);
	w.e[4].flags |= RAMDISK_WLOG_IGNORED;
	CHECK(!crash_epochs_find(&w, &ep));
	CHECK(ep.nr == 2 && ep.start[1] == 11);
	crash_epochs_free(&ep);
	w.e[4].flags &= ~RAMDISK_WLOG_IGNORED;
	CHECK(!crash_epochs_find(&w, &ep));
	CHECK(crash_epoch_states(&w, &ep, 0, 50) == 50);
	CHECK(crash_epoch_states(&w, &ep, 2, 50) == 1);

	/* all and nothing */
	CHECK(!crash_state_make(&w, &ep, 0, 0, 1, 512, &st));
	CHECK(st.cut == 4 && st.nr == 4);
	crash_state_free(&st);
	CHECK(!crash_state_make(&w, &ep, 1, 1, 1, 512, &st));
	CHECK(st.cut == 5 && st.nr == 0);
	crash_state_free(&st);
	CHECK(!crash_state_make(&w, &ep, 1, 0, 1, 512, &st));
	CHECK(st.cut == 10 && st.nr == 3);
	crash_state_free(&st);

	for (k = 0; k < ep.nr; k++) {
		for (i = 2; i < 200; i++) {
			CHECK(!crash_state_make(&w, &ep, k, i, 20261203, 512, &st));
			check_pieces(&w, &ep, &st, 1);
			h1 = h1 * 31 + crash_state_hash(&w, &st);
			for (size_t j = 0; j < st.nr; j++) {
				torn += st.pieces[j].nr != w.e[st.pieces[j].entry].nr_sectors;
				fua_seen += st.pieces[j].entry == 1;
			}
			/* the FUA write is in every state whose crash point is past it */
			if (k == 0 && st.cut > 1) {
				size_t j;

				for (j = 0; j < st.nr && st.pieces[j].entry != 1; j++)
					;
				CHECK(j < st.nr);
			}
			crash_state_free(&st);
			CHECK(!crash_state_make(&w, &ep, k, i, 20261203, 512, &st));
			h2 = h2 * 31 + crash_state_hash(&w, &st);
			crash_state_free(&st);
			CHECK(!crash_state_make(&w, &ep, k, i, 20261204, 4096, &st));
			check_pieces(&w, &ep, &st, 8);
			h3 = h3 * 31 + crash_state_hash(&w, &st);
			crash_state_free(&st);
		}
	}
	CHECK(torn > 0 && fua_seen > 0);
	CHECK(h1 == h2);
	CHECK(h1 != h3);
	/* the hash this generator gave when written: a change breaks printed seeds */
	printf("hash %016llx\n", (unsigned long long)h1);
	CHECK(h1 == 0x3adaa1c41cbb14c6ULL);
	crash_epochs_free(&ep);
	free(w.data);
	test_exhaustive();
	return check_done();
}
