// SPDX-License-Identifier: GPL-2.0
/*
 * Bad blocks, the fault layer of the stores stack (store.h): a bio that
 * meets a bad sector fails before it reaches the write cache, as a disk
 * fails a command it cannot carry out before caching anything of it.
 *
 * The kernel's own list (block/badblocks.c) keeps a range and one
 * "acknowledged" bit. A range here also says which operations it fails,
 * which error it gives and whether a write heals it, and the list must be
 * printed back exactly as written; so this is a small list of its own: at
 * most RD_BB_MAX_RANGES ranges, sorted by start and never overlapping, so
 * the first range a bio meets holds its first bad sector.
 *
 * The submit path reads the list under a spinlock, and only while it is
 * non-empty; a heal changes it there too (it never allocates: a split that
 * finds the list full leaves the range whole). configfs changes it under
 * rd_lock, on a copy that replaces the list under the spinlock, so a bio
 * sees the list before a change or after it, never half of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "badblocks.h"
#include "fault.h"
#include "ramdisk.h"

/*
 * The most ranges a list holds: every line of the list, at its longest
 * (two 20-digit sectors and every option), fits in the one page configfs
 * gives a read.
 */
#define RD_BB_MAX_RANGES 48
#define RD_BB_LINE_MAX 80

#define RD_BB_READ 0x1
#define RD_BB_WRITE 0x2

/* sectors of 512 bytes, first and last, inclusive */
struct rd_bb_range {
	u64 start;
	u64 end;
	u8 rw; /* RD_BB_READ, RD_BB_WRITE or both */
	u8 error; /* enum rd_fault_error */
	/* false: a successful write heals the sectors it covers */
	bool sticky;
};

struct rd_badblocks {
	spinlock_t lock;
	/* written under lock; read without it as a hint */
	unsigned int nr;
	/* this list holds a reference on rd_bb_in_use; under rd_lock */
	bool key_held;
	struct rd_bb_range r[RD_BB_MAX_RANGES];
};

DEFINE_STATIC_KEY_FALSE(rd_bb_in_use);

static const char *const rd_bb_rw_names[] = {
	[RD_BB_READ] = "read",
	[RD_BB_WRITE] = "write",
	[RD_BB_READ | RD_BB_WRITE] = "both",
};

struct rd_badblocks *rd_bb_create(void)
{
	struct rd_badblocks *bb = kzalloc(sizeof(*bb), GFP_KERNEL);

	if (bb)
		spin_lock_init(&bb->lock);
	return bb;
}

/* Called from process context, once no device uses the list. */
void rd_bb_destroy(struct rd_badblocks *bb)
{
	if (!bb)
		return;
	rd_fault_key_follow(&rd_bb_in_use, &bb->key_held, false);
	kfree(bb);
}

unsigned int rd_bb_count(const struct rd_badblocks *bb)
{
	return READ_ONCE(bb->nr);
}

/*
 * Takes sectors [s, e] out of the ranges of r[0..*nr) (only those a write
 * heals when heal_only), trimming, dropping or splitting them. A split
 * needs one more slot: without room below cap nothing changes and the
 * result is false. Ranges never overlap, so at most one range is split,
 * and when one is, no other range meets [s, e].
 */
static bool rd_bb_cut(struct rd_bb_range *r, unsigned int *nr, unsigned int cap, u64 s, u64 e,
		      bool heal_only)
{
	unsigned int i = 0, n = *nr;

	while (i < n) {
		struct rd_bb_range *x = &r[i];

		if (x->end < s || x->start > e || (heal_only && x->sticky)) {
			i++;
			continue;
		}
		if (x->start < s && x->end > e) {
			if (n == cap)
				return false;
			memmove(&r[i + 2], &r[i + 1], (n - i - 1) * sizeof(*r));
			r[i + 1] = *x;
			r[i + 1].start = e + 1;
			x->end = s - 1;
			n++;
			break;
		}
		if (x->start < s) {
			x->end = s - 1;
			i++;
		} else if (x->end > e) {
			x->start = e + 1;
			i++;
		} else {
			memmove(&r[i], &r[i + 1], (n - i - 1) * sizeof(*r));
			n--;
		}
	}
	*nr = n;
	return true;
}

/* Puts add into the sorted r[0..*nr), which has room for it and nothing it overlaps. */
static void rd_bb_insert(struct rd_bb_range *r, unsigned int *nr, const struct rd_bb_range *add)
{
	unsigned int i = 0;

	while (i < *nr && r[i].start < add->start)
		i++;
	memmove(&r[i + 1], &r[i], (*nr - i) * sizeof(*r));
	r[i] = *add;
	(*nr)++;
}

ssize_t rd_bb_show(struct rd_badblocks *bb, char *page, size_t size)
{
	unsigned long flags;
	ssize_t len = 0;
	unsigned int i;

	spin_lock_irqsave(&bb->lock, flags);
	for (i = 0; i < bb->nr; i++) {
		const struct rd_bb_range *x = &bb->r[i];

		len += scnprintf(page + len, size - len, "+%llu-%llu rw=%s error=%s sticky=%d\n",
				 x->start, x->end, rd_bb_rw_names[x->rw],
				 rd_fault_error_name(x->error), x->sticky);
	}
	spin_unlock_irqrestore(&bb->lock, flags);
	return len;
}

/* Digits only: kstrtou64() would also take a sign and a newline. */
static int rd_bb_parse_sector(const char *str, u64 *val)
{
	if (!isdigit(str[0]))
		return -EINVAL;
	return kstrtou64(str, 10, val);
}

/* "START-END" or "START", sectors; START <= END */
static int rd_bb_parse_range(char *tok, u64 *s, u64 *e)
{
	char *dash = strchr(tok, '-');

	if (dash)
		*dash = '\0';
	if (rd_bb_parse_sector(tok, s))
		return -EINVAL;
	if (!dash)
		*e = *s;
	else if (rd_bb_parse_sector(dash + 1, e))
		return -EINVAL;
	return *s <= *e ? 0 : -EINVAL;
}

/* The index of name in names, which may have holes (match_string() stops at one). */
static int rd_bb_match(const char *const *names, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -EINVAL;
}

/* One "key=value" option of a range added with '+'. */
static int rd_bb_parse_option(char *tok, struct rd_bb_range *x)
{
	char *val = strchr(tok, '=');
	int i;

	if (!val)
		return -EINVAL;
	*val++ = '\0';
	if (!strcmp(tok, "rw")) {
		i = rd_bb_match(rd_bb_rw_names, ARRAY_SIZE(rd_bb_rw_names), val);
		if (i < 0)
			return -EINVAL;
		x->rw = i;
	} else if (!strcmp(tok, "error")) {
		i = rd_fault_error_parse(val);
		if (i < 0)
			return -EINVAL;
		x->error = i;
	} else if (!strcmp(tok, "sticky")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			return -EINVAL;
		x->sticky = val[0] == '1';
	} else {
		return -EINVAL;
	}
	return 0;
}

enum rd_bb_cmd {
	RD_BB_ADD,
	RD_BB_REMOVE,
	RD_BB_CLEAR,
};

/* Reads one command; -EINVAL when it is none. buf is changed. */
static int rd_bb_parse(char *buf, enum rd_bb_cmd *cmd, struct rd_bb_range *x)
{
	char *tok, *line = strim(buf);
	int err;

	if (!strcmp(line, "clear")) {
		*cmd = RD_BB_CLEAR;
		return 0;
	}
	if (line[0] != '+' && line[0] != '-')
		return -EINVAL;
	*cmd = line[0] == '+' ? RD_BB_ADD : RD_BB_REMOVE;
	line++;
	*x = (struct rd_bb_range){ .rw = RD_BB_READ | RD_BB_WRITE,
				   .error = RD_FAULT_EIO,
				   .sticky = true };
	tok = strsep(&line, " \t");
	err = rd_bb_parse_range(tok, &x->start, &x->end);
	if (err)
		return err;
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		/* removal takes sectors out of every range, whatever its options */
		if (*cmd == RD_BB_REMOVE)
			return -EINVAL;
		err = rd_bb_parse_option(tok, x);
		if (err)
			return err;
	}
	return 0;
}

int rd_bb_store(struct rd_badblocks *bb, const char *who, const char *page)
{
	struct rd_bb_range *scratch, x = {};
	enum rd_bb_cmd cmd = RD_BB_CLEAR;
	unsigned long flags;
	unsigned int n;
	char *buf;
	int err;

	lockdep_assert_held(&rd_lock);
	buf = kstrndup(page, PAGE_SIZE, GFP_KERNEL);
	scratch = kmalloc_array(RD_BB_MAX_RANGES + 1, sizeof(*scratch), GFP_KERNEL);
	err = -ENOMEM;
	if (!buf || !scratch)
		goto out_free;
	err = rd_bb_parse(buf, &cmd, &x);
	if (err) {
		pr_warn("%s: badblocks '%.*s' is not +START-END [rw=read|write|both] [error=eio|medium|nospc|timeout] [sticky=0|1], -START-END or clear\n",
			who, rd_text_len(page, RD_BB_LINE_MAX), page);
		goto out_free;
	}

	spin_lock_irqsave(&bb->lock, flags);
	n = bb->nr;
	memcpy(scratch, bb->r, n * sizeof(*scratch));
	if (cmd == RD_BB_CLEAR) {
		n = 0;
	} else {
		/* a new range replaces what it overlaps: the last write wins */
		rd_bb_cut(scratch, &n, RD_BB_MAX_RANGES + 1, x.start, x.end, false);
		if (cmd == RD_BB_ADD && n >= RD_BB_MAX_RANGES)
			err = -ENOSPC;
		else if (cmd == RD_BB_ADD)
			rd_bb_insert(scratch, &n, &x);
		else if (n > RD_BB_MAX_RANGES)
			err = -ENOSPC;
	}
	if (!err) {
		memcpy(bb->r, scratch, n * sizeof(*scratch));
		WRITE_ONCE(bb->nr, n);
	}
	spin_unlock_irqrestore(&bb->lock, flags);
	if (err) {
		pr_warn("%s: badblocks '%.*s' would make more than %d ranges\n", who,
			rd_text_len(page, RD_BB_LINE_MAX), page, RD_BB_MAX_RANGES);
		goto out_free;
	}

	/*
	 * The key follows the list as configfs leaves it. A list a heal
	 * emptied keeps its reference until the next write here: the submit
	 * path must not touch the key, and an empty list costs one more test.
	 */
	rd_fault_key_follow(&rd_bb_in_use, &bb->key_held, n);

out_free:
	kfree(scratch);
	kfree(buf);
	return err;
}

blk_status_t rd_bb_check(struct rd_badblocks *bb, struct bio *bio, bool write, unsigned int *good)
{
	u64 s = bio->bi_iter.bi_sector;
	u64 e = s + (bio->bi_iter.bi_size >> SECTOR_SHIFT) - 1;
	u8 want = write ? RD_BB_WRITE : RD_BB_READ;
	blk_status_t status = BLK_STS_OK;
	unsigned long flags;
	unsigned int i;
	u64 first = s;

	if (!bio->bi_iter.bi_size)
		return BLK_STS_OK;
	spin_lock_irqsave(&bb->lock, flags);
	for (i = 0; i < bb->nr; i++) {
		const struct rd_bb_range *x = &bb->r[i];

		if (x->start > e)
			break;
		if (x->end < s || !(x->rw & want))
			continue;
		first = max(x->start, s);
		status = rd_fault_error_status(x->error);
		break;
	}
	spin_unlock_irqrestore(&bb->lock, flags);
	if (status)
		*good = round_down((first - s) << SECTOR_SHIFT,
				   bdev_logical_block_size(bio->bi_bdev));
	return status;
}

bool rd_bb_add_torn(struct rd_badblocks *bb, u64 start, u64 end)
{
	const struct rd_bb_range x = { .start = start,
				       .end = end,
				       .rw = RD_BB_READ,
				       .error = RD_FAULT_MEDIUM,
				       .sticky = false };
	unsigned long flags;
	unsigned int n;
	bool room;

	spin_lock_irqsave(&bb->lock, flags);
	n = bb->nr;
	/* a split may take a slot only if one stays for the new range */
	room = n < RD_BB_MAX_RANGES &&
	       rd_bb_cut(bb->r, &n, RD_BB_MAX_RANGES - 1, start, end, false);
	if (room) {
		rd_bb_insert(bb->r, &n, &x);
		WRITE_ONCE(bb->nr, n);
	}
	spin_unlock_irqrestore(&bb->lock, flags);
	return room;
}

void rd_bb_key_sync(struct rd_badblocks *bb)
{
	lockdep_assert_held(&rd_lock);
	rd_fault_key_follow(&rd_bb_in_use, &bb->key_held, READ_ONCE(bb->nr));
}

void rd_bb_written(struct rd_badblocks *bb, struct bio *bio)
{
	u64 s = bio->bi_iter.bi_sector;
	unsigned long flags;
	unsigned int n;

	if (bio->bi_iter.bi_size < SECTOR_SIZE)
		return;
	spin_lock_irqsave(&bb->lock, flags);
	n = bb->nr;
	rd_bb_cut(bb->r, &n, RD_BB_MAX_RANGES, s, s + (bio->bi_iter.bi_size >> SECTOR_SHIFT) - 1,
		  true);
	WRITE_ONCE(bb->nr, n);
	spin_unlock_irqrestore(&bb->lock, flags);
}
