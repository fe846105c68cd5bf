// SPDX-License-Identifier: GPL-2.0
/*
 * rdcrash: formats a ramdisk device, runs a workload on it with the write
 * log on, then checks crash states of every flush epoch on a clone of the
 * device: mount, the workload's promises, the file system's checker.
 *
 * The states are built from checkpoints, not by replaying from the start:
 * the device itself is rolled back to the checkpoint taken before the
 * workload, then advanced one epoch at a time (a checkpoint per epoch),
 * and each state is a clone of the epoch's checkpoint, powered on (no data
 * copied) with a few of the epoch's writes applied.
 */
#include "rdcrash.h"
#include "size.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STATES_DEFAULT 8
/* by default an epoch is checked whole only where that costs no more than a sample */
#define EXHAUSTIVE_DEFAULT 0
#define EXHAUSTIVE_MAX 16
#define JOBS_MAX 64
#define BUSY_TRIES 100
#define BUSY_PAUSE_NS (50 * 1000 * 1000L)
#define SIZE_DEFAULT (256ULL << 20)
#define LOG_LIMIT_MIN (64ULL << 20)

struct opts {
	const char *fs, *workload, *check, *dev, *setup, *device, *reproducer, *personality;
	struct fs_setup fss;
	unsigned int states, exhaustive, jobs;
	uint64_t seed, size, log_limit;
	bool json, keep, made; /* made: rdcrash made the device (no DEV) */
	size_t epoch;
	unsigned int state;
	char rebuild_opts[1400]; /* the options every rebuild command repeats */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rdcrash run --fs FS --workload NAME|CMD [--check CMD] [--setup CMD]\n"
		"                   [--mkfs-options OPTS] [--mount-options OPTS] [--states N]\n"
		"                   [--exhaustive E] [-j N] [--seed S] [--json]\n"
		"                   [--personality unordered|plp|lying-flush] DEV\n"
		"       rdcrash run ... [--size SIZE] [--write-log-limit SIZE] [--keep]\n"
		"       rdcrash check --fs FS --check CMD [--states N] [--exhaustive E] [-j N]\n"
		"                     [--seed S] [--json] DEV\n"
		"       rdcrash state --seed S --epoch K --state I [--fs FS ...] DEV\n"
		"       rdcrash minimise --fs FS --check CMD --seed S --epoch K --state I\n"
		"                        [--mount-options OPTS] [--reproducer FILE] DEV\n"
		"       rdcrash mark [--device DEV] TEXT...\n"
		"Crash states a workload can leave on a ramdisk device, checked.\n"
		"run formats DEV (a configfs device in writeback cache_mode) with FS\n"
		"(%s), runs --setup CMD in it, checkpoints it, runs the\n"
		"workload with the write log on, then for each flush epoch checks up to N\n"
		"states (default %d) on a clone: mount, the workload's promises (or --check\n"
		"CMD, run in the mounted crash state), and the file system's checker\n"
		"read-only. An epoch that allows at most max(N, 2^E) states is checked\n"
		"whole, tears included, or if its subsets of whole writes number that\n"
		"few, every subset (--exhaustive E, default %d); others are sampled.\n"
		"-j N (--jobs N) checks N states at once, each on a clone of its own\n"
		"(default: the number of CPUs). --personality sets how DEV fails at a\n"
		"power cut first (power_cut_personality), and the states follow it.\n"
		"Without DEV, run makes a device of SIZE (default 256M) and removes it\n"
		"at the end (--keep keeps it for rdcrash state).\n"
		"check checks the states of the last run's log on DEV again with --check\n"
		"CMD, without running the workload.\n"
		"state rebuilds one state of the last run on a clone and prints its path.\n"
		"minimise shrinks a failing state to the fewest of its lost or torn writes\n"
		"that still fail with every other write whole, prints them, and writes a\n"
		"dm-log-writes reproducer (default rdcrash-K-I.dmlw) for replay-log.\n"
		"mark writes TEXT into the write log of the run's device, from a workload.\n"
		"Built-in workloads (anything else is a shell command run in the file\n"
		"system):\n",
		fs_names(), STATES_DEFAULT, EXHAUSTIVE_DEFAULT);
	workload_list(out);
	fprintf(out, "Exit status: 0 no failed state, 3 some failed, 1 error, 2 usage.\n"
		     "See rdcrash(1).\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!s[0] || s[0] == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int target_write_retry(const struct target *t, const char *attr, const char *line)
{
	const struct timespec pause = { 0, BUSY_PAUSE_NS };
	int err, tries = 0;

	while ((err = target_write(t, attr, line)) == EBUSY && ++tries < BUSY_TRIES)
		nanosleep(&pause, NULL);
	return err;
}

/* umount, waited for while what a stopped workload started is still exiting. */
static int umount_busy(const char *dir)
{
	const struct timespec pause = { 0, BUSY_PAUSE_NS };
	int tries = 0;

	while (umount2(dir, 0)) {
		if (errno != EBUSY || ++tries >= BUSY_TRIES)
			return -1;
		nanosleep(&pause, NULL);
	}
	return 0;
}

/* Drops what an earlier run left: its clone, its log and its checkpoints. */
static int forget_last_run(struct target *t)
{
	char list[4096], line[64], *p, *nl;
	int err;

	/* a clone pins the checkpoint it started from */
	target_clone_forget(t);
	err = target_write(t, "write_log", "clear");
	if (err) {
		warnx("%s: write_log clear: %s", t->item, strerror(err));
		return -1;
	}
	if (target_read(t, "checkpoints", list, sizeof(list)))
		return 0;
	for (p = list; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		if (!strncmp(p, "rdcrash-", 8)) {
			snprintf(line, sizeof(line), "-%.*s", (int)strcspn(p, " \n"), p);
			err = target_write(t, "checkpoints", line);
			if (err) {
				warnx("%s: dropping checkpoint %s: %s", t->item, line + 1,
				      strerror(err));
				return -1;
			}
		}
		if (!nl[1])
			break;
	}
	return 0;
}

/* Runs cmd by sh in dir, its output to ours; what is the message's name for it. */
static int run_shell(const char *cmd, const char *dir, const char *what)
{
	char *sh[] = { "sh", "-c", (char *)cmd, NULL };
	int status;

	if (chdir(dir))
		err(RC_ERROR, "%s", dir);
	status = run_argv(sh, "-");
	if (chdir("/"))
		err(RC_ERROR, "/");
	if (status) {
		warnx("%s exited %d", what, status);
		return -1;
	}
	return 0;
}

static int run_workload(const struct opts *o, struct workload_run *run)
{
	int (*fn)(struct workload_run * run) = workload_find(o->workload);

	if (fn)
		return fn(run);
	return run_shell(o->workload, run->dir, "the workload");
}

/*
 * The environment of --setup, the workload and rdcrash mark in them: the
 * device, and the write_log attribute a mark goes to
 */
static void export_device(const struct target *t)
{
	char wlog[PATH_MAX];

	target_attr_path(t, "write_log", wlog, sizeof(wlog));
	if (setenv("RDCRASH_WRITE_LOG", wlog, 1) || setenv("RDCRASH_DEVICE", t->dev, 1))
		err(RC_ERROR, "setenv");
}

/*
 * --setup CMD: run in the file system before the log starts, and made
 * durable by the unmount, so the states begin after it
 */
static int run_setup(const struct opts *o, const struct target *t, const char *dir)
{
	int e;

	if (!o->setup)
		return 0;
	if (fs_mount(&o->fss, t->dev, dir, false)) {
		warn("mount %s %s", t->dev, dir);
		return -1;
	}
	e = run_shell(o->setup, dir, "--setup");
	if (umount_busy(dir)) {
		warn("umount %s after --setup (did it leave a process in it?)", dir);
		return -1;
	}
	return e;
}

/* Appends word to buf, quoted for sh where it needs it. */
static void append_quoted(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);
	const char *p;

	if (word[0] && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_=.,/:+@%") == strlen(word)) {
		snprintf(buf + used, len - used, "%s", word);
		return;
	}
	snprintf(buf + used, len - used, "'");
	for (p = word; *p; p++) {
		used = strlen(buf);
		if (*p == '\'')
			snprintf(buf + used, len - used, "'\\''");
		else
			snprintf(buf + used, len - used, "%c", *p);
	}
	used = strlen(buf);
	snprintf(buf + used, len - used, "'");
}

/*
 * What rdcrash state needs to rebuild a state as the run made it: the
 * plan's options, and --fs with its options to say how to mount it.
 */
static void make_rebuild_opts(struct opts *o)
{
	char *b = o->rebuild_opts;
	size_t len = sizeof(o->rebuild_opts);

	/* the plan of an epoch (checked whole or sampled) depends on both */
	snprintf(b, len, " --states %u --exhaustive %u", o->states, o->exhaustive);
	if (!o->fs)
		return;
	snprintf(b + strlen(b), len - strlen(b), " --fs %s", o->fs);
	if (o->fss.mkfs_options) {
		snprintf(b + strlen(b), len - strlen(b), " --mkfs-options ");
		append_quoted(b, len, o->fss.mkfs_options);
	}
	if (o->fss.mount_options) {
		snprintf(b + strlen(b), len - strlen(b), " --mount-options ");
		append_quoted(b, len, o->fss.mount_options);
	}
}

/*
 * The unit a write tears in: the device's physical block, which a disk
 * writes whole (a 512e disk's 4 KiB), as file systems assume of their
 * superblocks; physical_block_size 512 tears at every sector.
 */
static int tear_unit(const struct target *t, uint32_t *bytes)
{
	uint64_t v;

	if (target_sys_u64(t, "queue/physical_block_size", &v) || v < 512 || v > UINT32_MAX) {
		warnx("%s: no physical block size", t->dev);
		return -1;
	}
	*bytes = (uint32_t)v;
	return 0;
}

static void ck_name(size_t k, char *buf, size_t len)
{
	if (k)
		snprintf(buf, len, "rdcrash-e%zu", k);
	else
		snprintf(buf, len, CK_BASE);
}

static int take(const struct target *t, char sign, const char *ck)
{
	char line[64];
	int err;

	snprintf(line, sizeof(line), "%c%s", sign, ck);
	err = target_write(t, "checkpoints", line);
	if (err)
		warnx("%s: checkpoints %s: %s", t->item, line, strerror(err));
	return err ? -1 : 0;
}

struct tally {
	struct libscols_table *tb;
	unsigned int checked, failed;
	const char *cover; /* the epoch's, for the table */
	size_t epochs[3]; /* epochs by enum crash_cover */
	char **fails; /* each failed state and its rebuild command, printed after the summary */
	uint64_t total; /* states the run checks in all */
	time_t run_start, start; /* when the run began, and its checking */
	bool tty; /* stderr is a terminal: a progress line rewritten in place */
};

static const char *const cover_names[] = {
	[CRASH_COVER_SAMPLE] = "sample",
	[CRASH_COVER_SUBSETS] = "subsets",
	[CRASH_COVER_ALL] = "all",
};

/* "E states" of a plan, "2^64 or more" where it saturated */
static const char *exist_text(const struct crash_epoch_plan *plan, char *buf, size_t len)
{
	if (plan->exist == UINT64_MAX)
		snprintf(buf, len, "2^64 or more");
	else
		snprintf(buf, len, "%" PRIu64, plan->exist);
	return buf;
}

static void record(struct tally *ty, const struct opts *o, size_t epoch, unsigned int index,
		   const struct job_result *v)
{
	char num[6][24], rebuild[2048];
	struct libscols_line *ln;

	ty->checked++;
	snprintf(rebuild, sizeof(rebuild),
		 "rdcrash state --seed %" PRIu64 " --epoch %zu --state %u%s ", o->seed, epoch,
		 index, o->rebuild_opts);
	append_quoted(rebuild, sizeof(rebuild), o->dev);
	if (!v->ok) {
		char **fails = realloc(ty->fails, (ty->failed + 1) * sizeof(*fails));

		if (!fails ||
		    asprintf(&fails[ty->failed], "FAIL epoch %zu state %u: %s\n    rebuild: %s\n",
			     epoch, index, v->detail, rebuild) < 0)
			errx(RC_ERROR, "out of memory");
		ty->fails = fails;
		ty->failed++;
	}
	if (!ty->tb)
		return;
	ln = scols_table_new_line(ty->tb, NULL);
	snprintf(num[0], sizeof(num[0]), "%zu", epoch);
	snprintf(num[1], sizeof(num[1]), "%u", index);
	snprintf(num[2], sizeof(num[2]), "%zu", v->cut);
	snprintf(num[3], sizeof(num[3]), "%zu", v->pieces);
	snprintf(num[4], sizeof(num[4]), "%" PRIu64, o->seed);
	snprintf(num[5], sizeof(num[5]), "%016" PRIx64, v->hash);
	if (!ln || scols_line_set_data(ln, 0, num[0]) || scols_line_set_data(ln, 1, num[1]) ||
	    scols_line_set_data(ln, 2, num[2]) || scols_line_set_data(ln, 3, num[3]) ||
	    scols_line_set_data(ln, 4, v->ok ? "ok" : "failed") ||
	    scols_line_set_data(ln, 5, v->detail) || scols_line_set_data(ln, 6, num[4]) ||
	    scols_line_set_data(ln, 7, o->fs) ||
	    scols_line_set_data(ln, 8, o->fss.mkfs_options ? o->fss.mkfs_options : "") ||
	    scols_line_set_data(ln, 9, o->fss.mount_options ? o->fss.mount_options : "") ||
	    scols_line_set_data(ln, 10, rebuild) || scols_line_set_data(ln, 11, ty->cover) ||
	    scols_line_set_data(ln, 12, num[5]))
		errx(RC_ERROR, "out of memory");
}

static struct libscols_table *states_table(void)
{
	static const struct {
		const char *name;
		int type;
	} cols[] = { { "epoch", SCOLS_JSON_NUMBER },	    { "state", SCOLS_JSON_NUMBER },
		     { "cut", SCOLS_JSON_NUMBER },	    { "pieces", SCOLS_JSON_NUMBER },
		     { "verdict", SCOLS_JSON_STRING },	    { "detail", SCOLS_JSON_STRING },
		     { "seed", SCOLS_JSON_NUMBER },	    { "fs", SCOLS_JSON_STRING },
		     { "mkfs_options", SCOLS_JSON_STRING }, { "mount_options", SCOLS_JSON_STRING },
		     { "rebuild", SCOLS_JSON_STRING },	    { "cover", SCOLS_JSON_STRING },
		     { "hash", SCOLS_JSON_STRING } };
	struct libscols_table *tb = scols_new_table();
	struct libscols_column *cl;
	size_t i;

	if (!tb || scols_table_set_name(tb, "states"))
		errx(RC_ERROR, "out of memory");
	scols_table_enable_json(tb, 1);
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		cl = scols_table_new_column(tb, cols[i].name, 0, 0);
		if (!cl || scols_column_set_json_type(cl, cols[i].type))
			errx(RC_ERROR, "out of memory");
	}
	return tb;
}

/*
 * "D/T states, F failed, about S s left": the time left from the pace so
 * far; pending are the states of the epoch under way checked but not yet
 * recorded
 */
static void progress_text(const struct tally *ty, unsigned int pending, char *buf, size_t len)
{
	long spent = (long)(time(NULL) - ty->start);
	uint64_t done = ty->checked + pending;
	int n = snprintf(buf, len, "%" PRIu64 "/%" PRIu64 " states, %u failed", done, ty->total,
			 ty->failed);

	if (done && done < ty->total && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", about %.0f s left",
			 (double)spent * (double)(ty->total - done) / (double)done);
}

/* The summary, then each failed state: what a run (or a stopped one) found. */
static void print_findings(const struct opts *o, const struct tally *ty, const char *how)
{
	FILE *out = ty->tb ? stderr : stdout;
	const char *pre = ty->tb ? "rdcrash: " : "";
	unsigned int i;

	fprintf(out, "%s%u states checked in %ld s, %u failed%s (%s, %s, seed %" PRIu64 ")\n", pre,
		ty->checked, (long)(time(NULL) - ty->run_start), ty->failed, how, o->workload,
		o->fs, o->seed);
	fprintf(out, "%sepochs: %zu checked whole, %zu every subset of whole writes, %zu sampled\n",
		pre, ty->epochs[CRASH_COVER_ALL], ty->epochs[CRASH_COVER_SUBSETS],
		ty->epochs[CRASH_COVER_SAMPLE]);
	for (i = 0; i < ty->failed; i++)
		fputs(ty->fails[i], out);
	fflush(out);
}

/*
 * A zoned device's epochs carry its zone map, which z holds (free it with
 * target_zones_free()); 0, or -1 after a message.
 */
static int epochs_zones(const struct target *t, struct crash_epochs *ep, struct crash_zones *z)
{
	if (!target_is_zoned(t))
		return 0;
	if (target_zones(t, z))
		return -1;
	ep->zones = z;
	return 0;
}

/* One state on the clone of checkpoint ck: power on, apply, judge, power off. */
static int check_state(struct target *t, const struct opts *o, const struct wlog *w,
		       const struct crash_state *st, const struct workload_run *run,
		       const char *dir, struct job_result *res)
{
	struct verdict v;
	int fd;

	if (target_clone_power(t, true))
		return -1;
	fd = open(t->clone_dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || apply_state(fd, w, st) || fsync(fd)) {
		warn("writing state %zu/%u to %s", st->epoch, st->index, t->clone_dev);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	verdict_check(&o->fss, t->clone_dev, dir, run->facts, run->nr_facts, w, st->cut, o->check,
		      &v);
	res->ok = v.ok;
	res->cut = st->cut;
	res->pieces = st->nr;
	res->hash = crash_state_hash(w, st);
	snprintf(res->detail, sizeof(res->detail), "%s", v.detail);
	return target_clone_power(t, false);
}

/* An epoch being checked, for jobs_run's workers and its progress calls. */
struct epoch_check {
	const struct opts *o;
	const struct wlog *w;
	const struct crash_epochs *ep;
	const struct crash_epoch_plan *plan;
	const struct workload_run *run;
	size_t k;
	uint32_t bs;
	struct target *workers;
	char (*dirs)[32];
	const struct tally *ty;
};

static int check_one(void *arg, unsigned int w, unsigned int index, struct job_result *res)
{
	struct epoch_check *c = arg;
	struct crash_state st;
	int e;

	if (crash_state_build(c->w, c->ep, c->k, c->plan, index, c->o->seed, c->bs, &st)) {
		warn("epoch %zu state %u", c->k, index);
		return -1;
	}
	e = check_state(&c->workers[w], c->o, c->w, &st, c->run, c->dirs[w], res);
	crash_state_free(&st);
	return e;
}

/* On a terminal, a progress line rewritten after every state. */
static void show_progress(void *arg, unsigned int done)
{
	struct epoch_check *c = arg;
	char line[128];

	if (!c->ty->tty)
		return;
	progress_text(c->ty, done, line, sizeof(line));
	fprintf(stderr, "\r\033[Krdcrash: %s", line);
}

/*
 * The device a run without DEV made, removed at exit however the run
 * ends (an error, a signal, a workload's errx): its clone and mount first
 */
static struct {
	struct target t;
	char dir[64];
	bool active, keep;
} made;

static void remove_made(void)
{
	if (!made.active)
		return;
	made.active = false;
	if (made.dir[0])
		umount_busy(made.dir);
	target_clone_forget(&made.t);
	if (made.keep) {
		fprintf(stderr,
			"rdcrash: kept %s (%s) for rdcrash state: ramdiskctl remove %s "
			"when done\n",
			made.t.item, made.t.dev, made.t.item);
		return;
	}
	target_destroy(made.t.item);
}

/*
 * Checks the crash states of the log on tp (stopped, or ended by a cut):
 * the device goes back to the checkpoint taken with the log, and forward
 * an epoch at a time; each epoch's states are checked on o->jobs clones of
 * its checkpoint at once. The verdicts, the summary and the rebuild
 * commands are printed; RC_OK, RC_FAILURES or RC_ERROR.
 */
static int check_log(struct opts *o, struct target *tp, struct workload_run *run, const char *dir,
		     uint32_t bs, time_t t0)
{
	struct crash_epoch_plan *plans = NULL;
	struct crash_zones zones = { 0 };
	struct crash_epochs ep = { 0 };
	struct job_result *res = NULL;
	struct target *workers = NULL;
	char(*dirs)[32] = NULL;
	char ck[64], prev[64], exist[32], line[128];
	struct tally ty = { 0 };
	struct wlog w = { 0 };
	bool checking = false;
	int fd, rc = RC_ERROR, e;
	unsigned int i;
	size_t k;

	fd = open(tp->dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || wlog_read(fd, &w)) {
		warn("reading the write log of %s", tp->dev);
		goto out;
	}
	close(fd);
	fd = -1;
	if (personality_apply(tp, &w) || crash_epochs_find(&w, &ep) ||
	    epochs_zones(tp, &ep, &zones) || workload_place_facts(run, &w))
		goto out;
	fprintf(stderr, "rdcrash: %s on %s: %zu log entries, %zu epochs, seed %" PRIu64 "\n",
		o->workload, o->fs, w.n, ep.nr, o->seed);

	e = target_write_retry(tp, "rollback", CK_BASE);
	if (e) {
		warnx("%s: rollback to %s: %s", tp->item, CK_BASE, strerror(e));
		goto out;
	}
	fd = open(tp->dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		warn("%s", tp->dev);
		goto out;
	}
	if (o->json)
		ty.tb = states_table();
	/* every epoch's plan first: the states in all, for the time left */
	plans = calloc(ep.nr, sizeof(*plans));
	workers = calloc(o->jobs, sizeof(*workers));
	dirs = calloc(o->jobs, sizeof(*dirs));
	if (!plans || !workers || !dirs)
		err(RC_ERROR, "out of memory");
	for (k = 0; k < ep.nr; k++) {
		crash_epoch_plan(&w, &ep, k, bs, o->exhaustive, o->states, &plans[k]);
		ty.total += plans[k].states;
	}
	/* worker w: its own clone, and a mount directory (worker 0 the workload's) */
	for (i = 0; i < o->jobs; i++) {
		workers[i] = *tp;
		workers[i].clone_item[0] = '\0';
		workers[i].worker = i;
		snprintf(dirs[i], sizeof(dirs[i]), "%s", dir);
		if (i && (snprintf(dirs[i], sizeof(dirs[i]), "%s-%u", dir, i) < 0 ||
			  mkdir(dirs[i], 0700))) {
			warn("%s", dirs[i]);
			goto out;
		}
	}
	ty.run_start = t0;
	ty.start = time(NULL);
	ty.tty = isatty(STDERR_FILENO);
	checking = true;
	prev[0] = '\0';
	for (k = 0; k < ep.nr; k++) {
		struct epoch_check c = { o, &w, &ep, &plans[k], run, k, bs, workers, dirs, &ty };

		ck_name(k, ck, sizeof(ck));
		if (k) {
			if (apply_entries(fd, &w, ep.start[k - 1], ep.start[k]) || fsync(fd)) {
				warn("advancing %s to epoch %zu", tp->dev, k);
				goto out;
			}
			if (take(tp, '+', ck))
				goto out;
		}
		/* every worker's clone moves on before the last checkpoint, which it pins, goes */
		for (i = 0; i < o->jobs; i++)
			if (target_clone_of(&workers[i], ck))
				goto out;
		if (prev[0] && strcmp(prev, CK_BASE) && take(tp, '-', prev))
			goto out;
		snprintf(prev, sizeof(prev), "%s", ck);
		ty.cover = cover_names[plans[k].cover];
		ty.epochs[plans[k].cover]++;
		free(res);
		res = calloc(plans[k].states ? plans[k].states : 1, sizeof(*res));
		if (!res)
			err(RC_ERROR, "out of memory");
		e = jobs_run(o->jobs, plans[k].states, check_one, &c, res, show_progress);
		/* in state order, whichever worker finished first */
		for (i = 0; i < plans[k].states; i++)
			if (res[i].done)
				record(&ty, o, k, i, &res[i]);
		if (stopped() || e)
			goto out;
		progress_text(&ty, 0, line, sizeof(line));
		fprintf(stderr,
			"%srdcrash: epoch %zu/%zu: %zu writes, %s states, %u checked (%s); %s\n",
			ty.tty ? "\r\033[K" : "", k + 1, ep.nr, plans[k].writes,
			exist_text(&plans[k], exist, sizeof(exist)), plans[k].states,
			plans[k].cover == CRASH_COVER_ALL     ? "all" :
			plans[k].cover == CRASH_COVER_SUBSETS ? "every subset of whole writes" :
								"a sample",
			line);
	}
	/* the device ends as the workload left it */
	if (apply_entries(fd, &w, ep.start[ep.nr - 1], w.n) || fsync(fd)) {
		warn("bringing %s to the workload's end", tp->dev);
		goto out;
	}
	for (i = 0; i < o->jobs; i++)
		target_clone_remove(&workers[i]);
	if (prev[0] && strcmp(prev, CK_BASE) && take(tp, '-', prev))
		goto out;
	checking = false;
	print_findings(o, &ty, "");
	if (ty.tb && scols_print_table(ty.tb))
		warnx("printing the table failed");
	if (ty.failed && o->made && !o->keep)
		fprintf(stderr,
			"rdcrash: %s goes now: run with --keep to rebuild failed states "
			"with rdcrash state\n",
			tp->item);
	rc = ty.failed ? RC_FAILURES : RC_OK;
out:
	/* a run stopped or failed while checking still says what it found */
	if (checking) {
		if (ty.tty)
			fputs("\r\033[K", stderr);
		print_findings(o, &ty, stopped() ? " before it was stopped" : " before an error");
	}
	if (fd >= 0)
		close(fd);
	for (i = 0; workers && i < o->jobs; i++) {
		target_clone_remove(&workers[i]);
		if (i)
			rmdir(dirs[i]);
	}
	scols_unref_table(ty.tb);
	for (i = 0; i < ty.failed; i++)
		free(ty.fails[i]);
	free(ty.fails);
	free(res);
	free(workers);
	free(dirs);
	free(plans);
	crash_epochs_free(&ep);
	target_zones_free(&zones);
	wlog_free(&w);
	return rc;
}

static int cmd_run(struct opts *o)
{
	char dir[] = "/tmp/rdcrash.XXXXXX", mode[32], state[32], name[64];
	struct workload_run run = { 0 };
	struct target *tp = &made.t;
	time_t t0 = time(NULL);
	int rc = RC_ERROR, e;
	uint32_t bs;

	catch_signals();
	if (o->made) {
		snprintf(name, sizeof(name), "rdcrash-run-%d", (int)getpid());
		if (target_create(name, o->size, o->log_limit, tp))
			return RC_ERROR;
		made.keep = o->keep;
		made.active = true;
		if (atexit(remove_made))
			err(RC_ERROR, "atexit");
		o->dev = tp->item;
		fprintf(stderr,
			"rdcrash: made %s (%s), %" PRIu64 " bytes, write_log_limit %" PRIu64 "\n",
			tp->item, tp->dev, o->size, o->log_limit);
	} else if (target_find(o->dev, tp)) {
		return RC_ERROR;
	}
	make_rebuild_opts(o);
	if (target_read(tp, "cache_mode", mode, sizeof(mode)) || strcmp(mode, "writeback")) {
		warnx("%s: cache_mode is %s: without a volatile cache the block layer sends no "
		      "flushes, and every write is durable when it completes; power it off, "
		      "write writeback to its cache_mode and power it on",
		      tp->item, mode);
		return RC_ERROR;
	}
	/* a zoned device's states keep a prefix of each zone's writes (crash_zoned.h) */
	o->fss.zoned = target_is_zoned(tp);
	if (o->fss.zoned && !o->fss.kind->zoned_mkfs) {
		warnx("%s: a host-managed zoned device, which %s cannot be made on: btrfs and "
		      "f2fs can",
		      tp->item, o->fss.kind->name);
		return RC_ERROR;
	}
	if (tear_unit(tp, &bs))
		return RC_ERROR;
	/* before anything is written: a refusal leaves the device as it was */
	if (o->personality && personality_set(tp, o->personality))
		return RC_ERROR;
	if (!mkdtemp(dir))
		err(RC_ERROR, "mkdtemp");
	snprintf(made.dir, sizeof(made.dir), "%s", dir);
	export_device(tp);
	/*
	 * mkfs runs without discards (-K, -t 0), which on a zoned device also
	 * leaves every zone as the last run left it: a file system finding
	 * data in a zone it never allocated warns (btrfs) and resets it, so
	 * the zones are reset first, as a fresh disk's are
	 */
	if (forget_last_run(tp) || (o->fss.zoned && target_reset_zones(tp)) ||
	    fs_make(&o->fss, tp->dev))
		goto out;
	e = run_setup(o, tp, dir);
	if (stopped() || e)
		goto out;
	e = target_write(tp, "write_log", "start " CK_BASE);
	if (e) {
		warnx("%s: write_log start %s: %s", tp->item, CK_BASE, strerror(e));
		goto out;
	}
	if (fs_mount(&o->fss, tp->dev, dir, false)) {
		warn("mount %s %s", tp->dev, dir);
		goto out;
	}
	run.t = tp;
	run.dir = dir;
	run.seed = o->seed;
	e = run_workload(o, &run);
	if (umount_busy(dir))
		warn("umount %s", dir);
	if (stopped() || e)
		goto out;
	e = target_write(tp, "write_log", "stop");
	/*
	 * A workload that cut the power ended the log there: it is a true
	 * history up to the cut, which is its last crash point
	 */
	if (e == EINVAL && !target_read(tp, "write_log", state, sizeof(state)) &&
	    !strcmp(state, "cut")) {
		fprintf(stderr, "rdcrash: %s: the workload cut the power: the log ends there\n",
			tp->item);
		e = 0;
	}
	if (e) {
		warnx("%s: write_log stop: %s (did the log overflow? see dmesg)", tp->item,
		      strerror(e));
		goto out;
	}

	rc = check_log(o, tp, &run, dir, bs, t0);
out:
	workload_free(&run);
	rmdir(dir);
	made.dir[0] = '\0';
	return rc;
}

/*
 * check DEV: the states of the log the last run left on DEV, checked again
 * by --check CMD (with other --states, --exhaustive or -j, say), without
 * running the workload: what a built-in workload promised is known only
 * to its run
 */
static int cmd_check(struct opts *o)
{
	char dir[] = "/tmp/rdcrash.XXXXXX", state[32];
	struct workload_run run = { 0 };
	struct target t;
	time_t t0 = time(NULL);
	uint32_t bs;
	int rc;

	catch_signals();
	if (target_find(o->dev, &t))
		return RC_ERROR;
	make_rebuild_opts(o);
	if (target_read(&t, "write_log", state, sizeof(state)) ||
	    (strcmp(state, "stopped") && strcmp(state, "cut"))) {
		warnx("%s has no write log of a finished rdcrash run (its log is %s)", t.item,
		      state);
		return RC_ERROR;
	}
	if (tear_unit(&t, &bs))
		return RC_ERROR;
	target_clone_forget(&t);
	if (!mkdtemp(dir))
		err(RC_ERROR, "mkdtemp");
	run.t = &t;
	run.dir = dir;
	run.seed = o->seed;
	rc = check_log(o, &t, &run, dir, bs, t0);
	rmdir(dir);
	return rc;
}

/*
 * The last run's log on o->dev and state o->state of epoch o->epoch in it,
 * for state and minimise: RC_OK, or RC_ERROR or RC_USAGE after a message
 * (and nothing left to free).
 */
static int load_state(const struct opts *o, struct target *t, struct wlog *w,
		      struct crash_epochs *ep, struct crash_state *st)
{
	struct crash_zones zones = { 0 };
	struct crash_epoch_plan plan;
	int fd, rc = RC_ERROR;
	uint32_t bs;

	if (target_find(o->dev, t))
		return RC_ERROR;
	fd = open(t->dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || wlog_read(fd, w)) {
		warn("reading the write log of %s", t->dev);
		if (fd >= 0)
			close(fd);
		return RC_ERROR;
	}
	close(fd);
	/* a log that a power cut ended is whole up to the cut */
	if ((w->state != RAMDISK_WLOG_STOPPED && w->state != RAMDISK_WLOG_CUT) || !w->n) {
		warnx("%s has no write log of a finished rdcrash run", t->item);
		goto out;
	}
	if (personality_apply(t, w))
		goto out;
	if (crash_epochs_find(w, ep))
		err(RC_ERROR, "out of memory");
	if (epochs_zones(t, ep, &zones))
		goto out;
	if (o->epoch >= ep->nr) {
		warnx("the log has %zu epochs: --epoch %zu is past them", ep->nr, o->epoch);
		rc = RC_USAGE;
		goto out;
	}
	if (tear_unit(t, &bs))
		goto out;
	crash_epoch_plan(w, ep, o->epoch, bs, o->exhaustive, o->states, &plan);
	if (plan.cover != CRASH_COVER_SAMPLE && o->state >= plan.states) {
		warnx("epoch %zu is checked whole (--exhaustive %u, --states %u): its states are "
		      "0 to %u",
		      o->epoch, o->exhaustive, o->states, plan.states - 1);
		rc = RC_USAGE;
		goto out;
	}
	if (crash_state_build(w, ep, o->epoch, &plan, o->state, o->seed, bs, st))
		goto out;
	ep->zones = NULL;
	target_zones_free(&zones);
	return RC_OK;
out:
	target_zones_free(&zones);
	crash_epochs_free(ep);
	wlog_free(w);
	return rc;
}

/* Rebuilds one state on the clone, slowly but alone: base, the epochs before, the pieces. */
static int cmd_state(struct opts *o)
{
	struct crash_epochs ep = { 0 };
	struct crash_state st = { 0 };
	struct target t;
	struct wlog w = { 0 };
	int fd, rc;

	rc = load_state(o, &t, &w, &ep, &st);
	if (rc)
		return rc;
	rc = RC_ERROR;
	if (target_clone_of(&t, CK_BASE) || target_clone_power(&t, true))
		goto out;
	fd = open(t.clone_dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || apply_entries(fd, &w, 0, ep.start[o->epoch]) || apply_state(fd, &w, &st) ||
	    fsync(fd)) {
		warn("writing the state to %s", t.clone_dev);
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	printf("%s\n", t.clone_dev);
	fprintf(stderr,
		"rdcrash: epoch %zu state %u of seed %" PRIu64 " is on %s (configfs %s); "
		"ramdiskctl remove %s when done\n",
		o->epoch, o->state, o->seed, t.clone_dev, t.clone_item, t.clone_item);
	if (o->fs) {
		char how[1400] = "";

		if (o->fss.mount_options) {
			snprintf(how, sizeof(how), " -o ");
			append_quoted(how, sizeof(how), o->fss.mount_options);
		}
		if (o->fss.kind->state_data)
			snprintf(how + strlen(how), sizeof(how) - strlen(how), "%s%s",
				 how[0] ? "," : " -o ", o->fss.kind->state_data);
		fprintf(stderr,
			"rdcrash: as the run did: mount -t %s%s %s DIR; then umount and %s %s\n",
			o->fs, how, t.clone_dev, o->fss.kind->fsck_label, t.clone_dev);
	}
	rc = RC_OK;
out:
	crash_state_free(&st);
	crash_epochs_free(&ep);
	wlog_free(&w);
	return rc;
}

/* minimise: the state shrunk to what its failure needs, and a reproducer */
static int cmd_minimise(struct opts *o)
{
	struct crash_epochs ep = { 0 };
	struct crash_state st = { 0 };
	char file[64];
	struct minimise_job m;
	struct target t;
	struct wlog w = { 0 };
	int rc;

	catch_signals();
	rc = load_state(o, &t, &w, &ep, &st);
	if (rc)
		return rc;
	/* ddmin drops pieces anywhere, which would leave holes in a zone */
	if (target_is_zoned(&t)) {
		warnx("%s: a host-managed zoned device: minimise does not shrink its states yet "
		      "(what a zone keeps must stay a prefix of its writes); rdcrash state "
		      "rebuilds the state whole",
		      t.item);
		rc = RC_ERROR;
		goto out;
	}
	target_clone_forget(&t);
	if (!o->reproducer) {
		snprintf(file, sizeof(file), "rdcrash-%zu-%u.dmlw", o->epoch, o->state);
		o->reproducer = file;
	}
	m = (struct minimise_job){ &t, &o->fss, o->check, o->epoch, o->state, o->reproducer };
	rc = minimise(&m, &w, &ep, &st);
out:
	crash_state_free(&st);
	crash_epochs_free(&ep);
	wlog_free(&w);
	return rc;
}

/*
 * mark TEXT: into the write log of --device DEV, or of the run whose
 * workload this is (RDCRASH_WRITE_LOG, else RDCRASH_DEVICE)
 */
static int cmd_mark(const char *device, int argc, char **argv)
{
	const char *wlog = getenv("RDCRASH_WRITE_LOG"), *env_dev = getenv("RDCRASH_DEVICE");
	char text[MARK_MAX + 2] = "", path[PATH_MAX];
	struct target t;
	size_t len;
	int i, e;

	if (!argc)
		return usage_error(NULL, "mark needs a TEXT");
	for (i = 0; i < argc; i++) {
		len = strlen(text);
		if (len + (i ? 1 : 0) + strlen(argv[i]) > MARK_MAX)
			return usage_error(NULL, "mark: the text has more than 127 characters");
		snprintf(text + len, sizeof(text) - len, "%s%s", i ? " " : "", argv[i]);
	}
	for (i = 0; text[i]; i++)
		if (text[i] < 0x20 || text[i] > 0x7e)
			return usage_error(NULL, "mark: the text is printable ASCII on one line");
	if (!text[0])
		return usage_error(NULL, "mark needs a TEXT");
	if (device || (!(wlog && wlog[0]) && env_dev && env_dev[0])) {
		if (target_find(device ? device : env_dev, &t))
			return RC_ERROR;
		target_attr_path(&t, "write_log", path, sizeof(path));
		wlog = path;
	} else if (!wlog || !wlog[0]) {
		return usage_error(NULL, "mark: which device? run it in an rdcrash workload "
					 "(RDCRASH_WRITE_LOG) or give --device DEV");
	}
	e = target_mark(wlog, text);
	if (e) {
		warnx("mark '%s' to %s: %s%s", text, wlog, strerror(e),
		      e == EINVAL ? " (is the write log recording? see dmesg)" : "");
		return RC_ERROR;
	}
	return RC_OK;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fs", required_argument, NULL, 'f' },
		{ "workload", required_argument, NULL, 'w' },
		{ "check", required_argument, NULL, 'c' },
		{ "states", required_argument, NULL, 'n' },
		{ "exhaustive", required_argument, NULL, 'x' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "state", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'O' },
		{ "mkfs-options", required_argument, NULL, 'M' },
		{ "mount-options", required_argument, NULL, 'o' },
		{ "setup", required_argument, NULL, 'S' },
		{ "size", required_argument, NULL, 'z' },
		{ "write-log-limit", required_argument, NULL, 'L' },
		{ "keep", no_argument, NULL, 'k' },
		{ "device", required_argument, NULL, 'd' },
		{ "reproducer", required_argument, NULL, 'r' },
		{ "personality", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .states = STATES_DEFAULT, .exhaustive = EXHAUSTIVE_DEFAULT };
	bool have_seed = false, have_epoch = false, have_state = false, have_size = false;
	const char *cmd, *mount_opts = NULL;
	char why[256];
	uint64_t v;
	int opt;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return RC_OK;
	}
	if (argc < 2)
		return usage_error(NULL, "run, check, state, minimise or mark?");
	cmd = argv[1];
	if (strcmp(cmd, "run") && strcmp(cmd, "check") && strcmp(cmd, "state") &&
	    strcmp(cmd, "minimise") && strcmp(cmd, "mark"))
		return usage_error(
			NULL, "unknown command '%s': run, check, state, minimise or mark", cmd);
	argc--;
	argv++;
	while ((opt = getopt_long(argc, argv, ":f:w:c:n:x:j:s:e:i:M:o:S:z:L:kd:r:P:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'f':
			o.fs = optarg;
			break;
		case 'w':
			o.workload = optarg;
			break;
		case 'c':
			o.check = optarg;
			break;
		case 'n':
			if (parse_u64(optarg, &v) || !v || v > 100000)
				return usage_error(NULL, "--states '%s' is not 1 to 100000",
						   optarg);
			o.states = (unsigned int)v;
			break;
		case 'j':
			if (parse_u64(optarg, &v) || !v || v > JOBS_MAX)
				return usage_error(NULL, "-j '%s' is not 1 to 64", optarg);
			o.jobs = (unsigned int)v;
			break;
		case 'x':
			if (parse_u64(optarg, &v) || v > EXHAUSTIVE_MAX)
				return usage_error(NULL, "--exhaustive '%s' is not 0 to 16",
						   optarg);
			o.exhaustive = (unsigned int)v;
			break;
		case 's':
			if (parse_u64(optarg, &o.seed))
				return usage_error(NULL, "--seed '%s' is not a number", optarg);
			have_seed = true;
			break;
		case 'e':
			if (parse_u64(optarg, &v) || v > 1000000000)
				return usage_error(NULL, "--epoch '%s' is not an epoch number",
						   optarg);
			o.epoch = (size_t)v;
			have_epoch = true;
			break;
		case 'i':
			if (parse_u64(optarg, &v) || v > 100000)
				return usage_error(NULL, "--state '%s' is not 0 to 100000", optarg);
			o.state = (unsigned int)v;
			have_state = true;
			break;
		case 'O':
			o.json = true;
			break;
		case 'M':
			o.fss.mkfs_options = optarg;
			break;
		case 'o':
			mount_opts = optarg;
			break;
		case 'S':
			o.setup = optarg;
			break;
		case 'z':
			/* btrfs needs 114 MiB; the module takes at most what memory holds */
			if (size_parse(optarg, &o.size, NULL) || o.size < (128ULL << 20) ||
			    o.size % 4096)
				return usage_error(
					NULL, "--size '%s' is not whole 4 KiB blocks from 128M",
					optarg);
			have_size = true;
			break;
		case 'L':
			if (size_parse(optarg, &o.log_limit, NULL) || !o.log_limit)
				return usage_error(NULL, "--write-log-limit '%s' is not a size",
						   optarg);
			break;
		case 'k':
			o.keep = true;
			break;
		case 'd':
			o.device = optarg;
			break;
		case 'r':
			o.reproducer = optarg;
			break;
		case 'P':
			if (!strcmp(optarg, "misdirected"))
				return usage_error(
					NULL, "--personality misdirected has no crash model: a "
					      "state could hold any cached write at any address");
			if (!strcmp(optarg, "torn-media-error"))
				return usage_error(NULL,
						   "--personality torn-media-error has no crash "
						   "model: a state is an image, and an image "
						   "has no unreadable blocks");
			if (strcmp(optarg, "unordered") && strcmp(optarg, "plp") &&
			    strcmp(optarg, "lying-flush"))
				return usage_error(NULL,
						   "--personality '%s' is not unordered, plp or "
						   "lying-flush",
						   optarg);
			o.personality = optarg;
			break;
		case 'h':
			usage(stdout);
			return RC_OK;
		default:
			return option_error(NULL, argv, opt);
		}
	}
	if (!strcmp(cmd, "mark"))
		return cmd_mark(o.device, argc - optind, argv + optind);
	if (o.device)
		return usage_error(NULL, "--device is for mark; run and state take DEV");
	if (o.reproducer && strcmp(cmd, "minimise"))
		return usage_error(NULL, "--reproducer is for minimise");
	if (o.personality && strcmp(cmd, "run"))
		return usage_error(NULL, "--personality is for run: the others follow the "
					 "device's power_cut_personality");
	if (argc - optind > 1 || (argc - optind == 0 && strcmp(cmd, "run")))
		return usage_error(NULL, "takes one device: NAME, ramdiskN or /dev/ramdiskN");
	o.dev = argc > optind ? argv[optind] : NULL;
	o.made = !o.dev;
	if (o.fs) {
		o.fss.kind = fs_find(o.fs);
		if (!o.fss.kind)
			return usage_error(NULL, "--fs '%s': ext2, ext3, ext4, xfs, btrfs or f2fs",
					   o.fs);
	}
	if (mount_opts && fs_parse_mount_options(&o.fss, mount_opts, why, sizeof(why)))
		return usage_error(NULL, "%s", why);
	if (!strcmp(cmd, "state")) {
		if (!have_seed || !have_epoch || !have_state)
			return usage_error(NULL, "state needs --seed, --epoch and --state");
		if (!o.fs && (o.fss.mkfs_options || mount_opts))
			return usage_error(NULL, "--mkfs-options and --mount-options go with --fs");
		return cmd_state(&o);
	}
	if (!o.fs)
		return usage_error(NULL, "--fs '%s': ext2, ext3, ext4, xfs, btrfs or f2fs", "");
	if (!have_seed && getrandom(&o.seed, sizeof(o.seed), 0) != sizeof(o.seed))
		o.seed = (uint64_t)time(NULL);
	if (!have_seed)
		o.seed %= 1000000000;
	if (!o.jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		o.jobs = cpus < 1 ? 1 : cpus > JOBS_MAX ? JOBS_MAX : (unsigned int)cpus;
	}
	if (!strcmp(cmd, "minimise")) {
		if (!have_seed || !have_epoch || !have_state)
			return usage_error(NULL, "minimise needs --seed, --epoch and --state");
		if (!o.check)
			return usage_error(NULL, "minimise needs --check CMD: what a built-in "
						 "workload promised is known only to its run");
		if (o.workload || o.setup || o.fss.mkfs_options || have_size || o.log_limit ||
		    o.keep || o.json)
			return usage_error(NULL, "minimise takes no --workload, --setup, "
						 "--mkfs-options, --size, --write-log-limit, "
						 "--keep or --json: it works on the log the last "
						 "run left");
		return cmd_minimise(&o);
	}
	if (!strcmp(cmd, "check")) {
		if (!o.check)
			return usage_error(NULL, "check needs --check CMD: what a built-in "
						 "workload promised is known only to its run");
		if (o.workload || o.setup || o.fss.mkfs_options || have_size || o.log_limit ||
		    o.keep)
			return usage_error(NULL, "%s",
					   "check takes no --workload, --setup, "
					   "--mkfs-options, --size, --write-log-limit or --keep: "
					   "it checks the log the last run left");
		o.workload = "the last run's log";
		return cmd_check(&o);
	}
	if (!o.workload)
		return usage_error(NULL, "run needs --workload NAME or CMD");
	if (!o.made && (have_size || o.log_limit || o.keep))
		return usage_error(NULL, "--size, --write-log-limit and --keep are for the device "
					 "run makes without DEV");
	if (o.made) {
		if (!have_size)
			o.size = SIZE_DEFAULT;
		/* what a workload writes, twice over, as rewrites are logged again */
		if (!o.log_limit)
			o.log_limit = o.size * 2 > LOG_LIMIT_MIN ? o.size * 2 : LOG_LIMIT_MIN;
	}
	return cmd_run(&o);
}
