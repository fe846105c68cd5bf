// SPDX-License-Identifier: GPL-2.0
/*
 * The module's own ioctls: which ranges of a device hold data, so that a
 * save reads only those instead of the whole device; and the entries of
 * its write log (write_log.c). In writeback mode
 * the ranges are those of the cache's view, durable or not, since a save
 * copies what a read returns.
 *
 * Opened on a partition, the answer is the partition's: offsets count from
 * its first byte and nothing outside it is reported, so a save of
 * /dev/ramdiskNpM reads the right bytes and learns nothing of its
 * neighbours.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/uaccess.h>

#include "ramdisk.h"
#include "store.h"
#include "write_log.h"

static int rd_ioctl_get_extents(struct block_device *bdev, struct ramdisk_extents __user *uarg)
{
	struct rd_device *rd = bdev->bd_disk->private_data;
	struct rd_store *store = rd->top;
	/* the opened range of the disk: the whole disk, or one partition */
	u64 base = (u64)get_start_sect(bdev) << SECTOR_SHIFT;
	u64 dev_size = base + bdev_nr_bytes(bdev);
	struct ramdisk_extent __user *out;
	struct ramdisk_extent cur = {};
	struct ramdisk_extents req;
	bool have = false, more = true;
	u64 pos, start, len;
	u32 filled = 0;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.flags || !req.count || req.count > RAMDISK_EXTENTS_MAX)
		return -EINVAL;
	out = u64_to_user_ptr(req.extents);
	/* a start past the end (or one that would wrap) finds nothing */
	pos = req.start < dev_size - base ? base + req.start : dev_size;
	while (pos < dev_size) {
		start = store->ops->next_extent(store, pos, &len);
		if (start == RD_STORE_NO_EXTENT || start >= dev_size) {
			more = false;
			break;
		}
		/* a run that begins before pos is reported from pos on */
		if (start < pos) {
			len -= pos - start;
			start = pos;
		}
		len = min(len, dev_size - start);
		/* the store may hand back one run in pieces: join them */
		if (have && base + cur.offset + cur.length == start) {
			cur.length += len;
		} else {
			if (have) {
				if (copy_to_user(&out[filled], &cur, sizeof(cur)))
					return -EFAULT;
				have = false;
				if (++filled == req.count)
					break;
			}
			cur.offset = start - base;
			cur.length = len;
			have = true;
		}
		pos = start + len;
		cond_resched();
	}
	if (pos >= dev_size)
		more = false;
	if (have) {
		if (copy_to_user(&out[filled], &cur, sizeof(cur)))
			return -EFAULT;
		filled++;
	}
	req.count = filled;
	req.flags = more ? 0 : RAMDISK_EXTENTS_LAST;
	if (copy_to_user(uarg, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

/*
 * The write log's entries count sectors of the whole disk, so it is read
 * there only. rd_lock (which a clear of the log takes too) is held only to
 * take a reference to the log: the copy to the caller's memory, which may
 * fault slowly (a file of a FUSE file system, mapped), must not stall
 * every configfs operation of every device. The device itself stays: the
 * caller holds it open, and a powered device that is open is not removed.
 */
static int rd_ioctl_wlog_read(struct block_device *bdev, struct ramdisk_wlog_read __user *uarg)
{
	struct rd_device *rd = bdev->bd_disk->private_data;
	struct ramdisk_wlog_read req;
	struct rd_wlog *log;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.reserved || !req.count || req.count > RAMDISK_WLOG_READ_MAX)
		return -EINVAL;
	if (bdev_is_partition(bdev))
		return -ENOTTY;
	mutex_lock(&rd_lock);
	log = rd_wlog_get(rd);
	mutex_unlock(&rd_lock);
	if (log) {
		err = rd_wlog_read(log, &req);
		rd_wlog_put(log);
	} else {
		req.count = 0;
		req.data_used = 0;
		req.nr_entries = 0;
		req.state = RAMDISK_WLOG_OFF;
		req.flags = RAMDISK_WLOG_END;
		err = 0;
	}
	if (err && err != -EMSGSIZE)
		return err;
	if (copy_to_user(uarg, &req, sizeof(req)))
		return -EFAULT;
	return err;
}

int rd_ioctl(struct block_device *bdev, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case RAMDISK_IOC_GET_EXTENTS:
		return rd_ioctl_get_extents(bdev, (struct ramdisk_extents __user *)arg);
	case RAMDISK_IOC_WLOG_READ:
		return rd_ioctl_wlog_read(bdev, (struct ramdisk_wlog_read __user *)arg);
	default:
		return -ENOTTY;
	}
}
