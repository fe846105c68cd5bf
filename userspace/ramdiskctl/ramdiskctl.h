/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ramdiskctl: create, remove, list and inspect /dev/ramdiskN devices
 * through the module's configfs tree and its sysfs statistics.
 */
#ifndef RAMDISKCTL_H
#define RAMDISKCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "usage.h"

/* Exit statuses; documented in --help and ramdiskctl(8). Never renumber. */
enum rc {
	RC_OK = 0,
	RC_ERROR = 1, /* anything not listed below */
	RC_USAGE = USAGE_STATUS, /* 2: bad arguments, bad sizes, values the module refuses */
	RC_NO_MODULE = 3, /* the module (or configfs) is not there */
	RC_EXISTS = 4, /* a configuration (or checkpoint) with that name exists */
	RC_BUSY = 5, /* the device is open or mounted */
	RC_PERM = 6, /* permission denied: not root */
	RC_NO_DEVICE = 7, /* no such device, configuration or checkpoint */
	RC_BAD_IMAGE = 8, /* restore: the image is truncated or corrupted */
	RC_MISMATCH = 9, /* restore: the image is of another size or block size */
	RC_DATA_LOSS = 10, /* apply: a change would lose data; --force makes it */
};

/* Longest configuration name create accepts (configfs allows more). */
#define RD_NAME_MAX 64
/* Longest name read back: whatever mkdir(2) could have made. */
#define RD_NAME_BUF 256

/*
 * Everything known about one device or configuration. Fields that could
 * not be read keep the "unknown" values rd_device_init() sets, so an
 * older module lacking an attribute still lists.
 */
struct rdctl_device {
	char name[RD_NAME_BUF]; /* configfs name; "" for load-time */
	bool configured; /* has a configfs directory */
	int index; /* N of /dev/ramdiskN; -1 when powered off */

	/* Configuration. */
	bool has_size, has_block_size, has_max_part, has_mem_limit, has_node;
	uint64_t size;
	uint64_t block_size;
	int64_t max_part;
	uint64_t mem_limit;
	int64_t numa_node;
	/*
	 * "pages" or "phys@0xADDR"; has_backing false when unknown. Only
	 * root reads addresses: for anyone else backing_hidden is set, and
	 * backing is "phys" (from phys_size) or unknown.
	 */
	bool has_backing, backing_hidden;
	char backing[48];
	char backing_uuid[40]; /* "" unless the device is powered in phys memory */
	uint64_t phys_size;
	/* "writethrough" or "writeback"; has_cache_mode false when unknown */
	bool has_cache_mode;
	char cache_mode[16];
	/* latency and bandwidth emulation, all four known or none */
	bool has_throttle;
	uint64_t read_latency_ns, write_latency_ns, flush_latency_ns, bandwidth_mbps;

	/* Statistics from sysfs (only while powered). */
	bool has_stats;
	bool has_allocated, has_alloc_failures, has_flushes, has_spare;
	uint64_t allocated_pages, allocated_bytes;
	/* pages allocated ahead of first writes, not in allocated_pages */
	uint64_t spare_pages;
	/* memory of the page index (root, nodes, leaves), not in allocated_bytes */
	bool has_index_bytes;
	uint64_t index_bytes;
	uint64_t reads, read_bytes, writes, write_bytes;
	uint64_t discards, discard_bytes, write_zeroes, write_zeroes_bytes;
	bool has_reads, has_writes, has_discards, has_write_zeroes;
	uint64_t flushes, alloc_failures;
	/* bios failed by a bad block, reads and writes */
	bool has_badblock_errors;
	uint64_t badblock_read_errors, badblock_write_errors;
	/* bios the fault schedule failed, dropped and delayed */
	bool has_fault_counts;
	uint64_t fault_errors, fault_drops, fault_delays;
	/* bytes written but not yet durable (lost by a power cut), and cuts so far */
	bool has_dirty, has_power_cuts;
	uint64_t dirty_bytes, power_cuts;
	/* checkpoints of a powered configuration, and the pages only they hold */
	bool has_checkpoints, has_checkpoint_pages;
	unsigned int checkpoints;
	uint64_t checkpoint_pages;
	/* a clone's "DISK CHECKPOINT"; "" for any other device */
	char clone_of[80];
	/*
	 * A zoned device: its configuration (zoned and zone_size known, the
	 * rest 0 when the module does not say), and while powered the zones
	 * in each condition: empty, implicitly open, explicitly open, closed,
	 * full
	 */
	bool zoned;
	uint64_t zone_size, zone_capacity, zone_nr_conv, zone_max_open, zone_max_active;
	uint64_t nr_zones;
	bool has_zone_conditions;
	uint64_t zone_conditions[5];

	/*
	 * NVMe-oF exports of a powered device (rd_load_export() fills them):
	 * where, "tcp 127.0.0.1:4420" or "loop", and the subsystems' NQNs,
	 * comma-separated; "" when not exported.
	 */
	char export[192];
	char export_nqn[256];
};

/*
 * paths.c: where the module's sysfs files live (overridable for tests);
 * configfs is at rd_configfs_root() (attr_file.h).
 */
const char *sysfs_root(void);
/* snprintf into a PATH_MAX buffer; exits on truncation (never happens). */
void path_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* module_signing.c: module.sig_enforce or lockdown is in force. */
bool kernel_requires_signed_modules(void);
/* The way out when such a kernel refuses ramdisk.ko, for one error line. */
#define SIGNED_MODULES_HINT                                                 \
	"this kernel loads only signed modules: sign ramdisk.ko with make " \
	"sign and enrol the key (Documentation/install.md)"

/* errors.c: one exit status per errno, and the matching message. */
int rc_from_errno(int err);
/* "prog: what: reason" for err, with advice for EACCES/EBUSY/ENOENT. */
int report_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* device.c: reading devices and configurations. */
void rd_device_init(struct rdctl_device *d);
/* Read a configuration (and its device's statistics when powered). */
int rd_load_configured(struct rdctl_device *d, const char *name);
/* Read a load-time device, or a powered one found only in sysfs. */
int rd_load_index(struct rdctl_device *d, int index);
/* Parse "ramdiskN" or "/dev/ramdiskN"; -1 when arg is neither. */
int rd_parse_devname(const char *arg);
/*
 * Find what NAME, ramdiskN or /dev/ramdiskN names. RC_OK, or a message
 * and RC_NO_DEVICE.
 */
int rd_resolve(const char *arg, struct rdctl_device *d);
/*
 * Every configuration and every load-time device, sorted by index with
 * powered-off configurations last by name. *list is malloc'ed.
 */
int rd_list_all(struct rdctl_device **list, size_t *count);
/* "/dev/ramdiskN" or "-" when powered off. */
const char *rd_devpath(const struct rdctl_device *d, char *buf, size_t len);

/* emulate.c: cache mode, latency and durable-state lines of info. */
void print_emulation(const struct rdctl_device *d,
		     void (*field)(const char *key, const char *value));

/* remove.c: power off and rmdir one configuration, as remove does. */
int remove_device(const char *arg);
/* save.c: save dev's image to a new file renamed over file when whole. */
int save_image_atomic(const char *dev, const char *file);
/* restore.c: make dev equal to the image in file, as restore does. */
int restore_image(const char *file, const char *dev);

/* Subcommands; each takes argv[0] = its name and returns an exit status. */
int cmd_create(int argc, char **argv);
int cmd_clone(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_powercut(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_save(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_fault(int argc, char **argv);
int cmd_checkpoint(int argc, char **argv);
int cmd_rollback(int argc, char **argv);
int cmd_wlog(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_unexport(int argc, char **argv);
int cmd_apply(int argc, char **argv);

#endif /* RAMDISKCTL_H */
