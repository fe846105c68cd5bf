// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of rdcrash's crash states: epochs split at successful flushes
 * only; state 0 keeps an epoch whole and state 1 none of it; a FUA write
 * before the crash point is always whole, an atomic write never torn, a
 * torn write's pieces whole logical blocks inside it; nothing at or after
 * the crash point; and the same seed gives the same states bit for bit,
 * the very bytes this build gave when it was written (a seed printed
 * by one version must rebuild the same state in the next).
 */
#include "crash_plan.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>

static struct ramdisk_wlog_entry ent(unsigned int type, uint64_t sector, uint32_t nr,
				     unsigned int flags)
{
	return (struct ramdisk_wlog_entry){
		.sector = sector, .nr_sectors = nr, .type = type, .flags = flags
	};
}

/*
 * epoch 0: w w(fua) w(atomic, 16) discard | flush
 * epoch 1: w(32) mark w | flush(failed) w | flush
 * epoch 2: (empty)
 */
static void make_log(struct wlog *w)
{
	static struct ramdisk_wlog_entry e[12];
	size_t i, off = 0;

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
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->n = 11;
	for (i = 0; i < w->n; i++) {
		e[i].seq = i;
		e[i].data_offset = off;
		e[i].data_len = e[i].type == RAMDISK_WLOG_WRITE ? e[i].nr_sectors * 512 : 0;
		off += e[i].data_len;
	}
	w->data_len = off;
	w->data = malloc(off);
	for (i = 0; i < off; i++)
		w->data[i] = (unsigned char)(i * 7 + i / 512);
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
	return check_done();
}
