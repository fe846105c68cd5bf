/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two fault layers, bad blocks and fault schedules, share: the
 * errors an injected fault gives, each standing for what a real disk
 * answers (see fault.c), and the static key each layer's lists hold while
 * they are non-empty.
 */
#ifndef RAMDISK_FAULT_H
#define RAMDISK_FAULT_H

#include <linux/blk_types.h>
#include <linux/jump_label.h>

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

/*
 * Makes a list's reference on key (*held) follow whether the list is in
 * use. Process context only (configfs writes, the release of an item),
 * never the submit path, which only reads the key.
 */
void rd_fault_key_follow(struct static_key_false *key, bool *held, bool in_use);

#endif /* RAMDISK_FAULT_H */
