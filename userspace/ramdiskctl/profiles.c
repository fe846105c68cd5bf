// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles: the read, write and flush latencies and the bandwidth of a kind
 * of disk, as profile, create --profile and apply set them, and the name
 * of the one a device has.
 */
#include "ramdiskctl.h"

#include "configured.h"
#include "module_check.h"
#include "profiles.h"

#include <stdbool.h>
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

const char *const throttle_attrs[] = { "read_latency_ns", "write_latency_ns", "flush_latency_ns",
				       "bandwidth_mbps" };

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
		rc = write_config_attr(cmd, name, throttle_attrs[i], value);
		if (rc)
			return rc;
		if (print)
			printf("%s=%s\n", throttle_attrs[i], value);
	}
	/* a module from before the attribute takes the rest of the profile */
	if (!module_supports("rotational"))
		return RC_OK;
	rc = write_config_attr(cmd, name, "rotational", p->rotational ? "1" : "0");
	if (rc)
		return rc;
	if (print)
		printf("rotational=%d\n", p->rotational);
	return RC_OK;
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
