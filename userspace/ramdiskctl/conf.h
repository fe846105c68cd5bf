/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ramdisk.conf: the devices apply makes at boot, one [NAME] section each,
 * read whole and checked before anything on the system is touched.
 */
#ifndef RAMDISKCTL_CONF_H
#define RAMDISKCTL_CONF_H

#include "create.h"

#include <stddef.h>

#define CONF_DEFAULT_PATH "/etc/ramdisk/ramdisk.conf"
/* mkfs-options words at most */
#define CONF_MKFS_ARGS_MAX 32

struct conf_device {
	char where[4096 + 16]; /* "FILE:LINE" of the [NAME] line, for messages */
	struct create_opts opts; /* opts.name is the section's NAME */
	const char *fs; /* mkfs.FS makes it; NULL for a raw device */
	char *mkfs_args[CONF_MKFS_ARGS_MAX + 1]; /* mkfs-options, split at blanks */
	const char *mount, *mount_options;
	const char *image; /* restored into a new device, saved at apply --down */
};

struct conf {
	const char *path;
	struct conf_device *devices;
	size_t count;
	/* every string the devices point into, freed with them */
	char **strings;
	size_t nstrings;
};

/*
 * Read and check path whole. RC_OK, or one line naming FILE:LINE (or why
 * the file cannot be read) and RC_USAGE (RC_ERROR for an unreadable file);
 * on failure nothing needs freeing.
 */
int conf_load(const char *path, struct conf *c);
void conf_free(struct conf *c);

#endif /* RAMDISKCTL_CONF_H */
