// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench bw: sequential write then read bandwidth of a file or a block
 * device, per block size. A write pass ends with fsync, so it counts what
 * reached the device; the clean pages are then dropped from the page
 * cache, so the read pass comes from the device too, unless the file
 * system keeps its data in the page cache (tmpfs).
 */
#include "rdbench.h"
#include "timing.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	MAX_BLOCK_SIZES = 16,
	DIRECT_ALIGN = 4096,
};

struct bw_config {
	uint64_t bs[MAX_BLOCK_SIZES];
	size_t nbs;
	uint64_t size;
	bool direct;
};

enum {
	OPT_BS = 256,
	OPT_SIZE,
	OPT_DIRECT,
};

static const struct option bw_options[] = {
	{ "bs", required_argument, NULL, OPT_BS },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ NULL, 0, NULL, 0 },
};

static int bw_set(void *cfg, int opt, const char *arg)
{
	struct bw_config *b = cfg;

	switch (opt) {
	case OPT_BS:
		if (parse_size_list("--bs", arg, b->bs, MAX_BLOCK_SIZES, &b->nbs))
			return -1;
		for (size_t i = 0; i < b->nbs; i++) {
			if (!b->bs[i] || b->bs[i] > (64u << 20)) {
				warnx("--bs: %s: from 1 byte to 64M", arg);
				return -1;
			}
		}
		return 0;
	case OPT_SIZE:
		if (parse_size_arg("--size", arg, &b->size))
			return -1;
		if (!b->size) {
			warnx("--size: must not be 0");
			return -1;
		}
		return 0;
	case OPT_DIRECT:
		b->direct = true;
		return 0;
	}
	return -1;
}

enum op { OP_WRITE, OP_READ, OPS };

static const char *const op_names[OPS] = { "write", "read" };

struct pass {
	const struct target *t;
	const struct bw_config *cfg;
	uint64_t size;
	uint64_t bs;
	char *buf;
};

static int pass_fail(const struct pass *p, const char *what)
{
	if (!rdbench_stop)
		warn("%s: %s", p->t->datapath, what);
	return -1;
}

static int open_data(const struct pass *p, enum op op)
{
	int flags = O_CLOEXEC;

	if (op == OP_READ)
		flags |= O_RDONLY;
	else if (p->t->kind == TARGET_BLOCKDEV)
		flags |= O_WRONLY;
	else
		/* a fresh file each pass: the write allocates, as usual */
		flags |= O_WRONLY | O_CREAT | O_TRUNC;
	if (p->t->kind == TARGET_BLOCKDEV)
		flags |= O_EXCL;
	if (p->cfg->direct)
		flags |= O_DIRECT;
	return open(p->t->datapath, flags, 0600);
}

/* Time one sequential pass; 0 with *seconds, or -1 after a message. */
static int time_pass(const struct pass *p, enum op op, double *seconds)
{
	uint64_t blocks = p->size / p->bs, start;
	int fd = open_data(p, op);

	if (fd < 0)
		return pass_fail(p, p->cfg->direct ? "cannot open it with "
						     "O_DIRECT" :
						     "cannot open it");
	start = now_ns();
	for (uint64_t i = 0; i < blocks; i++) {
		if (rdbench_stop) {
			close(fd);
			return -1;
		}
		if (op == OP_WRITE) {
			if (write_full(fd, p->buf, p->bs)) {
				close(fd);
				return pass_fail(p, "write");
			}
		} else {
			ssize_t n = read_full(fd, p->buf, p->bs);

			if (n != (ssize_t)p->bs) {
				if (n >= 0)
					errno = EIO;
				close(fd);
				return pass_fail(p, "read");
			}
		}
	}
	if (op == OP_WRITE && fsync(fd)) {
		close(fd);
		return pass_fail(p, "fsync");
	}
	*seconds = elapsed_s(start, now_ns());
	/* untimed: drop the clean pages so the next read pass is cold */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (close(fd))
		return pass_fail(p, "close");
	return 0;
}

static struct table *new_table(const struct common *c)
{
	struct table *t = report_new(c);

	table_add_column(t, "target", TABLE_TEXT);
	table_add_column(t, "path", TABLE_TEXT | TABLE_MACHINE_ONLY);
	table_add_column(t, "op", TABLE_TEXT);
	table_add_column(t, "bs", TABLE_TEXT);
	table_add_column(t, "bs_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "size_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "direct", TABLE_TEXT | TABLE_MACHINE_ONLY);
	report_stat_columns(t, "mib_per_s", true);
	return t;
}

/* Results of one block size: [target][op][run] MiB/s. */
static int run_block_size(const struct common *c, const struct bw_config *cfg,
			  const uint64_t *sizes, uint64_t bs, double *mibs)
{
	char *buf;

	if (posix_memalign((void **)&buf, DIRECT_ALIGN, bs))
		err(EXIT_RUN_FAILED, "out of memory");
	memset(buf, 'b', bs);
	for (size_t i = 0; i < c->ntargets; i++) {
		struct pass p = { &c->targets[i], cfg, sizes[i], bs, buf };
		uint64_t bytes = sizes[i] / bs * bs;

		for (unsigned int r = 0; r < c->runs; r++) {
			for (int op = 0; op < OPS; op++) {
				double s;

				if (time_pass(&p, op, &s)) {
					free(buf);
					return -1;
				}
				mibs[(i * OPS + op) * c->runs + r] = bytes / 1048576.0 / s;
			}
			progress(c,
				 "bw %s bs %llu run %u/%u: write %.0f MiB/s, "
				 "read %.0f MiB/s",
				 p.t->label, (unsigned long long)bs, r + 1, c->runs,
				 mibs[(i * OPS) * c->runs + r], mibs[(i * OPS + 1) * c->runs + r]);
		}
	}
	free(buf);
	return 0;
}

static void add_rows(struct table *table, const struct common *c, const struct bw_config *cfg,
		     const uint64_t *sizes, uint64_t bs, const double *mibs)
{
	char label[32];

	size_label(bs, label, sizeof(label));
	/* ops outside, targets inside: the targets side by side */
	for (int op = 0; op < OPS; op++) {
		for (size_t i = 0; i < c->ntargets; i++) {
			const struct target *t = &c->targets[i];

			table_row_begin(table);
			table_cell(table, "%s", t->label);
			table_cell(table, "%s", t->path);
			table_cell(table, "%s", op_names[op]);
			table_cell(table, "%s", label);
			table_cell(table, "%llu", (unsigned long long)bs);
			table_cell(table, "%llu", (unsigned long long)(sizes[i] / bs * bs));
			table_cell(table, "%s", cfg->direct ? "yes" : "no");
			report_stat_cells(table, c, mibs + (i * OPS + op) * c->runs, c->runs,
					  "%.0f");
		}
	}
}

int bw_main(int argc, char **argv)
{
	struct bw_config cfg = {
		.bs = { 4 << 10, 64 << 10, 1 << 20 },
		.nbs = 3,
	};
	struct subcommand_options sub = { bw_options, bw_set, &cfg };
	struct table *table = NULL;
	uint64_t *sizes = NULL;
	double *mibs = NULL;
	struct common c;
	int ret = EXIT_USAGE;

	if (parse_command_line(argc, argv, "bw", &sub, &c))
		goto out_cleanup;
	if (cfg.direct) {
		for (size_t b = 0; b < cfg.nbs; b++) {
			if (cfg.bs[b] % DIRECT_ALIGN) {
				warnx("--direct: every --bs must be a "
				      "multiple of 4k");
				goto out_cleanup;
			}
		}
	}
	sizes = calloc(c.ntargets, sizeof(*sizes));
	mibs = calloc(c.ntargets * OPS * c.runs, sizeof(*mibs));
	if (!sizes || !mibs)
		err(EXIT_RUN_FAILED, "out of memory");
	for (size_t i = 0; i < c.ntargets; i++) {
		/* 0 lets a block device choose min(device, 256M) */
		sizes[i] = cfg.size;
		if (target_prepare_data(&c.targets[i], &c, &sizes[i]))
			goto out_cleanup;
		if (!sizes[i])
			sizes[i] = 256 << 20;
		for (size_t b = 0; b < cfg.nbs; b++) {
			if (sizes[i] < cfg.bs[b]) {
				warnx("%s: --size %llu is smaller than --bs "
				      "%llu",
				      c.targets[i].path, (unsigned long long)sizes[i],
				      (unsigned long long)cfg.bs[b]);
				goto out_cleanup;
			}
		}
	}
	ret = EXIT_RUN_FAILED;
	table = new_table(&c);
	for (size_t b = 0; b < cfg.nbs; b++) {
		if (run_block_size(&c, &cfg, sizes, cfg.bs[b], mibs))
			goto out_cleanup;
		add_rows(table, &c, &cfg, sizes, cfg.bs[b], mibs);
	}
	ret = report_print(table, &c) ? EXIT_RUN_FAILED : 0;
	table = NULL;
out_cleanup:
	table_free(table);
	free(mibs);
	free(sizes);
	targets_cleanup(&c);
	if (rdbench_stop) {
		warnx("interrupted; removed the files it created");
		ret = EXIT_INTERRUPTED;
	}
	return ret;
}
