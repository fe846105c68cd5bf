/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Constants shared by the ramdisk module and its userspace tools: limits,
 * names of the configfs and sysfs interfaces, and the one ioctl of the
 * module's own.
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

#define RAMDISK_IOC_MAGIC 0xd7
#define RAMDISK_IOC_GET_EXTENTS _IOWR(RAMDISK_IOC_MAGIC, 1, struct ramdisk_extents)

#endif /* _UAPI_RAMDISK_H */
