// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench smallwrite: the same bytes written as small records in four
 * ways, to show what system calls, buffering and batching cost (the
 * Erlang file-module experiment): one write() per record, stdio buffered
 * writes, writev() of a batch of records, O_DIRECT aligned blocks.
 */
#include "rdbench.h"
#include "timing.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

enum {
	STDIO_BUFFER = 64 << 10,
	DIRECT_ALIGN = 4096,
};

struct smallwrite_config {
	uint64_t total;
	uint64_t record;
	unsigned long batch;
};

enum {
	OPT_TOTAL = 256,
	OPT_RECORD,
	OPT_BATCH,
};

static const struct option smallwrite_options[] = {
	{ "total", required_argument, NULL, OPT_TOTAL },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ NULL, 0, NULL, 0 },
};

static int smallwrite_set(void *cfg, int opt, const char *arg)
{
	struct smallwrite_config *sw = cfg;

	switch (opt) {
	case OPT_TOTAL:
		return parse_size_arg("--total", arg, &sw->total);
	case OPT_RECORD:
		return parse_size_arg("--record", arg, &sw->record);
	case OPT_BATCH:
		return parse_unsigned("--batch", arg, 1, IOV_MAX, &sw->batch);
	}
	return -1;
}

static int check_config(const struct smallwrite_config *sw)
{
	if (!sw->record || sw->record > (1u << 20)) {
		warnx("--record: from 1 byte to 1M");
		return -1;
	}
	if (!sw->total || sw->total > (4ull << 30) || sw->total % sw->record) {
		warnx("--total: a whole number of records, at most 4G");
		return -1;
	}
	if (sw->record * sw->batch > (256u << 20)) {
		warnx("--batch: a batch of at most 256M");
		return -1;
	}
	return 0;
}

struct method_ctx {
	const struct smallwrite_config *cfg;
	const char *path;
	/* batch records, one after another; record i is slot i % batch */
	char *records;
	struct iovec *iov;
	char *aligned;
	uint64_t aligned_len;
	uint64_t calls;
};

static const char *record_at(const struct method_ctx *m, uint64_t i)
{
	return m->records + (i % m->cfg->batch) * m->cfg->record;
}

/* The methods close fd themselves, as stdio's fclose must. */
static int close_fd(int fd, int ret)
{
	int saved = errno;

	if (close(fd))
		return -1;
	errno = saved;
	return ret;
}

static int per_record(struct method_ctx *m, int fd)
{
	uint64_t n = m->cfg->total / m->cfg->record;

	for (uint64_t i = 0; i < n; i++) {
		if (rdbench_stop)
			return close_fd(fd, -1);
		if (write_full(fd, record_at(m, i), m->cfg->record))
			return close_fd(fd, -1);
	}
	m->calls = n;
	return close_fd(fd, 0);
}

static int buffered(struct method_ctx *m, int fd)
{
	uint64_t n = m->cfg->total / m->cfg->record;
	FILE *f = fdopen(fd, "w");
	int ret = 0;

	if (!f) {
		close(fd);
		return -1;
	}
	setvbuf(f, NULL, _IOFBF, STDIO_BUFFER);
	for (uint64_t i = 0; i < n && !ret; i++) {
		if (rdbench_stop || fwrite(record_at(m, i), m->cfg->record, 1, f) != 1)
			ret = -1;
	}
	/* fclose flushes the last buffer: part of the cost */
	if (fclose(f))
		ret = -1;
	m->calls = (m->cfg->total + STDIO_BUFFER - 1) / STDIO_BUFFER;
	return ret;
}

static int batched(struct method_ctx *m, int fd)
{
	uint64_t n = m->cfg->total / m->cfg->record;

	m->calls = 0;
	for (uint64_t i = 0; i < n;) {
		uint64_t k = n - i < m->cfg->batch ? n - i : m->cfg->batch;
		uint64_t want = k * m->cfg->record;
		ssize_t done;

		if (rdbench_stop)
			return close_fd(fd, -1);
		for (uint64_t j = 0; j < k; j++) {
			m->iov[j].iov_base = (void *)record_at(m, i + j);
			m->iov[j].iov_len = m->cfg->record;
		}
		done = writev(fd, m->iov, (int)k);
		m->calls++;
		if (done < 0)
			return close_fd(fd, -1);
		/*
		 * A short writev is finished with plain writes; i is a
		 * multiple of the batch, so the records lie in order from
		 * m->records.
		 */
		if ((uint64_t)done < want &&
		    write_full(fd, m->records + done, want - (uint64_t)done))
			return close_fd(fd, -1);
		i += k;
	}
	return close_fd(fd, 0);
}

static int direct_blocks(struct method_ctx *m, int fd)
{
	uint64_t n = m->cfg->total / m->cfg->record;
	/* as many whole records as the aligned block holds */
	uint64_t per_block = m->aligned_len / m->cfg->record;

	m->calls = 0;
	for (uint64_t i = 0; i < n;) {
		uint64_t k = n - i < per_block ? n - i : per_block;

		if (rdbench_stop)
			return close_fd(fd, -1);
		/* gather the records into the aligned buffer, as a program
		 * using O_DIRECT must; the tail of the last block is padding */
		for (uint64_t j = 0; j < k; j++)
			memcpy(m->aligned + j * m->cfg->record, record_at(m, i + j),
			       m->cfg->record);
		if (write_full(fd, m->aligned, m->aligned_len))
			return close_fd(fd, -1);
		m->calls++;
		i += k;
	}
	return close_fd(fd, 0);
}

struct method {
	const char *name;
	int (*run)(struct method_ctx *m, int fd);
	bool direct;
};

static const struct method methods[] = {
	{ "write-per-record", per_record, false },
	{ "stdio-buffered", buffered, false },
	{ "writev-batch", batched, false },
	{ "direct-blocks", direct_blocks, true },
};

enum { METHODS = sizeof(methods) / sizeof(methods[0]) };

/*
 * One timed pass of a method: opening is set-up, the writes and the close
 * (which flushes stdio; each method closes the file) are the measurement. 1 when the file system does
 * not take O_DIRECT.
 */
static int time_method(struct method_ctx *m, const struct method *meth, double *seconds)
{
	int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
	uint64_t start;
	int fd, ret;

	if (meth->direct)
		flags |= O_DIRECT;
	fd = open(m->path, flags, 0644);
	if (fd < 0 && meth->direct && errno == EINVAL)
		return 1;
	if (fd < 0) {
		warn("cannot create %s", m->path);
		return -1;
	}
	start = now_ns();
	ret = meth->run(m, fd);
	*seconds = elapsed_s(start, now_ns());
	if (ret && meth->direct && errno == EINVAL && !rdbench_stop) {
		unlink(m->path);
		return 1;
	}
	if (ret && !rdbench_stop)
		warn("%s: %s", m->path, meth->name);
	if (unlink(m->path) && !ret) {
		warn("cannot remove %s", m->path);
		ret = -1;
	}
	return ret ? -1 : 0;
}

static struct table *new_table(const struct common *c)
{
	struct table *t = report_new(c);

	table_add_column(t, "target", TABLE_TEXT);
	table_add_column(t, "path", TABLE_TEXT | TABLE_MACHINE_ONLY);
	table_add_column(t, "method", TABLE_TEXT);
	table_add_column(t, "total_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "record_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "batch", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "write_calls", TABLE_NUMBER);
	report_stat_columns(t, "seconds", true);
	table_add_column(t, "mib_per_s", TABLE_NUMBER);
	table_add_column(t, "speedup", TABLE_NUMBER);
	return t;
}

static void add_rows(struct table *table, const struct target *t, const struct common *c,
		     const struct smallwrite_config *cfg, double *seconds[METHODS],
		     const bool *supported, const uint64_t *calls)
{
	bool human = c->format == OUTPUT_HUMAN;
	double median[METHODS], slowest = 0;

	for (int k = 0; k < METHODS; k++) {
		median[k] = supported[k] ? report_median(seconds[k], c->runs) : 0;
		if (median[k] > slowest)
			slowest = median[k];
	}
	for (int k = 0; k < METHODS; k++) {
		table_row_begin(table);
		table_cell(table, "%s", t->label);
		table_cell(table, "%s", t->path);
		table_cell(table, "%s%s", methods[k].name, supported[k] ? "" : " (unsupported)");
		table_cell(table, "%llu", (unsigned long long)cfg->total);
		table_cell(table, "%llu", (unsigned long long)cfg->record);
		table_cell(table, "%lu", cfg->batch);
		if (!supported[k]) {
			table_cell(table, "-");
			report_stat_cells(table, c, NULL, 0, "");
			table_cell(table, "-");
			table_cell(table, "-");
			continue;
		}
		table_cell(table, "%llu", (unsigned long long)calls[k]);
		report_stat_cells(table, c, seconds[k], c->runs, "%.4f");
		if (median[k] > 0) {
			table_cell(table, human ? "%.1f" : "%.9g",
				   cfg->total / 1048576.0 / median[k]);
			table_cell(table, human ? "%.1f" : "%.6g", slowest / median[k]);
		} else {
			table_cell(table, "-");
			table_cell(table, "-");
		}
	}
}

static int run_target(struct table *table, const struct target *t,
		      const struct smallwrite_config *cfg, const struct common *c)
{
	struct method_ctx m = { .cfg = cfg };
	double *seconds[METHODS] = { NULL };
	bool supported[METHODS];
	uint64_t calls[METHODS];
	uint64_t batch_bytes = cfg->record * cfg->batch;
	int ret = -1;

	if (asprintf((char **)&m.path, "%s/smallwrite.data", t->workdir) < 0)
		err(EXIT_RUN_FAILED, "out of memory");
	m.records = malloc(batch_bytes);
	m.iov = calloc(cfg->batch, sizeof(*m.iov));
	m.aligned_len = (batch_bytes + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN;
	if (!m.records || !m.iov ||
	    posix_memalign((void **)&m.aligned, DIRECT_ALIGN, m.aligned_len))
		err(EXIT_RUN_FAILED, "out of memory");
	memset(m.aligned, 0, m.aligned_len);
	/* records numbered in text, so the file is readable if kept */
	for (uint64_t i = 0; i < batch_bytes; i++)
		m.records[i] = "0123456789abcdef"[(i / cfg->record) % 16];
	for (int k = 0; k < METHODS; k++) {
		seconds[k] = calloc(c->runs, sizeof(double));
		if (!seconds[k])
			err(EXIT_RUN_FAILED, "out of memory");
		supported[k] = true;
	}
	/* runs outside, methods inside: drift hits every method alike */
	for (unsigned int r = 0; r < c->runs; r++) {
		for (int k = 0; k < METHODS; k++) {
			int res;

			if (!supported[k])
				continue;
			res = time_method(&m, &methods[k], &seconds[k][r]);
			if (res < 0)
				goto out_free;
			if (res > 0) {
				supported[k] = false;
				progress(c,
					 "smallwrite %s: %s: O_DIRECT not "
					 "supported here",
					 t->label, methods[k].name);
				continue;
			}
			calls[k] = m.calls;
			progress(c, "smallwrite %s run %u/%u: %s %.4f s", t->label, r + 1, c->runs,
				 methods[k].name, seconds[k][r]);
		}
	}
	add_rows(table, t, c, cfg, seconds, supported, calls);
	ret = 0;
out_free:
	for (int k = 0; k < METHODS; k++)
		free(seconds[k]);
	free(m.aligned);
	free(m.iov);
	free(m.records);
	free((char *)m.path);
	return ret;
}

int smallwrite_main(int argc, char **argv)
{
	struct smallwrite_config cfg = {
		.total = 4 << 20,
		.record = 32,
		.batch = 1024,
	};
	struct subcommand_options sub = { smallwrite_options, smallwrite_set, &cfg };
	struct table *table = NULL;
	struct common c;
	int ret = EXIT_USAGE;

	if (parse_command_line(argc, argv, "smallwrite", &sub, &c) || check_config(&cfg))
		goto out_cleanup;
	for (size_t i = 0; i < c.ntargets; i++)
		if (target_prepare_dir(&c.targets[i], &c))
			goto out_cleanup;
	ret = EXIT_RUN_FAILED;
	table = new_table(&c);
	for (size_t i = 0; i < c.ntargets; i++)
		if (run_target(table, &c.targets[i], &cfg, &c))
			goto out_cleanup;
	ret = report_print(table, &c) ? EXIT_RUN_FAILED : 0;
	table = NULL;
out_cleanup:
	table_free(table);
	targets_cleanup(&c);
	if (rdbench_stop) {
		warnx("interrupted; removed the files it created");
		ret = EXIT_INTERRUPTED;
	}
	return ret;
}
