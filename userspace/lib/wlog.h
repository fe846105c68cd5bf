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
/* "write", "discard", "zeroes", "flush", "mark", "zone-reset", "zone-finish" or "?" */
const char *wlog_type_name(unsigned int type);
/*
 * Whether the entry changes data: a write, discard or write-zeroes. A
 * zone reset also leaves its zone reading zeros; rdcrash's model of a
 * zoned device takes zone commands apart (rdcrash/crash_zoned.h).
 */
int wlog_is_data(const struct ramdisk_wlog_entry *e);
/*
 * Whether the entry is a flush that made what completed before it durable:
 * neither failed nor ignored (a device with power_cut_personality
 * lying-flush acknowledges flushes it does not perform).
 */
int wlog_flush_durable(const struct ramdisk_wlog_entry *e);

/*
 * The log in dm-log-writes' format (dmlw.h), in blocks of bs bytes, into
 * file. A write-zeroes becomes a write of zeros, which any replay target
 * honours; a flush that failed is left out, since it made nothing
 * durable, and so is one the device ignored; a zone reset becomes a discard of the zone (dm-log-writes has
 * no zone commands, and a ramdisk reads zeros where it discarded, as a
 * reset zone does) and a zone finish nothing, so a replay gives the data
 * and not the write pointers. A log that a power cut ended gets a last
 * entry, the mark "power-cut": the crash point, which replay-log's
 * --end-mark finds. 0, or -1 with errno (the file is left as it is).
 */
int wlog_export_dmlw(const struct wlog *w, uint32_t bs, const char *file);

#endif /* RAMDISK_WLOG_H */
