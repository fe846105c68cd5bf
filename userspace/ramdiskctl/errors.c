// SPDX-License-Identifier: GPL-2.0
/*
 * The errno values configfs and sysfs hand back, turned into the exit
 * statuses of ramdiskctl(8) and into a reason a person can act on.
 */
#include "ramdiskctl.h"

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int rc_from_errno(int err)
{
	switch (err) {
	case EEXIST:
		return RC_EXISTS;
	case EBUSY:
		return RC_BUSY;
	case EACCES:
	case EPERM:
	case EROFS:
		return RC_PERM;
	case ENODEV:
	case ENXIO:
		return RC_NO_DEVICE;
	case EINVAL:
	case ERANGE:
	case ENAMETOOLONG:
		return RC_USAGE;
	default:
		return RC_ERROR;
	}
}

static const char *reason(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "permission denied (are you root?)";
	case EBUSY:
		return "busy (open or mounted)";
	case EINVAL:
		return "invalid argument (the kernel log says why: dmesg)";
	default:
		return strerror(err);
	}
}

int report_errno(int err, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	warnx("%s: %s", what, reason(err));
	return rc_from_errno(err);
}
