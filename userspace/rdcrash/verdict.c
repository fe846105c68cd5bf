// SPDX-License-Identifier: GPL-2.0
/*
 * One crash state judged: mounted (so that a journal replays, as at the
 * next boot), the workload's promises or its own check command run on it,
 * unmounted, and the file system's own checker run read-only.
 */
#include "rdcrash.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

volatile pid_t run_child;

int run_argv(char *const argv[], const char *log)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* a group of its own: a signal to rdcrash stops it and what it started */
		setpgid(0, 0);
		if (log && !strcmp(log, "-")) {
			/* rdcrash's standard output is its verdicts */
			dup2(2, 1);
		} else {
			fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				  0644);
			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	run_child = pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			run_child = 0;
			return -1;
		}
	}
	run_child = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The first line of the log that says something: a checker's finding.
 * A line that names an error comes first (btrfs check and fsck.f2fs say
 * much before it: "ERROR:", "[Fail]"); else the first line that is not
 * progress (e2fsck's findings).
 */
static void first_finding(const char *log, char *out, size_t len)
{
	static const char *const noise[] = { "Pass ",	  "Phase ",	"e2fsck ", "        - ",
					     "No modify", "xfs_repair", "Warning", "Info:",
					     "Opening ",  "Checking ",	"[" };
	static const char *const error[] = { "ERROR:", "[Fail]", "[ASSERT]" };
	char line[256];
	FILE *f = fopen(log, "r");
	size_t i;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < sizeof(error) / sizeof(error[0]); i++)
			if (strstr(line, error[i])) {
				snprintf(out, len, "%.150s", line);
				fclose(f);
				return;
			}
		if (out[0])
			continue;
		for (i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
			if (!strncmp(line, noise[i], strlen(noise[i])))
				break;
		if (line[0] && i == sizeof(noise) / sizeof(noise[0]))
			snprintf(out, len, "%.150s", line);
	}
	fclose(f);
}

/*
 * The file systems. Discards are off at mkfs: a whole-device discard
 * would only fill the log. The checkers change nothing: e2fsck -n,
 * xfs_repair -n, btrfs check --readonly, and fsck.f2fs -f (the whole
 * file system, not only its "needs checking" flag) with --dry-run.
 */
static const char *const mkfs_ext2[] = { "mkfs.ext2", "-q", "-F", "-E", "nodiscard", NULL };
static const char *const mkfs_ext3[] = { "mkfs.ext3", "-q", "-F", "-E", "nodiscard", NULL };
static const char *const mkfs_ext4[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard", NULL };
static const char *const mkfs_xfs[] = { "mkfs.xfs", "-q", "-f", "-K", NULL };
static const char *const mkfs_btrfs[] = { "mkfs.btrfs", "-q", "-f", "-K", NULL };
static const char *const mkfs_f2fs[] = { "mkfs.f2fs", "-q", "-f", "-t", "0", NULL };
/*
 * On a host-managed zoned device: btrfs's zoned mode, f2fs's zoned (-m)
 * form, and with discards: there they are the zone resets mkfs needs, and
 * mkfs.btrfs -K left the zones of its temporary chunks written, which the
 * first mount then found in free space and warned of.
 */
static const char *const zoned_btrfs[] = { "mkfs.btrfs", "-q", "-f", "-O", "zoned", NULL };
static const char *const zoned_f2fs[] = { "mkfs.f2fs", "-q", "-f", "-m", NULL };
static const char *const fsck_ext[] = { "e2fsck", "-fn", NULL };
static const char *const fsck_xfs[] = { "xfs_repair", "-n", NULL };
static const char *const fsck_btrfs[] = { "btrfs", "check", "--readonly", NULL };
static const char *const fsck_f2fs[] = { "fsck.f2fs", "-f", "--dry-run", NULL };

static const struct fs_kind kinds[] = {
	{ "ext2", mkfs_ext2, fsck_ext, "e2fsck -n", NULL, NULL },
	{ "ext3", mkfs_ext3, fsck_ext, "e2fsck -n", NULL, NULL },
	{ "ext4", mkfs_ext4, fsck_ext, "e2fsck -n", NULL, NULL },
	/* a clone has its origin's UUID, which xfs refuses twice in one system */
	{ "xfs", mkfs_xfs, fsck_xfs, "xfs_repair -n", "nouuid", NULL },
	{ "btrfs", mkfs_btrfs, fsck_btrfs, "btrfs check --readonly", NULL, zoned_btrfs },
	{ "f2fs", mkfs_f2fs, fsck_f2fs, "fsck.f2fs --dry-run", NULL, zoned_f2fs },
};

const struct fs_kind *fs_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

const char *fs_names(void)
{
	return "ext2, ext3, ext4, xfs, btrfs or f2fs";
}

/* The options mount(8) turns into flags rather than passing them on. */
static const struct {
	const char *name;
	unsigned long flag;
} generic[] = {
	{ "noatime", MS_NOATIME },   { "nodiratime", MS_NODIRATIME },
	{ "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
	{ "lazytime", MS_LAZYTIME }, { "sync", MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC },   { "nodev", MS_NODEV },
	{ "nosuid", MS_NOSUID },     { "noexec", MS_NOEXEC },
};

int fs_parse_mount_options(struct fs_setup *fs, const char *opts, char *why, size_t len)
{
	char copy[512], *tok, *save;
	size_t i, used = 0;
	int n;

	fs->mount_options = opts;
	fs->mount_flags = 0;
	fs->mount_data[0] = '\0';
	if (strlen(opts) >= sizeof(copy)) {
		snprintf(why, len, "--mount-options is longer than %zu characters",
			 sizeof(copy) - 1);
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", opts);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "ro") || !strcmp(tok, "rw") || !strcmp(tok, "remount") ||
		    !strcmp(tok, "bind")) {
			snprintf(why, len, "--mount-options '%s': rdcrash decides %s itself", opts,
				 tok);
			return -1;
		}
		for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
			if (!strcmp(tok, generic[i].name))
				break;
		if (i < sizeof(generic) / sizeof(generic[0])) {
			fs->mount_flags |= generic[i].flag;
			continue;
		}
		n = snprintf(fs->mount_data + used, sizeof(fs->mount_data) - used, "%s%s",
			     used ? "," : "", tok);
		used += (size_t)n;
	}
	return 0;
}

int fs_mount(const struct fs_setup *fs, const char *dev, const char *dir, bool state)
{
	char data[600];
	char *forget[] = { "btrfs", "device", "scan", "--forget", NULL };
	const char *extra = state ? fs->kind->state_data : NULL;

	snprintf(data, sizeof(data), "%s%s%s", fs->mount_data,
		 fs->mount_data[0] && extra ? "," : "", extra ? extra : "");
	/*
	 * btrfs keeps, per file system, the device it saw last: a state's
	 * clone has the origin's fsid and an older generation, and the
	 * origin, still known, would be preferred (or the mount refused)
	 */
	if (state && !strcmp(fs->kind->name, "btrfs"))
		run_argv(forget, NULL);
	return mount(dev, dir, fs->kind->name, fs->mount_flags, data[0] ? data : NULL);
}

/* Splits opts at blanks into argv from *n on; -1 when there is no room. */
static int split_options(char *opts, char **argv, size_t *n, size_t room)
{
	char *tok, *save;

	for (tok = strtok_r(opts, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (*n + 1 >= room)
			return -1;
		argv[(*n)++] = tok;
	}
	return 0;
}

int fs_make(const struct fs_setup *fs, const char *dev)
{
	const char *const *mkfs = fs->zoned ? fs->kind->zoned_mkfs : fs->kind->mkfs;
	char *argv[64], opts[1024] = "", log[] = "/tmp/rdcrash-mkfs.XXXXXX", finding[200];
	size_t n = 0, i;
	int status, fd;

	for (i = 0; mkfs[i]; i++)
		argv[n++] = (char *)mkfs[i];
	if (fs->mkfs_options)
		snprintf(opts, sizeof(opts), "%s", fs->mkfs_options);
	if (split_options(opts, argv, &n, sizeof(argv) / sizeof(argv[0]) - 1)) {
		warnx("--mkfs-options has too many words");
		return -1;
	}
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	fd = mkstemp(log);
	if (fd >= 0)
		close(fd);
	status = run_argv(argv, fd >= 0 ? log : NULL);
	if (status) {
		first_finding(log, finding, sizeof(finding));
		warnx("%s exited %d on %s: %s", argv[0], status, dev, finding);
	}
	unlink(log);
	return status ? -1 : 0;
}

/* Whether path under dir has one of the fact's contents; why not in detail. */
static bool fact_holds(const char *dir, const struct fact *f, char *detail, size_t len)
{
	static unsigned char buf[1 << 20];
	char full[PATH_MAX];
	unsigned int i;
	ssize_t n;
	int fd;

	if (!f->nr)
		return true;
	snprintf(full, sizeof(full), "%s/%s", dir, f->path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		for (i = 0; i < f->nr; i++)
			if (f->len[i] < 0)
				return true;
		snprintf(detail, len, "%s is missing (%s)", f->path, strerror(errno));
		return false;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (i = 0; i < f->nr; i++) {
		if (f->len[i] < 0 || n < f->len[i] || (!f->prefix && n != f->len[i]))
			continue;
		if (content_hash(buf, (size_t)f->len[i]) == f->hash[i])
			return true;
	}
	if (f->nr == 1 && f->len[0] < 0)
		snprintf(detail, len, "%s exists, but its removal was made durable", f->path);
	else
		snprintf(detail, len, "%s has %zd bytes that are not its fsync'd data", f->path, n);
	return false;
}

/* The facts in force at cut: for each path, the last one whose mark is before cut. */
static bool facts_hold(const char *dir, const struct fact *facts, size_t nr, size_t cut,
		       char *detail, size_t len)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		if (facts[i].entry >= cut)
			continue;
		for (j = i + 1; j < nr; j++)
			if (facts[j].entry < cut && !strcmp(facts[j].path, facts[i].path))
				break;
		if (j < nr)
			continue;
		if (!fact_holds(dir, &facts[i], detail, len))
			return false;
	}
	return true;
}

/*
 * RDCRASH_MARKS: the texts of the marks before cut, one a line, oldest
 * first, for a --check command to learn what the workload had been told
 * was durable when the crash came.
 */
static int export_marks(const struct wlog *w, size_t cut)
{
	char *marks = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&marks, &len);
	int ret;

	if (!f)
		return -1;
	for (i = 0; i < cut && i < w->n; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];

		if (e->type == RAMDISK_WLOG_MARK)
			fprintf(f, "%.*s\n", (int)e->data_len,
				(const char *)w->data + e->data_offset);
	}
	if (fclose(f)) {
		free(marks);
		return -1;
	}
	ret = setenv("RDCRASH_MARKS", marks, 1);
	free(marks);
	return ret;
}

void verdict_check(const struct fs_setup *fs, const char *dev, const char *dir,
		   const struct fact *facts, size_t nr_facts, const struct wlog *w, size_t cut,
		   const char *check_cmd, struct verdict *v)
{
	char log[] = "/tmp/rdcrash-check.XXXXXX", finding[200] = "";
	char *sh[] = { "sh", "-c", (char *)check_cmd, NULL };
	char *fsck[16];
	size_t n = 0;
	int fd, status;

	v->ok = true;
	v->detail[0] = '\0';
	fd = mkstemp(log);
	if (fd >= 0)
		close(fd);
	if (fs_mount(fs, dev, dir, true)) {
		v->ok = false;
		snprintf(v->detail, sizeof(v->detail), "mount: %s", strerror(errno));
	} else {
		if (check_cmd) {
			if (setenv("RDCRASH_DIR", dir, 1) || export_marks(w, cut) || chdir(dir))
				status = -1;
			else
				status = run_argv(sh, log);
			if (chdir("/")) {
				/* "/" is always there */
			}
			if (status) {
				v->ok = false;
				first_finding(log, finding, sizeof(finding));
				snprintf(v->detail, sizeof(v->detail), "--check exited %d: %s",
					 status, finding);
			}
		} else if (!facts_hold(dir, facts, nr_facts, cut, v->detail, sizeof(v->detail))) {
			v->ok = false;
		}
		if (umount2(dir, 0) && v->ok) {
			v->ok = false;
			snprintf(v->detail, sizeof(v->detail), "umount: %s", strerror(errno));
		}
	}
	while (fs->kind->fsck[n] && n < sizeof(fsck) / sizeof(fsck[0]) - 2) {
		fsck[n] = (char *)fs->kind->fsck[n];
		n++;
	}
	fsck[n++] = (char *)dev;
	fsck[n] = NULL;
	status = run_argv(fsck, log);
	if (status) {
		first_finding(log, finding, sizeof(finding));
		if (v->ok)
			snprintf(v->detail, sizeof(v->detail), "%s exited %d: %s",
				 fs->kind->fsck_label, status, finding);
		v->ok = false;
	}
	unlink(log);
}
