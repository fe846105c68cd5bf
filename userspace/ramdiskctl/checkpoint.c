// SPDX-License-Identifier: GPL-2.0
/*
 * checkpoint and rollback: the named checkpoints of a powered
 * configuration (its checkpoints file): take one, drop one, list them with
 * the pages they hold; and make the device's data a checkpoint's again
 * (its rollback file).
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "checkpoint_line.h"
#include "configured.h"
#include "help.h"
#include "module_check.h"
#include "table.h"
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* More lines than the module keeps (16): a list is read whole. */
#define CHECKPOINT_LIST_MAX 64

/*
 * udev opens every new disk to probe it: a rollback straight after create
 * can meet a moment of EBUSY that is nobody's fault; ride it out for a
 * second, as remove does, before calling the device open.
 */
#define BUSY_RETRIES 20
#define BUSY_RETRY_NS (50 * 1000 * 1000L)

/* The path of a configuration's attr (checkpoints or rollback), when the module has it. */
static int attr_path(const char *cmd, const struct rdctl_device *d, const char *attr, char *path,
		     size_t len)
{
	path_fmt(path, len, "%s/%s/%s", rd_configfs_root(), d->name, attr);
	/* a module from before the features list may lack the file all the same */
	if (!module_supports(attr) || (access(path, F_OK) && errno == ENOENT)) {
		warnx("%s: the loaded ramdisk module has no %s (see its features)", cmd,
		      strcmp(attr, "rollback") ? "checkpoints" : "checkpoint rollback");
		return RC_ERROR;
	}
	return RC_OK;
}

static int powered_off(const char *cmd, const struct rdctl_device *d)
{
	warnx("%s: %s is powered off; a device has checkpoints only while powered", cmd, d->name);
	return RC_NO_DEVICE;
}

/*
 * The configuration behind arg, powered, with the module's attr at path;
 * RC_OK, or a message and an exit status.
 */
static int resolve_attr(const char *cmd, const char *arg, const char *attr, struct rdctl_device *d,
			char *path, size_t len)
{
	int rc = resolve_configured(cmd, arg, d);

	if (!rc)
		rc = attr_path(cmd, d, attr, path, len);
	if (!rc && d->index < 0)
		rc = powered_off(cmd, d);
	return rc;
}

/* Whether the configuration is a clone: its clone_of names a checkpoint. */
static bool is_clone(const struct rdctl_device *d)
{
	char path[PATH_MAX], line[128];

	path_fmt(path, sizeof(path), "%s/%s/clone_of", rd_configfs_root(), d->name);
	return !attr_read_line(path, line, sizeof(line)) && line[0];
}

/*
 * What the module's refusal of a write about checkpoint ck means, as one
 * line; what is "taking", "dropping" or "rolling back to".
 */
/* Whether the device's write log records: the module refuses a rollback then (EBUSY). */
static bool log_recording(const struct rdctl_device *d)
{
	char path[PATH_MAX], state[32] = "";

	path_fmt(path, sizeof(path), "%s/%s/write_log", rd_configfs_root(), d->name);
	return !attr_read_line(path, state, sizeof(state)) && !strcmp(state, "recording");
}

static int refused(const char *cmd, const struct rdctl_device *d, const char *what, const char *ck,
		   int err)
{
	char dev[32];

	switch (err) {
	case EEXIST:
		warnx("%s: %s: checkpoint %s exists already", cmd, d->name, ck);
		return RC_EXISTS;
	case ENOSPC:
		warnx("%s: %s: cannot take checkpoint %s: the device has %d, the most it may "
		      "have; drop one first",
		      cmd, d->name, ck, CHECKPOINT_MAX);
		return RC_ERROR;
	case ENOENT:
		warnx("%s: %s has no checkpoint %s (see %s checkpoint %s list)", cmd, d->name, ck,
		      program_invocation_short_name, d->name);
		return RC_NO_DEVICE;
	case ENODEV:
		return powered_off(cmd, d);
	case EOPNOTSUPP:
		if (is_clone(d))
			warnx("%s: %s: cannot take checkpoint %s: the device is a clone, which "
			      "takes none (remove it and clone again to start over)",
			      cmd, d->name, ck);
		else
			warnx("%s: %s: cannot take checkpoint %s: the device lives in reserved "
			      "memory, which has no checkpoints",
			      cmd, d->name, ck);
		return RC_ERROR;
	case EBUSY:
		if (!strcmp(what, "dropping")) {
			warnx("%s: %s: cannot drop checkpoint %s: clones start from it; remove "
			      "them first",
			      cmd, d->name, ck);
			return RC_BUSY;
		}
		if (log_recording(d)) {
			warnx("%s: %s: cannot roll back to checkpoint %s while its write log "
			      "records; stop or clear the log first",
			      cmd, d->name, ck);
			return RC_BUSY;
		}
		warnx("%s: %s: cannot roll back to checkpoint %s: %s is open or mounted; "
		      "unmount it (and close it) first",
		      cmd, d->name, ck, rd_devpath(d, dev, sizeof(dev)));
		return RC_BUSY;
	default:
		return report_errno(err, "%s: %s: %s checkpoint %s", cmd, d->name, what, ck);
	}
}

/* A checkpoint name from the command line; RC_OK or a usage error. */
static int check_name(const char *cmd, const char *ck)
{
	const char *why = checkpoint_name_invalid(ck);

	if (why)
		return usage_error(cmd, "'%s' is not a checkpoint name: %s", ck, why);
	return RC_OK;
}

static int parse_line(const char *line, void *item)
{
	return checkpoint_parse_line(line, item);
}

/* The lines of the checkpoints file at path; the number read, or -1 with a message. */
static int read_list(const struct rdctl_device *d, const char *path, struct checkpoint_line *cks)
{
	char *bad;
	int n = attr_read_lines(path, cks, sizeof(cks[0]), CHECKPOINT_LIST_MAX, parse_line, &bad);

	if (bad)
		warnx("checkpoint: %s: cannot read the checkpoints line '%s'", d->name, bad);
	else if (n < 0)
		report_errno(errno, "checkpoint: %s: reading checkpoints", d->name);
	free(bad);
	return n;
}

static int checkpoint_cells(struct libscols_line *ln, const void *item)
{
	const struct checkpoint_line *ck = item;
	char num[2][24];

	snprintf(num[0], sizeof(num[0]), "%" PRIu64, ck->pages);
	snprintf(num[1], sizeof(num[1]), "%" PRIu64, ck->own);
	return scols_line_set_data(ln, 0, ck->name) || scols_line_set_data(ln, 1, num[0]) ||
	       scols_line_set_data(ln, 2, num[1]);
}

static int print_list(const struct checkpoint_line *cks, int n, const struct table_style *style)
{
	static const struct table_column cols[] = {
		{ "NAME", SCOLS_JSON_STRING, 0 },
		{ "PAGES", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "OWN", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
	};
	struct libscols_table *tb =
		table_new("checkpoints", cols, sizeof(cols) / sizeof(cols[0]), style);

	if (!tb)
		return RC_ERROR;
	return table_print_items(tb, cks, n, sizeof(cks[0]), checkpoint_cells, style);
}

/* "--NAME" of a list option getopt_long() returned as opt. */
static const char *option_name(int opt)
{
	return opt == 'j' ? "--json" : opt == 'r' ? "--raw" : "--noheadings";
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int cmd_checkpoint(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct checkpoint_line cks[CHECKPOINT_LIST_MAX];
	struct table_style style = { 0 };
	char path[PATH_MAX], line[CHECKPOINT_NAME_MAX + 2];
	struct rdctl_device d;
	const char *sub, *target, *ck;
	bool list, take;
	int opt, rc, n;

	if (argc == 2 && is_help(argv[1]))
		return command_help("checkpoint");
	if (argc < 3)
		return usage_error("checkpoint", "takes a device and take, drop or list");
	target = argv[1];
	sub = argv[2];
	list = !strcmp(sub, "list");
	if (!list && strcmp(sub, "take") && strcmp(sub, "drop"))
		return usage_error("checkpoint", "unknown action '%s': take, drop or list", sub);
	/* the options and operands after the action, the action as argv[0] */
	argc -= 2;
	argv += 2;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":jrnh", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("checkpoint");
		if (opt == '?' || opt == ':')
			return option_error("checkpoint", argv, opt);
		if (!list)
			return usage_error("checkpoint", "%s takes no %s", sub, option_name(opt));
		style.json |= opt == 'j';
		style.raw |= opt == 'r';
		style.noheadings |= opt == 'n';
	}
	if (list && optind < argc)
		return usage_error("checkpoint", "list takes no operand");
	if (!list && argc - optind != 1)
		return usage_error("checkpoint", "%s takes one checkpoint name", sub);
	ck = list ? NULL : argv[optind];
	if (ck && (rc = check_name("checkpoint", ck)))
		return rc;

	rc = resolve_attr("checkpoint", target, "checkpoints", &d, path, sizeof(path));
	if (rc)
		return rc;
	if (list) {
		n = read_list(&d, path, cks);
		return n < 0 ? RC_ERROR : print_list(cks, n, &style);
	}
	take = !strcmp(sub, "take");
	snprintf(line, sizeof(line), "%c%s", take ? '+' : '-', ck);
	if (attr_write_line(path, line))
		return refused("checkpoint", &d, take ? "taking" : "dropping", ck, errno);
	return RC_OK;
}

int cmd_rollback(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct timespec pause = { 0, BUSY_RETRY_NS };
	char path[PATH_MAX];
	struct rdctl_device d;
	int opt, rc, tries = 0;
	const char *ck;

	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("rollback");
		return option_error("rollback", argv, opt);
	}
	if (argc - optind != 2)
		return usage_error("rollback", "takes a device and a checkpoint name");
	ck = argv[optind + 1];
	rc = check_name("rollback", ck);
	if (rc)
		return rc;
	rc = resolve_attr("rollback", argv[optind], "rollback", &d, path, sizeof(path));
	if (rc)
		return rc;
	while (attr_write_line(path, ck)) {
		/* a log that records is no moment's business: no retry for it */
		if (errno != EBUSY || ++tries > BUSY_RETRIES || log_recording(&d))
			return refused("rollback", &d, "rolling back to", ck, errno);
		nanosleep(&pause, NULL);
	}
	return RC_OK;
}
