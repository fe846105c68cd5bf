// SPDX-License-Identifier: GPL-2.0
/*
 * powercut and profile: the device-emulation attributes of a configuration
 * (volatile write cache, latency and bandwidth), and their lines in info.
 */
#include "ramdiskctl.h"

#include "sysfs_file.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * Figures and their sources are in Documentation/admin-guide.md,
 * "Profiles". Latencies in nanoseconds, bandwidth in MB/s, 0 = off;
 * rotational: the device says it spins, and the I/O scheduler and file
 * systems choose as they would for a disk.
 */
struct profile {
	const char *name;
	unsigned int read_ns, write_ns, flush_ns, mbps;
	bool rotational;
};

static const struct profile profiles[] = {
	{ "none", 0, 0, 0, 0, false },
	{ "nvram", 2000, 2000, 0, 0, false },
	{ "ssd", 90000, 30000, 1000000, 500, false },
	{ "hdd", 12000000, 12000000, 10000000, 180, true },
	{ "disk-1994", 18000000, 18000000, 18000000, 3, true },
};

#define NR_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

static const char *const throttle_attrs[] = { "read_latency_ns", "write_latency_ns",
					      "flush_latency_ns", "bandwidth_mbps" };

int resolve_configured(const char *cmd, const char *arg, struct rdctl_device *d)
{
	int rc = require_module();

	if (rc)
		return rc;
	rc = rd_resolve(arg, d);
	if (rc)
		return rc;
	if (!d->configured) {
		warnx("%s: %s was made at module load and has no configuration", cmd, arg);
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
	struct rdctl_device d;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("powercut");
	if (argc != 2)
		return usage_error("powercut", "takes one device");
	rc = resolve_configured("powercut", argv[1], &d);
	if (rc)
		return rc;
	if (d.index < 0) {
		warnx("powercut: %s is powered off", argv[1]);
		return RC_NO_DEVICE;
	}
	return write_attr("powercut", d.name, "power_cut", "1");
}

const struct profile *rd_profile_find(const char *name)
{
	for (size_t i = 0; i < NR_PROFILES; i++)
		if (!strcmp(name, profiles[i].name))
			return &profiles[i];
	return NULL;
}

int rd_profile_apply(const char *cmd, const char *name, const struct profile *p, bool print)
{
	unsigned int values[4] = { p->read_ns, p->write_ns, p->flush_ns, p->mbps };
	char value[32];
	int rc;

	for (size_t i = 0; i < 4; i++) {
		snprintf(value, sizeof(value), "%u", values[i]);
		rc = write_attr(cmd, name, throttle_attrs[i], value);
		if (rc)
			return rc;
		if (print)
			printf("%s=%s\n", throttle_attrs[i], value);
	}
	/* a module from before the attribute takes the rest of the profile */
	if (!module_supports("rotational"))
		return RC_OK;
	rc = write_attr(cmd, name, "rotational", p->rotational ? "1" : "0");
	if (rc)
		return rc;
	if (print)
		printf("rotational=%d\n", p->rotational);
	return RC_OK;
}

int cmd_profile(int argc, char **argv)
{
	const struct profile *p;
	struct rdctl_device d;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("profile");
	if (argc != 3)
		return usage_error("profile", "takes a device and a profile name");
	p = rd_profile_find(argv[2]);
	if (!p)
		return usage_error("profile", "unknown profile '%s'", argv[2]);
	rc = resolve_configured("profile", argv[1], &d);
	if (rc)
		return rc;
	return rd_profile_apply("profile", d.name, p, true);
}

const char *rd_profile_name(const struct rdctl_device *d)
{
	if (!d->has_throttle)
		return NULL;
	for (size_t i = 0; i < NR_PROFILES; i++) {
		const struct profile *p = &profiles[i];

		if (d->read_latency_ns == p->read_ns && d->write_latency_ns == p->write_ns &&
		    d->flush_latency_ns == p->flush_ns && d->bandwidth_mbps == p->mbps)
			return p->name;
	}
	return "custom";
}

/* "key: value" lines for info; nothing for attributes the module lacks. */
void print_emulation(const struct rdctl_device *d,
		     void (*field)(const char *key, const char *value))
{
	const uint64_t values[] = { d->read_latency_ns, d->write_latency_ns, d->flush_latency_ns,
				    d->bandwidth_mbps };
	char key[32], value[64];

	if (d->has_cache_mode)
		field("cache_mode:", d->cache_mode);
	if (d->has_throttle) {
		field("profile:", rd_profile_name(d));
		for (size_t i = 0; i < 4; i++) {
			snprintf(key, sizeof(key), "%s:", throttle_attrs[i]);
			snprintf(value, sizeof(value), "%" PRIu64, values[i]);
			field(key, value);
		}
	}
	if (d->has_dirty) {
		snprintf(value, sizeof(value), "%" PRIu64, d->dirty_bytes);
		field("dirty_bytes:", value);
		/* what a power cut would do now, in words */
		if (d->dirty_bytes)
			snprintf(value, sizeof(value), "no, a power cut loses %" PRIu64 " bytes",
				 d->dirty_bytes);
		else
			snprintf(value, sizeof(value), "yes, every completed write");
		field("durable:", value);
	}
	if (d->has_power_cuts) {
		snprintf(value, sizeof(value), "%" PRIu64, d->power_cuts);
		field("power_cuts:", value);
	}
}
