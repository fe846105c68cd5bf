// SPDX-License-Identifier: GPL-2.0
/*
 * The write log (write_log.h). What goes in is what the device
 * acknowledged, as a dm-log-writes target stacked above it would record:
 * a write, discard or write-zeroes when it completes without error, with
 * the data the caller gave (copied before the bio runs, while its pages
 * are the caller's), and a flush when it is submitted. A write that
 * completed before a flush was submitted is logged before it; one that
 * completed later is logged after it and so is not covered by it, which is
 * the block layer's contract: a flush makes durable what had completed
 * when it was issued. A flush that then fails is marked so: the device
 * served it or not, and the log says which (see rd_wlog_cut() for the
 * moment a cut leaves it open). A flush the device served stays unmarked
 * even when its caller is told otherwise later (a completion that a
 * latency or a fault rule's delay_us holds past a power cut fails with
 * EIO): what the flush wrote back is on the durable store, so the log's
 * crash states hold it, as the device does. A write that
 * fails is not logged, even where part of it reached the pages (a bad
 * sector in the middle): the caller was told it did not happen.
 *
 * A zoned device's log holds its zone commands too, so that a replay from
 * a checkpoint rebuilds its zones: a reset (per zone, a reset of all zones
 * as one entry per zone it emptied) and a finish, when they succeeded, in
 * the order the device served them; a command that failed changed nothing
 * and is not logged, as a write that failed is not. A zone's writes and
 * commands are logged under its mutex (io.c), so their order in the log is
 * the zone's. Open and close are not logged: they move no data and no
 * write pointer, a power cycle (or a rollback) closes every open zone, and
 * a replay's writes open zones implicitly. A zone append reaches the
 * device as a write at the write pointer (the block layer emulates it),
 * so it is logged as a write where it landed.
 *
 * Entries are ordered by one mutex, the writer's only shared point: the
 * log is a testing aid, and a bio-based driver may sleep in submit_bio.
 * A bio that must not wait (REQ_NOWAIT) is sent to retry from a context
 * that may, as in writeback mode.
 *
 * The log's memory (entries and data) is charged to its own limit, not to
 * mem_limit: it is the tester's, and filling it must not make the device
 * fail writes. Past the limit the log stops, says so once, and keeps what
 * it has for reading.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/ctype.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "checkpoint.h"
#include "compat.h"
#include "ramdisk.h"
#include "write_log.h"

/* Longest mark text: one line of a report. */
#define RD_WLOG_MARK_MAX 127

struct rd_wlog_item {
	u64 sector;
	u32 nr_sectors;
	u16 type; /* enum ramdisk_wlog_type */
	u16 flags; /* RAMDISK_WLOG_FUA, _ATOMIC, _FAILED, _IGNORED */
	u32 len; /* bytes at data */
	u32 order; /* rd_wlog_order when it went in */
	void *data;
};

/*
 * One count for the entries of every device's log, so that the logs of
 * a power domain's members merge into one order (struct
 * ramdisk_wlog_entry's order). Taken under the log's mutex, as the entry
 * goes in: each log's entries have it rising, and an entry that went in
 * before a bio of another device was submitted (a write is logged before
 * its completion is reported) has a lower one than that bio's.
 */
static atomic64_t rd_wlog_order = ATOMIC64_INIT(0);

struct rd_wlog {
	/* the device's, and one per reader copying entries out without rd_lock */
	struct kref ref;
	/* orders the entries: taken for each one appended */
	struct mutex lock;
	struct xarray items; /* by seq, from 0 without gaps */
	/* the rd_wlog_bio of each flush logged and not yet completed */
	struct list_head flushes;
	u64 nr;
	u64 bytes; /* entries and data, charged to limit */
	u64 limit;
	unsigned int state; /* enum ramdisk_wlog_state */
};

static const char *const rd_wlog_state_names[] = {
	[RAMDISK_WLOG_OFF] = "off",	    [RAMDISK_WLOG_RECORDING] = "recording",
	[RAMDISK_WLOG_STOPPED] = "stopped", [RAMDISK_WLOG_OVERFLOWED] = "overflowed",
	[RAMDISK_WLOG_NOMEM] = "failed",    [RAMDISK_WLOG_CUT] = "cut",
};

static void rd_wlog_item_free(struct rd_wlog_item *item)
{
	kvfree(item->data);
	kfree(item);
}

static u64 rd_wlog_cost(const struct rd_wlog_item *item)
{
	return sizeof(*item) + item->len;
}

/* Under the log's lock, while it records. */
static void rd_wlog_stop_overflowed(struct rd_device *rd, struct rd_wlog *log)
{
	WRITE_ONCE(log->state, RAMDISK_WLOG_OVERFLOWED);
	pr_warn("ramdisk%d: the write log reached write_log_limit (%llu bytes) after %llu entries and stopped\n",
		rd->index, log->limit, log->nr);
}

static void rd_wlog_overflow(struct rd_device *rd, struct rd_wlog *log)
{
	mutex_lock(&log->lock);
	if (log->state == RAMDISK_WLOG_RECORDING)
		rd_wlog_stop_overflowed(rd, log);
	mutex_unlock(&log->lock);
}

/*
 * Appends item, or frees it when the log records no more: its seq, or
 * U64_MAX. Outgrowing the limit or the memory stops the log, once. A
 * flush's wb goes on the list of flushes not yet completed, in the same
 * section, so that a power cut finds every flush it may fail.
 */
static u64 rd_wlog_append(struct rd_device *rd, struct rd_wlog *log, struct rd_wlog_item *item,
			  struct rd_wlog_bio *wb)
{
	u64 seq = U64_MAX;
	int err;

	mutex_lock(&log->lock);
	if (log->state != RAMDISK_WLOG_RECORDING)
		goto drop;
	if (log->bytes + rd_wlog_cost(item) > log->limit) {
		rd_wlog_stop_overflowed(rd, log);
		goto drop;
	}
	err = xa_insert(&log->items, log->nr, item, GFP_NOIO);
	if (err) {
		WRITE_ONCE(log->state, RAMDISK_WLOG_NOMEM);
		pr_warn("ramdisk%d: no memory for entry %llu of the write log: it stopped\n",
			rd->index, log->nr);
		goto drop;
	}
	seq = log->nr++;
	item->order = (u32)atomic64_inc_return(&rd_wlog_order);
	if (wb) {
		wb->flush_seq = seq;
		list_add_tail(&wb->flush_node, &log->flushes);
	}
	/* read without the lock by rd_wlog_before()'s early limit check */
	WRITE_ONCE(log->bytes, log->bytes + rd_wlog_cost(item));
	mutex_unlock(&log->lock);
	return seq;

drop:
	mutex_unlock(&log->lock);
	rd_wlog_item_free(item);
	return U64_MAX;
}

static void rd_wlog_out_of_memory(struct rd_device *rd, struct rd_wlog *log)
{
	mutex_lock(&log->lock);
	if (log->state == RAMDISK_WLOG_RECORDING) {
		WRITE_ONCE(log->state, RAMDISK_WLOG_NOMEM);
		pr_warn("ramdisk%d: no memory for entry %llu of the write log: it stopped\n",
			rd->index, log->nr);
	}
	mutex_unlock(&log->lock);
}

/*
 * A new entry; a write's data copied from the bio, as the caller gave it.
 * lying: the device ignores flushes and FUA (lying-flush), so neither is
 * recorded as durable, and both are marked as asked for and not given.
 */
static struct rd_wlog_item *rd_wlog_item_make(struct bio *bio, u16 type, bool lying)
{
	struct rd_wlog_item *item;
	struct bvec_iter iter;
	struct bio_vec bv;
	unsigned int noio;
	char *to;

	item = kzalloc(sizeof(*item), GFP_NOIO | __GFP_NOWARN);
	if (!item)
		return NULL;
	item->type = type;
	if (type == RAMDISK_WLOG_FLUSH) {
		if (lying)
			item->flags |= RAMDISK_WLOG_IGNORED;
		return item;
	}
	item->sector = bio->bi_iter.bi_sector;
	item->nr_sectors = bio->bi_iter.bi_size >> SECTOR_SHIFT;
	if (bio->bi_opf & REQ_FUA)
		item->flags |= lying ? RAMDISK_WLOG_IGNORED : RAMDISK_WLOG_FUA;
	if (rd_compat_bio_atomic(bio))
		item->flags |= RAMDISK_WLOG_ATOMIC;
	if (type != RAMDISK_WLOG_WRITE)
		return item;

	item->len = bio->bi_iter.bi_size;
	/* kvmalloc may vmalloc, which takes no gfp flags: a scope keeps it off I/O */
	noio = memalloc_noio_save();
	item->data = kvmalloc(item->len, GFP_KERNEL | __GFP_NOWARN);
	memalloc_noio_restore(noio);
	if (!item->data) {
		kfree(item);
		return NULL;
	}
	to = item->data;
	bio_for_each_segment(bv, bio, iter) {
		memcpy_from_bvec(to, &bv);
		to += bv.bv_len;
	}
	return item;
}

bool rd_wlog_before(struct rd_device *rd, struct bio *bio, struct rd_wlog_bio *wb)
{
	struct rd_wlog *log = READ_ONCE(rd->wlog_rec);
	struct rd_wlog_item *item;
	u16 type;

	wb->entry = NULL;
	wb->flush_seq = U64_MAX;
	if (!log || READ_ONCE(log->state) != RAMDISK_WLOG_RECORDING)
		return true;

	switch (bio_op(bio)) {
	case REQ_OP_WRITE:
		type = RAMDISK_WLOG_WRITE;
		break;
	case REQ_OP_DISCARD:
		type = RAMDISK_WLOG_DISCARD;
		break;
	case REQ_OP_WRITE_ZEROES:
		type = RAMDISK_WLOG_WRITE_ZEROES;
		break;
	case REQ_OP_FLUSH:
		type = RAMDISK_WLOG_FLUSH;
		break;
	default:
		return true;
	}
	/* logging may sleep: a bio that must not is retried from where it may */
	if (bio->bi_opf & REQ_NOWAIT)
		return false;
	/* a flush, alone or ahead of a write, is logged as it is submitted */
	if (type == RAMDISK_WLOG_FLUSH || (bio->bi_opf & REQ_PREFLUSH)) {
		item = rd_wlog_item_make(bio, RAMDISK_WLOG_FLUSH, READ_ONCE(rd->lying_flush));
		if (!item) {
			rd_wlog_out_of_memory(rd, log);
			return true;
		}
		rd_wlog_append(rd, log, item, wb);
	}
	if (type == RAMDISK_WLOG_FLUSH || !bio->bi_iter.bi_size)
		return true;
	/*
	 * Past the limit already: the log stops here, with no copy made. Only
	 * a write's data is copied: a discard's or write-zeroes' entry is
	 * charged its own size alone, however large its range.
	 */
	if (READ_ONCE(log->bytes) + sizeof(*item) +
		    (type == RAMDISK_WLOG_WRITE ? bio->bi_iter.bi_size : 0) >
	    READ_ONCE(log->limit)) {
		rd_wlog_overflow(rd, log);
		return true;
	}
	item = rd_wlog_item_make(bio, type, READ_ONCE(rd->lying_flush));
	if (!item)
		rd_wlog_out_of_memory(rd, log);
	wb->entry = item;
	return true;
}

void rd_wlog_after(struct rd_device *rd, struct rd_wlog_bio *wb, blk_status_t status)
{
	struct rd_wlog *log = READ_ONCE(rd->wlog_rec);
	struct rd_wlog_item *item;

	/* the log that rd_wlog_before() used: stopping it froze the queue */
	if (wb->flush_seq != U64_MAX) {
		mutex_lock(&log->lock);
		list_del(&wb->flush_node);
		item = xa_load(&log->items, wb->flush_seq);
		/* a cut marked it failed: it is if the device did not serve it */
		if (status)
			WRITE_ONCE(item->flags, item->flags | RAMDISK_WLOG_FAILED);
		else
			WRITE_ONCE(item->flags, item->flags & ~RAMDISK_WLOG_FAILED);
		mutex_unlock(&log->lock);
	}
	wb->flush_seq = U64_MAX;
	item = wb->entry;
	if (!item)
		return;
	wb->entry = NULL;
	if (status)
		rd_wlog_item_free(item);
	else
		rd_wlog_append(rd, log, item, NULL);
}

void rd_wlog_zone(struct rd_device *rd, u16 type, sector_t sector, sector_t nr_sectors)
{
	struct rd_wlog *log = READ_ONCE(rd->wlog_rec);
	struct rd_wlog_item *item;

	if (!log || READ_ONCE(log->state) != RAMDISK_WLOG_RECORDING)
		return;
	item = kzalloc(sizeof(*item), GFP_NOIO | __GFP_NOWARN);
	if (!item) {
		rd_wlog_out_of_memory(rd, log);
		return;
	}
	item->type = type;
	item->sector = sector;
	/* a zone is at most 2^31 sectors (zones.c) */
	item->nr_sectors = nr_sectors;
	rd_wlog_append(rd, log, item, NULL);
}

/*
 * A power cut of a writeback device, under power_sem held for write: no
 * bio runs in the cache. The log ends here, a true history of what the
 * device acknowledged up to the cut, and the cut is the crash at its end:
 * what no completed flush covers may be lost, which is what the cut did.
 * Nothing after it goes in, so no later flush claims the lost writes
 * durable. A flush logged and not yet completed is marked failed: one the
 * cut kept from running will fail on the moved power generation, and a
 * reader must not see it as having made anything durable meanwhile. One
 * that the cache served just before the cut (it released power_sem, its
 * entry is not yet completed) made its writes durable: rd_wlog_after()
 * clears its mark when it completes without error. So a reader that
 * comes between the cut and that completion sees the flush as failed,
 * which only widens the crash states; once every flush in flight has
 * completed, the log says exactly which the device served.
 */
void rd_wlog_cut(struct rd_device *rd)
{
	struct rd_wlog *log = rd->wlog;
	struct rd_wlog_item *item;
	struct rd_wlog_bio *wb;

	if (!log)
		return;
	mutex_lock(&log->lock);
	if (log->state == RAMDISK_WLOG_RECORDING) {
		list_for_each_entry(wb, &log->flushes, flush_node) {
			item = xa_load(&log->items, wb->flush_seq);
			WRITE_ONCE(item->flags, item->flags | RAMDISK_WLOG_FAILED);
		}
		WRITE_ONCE(log->state, RAMDISK_WLOG_CUT);
		pr_info("ramdisk%d: a power cut ended the write log after %llu entries\n",
			rd->index, log->nr);
	}
	mutex_unlock(&log->lock);
}

bool rd_wlog_recording(struct rd_device *rd)
{
	return rd->wlog && READ_ONCE(rd->wlog->state) == RAMDISK_WLOG_RECORDING;
}

/* Recording starts (the submit path sees the log) with the queue frozen or idle. */
static void rd_wlog_switch_on(struct rd_device *rd, void *log)
{
	WRITE_ONCE(rd->wlog, log);
	/* a bio that finds the log finds it whole: pairs with the address dependency of READ_ONCE() */
	smp_store_release(&rd->wlog_rec, log);
}

/* A log that records, empty, not yet any device's. */
static struct rd_wlog *rd_wlog_alloc(u64 limit)
{
	struct rd_wlog *log = kzalloc(sizeof(*log), GFP_KERNEL);

	if (!log)
		return NULL;
	kref_init(&log->ref);
	mutex_init(&log->lock);
	xa_init(&log->items);
	INIT_LIST_HEAD(&log->flushes);
	log->limit = limit;
	log->state = RAMDISK_WLOG_RECORDING;
	return log;
}

static int rd_wlog_start(struct rd_device *rd, const char *who, const char *ck, u64 limit)
{
	struct rd_wlog *log;
	int err;

	if (rd->wlog) {
		pr_warn("%s: the write log is %s; clear it first (it is lost then)\n", who,
			rd_wlog_state_name(rd));
		return -EBUSY;
	}
	log = rd_wlog_alloc(limit);
	if (!log)
		return -ENOMEM;
	if (!ck) {
		rd_wlog_switch_on(rd, log);
		return 0;
	}
	/* the checkpoint and the first entry with no write between them */
	err = rd_checkpoint_take_then(rd, who, ck, rd_wlog_switch_on, log);
	if (err)
		kfree(log);
	return err;
}

/*
 * A power domain's logs, started at one instant: every member's switches
 * on in the freeze of checkpoint ck, taken of every member at once
 * (rd_checkpoint_take_members()). The checkpoints and the logs merged by
 * their entries' order then rebuild every state the group went through.
 * All or none, as the checkpoint.
 */
int rd_wlog_start_members(struct rd_device *const *rd, const u64 *limits, unsigned int n,
			  const char *who, const char *ck)
{
	struct rd_wlog **logs;
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		if (rd[i]->wlog) {
			pr_warn("%s: the write log of %s is %s; clear it first (it is lost then)\n",
				who, rd[i]->disk->disk_name, rd_wlog_state_name(rd[i]));
			return -EBUSY;
		}
	}
	logs = kcalloc(n, sizeof(*logs), GFP_KERNEL);
	if (!logs)
		return -ENOMEM;
	err = 0;
	for (i = 0; i < n && !err; i++) {
		logs[i] = rd_wlog_alloc(limits[i]);
		if (!logs[i])
			err = -ENOMEM;
	}
	if (!err)
		err = rd_checkpoint_take_members(rd, n, who, ck, rd_wlog_switch_on,
						 (void *const *)logs);
	/* not switched on: nobody else has seen them */
	if (err)
		for (i = 0; i < n; i++)
			kfree(logs[i]);
	kfree(logs);
	return err;
}

/* No bio runs in the log once this returns: it may be freed. */
static void rd_wlog_stop(struct rd_device *rd)
{
	struct rd_wlog *log = rd->wlog;
	struct rd_frozen frozen;

	rd_freeze(rd, &frozen);
	WRITE_ONCE(rd->wlog_rec, NULL);
	rd_thaw(rd, &frozen);
	if (log->state == RAMDISK_WLOG_RECORDING)
		log->state = RAMDISK_WLOG_STOPPED;
}

static void rd_wlog_release(struct kref *ref)
{
	struct rd_wlog *log = container_of(ref, struct rd_wlog, ref);
	struct rd_wlog_item *item;
	unsigned long seq;

	xa_for_each(&log->items, seq, item)
		rd_wlog_item_free(item);
	xa_destroy(&log->items);
	kfree(log);
}

void rd_wlog_put(struct rd_wlog *log)
{
	kref_put(&log->ref, rd_wlog_release);
}

struct rd_wlog *rd_wlog_get(struct rd_device *rd)
{
	struct rd_wlog *log = rd->wlog;

	if (log)
		kref_get(&log->ref);
	return log;
}

/* The device lets go of its log; a reader still copying keeps it until done. */
void rd_wlog_free(struct rd_device *rd)
{
	struct rd_wlog *log = rd->wlog;

	if (!log)
		return;
	rd->wlog = NULL;
	rd->wlog_rec = NULL;
	rd_wlog_put(log);
}

/* TEXT: printable, one line, at most RD_WLOG_MARK_MAX characters. */
static int rd_wlog_mark(struct rd_device *rd, const char *who, const char *text, size_t len)
{
	struct rd_wlog *log = rd->wlog;
	struct rd_wlog_item *item;
	size_t i;

	if (!log || READ_ONCE(log->state) != RAMDISK_WLOG_RECORDING) {
		pr_warn("%s: a mark needs a write log that is recording; it is %s\n", who,
			rd_wlog_state_name(rd));
		return -EINVAL;
	}
	if (!len || len > RD_WLOG_MARK_MAX) {
		pr_warn("%s: a mark has 1 to %d characters\n", who, RD_WLOG_MARK_MAX);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (!isascii(text[i]) || !isprint(text[i])) {
			pr_warn("%s: a mark is printable ASCII text\n", who);
			return -EINVAL;
		}
	}
	item = kzalloc(sizeof(*item), GFP_KERNEL);
	if (!item)
		return -ENOMEM;
	item->type = RAMDISK_WLOG_MARK;
	item->data = kmemdup(text, len, GFP_KERNEL);
	if (!item->data) {
		kfree(item);
		return -ENOMEM;
	}
	item->len = len;
	if (rd_wlog_append(rd, log, item, NULL) == U64_MAX) {
		pr_warn("%s: the write log is %s: the mark is not in it\n", who,
			rd_wlog_state_name(rd));
		return -ENOSPC;
	}
	return 0;
}

int rd_wlog_command(struct rd_device *rd, const char *who, const char *cmd, u64 limit)
{
	size_t len = strcspn(cmd, "\n");
	char name[RD_CHECKPOINT_NAME_LEN];
	const char *arg;
	size_t word;
	int err;

	if (cmd[len] && cmd[len + 1]) {
		pr_warn("%s: write_log takes one line\n", who);
		return -EINVAL;
	}
	word = strcspn(cmd, "\n ");
	arg = cmd[word] == ' ' ? cmd + word + 1 : NULL;
	if (word == 5 && !strncmp(cmd, "start", 5)) {
		if (!arg)
			return rd_wlog_start(rd, who, NULL, limit);
		err = rd_checkpoint_name_parse(who, arg, len - (arg - cmd), name);
		if (err)
			return err;
		return rd_wlog_start(rd, who, name, limit);
	}
	if (word == 4 && !strncmp(cmd, "mark", 4) && arg)
		return rd_wlog_mark(rd, who, arg, len - (arg - cmd));
	if (!arg && word == 4 && !strncmp(cmd, "stop", 4)) {
		if (!rd->wlog || rd->wlog->state != RAMDISK_WLOG_RECORDING) {
			pr_warn("%s: the write log is %s, not recording\n", who,
				rd_wlog_state_name(rd));
			return -EINVAL;
		}
		rd_wlog_stop(rd);
		return 0;
	}
	if (!arg && word == 5 && !strncmp(cmd, "clear", 5)) {
		if (rd->wlog) {
			rd_wlog_stop(rd);
			rd_wlog_free(rd);
		}
		return 0;
	}
	pr_warn("%s: write_log takes start, start CHECKPOINT, mark TEXT, stop or clear\n", who);
	return -EINVAL;
}

const char *rd_wlog_state_name(struct rd_device *rd)
{
	return rd->wlog ? rd_wlog_state_names[READ_ONCE(rd->wlog->state)] : "off";
}

void rd_wlog_set_limit(struct rd_device *rd, u64 limit)
{
	if (rd->wlog)
		WRITE_ONCE(rd->wlog->limit, limit);
}

int rd_wlog_read(struct rd_wlog *log, struct ramdisk_wlog_read *req)
{
	struct ramdisk_wlog_entry __user *out = u64_to_user_ptr(req->entries);
	char __user *data = u64_to_user_ptr(req->data);
	struct ramdisk_wlog_entry e;
	struct rd_wlog_item *item;
	u64 nr, seq, used = 0;
	u32 filled = 0;

	/*
	 * The entries below nr are whole and stay as they are, but for a
	 * flush's FAILED, which a cut may set and the flush's completion
	 * settle, and stay while the reference is held: they are
	 * copied out with no lock held, however slowly the caller's memory
	 * takes them.
	 */
	mutex_lock(&log->lock);
	nr = log->nr;
	req->state = log->state;
	mutex_unlock(&log->lock);

	for (seq = req->first; seq < nr && filled < req->count; seq++) {
		item = xa_load(&log->items, seq);
		if (item->len > req->data_size - used) {
			if (!filled) {
				req->data_used = item->len;
				return -EMSGSIZE;
			}
			break;
		}
		memset(&e, 0, sizeof(e));
		e.seq = seq;
		e.sector = item->sector;
		e.nr_sectors = item->nr_sectors;
		e.type = item->type;
		e.flags = READ_ONCE(item->flags);
		e.data_len = item->len;
		e.order = item->order;
		e.data_offset = used;
		if (item->len && copy_to_user(data + used, item->data, item->len))
			return -EFAULT;
		if (copy_to_user(&out[filled], &e, sizeof(e)))
			return -EFAULT;
		used += item->len;
		filled++;
		cond_resched();
	}
	req->count = filled;
	req->data_used = used;
	req->nr_entries = nr;
	req->flags = req->state != RAMDISK_WLOG_RECORDING && req->first + filled >= nr ?
			     RAMDISK_WLOG_END :
			     0;
	return 0;
}
