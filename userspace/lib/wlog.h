/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's write log read whole through RAMDISK_IOC_WLOG_READ: the
 * entries in order, and one buffer their data offsets point into.
 * ramdiskctl wlog prints and exports it; rdcrash builds crash states
 * from it.
 */
#ifndef RAMDISK_WLOG_H
#define RAMDISK_WLOG_H

#include <stddef.h>
#include <stdint.h>

#include "ramdisk.h"

struct wlog {
	struct ramdisk_wlog_entry *e;
	size_t n;
	unsigned char *data;
	size_t data_len;
	uint32_t state; /* enum ramdisk_wlog_state when it was read */
};

/*
 * Reads every entry of the log of the whole disk open at fd (a log that
 * still records: up to where it is). 0, or -1 with errno set (ENOTTY: a
 * partition, or a module without a write log; ENOMEM).
 */
int wlog_read(int fd, struct wlog *w);
void wlog_free(struct wlog *w);
/* "write", "discard", "zeroes", "flush", "mark" or "?" */
const char *wlog_type_name(unsigned int type);
/* Whether the entry changes data: a write, discard or write-zeroes. */
int wlog_is_data(const struct ramdisk_wlog_entry *e);

#endif /* RAMDISK_WLOG_H */
