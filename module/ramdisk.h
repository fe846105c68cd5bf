/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by the files of the ramdisk module.
 */
#ifndef RAMDISK_INTERNAL_H
#define RAMDISK_INTERNAL_H

#include <linux/blkdev.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rwsem.h>
#include <linux/types.h>

#include "uapi/ramdisk.h"

struct rd_badblocks;
struct rd_fault_sched;
struct rd_cache;
struct rd_store;
struct rd_throttle;
struct rd_wlog;
struct rd_zones;

#define RD_NAME_LEN 64
/* a checkpoint's name, its NUL included (checkpoint.c) */
#define RD_CHECKPOINT_NAME_LEN 32
/* a power domain's name, its NUL included (configfs.c) */
#define RD_DOMAIN_NAME_LEN 32

/* What a device is made from; validated by rd_config_validate(). */
struct rd_config {
	u64 size; /* bytes */
	unsigned int block_size; /* logical */
	/* 0 = the larger of block_size and the page size */
	unsigned int physical_block_size;
	unsigned int io_min; /* bytes; 0 = the physical block size */
	unsigned int io_opt; /* bytes; 0 = none */
	/* reported as a spinning disk; may change while powered */
	bool rotational;
	/*
	 * Atomic writes, in bytes: the smallest and largest one, and the
	 * boundary none may cross (0 = none); unit_max 0 = no atomic writes
	 */
	unsigned int atomic_write_unit_min;
	unsigned int atomic_write_unit_max;
	unsigned int atomic_write_boundary;
	unsigned int max_part;
	u64 mem_limit; /* bytes, 0 = unlimited */
	/* pages allocated ahead of first writes; may change while powered */
	unsigned int spare_pages;
	int numa_node; /* NUMA_NO_NODE = any */
	unsigned int cache_mode; /* RD_CACHE_WRITETHROUGH or RD_CACHE_WRITEBACK */
	u64 cache_size; /* bytes of volatile cache in writeback mode */
	/* share of cached pages, or sectors, a power cut loses */
	unsigned int power_cut_drop_percent;
	u64 power_cut_seed;
	unsigned int power_cut_unit; /* enum rd_cut_unit: page or sector */
	/* enum rd_personality: how the device fails at a power cut */
	unsigned int power_cut_personality;
	/* 0 = no delay; may change while powered */
	unsigned int read_latency_ns;
	unsigned int write_latency_ns;
	unsigned int flush_latency_ns;
	unsigned int bandwidth_mbps;
	/* a reserved physical range backs the device when phys_size != 0 */
	u64 phys_addr;
	u64 phys_size;
	/* write a fresh header and zeros over the range at power-on */
	bool format;
	/*
	 * bad sector ranges (badblocks.h), owned by the configfs item and
	 * shared with its device; NULL for load-time devices
	 */
	struct rd_badblocks *badblocks;
	/* rules that fail or delay bios (fault_schedule.h), owned likewise */
	struct rd_fault_sched *fault_sched;
	/*
	 * A clone: the device (its disk name) and checkpoint it starts from;
	 * an empty clone_disk for any other device
	 */
	char clone_disk[DISK_NAME_LEN];
	char clone_checkpoint[RD_CHECKPOINT_NAME_LEN];
	/* bytes of entries and data the write log keeps; may change while powered */
	u64 write_log_limit;
	/*
	 * Host-managed zones (zones.c): sizes in bytes, capacity 0 = the zone
	 * size, the first zone_nr_conv zones conventional, limits 0 = none
	 */
	bool zoned;
	u64 zone_size;
	u64 zone_capacity;
	unsigned int zone_nr_conv;
	unsigned int zone_max_open;
	unsigned int zone_max_active;
};

/*
 * Per-CPU so that the submit path never bounces a shared cache line;
 * summed when sysfs reads them.
 */
struct rd_stats {
	u64 reads;
	u64 read_bytes;
	u64 writes;
	u64 write_bytes;
	u64 discards;
	u64 discard_bytes;
	u64 write_zeroes;
	u64 write_zeroes_bytes;
	u64 flushes;
	/* bios failed because a power cut interrupted them */
	u64 cut_errors;
	/* bios failed by a bad block (badblocks.c) */
	u64 badblock_read_errors;
	u64 badblock_write_errors;
	/* bios a fault schedule failed, dropped and ended late (fault_schedule.c) */
	u64 fault_errors;
	u64 fault_drops;
	u64 fault_delays;
};

enum {
	RD_CACHE_WRITETHROUGH,
	RD_CACHE_WRITEBACK,
};

/*
 * How a device in writeback mode fails at power loss (power_cut_personality):
 * the ways real disks differ, each one a device a host may meet.
 */
enum rd_personality {
	/* the cache's writes survive in any subset (power_cut_drop_percent) */
	RD_PERSONALITY_UNORDERED,
	/* power-loss protection: capacitors write the whole cache out at the cut */
	RD_PERSONALITY_PLP,
	/* flushes and FUA are acknowledged and make nothing durable */
	RD_PERSONALITY_LYING_FLUSH,
	/* what a cut does not keep lands at another address of the device */
	RD_PERSONALITY_MISDIRECTED,
	/* a physical block a cut tore reads as a medium error until rewritten */
	RD_PERSONALITY_TORN_MEDIA_ERROR,
};

#define RD_CACHE_SIZE_DEFAULT (64ULL << 20)
/* 256 KiB ahead of first writes by default; at most 16 MiB */
#define RD_SPARE_PAGES_DEFAULT 64
#define RD_SPARE_PAGES_MAX 4096

struct rd_device {
	struct gendisk *disk;
	/* the durable store: pages, reserved memory or a clone's pages */
	struct rd_store *store;
	/*
	 * The store the submit path, the extents ioctl and the power cut
	 * serve from: the cache's in writeback mode, else the durable one.
	 * Set once at creation, as the cache mode cannot change while powered.
	 */
	struct rd_store *top;
	struct rd_stats __percpu *stats;
	/* the volatile write cache in writeback mode, else NULL */
	struct rd_cache *cache;
	struct rd_throttle *throttle;
	/* the configuration's bad blocks, or NULL; it outlives the device */
	struct rd_badblocks *badblocks;
	/* the configuration's fault schedule, or NULL; it outlives the device */
	struct rd_fault_sched *fault_sched;
	/* the atomic writes it takes (struct rd_config), checked per bio */
	unsigned int atomic_unit_min;
	unsigned int atomic_unit_max;
	unsigned int atomic_boundary;
	/* completions wait for the throttle; may change while in use */
	bool throttled;
	/*
	 * power_cut_personality lying-flush: flushes and FUA do nothing; set
	 * with the queue frozen, so that a bio and its log entry agree
	 */
	bool lying_flush;
	int index;
	/* set under disk->open_mutex once removal has begun: opens fail */
	bool dying;
	/*
	 * Writeback mode: each bio holds power_sem shared while it runs and a
	 * power cut holds it exclusive, so that a cut falls between bios;
	 * power_gen counts the cuts, so a bio can tell that one passed while
	 * it waited.
	 */
	struct rw_semaphore power_sem;
	unsigned long power_gen;
	unsigned long flags; /* RD_LOST_WRITES */
	/* named checkpoints (checkpoint.c), oldest first, under rd_lock */
	struct list_head checkpoints;
	unsigned int nr_checkpoints;
	/* clones made from its checkpoints: it stays powered while any exist */
	unsigned int clones;
	/* a clone: the device and checkpoint it started from, else NULL */
	struct rd_device *origin;
	struct rd_checkpoint *base;
	/*
	 * The write log (write_log.c), under rd_lock, or NULL; wlog_rec is the
	 * same log while the submit path is to call it, set and cleared with
	 * the queue frozen or idle
	 */
	struct rd_wlog *wlog;
	struct rd_wlog *wlog_rec;
	/* a zoned device's zones, else NULL */
	struct rd_zones *zones;
	char name[RD_NAME_LEN];
};

/* A power cut lost completed writes that no flush has reported yet. */
#define RD_LOST_WRITES 0

/*
 * The largest atomic write a device takes: one bio that the block layer
 * can always build from one user buffer without splitting it (at least
 * 128 segments of a page, less the partial first and last ones).
 */
#define RD_ATOMIC_WRITE_MAX (256U << 10)

/* parse.c */
int rd_parse_size(const char *str, u64 *bytes);
int rd_parse_phys(const char *str, u64 *val);
int rd_text_len(const char *page, size_t max);

/*
 * A device's queue frozen: every bio runs to its end inside submit_bio
 * (io.c), so none is half done. While frozen no allocation of the task may
 * wait for I/O: reclaim writing a mounted file system's pages back to this
 * very device would wait for the queue forever, so rd_freeze() makes them
 * GFP_NOIO until rd_thaw(), as 6.14's freeze does by itself.
 */
struct rd_frozen {
	unsigned int memflags;
	unsigned int noio;
};

/* locking.c */
/* Serialises device creation and removal and configfs attribute changes. */
extern struct mutex rd_lock;
void rd_freeze(struct rd_device *rd, struct rd_frozen *f);
void rd_thaw(struct rd_device *rd, struct rd_frozen *f);

/* config.c */
/* Returns -EINVAL and logs why when cfg cannot make a device. */
int rd_config_validate(const struct rd_config *cfg, const char *who);
void rd_config_init_default(struct rd_config *cfg);
/* The physical block: the device's unit of atomic writes and alignment. */
unsigned int rd_config_physical_block_size(const struct rd_config *cfg);
/* The smallest atomic write the device takes, when it takes any. */
unsigned int rd_config_atomic_unit_min(const struct rd_config *cfg);

/* dev.c */
struct rd_device *rd_dev_create(const struct rd_config *cfg, const char *name);
int rd_dev_remove(struct rd_device *rd);
/* A clone's configuration takes its origin's size, logical block size and zones. */
int rd_dev_clone_config(struct rd_config *cfg, const char *who);
void rd_dev_unplug(struct rd_device *rd);
void rd_dev_free(struct rd_device *rd);
void rd_dev_set_throttle(struct rd_device *rd, const struct rd_config *cfg);
/* power_cut_personality changed while powered: under rd_lock, the queue frozen for it */
void rd_dev_set_personality(struct rd_device *rd, const struct rd_config *cfg);
void rd_dev_set_rotational(struct rd_device *rd, const struct rd_config *cfg);
/* a power cut as cfg's power_cut_* attributes describe it; under rd_lock */
void rd_dev_power_cut(struct rd_device *rd, const struct rd_config *cfg);
/* one device of a power domain's cut, and the attributes its cut follows */
struct rd_cut_member {
	struct rd_device *rd;
	const struct rd_config *cfg;
};

/* one cut of n devices, sorted by index, at one instant; under rd_lock */
void rd_dev_power_cut_members(const struct rd_cut_member *m, unsigned int n);
int rd_dev_major_register(void);
void rd_dev_major_unregister(void);
long rd_total_pages(void);

/* ioctl.c */
/* bdev: the whole disk or the partition the caller opened */
int rd_ioctl(struct block_device *bdev, unsigned int cmd, unsigned long arg);

/* io.c */
void rd_submit_bio(struct bio *bio);
void rd_submit_bio_zoned(struct bio *bio);

/* sysfs.c */
extern const struct attribute_group *rd_disk_attr_groups[];

/* configfs.c */
int rd_configfs_register(void);
void rd_configfs_unregister(void);

#endif /* RAMDISK_INTERNAL_H */
