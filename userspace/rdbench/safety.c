// SPDX-License-Identifier: GPL-2.0
/*
 * What keeps rdbench from losing anyone's data: the checks a target must
 * pass before a run, the removal of everything a run created (also after
 * an error or Ctrl-C), and the interruption flag the loops poll.
 */
#include "blkdev.h"
#include "rdbench.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

volatile sig_atomic_t rdbench_stop;

/* the targets whose leftovers the exit handler removes */
static struct common *registered;
static unsigned int next_workdir;

static void on_signal(int signo)
{
	rdbench_stop = signo;
}

static void cleanup_at_exit(void)
{
	if (registered)
		targets_cleanup(registered);
}

void safety_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocked fsync or read returns EINTR sooner */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed pipe becomes a write error, so the cleanup still runs */
	signal(SIGPIPE, SIG_IGN);
	atexit(cleanup_at_exit);
}

static void register_targets(struct common *c)
{
	registered = c;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	/* level 0 is the directory itself when only its contents go */
	if (ftw->level == 0)
		return 0;
	if (remove(path) && errno != ENOENT) {
		warn("cannot remove %s", path);
		return -1;
	}
	return 0;
}

int remove_tree_contents(const char *dir)
{
	/* FTW_PHYS and FTW_MOUNT: never follow a link or cross a mount */
	return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

static int remove_tree(const char *dir)
{
	if (remove_tree_contents(dir))
		return -1;
	if (rmdir(dir) && errno != ENOENT) {
		warn("cannot remove %s", dir);
		return -1;
	}
	return 0;
}

void targets_cleanup(struct common *c)
{
	/* in reverse, so a DIR we made is empty when its turn comes */
	for (size_t i = c->ntargets; i-- > 0;) {
		struct target *t = &c->targets[i];

		if (t->workdir)
			remove_tree(t->workdir);
		else if (t->created_datafile && unlink(t->datapath) && errno != ENOENT)
			warn("cannot remove %s", t->datapath);
		else if (t->restore_empty && truncate(t->datapath, 0))
			warn("cannot empty %s again", t->datapath);
		if (t->created_path && t->kind == TARGET_DIR && rmdir(t->path) && errno != ENOENT &&
		    errno != ENOTEMPTY)
			warn("cannot remove %s", t->path);
		free(t->workdir);
		free(t->datapath);
		free(t->path);
		free(t->label);
	}
	free(c->targets);
	c->targets = NULL;
	c->ntargets = 0;
	if (registered == c)
		registered = NULL;
}

static int dir_has_foreign_entries(const char *dir, bool *foreign);

/* An empty lost+found is what mkfs.ext4 leaves in a new file system. */
static bool is_empty_lost_found(const char *dir, const char *name)
{
	bool foreign = true;
	char *path;
	struct stat st;

	if (strcmp(name, "lost+found") || asprintf(&path, "%s/%s", dir, name) < 0)
		return false;
	if (!lstat(path, &st) && S_ISDIR(st.st_mode) && dir_has_foreign_entries(path, &foreign))
		foreign = true;
	free(path);
	return !foreign;
}

/*
 * True when dir holds anything but the work directories of this very
 * process (two targets may name the same DIR) and an empty lost+found.
 */
static int dir_has_foreign_entries(const char *dir, bool *foreign)
{
	char own[64];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	snprintf(own, sizeof(own), "rdbench.%ld.", (long)getpid());
	*foreign = false;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (strncmp(de->d_name, own, strlen(own)) &&
		    !is_empty_lost_found(dir, de->d_name)) {
			*foreign = true;
			break;
		}
	}
	closedir(d);
	return 0;
}

/* Check (and perhaps make) t->path as a directory; 0 or -1 with a message. */
static int check_dir(struct target *t, const struct common *c, const struct stat *st, bool exists)
{
	bool foreign;

	if (!exists) {
		if (mkdir(t->path, 0755)) {
			warn("%s: cannot create the directory", t->path);
			return -1;
		}
		t->created_path = true;
		return 0;
	}
	if (!S_ISDIR(st->st_mode)) {
		warnx("%s: not a directory", t->path);
		return -1;
	}
	if (access(t->path, W_OK | X_OK)) {
		warn("%s: cannot write there", t->path);
		return -1;
	}
	if (dir_has_foreign_entries(t->path, &foreign)) {
		warn("%s: cannot list the directory", t->path);
		return -1;
	}
	if (foreign && !c->force) {
		warnx("%s: refusing a directory that is not empty (rdbench "
		      "works in a subdirectory of its own; --force allows it)",
		      t->path);
		return -1;
	}
	return 0;
}

static int make_workdir(struct target *t)
{
	if (asprintf(&t->workdir, "%s/rdbench.%ld.%u", t->path, (long)getpid(), next_workdir++) <
	    0) {
		t->workdir = NULL;
		err(EXIT_RUN_FAILED, "out of memory");
	}
	if (mkdir(t->workdir, 0700)) {
		warn("%s: cannot create the work directory", t->workdir);
		free(t->workdir);
		t->workdir = NULL;
		return -1;
	}
	return 0;
}

static int stat_target(struct target *t, struct stat *st, bool *exists)
{
	*exists = true;
	if (!stat(t->path, st))
		return 0;
	if (errno == ENOENT) {
		*exists = false;
		return 0;
	}
	warn("%s", t->path);
	return -1;
}

int target_prepare_dir(struct target *t, const struct common *c)
{
	struct stat st;
	bool exists;

	register_targets((struct common *)c);
	t->kind = TARGET_DIR;
	if (stat_target(t, &st, &exists) || check_dir(t, c, &st, exists))
		return -1;
	return make_workdir(t);
}

static int prepare_blockdev(struct target *t, const struct common *c, const struct stat *st,
			    uint64_t *size)
{
	const char *sig;

	t->kind = TARGET_BLOCKDEV;
	if (blkdev_mounted(st->st_rdev)) {
		warnx("%s: refusing a mounted block device (or one whose "
		      "partition is mounted); unmount it first",
		      t->path);
		return -1;
	}
	if (blkdev_check(t->path, &t->dev_size, &sig))
		return -1;
	if (sig && !c->destroy_data) {
		warnx("%s: refusing a device that holds %s (bw and pair overwrite it; "
		      "--destroy-data allows it)",
		      t->path, sig);
		return -1;
	}
	if (!*size)
		*size = t->dev_size < (256u << 20) ? t->dev_size : 256u << 20;
	if (*size > t->dev_size) {
		warnx("%s: --size is larger than the device (%llu bytes)", t->path,
		      (unsigned long long)t->dev_size);
		return -1;
	}
	t->datapath = strdup(t->path);
	return t->datapath ? 0 : -1;
}

static int prepare_file(struct target *t, const struct common *c, const struct stat *st)
{
	const char *sig = NULL;

	t->kind = TARGET_FILE;
	if (st->st_size > 0 && !c->destroy_data) {
		if (file_signature(t->path, &sig))
			return -1;
		warnx("%s: refusing an existing file with data%s%s (bw and "
		      "overwrites it; --destroy-data allows it)",
		      t->path, sig ? " holding " : "", sig ? sig : "");
		return -1;
	}
	if (access(t->path, R_OK | W_OK)) {
		warn("%s: cannot read and write it", t->path);
		return -1;
	}
	t->restore_empty = st->st_size == 0;
	t->datapath = strdup(t->path);
	return t->datapath ? 0 : -1;
}

int target_prepare_data(struct target *t, const struct common *c, uint64_t *size)
{
	struct stat st;
	bool exists;
	int fd;

	register_targets((struct common *)c);
	if (stat_target(t, &st, &exists))
		return -1;
	if (exists && S_ISBLK(st.st_mode))
		return prepare_blockdev(t, c, &st, size);
	if (exists && S_ISREG(st.st_mode))
		return prepare_file(t, c, &st);
	if (exists && !S_ISDIR(st.st_mode)) {
		warnx("%s: not a directory, regular file or block device", t->path);
		return -1;
	}
	if (exists) {
		if (target_prepare_dir(t, c))
			return -1;
		if (asprintf(&t->datapath, "%s/bw.data", t->workdir) < 0) {
			t->datapath = NULL;
			return -1;
		}
		t->created_datafile = true;
		return 0;
	}
	/*
	 * A new path is a data file of ours, except under /dev (but for the
	 * tmpfs at /dev/shm): there it is a device that is not there, as
	 * when its module is not loaded, and a file in devtmpfs would measure
	 * memory instead of the device meant.
	 */
	if (!strncmp(t->path, "/dev/", 5) && strncmp(t->path, "/dev/shm/", 9)) {
		warnx("%s: no such device (is its driver loaded?); rdbench makes no "
		      "files under /dev",
		      t->path);
		return -1;
	}
	t->kind = TARGET_FILE;
	fd = open(t->path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		warn("%s: cannot create it", t->path);
		return -1;
	}
	close(fd);
	t->created_datafile = true;
	t->datapath = strdup(t->path);
	return t->datapath ? 0 : -1;
}
