/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transitional: the old names of the tools' error messages, now <err.h>'s
 * warnx(), warn(), errx() and err() ("prog: message[: strerror]").
 * Only the table and JSON printing code that is moving to libsmartcols
 * (issue #23) still uses them; new code calls err(3) directly. Remove
 * this header once nothing includes it.
 */
#ifndef RAMDISK_DIE_H
#define RAMDISK_DIE_H

#include <err.h>

#define errmsg(...) warnx(__VA_ARGS__)
#define errmsg_errno(...) warn(__VA_ARGS__)
#define die(status, ...) errx(status, __VA_ARGS__)
#define die_errno(status, ...) err(status, __VA_ARGS__)

#endif /* RAMDISK_DIE_H */
