// SPDX-License-Identifier: GPL-2.0
/*
 * Fault schedules, the second fault layer of the stores stack (store.h):
 * a rule picks bios of some kinds and fails them, drops them (they
 * succeed without reaching the store: dm-flakey's drop_writes), or lets
 * them complete late, before they reach the write cache or a bad block.
 *
 * A rule counts the bios of its kinds that it sees while it is open, and
 * fires on every Nth of them, or on each with probability P drawn from its
 * own generator, seeded when the rule is written. A rule opens when it is
 * written, or after the Kth flush from then; with a window, it closes for
 * good T ms after it opened. The same seed and the same bios in the same
 * order give the same faults: the generator advances once per bio seen,
 * under the schedule's lock, whatever the CPU.
 *
 * The rules are a short array under a spinlock, read and advanced on the
 * submit path only while non-empty. configfs appends a rule or clears
 * them all, under rd_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "fault.h"
#include "fault_schedule.h"
#include "ramdisk.h"

/* Every rule's line, at its longest, fits in the one page configfs gives a read. */
#define RD_FS_MAX_RULES 16
#define RD_FS_LINE_MAX 160

/* The kinds of bio a rule picks. */
#define RD_FS_READ 0x1
#define RD_FS_WRITE 0x2
#define RD_FS_FLUSH 0x4
#define RD_FS_DISCARD 0x8
#define RD_FS_ANY 0xf

#define RD_FS_PPM 1000000
/* The longest delay: past a minute a task waiting on it would be reported hung. */
#define RD_FS_DELAY_US_MAX 60000000U

struct rd_fault_rule {
	/* as written */
	u8 kinds;
	u8 error; /* enum rd_fault_error, when delay_us is 0 */
	u32 every; /* fire on every Nth bio seen; 0: by prob_ppm */
	u32 prob_ppm; /* parts per million of the bios seen */
	u64 seed;
	u32 after_flush;
	u32 window_ms; /* 0: open for good */
	u32 delay_us; /* complete the bio this late; 0: fail or drop it */
	bool drop; /* complete the bio unserved, when delay_us is 0 */
	/* what it has done, under the schedule's lock */
	struct rnd_state rnd;
	u32 flushes; /* counted up to after_flush */
	u64 opened_ns; /* ktime_get_ns() when it opened */
	u64 seen;
	u64 injected;
};

struct rd_fault_sched {
	spinlock_t lock;
	/* written under lock; read without it as a hint */
	unsigned int nr;
	/* this schedule holds a reference on rd_fault_sched_in_use; under rd_lock */
	bool key_held;
	struct rd_fault_rule r[RD_FS_MAX_RULES];
};

DEFINE_STATIC_KEY_FALSE(rd_fault_sched_in_use);

static const char *const rd_fs_kind_names[] = { "read", "write", "flush", "discard" };

struct rd_fault_sched *rd_fault_sched_create(void)
{
	struct rd_fault_sched *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (s)
		spin_lock_init(&s->lock);
	return s;
}

/* Called from process context, once no device uses the schedule. */
void rd_fault_sched_destroy(struct rd_fault_sched *s)
{
	if (!s)
		return;
	rd_fault_key_follow(&rd_fault_sched_in_use, &s->key_held, false);
	kfree(s);
}

unsigned int rd_fault_sched_count(const struct rd_fault_sched *s)
{
	return READ_ONCE(s->nr);
}

/* The kinds of bio it is: a write with REQ_PREFLUSH is a flush too. */
static u8 rd_fs_kinds_of(const struct bio *bio)
{
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return RD_FS_READ;
	case REQ_OP_WRITE:
		return (bio->bi_iter.bi_size ? RD_FS_WRITE : 0) |
		       (bio->bi_opf & REQ_PREFLUSH ? RD_FS_FLUSH : 0);
	case REQ_OP_FLUSH:
		return RD_FS_FLUSH;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		return RD_FS_DISCARD;
	default:
		return 0;
	}
}

/* Whether r is open now; *now is read from the clock once, when needed. */
static bool rd_fs_rule_open(const struct rd_fault_rule *r, u64 *now)
{
	if (r->flushes < r->after_flush)
		return false;
	if (!r->window_ms)
		return true;
	if (!*now)
		*now = ktime_get_ns();
	return *now - r->opened_ns < (u64)r->window_ms * NSEC_PER_MSEC;
}

/* Counts one bio r sees; whether r fires on it. */
static bool rd_fs_rule_fires(struct rd_fault_rule *r)
{
	r->seen++;
	if (r->every)
		return r->seen % r->every == 0;
	/* a 32-bit draw scaled to [0, RD_FS_PPM): each value has 4294 or 4295 draws */
	return ((u64)prandom_u32_state(&r->rnd) * RD_FS_PPM) >> 32 < r->prob_ppm;
}

bool rd_fault_sched_draw(struct rd_fault_sched *s, const struct bio *bio,
			 struct rd_fault_verdict *v)
{
	u8 kinds = rd_fs_kinds_of(bio);
	bool fired = false;
	unsigned long flags;
	unsigned int i;
	u64 now = 0;

	if (!kinds)
		return false;
	spin_lock_irqsave(&s->lock, flags);
	for (i = 0; i < s->nr; i++) {
		struct rd_fault_rule *r = &s->r[i];

		/* every rule that sees the bio counts it; the first that fires acts */
		if ((r->kinds & kinds) && rd_fs_rule_open(r, &now) && rd_fs_rule_fires(r)) {
			r->injected++;
			if (!fired) {
				v->status = r->delay_us || r->drop ?
						    BLK_STS_OK :
						    rd_fault_error_status(r->error);
				v->drop = r->drop;
				v->delay_ns = (u64)r->delay_us * NSEC_PER_USEC;
				fired = true;
			}
		}
		/* the Kth flush opens the rule for the bios after it */
		if ((kinds & RD_FS_FLUSH) && r->flushes < r->after_flush &&
		    ++r->flushes == r->after_flush) {
			if (!now)
				now = ktime_get_ns();
			r->opened_ns = now;
		}
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return fired;
}

/* "0.25", "1", "0.000001": a probability above 0 and at most 1, to 6 places. */
static int rd_fs_parse_prob(const char *str, u32 *ppm)
{
	u32 whole = 0, frac = 0, scale = RD_FS_PPM;
	const char *p = str;

	if (!isdigit(*p))
		return -EINVAL;
	while (isdigit(*p) && whole <= 1)
		whole = whole * 10 + (*p++ - '0');
	if (*p == '.') {
		p++;
		while (isdigit(*p) && scale > 1) {
			scale /= 10;
			frac += (*p++ - '0') * scale;
		}
	}
	if (*p || whole > 1 || (whole == 1 && frac) || (!whole && !frac))
		return -EINVAL;
	*ppm = whole * RD_FS_PPM + frac;
	return 0;
}

/* "read", "write,flush", "any": the kinds, comma-separated */
static int rd_fs_parse_kinds(char *str, u8 *kinds)
{
	char *name;
	int i;

	*kinds = 0;
	if (!strcmp(str, "any")) {
		*kinds = RD_FS_ANY;
		return 0;
	}
	while ((name = strsep(&str, ","))) {
		i = match_string(rd_fs_kind_names, ARRAY_SIZE(rd_fs_kind_names), name);
		if (i < 0)
			return -EINVAL;
		*kinds |= 1 << i;
	}
	return 0;
}

/* Digits only: kstrtou32() would also take a sign and a newline. */
static int rd_fs_parse_u32(const char *str, u32 *val)
{
	return isdigit(str[0]) ? kstrtou32(str, 10, val) : -EINVAL;
}

/* One "key=value" option of a rule, or "drop". */
static int rd_fs_parse_option(char *tok, struct rd_fault_rule *r, bool *has_error)
{
	char *val = strchr(tok, '=');
	int i;

	if (!strcmp(tok, "drop")) {
		r->drop = true;
		return 0;
	}
	if (!val)
		return -EINVAL;
	*val++ = '\0';
	if (!strcmp(tok, "every"))
		return rd_fs_parse_u32(val, &r->every) || !r->every ? -EINVAL : 0;
	if (!strcmp(tok, "prob"))
		return rd_fs_parse_prob(val, &r->prob_ppm);
	if (!strcmp(tok, "seed"))
		return isdigit(val[0]) ? kstrtou64(val, 10, &r->seed) : -EINVAL;
	if (!strcmp(tok, "after_flush"))
		return rd_fs_parse_u32(val, &r->after_flush);
	if (!strcmp(tok, "window_ms"))
		return rd_fs_parse_u32(val, &r->window_ms);
	if (!strcmp(tok, "delay_us"))
		return rd_fs_parse_u32(val, &r->delay_us) || !r->delay_us ||
				       r->delay_us > RD_FS_DELAY_US_MAX ?
			       -EINVAL :
			       0;
	if (!strcmp(tok, "error")) {
		i = rd_fault_error_parse(val);
		if (i < 0)
			return -EINVAL;
		r->error = i;
		*has_error = true;
		return 0;
	}
	return -EINVAL;
}

enum rd_fs_cmd {
	RD_FS_ADD,
	RD_FS_CLEAR,
};

/*
 * Reads one command; -EINVAL when it is none. buf is changed. What follows
 * a '#' is a comment, so a line read back can be written again.
 */
static int rd_fs_parse(char *buf, enum rd_fs_cmd *cmd, struct rd_fault_rule *r)
{
	bool has_error = false;
	char *tok, *line;
	int err;

	line = strim(strsep(&buf, "#"));
	if (!strcmp(line, "clear")) {
		*cmd = RD_FS_CLEAR;
		return 0;
	}
	if (line[0] != '+')
		return -EINVAL;
	*cmd = RD_FS_ADD;
	line++;
	*r = (struct rd_fault_rule){ .error = RD_FAULT_EIO };
	tok = strsep(&line, " \t");
	err = rd_fs_parse_kinds(tok, &r->kinds);
	if (err)
		return err;
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		err = rd_fs_parse_option(tok, r, &has_error);
		if (err)
			return err;
	}
	/*
	 * One trigger; a seed only for a draw; one action of error, delay and
	 * drop; and no dropped reads, which would return whatever the buffer
	 * held.
	 */
	if (!r->every == !r->prob_ppm || (r->seed && !r->prob_ppm) ||
	    has_error + !!r->delay_us + r->drop > 1 || (r->drop && (r->kinds & RD_FS_READ)))
		return -EINVAL;
	return 0;
}

static int rd_fs_show_rule(const struct rd_fault_rule *r, char *page, size_t size)
{
	int len = 0, i;

	if (r->kinds == RD_FS_ANY) {
		len += scnprintf(page + len, size - len, "+any");
	} else {
		for (i = 0; i < ARRAY_SIZE(rd_fs_kind_names); i++)
			if (r->kinds & (1 << i))
				len += scnprintf(page + len, size - len, "%s%s", len ? "," : "+",
						 rd_fs_kind_names[i]);
	}
	if (r->every)
		len += scnprintf(page + len, size - len, " every=%u", r->every);
	else if (r->prob_ppm == RD_FS_PPM)
		len += scnprintf(page + len, size - len, " prob=1 seed=%llu", r->seed);
	else
		len += scnprintf(page + len, size - len, " prob=0.%06u seed=%llu", r->prob_ppm,
				 r->seed);
	if (r->after_flush)
		len += scnprintf(page + len, size - len, " after_flush=%u", r->after_flush);
	if (r->window_ms)
		len += scnprintf(page + len, size - len, " window_ms=%u", r->window_ms);
	if (r->delay_us)
		len += scnprintf(page + len, size - len, " delay_us=%u", r->delay_us);
	else if (r->drop)
		len += scnprintf(page + len, size - len, " drop");
	else
		len += scnprintf(page + len, size - len, " error=%s",
				 rd_fault_error_name(r->error));
	len += scnprintf(page + len, size - len, " # seen=%llu injected=%llu\n", r->seen,
			 r->injected);
	return len;
}

ssize_t rd_fault_sched_show(struct rd_fault_sched *s, char *page, size_t size)
{
	struct rd_fault_rule *copy;
	unsigned long flags;
	unsigned int i, n;
	ssize_t len = 0;

	/* printed from a copy: the submit path waits on the lock, not on printing */
	copy = kmalloc_array(RD_FS_MAX_RULES, sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	spin_lock_irqsave(&s->lock, flags);
	n = s->nr;
	memcpy(copy, s->r, n * sizeof(*copy));
	spin_unlock_irqrestore(&s->lock, flags);
	for (i = 0; i < n; i++)
		len += rd_fs_show_rule(&copy[i], page + len, size - len);
	kfree(copy);
	return len;
}

int rd_fault_sched_store(struct rd_fault_sched *s, const char *who, const char *page)
{
	enum rd_fs_cmd cmd = RD_FS_CLEAR;
	struct rd_fault_rule r;
	unsigned long flags;
	unsigned int n;
	char *buf;
	int err;

	lockdep_assert_held(&rd_lock);
	buf = kstrndup(page, PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = rd_fs_parse(buf, &cmd, &r);
	kfree(buf);
	if (err) {
		pr_warn("%s: fault_schedule '%.*s' is not +KINDS every=N|prob=P [seed=S] [after_flush=K] [window_ms=T] [error=eio|medium|nospc|timeout|delay_us=D|drop], or clear\n",
			who, rd_text_len(page, RD_FS_LINE_MAX), page);
		return err;
	}
	prandom_seed_state(&r.rnd, r.seed);

	spin_lock_irqsave(&s->lock, flags);
	n = s->nr;
	if (cmd == RD_FS_CLEAR) {
		n = 0;
	} else if (n == RD_FS_MAX_RULES) {
		err = -ENOSPC;
	} else {
		/* read from the clock now: the window of a rule without after_flush starts here */
		r.opened_ns = ktime_get_ns();
		s->r[n++] = r;
	}
	WRITE_ONCE(s->nr, n);
	spin_unlock_irqrestore(&s->lock, flags);
	if (err) {
		pr_warn("%s: fault_schedule has %d rules already\n", who, RD_FS_MAX_RULES);
		return err;
	}

	rd_fault_key_follow(&rd_fault_sched_in_use, &s->key_held, n);
	return 0;
}
