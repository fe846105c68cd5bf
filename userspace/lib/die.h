/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-line error messages prefixed with the program name, the way every
 * ramdisk tool reports a failure: "ramdiskctl: rd0: busy (open or mounted)".
 */
#ifndef RAMDISK_DIE_H
#define RAMDISK_DIE_H

#include <stdarg.h>
#include <stdnoreturn.h>

/* Remember the program name (basename of argv0) for every later message. */
void die_init(const char *argv0);
const char *die_progname(void);

/* "prog: message\n" on stderr. */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: message: strerror(errno)\n" on stderr; errno is left untouched. */
void errmsg_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void verrmsg(int errnum, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* errmsg() then exit(status). */
noreturn void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* errmsg_errno() then exit(status). */
noreturn void die_errno(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* RAMDISK_DIE_H */
