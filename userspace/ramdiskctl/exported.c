// SPDX-License-Identifier: GPL-2.0
/*
 * Whether and where a device is exported over NVMe-oF, as list, info and
 * remove need to know it.
 */
#include "ramdiskctl.h"

#include "exported.h"
#include "nvmet.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>

void rd_load_export(struct rdctl_device *d)
{
	struct nvmet_export e[MAX_EXPORTS];
	char dev[32];
	int n;
	size_t w = 0, q = 0;

	d->export[0] = d->export_nqn[0] = '\0';
	if (d->index < 0)
		return;
	n = nvmet_find_exports(rd_devpath(d, dev, sizeof(dev)), e, MAX_EXPORTS);
	for (int i = 0; i < n && i < MAX_EXPORTS; i++) {
		if (w < sizeof(d->export))
			w += (size_t)snprintf(d->export + w, sizeof(d->export) - w, "%s%s",
					      i ? "," : "", e[i].where);
		if (q < sizeof(d->export_nqn))
			q += (size_t)snprintf(d->export_nqn + q, sizeof(d->export_nqn) - q, "%s%s",
					      i ? "," : "", e[i].nqn);
	}
}

int refuse_exported(const char *cmd, const struct rdctl_device *d, const char *arg)
{
	struct nvmet_export e[1];
	char dev[32];

	if (d->index < 0 || nvmet_find_exports(rd_devpath(d, dev, sizeof(dev)), e, 1) <= 0)
		return RC_OK;
	if (e[0].ours)
		warnx("%s: %s is exported over NVMe-oF (NQN %s); run %s unexport %s first", cmd,
		      arg, e[0].nqn, program_invocation_short_name, arg);
	else
		warnx("%s: %s is exported over NVMe-oF (NQN %s), by a subsystem ramdiskctl did not "
		      "make; remove its namespace from %s/subsystems first",
		      cmd, arg, e[0].nqn, nvmet_root());
	return RC_BUSY;
}
