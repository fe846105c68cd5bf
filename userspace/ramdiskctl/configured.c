// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration a command changes: the one NAME|DEV names, which must
 * have a configfs directory, and its attributes, written with the
 * command's message when that fails.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "configured.h"
#include "module_check.h"

#include <err.h>
#include <errno.h>
#include <limits.h>

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

int write_config_attr(const char *cmd, const char *name, const char *attr, const char *value)
{
	char path[PATH_MAX];

	path_fmt(path, sizeof(path), "%s/%s/%s", rd_configfs_root(), name, attr);
	if (attr_write_line(path, value))
		return report_errno(errno, "%s: %s: writing %s", cmd, name, attr);
	return RC_OK;
}
