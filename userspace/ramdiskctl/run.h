/* SPDX-License-Identifier: GPL-2.0 */
/* Running the system's own tools (blkid, mkfs, mount, umount) for apply. */
#ifndef RAMDISKCTL_RUN_H
#define RAMDISKCTL_RUN_H

#include <stddef.h>

/*
 * Run argv[0] (found in PATH) with argv, stdin from /dev/null; its stdout
 * goes to out (len bytes, NUL-terminated, trailing newline dropped) when
 * out is not NULL, else to our stderr (our stdout says what was done);
 * its stderr to ours. Returns its exit
 * status, 128 + N for signal N, or -1 with a message when it could not be
 * started.
 */
int run_tool(char *const argv[], char *out, size_t len);

#endif /* RAMDISKCTL_RUN_H */
