// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the ramdisk module is there (and, when it is not, why not and
 * what to do), and which attributes the loaded one supports.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "module_check.h"

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int require_module(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (!stat(rd_configfs_root(), &st) && S_ISDIR(st.st_mode))
		return RC_OK;
	if (errno == EACCES)
		return report_errno(errno, "%s", rd_configfs_root());
	path_fmt(path, sizeof(path), "%s/module/ramdisk", sysfs_root());
	if (is_dir(path))
		warnx("%s is missing though the ramdisk module is loaded; "
		      "is configfs mounted (mount -t configfs none "
		      "/sys/kernel/config)?",
		      rd_configfs_root());
	else if (kernel_requires_signed_modules())
		warnx("the ramdisk module is not loaded (%s is missing); "
		      "load it with modprobe ramdisk; " SIGNED_MODULES_HINT,
		      rd_configfs_root());
	else
		warnx("the ramdisk module is not loaded (%s is missing); "
		      "load it with modprobe ramdisk",
		      rd_configfs_root());
	return RC_NO_MODULE;
}

bool module_supports(const char *attr)
{
	char path[PATH_MAX], features[1024], *tok, *save;

	path_fmt(path, sizeof(path), "%s/features", rd_configfs_root());
	/* A module without the list predates it: assume the base set. */
	if (attr_read_line(path, features, sizeof(features)))
		return true;
	for (tok = strtok_r(features, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
		if (!strcmp(tok, attr))
			return true;
	return false;
}
