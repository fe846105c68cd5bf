// SPDX-License-Identifier: GPL-2.0
/*
 * powercut and profile: the device-emulation attributes of a configuration
 * (volatile write cache, latency and bandwidth), and their lines in info.
 */
#include "ramdiskctl.h"

#include "die.h"
#include "sysfs_file.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * Figures and their sources are in Documentation/admin-guide.md,
 * "Profiles". Latencies in nanoseconds, bandwidth in MB/s, 0 = off.
 */
struct profile {
	const char *name;
	unsigned int read_ns, write_ns, flush_ns, mbps;
};

static const struct profile profiles[] = {
	{ "none", 0, 0, 0, 0 },
	{ "nvram", 2000, 2000, 0, 0 },
	{ "ssd", 90000, 30000, 1000000, 500 },
	{ "hdd", 12000000, 12000000, 10000000, 180 },
	{ "disk-1994", 18000000, 18000000, 18000000, 3 },
};

#define NR_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

static const char *const throttle_attrs[] = { "read_latency_ns", "write_latency_ns",
					      "flush_latency_ns", "bandwidth_mbps" };

/* The configuration behind arg, which must exist in configfs. */
static int resolve_configured(const char *cmd, const char *arg, struct rd_device *d)
{
	int rc = require_module();

	if (rc)
		return rc;
	rc = rd_resolve(arg, d);
	if (rc)
		return rc;
	if (!d->configured) {
		errmsg("%s: %s was made at module load and has no configuration", cmd, arg);
		return RC_NO_DEVICE;
	}
	return RC_OK;
}

static int write_attr(const char *cmd, const char *name, const char *attr, const char *value)
{
	char path[PATH_MAX];

	path_fmt(path, sizeof(path), "%s/%s/%s", configfs_root(), name, attr);
	if (sysfs_write_line(path, value))
		return report_errno(errno, "%s: %s: writing %s", cmd, name, attr);
	return RC_OK;
}

int cmd_powercut(int argc, char **argv)
{
	struct rd_device d;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("powercut");
	if (argc != 2)
		return usage_error("powercut", "takes one device");
	rc = resolve_configured("powercut", argv[1], &d);
	if (rc)
		return rc;
	if (d.index < 0) {
		errmsg("powercut: %s is powered off", argv[1]);
		return RC_NO_DEVICE;
	}
	return write_attr("powercut", d.name, "power_cut", "1");
}

int cmd_profile(int argc, char **argv)
{
	const struct profile *p = NULL;
	struct rd_device d;
	const char *name;
	unsigned int values[4];
	char value[32];
	size_t i;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("profile");
	if (argc != 3)
		return usage_error("profile", "takes a device and a profile name");
	for (i = 0; i < NR_PROFILES; i++)
		if (!strcmp(argv[2], profiles[i].name))
			p = &profiles[i];
	if (!p)
		return usage_error("profile", "unknown profile '%s'", argv[2]);
	rc = resolve_configured("profile", argv[1], &d);
	if (rc)
		return rc;
	name = d.name;
	values[0] = p->read_ns;
	values[1] = p->write_ns;
	values[2] = p->flush_ns;
	values[3] = p->mbps;
	for (i = 0; i < 4; i++) {
		snprintf(value, sizeof(value), "%u", values[i]);
		rc = write_attr("profile", name, throttle_attrs[i], value);
		if (rc)
			return rc;
		printf("%s=%s\n", throttle_attrs[i], value);
	}
	return RC_OK;
}

/* "key: value" lines for info; nothing for attributes the module lacks. */
void print_emulation(const struct rd_device *d, void (*field)(const char *key, const char *value))
{
	char path[PATH_MAX], line[64], dev[32];
	size_t i;

	if (d->configured) {
		path_fmt(path, sizeof(path), "%s/%s/cache_mode", configfs_root(), d->name);
		if (!sysfs_read_line(path, line, sizeof(line)))
			field("cache_mode:", line);
		for (i = 0; i < 4; i++) {
			path_fmt(path, sizeof(path), "%s/%s/%s", configfs_root(), d->name,
				 throttle_attrs[i]);
			if (!sysfs_read_line(path, line, sizeof(line))) {
				snprintf(dev, sizeof(dev), "%s:", throttle_attrs[i]);
				field(dev, line);
			}
		}
	}
	if (d->index < 0)
		return;
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/ramdisk/dirty_bytes", sysfs_root(),
		 d->index);
	if (!sysfs_read_line(path, line, sizeof(line)))
		field("dirty_bytes:", line);
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/ramdisk/power_cuts", sysfs_root(),
		 d->index);
	if (!sysfs_read_line(path, line, sizeof(line)))
		field("power_cuts:", line);
}
