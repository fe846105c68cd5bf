// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench pair: random reads or writes of one block size, O_DIRECT, one at a
 * time or --qd at a time through io_uring, on two or more targets in
 * alternation. Each round, every target in turn does the same --ops
 * offsets, so the figures a ratio divides are milliseconds apart. On a host whose speed drifts over
 * seconds (shared, or emulated), two long runs one after the other each
 * see a different host; two bursts of one round see the same one. The
 * median of the per-round ratios, and the sign test's interval for it,
 * then say whether the targets differ at all, and by how much.
 */
#include "rdbench.h"
#include "stats.h"
#include "timing.h"
#include "uring.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	DIRECT_ALIGN = 4096,
	DEFAULT_ROUNDS = 101,
	FILL_CHUNK = 1 << 20,
	MAX_QD = 128,
};

enum pair_op { PAIR_READ, PAIR_WRITE };

static const char *const pair_op_names[] = { "randread", "randwrite" };

struct pair_config {
	uint64_t bs;
	uint64_t size;
	unsigned long ops;
	unsigned long qd;
	enum pair_op op;
};

enum {
	OPT_BS = 256,
	OPT_SIZE,
	OPT_OPS,
	OPT_OP,
	OPT_QD,
};

static const struct option pair_options[] = {
	{ "bs", required_argument, NULL, OPT_BS },   { "size", required_argument, NULL, OPT_SIZE },
	{ "ops", required_argument, NULL, OPT_OPS }, { "op", required_argument, NULL, OPT_OP },
	{ "qd", required_argument, NULL, OPT_QD },   { NULL, 0, NULL, 0 },
};

static int pair_set(void *cfg, int opt, const char *arg)
{
	struct pair_config *p = cfg;

	switch (opt) {
	case OPT_BS:
		if (parse_size_arg("--bs", arg, &p->bs))
			return -1;
		if (!p->bs || p->bs % DIRECT_ALIGN || p->bs > FILL_CHUNK) {
			warnx("--bs: %s: a multiple of 4k up to 1M (the I/O is O_DIRECT)", arg);
			return -1;
		}
		return 0;
	case OPT_SIZE:
		if (parse_size_arg("--size", arg, &p->size))
			return -1;
		if (!p->size) {
			warnx("--size: must not be 0");
			return -1;
		}
		return 0;
	case OPT_OPS:
		return parse_unsigned("--ops", arg, 1, 1000000, &p->ops);
	case OPT_QD:
		return parse_unsigned("--qd", arg, 1, MAX_QD, &p->qd);
	case OPT_OP:
		if (!strcmp(arg, "randread")) {
			p->op = PAIR_READ;
		} else if (!strcmp(arg, "randwrite")) {
			p->op = PAIR_WRITE;
		} else {
			warnx("--op: '%s' is not randread or randwrite", arg);
			return -1;
		}
		return 0;
	}
	return -1;
}

struct pair_target {
	const struct target *t;
	int fd;
	uint64_t blocks;
};

static int target_fail(const struct target *t, const char *what)
{
	if (!rdbench_stop)
		warn("%s: %s", t->datapath, what);
	return -1;
}

/*
 * Open for O_DIRECT I/O and write every block once, untimed, so that reads
 * find data and writes overwrite it, on every target alike: a RAM disk
 * reading never-written space only clears memory.
 */
static int open_and_fill(struct pair_target *pt, uint64_t size, const char *buf)
{
	const struct target *t = pt->t;
	int flags = O_RDWR | O_DIRECT | O_CLOEXEC;

	if (t->kind == TARGET_BLOCKDEV)
		flags |= O_EXCL;
	else
		flags |= O_CREAT;
	pt->fd = open(t->datapath, flags, 0600);
	if (pt->fd < 0)
		return target_fail(t, "cannot open it with O_DIRECT");
	for (uint64_t done = 0; done < size; done += FILL_CHUNK) {
		uint64_t len = size - done < FILL_CHUNK ? size - done : FILL_CHUNK;

		if (rdbench_stop)
			return -1;
		if (pwrite(pt->fd, buf, len, (off_t)done) != (ssize_t)len)
			return target_fail(t, "filling it");
	}
	if (fsync(pt->fd))
		return target_fail(t, "fsync");
	return 0;
}

/* xorshift64*: the same offsets for every target of a round */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* The random offsets of one burst: the same sequence on every target */
struct burst_offsets {
	uint64_t state;
	uint64_t blocks;
	uint64_t bs;
};

static uint64_t next_offset(void *arg)
{
	struct burst_offsets *o = arg;

	return next_random(&o->state) % o->blocks * o->bs;
}

/* One at a time, as fio's psync engine. */
static int burst_sync(const struct pair_target *pt, const struct pair_config *cfg,
		      struct burst_offsets *offsets, char *buf)
{
	for (unsigned long i = 0; i < cfg->ops; i++) {
		off_t off = (off_t)next_offset(offsets);
		ssize_t n;

		if (rdbench_stop)
			return -1;
		if (cfg->op == PAIR_READ)
			n = pread(pt->fd, buf, cfg->bs, off);
		else
			n = pwrite(pt->fd, buf, cfg->bs, off);
		if (n != (ssize_t)cfg->bs) {
			if (n >= 0)
				errno = EIO;
			return -1;
		}
	}
	return 0;
}

/* One burst of --ops I/Os; its rate in operations per second, or -1. */
static int run_burst(const struct pair_target *pt, const struct pair_config *cfg,
		     struct uring *ring, uint64_t seed, char *bufs, double *ops_per_s)
{
	struct burst_offsets offsets = { seed, pt->blocks, cfg->bs };
	uint64_t start = now_ns();
	int err;

	if (ring)
		err = uring_run(ring, pt->fd, cfg->op == PAIR_WRITE, bufs, cfg->bs, cfg->ops,
				next_offset, &offsets, &rdbench_stop);
	else
		err = burst_sync(pt, cfg, &offsets, bufs);
	if (err)
		return target_fail(pt->t, cfg->op == PAIR_READ ? "read" : "write");
	*ops_per_s = cfg->ops / elapsed_s(start, now_ns());
	return 0;
}

static void add_columns(struct table *t)
{
	static const struct {
		const char *name;
		int kind;
	} columns[] = {
		{ "target", TABLE_TEXT },
		{ "path", TABLE_TEXT | TABLE_MACHINE_ONLY },
		{ "op", TABLE_TEXT },
		{ "bs", TABLE_TEXT },
		{ "qd", TABLE_NUMBER },
		{ "bs_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY },
		{ "size_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY },
		{ "ops_per_round", TABLE_NUMBER | TABLE_MACHINE_ONLY },
	};

	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		if (table_add_column(t, columns[i].name, columns[i].kind) < 0)
			err(EXIT_RUN_FAILED, "table column");
	report_stat_columns(t, "iops", true);
	/* how the first target compares with this one, round by round */
	if (table_add_column(t, "first_vs_this", TABLE_NUMBER) < 0 ||
	    table_add_column(t, "ci95_low", TABLE_NUMBER) < 0 ||
	    table_add_column(t, "ci95_high", TABLE_NUMBER) < 0 ||
	    table_add_column(t, "first_ahead", TABLE_NUMBER) < 0)
		err(EXIT_RUN_FAILED, "table column");
}

static void number_cell(struct table *t, const struct common *c, double v, const char *human_fmt)
{
	if (table_cell(t, c->format == OUTPUT_HUMAN ? human_fmt : "%.9g", v))
		err(EXIT_RUN_FAILED, "table cell");
}

/*
 * The cells comparing target 0 with target i: the median over rounds of
 * iops[0][r] / iops[i][r], the sign test's 95% interval for it ("-"
 * below six rounds), and the rounds in which target 0 was faster.
 */
static void ratio_cells(struct table *t, const struct common *c, const double *iops, size_t i)
{
	unsigned int rounds = c->runs, ahead = 0;
	double *ratios, low, high;
	struct stats st;

	if (!i) {
		for (int k = 0; k < 4; k++)
			table_cell(t, "-");
		return;
	}
	ratios = malloc(rounds * sizeof(*ratios));
	if (!ratios)
		err(EXIT_RUN_FAILED, "out of memory");
	for (unsigned int r = 0; r < rounds; r++) {
		ratios[r] = iops[r] / iops[i * rounds + r];
		ahead += ratios[r] > 1;
	}
	if (stats_compute(ratios, rounds, &st))
		err(EXIT_RUN_FAILED, "ratios");
	number_cell(t, c, st.median, "%.3f");
	if (stats_median_interval95(ratios, rounds, &low, &high)) {
		table_cell(t, "-");
		table_cell(t, "-");
	} else {
		number_cell(t, c, low, "%.3f");
		number_cell(t, c, high, "%.3f");
	}
	table_cell(t, "%u", ahead);
	free(ratios);
}

static void add_rows(struct table *table, const struct common *c, const struct pair_config *cfg,
		     uint64_t size, const double *iops)
{
	char label[32];

	size_label(cfg->bs, label, sizeof(label));
	for (size_t i = 0; i < c->ntargets; i++) {
		const struct target *t = &c->targets[i];

		table_row_begin(table);
		table_cell(table, "%s", t->label);
		table_cell(table, "%s", t->path);
		table_cell(table, "%s", pair_op_names[cfg->op]);
		table_cell(table, "%s", label);
		table_cell(table, "%lu", cfg->qd);
		table_cell(table, "%llu", (unsigned long long)cfg->bs);
		table_cell(table, "%llu", (unsigned long long)size);
		table_cell(table, "%lu", cfg->ops);
		report_stat_cells(table, c, iops + i * c->runs, c->runs, "%.0f");
		ratio_cells(table, c, iops, i);
	}
}

/* Every round, each target in turn from a rotating first one. */
static int run_rounds(const struct common *c, const struct pair_config *cfg,
		      struct pair_target *pts, struct uring *ring, char *bufs, double *iops)
{
	size_t n = c->ntargets;

	for (unsigned int r = 0; r < c->runs; r++) {
		uint64_t seed = 0x9e3779b97f4a7c15ull * (r + 1);

		for (size_t k = 0; k < n; k++) {
			size_t i = (r + k) % n;

			if (run_burst(&pts[i], cfg, ring, seed, bufs, &iops[i * c->runs + r]))
				return -1;
		}
		if (!(r % 10) || r + 1 == c->runs)
			progress(c, "pair round %u/%u: %s %.0f IOPS", r + 1, c->runs,
				 pts[0].t->label, iops[r]);
	}
	return 0;
}

int pair_main(int argc, char **argv)
{
	struct pair_config cfg = { .bs = 4096, .ops = 256, .qd = 1, .op = PAIR_READ };
	struct subcommand_options sub = { pair_options, pair_set, &cfg };
	struct pair_target *pts = NULL;
	struct table *table = NULL;
	struct uring *ring = NULL;
	uint64_t size = UINT64_MAX, buf_len;
	double *iops = NULL;
	char *buf = NULL;
	struct common c;
	int ret = EXIT_USAGE;

	if (parse_command_line(argc, argv, "pair", &sub, &c))
		goto out_cleanup;
	if (c.ntargets < 2) {
		warnx("pair compares targets: give two or more");
		goto out_cleanup;
	}
	if (!c.runs_set)
		c.runs = DEFAULT_ROUNDS;
	pts = calloc(c.ntargets, sizeof(*pts));
	iops = calloc(c.ntargets * c.runs, sizeof(*iops));
	/* the fill's chunk, or one buffer per I/O in flight */
	buf_len = cfg.qd * cfg.bs > FILL_CHUNK ? cfg.qd * cfg.bs : FILL_CHUNK;
	if (!pts || !iops || posix_memalign((void **)&buf, DIRECT_ALIGN, buf_len))
		err(EXIT_RUN_FAILED, "out of memory");
	memset(buf, 'p', buf_len);
	for (size_t i = 0; i < c.ntargets; i++) {
		pts[i].fd = -1;
		pts[i].t = &c.targets[i];
	}
	for (size_t i = 0; i < c.ntargets; i++) {
		/* 0 lets a block device choose min(device, 256M) */
		uint64_t s = cfg.size;

		if (target_prepare_data(&c.targets[i], &c, &s))
			goto out_cleanup;
		if (!s)
			s = 256 << 20;
		/* every target gets the smallest span, so the offsets match */
		if (s < size)
			size = s;
	}
	size -= size % cfg.bs;
	if (!size) {
		warnx("--size is smaller than --bs %llu", (unsigned long long)cfg.bs);
		goto out_cleanup;
	}
	ret = EXIT_RUN_FAILED;
	if (cfg.qd > 1) {
		ring = uring_open(cfg.qd);
		if (!ring) {
			warn("--qd %lu: cannot set up io_uring", cfg.qd);
			goto out_cleanup;
		}
	}
	for (size_t i = 0; i < c.ntargets; i++) {
		pts[i].blocks = size / cfg.bs;
		if (open_and_fill(&pts[i], size, buf))
			goto out_cleanup;
	}
	if (run_rounds(&c, &cfg, pts, ring, buf, iops))
		goto out_cleanup;
	table = report_new(&c);
	add_columns(table);
	add_rows(table, &c, &cfg, size, iops);
	ret = report_print(table, &c) ? EXIT_RUN_FAILED : 0;
	table = NULL;
out_cleanup:
	table_free(table);
	uring_close(ring);
	for (size_t i = 0; pts && i < c.ntargets; i++)
		if (pts[i].fd >= 0)
			close(pts[i].fd);
	free(buf);
	free(iops);
	free(pts);
	targets_cleanup(&c);
	if (rdbench_stop) {
		warnx("interrupted; removed the files it created");
		ret = EXIT_INTERRUPTED;
	}
	return ret;
}
