// SPDX-License-Identifier: GPL-2.0
/*
 * One crash state judged: mounted (so that a journal replays, as at the
 * next boot), the workload's promises or its own check command run on it,
 * unmounted, and the file system's own checker run read-only.
 */
#include "rdcrash.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

int run_argv(char *const argv[], const char *log)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first line of the log that says something: a checker's finding. */
static void first_finding(const char *log, char *out, size_t len)
{
	static const char *const noise[] = { "Pass ",	  "Phase ",	"e2fsck ", "        - ",
					     "No modify", "xfs_repair", "Warning" };
	char line[256];
	FILE *f = fopen(log, "r");
	size_t i;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
			if (!strncmp(line, noise[i], strlen(noise[i])))
				break;
		if (line[0] && i == sizeof(noise) / sizeof(noise[0])) {
			snprintf(out, len, "%.150s", line);
			break;
		}
	}
	fclose(f);
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

void verdict_check(const char *fs, const char *dev, const char *dir, const struct fact *facts,
		   size_t nr_facts, const struct wlog *w, size_t cut, const char *check_cmd,
		   struct verdict *v)
{
	char log[] = "/tmp/rdcrash-check.XXXXXX", finding[200] = "";
	char *fsck_ext[] = { "e2fsck", "-fn", (char *)dev, NULL };
	char *fsck_xfs[] = { "xfs_repair", "-n", (char *)dev, NULL };
	char *sh[] = { "sh", "-c", (char *)check_cmd, NULL };
	bool xfs = !strcmp(fs, "xfs");
	int fd, status;

	v->ok = true;
	v->detail[0] = '\0';
	fd = mkstemp(log);
	if (fd >= 0)
		close(fd);
	if (mount(dev, dir, fs, 0, xfs ? "nouuid" : NULL)) {
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
	status = run_argv(xfs ? fsck_xfs : fsck_ext, log);
	if (status) {
		first_finding(log, finding, sizeof(finding));
		if (v->ok)
			snprintf(v->detail, sizeof(v->detail), "%s -n exited %d: %s",
				 xfs ? "xfs_repair" : "e2fsck", status, finding);
		v->ok = false;
	}
	unlink(log);
}
