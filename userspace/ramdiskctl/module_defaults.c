// SPDX-License-Identifier: GPL-2.0
/* The module's defaults, read from its configfs root (module_defaults.h). */
#include "module_defaults.h"
#include "ramdiskctl.h"
#include "attr_file.h"
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int module_defaults_read(const char *cmd, struct module_defaults *d)
{
	char path[PATH_MAX];

	path_fmt(path, sizeof(path), "%s/defaults", rd_configfs_root());
	if (attr_read(path, d->text, sizeof(d->text)) >= 0)
		return RC_OK;
	if (errno == ENOENT && !access(rd_configfs_root(), F_OK)) {
		warnx("%s: the ramdisk module has no %s: is it older than this tool?", cmd, path);
		return RC_ERROR;
	}
	return report_errno(errno, "%s: reading the module's defaults (%s)", cmd, path);
}

bool module_default(const struct module_defaults *d, const char *attr, char *value, size_t len)
{
	size_t n = strlen(attr);

	for (const char *line = d->text; *line;) {
		const char *end = strchrnul(line, '\n');

		if ((size_t)(end - line) > n && !strncmp(line, attr, n) && line[n] == '=') {
			snprintf(value, len, "%.*s", (int)(end - line - n - 1), line + n + 1);
			return true;
		}
		line = *end ? end + 1 : end;
	}
	if (len)
		*value = '\0';
	return false;
}
