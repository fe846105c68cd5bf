// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in workloads: the classic crash-consistency patterns, each a
 * few steps that end in a durability point (fsync of a file or a
 * directory). At each such point the workload writes a mark into the
 * write log ("rdcrash-N") and states what holds from there on: a fact.
 * Before an operation whose result may or may not survive a crash (a
 * rename, an unlink, a punch), it states first that either outcome is
 * acceptable. A crash state whose crash point lies after a fact's mark
 * must agree with the fact.
 *
 * What a fact demands is what ext4 and xfs give and POSIX, strictly read,
 * does not: fsync of a new file makes its name durable too. ext2 does not
 * keep that promise, which is what rdcrash shows of it.
 */
#include "rdcrash.h"

#include "rng.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_MAX (64 << 10)

uint64_t content_hash(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

static void fill(struct rng *r, unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)rng_next(r);
}

static void fact_room(struct workload_run *run)
{
	struct fact *f;

	if (run->nr_facts < run->room)
		return;
	run->room = run->room ? run->room * 2 : 64;
	f = realloc(run->facts, run->room * sizeof(*f));
	if (!f)
		err(RC_ERROR, "out of memory");
	run->facts = f;
}

/* Writes mark rdcrash-N and returns N: what follows it in the log came after. */
static unsigned int mark(struct workload_run *run)
{
	char line[64];
	int err;

	snprintf(line, sizeof(line), "mark rdcrash-%u", run->marks);
	err = target_write(run->t, "write_log", line);
	if (err)
		errx(RC_ERROR, "%s: write_log '%s': %s (did the log overflow? see dmesg)",
		     run->t->item, line, strerror(err));
	return run->marks++;
}

/*
 * From a new mark on, path holds one of the nr contents given (a NULL
 * content: the file does not exist; nr 0: anything); prefix: its first
 * len bytes do.
 */
static void promise(struct workload_run *run, const char *path, bool prefix, unsigned int nr,
		    const unsigned char *c0, size_t l0, const unsigned char *c1, size_t l1)
{
	struct fact *f;

	fact_room(run);
	f = &run->facts[run->nr_facts++];
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->prefix = prefix;
	f->nr = nr;
	f->len[0] = c0 ? (int64_t)l0 : -1;
	f->hash[0] = c0 ? content_hash(c0, l0) : 0;
	f->len[1] = c1 ? (int64_t)l1 : -1;
	f->hash[1] = c1 ? content_hash(c1, l1) : 0;
	f->mark = mark(run);
}

static int at(struct workload_run *run, const char *path, int flags)
{
	char full[PATH_MAX];
	int fd;

	snprintf(full, sizeof(full), "%s/%s", run->dir, path);
	fd = open(full, flags | O_CLOEXEC, 0644);
	if (fd < 0)
		err(RC_ERROR, "%s", full);
	return fd;
}

static void sync_fd(int fd, const char *what)
{
	if (fsync(fd))
		err(RC_ERROR, "fsync %s", what);
}

static void sync_dir(struct workload_run *run, const char *path)
{
	int fd = at(run, path, O_RDONLY | O_DIRECTORY);

	sync_fd(fd, path);
	close(fd);
}

static void write_file(struct workload_run *run, const char *path, const unsigned char *buf,
		       size_t len, bool do_sync)
{
	int fd = at(run, path, O_WRONLY | O_CREAT | O_TRUNC);

	if (write(fd, buf, len) != (ssize_t)len)
		err(RC_ERROR, "write %s", path);
	if (do_sync)
		sync_fd(fd, path);
	close(fd);
}

static void do_rename(struct workload_run *run, const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];

	snprintf(a, sizeof(a), "%s/%s", run->dir, from);
	snprintf(b, sizeof(b), "%s/%s", run->dir, to);
	if (rename(a, b))
		err(RC_ERROR, "rename %s %s", a, b);
}

/* create-fsync: new files, each fsync'd: each exists with its data. */
static int create_fsync(struct workload_run *run)
{
	unsigned char buf[16 << 10];
	char name[32];
	struct rng r;
	size_t len;
	int i;

	rng_seed(&r, run->seed);
	for (i = 0; i < 8; i++) {
		len = 1 + rng_below(&r, sizeof(buf));
		fill(&r, buf, len);
		snprintf(name, sizeof(name), "c%d", i);
		write_file(run, name, buf, len, true);
		promise(run, name, false, 1, buf, len, NULL, 0);
	}
	return 0;
}

/* append-fsync and small-writes: appends, fsync'd now and then; what was fsync'd stays. */
static int appends(struct workload_run *run, int steps, size_t max, int every)
{
	static unsigned char all[FILE_MAX * 2];
	size_t len, total = 0;
	struct rng r;
	int fd, i;

	rng_seed(&r, run->seed);
	fd = at(run, "log", O_WRONLY | O_CREAT | O_APPEND);
	for (i = 1; i <= steps; i++) {
		len = 1 + rng_below(&r, max);
		if (total + len > sizeof(all))
			break;
		fill(&r, all + total, len);
		if (write(fd, all + total, len) != (ssize_t)len)
			err(RC_ERROR, "append to log");
		total += len;
		if (i % every)
			continue;
		sync_fd(fd, "log");
		promise(run, "log", true, 1, all, total, NULL, 0);
	}
	close(fd);
	return 0;
}

static int append_fsync(struct workload_run *run)
{
	return appends(run, 10, 9 << 10, 1);
}

static int small_writes(struct workload_run *run)
{
	return appends(run, 200, 512, 10);
}

/* rename-over: write a new version aside, fsync it, rename it over, fsync the directory. */
static int rename_over(struct workload_run *run)
{
	unsigned char v[2][8 << 10];
	size_t len[2];
	struct rng r;
	int i, cur;

	rng_seed(&r, run->seed);
	len[0] = 1 + rng_below(&r, sizeof(v[0]));
	fill(&r, v[0], len[0]);
	write_file(run, "target", v[0], len[0], true);
	sync_dir(run, ".");
	promise(run, "target", false, 1, v[0], len[0], NULL, 0);
	for (i = 1; i <= 6; i++) {
		cur = i % 2;
		len[cur] = 1 + rng_below(&r, sizeof(v[cur]));
		fill(&r, v[cur], len[cur]);
		write_file(run, "target.tmp", v[cur], len[cur], true);
		promise(run, "target", false, 2, v[!cur], len[!cur], v[cur], len[cur]);
		do_rename(run, "target.tmp", "target");
		sync_dir(run, ".");
		promise(run, "target", false, 1, v[cur], len[cur], NULL, 0);
	}
	return 0;
}

/* link-fsync: hard links to an fsync'd file, each made durable by fsync of the directory. */
static int link_fsync(struct workload_run *run)
{
	char a[PATH_MAX], b[PATH_MAX], name[32];
	unsigned char buf[8 << 10];
	struct rng r;
	size_t len;
	int i;

	rng_seed(&r, run->seed);
	len = 1 + rng_below(&r, sizeof(buf));
	fill(&r, buf, len);
	write_file(run, "orig", buf, len, true);
	sync_dir(run, ".");
	promise(run, "orig", false, 1, buf, len, NULL, 0);
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "l%d", i);
		snprintf(a, sizeof(a), "%s/orig", run->dir);
		snprintf(b, sizeof(b), "%s/%s", run->dir, name);
		if (link(a, b))
			err(RC_ERROR, "link %s %s", a, b);
		sync_dir(run, ".");
		promise(run, name, false, 1, buf, len, NULL, 0);
	}
	return 0;
}

/* dir-fsync: a file in a new directory: the file, the directory and its parent fsync'd. */
static int dir_fsync(struct workload_run *run)
{
	char dir[32], path[64], full[PATH_MAX];
	unsigned char buf[8 << 10];
	struct rng r;
	size_t len;
	int i;

	rng_seed(&r, run->seed);
	for (i = 0; i < 6; i++) {
		snprintf(dir, sizeof(dir), "d%d", i);
		snprintf(full, sizeof(full), "%s/%s", run->dir, dir);
		if (mkdir(full, 0755))
			err(RC_ERROR, "mkdir %s", full);
		len = 1 + rng_below(&r, sizeof(buf));
		fill(&r, buf, len);
		snprintf(path, sizeof(path), "%s/f", dir);
		write_file(run, path, buf, len, true);
		sync_dir(run, dir);
		sync_dir(run, ".");
		promise(run, path, false, 1, buf, len, NULL, 0);
	}
	return 0;
}

/* punch-hole: holes punched in an fsync'd file, each fsync'd: they read zeros. */
static int punch_hole(struct workload_run *run)
{
	static unsigned char v[2][FILE_MAX];
	size_t len = FILE_MAX;
	struct rng r;
	off_t off, n;
	int fd, i;

	rng_seed(&r, run->seed);
	fill(&r, v[0], len);
	write_file(run, "p", v[0], len, true);
	sync_dir(run, ".");
	promise(run, "p", false, 1, v[0], len, NULL, 0);
	fd = at(run, "p", O_WRONLY);
	for (i = 0; i < 6; i++) {
		/* whole 4 KiB blocks: a partial one would be a data write, which may tear */
		n = (off_t)(1 + rng_below(&r, 3)) * 4096;
		off = (off_t)rng_below(&r, (len - (size_t)n) / 4096 + 1) * 4096;
		memcpy(v[1], v[0], len);
		memset(v[1] + off, 0, (size_t)n);
		promise(run, "p", false, 2, v[0], len, v[1], len);
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, n))
			err(RC_ERROR, "punch p");
		sync_fd(fd, "p");
		memcpy(v[0], v[1], len);
		promise(run, "p", false, 1, v[0], len, NULL, 0);
	}
	close(fd);
	return 0;
}

/* small-files: a queue of small files: each made and fsync'd, the oldest removed. */
static int small_files(struct workload_run *run)
{
	unsigned char buf[4096];
	char name[32], full[PATH_MAX];
	struct rng r;
	int i;

	rng_seed(&r, run->seed);
	for (i = 0; i < 12; i++) {
		fill(&r, buf, sizeof(buf));
		snprintf(name, sizeof(name), "q%d", i);
		write_file(run, name, buf, sizeof(buf), true);
		sync_dir(run, ".");
		promise(run, name, false, 1, buf, sizeof(buf), NULL, 0);
		if (i < 4)
			continue;
		/* the file made four steps ago goes; its content is buf's of then */
		snprintf(name, sizeof(name), "q%d", i - 4);
		snprintf(full, sizeof(full), "%s/%s", run->dir, name);
		/* while it is being removed, it may be there or not */
		promise(run, name, false, 0, NULL, 0, NULL, 0);
		if (unlink(full))
			err(RC_ERROR, "unlink %s", full);
		sync_dir(run, ".");
		promise(run, name, false, 1, NULL, 0, NULL, 0);
	}
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(struct workload_run *run);
	const char *what;
} workloads[] = {
	{ "create-fsync", create_fsync, "new files, each fsync'd" },
	{ "append-fsync", append_fsync, "appends to one file, each fsync'd" },
	{ "rename-over", rename_over,
	  "a new version fsync'd aside, renamed over, directory fsync'd" },
	{ "link-fsync", link_fsync, "hard links to a file, directory fsync'd after each" },
	{ "dir-fsync", dir_fsync, "a file in a new directory: file, directory and parent fsync'd" },
	{ "punch-hole", punch_hole, "holes punched in an fsync'd file, each fsync'd" },
	{ "small-files", small_files, "a queue of 4 KiB files, each fsync'd, the oldest removed" },
	{ "small-writes", small_writes, "200 small appends, fsync'd every tenth" },
};

int (*workload_find(const char *name))(struct workload_run *run)
{
	size_t i;

	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (!strcmp(workloads[i].name, name))
			return workloads[i].fn;
	return NULL;
}

void workload_list(FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		fprintf(out, "    %-14s %s\n", workloads[i].name, workloads[i].what);
}

int workload_place_facts(struct workload_run *run, const struct wlog *w)
{
	size_t i, f = 0;
	char text[32];

	for (i = 0; i < w->n && f < run->nr_facts; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];

		if (e->type != RAMDISK_WLOG_MARK || e->data_len >= sizeof(text))
			continue;
		memcpy(text, w->data + e->data_offset, e->data_len);
		text[e->data_len] = '\0';
		/* marks and facts come in the same order */
		while (f < run->nr_facts) {
			char want[32];

			snprintf(want, sizeof(want), "rdcrash-%u", run->facts[f].mark);
			if (strcmp(want, text))
				break;
			run->facts[f++].entry = i;
		}
	}
	if (f < run->nr_facts) {
		warnx("the write log lacks mark rdcrash-%u: did it overflow? (raise write_log_limit)",
		      run->facts[f].mark);
		return -1;
	}
	return 0;
}

void workload_free(struct workload_run *run)
{
	free(run->facts);
	run->facts = NULL;
	run->nr_facts = run->room = 0;
}
