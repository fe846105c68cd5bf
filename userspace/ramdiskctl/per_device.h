/* SPDX-License-Identifier: GPL-2.0 */
/* The loop of a command whose only words are devices: remove, unexport. */
#ifndef RAMDISKCTL_PER_DEVICE_H
#define RAMDISKCTL_PER_DEVICE_H

/*
 * A command whose only words are devices (remove, unexport): --help,
 * "which device?", the module, then fn for each NAME|DEV in turn; the
 * first failure's status.
 */
int run_per_device(const char *cmd, int argc, char **argv, int (*fn)(const char *arg));

#endif /* RAMDISKCTL_PER_DEVICE_H */
