/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Constants shared by the ramdisk module and its userspace tools: limits,
 * names of the configfs and sysfs interfaces. The module exposes no ioctls
 * of its own yet.
 */
#ifndef _UAPI_RAMDISK_H
#define _UAPI_RAMDISK_H

/* /dev/ramdiskN and the block device name of the module. */
#define RAMDISK_NAME "ramdisk"

/* Most devices created at load time (nr_devices). */
#define RAMDISK_MAX_LOAD_DEVICES 64
/* Most devices alive at once, load-time and configfs together. */
#define RAMDISK_MAX_DEVICES 1024
/* Highest max_part: partitions per device. */
#define RAMDISK_MAX_PART 255

/* The two logical block sizes a device may have. */
#define RAMDISK_BLOCK_SIZE_DEFAULT 512
#define RAMDISK_BLOCK_SIZE_LARGE 4096

/* Default device size in bytes (1 GiB, allocated only when written). */
#define RAMDISK_SIZE_DEFAULT (1ULL << 30)

/* Run-time configuration: one directory per device under this root. */
#define RAMDISK_CONFIGFS_ROOT "/sys/kernel/config/ramdisk"
/* Statistics directory below /sys/block/ramdiskN/. */
#define RAMDISK_SYSFS_STATS "ramdisk"

#endif /* _UAPI_RAMDISK_H */
