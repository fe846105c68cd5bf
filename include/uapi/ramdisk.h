/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Constants shared by the ramdisk module and its userspace tools: limits,
 * names of the configfs and sysfs interfaces, and the module's own ioctls.
 */
#ifndef _UAPI_RAMDISK_H
#define _UAPI_RAMDISK_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* /dev/ramdiskN and the block device name of the module. */
#define RAMDISK_NAME "ramdisk"

/* Most devices created at load time (nr_devices). */
#define RAMDISK_MAX_LOAD_DEVICES 64
/* Most devices alive at once, load-time and configfs together. */
#define RAMDISK_MAX_DEVICES 1024
/* Highest max_part: partitions per device. */
#define RAMDISK_MAX_PART 255

/*
 * Block sizes are powers of two from 512 to 64 KiB; a logical block above
 * the page size needs a kernel that can cache one (Linux 6.15 on).
 */
#define RAMDISK_BLOCK_SIZE_DEFAULT 512
#define RAMDISK_BLOCK_SIZE_MAX 65536

/* Default device size in bytes (1 GiB, allocated only when written). */
#define RAMDISK_SIZE_DEFAULT (1ULL << 30)

/* Run-time configuration: one directory per device under this root. */
#define RAMDISK_CONFIGFS_ROOT "/sys/kernel/config/ramdisk"
/* Statistics directory below /sys/block/ramdiskN/. */
#define RAMDISK_SYSFS_STATS "ramdisk"

/* One run of bytes that hold data; everything else reads as zeros. */
struct ramdisk_extent {
	__u64 offset; /* bytes from the start of the device or partition opened */
	__u64 length; /* bytes */
};

/*
 * RAMDISK_IOC_GET_EXTENTS: the runs of data at or after start, in order,
 * like FIEMAP. In: start, count (room in the array at extents, at most
 * RAMDISK_EXTENTS_MAX), flags 0. Out: count filled, and
 * RAMDISK_EXTENTS_LAST in flags when no data lies beyond the last one
 * given. The next call starts at the end of the last extent. A device
 * backed by reserved memory reports one extent: all of it.
 */
struct ramdisk_extents {
	__u64 start;
	__u32 count;
	__u32 flags;
	__u64 extents; /* user pointer to struct ramdisk_extent[count] */
};

#define RAMDISK_EXTENTS_LAST 0x1
#define RAMDISK_EXTENTS_MAX 4096

/*
 * The write log (configfs write_log): what the device acknowledged, in
 * order. One entry per write, discard, write-zeroes, flush and mark, and on
 * a zoned device per zone reset and finished. Sectors count 512 bytes from
 * the start of the whole disk. A zone append is a write at the sector where
 * it landed; zone open and close are not logged (they change no data and
 * no write pointer, and a power cycle closes every zone).
 */
enum ramdisk_wlog_type {
	RAMDISK_WLOG_WRITE = 1, /* data_len bytes of data at sector */
	RAMDISK_WLOG_DISCARD = 2, /* the range reads zeros after it */
	RAMDISK_WLOG_WRITE_ZEROES = 3, /* likewise */
	RAMDISK_WLOG_FLUSH = 4, /* logged when submitted: what completed before is durable */
	RAMDISK_WLOG_MARK = 5, /* data_len bytes of text the workload wrote */
	/*
	 * The sequential zone at sector (its start), nr_sectors long, was
	 * reset: empty, its write pointer at its start, and it reads zeros.
	 * A reset of all zones is one entry per sequential zone it emptied.
	 */
	RAMDISK_WLOG_ZONE_RESET = 6,
	/* The zone at sector, nr_sectors long, was finished: full, its data as it was. */
	RAMDISK_WLOG_ZONE_FINISH = 7,
};

/* entry flags */
#define RAMDISK_WLOG_FUA 0x1 /* a write durable when it completed */
#define RAMDISK_WLOG_ATOMIC 0x2 /* a REQ_ATOMIC write: never torn */
#define RAMDISK_WLOG_FAILED 0x4 /* a flush that failed: it made nothing durable */
/*
 * The host asked for durability and the device acknowledged it without
 * giving it (power_cut_personality lying-flush): a flush that made nothing
 * durable, or a write sent with FUA that was not (RAMDISK_WLOG_FUA clear)
 */
#define RAMDISK_WLOG_IGNORED 0x8

struct ramdisk_wlog_entry {
	__u64 seq; /* from 0, no gaps */
	__u64 sector;
	__u32 nr_sectors;
	__u16 type; /* enum ramdisk_wlog_type */
	__u16 flags;
	__u64 data_offset; /* of its data in the caller's data buffer */
	__u32 data_len;
	/*
	 * Where the entry stands among the entries of every device's log:
	 * the low 32 bits of one module-wide count, taken as the entry goes
	 * in. The logs of several devices merged by it (compared as
	 * (__s32)(a - b), so fewer than 2^31 entries apart) are in one
	 * order that keeps each log's own, and puts an entry a host saw
	 * complete before it submitted another before that other's.
	 */
	__u32 order;
};

/* the log's state */
enum ramdisk_wlog_state {
	RAMDISK_WLOG_OFF = 0, /* no log: never started, or cleared */
	RAMDISK_WLOG_RECORDING = 1,
	RAMDISK_WLOG_STOPPED = 2, /* by "stop" */
	RAMDISK_WLOG_OVERFLOWED = 3, /* it reached write_log_limit and stopped */
	RAMDISK_WLOG_NOMEM = 4, /* memory for an entry ran out: it stopped */
	/*
	 * A power cut (writeback mode) ended it: the entries are what the
	 * device acknowledged up to the cut, and the cut is a crash at their
	 * end; a flush in flight at the cut reads failed until it completes,
	 * and stays so only if the device did not serve it
	 */
	RAMDISK_WLOG_CUT = 5,
};

/*
 * RAMDISK_IOC_WLOG_READ, on the whole disk: the entries from first on. In:
 * first, count (room at entries, at most RAMDISK_WLOG_READ_MAX), entries,
 * data and data_size (room at data), flags 0. Out: count filled, data_used,
 * state, nr_entries (in the log now), and RAMDISK_WLOG_END in flags when
 * the log records no more and the last entry was given. An entry whose data
 * would not fit ends the batch; EMSGSIZE when the first one does not, with
 * its length in data_used.
 */
struct ramdisk_wlog_read {
	__u64 first;
	__u32 count;
	__u32 flags;
	__u64 entries; /* user pointer to struct ramdisk_wlog_entry[count] */
	__u64 data; /* user pointer to data_size bytes */
	__u64 data_size;
	__u64 data_used;
	__u64 nr_entries;
	__u32 state; /* enum ramdisk_wlog_state */
	__u32 reserved;
};

#define RAMDISK_WLOG_END 0x1
#define RAMDISK_WLOG_READ_MAX 4096

#define RAMDISK_IOC_MAGIC 0xd7
#define RAMDISK_IOC_GET_EXTENTS _IOWR(RAMDISK_IOC_MAGIC, 1, struct ramdisk_extents)
#define RAMDISK_IOC_WLOG_READ _IOWR(RAMDISK_IOC_MAGIC, 2, struct ramdisk_wlog_read)

#endif /* _UAPI_RAMDISK_H */
