/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bad usage, worded alike by every tool: one line on standard error,
 * "prog: cmd: message (see prog cmd --help)", and exit status 2.
 */
#ifndef RD_USAGE_H
#define RD_USAGE_H

/* The exit status of bad usage, in every tool. */
#define USAGE_STATUS 2

/* Says fmt's message for cmd (NULL: the program itself); returns USAGE_STATUS. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Says what getopt_long() returned '?' or ':' for (its option string
 * starts with ':', so it said nothing itself); returns USAGE_STATUS.
 */
int option_error(const char *cmd, char **argv, int opt);

#endif /* RD_USAGE_H */
