/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's defaults, as its configfs root's `defaults` file gives
 * them: what a fresh configuration shows, "attr=value" a line. apply
 * compares a device with them for what ramdisk.conf leaves out, so that
 * no default is copied into the tools.
 */
#ifndef RAMDISKCTL_MODULE_DEFAULTS_H
#define RAMDISKCTL_MODULE_DEFAULTS_H

#include <stdbool.h>
#include <stddef.h>

struct module_defaults {
	char text[4096];
};

/*
 * Read them from the loaded module; RC_OK, or the exit status after a
 * message that says "cmd: ..." (a module older than the tool has none).
 */
int module_defaults_read(const char *cmd, struct module_defaults *d);

/*
 * attr's default into value (len bytes); false, and value "", when the
 * module names none for attr.
 */
bool module_default(const struct module_defaults *d, const char *attr, char *value, size_t len);

#endif /* RAMDISKCTL_MODULE_DEFAULTS_H */
