/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The errors an injected fault gives, shared by bad blocks and fault
 * schedules: each stands for what a real disk answers (see fault_error.c).
 */
#ifndef RAMDISK_FAULT_ERROR_H
#define RAMDISK_FAULT_ERROR_H

#include <linux/blk_types.h>

enum rd_fault_error {
	RD_FAULT_EIO,
	RD_FAULT_MEDIUM,
	RD_FAULT_NOSPC,
	RD_FAULT_TIMEOUT,
};

/* How long error=timeout holds a bio before failing it. */
#define RD_FAULT_TIMEOUT_MS 1000

/* "eio", "medium", "nospc" or "timeout" as the enum, or -EINVAL */
int rd_fault_error_parse(const char *name);
const char *rd_fault_error_name(enum rd_fault_error error);
blk_status_t rd_fault_error_status(enum rd_fault_error error);

#endif /* RAMDISK_FAULT_ERROR_H */
