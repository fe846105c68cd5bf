// SPDX-License-Identifier: GPL-2.0
/*
 * Where the module's sysfs attributes live. The root can be moved with
 * RAMDISKCTL_SYSFS, as the configfs tree can with RAMDISK_CONFIGFS
 * (rd_configfs_root(), attr_file.h), so that the host tests can run the
 * tool against a fake tree without the module.
 */
#include "ramdiskctl.h"

#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_SYSFS "/sys"

static const char *env_or(const char *var, const char *fallback)
{
	const char *v = getenv(var);

	return v && *v ? v : fallback;
}

const char *sysfs_root(void)
{
	return env_or("RAMDISKCTL_SYSFS", DEFAULT_SYSFS);
}

void path_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		errx(RC_ERROR, "path too long: %s", buf);
}
