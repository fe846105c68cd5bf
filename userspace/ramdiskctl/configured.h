/* SPDX-License-Identifier: GPL-2.0 */
/* The configuration a command changes, and writing its attributes. */
#ifndef RAMDISKCTL_CONFIGURED_H
#define RAMDISKCTL_CONFIGURED_H

struct rdctl_device;

/*
 * The configuration behind arg, which must exist in configfs; RC_OK, or a
 * message and an exit status.
 */
int resolve_configured(const char *cmd, const char *arg, struct rdctl_device *d);
/*
 * Write value to attribute attr of configuration name: RC_OK, or
 * "cmd: name: writing attr: reason" and the exit status of the errno.
 */
int write_config_attr(const char *cmd, const char *name, const char *attr, const char *value);

#endif /* RAMDISKCTL_CONFIGURED_H */
