// SPDX-License-Identifier: GPL-2.0
/*
 * The device under test and rdcrash's clone of it, through configfs
 * (rd_configfs_root(): RAMDISK_CONFIGFS_ROOT, or RAMDISK_CONFIGFS for tests).
 */
#include "rdcrash.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "attr_file.h"
#include "ramdisk.h"

/* udev opens a new disk for a moment: power-off meets EBUSY until it is done */
#define BUSY_TRIES 100
#define BUSY_PAUSE_NS (50 * 1000 * 1000L)

/* 0, or the errno */
static int write_line(const char *path, const char *line)
{
	return attr_write_line(path, line) ? errno : 0;
}

static int item_write(const char *item, const char *attr, const char *line)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), item, attr);
	return write_line(path, line);
}

void target_attr_path(const struct target *t, const char *attr, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/%s", rd_configfs_root(), t->item, attr);
}

static int item_read(const char *item, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), item, attr);
	return attr_read_line(path, buf, len);
}

int target_write(const struct target *t, const char *attr, const char *line)
{
	return item_write(t->item, attr, line);
}

int target_read(const struct target *t, const char *attr, char *buf, size_t len)
{
	return item_read(t->item, attr, buf, len);
}

/* N of "ramdiskN" or "/dev/ramdiskN", or -1 */
static int disk_number(const char *arg)
{
	const char *p = strncmp(arg, "/dev/", 5) ? arg : arg + 5;
	char *end;
	long n;

	if (strncmp(p, RAMDISK_NAME, strlen(RAMDISK_NAME)))
		return -1;
	p += strlen(RAMDISK_NAME);
	if (*p < '0' || *p > '9')
		return -1;
	n = strtol(p, &end, 10);
	return *end || n > RAMDISK_MAX_DEVICES ? -1 : (int)n;
}

int target_find(const char *arg, struct target *t)
{
	int want = disk_number(arg);
	char buf[32];
	struct dirent *d;
	DIR *dir;

	memset(t, 0, sizeof(*t));
	t->index = -1;
	dir = opendir(rd_configfs_root());
	if (!dir) {
		warn("%s (is the ramdisk module loaded?)", rd_configfs_root());
		return -1;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR ||
		    strlen(d->d_name) >= sizeof(t->item))
			continue;
		if (item_read(d->d_name, "index", buf, sizeof(buf)))
			continue;
		if ((want < 0 && !strcmp(d->d_name, arg)) || (want >= 0 && atoi(buf) == want)) {
			snprintf(t->item, sizeof(t->item), "%s", d->d_name);
			t->index = atoi(buf);
			break;
		}
	}
	closedir(dir);
	if (!t->item[0]) {
		warnx("%s: no configfs device of that name or number (a device made at module "
		      "load has no write log: make one with ramdiskctl create)",
		      arg);
		return -1;
	}
	if (t->index < 0) {
		warnx("%s is powered off: power it on first", t->item);
		return -1;
	}
	snprintf(t->dev, sizeof(t->dev), "/dev/%s%d", RAMDISK_NAME, t->index);
	return 0;
}

/* Worker 0's clone is rdcrash-clone-N (what rdcrash state makes), worker w's rdcrash-clone-N-w. */
static void clone_name(const struct target *t, char *buf, size_t len)
{
	if (t->worker)
		snprintf(buf, len, "rdcrash-clone-%d-%u", t->index, t->worker);
	else
		snprintf(buf, len, "rdcrash-clone-%d", t->index);
}

int target_clone_of(struct target *t, const char *ck)
{
	char path[PATH_MAX], line[128];
	int err;

	if (!t->clone_item[0]) {
		clone_name(t, t->clone_item, sizeof(t->clone_item));
		snprintf(path, sizeof(path), "%s/%s", rd_configfs_root(), t->clone_item);
		/* one left by a run that was killed is taken over */
		if (mkdir(path, 0755) && errno != EEXIST) {
			warn("%s", path);
			t->clone_item[0] = '\0';
			return -1;
		}
		target_clone_power(t, false);
	}
	snprintf(line, sizeof(line), "%s%d %s", RAMDISK_NAME, t->index, ck);
	err = item_write(t->clone_item, "clone_of", line);
	if (err) {
		warnx("%s: clone_of '%s': %s", t->clone_item, line, strerror(err));
		return -1;
	}
	return 0;
}

int target_clone_power(struct target *t, bool on)
{
	const struct timespec pause = { 0, BUSY_PAUSE_NS };
	char buf[32];
	int err, tries = 0;

	while ((err = item_write(t->clone_item, "power", on ? "1" : "0"))) {
		if (on || err != EBUSY || ++tries > BUSY_TRIES) {
			warnx("%s: power %d: %s", t->clone_item, on, strerror(err));
			return -1;
		}
		nanosleep(&pause, NULL);
	}
	t->clone_dev[0] = '\0';
	if (!on)
		return 0;
	if (item_read(t->clone_item, "index", buf, sizeof(buf)) || atoi(buf) < 0) {
		warnx("%s: powered, but no device number", t->clone_item);
		return -1;
	}
	snprintf(t->clone_dev, sizeof(t->clone_dev), "/dev/%s%d", RAMDISK_NAME, atoi(buf));
	return 0;
}

void target_clone_forget(struct target *t)
{
	char prefix[64], path[PATH_MAX];
	struct target c = *t;
	struct dirent *d;
	size_t len;
	DIR *dir;

	/* worker 0's, and those of the workers of a run with -j */
	clone_name(t, prefix, sizeof(prefix));
	len = strlen(prefix);
	t->clone_item[0] = '\0';
	dir = opendir(rd_configfs_root());
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, prefix, len) ||
		    (d->d_name[len] &&
		     (d->d_name[len] != '-' || !d->d_name[len + 1] ||
		      strspn(d->d_name + len + 1, "0123456789") != strlen(d->d_name + len + 1))))
			continue;
		snprintf(c.clone_item, sizeof(c.clone_item), "%s", d->d_name);
		snprintf(path, sizeof(path), "%s/%s", rd_configfs_root(), c.clone_item);
		if (!access(path, F_OK))
			target_clone_remove(&c);
	}
	closedir(dir);
}

void target_clone_remove(struct target *t)
{
	char path[PATH_MAX];

	if (!t->clone_item[0])
		return;
	target_clone_power(t, false);
	snprintf(path, sizeof(path), "%s/%s", rd_configfs_root(), t->clone_item);
	if (rmdir(path))
		warn("%s", path);
	t->clone_item[0] = '\0';
}

int target_create(const char *name, uint64_t size, uint64_t log_limit, struct target *t)
{
	char path[PATH_MAX], num[32];
	const struct {
		const char *attr;
		const char *value;
	} set[] = {
		{ "size", num },
		{ "cache_mode", "writeback" },
		{ "write_log_limit", NULL },
		{ "power", "1" },
	};
	char limit[32];
	size_t i;
	int err;

	snprintf(path, sizeof(path), "%s/%s", rd_configfs_root(), name);
	if (mkdir(path, 0755)) {
		warn("%s%s", path, errno == ENOENT ? " (is the ramdisk module loaded?)" : "");
		return -1;
	}
	snprintf(num, sizeof(num), "%" PRIu64, size);
	snprintf(limit, sizeof(limit), "%" PRIu64, log_limit);
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		err = item_write(name, set[i].attr, set[i].value ? set[i].value : limit);
		if (err) {
			warnx("%s: %s %s: %s (see dmesg)", name, set[i].attr,
			      set[i].value ? set[i].value : limit, strerror(err));
			rmdir(path);
			return -1;
		}
	}
	if (target_find(name, t)) {
		target_destroy(name);
		return -1;
	}
	return 0;
}

void target_destroy(const char *name)
{
	const struct timespec pause = { 0, BUSY_PAUSE_NS };
	char path[PATH_MAX];
	int err, tries = 0;

	/* udev may still hold the disk open for a moment */
	while ((err = item_write(name, "power", "0")) == EBUSY && ++tries < BUSY_TRIES)
		nanosleep(&pause, NULL);
	if (err)
		warnx("%s: power 0: %s", name, strerror(err));
	snprintf(path, sizeof(path), "%s/%s", rd_configfs_root(), name);
	if (rmdir(path))
		warn("%s", path);
}

int target_mark(const char *path, const char *text)
{
	char line[160];

	snprintf(line, sizeof(line), "mark %s", text);
	return write_line(path, line);
}

int target_sys_u64(const struct target *t, const char *what, uint64_t *v)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/%s", t->dev + 5, what);
	if (attr_read_u64(path, v)) {
		warnx("cannot read %s", path);
		return -1;
	}
	return 0;
}

bool target_is_zoned(const struct target *t)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/zoned", t->dev + 5);
	return !attr_read_line(path, buf, sizeof(buf)) && !strcmp(buf, "host-managed");
}

int target_zones(const struct target *t, struct crash_zones *z)
{
	enum { BATCH = 256 };
	struct blk_zone_report *r;
	uint32_t nr, size;
	uint64_t sector = 0;
	size_t i, done = 0;
	int fd;

	memset(z, 0, sizeof(*z));
	fd = open(t->dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn("%s", t->dev);
		return -1;
	}
	r = malloc(sizeof(*r) + BATCH * sizeof(struct blk_zone));
	if (ioctl(fd, BLKGETNRZONES, &nr) || ioctl(fd, BLKGETZONESZ, &size) || !nr || !size) {
		warn("%s: its zones", t->dev);
		goto fail;
	}
	z->zone_sectors = size;
	z->nr = nr;
	z->seq = calloc(nr, 1);
	if (!r || !z->seq)
		err(RC_ERROR, "out of memory");
	while (done < nr) {
		memset(r, 0, sizeof(*r));
		r->sector = sector;
		r->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, r) || !r->nr_zones) {
			warn("%s: report of its zones from sector %" PRIu64, t->dev, sector);
			goto fail;
		}
		for (i = 0; i < r->nr_zones && done < nr; i++, done++) {
			z->seq[done] = r->zones[i].type == BLK_ZONE_TYPE_SEQWRITE_REQ;
			sector = r->zones[i].start + r->zones[i].len;
		}
	}
	free(r);
	close(fd);
	return 0;
fail:
	free(r);
	free(z->seq);
	z->seq = NULL;
	close(fd);
	return -1;
}

void target_zones_free(struct crash_zones *z)
{
	free(z->seq);
	memset(z, 0, sizeof(*z));
}

int target_reset_zones(const struct target *t)
{
	struct blk_zone_range all = { 0, 0 };
	uint64_t bytes;
	int fd, rc;

	fd = open(t->dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes)) {
		warn("%s", t->dev);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* the whole disk in one range: the block layer sends one reset of all zones */
	all.nr_sectors = bytes >> 9;
	rc = ioctl(fd, BLKRESETZONE, &all);
	if (rc)
		warn("%s: reset of its zones", t->dev);
	close(fd);
	return rc ? -1 : 0;
}
