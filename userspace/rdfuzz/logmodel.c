// SPDX-License-Identifier: GPL-2.0
/*
 * The write log's oracle: what rdfuzz itself completed while a slot's log
 * recorded, compared with what RAMDISK_IOC_WLOG_READ gives. rdfuzz is the
 * only writer of its devices (the busy thread reads and flushes), and one
 * thread does its writes one after another, so the log must hold each of
 * them, in that order, with the data rdfuzz wrote. A write the block layer
 * split comes as several entries, in any order among themselves, which
 * together cover it. Flushes come from the busy thread too: they are
 * skipped. So are a zoned device's zone resets and finishes, once their
 * shape is checked: rdfuzz sends no zone command, and a reset that
 * changed data behind its back would show in the shadow's reads. The log is read with rdfuzz's own code, so that a bug shared
 * with ramdiskctl or rdcrash cannot hide.
 */
#include "ramdisk.h"
#include "rdfuzz.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* An entry's bookkeeping in the module is well under this; see the limit check. */
#define ENTRY_COST_MAX 512u
#define READ_DATA_SIZE (1u << 20)

static const char *const state_names[] = { "off",	 "recording", "stopped",
					   "overflowed", "failed",    "cut" };

const char *wlm_state_name(int state)
{
	return state >= 0 && state < 6 ? state_names[state] : "?";
}

void wlm_reset(struct wlog_model *m)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++)
		free(m->items[i].mark);
	m->nr = 0;
	m->state = RAMDISK_WLOG_OFF;
	m->unsure = false;
}

void wlm_start(struct wlog_model *m, uint64_t limit)
{
	wlm_reset(m);
	m->state = RAMDISK_WLOG_RECORDING;
	m->limit_min = limit;
	m->limit_max = limit;
}

void wlm_limit(struct wlog_model *m, uint64_t limit)
{
	if (m->state != RAMDISK_WLOG_RECORDING)
		return;
	if (limit < m->limit_min)
		m->limit_min = limit;
	if (limit > m->limit_max)
		m->limit_max = limit;
}

void wlm_unsure(struct wlog_model *m)
{
	if (m->state == RAMDISK_WLOG_RECORDING)
		m->unsure = true;
}

void wlm_add(struct wlog_model *m, enum wlog_kind kind, uint64_t off, uint64_t len, uint64_t seq,
	     uint32_t gen, const char *mark)
{
	struct wlog_item *it;

	if (m->state != RAMDISK_WLOG_RECORDING || m->unsure)
		return;
	if (m->nr == m->room) {
		unsigned int room = m->room ? 2 * m->room : 256;

		it = room <= WLOG_ITEMS_MAX ? realloc(m->items, room * sizeof(*it)) : NULL;
		if (!it) {
			m->unsure = true;
			return;
		}
		m->items = it;
		m->room = room;
	}
	it = &m->items[m->nr++];
	*it = (struct wlog_item){ .kind = kind, .off = off, .len = len, .seq = seq, .gen = gen };
	if (mark)
		it->mark = strdup(mark);
}

static bool all_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* The comparison as it walks the log, entry by entry. */
struct walk {
	struct fuzz *f;
	struct slot *s;
	const struct wlog_model *m;
	unsigned int next; /* the item the next entry belongs to */
	uint64_t covered; /* sectors of it seen so far */
	uint64_t entries, data_bytes;
	bool bad; /* one report a log: what follows a difference says little */
};

static void walk_bad(struct walk *w, const struct ramdisk_wlog_entry *e, const char *what)
{
	w->bad = true;
	fuzz_report(w->f,
		    "write log of slot %s, entry %" PRIu64 " (type %u, %" PRIu64
		    "+%u, flags %#x): %s",
		    w->s->name, (uint64_t)e->seq, e->type, (uint64_t)e->sector, e->nr_sectors,
		    e->flags, what);
}

static const char *entry_differs(struct walk *w, const struct ramdisk_wlog_entry *e,
				 const unsigned char *data)
{
	const struct wlog_item *it = &w->m->items[w->next];
	static char why[200];

	if (it->kind == WL_MARK) {
		if (e->type != RAMDISK_WLOG_MARK) {
			snprintf(why, sizeof(why), "where mark '%.40s' must be",
				 it->mark ? it->mark : "");
			return why;
		}
		if (!it->mark || e->data_len != strlen(it->mark) ||
		    memcmp(data, it->mark, e->data_len))
			return "a mark with another text than the one written";
		return NULL;
	}
	if (e->type == RAMDISK_WLOG_MARK) {
		snprintf(why, sizeof(why), "a mark where the %s of %" PRIu64 "+%" PRIu64 " must be",
			 it->kind == WL_WRITE ? "write" : "discard or write-zeroes", it->off,
			 it->len);
		return why;
	}
	if (e->sector < it->off / 512 || e->sector + e->nr_sectors > (it->off + it->len) / 512 ||
	    !e->nr_sectors) {
		snprintf(why, sizeof(why),
			 "outside the next thing rdfuzz did, kind %d at %" PRIu64 "+%" PRIu64
			 " (write seq %" PRIu64 ")",
			 it->kind, it->off, it->len, it->seq);
		return why;
	}
	switch (it->kind) {
	case WL_WRITE:
		if (e->type != RAMDISK_WLOG_WRITE)
			return "not a write, where a write completed";
		if (e->data_len != (uint64_t)e->nr_sectors * 512)
			return "a write whose data is not its length";
		if (!shadow_records_are(data, e->sector, e->data_len, it->gen, it->seq)) {
			snprintf(why, sizeof(why), "data that is not write seq %" PRIu64 "'s",
				 it->seq);
			return why;
		}
		break;
	case WL_DISCARD:
		if (e->type != RAMDISK_WLOG_DISCARD)
			return "not a discard, where a discard completed";
		break;
	default:
		/* BLKZEROOUT: write-zeroes, or writes of zeros where the device has none */
		if (e->type == RAMDISK_WLOG_WRITE_ZEROES)
			break;
		if (e->type != RAMDISK_WLOG_WRITE || e->data_len != (uint64_t)e->nr_sectors * 512 ||
		    !all_zero(data, e->data_len))
			return "neither write-zeroes nor a write of zeros, where BLKZEROOUT completed";
		break;
	}
	return NULL;
}

static void walk_entry(struct walk *w, const struct ramdisk_wlog_entry *e,
		       const unsigned char *data)
{
	const struct wlog_item *it;
	const char *why;

	if (e->seq != w->entries) {
		walk_bad(w, e, "its number is not the next one");
		return;
	}
	w->entries++;
	w->data_bytes += e->data_len;
	if (w->bad || e->type == RAMDISK_WLOG_FLUSH)
		return;
	if (e->type < RAMDISK_WLOG_WRITE || e->type > RAMDISK_WLOG_ZONE_FINISH) {
		walk_bad(w, e, "a type the log does not have");
		return;
	}
	if (e->type == RAMDISK_WLOG_ZONE_RESET || e->type == RAMDISK_WLOG_ZONE_FINISH) {
		/* a zone: whole, a power of two of sectors, with no data */
		if (!w->s->zoned || e->data_len || !e->nr_sectors ||
		    (e->nr_sectors & (e->nr_sectors - 1)) || e->sector % e->nr_sectors)
			walk_bad(w, e,
				 "a zone command that names no zone, or on a device without zones");
		return;
	}
	if (w->m->unsure)
		return;
	if (w->next >= w->m->nr) {
		walk_bad(w, e, "nothing rdfuzz did, or more than it did");
		return;
	}
	why = entry_differs(w, e, data);
	if (why) {
		walk_bad(w, e, why);
		return;
	}
	it = &w->m->items[w->next];
	w->covered += it->kind == WL_MARK ? 1 : e->nr_sectors;
	if (it->kind == WL_MARK || w->covered == it->len / 512) {
		w->next++;
		w->covered = 0;
	} else if (w->covered > it->len / 512) {
		walk_bad(w, e, "more sectors than the thing rdfuzz did had");
	}
	if (!w->bad)
		w->f->log_entries_checked++;
}

/* Reads the whole log; its state, or -1. */
static int walk_log(struct walk *w, int fd)
{
	struct ramdisk_wlog_entry *ents = calloc(RAMDISK_WLOG_READ_MAX, sizeof(*ents));
	uint64_t data_size = READ_DATA_SIZE;
	unsigned char *data = malloc(data_size), *bigger;
	struct ramdisk_wlog_read req;
	int state = -1;
	uint32_t i;

	if (!ents || !data)
		goto out_free;
	for (;;) {
		memset(&req, 0, sizeof(req));
		req.first = w->entries;
		req.count = RAMDISK_WLOG_READ_MAX;
		req.entries = (uintptr_t)ents;
		req.data = (uintptr_t)data;
		req.data_size = data_size;
		if (ioctl(fd, RAMDISK_IOC_WLOG_READ, &req)) {
			if (errno == EMSGSIZE && req.data_used > data_size &&
			    (bigger = realloc(data, req.data_used))) {
				data = bigger;
				data_size = req.data_used;
				continue;
			}
			fuzz_report(w->f,
				    "RAMDISK_IOC_WLOG_READ of slot %s from entry %" PRIu64 ": %s",
				    w->s->name, w->entries, strerror(errno));
			goto out_free;
		}
		state = (int)req.state;
		if (req.count > RAMDISK_WLOG_READ_MAX || req.data_used > data_size) {
			fuzz_report(w->f,
				    "RAMDISK_IOC_WLOG_READ filled %u entries, %" PRIu64
				    " bytes, past the room given",
				    req.count, (uint64_t)req.data_used);
			state = -1;
			goto out_free;
		}
		for (i = 0; i < req.count; i++) {
			if (ents[i].data_offset + ents[i].data_len > req.data_used) {
				walk_bad(w, &ents[i], "its data lies past what the read filled");
				break;
			}
			walk_entry(w, &ents[i], data + ents[i].data_offset);
		}
		if (!req.count || (req.flags & RAMDISK_WLOG_END) || w->bad)
			break;
	}
out_free:
	free(data);
	free(ents);
	return state;
}

/* The states the log may read when rdfuzz believes it is in m->state. */
static bool state_allowed(int model, int got)
{
	switch (model) {
	case RAMDISK_WLOG_RECORDING:
	case RAMDISK_WLOG_CUT:
		/* it stops by itself at its limit or out of memory, before a cut too */
		return got == model || got == RAMDISK_WLOG_OVERFLOWED || got == RAMDISK_WLOG_NOMEM;
	default:
		return got == model;
	}
}

int wlm_check(struct fuzz *f, struct slot *s, int fd)
{
	struct wlog_model *m = &s->wlog;
	struct walk w = { .f = f, .s = s, .m = m };
	const struct wlog_item *missing;
	int state;

	state = walk_log(&w, fd);
	if (state < 0)
		return state;
	f->logs_checked++;
	fuzz_log(f, " log %s, %" PRIu64 " entries, %u things done%s", wlm_state_name(state),
		 w.entries, m->nr, m->unsure ? " (unsure)" : "");
	if (!state_allowed(m->state, state)) {
		fuzz_report(f, "write log of slot %s reads %s, where rdfuzz's commands left it %s",
			    s->name, wlm_state_name(state), wlm_state_name(m->state));
		m->state = state;
		m->unsure = true;
		return state;
	}
	if (state == RAMDISK_WLOG_RECORDING && w.data_bytes > m->limit_max)
		fuzz_report(f,
			    "write log of slot %s records with %" PRIu64
			    " bytes of data, past write_log_limit %" PRIu64,
			    s->name, w.data_bytes, m->limit_max);
	/* one report a log: the entries after a difference would repeat it */
	if (w.bad)
		m->unsure = true;
	if (w.bad || m->unsure)
		goto out;
	if (w.next < m->nr) {
		missing = &m->items[w.next];
		/* a log that stopped by itself holds what came before, and maybe part of the next */
		if (state == RAMDISK_WLOG_NOMEM)
			goto out;
		if (state == RAMDISK_WLOG_OVERFLOWED) {
			if (w.data_bytes + (missing->kind == WL_WRITE ? missing->len : 0) +
				    (w.entries + 1) * ENTRY_COST_MAX <=
			    m->limit_min)
				fuzz_report(f,
					    "write log of slot %s overflowed with %" PRIu64
					    " entries and %" PRIu64
					    " bytes of data, far from write_log_limit %" PRIu64,
					    s->name, w.entries, w.data_bytes, m->limit_min);
			goto out;
		}
		fuzz_report(f,
			    "write log of slot %s (%s, %" PRIu64
			    " entries) lacks %u things rdfuzz did "
			    "while it recorded, first kind %d at %" PRIu64 "+%" PRIu64
			    " (write seq %" PRIu64 ")%s",
			    s->name, wlm_state_name(state), w.entries, m->nr - w.next,
			    missing->kind, missing->off, missing->len, missing->seq,
			    w.covered ? ", part of it logged" : "");
	}
out:
	if (state != m->state) {
		/* the log stopped by itself: what rdfuzz does now goes in no more */
		m->state = state;
	}
	return state;
}
