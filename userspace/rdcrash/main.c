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
#include <time.h>
#include <unistd.h>

#define CK_BASE "rdcrash-base"
#define STATES_DEFAULT 8
#define BUSY_TRIES 100
#define BUSY_PAUSE_NS (50 * 1000 * 1000L)

struct opts {
	const char *fs, *workload, *check, *dev;
	unsigned int states;
	uint64_t seed;
	bool json;
	size_t epoch;
	unsigned int state;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rdcrash run --fs FS --workload NAME|CMD [--check CMD] [--states N]\n"
		"                   [--seed S] [--json] DEV\n"
		"       rdcrash state --seed S --epoch K --state I DEV\n"
		"Crash states a workload can leave on a ramdisk device, checked.\n"
		"run formats DEV (a configfs device in writeback cache_mode) with FS\n"
		"(ext2, ext3, ext4 or xfs), checkpoints it, runs the workload with the\n"
		"write log on, then for each flush epoch checks up to N states (default\n"
		"%d) on a clone: mount, the workload's promises (or --check CMD, run in\n"
		"the mounted crash state), and the file system's checker read-only.\n"
		"state rebuilds one state of the last run on a clone and prints its path.\n"
		"Built-in workloads (anything else is a shell command run in the file\n"
		"system):\n",
		STATES_DEFAULT);
	workload_list(out);
	fprintf(out, "Exit status: 0 no failed state, 3 some failed, 1 error, 2 usage.\n"
		     "See rdcrash(1).\n");
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "rdcrash: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'rdcrash --help'.\n");
	return RC_USAGE;
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

static int make_fs(const char *fs, const char *dev)
{
	char *ext[] = { NULL, "-q", "-F", "-E", "nodiscard", (char *)dev, NULL };
	char *xfs[] = { "mkfs.xfs", "-q", "-f", "-K", (char *)dev, NULL };
	char prog[32];
	int status;

	snprintf(prog, sizeof(prog), "mkfs.%s", fs);
	ext[0] = prog;
	status = run_argv(strcmp(fs, "xfs") ? ext : xfs, NULL);
	if (status) {
		warnx("%s %s exited %d", prog, dev, status);
		return -1;
	}
	return 0;
}

static int run_workload(const struct opts *o, struct workload_run *run)
{
	int (*fn)(struct workload_run * run) = workload_find(o->workload);
	char *sh[] = { "sh", "-c", (char *)o->workload, NULL };
	char wlog[PATH_MAX];
	int status;

	if (fn)
		return fn(run);
	/* so that the command can mark the log where its own promises begin */
	target_attr_path(run->t, "write_log", wlog, sizeof(wlog));
	if (setenv("RDCRASH_WRITE_LOG", wlog, 1) || setenv("RDCRASH_DEVICE", run->t->dev, 1))
		err(RC_ERROR, "setenv");
	if (chdir(run->dir))
		err(RC_ERROR, "%s", run->dir);
	status = run_argv(sh, NULL);
	if (chdir("/"))
		err(RC_ERROR, "/");
	if (status) {
		warnx("the workload exited %d", status);
		return -1;
	}
	return 0;
}

/*
 * The unit a write tears in: the device's physical block, which a disk
 * writes whole (a 512e disk's 4 KiB), as file systems assume of their
 * superblocks; physical_block_size 512 tears at every sector.
 */
static int tear_unit(const struct target *t, uint32_t *bytes)
{
	char path[128], buf[32];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/physical_block_size", t->dev + 5);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f) || atoi(buf) < 512) {
		warnx("cannot read %s", path);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	*bytes = (uint32_t)atoi(buf);
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
};

static void record(struct tally *ty, const struct opts *o, const struct crash_state *st,
		   const struct verdict *v)
{
	char num[4][24];
	struct libscols_line *ln;

	ty->checked++;
	if (!v->ok) {
		ty->failed++;
		if (!o->json)
			printf("FAIL epoch %zu state %u: %s\n    rebuild: rdcrash state --seed "
			       "%" PRIu64 " --epoch %zu --state %u %s\n",
			       st->epoch, st->index, v->detail, o->seed, st->epoch, st->index,
			       o->dev);
	}
	if (!ty->tb)
		return;
	ln = scols_table_new_line(ty->tb, NULL);
	snprintf(num[0], sizeof(num[0]), "%zu", st->epoch);
	snprintf(num[1], sizeof(num[1]), "%u", st->index);
	snprintf(num[2], sizeof(num[2]), "%zu", st->cut);
	snprintf(num[3], sizeof(num[3]), "%zu", st->nr);
	if (!ln || scols_line_set_data(ln, 0, num[0]) || scols_line_set_data(ln, 1, num[1]) ||
	    scols_line_set_data(ln, 2, num[2]) || scols_line_set_data(ln, 3, num[3]) ||
	    scols_line_set_data(ln, 4, v->ok ? "ok" : "failed") ||
	    scols_line_set_data(ln, 5, v->detail))
		errx(RC_ERROR, "out of memory");
}

static struct libscols_table *states_table(void)
{
	static const struct {
		const char *name;
		int type;
	} cols[] = { { "epoch", SCOLS_JSON_NUMBER },   { "state", SCOLS_JSON_NUMBER },
		     { "cut", SCOLS_JSON_NUMBER },     { "pieces", SCOLS_JSON_NUMBER },
		     { "verdict", SCOLS_JSON_STRING }, { "detail", SCOLS_JSON_STRING } };
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

/* One state on the clone of checkpoint ck: power on, apply, judge, power off. */
static int check_state(struct target *t, const struct opts *o, const struct wlog *w,
		       const struct crash_state *st, const struct workload_run *run,
		       const char *dir, struct tally *ty)
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
	verdict_check(o->fs, t->clone_dev, dir, run->facts, run->nr_facts, w, st->cut, o->check,
		      &v);
	record(ty, o, st, &v);
	return target_clone_power(t, false);
}

static int cmd_run(struct opts *o)
{
	struct workload_run run = { 0 };
	char dir[] = "/tmp/rdcrash.XXXXXX", mode[32], ck[64], prev[64], state[32];
	struct crash_epochs ep = { 0 };
	struct tally ty = { 0 };
	struct crash_state st;
	struct target t;
	struct wlog w = { 0 };
	unsigned int i, n;
	time_t t0 = time(NULL);
	int fd = -1, rc = RC_ERROR, e;
	size_t k;
	uint32_t bs;

	if (target_find(o->dev, &t))
		return RC_ERROR;
	if (target_read(&t, "cache_mode", mode, sizeof(mode)) || strcmp(mode, "writeback")) {
		warnx("%s: cache_mode is %s: without a volatile cache the block layer sends no "
		      "flushes, and every write is durable when it completes; power it off, "
		      "write writeback to its cache_mode and power it on",
		      t.item, mode);
		return RC_ERROR;
	}
	if (tear_unit(&t, &bs))
		return RC_ERROR;
	if (!mkdtemp(dir))
		err(RC_ERROR, "mkdtemp");
	if (forget_last_run(&t) || make_fs(o->fs, t.dev))
		goto out;
	e = target_write(&t, "write_log", "start " CK_BASE);
	if (e) {
		warnx("%s: write_log start %s: %s", t.item, CK_BASE, strerror(e));
		goto out;
	}
	if (mount(t.dev, dir, o->fs, 0, NULL)) {
		warn("mount %s %s", t.dev, dir);
		goto out;
	}
	run.t = &t;
	run.dir = dir;
	run.seed = o->seed;
	e = run_workload(o, &run);
	if (umount2(dir, 0))
		warn("umount %s", dir);
	if (e)
		goto out;
	e = target_write(&t, "write_log", "stop");
	/*
	 * A workload that cut the power ended the log there: it is a true
	 * history up to the cut, which is its last crash point
	 */
	if (e == EINVAL && !target_read(&t, "write_log", state, sizeof(state)) &&
	    !strcmp(state, "cut")) {
		fprintf(stderr, "rdcrash: %s: the workload cut the power: the log ends there\n",
			t.item);
		e = 0;
	}
	if (e) {
		warnx("%s: write_log stop: %s (did the log overflow? see dmesg)", t.item,
		      strerror(e));
		goto out;
	}

	fd = open(t.dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || wlog_read(fd, &w)) {
		warn("reading the write log of %s", t.dev);
		goto out;
	}
	close(fd);
	if (crash_epochs_find(&w, &ep) || workload_place_facts(&run, &w))
		goto out;
	fprintf(stderr, "rdcrash: %s on %s: %zu log entries, %zu epochs, seed %" PRIu64 "\n",
		o->workload, o->fs, w.n, ep.nr, o->seed);

	/* the device goes back to before the workload, and forward an epoch at a time */
	e = target_write_retry(&t, "rollback", CK_BASE);
	if (e) {
		warnx("%s: rollback to %s: %s", t.item, CK_BASE, strerror(e));
		goto out;
	}
	fd = open(t.dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		warn("%s", t.dev);
		goto out;
	}
	if (o->json)
		ty.tb = states_table();
	prev[0] = '\0';
	for (k = 0; k < ep.nr; k++) {
		ck_name(k, ck, sizeof(ck));
		if (k) {
			if (apply_entries(fd, &w, ep.start[k - 1], ep.start[k]) || fsync(fd)) {
				warn("advancing %s to epoch %zu", t.dev, k);
				goto out;
			}
			if (take(&t, '+', ck))
				goto out;
		}
		if (target_clone_of(&t, ck))
			goto out;
		if (prev[0] && strcmp(prev, CK_BASE) && take(&t, '-', prev))
			goto out;
		snprintf(prev, sizeof(prev), "%s", ck);
		n = crash_epoch_states(&w, &ep, k, o->states);
		for (i = 0; i < n; i++) {
			if (crash_state_make(&w, &ep, k, i, o->seed, bs, &st))
				err(RC_ERROR, "out of memory");
			e = check_state(&t, o, &w, &st, &run, dir, &ty);
			crash_state_free(&st);
			if (e)
				goto out;
		}
		fprintf(stderr, "rdcrash: epoch %zu/%zu: %u states, %u failed so far\n", k + 1,
			ep.nr, n, ty.failed);
	}
	/* the device ends as the workload left it */
	if (apply_entries(fd, &w, ep.start[ep.nr - 1], w.n) || fsync(fd)) {
		warn("bringing %s to the workload's end", t.dev);
		goto out;
	}
	target_clone_remove(&t);
	if (prev[0] && strcmp(prev, CK_BASE) && take(&t, '-', prev))
		goto out;
	if (ty.tb) {
		if (scols_print_table(ty.tb))
			warnx("printing the table failed");
	} else {
		printf("%u states checked in %ld s, %u failed (%s, %s, seed %" PRIu64 ")\n",
		       ty.checked, (long)(time(NULL) - t0), ty.failed, o->workload, o->fs, o->seed);
	}
	rc = ty.failed ? RC_FAILURES : RC_OK;
out:
	if (fd >= 0)
		close(fd);
	target_clone_remove(&t);
	scols_unref_table(ty.tb);
	crash_epochs_free(&ep);
	wlog_free(&w);
	workload_free(&run);
	rmdir(dir);
	return rc;
}

/* Rebuilds one state on the clone, slowly but alone: base, the epochs before, the pieces. */
static int cmd_state(struct opts *o)
{
	struct crash_epochs ep = { 0 };
	struct crash_state st = { 0 };
	struct target t;
	struct wlog w = { 0 };
	int fd, rc = RC_ERROR;
	uint32_t bs;

	if (target_find(o->dev, &t))
		return RC_ERROR;
	fd = open(t.dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || wlog_read(fd, &w)) {
		warn("reading the write log of %s", t.dev);
		if (fd >= 0)
			close(fd);
		return RC_ERROR;
	}
	close(fd);
	/* a log that a power cut ended is whole up to the cut */
	if ((w.state != RAMDISK_WLOG_STOPPED && w.state != RAMDISK_WLOG_CUT) || !w.n) {
		warnx("%s has no write log of a finished rdcrash run", t.item);
		goto out;
	}
	if (crash_epochs_find(&w, &ep))
		err(RC_ERROR, "out of memory");
	if (o->epoch >= ep.nr) {
		warnx("the log has %zu epochs: --epoch %zu is past them", ep.nr, o->epoch);
		rc = RC_USAGE;
		goto out;
	}
	if (tear_unit(&t, &bs) || crash_state_make(&w, &ep, o->epoch, o->state, o->seed, bs, &st))
		goto out;
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
	rc = RC_OK;
out:
	crash_state_free(&st);
	crash_epochs_free(&ep);
	wlog_free(&w);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fs", required_argument, NULL, 'f' },
		{ "workload", required_argument, NULL, 'w' },
		{ "check", required_argument, NULL, 'c' },
		{ "states", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "state", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .states = STATES_DEFAULT };
	bool have_seed = false, have_epoch = false, have_state = false;
	const char *cmd;
	uint64_t v;
	int opt;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return RC_OK;
	}
	if (argc < 2)
		return usage_error("%s", "run or state?");
	cmd = argv[1];
	if (strcmp(cmd, "run") && strcmp(cmd, "state"))
		return usage_error("unknown command '%s': run or state", cmd);
	argc--;
	argv++;
	while ((opt = getopt_long(argc, argv, ":f:w:c:n:s:e:i:jh", longopts, NULL)) != -1) {
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
				return usage_error("--states '%s' is not 1 to 100000", optarg);
			o.states = (unsigned int)v;
			break;
		case 's':
			if (parse_u64(optarg, &o.seed))
				return usage_error("--seed '%s' is not a number", optarg);
			have_seed = true;
			break;
		case 'e':
			if (parse_u64(optarg, &v) || v > 1000000000)
				return usage_error("--epoch '%s' is not an epoch number", optarg);
			o.epoch = (size_t)v;
			have_epoch = true;
			break;
		case 'i':
			if (parse_u64(optarg, &v) || v > 100000)
				return usage_error("--state '%s' is not 0 to 100000", optarg);
			o.state = (unsigned int)v;
			have_state = true;
			break;
		case 'j':
			o.json = true;
			break;
		case 'h':
			usage(stdout);
			return RC_OK;
		case ':':
			return usage_error("%s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return usage_error("%s", "takes one device: NAME, ramdiskN or /dev/ramdiskN");
	o.dev = argv[optind];
	if (!strcmp(cmd, "state")) {
		if (!have_seed || !have_epoch || !have_state)
			return usage_error("%s", "state needs --seed, --epoch and --state");
		return cmd_state(&o);
	}
	if (!o.fs || (strcmp(o.fs, "ext2") && strcmp(o.fs, "ext3") && strcmp(o.fs, "ext4") &&
		      strcmp(o.fs, "xfs")))
		return usage_error("--fs '%s': ext2, ext3, ext4 or xfs", o.fs ? o.fs : "");
	if (!o.workload)
		return usage_error("%s", "run needs --workload NAME or CMD");
	if (!have_seed && getrandom(&o.seed, sizeof(o.seed), 0) != sizeof(o.seed))
		o.seed = (uint64_t)time(NULL);
	if (!have_seed)
		o.seed %= 1000000000;
	return cmd_run(&o);
}
