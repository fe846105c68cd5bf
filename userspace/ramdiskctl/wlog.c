// SPDX-License-Identifier: GPL-2.0
/*
 * wlog: a powered device's write log (its write_log file): start it
 * (optionally with a checkpoint taken at the same moment), mark it, stop
 * it, clear it; print its entries; export them in dm-log-writes' format,
 * which fstests' replay-log reads.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "configured.h"
#include "help.h"
#include "module_check.h"
#include "table.h"
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
#include <unistd.h>

#include "ramdisk.h"
#include "wlog.h"

/* "fua,atomic,failed,ignored" or "-" */
static void flag_names(unsigned int flags, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s%s", flags & RAMDISK_WLOG_FUA ? "fua," : "",
		 flags & RAMDISK_WLOG_ATOMIC ? "atomic," : "",
		 flags & RAMDISK_WLOG_FAILED ? "failed," : "",
		 flags & RAMDISK_WLOG_IGNORED ? "ignored," : "");
	if (out[0])
		out[strlen(out) - 1] = '\0';
	else
		snprintf(out, len, "-");
}

static int print_entries(const struct wlog *w, const struct table_style *style)
{
	static const struct table_column cols[] = {
		{ "SEQ", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "EPOCH", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "TYPE", SCOLS_JSON_STRING, 0 },
		{ "SECTOR", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "SECTORS", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
		{ "FLAGS", SCOLS_JSON_STRING, 0 },
		{ "MARK", SCOLS_JSON_STRING, 0 },
		{ "ORDER", SCOLS_JSON_NUMBER, SCOLS_FL_RIGHT },
	};
	struct libscols_table *tb =
		table_new("write_log", cols, sizeof(cols) / sizeof(cols[0]), style);
	char num[5][24], flags[32], mark[128];
	uint64_t epoch = 0;
	size_t i;

	if (!tb)
		return RC_ERROR;
	for (i = 0; i < w->n; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];
		struct libscols_line *ln = scols_table_new_line(tb, NULL);
		size_t mlen = e->type == RAMDISK_WLOG_MARK ? e->data_len : 0;

		if (!ln)
			errx(RC_ERROR, "wlog: out of memory");
		/* an epoch: the writes between two flushes that completed */
		snprintf(num[0], sizeof(num[0]), "%" PRIu64, (uint64_t)e->seq);
		snprintf(num[1], sizeof(num[1]), "%" PRIu64, epoch);
		snprintf(num[2], sizeof(num[2]), "%" PRIu64, (uint64_t)e->sector);
		snprintf(num[3], sizeof(num[3]), "%" PRIu32, e->nr_sectors);
		/* among every device's entries: the order a power domain's logs merge in */
		snprintf(num[4], sizeof(num[4]), "%" PRIu32, e->order);
		flag_names(e->flags, flags, sizeof(flags));
		if (mlen >= sizeof(mark))
			mlen = sizeof(mark) - 1;
		memcpy(mark, w->data + e->data_offset, mlen);
		mark[mlen] = '\0';
		if (scols_line_set_data(ln, 0, num[0]) || scols_line_set_data(ln, 1, num[1]) ||
		    scols_line_set_data(ln, 2, wlog_type_name(e->type)) ||
		    scols_line_set_data(ln, 3, num[2]) || scols_line_set_data(ln, 4, num[3]) ||
		    scols_line_set_data(ln, 5, flags) || scols_line_set_data(ln, 6, mark) ||
		    scols_line_set_data(ln, 7, num[4]))
			errx(RC_ERROR, "wlog: out of memory");
		if (wlog_flush_durable(e))
			epoch++;
	}
	return table_print(tb, style);
}

/* What the module's refusal of a write_log line means. */
static int refused(const char *cmd, const struct rdctl_device *d, const char *action, int err)
{
	char path[PATH_MAX], state[32] = "";

	path_fmt(path, sizeof(path), "%s/%s/write_log", rd_configfs_root(), d->name);
	attr_read_line(path, state, sizeof(state));
	switch (err) {
	case EBUSY:
		warnx("%s: %s: a write log is there already (%s); read or export it, then "
		      "clear it",
		      cmd, d->name, state);
		return RC_BUSY;
	case EEXIST:
		warnx("%s: %s: the checkpoint exists already", cmd, d->name);
		return RC_EXISTS;
	case ENODEV:
		warnx("%s: %s is powered off; a device has a write log only while powered", cmd,
		      d->name);
		return RC_NO_DEVICE;
	case EINVAL:
		if (strcmp(action, "start"))
			warnx("%s: %s: cannot %s: the write log is %s, not recording", cmd, d->name,
			      action, state[0] ? state : "off");
		else
			warnx("%s: %s: cannot start the write log (see dmesg)", cmd, d->name);
		return RC_USAGE;
	default:
		return report_errno(err, "%s: %s: %s", cmd, d->name, action);
	}
}

int cmd_wlog(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct table_style style = { 0 };
	char path[PATH_MAX], line[256], dev[32], bs_path[PATH_MAX];
	struct rdctl_device d;
	const char *target, *sub;
	uint64_t bs;
	struct wlog w;
	int opt, rc, fd, nops;
	bool show;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("wlog");
	if (argc < 3)
		return usage_error("wlog",
				   "takes a device and start, stop, mark, clear, show or export");
	target = argv[1];
	sub = argv[2];
	show = !strcmp(sub, "show");
	argc -= 2;
	argv += 2;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":jrnh", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("wlog");
		if (opt == '?' || opt == ':')
			return option_error("wlog", argv, opt);
		if (!show)
			return usage_error("wlog", "only show takes --json, --raw, --noheadings");
		style.json |= opt == 'j';
		style.raw |= opt == 'r';
		style.noheadings |= opt == 'n';
	}
	nops = argc - optind;
	if (!strcmp(sub, "start")) {
		if (nops > 1)
			return usage_error("wlog", "start takes at most a checkpoint name");
		snprintf(line, sizeof(line), "start%s%s", nops ? " " : "",
			 nops ? argv[optind] : "");
	} else if (!strcmp(sub, "mark")) {
		if (nops != 1 || !argv[optind][0] || strlen(argv[optind]) > 127)
			return usage_error("wlog", "mark takes one text of 1 to 127 characters");
		snprintf(line, sizeof(line), "mark %s", argv[optind]);
	} else if (!strcmp(sub, "stop") || !strcmp(sub, "clear") || show) {
		if (nops)
			return usage_error("wlog", "%s takes no operand", sub);
		snprintf(line, sizeof(line), "%s", sub);
	} else if (!strcmp(sub, "export")) {
		if (nops != 1)
			return usage_error("wlog", "export takes one file name");
	} else {
		return usage_error("wlog",
				   "unknown action '%s': start, stop, mark, clear, show or export",
				   sub);
	}

	rc = resolve_configured("wlog", target, &d);
	if (rc)
		return rc;
	path_fmt(path, sizeof(path), "%s/%s/write_log", rd_configfs_root(), d.name);
	if (!module_supports("write_log")) {
		warnx("wlog: the loaded ramdisk module has no write_log (see its features)");
		return RC_ERROR;
	}
	if (d.index < 0) {
		warnx("wlog: %s is powered off; a device has a write log only while powered",
		      d.name);
		return RC_NO_DEVICE;
	}
	if (strcmp(sub, "show") && strcmp(sub, "export")) {
		if (attr_write_line(path, line))
			return refused("wlog", &d, sub, errno);
		return RC_OK;
	}

	rd_devpath(&d, dev, sizeof(dev));
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warn("wlog: %s", dev);
		return RC_ERROR;
	}
	if (wlog_read(fd, &w)) {
		if (errno == ENOTTY)
			warnx("wlog: %s has no write log to read (a partition, or a module without "
			      "write_log)",
			      dev);
		else
			warn("wlog: reading the write log of %s", dev);
		close(fd);
		return RC_ERROR;
	}
	close(fd);
	if (show) {
		rc = print_entries(&w, &style);
	} else {
		path_fmt(bs_path, sizeof(bs_path), "%s/block/ramdisk%d/queue/logical_block_size",
			 sysfs_root(), d.index);
		if (attr_read_u64(bs_path, &bs) || bs < 512 || bs > 65536) {
			warnx("wlog: cannot read the logical block size of %s", dev);
			rc = RC_ERROR;
		} else {
			if (w.state == RAMDISK_WLOG_RECORDING)
				warnx("wlog: %s: the log still records: exported up to entry %zu",
				      d.name, w.n);
			/* zone resets as discards, finishes left out (lib/wlog.h) */
			rc = RC_OK;
			if (wlog_export_dmlw(&w, (uint32_t)bs, argv[optind])) {
				warn("wlog: writing %s", argv[optind]);
				rc = RC_ERROR;
			}
		}
	}
	wlog_free(&w);
	return rc;
}
