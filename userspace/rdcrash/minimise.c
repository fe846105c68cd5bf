// SPDX-License-Identifier: GPL-2.0
/*
 * minimise: a failing crash state shrunk to what its failure needs.
 *
 * A state differs from its epoch kept whole (every write before its crash
 * point) by the writes it lost or tore. Crash bugs are about loss: a
 * promise broken because a write did not reach the disk. So the search is
 * over those differences: ddmin finds a smallest set of them that still
 * fails with every other write of the epoch whole, and each one left is a
 * write the failure needs lost (or torn as it was). The earlier epochs
 * stay whole: their flushes made them durable, and a state without them
 * is not one the device can leave. FUA writes are whole or lost, and a
 * lost one takes every later write with it (crash_plan.h): a trial that
 * keeps a write after a lost FUA write is not a state, and counts as one
 * that passes.
 *
 * The reproducer stands without rdcrash or a ramdisk: a dm-log-writes log
 * that holds the device's contents when the log started (the checkpoint
 * the run took: its non-zero blocks as writes), the earlier epochs as
 * logged, then the minimal state's writes, then the mark "crash".
 * fstests' replay-log replays it onto a zeroed device or file of the
 * device's size, and the bytes hash as the state did before any mount.
 */
#include "rdcrash.h"

#include "ddmin.h"
#include "dmlw.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct minimise_ctx {
	const struct minimise_job *m;
	const struct wlog *w;
	const struct crash_epochs *ep;
	const struct crash_state *f; /* the failing state */
	size_t *diff; /* the entries f lost or tore, in log order */
	size_t nd;
	long *slot; /* per entry of [epoch start, cut): its place in diff, or -1 */
	char dir[32];
	unsigned int invalid; /* trials that were no state */
	char detail[256]; /* why the last failing trial failed */
};

static uint64_t entry_kept(const struct crash_state *st, size_t entry)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (st->pieces[i].entry == entry)
			n += st->pieces[i].nr;
	return n;
}

/*
 * The trial state: the differences in `in` as f had them, every other
 * data entry before the cut whole. -1 (ENOMEM); 1 if it is no state.
 */
static int trial_state(const struct minimise_ctx *c, const bool *in, struct crash_state *st)
{
	size_t s = c->ep->start[c->m->epoch], i, j;
	bool lost_fua = false;

	memset(st, 0, sizeof(*st));
	st->epoch = c->f->epoch;
	st->index = c->f->index;
	st->cut = c->f->cut;
	st->pieces = calloc(c->f->nr + (c->f->cut - s) + 1, sizeof(*st->pieces));
	if (!st->pieces)
		return -1;
	for (i = s; i < c->f->cut; i++) {
		const struct ramdisk_wlog_entry *e = &c->w->e[i];
		long d = c->slot[i - s];

		if (!wlog_is_data(e))
			continue;
		if (d >= 0 && in[d]) {
			size_t before = st->nr;

			for (j = 0; j < c->f->nr; j++)
				if (c->f->pieces[j].entry == i)
					st->pieces[st->nr++] = c->f->pieces[j];
			if (st->nr == before && (e->flags & RAMDISK_WLOG_FUA))
				lost_fua = true;
			continue;
		}
		/* whole: after a lost FUA write, not a state the model allows */
		if (lost_fua)
			return 1;
		st->pieces[st->nr++] = (struct crash_piece){ i, 0, e->nr_sectors };
	}
	return 0;
}

/* The state on the clone, from the checkpoint: 0, or -1 after a message. */
static int put_state(const struct minimise_ctx *c, const struct crash_state *st)
{
	struct target *t = c->m->t;
	int fd;

	if (target_clone_power(t, true))
		return -1;
	fd = open(t->clone_dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || apply_entries(fd, c->w, 0, c->ep->start[c->m->epoch]) ||
	    apply_state(fd, c->w, st) || fsync(fd)) {
		warn("writing a state to %s", t->clone_dev);
		if (fd >= 0)
			close(fd);
		target_clone_power(t, false);
		return -1;
	}
	close(fd);
	return 0;
}

/* Mounted, checked, unmounted: 1 it fails, 0 it holds, -1 an error. */
static int judge(struct minimise_ctx *c, const struct crash_state *st)
{
	struct verdict v;

	if (put_state(c, st))
		return -1;
	verdict_check(c->m->fss, c->m->t->clone_dev, c->dir, NULL, 0, c->w, st->cut, c->m->check,
		      &v);
	if (target_clone_power(c->m->t, false))
		return -1;
	if (!v.ok)
		snprintf(c->detail, sizeof(c->detail), "%s", v.detail);
	return !v.ok;
}

static int trial_fails(const bool *in, size_t n, void *arg)
{
	struct minimise_ctx *c = arg;
	struct crash_state st;
	int r;

	(void)n;
	r = trial_state(c, in, &st);
	if (r < 0) {
		crash_state_free(&st);
		errno = ENOMEM;
		return -1;
	}
	if (r > 0) {
		c->invalid++;
		crash_state_free(&st);
		return 0;
	}
	r = judge(c, &st);
	crash_state_free(&st);
	if (!rdcrash_stopped())
		fputc('.', stderr);
	return rdcrash_stopped() ? -1 : r;
}

/* sha256sum's answer for dev, into hex (65 bytes): 0, or -1. */
static int sha256_of(const char *dev, char *hex)
{
	char cmd[96];
	FILE *p;
	int n;

	snprintf(cmd, sizeof(cmd), "sha256sum %s", dev);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fscanf(p, "%64s", hex);
	return pclose(p) == 0 && n == 1 && strlen(hex) == 64 ? 0 : -1;
}

/* The checkpoint's non-zero logical blocks, as writes of runs of them. */
static int add_base(const struct minimise_ctx *c, struct dmlw_writer *d, uint64_t size)
{
	const size_t chunk = 1 << 20;
	struct target *t = c->m->t;
	unsigned char *buf = NULL;
	uint64_t off, b, run = 0, bs = d->bs;
	int fd = -1, rc = -1;

	if (target_clone_power(t, true))
		return -1;
	fd = open(t->clone_dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || posix_memalign((void **)&buf, 4096, chunk))
		goto out;
	for (off = 0; off < size; off += chunk) {
		size_t len = size - off < chunk ? (size_t)(size - off) : chunk;

		if (pread(fd, buf, len, (off_t)off) != (ssize_t)len)
			goto out;
		for (b = 0, run = 0; b <= len / bs; b++) {
			bool zero = true;
			uint64_t i;

			for (i = 0; b < len / bs && i < bs; i += 8)
				if (*(uint64_t *)(buf + b * bs + i)) {
					zero = false;
					break;
				}
			if (b < len / bs && !zero) {
				run++;
				continue;
			}
			if (run && dmlw_add(d, 0, (off + (b - run) * bs) / 512, run * bs / 512,
					    buf + (b - run) * bs, NULL))
				goto out;
			run = 0;
		}
	}
	rc = 0;
out:
	if (rc)
		warn("reading %s for the reproducer", t->clone_dev);
	if (fd >= 0)
		close(fd);
	free(buf);
	return target_clone_power(t, false) || rc ? -1 : 0;
}

/* One data piece as a write: a discard or write-zeroes as zeros, which any target keeps. */
static int add_piece(const struct wlog *w, struct dmlw_writer *d, const struct crash_piece *p)
{
	const struct ramdisk_wlog_entry *e = &w->e[p->entry];
	const void *data = NULL;

	if (e->type == RAMDISK_WLOG_WRITE)
		data = w->data + e->data_offset + (size_t)p->first * 512;
	return dmlw_add(d, e->flags & RAMDISK_WLOG_FUA ? DMLW_FUA : 0, e->sector + p->first, p->nr,
			data, NULL);
}

static int write_reproducer(const struct minimise_ctx *c, const struct crash_state *st,
			    uint64_t lbs, uint64_t size)
{
	const struct wlog *w = c->w;
	struct dmlw_writer d;
	char text[MARK_MAX + 1];
	size_t i, len;

	if (dmlw_open(&d, c->m->reproducer, (uint32_t)lbs)) {
		warn("%s", c->m->reproducer);
		return -1;
	}
	if (add_base(c, &d, size) || dmlw_add(&d, DMLW_MARK, 0, 0, NULL, "base"))
		goto fail;
	for (i = 0; i < c->ep->start[c->m->epoch]; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];

		if (wlog_is_data(e)) {
			struct crash_piece p = { i, 0, e->nr_sectors };

			if (add_piece(w, &d, &p))
				goto fail;
		} else if (wlog_flush_durable(e)) {
			if (dmlw_add(&d, DMLW_FLUSH, 0, 0, NULL, NULL))
				goto fail;
		} else if (e->type == RAMDISK_WLOG_MARK) {
			len = e->data_len < MARK_MAX ? e->data_len : MARK_MAX;
			memcpy(text, w->data + e->data_offset, len);
			text[len] = '\0';
			if (dmlw_add(&d, DMLW_MARK, 0, 0, NULL, text))
				goto fail;
		}
	}
	for (i = 0; i < st->nr; i++)
		if (add_piece(w, &d, &st->pieces[i]))
			goto fail;
	if (dmlw_add(&d, DMLW_MARK, 0, 0, NULL, "crash") || dmlw_close(&d)) {
		warn("writing %s", c->m->reproducer);
		return -1;
	}
	return 0;
fail:
	warn("writing %s", c->m->reproducer);
	dmlw_abandon(&d);
	return -1;
}

/* The differences left, one line each: what happened to the write, where, whose. */
static void print_needed(const struct minimise_ctx *c, const bool *in)
{
	size_t j;

	for (j = 0; j < c->nd; j++) {
		const struct ramdisk_wlog_entry *e = &c->w->e[c->diff[j]];
		uint64_t kept = entry_kept(c->f, c->diff[j]);

		if (!in[j])
			continue;
		printf("entry %zu: %s of sectors %" PRIu64 "+%u (%" PRIu64 " bytes)%s, ",
		       c->diff[j], wlog_type_name(e->type), (uint64_t)e->sector, e->nr_sectors,
		       (uint64_t)e->nr_sectors * 512, e->flags & RAMDISK_WLOG_FUA ? " FUA" : "");
		if (kept)
			printf("torn: %" PRIu64 " of its %u sectors reached the disk", kept,
			       e->nr_sectors);
		else
			printf("lost");
		fs_objects_print(c->m->fss, c->m->t->dev, e->sector, e->nr_sectors, stdout);
		putchar('\n');
	}
	fflush(stdout);
}

int minimise(const struct minimise_job *m, const struct wlog *w, const struct crash_epochs *ep,
	     const struct crash_state *f)
{
	struct minimise_ctx c = { .m = m, .w = w, .ep = ep, .f = f };
	size_t s = ep->start[m->epoch], i, needed = 0;
	struct crash_state best = { 0 };
	uint64_t lbs, sectors;
	char hex[65];
	bool *in = NULL;
	long tests;
	int r, rc = RC_ERROR;

	if (target_sys_u64(m->t, "queue/logical_block_size", &lbs) ||
	    target_sys_u64(m->t, "size", &sectors))
		return RC_ERROR;
	c.diff = calloc(f->cut - s + 1, sizeof(*c.diff));
	c.slot = calloc(f->cut - s + 1, sizeof(*c.slot));
	in = calloc(f->cut - s + 1, sizeof(*in));
	if (!c.diff || !c.slot || !in)
		err(RC_ERROR, "out of memory");
	for (i = s; i < f->cut; i++) {
		c.slot[i - s] = -1;
		if (wlog_is_data(&w->e[i]) && entry_kept(f, i) < w->e[i].nr_sectors) {
			c.slot[i - s] = (long)c.nd;
			in[c.nd] = true;
			c.diff[c.nd++] = i;
		}
	}
	snprintf(c.dir, sizeof(c.dir), "/tmp/rdcrash.XXXXXX");
	if (!mkdtemp(c.dir))
		err(RC_ERROR, "mkdtemp");
	if (target_clone_of(m->t, CK_BASE))
		goto out;
	/* the state as given first: it must still fail */
	r = trial_fails(in, c.nd, &c);
	fputc('\n', stderr);
	if (r < 0)
		goto out;
	if (!r) {
		fprintf(stderr, "rdcrash: epoch %zu state %u holds: nothing to minimise\n",
			m->epoch, m->state);
		rc = RC_OK;
		goto out;
	}
	fprintf(stderr,
		"rdcrash: epoch %zu state %u fails (%s); it lost or tore %zu of the %zu "
		"entries before its crash point\n",
		m->epoch, m->state, c.detail, c.nd, f->cut - s);
	tests = ddmin(in, c.nd, trial_fails, &c);
	fputc('\n', stderr);
	if (tests < 0)
		goto out;
	for (i = 0; i < c.nd; i++)
		needed += in[i];
	r = trial_state(&c, in, &best);
	if (r < 0)
		err(RC_ERROR, "out of memory");
	if (r > 0) {
		/* ddmin keeps only sets that failed, and a trial that is no state passes */
		warnx("the minimal set is not a state the model allows");
		goto out;
	}
	/* the last failing trial may not be this one: judge it once more, and say why */
	r = judge(&c, &best);
	if (r <= 0) {
		if (!r)
			warnx("the minimal state holds when checked again: the check is not "
			      "deterministic");
		goto out;
	}
	fprintf(stderr,
		"rdcrash: %ld trials (%u not states the model allows): the failure (%s) needs "
		"%zu of the %zu lost or torn, every other write before the crash point whole\n",
		tests + 1, c.invalid, c.detail, needed, c.nd);
	if (!needed)
		fprintf(stderr,
			"rdcrash: no loss at all: the epoch kept whole up to the crash point "
			"fails too\n");
	print_needed(&c, in);
	if (put_state(&c, &best))
		goto out;
	r = sha256_of(m->t->clone_dev, hex);
	if (target_clone_power(m->t, false) || r) {
		warnx("cannot hash the minimal state on %s", m->t->clone_dev);
		goto out;
	}
	if (write_reproducer(&c, &best, lbs, sectors * 512))
		goto out;
	fprintf(stderr,
		"rdcrash: reproducer %s (dm-log-writes, %" PRIu64 "-byte sectors), the minimal "
		"state before any mount; sha256 %s:\n"
		"rdcrash:   truncate -s %" PRIu64 " IMG; replay-log --log %s --replay IMG "
		"--end-mark crash; sha256sum IMG\n",
		m->reproducer, lbs, hex, sectors * 512, m->reproducer);
	printf("sha256 %s\n", hex);
	rc = RC_FAILURES;
out:
	target_clone_remove(m->t);
	rmdir(c.dir);
	crash_state_free(&best);
	free(c.diff);
	free(c.slot);
	free(in);
	return rc;
}
