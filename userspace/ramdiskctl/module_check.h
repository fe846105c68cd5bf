/* SPDX-License-Identifier: GPL-2.0 */
/* Whether the ramdisk module is there, and what the loaded one supports. */
#ifndef RAMDISKCTL_MODULE_CHECK_H
#define RAMDISKCTL_MODULE_CHECK_H

#include <stdbool.h>

/* RC_OK when the configfs tree is there; else say why, RC_NO_MODULE. */
int require_module(void);
/* Whether the comma-separated configfs "features" list names attr. */
bool module_supports(const char *attr);

#endif /* RAMDISKCTL_MODULE_CHECK_H */
