// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench churn: write a set of files, read them back, delete them, round
 * after round, each phase timed on its own. The presets are the two seed
 * experiments: a web server's transient file (one 700 KB file, 1000
 * times) and a queue of files (10,000 files of about 4 KB).
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

struct churn_config {
	const char *preset;
	unsigned long files;
	uint64_t size;
	unsigned long rounds;
	bool files_set, size_set, rounds_set;
	bool sync;
};

struct churn_preset {
	const char *name;
	unsigned long files;
	uint64_t size;
	unsigned long rounds;
	unsigned int runs;
};

static const struct churn_preset presets[] = {
	{ "transient", 1, 700 << 10, 1000, 5 },
	/* the number and the word "text" 1000 times: about 4 KB */
	{ "queue", 10000, 4004, 1, 3 },
};

enum {
	OPT_PRESET = 256,
	OPT_FILES,
	OPT_SIZE,
	OPT_ROUNDS,
	OPT_SYNC,
};

static const struct option churn_options[] = {
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "files", required_argument, NULL, OPT_FILES },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "sync", no_argument, NULL, OPT_SYNC },
	{ NULL, 0, NULL, 0 },
};

static int churn_set(void *cfg, int opt, const char *arg)
{
	struct churn_config *cc = cfg;

	switch (opt) {
	case OPT_PRESET:
		cc->preset = arg;
		return 0;
	case OPT_FILES:
		cc->files_set = true;
		return parse_unsigned("--files", arg, 1, 10000000, &cc->files);
	case OPT_SIZE:
		cc->size_set = true;
		if (parse_size_arg("--size", arg, &cc->size))
			return -1;
		if (cc->size > (1u << 30)) {
			warnx("--size: %s: at most 1G per file", arg);
			return -1;
		}
		return 0;
	case OPT_ROUNDS:
		cc->rounds_set = true;
		return parse_unsigned("--rounds", arg, 1, 100000000, &cc->rounds);
	case OPT_SYNC:
		cc->sync = true;
		return 0;
	}
	return -1;
}

enum phase { PHASE_WRITE, PHASE_READ, PHASE_DELETE, PHASE_TOTAL, PHASES };

static const char *const phase_names[PHASES] = { "write_s", "read_s", "delete_s", "total_s" };

struct churn_run {
	const struct target *t;
	const struct churn_config *cfg;
	int dirfd;
	char *data;
	char *readbuf;
};

static int fail(const struct churn_run *run, const char *op, unsigned long i)
{
	if (!rdbench_stop)
		warn("%s: %s %lu", run->t->workdir, op, i);
	return -1;
}

static int write_files(struct churn_run *run)
{
	for (unsigned long i = 0; i < run->cfg->files; i++) {
		char name[24];
		int fd, len;

		if (rdbench_stop)
			return -1;
		len = snprintf(name, sizeof(name), "%lu", i);
		/* the seed loop removed a stale file before writing */
		if (!faccessat(run->dirfd, name, F_OK, 0) && unlinkat(run->dirfd, name, 0))
			return fail(run, "remove stale", i);
		fd = openat(run->dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return fail(run, "create", i);
		/* each file starts with its number, as in the queue seed */
		if (run->cfg->size)
			memcpy(run->data, name,
			       (uint64_t)len < run->cfg->size ? (size_t)len : run->cfg->size);
		if (write_full(fd, run->data, run->cfg->size) || (run->cfg->sync && fsync(fd))) {
			close(fd);
			return fail(run, "write", i);
		}
		if (close(fd))
			return fail(run, "close", i);
	}
	return 0;
}

static int read_files(struct churn_run *run)
{
	for (unsigned long i = 0; i < run->cfg->files; i++) {
		char name[24];
		ssize_t n;
		int fd;

		if (rdbench_stop)
			return -1;
		snprintf(name, sizeof(name), "%lu", i);
		fd = openat(run->dirfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return fail(run, "open", i);
		/* one byte more than written, to see the end of the file */
		n = read_full(fd, run->readbuf, run->cfg->size + 1);
		close(fd);
		if (n < 0)
			return fail(run, "read", i);
		if ((uint64_t)n != run->cfg->size) {
			errno = EIO;
			return fail(run, "read back a different size from", i);
		}
	}
	return 0;
}

static int delete_files(struct churn_run *run)
{
	for (unsigned long i = 0; i < run->cfg->files; i++) {
		char name[24];

		if (rdbench_stop)
			return -1;
		snprintf(name, sizeof(name), "%lu", i);
		if (unlinkat(run->dirfd, name, 0))
			return fail(run, "delete", i);
	}
	return 0;
}

/* One run: every round's phases, summed per phase. */
static int churn_once(struct churn_run *run, double seconds[PHASES])
{
	int (*const steps[3])(struct churn_run *) = { write_files, read_files, delete_files };
	uint64_t begin = now_ns();

	for (int p = 0; p < PHASES; p++)
		seconds[p] = 0;
	for (unsigned long r = 0; r < run->cfg->rounds; r++) {
		for (int p = 0; p < 3; p++) {
			uint64_t start = now_ns();

			if (steps[p](run))
				return -1;
			seconds[p] += elapsed_s(start, now_ns());
		}
	}
	seconds[PHASE_TOTAL] = elapsed_s(begin, now_ns());
	return 0;
}

static struct table *new_table(const struct common *c)
{
	struct table *t = report_new(c);

	table_add_column(t, "target", TABLE_TEXT);
	table_add_column(t, "path", TABLE_TEXT | TABLE_MACHINE_ONLY);
	table_add_column(t, "preset", TABLE_TEXT);
	table_add_column(t, "files", TABLE_NUMBER);
	table_add_column(t, "size", TABLE_TEXT);
	table_add_column(t, "size_bytes", TABLE_NUMBER | TABLE_MACHINE_ONLY);
	table_add_column(t, "rounds", TABLE_NUMBER);
	table_add_column(t, "sync", TABLE_TEXT | TABLE_MACHINE_ONLY);
	for (int p = 0; p < PHASES; p++)
		report_stat_columns(t, phase_names[p], p == PHASE_TOTAL);
	return t;
}

static int run_target(struct table *table, const struct target *t, const struct churn_config *cfg,
		      const struct common *c)
{
	struct churn_run run = { .t = t, .cfg = cfg };
	double *seconds[PHASES] = { NULL };
	char label[32];
	int ret = -1;

	run.data = malloc(cfg->size + 4);
	run.readbuf = malloc(cfg->size + 1);
	for (int p = 0; p < PHASES; p++)
		seconds[p] = calloc(c->runs, sizeof(double));
	if (!run.data || !run.readbuf || !seconds[PHASES - 1] || !seconds[0] || !seconds[1] ||
	    !seconds[2])
		err(EXIT_RUN_FAILED, "out of memory");
	for (uint64_t i = 0; i < cfg->size + 4; i += 4)
		memcpy(run.data + i, "text", 4);
	run.dirfd = open(t->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (run.dirfd < 0) {
		warn("%s", t->workdir);
		goto out_free;
	}
	for (unsigned int r = 0; r < c->runs; r++) {
		double s[PHASES];

		if (churn_once(&run, s)) {
			remove_tree_contents(t->workdir);
			goto out_close;
		}
		for (int p = 0; p < PHASES; p++)
			seconds[p][r] = s[p];
		progress(c,
			 "churn %s run %u/%u: write %.3f s, read %.3f s, "
			 "delete %.3f s, total %.3f s",
			 t->label, r + 1, c->runs, s[0], s[1], s[2], s[3]);
	}
	size_label(cfg->size, label, sizeof(label));
	table_row_begin(table);
	table_cell(table, "%s", t->label);
	table_cell(table, "%s", t->path);
	table_cell(table, "%s", cfg->preset);
	table_cell(table, "%lu", cfg->files);
	table_cell(table, "%s", label);
	table_cell(table, "%llu", (unsigned long long)cfg->size);
	table_cell(table, "%lu", cfg->rounds);
	table_cell(table, "%s", cfg->sync ? "yes" : "no");
	for (int p = 0; p < PHASES; p++)
		report_stat_cells(table, c, seconds[p], c->runs, "%.3f");
	ret = 0;
out_close:
	close(run.dirfd);
out_free:
	for (int p = 0; p < PHASES; p++)
		free(seconds[p]);
	free(run.readbuf);
	free(run.data);
	return ret;
}

static int apply_preset(struct churn_config *cfg, struct common *c)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		const struct churn_preset *p = &presets[i];

		if (strcmp(cfg->preset, p->name))
			continue;
		if (!cfg->files_set)
			cfg->files = p->files;
		if (!cfg->size_set)
			cfg->size = p->size;
		if (!cfg->rounds_set)
			cfg->rounds = p->rounds;
		if (!c->runs_set)
			c->runs = p->runs;
		return 0;
	}
	warnx("--preset: unknown preset '%s' (transient or queue)", cfg->preset);
	return -1;
}

int churn_main(int argc, char **argv)
{
	struct churn_config cfg = { NULL };
	struct subcommand_options sub = { churn_options, churn_set, &cfg };
	struct table *table = NULL;
	struct common c;
	int ret = EXIT_USAGE;

	if (parse_command_line(argc, argv, "churn", &sub, &c))
		goto out_cleanup;
	if (!cfg.preset) {
		warnx("churn: --preset transient|queue is required");
		goto out_cleanup;
	}
	if (apply_preset(&cfg, &c))
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
