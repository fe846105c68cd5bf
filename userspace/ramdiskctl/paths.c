// SPDX-License-Identifier: GPL-2.0
/*
 * Where the module's configfs tree and sysfs attributes live. Both roots
 * can be moved with RAMDISKCTL_CONFIGFS and RAMDISKCTL_SYSFS so that the
 * host tests can run the tool against a fake tree without the module.
 */
#include "ramdiskctl.h"

#include "sysfs_file.h"

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_CONFIGFS "/sys/kernel/config/ramdisk"
#define DEFAULT_SYSFS "/sys"

static const char *env_or(const char *var, const char *fallback)
{
	const char *v = getenv(var);

	return v && *v ? v : fallback;
}

const char *configfs_root(void)
{
	return env_or("RAMDISKCTL_CONFIGFS", DEFAULT_CONFIGFS);
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

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int require_module(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (!stat(configfs_root(), &st) && S_ISDIR(st.st_mode))
		return RC_OK;
	if (errno == EACCES)
		return report_errno(errno, "%s", configfs_root());
	path_fmt(path, sizeof(path), "%s/module/ramdisk", sysfs_root());
	if (is_dir(path))
		warnx("%s is missing though the ramdisk module is loaded; "
		      "is configfs mounted (mount -t configfs none "
		      "/sys/kernel/config)?",
		      configfs_root());
	else if (kernel_requires_signed_modules())
		warnx("the ramdisk module is not loaded (%s is missing); "
		      "load it with modprobe ramdisk; " SIGNED_MODULES_HINT,
		      configfs_root());
	else
		warnx("the ramdisk module is not loaded (%s is missing); "
		      "load it with modprobe ramdisk",
		      configfs_root());
	return RC_NO_MODULE;
}

bool module_supports(const char *attr)
{
	char path[PATH_MAX], features[1024], *tok, *save;

	path_fmt(path, sizeof(path), "%s/features", configfs_root());
	/* A module without the list predates it: assume the base set. */
	if (sysfs_read_line(path, features, sizeof(features)))
		return true;
	for (tok = strtok_r(features, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
		if (!strcmp(tok, attr))
			return true;
	return false;
}
