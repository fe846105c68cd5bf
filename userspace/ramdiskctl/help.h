/* SPDX-License-Identifier: GPL-2.0 */
/* The help of ramdiskctl and of each command. */
#ifndef RAMDISKCTL_HELP_H
#define RAMDISKCTL_HELP_H

#include <stdio.h>

/* Print a command's help (or the whole help for NULL) to stdout. */
int command_help(const char *cmd);
/* The whole help: every command's, then the exit statuses. */
void print_overview(FILE *out);

#endif /* RAMDISKCTL_HELP_H */
