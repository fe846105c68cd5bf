// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench meta: file create and delete rates, lmbench lat_fs style. Each
 * measurement creates N files (creat, write, optional fsync, close) spread
 * over subdirectories, then unlinks them; the two phases are timed whole,
 * so the rate carries no per-file timer cost.
 */
#include "rdbench.h"
#include "timing.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	MAX_SIZES = 16,
	FIRST_AUTO_FILES = 500,
	MAX_AUTO_FILES = 100000,
	/* automatic counts keep one measurement under this much data */
	MAX_AUTO_BYTES = 256 << 20,
};

struct meta_config {
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	unsigned long files;
	unsigned long per_dir;
	unsigned long threads;
	bool fsync;
	double min_time;
};

enum {
	OPT_SIZES = 256,
	OPT_FILES,
	OPT_PER_DIR,
	OPT_FSYNC,
	OPT_THREADS,
	OPT_MIN_TIME,
};

static const struct option meta_options[] = {
	{ "sizes", required_argument, NULL, OPT_SIZES },
	{ "files", required_argument, NULL, OPT_FILES },
	{ "per-dir", required_argument, NULL, OPT_PER_DIR },
	{ "fsync", no_argument, NULL, OPT_FSYNC },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "min-time", required_argument, NULL, OPT_MIN_TIME },
	{ NULL, 0, NULL, 0 },
};

static int meta_set(void *cfg, int opt, const char *arg)
{
	struct meta_config *m = cfg;
	char *end;

	switch (opt) {
	case OPT_SIZES:
		if (parse_size_list("--sizes", arg, m->sizes, MAX_SIZES, &m->nsizes))
			return -1;
		for (size_t i = 0; i < m->nsizes; i++) {
			if (m->sizes[i] > (64u << 20)) {
				warnx("--sizes: %s: at most 64M per file", arg);
				return -1;
			}
		}
		return 0;
	case OPT_FILES:
		return parse_unsigned("--files", arg, 1, 10000000, &m->files);
	case OPT_PER_DIR:
		return parse_unsigned("--per-dir", arg, 1, 1000000, &m->per_dir);
	case OPT_FSYNC:
		m->fsync = true;
		return 0;
	case OPT_THREADS:
		return parse_unsigned("--threads", arg, 1, 256, &m->threads);
	case OPT_MIN_TIME:
		errno = 0;
		m->min_time = strtod(arg, &end);
		if (errno || end == arg || *end || !(m->min_time >= 0) || m->min_time > 3600) {
			warnx("--min-time: '%s' is not a number of seconds "
			      "from 0 to 3600",
			      arg);
			return -1;
		}
		return 0;
	}
	return -1;
}

/* One thread's share of a phase: files [first, last). */
struct meta_job {
	const char *workdir;
	const struct meta_config *cfg;
	unsigned long first, last;
	uint64_t size;
	const char *data;
	bool create;
	/* the first failure: what, which file, errno */
	const char *failed_op;
	unsigned long failed_file;
	int failed_errno;
};

static void job_fail(struct meta_job *j, const char *op, unsigned long i)
{
	j->failed_op = op;
	j->failed_file = i;
	j->failed_errno = errno;
}

static int open_subdir(struct meta_job *j, unsigned long dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/d%lu", j->workdir, dir);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int create_one(struct meta_job *j, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if ((j->size && write_full(fd, j->data, j->size)) || (j->cfg->fsync && fsync(fd))) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}

static void *run_job(void *arg)
{
	struct meta_job *j = arg;
	unsigned long open_dir = ULONG_MAX;
	int dirfd = -1;

	for (unsigned long i = j->first; i < j->last; i++) {
		unsigned long dir = i / j->cfg->per_dir;
		char name[32];

		if (rdbench_stop) {
			errno = EINTR;
			job_fail(j, "interrupted", i);
			break;
		}
		/* the directory opens once per --per-dir files */
		if (dir != open_dir) {
			if (dirfd >= 0)
				close(dirfd);
			dirfd = open_subdir(j, dir);
			if (dirfd < 0) {
				job_fail(j, "open directory for", i);
				break;
			}
			open_dir = dir;
		}
		snprintf(name, sizeof(name), "f%lu", i);
		if (j->create ? create_one(j, dirfd, name) : unlinkat(dirfd, name, 0)) {
			job_fail(j, j->create ? "create" : "delete", i);
			break;
		}
	}
	if (dirfd >= 0)
		close(dirfd);
	return NULL;
}

/* Run one phase in cfg->threads threads; its wall time, or -1. */
static double run_phase(const struct target *t, const struct meta_config *cfg, unsigned long files,
			uint64_t size, const char *data, bool create)
{
	unsigned long nthreads = cfg->threads < files ? cfg->threads : files;
	struct meta_job *jobs = calloc(nthreads, sizeof(*jobs));
	pthread_t *tids = calloc(nthreads, sizeof(*tids));
	unsigned long started = 0;
	uint64_t start, end;
	double elapsed = -1;

	if (!jobs || !tids)
		err(EXIT_RUN_FAILED, "out of memory");
	for (unsigned long k = 0; k < nthreads; k++) {
		jobs[k] = (struct meta_job){
			.workdir = t->workdir,
			.cfg = cfg,
			.first = files * k / nthreads,
			.last = files * (k + 1) / nthreads,
			.size = size,
			.data = data,
			.create = create,
		};
	}
	start = now_ns();
	if (nthreads == 1) {
		run_job(&jobs[0]);
		started = 1;
	} else {
		for (; started < nthreads; started++) {
			errno = pthread_create(&tids[started], NULL, run_job, &jobs[started]);
			if (errno) {
				warn("cannot start a thread");
				break;
			}
		}
		for (unsigned long k = 0; k < started; k++)
			pthread_join(tids[k], NULL);
	}
	end = now_ns();
	if (started == nthreads)
		elapsed = elapsed_s(start, end);
	for (unsigned long k = 0; k < started; k++) {
		struct meta_job *j = &jobs[k];

		if (!j->failed_op)
			continue;
		elapsed = -1;
		if (j->failed_errno != EINTR || !rdbench_stop)
			warnx("%s: %s d%lu/f%lu: %s", t->workdir, j->failed_op,
			      j->failed_file / cfg->per_dir, j->failed_file,
			      strerror(j->failed_errno));
		break;
	}
	free(tids);
	free(jobs);
	return elapsed;
}

static int make_subdirs(const struct target *t, unsigned long ndirs)
{
	char path[PATH_MAX];

	for (unsigned long d = 0; d < ndirs; d++) {
		if (rdbench_stop)
			return -1;
		snprintf(path, sizeof(path), "%s/d%lu", t->workdir, d);
		if (mkdir(path, 0755)) {
			warn("cannot create %s", path);
			return -1;
		}
	}
	return 0;
}

/* One create+delete measurement of files files; 0 or -1. */
static int measure(const struct target *t, const struct meta_config *cfg, unsigned long files,
		   uint64_t size, const char *data, double *create_s, double *delete_s)
{
	unsigned long ndirs = (files + cfg->per_dir - 1) / cfg->per_dir;

	if (make_subdirs(t, ndirs))
		goto out_remove;
	*create_s = run_phase(t, cfg, files, size, data, true);
	if (*create_s < 0)
		goto out_remove;
	*delete_s = run_phase(t, cfg, files, size, data, false);
	if (*delete_s < 0)
		goto out_remove;
	/* the directories are set-up, not part of the measurement */
	return remove_tree_contents(t->workdir);
out_remove:
	remove_tree_contents(t->workdir);
	return -1;
}

/* Grow the count until the create phase lasts cfg->min_time. */
static int calibrate(const struct target *t, const struct meta_config *cfg, uint64_t size,
		     const char *data, const struct common *c, unsigned long *files)
{
	unsigned long cap = MAX_AUTO_FILES, n = FIRST_AUTO_FILES;
	double create_s, delete_s;

	if (size && MAX_AUTO_BYTES / size < cap)
		cap = MAX_AUTO_BYTES / size;
	if (cap < 1)
		cap = 1;
	if (n > cap)
		n = cap;
	for (;;) {
		if (measure(t, cfg, n, size, data, &create_s, &delete_s))
			return -1;
		progress(c, "meta %s: %lu files take %.3f s to create", t->label, n, create_s);
		if (create_s >= cfg->min_time || n >= cap)
			break;
		/* aim a little past the goal, at least doubling */
		if (create_s > 0 && cfg->min_time / create_s * 1.2 > 2)
			n = (unsigned long)(n * (cfg->min_time / create_s * 1.2));
		else
			n *= 2;
		if (n > cap)
			n = cap;
	}
	*files = n;
	return 0;
}

static struct table *new_table(const struct common *c)
{
	struct table *t = report_new(c);

	table_add_column(t, "target", TABLE_TEXT);
	table_add_column(t, "path", TABLE_TEXT | TABLE_MACHINE_ONLY);
	table_add_column(t, "size", TABLE_TEXT);
	table_add_column(t, "size_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "files", TABLE_NUMBER);
	table_add_column(t, "threads", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "fsync", TABLE_TEXT | TABLE_MACHINE_ONLY);
	report_stat_columns(t, "create_per_s", true);
	report_stat_columns(t, "delete_per_s", true);
	return t;
}

static int run_target_size(struct table *table, const struct target *t,
			   const struct meta_config *cfg, const struct common *c, uint64_t size,
			   const char *data)
{
	double *creates = calloc(c->runs, sizeof(double));
	double *deletes = calloc(c->runs, sizeof(double));
	unsigned long files = cfg->files;
	char label[32];
	int ret = -1;

	if (!creates || !deletes)
		err(EXIT_RUN_FAILED, "out of memory");
	size_label(size, label, sizeof(label));
	if (!files && calibrate(t, cfg, size, data, c, &files))
		goto out_free;
	for (unsigned int r = 0; r < c->runs; r++) {
		double create_s, delete_s;

		if (measure(t, cfg, files, size, data, &create_s, &delete_s))
			goto out_free;
		creates[r] = files / create_s;
		deletes[r] = files / delete_s;
		progress(c,
			 "meta %s %s run %u/%u: %.0f creates/s, %.0f "
			 "deletes/s",
			 t->label, label, r + 1, c->runs, creates[r], deletes[r]);
	}
	table_row_begin(table);
	table_cell(table, "%s", t->label);
	table_cell(table, "%s", t->path);
	table_cell(table, "%s", label);
	table_cell(table, "%llu", (unsigned long long)size);
	table_cell(table, "%lu", files);
	table_cell(table, "%lu", cfg->threads);
	table_cell(table, "%s", cfg->fsync ? "yes" : "no");
	report_stat_cells(table, c, creates, c->runs, "%.0f");
	report_stat_cells(table, c, deletes, c->runs, "%.0f");
	ret = 0;
out_free:
	free(deletes);
	free(creates);
	return ret;
}

int meta_main(int argc, char **argv)
{
	struct meta_config cfg = {
		.sizes = { 0, 1024, 4096, 10240 },
		.nsizes = 4,
		.per_dir = 100,
		.threads = 1,
		.min_time = 0.2,
	};
	struct subcommand_options sub = { meta_options, meta_set, &cfg };
	struct table *table = NULL;
	struct common c;
	uint64_t largest = 0;
	char *data = NULL;
	int ret = EXIT_USAGE;

	if (parse_command_line(argc, argv, "meta", &sub, &c))
		goto out_cleanup;
	for (size_t i = 0; i < c.ntargets; i++)
		if (target_prepare_dir(&c.targets[i], &c))
			goto out_cleanup;
	ret = EXIT_RUN_FAILED;
	for (size_t i = 0; i < cfg.nsizes; i++)
		if (cfg.sizes[i] > largest)
			largest = cfg.sizes[i];
	data = malloc(largest ? largest : 1);
	if (!data)
		err(EXIT_RUN_FAILED, "out of memory");
	memset(data, 'm', largest);
	table = new_table(&c);
	/* sizes outside, targets inside: one size's targets side by side */
	for (size_t s = 0; s < cfg.nsizes; s++)
		for (size_t i = 0; i < c.ntargets; i++)
			if (run_target_size(table, &c.targets[i], &cfg, &c, cfg.sizes[s], data))
				goto out_cleanup;
	ret = report_print(table, &c) ? EXIT_RUN_FAILED : 0;
	table = NULL;
out_cleanup:
	table_free(table);
	free(data);
	targets_cleanup(&c);
	if (rdbench_stop) {
		warnx("interrupted; removed the files it created");
		ret = EXIT_INTERRUPTED;
	}
	return ret;
}
