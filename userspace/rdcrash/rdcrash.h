/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdcrash: every crash state a workload can leave on a ramdisk device,
 * checked. The parts: target.c drives the device through configfs,
 * apply.c writes log entries to a device, workloads.c runs the built-in
 * workloads and keeps what each promised, verdict.c mounts and checks a
 * state, crash_plan.c chooses the states (crash_zoned.c those of a zoned
 * device), jobs.c checks them on several
 * clones at once, minimise.c shrinks a failing state (ddmin.c) and names
 * the files its writes belong to (fs_objects.c), signals.c catches the
 * signals that stop a run and stop.c keeps the flag they set;
 * personality.c sets and models how the device fails at a cut.
 */
#ifndef RDCRASH_H
#define RDCRASH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "crash_plan.h"
#include "usage.h"
#include "wlog.h"

/* The checkpoint a run takes when its write log starts. */
#define CK_BASE "rdcrash-base"
#define MARK_MAX 127 /* the module's longest mark */

/* Exit statuses. */
enum {
	RC_OK = 0,
	RC_ERROR = 1, /* anything not below */
	RC_USAGE = USAGE_STATUS, /* 2 */
	RC_FAILURES = 3, /* run: some state failed its checks */
};

/* --- target.c: the device, its configfs item and the clone ---------------- */

struct target {
	char item[256]; /* its configfs directory's name */
	int index; /* N of /dev/ramdiskN */
	char dev[32];
	char clone_item[256]; /* rdcrash's clone of it, or "" */
	char clone_dev[32];
	unsigned int worker; /* whose clone: jobs.c's worker number */
};

/* NAME, ramdiskN or /dev/ramdiskN of a powered configfs device; 0 or -1 after a message. */
int target_find(const char *arg, struct target *t);
/* Writes a line to the item's attribute: 0, or the errno of the refusal. */
int target_write(const struct target *t, const char *attr, const char *line);
int target_read(const struct target *t, const char *attr, char *buf, size_t len);
/* The path of the item's attribute. */
void target_attr_path(const struct target *t, const char *attr, char *buf, size_t len);
/*
 * The clone's item (rdcrash-clone-N, or rdcrash-clone-N-W for worker W),
 * made once, with clone_of set to checkpoint ck.
 */
int target_clone_of(struct target *t, const char *ck);
/* Powers the clone on (its state: the checkpoint) or off; 0, or -1 after a message. */
int target_clone_power(struct target *t, bool on);
/* Powers the clone off and removes its item. */
void target_clone_remove(struct target *t);
/* Removes the clones an earlier run or rdcrash state left (every worker's), if any. */
void target_clone_forget(struct target *t);
/*
 * Makes the configfs item name: size bytes, writeback cache_mode, the
 * write log's limit, powered on; 0, or -1 after a message (and nothing left).
 */
int target_create(const char *name, uint64_t size, uint64_t log_limit, struct target *t);
/* Powers item name off and removes it. */
void target_destroy(const char *name);
/* A number from the disk's sysfs folder (what: "size", "queue/..."); 0 or -1 after a message. */
int target_sys_u64(const struct target *t, const char *what, uint64_t *v);
/* Writes "mark TEXT" to the write_log attribute at path: 0, or the errno. */
int target_mark(const char *path, const char *text);
/* Whether the disk is host-managed zoned (a disk without the file is not). */
bool target_is_zoned(const struct target *t);
/* Which of the disk's zones are sequential (BLKREPORTZONE); 0, or -1 after a message. */
int target_zones(const struct target *t, struct crash_zones *z);
void target_zones_free(struct crash_zones *z);
/* Resets every sequential zone of the disk; 0, or -1 after a message. */
int target_reset_zones(const struct target *t);

/* --- personality.c ------------------------------------------------------- */

/* Sets the device's power_cut_personality; 0, or -1 after a message. */
int personality_set(const struct target *t, const char *name);
/*
 * Takes the device's power_cut_personality into the log read from it (plp:
 * every data entry durable once completed); 0, or -1 after a message (one
 * rdcrash has no model for).
 */
int personality_apply(const struct target *t, struct wlog *w);

/* --- apply.c ------------------------------------------------------------- */

/* Applies entries [from, to) of w whole (data and zone commands) to the device at fd. */
int apply_entries(int fd, const struct wlog *w, size_t from, size_t to);
/* Applies a crash state's pieces. 0, or -1 with errno. */
int apply_state(int fd, const struct wlog *w, const struct crash_state *st);

/* --- workloads.c ---------------------------------------------------------- */

/* What a workload promised: from its mark on, PATH has one of these contents. */
struct fact {
	unsigned int mark; /* the number in its mark "rdcrash-N" */
	size_t entry; /* that mark's place in the log, once read */
	char path[64];
	unsigned int nr;
	int64_t len[2]; /* -1: the file does not exist */
	uint64_t hash[2];
	bool prefix; /* the file may be longer: its first len bytes count */
};

struct workload_run {
	const struct target *t;
	const char *dir; /* the mounted file system */
	uint64_t seed;
	struct fact *facts;
	size_t nr_facts, room;
	unsigned int marks;
};

/* The built-in workload NAME, or NULL. */
int (*workload_find(const char *name))(struct workload_run *run);
/* The names, one a line, with what each does. */
void workload_list(FILE *out);
/* Places each fact at its mark's entry in w: 0, or -1 after a message. */
int workload_place_facts(struct workload_run *run, const struct wlog *w);
void workload_free(struct workload_run *run);
uint64_t content_hash(const void *p, size_t len);

/* --- verdict.c ------------------------------------------------------------ */

/* A file system rdcrash formats and checks, and how. */
struct fs_kind {
	const char *name;
	const char *const
		*mkfs; /* the program and its fixed options; the user's, then DEV follow */
	const char *const *fsck; /* the read-only checker; DEV follows */
	const char *fsck_label; /* how a failure names it */
	const char *state_data; /* what each state's mount adds to the user's options */
	/* mkfs and its options on a host-managed zoned device; NULL: it cannot go on one */
	const char *const *zoned_mkfs;
};

/* The file system of a run: its kind and the user's options. */
struct fs_setup {
	const struct fs_kind *kind;
	const char *mkfs_options; /* as given, split at blanks; or NULL */
	const char *mount_options; /* as given; or NULL */
	unsigned long mount_flags; /* the generic ones of mount_options (MS_*) */
	char mount_data[512]; /* the rest, for the file system */
	bool zoned; /* made on a host-managed zoned device: kind->zoned_mkfs apply */
};

/* The kind called name, or NULL; fs_names() lists them for a message. */
const struct fs_kind *fs_find(const char *name);
const char *fs_names(void);
/* Parses the --mount-options of fs; -1 with a message in why (ro refused). */
int fs_parse_mount_options(struct fs_setup *fs, const char *opts, char *why, size_t len);
/* mount(2) of dev at dir with fs's options (and the state's, when state). */
int fs_mount(const struct fs_setup *fs, const char *dev, const char *dir, bool state);
/* Formats dev: 0, or -1 after a message. */
int fs_make(const struct fs_setup *fs, const char *dev);

/* How a state fared; detail says why it failed. */
struct verdict {
	bool ok;
	char detail[256];
};

/*
 * Mounts dev of file system fs at dir (the journal replays), checks the
 * facts in force at cut (a workload's promises) or runs check_cmd there
 * with the texts of w's marks before cut in RDCRASH_MARKS, unmounts, and
 * runs the file system's checker read-only.
 */
void verdict_check(const struct fs_setup *fs, const char *dev, const char *dir,
		   const struct fact *facts, size_t nr_facts, const struct wlog *w, size_t cut,
		   const char *check_cmd, struct verdict *v);
/*
 * Runs argv (no shell) with stdout and stderr to log (or /dev/null; "-":
 * both to rdcrash's stderr); the exit status, or -1.
 */
int run_argv(char *const argv[], const char *log);
/* The child run_argv waits for now, or 0: a signal handler passes the signal on. */
extern volatile pid_t run_child;

/* --- jobs.c: an epoch's states checked by several workers at once --------- */

/* What checking one state found; done once it was checked. */
struct job_result {
	bool done, error, ok;
	size_t cut, pieces;
	uint64_t hash; /* of what the state writes (crash_state_hash) */
	char detail[256];
};

/* Checks state index on worker w's clone into res: 0, or -1 after a message. */
typedef int (*job_fn)(void *arg, unsigned int w, unsigned int index, struct job_result *res);
/* Called in rdcrash's own process as results come in: done of them so far. */
typedef void (*job_progress_fn)(void *arg, unsigned int done);
/*
 * States 0 to n - 1, by fn on jobs worker processes at once (worker w takes
 * w, w + jobs, ...; one job runs them here), into res by state number. A
 * signal that stops the run (rdcrash_stopped) stops each worker after its
 * state. 0, or -1 if a worker met an error.
 */
int jobs_run(unsigned int jobs, unsigned int n, job_fn fn, void *arg, struct job_result *res,
	     job_progress_fn progress);
/* Passes sig on to the workers running (async-signal-safe). */
void jobs_signal(int sig);

/* --- minimise.c: a failing state shrunk to what its failure needs -------- */

struct minimise_job {
	struct target *t; /* the device of the run, its log stopped or cut */
	const struct fs_setup *fss;
	const char *check; /* the --check command judging each trial */
	size_t epoch;
	unsigned int state;
	const char *reproducer; /* the dm-log-writes file to write */
};

/*
 * Shrinks state f of w (epoch m->epoch of ep) to a smallest set of the
 * writes it lost or tore that still fails, every other write before its
 * crash point whole; prints them (stdout) and writes the reproducer.
 * RC_FAILURES when it did, RC_OK if f holds, RC_ERROR.
 */
int minimise(const struct minimise_job *m, const struct wlog *w, const struct crash_epochs *ep,
	     const struct crash_state *f);

/* fs_objects.c: "; ext4: inode 12 /a/b" for the blocks of a range, where the tools tell. */
void fs_objects_print(const struct fs_setup *fs, const char *dev, uint64_t sector,
		      uint32_t nr_sectors, FILE *out);

/* --- stop.c: whether a signal asked the run to stop ----------------------- */

/* The signal that asked it, or 0; set by the handler of signals.c. */
extern volatile sig_atomic_t stop_signal;
/* Whether a signal asked the run to stop. */
bool rdcrash_stopped(void);
/* The same, saying so on stderr when it did. */
bool stopped(void);

/* --- signals.c ------------------------------------------------------------ */

/* SIGINT, SIGTERM and SIGHUP stop the run (stop_signal) and what it runs. */
void catch_signals(void);

#endif /* RDCRASH_H */
