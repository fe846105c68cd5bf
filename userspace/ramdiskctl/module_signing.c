// SPDX-License-Identifier: GPL-2.0
/*
 * Whether this kernel refuses modules not signed by a key it trusts: with
 * module.sig_enforce, or in lockdown (Debian's kernels lock down under
 * UEFI Secure Boot). There `insmod` of a module built here fails with "Key
 * was rejected by service", which says nothing of the way out; ramdiskctl
 * says it when it finds the module missing.
 */
#include "ramdiskctl.h"

#include "attr_file.h"

#include <limits.h>
#include <string.h>

bool kernel_requires_signed_modules(void)
{
	char path[PATH_MAX], line[128];

	path_fmt(path, sizeof(path), "%s/module/module/parameters/sig_enforce", sysfs_root());
	if (!attr_read_line(path, line, sizeof(line)) && line[0] == 'Y')
		return true;
	/* "none [integrity] confidentiality": the bracketed mode is the one in force. */
	path_fmt(path, sizeof(path), "%s/kernel/security/lockdown", sysfs_root());
	if (!attr_read_line(path, line, sizeof(line)) && strchr(line, '[') &&
	    !strstr(line, "[none]"))
		return true;
	return false;
}
