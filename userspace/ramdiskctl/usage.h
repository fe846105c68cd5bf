/* SPDX-License-Identifier: GPL-2.0 */
/* Bad usage: how a command reports a word or an option it cannot take. */
#ifndef RAMDISKCTL_USAGE_H
#define RAMDISKCTL_USAGE_H

/* "prog: cmd: message (see prog cmd --help)"; returns RC_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report what getopt_long() returned '?' or ':' for; returns RC_USAGE. */
int option_error(const char *cmd, char **argv, int opt);

#endif /* RAMDISKCTL_USAGE_H */
