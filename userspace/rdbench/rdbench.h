/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdbench: the state shared by the subcommands, the target preparation
 * and the report helpers.
 */
#ifndef RDBENCH_H
#define RDBENCH_H

#include "output.h"

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses: 1 run-time failure, 2 usage or refused target. */
enum {
	EXIT_RUN_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_INTERRUPTED = 130,
};

enum target_kind {
	TARGET_DIR,
	TARGET_FILE,
	TARGET_BLOCKDEV,
};

struct target {
	char *path;
	char *label;
	enum target_kind kind;
	/* DIR/rdbench.PID: everything a directory target's run creates */
	char *workdir;
	/* file or device that bw and pair read and write */
	char *datapath;
	/* the DIR, or bw's file, did not exist and was made by us */
	bool created_path;
	bool created_datafile;
	/* an existing empty file that bw filled: emptied again at the end */
	bool restore_empty;
	uint64_t dev_size;
};

struct common {
	unsigned int runs;
	bool runs_set;
	enum output_format format;
	bool force;
	bool destroy_data;
	bool progress;
	struct target *targets;
	size_t ntargets;
};

/*
 * A subcommand's own options: getopt_long entries (val >= 256), and the
 * handler that stores one; it prints its own message and returns -1 on a
 * bad value.
 */
struct subcommand_options {
	const struct option *longopts;
	int (*set)(void *cfg, int opt, const char *arg);
	void *cfg;
};

/* args.c: the command line every subcommand takes */
int parse_command_line(int argc, char **argv, const char *cmd, const struct subcommand_options *sub,
		       struct common *c);
int parse_unsigned(const char *opt, const char *arg, unsigned long min, unsigned long max,
		   unsigned long *out);
int parse_size_arg(const char *opt, const char *arg, uint64_t *out);
int parse_size_list(const char *opt, const char *arg, uint64_t *out, size_t max, size_t *n);

/* help.c */
void usage_all(FILE *out);
void usage_subcommand(const char *cmd, FILE *out);
void print_timer_note(FILE *out);

/* The subcommands, each in its own file; main.c runs them. */
int meta_main(int argc, char **argv);
int churn_main(int argc, char **argv);
int smallwrite_main(int argc, char **argv);
int bw_main(int argc, char **argv);
int pair_main(int argc, char **argv);
int median_main(int argc, char **argv);

/* safety.c: refusals, cleanup, interruption */
extern volatile sig_atomic_t rdbench_stop;
void safety_init(void);
/* Check a directory target and make its private work directory. */
int target_prepare_dir(struct target *t, const struct common *c);
/*
 * Check a bw or pair target: a directory (a data file in its work directory), a
 * regular file, or a block device; size 0 means the device's size.
 */
int target_prepare_data(struct target *t, const struct common *c, uint64_t *size);
/* Remove everything the targets' preparation and runs created. */
void targets_cleanup(struct common *c);
/* Empty a work directory (after each run) without removing it. */
int remove_tree_contents(const char *dir);

/* io.c */
int write_full(int fd, const void *buf, size_t len);
/* Read until len bytes or end of file; returns bytes read or -1. */
ssize_t read_full(int fd, void *buf, size_t len);
void progress(const struct common *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* report.c */
struct table *report_new(const struct common *c);
/*
 * Columns NAME, NAME_min, NAME_max and NAME_runs (every run's raw
 * figure); min and max appear in the human table only when asked.
 */
int report_stat_columns(struct table *t, const char *name, bool human_range);
/* Fill the four cells that report_stat_columns() made. */
int report_stat_cells(struct table *t, const struct common *c, const double *values, size_t n,
		      const char *human_fmt);
double report_median(const double *values, size_t n);
int report_print(struct table *t, const struct common *c);
void size_label(uint64_t bytes, char *buf, size_t len);

#endif /* RDBENCH_H */
