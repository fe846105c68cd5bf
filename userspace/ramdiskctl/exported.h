/* SPDX-License-Identifier: GPL-2.0 */
/* What list, info and remove need to know of NVMe-oF exports. */
#ifndef RAMDISKCTL_EXPORTED_H
#define RAMDISKCTL_EXPORTED_H

struct rdctl_device;

/* a device served by more subsystems than this is listed by these */
#define MAX_EXPORTS 8

/* Fill d's export fields from nvmet's configfs tree. */
void rd_load_export(struct rdctl_device *d);
/*
 * RC_OK when d is not exported; else a message naming the subsystem and
 * how to unexport it, and RC_BUSY (cmd names the command, arg the device
 * as the user gave it).
 */
int refuse_exported(const char *cmd, const struct rdctl_device *d, const char *arg);

#endif /* RAMDISKCTL_EXPORTED_H */
