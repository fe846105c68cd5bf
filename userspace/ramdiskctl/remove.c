// SPDX-License-Identifier: GPL-2.0
/*
 * remove: power a configuration off, then rmdir it.
 *
 * Powering off first turns "open or mounted" into an EBUSY that leaves the
 * device exactly as it was, rather than relying on rmdir to refuse.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "exported.h"
#include "per_device.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * udev opens every new disk to probe it, so a remove straight after create
 * can meet a moment of EBUSY that is nobody's fault; ride it out for a
 * second before calling the device busy.
 */
#define BUSY_RETRIES 20
#define BUSY_RETRY_NS (50 * 1000 * 1000L)

static int power_off(const char *path)
{
	const struct timespec pause = { 0, BUSY_RETRY_NS };
	int tries = 0;

	while (attr_write_line(path, "0")) {
		if (errno != EBUSY || ++tries > BUSY_RETRIES)
			return -1;
		nanosleep(&pause, NULL);
	}
	return 0;
}

int remove_device(const char *arg)
{
	char path[PATH_MAX], dev[32], power[16];
	struct rdctl_device d;
	int rc;

	rc = rd_resolve(arg, &d);
	if (rc)
		return rc;
	rd_devpath(&d, dev, sizeof(dev));
	if (!d.configured) {
		warnx("remove: %s was made when the module was loaded; it "
		      "goes away only with rmmod ramdisk",
		      dev);
		return RC_ERROR;
	}
	/* nvmet holds it open: say what to undo rather than "busy" */
	if ((rc = refuse_exported("remove", &d, arg)))
		return rc;

	path_fmt(path, sizeof(path), "%s/%s/power", rd_configfs_root(), d.name);
	if (attr_read_line(path, power, sizeof(power)))
		return report_errno(errno, "remove: %s: reading power", d.name);
	if (strcmp(power, "0") && power_off(path)) {
		if (errno == EBUSY) {
			warnx("remove: %s (%s) is busy: open or mounted", d.name, dev);
			return RC_BUSY;
		}
		if (errno == ENOTEMPTY) {
			warnx("remove: %s (%s) has clones, which read its checkpoints; "
			      "remove them first",
			      d.name, dev);
			return RC_BUSY;
		}
		return report_errno(errno, "remove: %s: powering off", d.name);
	}

	path_fmt(path, sizeof(path), "%s/%s", rd_configfs_root(), d.name);
	if (rmdir(path)) {
		if (errno == ENOENT) {
			warnx("remove: %s: removed by someone else meanwhile", d.name);
			return RC_NO_DEVICE;
		}
		return report_errno(errno, "remove: %s", d.name);
	}
	return RC_OK;
}

int cmd_remove(int argc, char **argv)
{
	return run_per_device("remove", argc, argv, remove_device);
}
