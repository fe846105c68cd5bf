// SPDX-License-Identifier: GPL-2.0
/*
 * apply: make the system hold what ramdisk.conf declares, and apply --down:
 * take it away again, saving each device's image first.
 *
 * apply works in two passes. The first reads every declared device as it
 * is now and decides what to do with it: make it (it is not there), leave
 * it and change what can be changed while it is powered (mem_limit,
 * spare_pages, rotational, the profile), or make it again (a fixed
 * attribute differs). Making a device again, or making a file system over
 * what a device holds, loses data: when any device needs that and
 * --force is not given, apply says so for each and changes nothing at
 * all (exit status 10). The second pass acts. A device that needs
 * nothing is not mentioned, so a second apply prints nothing.
 *
 * Devices the file does not declare are never looked at.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "conf.h"
#include "help.h"
#include "module_check.h"
#include "module_defaults.h"
#include "profiles.h"
#include "run.h"
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MOUNTS_MAX 16

struct apply_opts {
	bool down, force, dry_run;
	const char *file;
};

enum action {
	ACT_CREATE, /* not there: make it */
	ACT_KEEP, /* there as declared, but for attributes changed live */
	ACT_RECREATE, /* a fixed attribute differs: remove it and make it again */
};

struct plan {
	struct conf_device *d;
	/* what the declaration leaves out is wanted at these */
	const struct module_defaults *defaults;
	enum action action;
	struct rdctl_device cur;
	char dev[32]; /* /dev/ramdiskN while powered, else "" */
	struct create_attr want[CREATE_ATTRS_MAX];
	char have[CREATE_ATTRS_MAX][40]; /* the values now, "" when unreadable */
	int nwant;
	const char *profile_have; /* NULL when unknown or as declared */
	bool force_mkfs; /* --force: mkfs over what the device holds */
};

struct mounts {
	char dir[MOUNTS_MAX][PATH_MAX];
	int count;
};

static const char *name_of(const struct plan *p)
{
	return p->d->opts.v[COPT_NAME].arg;
}

/* Both numbers alike (1G and 1073741824, 0x0 and 0), or the same words. */
static bool same_value(const char *a, const char *b)
{
	char *ea, *eb;
	long long sa, sb;
	unsigned long long ua, ub;

	errno = 0;
	if (*a == '-' || *b == '-') {
		sa = strtoll(a, &ea, 0);
		sb = strtoll(b, &eb, 0);
		if (!errno && !*ea && !*eb && ea != a && eb != b)
			return sa == sb;
	} else {
		ua = strtoull(a, &ea, 0);
		ub = strtoull(b, &eb, 0);
		if (!errno && !*ea && !*eb && ea != a && eb != b)
			return ua == ub;
	}
	return !strcmp(a, b);
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Where dev is mounted, in the order of mountinfo (a later one on top). */
static int find_mounts(const char *dev, struct mounts *m)
{
	char *line = NULL;
	size_t cap = 0;
	struct stat st;
	FILE *f;

	m->count = 0;
	if (!*dev || stat(dev, &st) || !S_ISBLK(st.st_mode))
		return 0;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return report_errno(errno, "apply: /proc/self/mountinfo");
	while (getline(&line, &cap, f) >= 0 && m->count < MOUNTS_MAX) {
		unsigned int major, minor;
		char dir[PATH_MAX];

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &major, &minor, dir) != 3)
			continue;
		if (major != major(st.st_rdev) || minor != minor(st.st_rdev))
			continue;
		unescape(dir);
		snprintf(m->dir[m->count++], PATH_MAX, "%s", dir);
	}
	free(line);
	fclose(f);
	return 0;
}

static bool mounted_on(const struct mounts *m, const char *dir)
{
	char real[PATH_MAX];

	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	for (int i = 0; i < m->count; i++)
		if (!strcmp(m->dir[i], real))
			return true;
	return false;
}

/* Open elsewhere (mounted, a holder, someone's O_EXCL): what power-off would refuse. */
static bool device_busy(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd < 0)
		return errno == EBUSY;
	close(fd);
	return false;
}

/* Data the module holds for the device: written pages, or reserved memory. */
static bool holds_data(const struct rdctl_device *cur)
{
	return (cur->has_allocated && cur->allocated_pages) || cur->phys_size;
}

/* The file system blkid finds on dev into type ("" for none); -1 when blkid fails. */
static int fs_type(const char *dev, char *type, size_t len)
{
	char *argv[] = { "blkid", "-p", "-o", "value", "-s", "TYPE", (char *)dev, NULL };
	int rc = run_tool(argv, type, len);

	/* 2: nothing found */
	if (rc == 2) {
		*type = '\0';
		return 0;
	}
	if (rc) {
		warnx("apply: blkid -p %s failed (exit status %d)", dev, rc);
		return -1;
	}
	return 0;
}

/* The option that makes mkfs.TYPE write over a file system it finds. */
static const char *mkfs_force_option(const char *fs)
{
	if (!strncmp(fs, "ext", 3))
		return "-F";
	if (!strcmp(fs, "xfs") || !strcmp(fs, "btrfs") || !strcmp(fs, "f2fs"))
		return "-f";
	return NULL;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	path_fmt(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char saved = *p;

		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return report_errno(errno, "apply: making %s", buf);
		*p = saved;
		if (!saved)
			return RC_OK;
	}
}

static void read_have(struct plan *p)
{
	char path[PATH_MAX];

	p->nwant = create_opts_attrs(&p->d->opts, p->defaults, p->want);
	for (int i = 0; i < p->nwant; i++) {
		path_fmt(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), name_of(p),
			 p->want[i].attr);
		if (attr_read_line(path, p->have[i], sizeof(p->have[i])))
			p->have[i][0] = '\0';
	}
}

static bool differs(const struct plan *p, int i)
{
	/*
	 * format is an action, not a state; an attribute this module lacks is
	 * as declared, and so is one left out that has no default
	 */
	return strcmp(p->want[i].attr, "format") && p->have[i][0] &&
	       (p->want[i].set || p->want[i].value[0]) && !same_value(p->have[i], p->want[i].value);
}

static const char *profile_wanted(const struct conf_device *d)
{
	return d->opts.v[COPT_PROFILE].set ? d->opts.v[COPT_PROFILE].arg : "none";
}

/* One line saying what data a change would lose, and how to make it anyway. */
static int refuse(const struct plan *p, const char *what, const struct mounts *m)
{
	char where[PATH_MAX + 32] = "";

	if (m->count)
		snprintf(where, sizeof(where), ", mounted on %s", m->dir[0]);
	warnx("apply: %s: %s would lose the data on %s (%" PRIu64 " bytes held%s); "
	      "--force does it",
	      name_of(p), what, p->dev, p->cur.allocated_bytes, where);
	return RC_DATA_LOSS;
}

/* The first pass: what to do with one device; RC_DATA_LOSS when it would lose data. */
static int plan_device(struct plan *p, const struct apply_opts *ao)
{
	const struct conf_device *d = p->d;
	struct mounts m;
	char what[256] = "", type[64];
	int rc;

	if (rd_load_configured(&p->cur, name_of(p))) {
		p->action = ACT_CREATE;
		return RC_OK;
	}
	if (p->cur.index < 0) {
		/* powered off: nothing in RAM to lose, made again as declared */
		p->action = ACT_RECREATE;
		return RC_OK;
	}
	snprintf(p->dev, sizeof(p->dev), "/dev/ramdisk%d", p->cur.index);
	read_have(p);
	for (int i = 0; i < p->nwant; i++)
		if (!p->want[i].live && differs(p, i) && !*what)
			snprintf(what, sizeof(what), "%s %s -> %s", p->want[i].attr, p->have[i],
				 p->want[i].value);
	if ((rc = find_mounts(p->dev, &m)))
		return rc;
	if (*what) {
		if (!ao->force && (holds_data(&p->cur) || m.count || device_busy(p->dev)))
			return refuse(p, what, &m);
		p->action = ACT_RECREATE;
		return RC_OK;
	}
	p->action = ACT_KEEP;
	p->profile_have = rd_profile_name(&p->cur);
	if (p->profile_have && !strcmp(p->profile_have, profile_wanted(d)))
		p->profile_have = NULL;
	if (!d->fs)
		return RC_OK;
	if (fs_type(p->dev, type, sizeof(type)))
		return RC_ERROR;
	if (!strcmp(type, d->fs) || (!*type && !holds_data(&p->cur)))
		return RC_OK;
	if (!ao->force) {
		if (*type)
			snprintf(what, sizeof(what), "fs %s over the %s it holds", d->fs, type);
		else
			snprintf(what, sizeof(what),
				 "fs %s over data blkid finds no file system in", d->fs);
		return refuse(p, what, &m);
	}
	p->force_mkfs = true;
	return RC_OK;
}

static int unmount_all(const char *name, const char *dev, bool dry_run)
{
	struct mounts m;
	int rc = find_mounts(dev, &m);

	/* the one mounted last first: it may sit on the others */
	for (int i = m.count - 1; !rc && i >= 0; i--) {
		char *argv[] = { "umount", m.dir[i], NULL };

		if (dry_run) {
			printf("%s: would unmount %s\n", name, m.dir[i]);
			continue;
		}
		if (run_tool(argv, NULL, 0)) {
			warnx("apply: %s: could not unmount %s (%s)", name, m.dir[i], dev);
			return RC_BUSY;
		}
		printf("%s: unmounted %s\n", name, m.dir[i]);
	}
	return rc;
}

/* Make the device, and fill it from its image when it has one. */
static int make_device(struct plan *p, const struct apply_opts *ao)
{
	const struct conf_device *d = p->d;
	int index, rc;

	if (ao->dry_run) {
		printf("%s: would create it\n", name_of(p));
		if (d->image && !access(d->image, F_OK))
			printf("%s: would restore %s\n", name_of(p), d->image);
		return RC_OK;
	}
	if ((rc = create_device(&d->opts, &index)))
		return rc;
	snprintf(p->dev, sizeof(p->dev), "/dev/ramdisk%d", index);
	printf("%s: created %s\n", name_of(p), p->dev);
	if (!d->image || access(d->image, F_OK))
		return RC_OK;
	rc = restore_image(d->image, p->dev);
	if (!rc) {
		printf("%s: restored %s\n", name_of(p), d->image);
		return RC_OK;
	}
	/*
	 * An empty device left behind would be saved over the image by the
	 * next apply --down: the image is worth more than the device.
	 */
	if (!remove_device(name_of(p)))
		warnx("apply: %s: removed again, so that %s stays as it is", name_of(p), d->image);
	p->dev[0] = '\0';
	return rc;
}

static int change_live(struct plan *p, const struct apply_opts *ao)
{
	char path[PATH_MAX];
	int rc;

	for (int i = 0; i < p->nwant; i++) {
		if (!p->want[i].live || !differs(p, i))
			continue;
		if (ao->dry_run) {
			printf("%s: would set %s %s -> %s\n", name_of(p), p->want[i].attr,
			       p->have[i], p->want[i].value);
			continue;
		}
		path_fmt(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), name_of(p),
			 p->want[i].attr);
		if (attr_write_line(path, p->want[i].value))
			return report_errno(errno, "apply: %s: setting %s=%s", name_of(p),
					    p->want[i].attr, p->want[i].value);
		printf("%s: %s %s -> %s\n", name_of(p), p->want[i].attr, p->have[i],
		       p->want[i].value);
	}
	if (!p->profile_have)
		return RC_OK;
	if (ao->dry_run) {
		printf("%s: would set profile %s -> %s\n", name_of(p), p->profile_have,
		       profile_wanted(p->d));
		return RC_OK;
	}
	rc = rd_profile_apply("apply", name_of(p), rd_profile_find(profile_wanted(p->d)), false);
	if (!rc)
		printf("%s: profile %s -> %s\n", name_of(p), p->profile_have, profile_wanted(p->d));
	return rc;
}

/* mkfs.FS when the device does not hold FS yet and holds nothing else (or --force). */
static int make_fs(struct plan *p, const struct apply_opts *ao)
{
	const struct conf_device *d = p->d;
	char *argv[CONF_MKFS_ARGS_MAX + 8], tool[32], type[64];
	const char *force = NULL;
	int n = 0, rc;

	if (ao->dry_run) {
		if (p->action != ACT_KEEP)
			printf("%s: would make %s unless its image holds one\n", name_of(p), d->fs);
		else if (p->force_mkfs)
			printf("%s: would make %s over what %s holds\n", name_of(p), d->fs, p->dev);
		return RC_OK;
	}
	if (fs_type(p->dev, type, sizeof(type)))
		return RC_ERROR;
	if (!strcmp(type, d->fs))
		return RC_OK;
	if (*type || p->force_mkfs) {
		struct rdctl_device cur;

		/* a restored image may hold another file system, or data without one */
		if (!p->force_mkfs && !ao->force) {
			if (rd_load_configured(&cur, name_of(p)))
				return RC_ERROR;
			p->cur = cur;
			return refuse(p, "mkfs over the restored image", &(struct mounts){ 0 });
		}
		force = mkfs_force_option(d->fs);
	}
	snprintf(tool, sizeof(tool), "mkfs.%s", d->fs);
	argv[n++] = tool;
	if (force)
		argv[n++] = (char *)force;
	for (int i = 0; d->mkfs_args[i]; i++)
		argv[n++] = d->mkfs_args[i];
	argv[n++] = p->dev;
	argv[n] = NULL;
	rc = run_tool(argv, NULL, 0);
	if (rc) {
		warnx("apply: %s: %s %s failed (exit status %d)", name_of(p), tool, p->dev, rc);
		return RC_ERROR;
	}
	printf("%s: made %s on %s\n", name_of(p), d->fs, p->dev);
	return RC_OK;
}

static int mount_fs(struct plan *p, const struct apply_opts *ao)
{
	const struct conf_device *d = p->d;
	char *argv[] = { "mount", "-t", (char *)d->fs, p->dev, (char *)d->mount, NULL, NULL, NULL };
	struct mounts m;
	int rc;

	if (ao->dry_run) {
		m.count = 0;
		if (p->action == ACT_KEEP && (rc = find_mounts(p->dev, &m)))
			return rc;
		if (!mounted_on(&m, d->mount))
			printf("%s: would mount it on %s\n", name_of(p), d->mount);
		return RC_OK;
	}
	if ((rc = find_mounts(p->dev, &m)))
		return rc;
	if (mounted_on(&m, d->mount))
		return RC_OK;
	if (m.count) {
		warnx("apply: %s: %s is mounted on %s, not on %s: left as it is", name_of(p),
		      p->dev, m.dir[0], d->mount);
		return RC_BUSY;
	}
	if ((rc = mkdir_p(d->mount)))
		return rc;
	if (d->mount_options) {
		argv[5] = "-o";
		argv[6] = (char *)d->mount_options;
	}
	rc = run_tool(argv, NULL, 0);
	if (rc) {
		warnx("apply: %s: mount %s on %s failed (exit status %d)", name_of(p), p->dev,
		      d->mount, rc);
		return RC_ERROR;
	}
	printf("%s: mounted %s on %s\n", name_of(p), p->dev, d->mount);
	return RC_OK;
}

/* The second pass, for one device. */
static int act(struct plan *p, const struct apply_opts *ao)
{
	const struct conf_device *d = p->d;
	int rc = RC_OK;

	if (p->action == ACT_RECREATE) {
		if (p->dev[0] && (rc = unmount_all(name_of(p), p->dev, ao->dry_run)))
			return rc;
		if (ao->dry_run) {
			printf("%s: would remove it\n", name_of(p));
		} else {
			if ((rc = remove_device(name_of(p))))
				return rc;
			printf("%s: removed %s\n", name_of(p),
			       p->dev[0] ? p->dev : "it (powered off)");
		}
	}
	if (p->action == ACT_KEEP)
		rc = change_live(p, ao);
	else
		rc = make_device(p, ao);
	if (!rc && d->fs && (p->dev[0] || ao->dry_run))
		rc = make_fs(p, ao);
	if (!rc && d->mount && (p->dev[0] || ao->dry_run))
		rc = mount_fs(p, ao);
	return rc;
}

static int apply_up(struct conf *c, const struct apply_opts *ao)
{
	struct plan *plans = calloc(c->count ? c->count : 1, sizeof(*plans));
	struct module_defaults defaults = { "" };
	int rc = RC_OK, first = RC_OK;

	if (!plans) {
		warnx("out of memory");
		return RC_ERROR;
	}
	/* without the module there is no device to compare, and create says why */
	if (c->count && !access(rd_configfs_root(), F_OK) &&
	    (rc = module_defaults_read("apply", &defaults))) {
		free(plans);
		return rc;
	}
	for (size_t i = 0; i < c->count; i++) {
		plans[i].d = &c->devices[i];
		plans[i].defaults = &defaults;
		rc = plan_device(&plans[i], ao);
		if (rc && !first)
			first = rc;
	}
	if (first) {
		warnx("apply: %s: nothing was changed", c->path);
		free(plans);
		return first;
	}
	/* every device is tried; the first failure is the exit status */
	for (size_t i = 0; i < c->count; i++) {
		rc = act(&plans[i], ao);
		if (rc && !first)
			first = rc;
	}
	free(plans);
	return first;
}

/* Unmount, save, remove: a device whose data could not be saved stays. */
static int down_device(const struct conf_device *d, const struct apply_opts *ao)
{
	const char *name = d->opts.v[COPT_NAME].arg;
	struct rdctl_device cur;
	char dev[32] = "";
	int rc;

	if (rd_load_configured(&cur, name))
		return RC_OK;
	if (cur.index >= 0)
		snprintf(dev, sizeof(dev), "/dev/ramdisk%d", cur.index);
	if (*dev && (rc = unmount_all(name, dev, ao->dry_run)))
		return rc;
	if (*dev && d->image) {
		if (ao->dry_run) {
			printf("%s: would save %s to %s\n", name, dev, d->image);
		} else if ((rc = save_image_atomic(dev, d->image))) {
			warnx("apply: %s: kept: its data could not be saved to %s", name, d->image);
			return rc;
		} else {
			printf("%s: saved %s\n", name, d->image);
		}
	}
	if (ao->dry_run) {
		printf("%s: would remove it\n", name);
		return RC_OK;
	}
	if ((rc = remove_device(name)))
		return rc;
	printf("%s: removed\n", name);
	return RC_OK;
}

static int apply_down(struct conf *c, const struct apply_opts *ao)
{
	int rc, first = RC_OK;

	/* the last declared first, as a later one may be mounted inside an earlier one */
	for (size_t i = c->count; i-- > 0;) {
		rc = down_device(&c->devices[i], ao);
		if (rc && !first)
			first = rc;
	}
	return first;
}

int cmd_apply(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "down", no_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct apply_opts ao = { .file = CONF_DEFAULT_PATH };
	struct conf c;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, ":dfnh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			ao.down = true;
			break;
		case 'f':
			ao.force = true;
			break;
		case 'n':
			ao.dry_run = true;
			break;
		case 'h':
			return command_help("apply");
		default:
			return option_error("apply", argv, opt);
		}
	}
	if (argc - optind > 1)
		return usage_error("apply", "unexpected argument '%s'", argv[optind + 1]);
	if (ao.down && ao.force)
		return usage_error("apply", "--down takes no --force: it never loses data");
	if (optind < argc)
		ao.file = argv[optind];
	if ((rc = conf_load(ao.file, &c)))
		return rc;
	if (!c.count) {
		conf_free(&c);
		return RC_OK;
	}
	if (!(rc = require_module()))
		for (size_t i = 0; !rc && i < c.count; i++)
			rc = create_check_features(&c.devices[i].opts);
	if (!rc)
		rc = ao.down ? apply_down(&c, &ao) : apply_up(&c, &ao);
	conf_free(&c);
	return rc;
}
