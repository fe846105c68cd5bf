// SPDX-License-Identifier: GPL-2.0
/*
 * What keeps the module's changes apart: rd_lock for configuration and
 * the device list, a frozen queue for the moments no bio may run through
 * (a checkpoint, a rollback, the write log switched on). Below every
 * layer that needs them, so that none calls up into the device's life.
 */
#include <linux/blkdev.h>
#include <linux/mutex.h>
#include <linux/sched/mm.h>

#include "compat.h"
#include "ramdisk.h"

DEFINE_MUTEX(rd_lock);

void rd_freeze(struct rd_device *rd, struct rd_frozen *f)
{
	f->noio = memalloc_noio_save();
	f->memflags = rd_compat_freeze_queue(rd->disk->queue);
}

void rd_thaw(struct rd_device *rd, struct rd_frozen *f)
{
	rd_compat_unfreeze_queue(rd->disk->queue, f->memflags);
	memalloc_noio_restore(f->noio);
}
