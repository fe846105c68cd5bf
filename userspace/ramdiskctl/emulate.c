// SPDX-License-Identifier: GPL-2.0
/*
 * powercut and profile: the device-emulation attributes of a configuration
 * (volatile write cache, latency and bandwidth), and their lines in info.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "configured.h"
#include "help.h"
#include "profiles.h"
#include "usage.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * A power domain's cut, one write to the root's power_cut_domain: the
 * module cuts every powered member at one instant. Its two refusals get
 * their own words here, as the kernel log has them.
 */
static int powercut_domain(const char *domain)
{
	char path[PATH_MAX];

	if (!*domain)
		return usage_error("powercut", "--domain takes the name of a power domain");
	path_fmt(path, sizeof(path), "%s/power_cut_domain", rd_configfs_root());
	if (!attr_write_line(path, domain))
		return RC_OK;
	switch (errno) {
	case ENOENT:
		warnx("powercut: the loaded module has no power domains (%s is missing)", path);
		return RC_NO_MODULE;
	case ENODEV:
		warnx("powercut: no device of power domain '%s' is powered", domain);
		return RC_NO_DEVICE;
	case EINVAL:
		warnx("powercut: no configuration is in power domain '%s', or the name is not one (the kernel log says which: dmesg)",
		      domain);
		return RC_NO_DEVICE;
	default:
		return report_errno(errno, "powercut: power domain '%s'", domain);
	}
}

int cmd_powercut(int argc, char **argv)
{
	struct rdctl_device d;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_help("powercut");
	if (argc >= 2 && !strcmp(argv[1], "--domain")) {
		if (argc != 3)
			return usage_error("powercut", "--domain takes one power domain");
		return powercut_domain(argv[2]);
	}
	if (argc != 2)
		return usage_error("powercut", "takes one device, or --domain and a power domain");
	rc = resolve_configured("powercut", argv[1], &d);
	if (rc)
		return rc;
	if (d.index < 0) {
		warnx("powercut: %s is powered off", argv[1]);
		return RC_NO_DEVICE;
	}
	return write_config_attr("powercut", d.name, "power_cut", "1");
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
