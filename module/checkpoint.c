// SPDX-License-Identifier: GPL-2.0
/*
 * Named checkpoints (checkpoint.h). Taking, dropping and rolling back
 * stop the device's I/O by freezing its queue: every bio runs to its end
 * inside submit_bio (io.c), so a frozen queue means that no write is half
 * done in a page whose sharing changes. A drop needs it as much as a take:
 * a write that found a page shared copies it, and were the page to stop
 * being shared under the copy, a second write could change it in place,
 * and the copy that replaces it would lose that write. (rd_freeze() in
 * ramdisk.h says why nothing allocates with I/O meanwhile.)
 *
 * A zoned device's checkpoint holds its zones beside its pages, as a disk
 * that loses power keeps them (zones.h): each sequential zone empty,
 * closed at its write pointer, or full. They are saved and restored under
 * the same freeze as the pages, so that every write pointer matches the
 * data below it, and a clone starts from them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cache.h"
#include "checkpoint.h"
#include "compat.h"
#include "ramdisk.h"
#include "store.h"
#include "test_hooks.h"
#include "zones.h"

struct rd_checkpoint {
	struct list_head node;
	struct rd_store_checkpoint *data;
	/* a zoned device's: a word a zone (rd_zones_save_words()), else NULL */
	u32 *zone_words;
	unsigned int nr_zone_words;
	/* clones made from it: it cannot be dropped while there are any */
	unsigned int clones;
	char name[RD_CHECKPOINT_NAME_LEN];
};

static struct rd_checkpoint *rd_checkpoint_find(struct rd_device *rd, const char *name)
{
	struct rd_checkpoint *ck;

	list_for_each_entry(ck, &rd->checkpoints, node)
		if (!strcmp(ck->name, name))
			return ck;
	return NULL;
}

/* Letters, digits, '.', '_' and '-': a name that is safe in a line of text and a shell. */
int rd_checkpoint_name_parse(const char *who, const char *text, size_t len, char *name)
{
	size_t i;

	if (!len || len >= RD_CHECKPOINT_NAME_LEN) {
		pr_warn("%s: a checkpoint name has 1 to %d characters\n", who,
			RD_CHECKPOINT_NAME_LEN - 1);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (!isascii(text[i]) || (!isalnum(text[i]) && !strchr("._-", text[i]))) {
			pr_warn("%s: a checkpoint name has letters, digits, '.', '_' and '-' only\n",
				who);
			return -EINVAL;
		}
	}
	memcpy(name, text, len);
	name[len] = '\0';
	return 0;
}

/* Whether rd can take checkpoint NAME now; logs why not. */
static int rd_checkpoint_may_take(struct rd_device *rd, const char *who, const char *name)
{
	if (rd->origin) {
		pr_warn("%s: a clone takes no checkpoints; power it off and on to start again from its checkpoint\n",
			who);
		return -EOPNOTSUPP;
	}
	if (!rd->store->ops->checkpoint) {
		pr_warn("%s: checkpoints need a device in pages, not in reserved memory\n", who);
		return -EOPNOTSUPP;
	}
	if (rd_checkpoint_find(rd, name)) {
		pr_warn("%s: checkpoint %s exists already\n", who, name);
		return -EEXIST;
	}
	if (rd->nr_checkpoints >= RD_MAX_CHECKPOINTS) {
		pr_warn("%s: a device has at most %d checkpoints\n", who, RD_MAX_CHECKPOINTS);
		return -ENOSPC;
	}
	return 0;
}

/* A checkpoint of rd, not yet taken: outside the freeze, where an allocation may wait for I/O. */
static struct rd_checkpoint *rd_checkpoint_alloc(struct rd_device *rd, const char *name)
{
	struct rd_checkpoint *ck;

	ck = kzalloc(sizeof(*ck), GFP_KERNEL);
	if (!ck)
		return NULL;
	strscpy(ck->name, name, sizeof(ck->name));
	if (rd->zones) {
		ck->nr_zone_words = rd_zones_count(rd->zones);
		ck->zone_words =
			kvmalloc_array(ck->nr_zone_words, sizeof(*ck->zone_words), GFP_KERNEL);
		if (!ck->zone_words) {
			kfree(ck);
			return NULL;
		}
	}
	return ck;
}

/* With the queue frozen: the data of ck, as a reader sees it. 0 or the error, logged. */
static int rd_checkpoint_take_frozen(struct rd_device *rd, const char *who,
				     struct rd_checkpoint *ck)
{
	struct rd_store_checkpoint *data;
	int err;

	/* what a reader sees: the cache's writes go down first, as at a flush */
	err = rd->cache ? rd_cache_flush(rd->cache) : 0;
	data = err ? ERR_PTR(err) : rd->store->ops->checkpoint(rd->store);
	if (IS_ERR(data)) {
		pr_warn("%s: cannot take checkpoint %s: %ld\n", who, ck->name, PTR_ERR(data));
		return PTR_ERR(data);
	}
	if (rd->zones)
		rd_zones_save_words(rd->zones, ck->zone_words);
	ck->data = data;
	return 0;
}

/* A checkpoint taken goes on the device's list. */
static void rd_checkpoint_link(struct rd_device *rd, struct rd_checkpoint *ck)
{
	list_add_tail(&ck->node, &rd->checkpoints);
	rd->nr_checkpoints++;
}

int rd_checkpoint_take_then(struct rd_device *rd, const char *who, const char *name,
			    void (*then)(struct rd_device *rd, void *arg), void *arg)
{
	struct rd_checkpoint *ck;
	struct rd_frozen frozen;
	int err;

	err = rd_checkpoint_may_take(rd, who, name);
	if (err)
		return err;
	ck = rd_checkpoint_alloc(rd, name);
	if (!ck)
		return -ENOMEM;

	/* before any page is shared, and outside the freeze (it takes the CPU hotplug lock) */
	rd_pages_sharing_get();
	rd_freeze(rd, &frozen);
	err = rd_checkpoint_take_frozen(rd, who, ck);
	if (!err && then)
		then(rd, arg);
	rd_thaw(rd, &frozen);
	if (err)
		goto out_put_sharing;
	rd_checkpoint_link(rd, ck);
	return 0;

out_put_sharing:
	rd_pages_sharing_put();
	kvfree(ck->zone_words);
	kfree(ck);
	return err;
}

/* With the queue frozen, or once no I/O can reach the device. */
static void rd_checkpoint_unlink(struct rd_device *rd, struct rd_checkpoint *ck)
{
	list_del(&ck->node);
	rd->nr_checkpoints--;
	rd->store->ops->checkpoint_free(rd->store, ck->data);
}

/* After the unlink, outside the freeze (it takes the CPU hotplug lock). */
static void rd_checkpoint_free(struct rd_checkpoint *ck)
{
	rd_pages_sharing_put();
	kvfree(ck->zone_words);
	kfree(ck);
}

int rd_checkpoint_command(struct rd_device *rd, const char *who, const char *cmd)
{
	size_t len = strcspn(cmd, "\n");
	char name[RD_CHECKPOINT_NAME_LEN];
	struct rd_checkpoint *ck;
	struct rd_frozen frozen;
	int err;

	if (len < 1 || (cmd[0] != '+' && cmd[0] != '-') || (cmd[len] && cmd[len + 1])) {
		pr_warn("%s: checkpoints takes +NAME (take one) or -NAME (drop it)\n", who);
		return -EINVAL;
	}
	err = rd_checkpoint_name_parse(who, cmd + 1, len - 1, name);
	if (err)
		return err;
	if (cmd[0] == '+')
		return rd_checkpoint_take_then(rd, who, name, NULL, NULL);
	ck = rd_checkpoint_find(rd, name);
	if (!ck) {
		pr_warn("%s: there is no checkpoint %s\n", who, name);
		return -ENOENT;
	}
	if (ck->clones) {
		pr_warn("%s: checkpoint %s is the start of %u clone(s); power them off first\n",
			who, name, ck->clones);
		return -EBUSY;
	}
	rd_freeze(rd, &frozen);
	rd_checkpoint_unlink(rd, ck);
	rd_thaw(rd, &frozen);
	rd_checkpoint_free(ck);
	return 0;
}

/*
 * A power domain's checkpoint: every member's queue is frozen before any
 * member's checkpoint is taken, and thawed after the last. A bio a member
 * completed before its freeze is in its checkpoint; one submitted after
 * waits. So whatever order a user's writes went to the members in, a
 * write in one member's checkpoint was not submitted after a write that
 * another member's checkpoint lacks completed: together they are a state
 * the group could have been in at one instant, as a crash would leave.
 * All or none: every member is checked first, and on a failure the
 * checkpoints taken go again before the thaw. then, if given, is called
 * for each member with its args[] once all are taken, still frozen.
 */
int rd_checkpoint_take_members(struct rd_device *const *rd, unsigned int n, const char *who,
			       const char *name, void (*then)(struct rd_device *rd, void *arg),
			       void *const *args)
{
	struct rd_checkpoint **ck;
	struct rd_frozen *frozen;
	unsigned int i, taken = 0;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = rd_checkpoint_may_take(rd[i], rd[i]->disk->disk_name, name);
	if (err)
		return err;
	ck = kcalloc(n, sizeof(*ck), GFP_KERNEL);
	frozen = kcalloc(n, sizeof(*frozen), GFP_KERNEL);
	if (!ck || !frozen) {
		err = -ENOMEM;
		goto out_free_arrays;
	}
	for (i = 0; i < n; i++) {
		ck[i] = rd_checkpoint_alloc(rd[i], name);
		if (!ck[i]) {
			err = -ENOMEM;
			goto out_free_cks;
		}
	}

	for (i = 0; i < n; i++)
		rd_pages_sharing_get();
	for (i = 0; i < n; i++)
		rd_freeze(rd[i], &frozen[i]);
	for (taken = 0; taken < n; taken++) {
		err = rd_checkpoint_take_frozen(rd[taken], rd[taken]->disk->disk_name, ck[taken]);
		if (err)
			break;
		rd_test_delay(RD_TEST_DOMAIN_MEMBER_TAKEN);
	}
	/* a member failed: the others give their pages back, still frozen */
	if (err)
		for (i = 0; i < taken; i++)
			rd[i]->store->ops->checkpoint_free(rd[i]->store, ck[i]->data);
	else if (then)
		for (i = 0; i < n; i++)
			then(rd[i], args[i]);
	for (i = n; i-- > 0;)
		rd_thaw(rd[i], &frozen[i]);
	if (err) {
		pr_warn("%s: checkpoint %s taken on no member\n", who, name);
		for (i = 0; i < n; i++)
			rd_pages_sharing_put();
		goto out_free_cks;
	}
	for (i = 0; i < n; i++)
		rd_checkpoint_link(rd[i], ck[i]);
	goto out_free_arrays;

out_free_cks:
	for (i = 0; i < n && ck[i]; i++) {
		kvfree(ck[i]->zone_words);
		kfree(ck[i]);
	}
out_free_arrays:
	kfree(frozen);
	kfree(ck);
	return err;
}

/* Drops checkpoint NAME from every member, or from none: each must have it, with no clone. */
int rd_checkpoint_drop_members(struct rd_device *const *rd, unsigned int n, const char *who,
			       const char *name)
{
	struct rd_checkpoint *ck;
	struct rd_frozen frozen;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ck = rd_checkpoint_find(rd[i], name);
		if (!ck) {
			pr_warn("%s: %s has no checkpoint %s\n", who, rd[i]->disk->disk_name, name);
			return -ENOENT;
		}
		if (ck->clones) {
			pr_warn("%s: checkpoint %s of %s is the start of %u clone(s); power them off first\n",
				who, name, rd[i]->disk->disk_name, ck->clones);
			return -EBUSY;
		}
	}
	for (i = 0; i < n; i++) {
		ck = rd_checkpoint_find(rd[i], name);
		rd_freeze(rd[i], &frozen);
		rd_checkpoint_unlink(rd[i], ck);
		rd_thaw(rd[i], &frozen);
		rd_checkpoint_free(ck);
	}
	return 0;
}

/*
 * Only a device that nobody holds open: a mounted file system would find
 * its blocks changed under it. Opens take open_mutex, so none slips in;
 * the page caches of the disk and its partitions are emptied after, as
 * after a power cut, so that the next reader sees the checkpoint's data.
 *
 * The cached writes are dropped only once the store has rolled back: a
 * rollback that fails (no memory) leaves the device as it was, cache and
 * all. A zoned device's zones follow the pages, under the same freeze;
 * their words are checked first, so that they cannot fail once the pages
 * have gone back. The block layer's copies of the write pointers (its
 * zone write plugs) are not told: as after a power cut (zones.c), the
 * first write where it believed a moved pointer was fails, and a zone
 * report brings it back in line.
 */
int rd_checkpoint_rollback(struct rd_device *rd, const char *who, const char *text)
{
	size_t len = strcspn(text, "\n");
	char name[RD_CHECKPOINT_NAME_LEN];
	struct gendisk *disk = rd->disk;
	struct block_device *part;
	struct rd_checkpoint *ck;
	struct rd_frozen frozen;
	unsigned long idx;
	int err;

	err = rd_checkpoint_name_parse(who, text, len, name);
	if (err)
		return err;
	ck = rd_checkpoint_find(rd, name);
	if (!ck) {
		pr_warn("%s: there is no checkpoint %s\n", who, name);
		return -ENOENT;
	}
	if (rd->zones) {
		err = rd_zones_check_words(rd->zones, ck->zone_words, ck->nr_zone_words, who);
		if (err)
			return err;
	}
	mutex_lock(&disk->open_mutex);
	if (disk_openers(disk)) {
		mutex_unlock(&disk->open_mutex);
		pr_warn("%s: rollback refused: the device is open (mounted?)\n", who);
		return -EBUSY;
	}
	rd_freeze(rd, &frozen);
	err = rd->store->ops->rollback(rd->store, ck->data);
	/* the cached writes came after the checkpoint, which the rollback undid */
	if (!err && rd->cache)
		rd_cache_drop(rd->cache);
	if (!err && rd->zones)
		rd_zones_restore_words(rd->zones, ck->zone_words);
	rd_thaw(rd, &frozen);
	xa_for_each(&disk->part_tbl, idx, part)
		invalidate_bdev(part);
	mutex_unlock(&disk->open_mutex);
	if (err)
		pr_warn("%s: cannot roll back to checkpoint %s: %d\n", who, name, err);
	return err;
}

ssize_t rd_checkpoint_show(struct rd_device *rd, char *buf, size_t size)
{
	struct rd_checkpoint *ck;
	ssize_t len = 0;

	list_for_each_entry(ck, &rd->checkpoints, node) {
		long pages, own;

		rd->store->ops->checkpoint_usage(rd->store, ck->data, &pages, &own);
		len += scnprintf(buf + len, size - len, "%s pages=%ld own=%ld\n", ck->name, pages,
				 own);
	}
	return len;
}

void rd_checkpoints_free(struct rd_device *rd)
{
	struct rd_checkpoint *ck, *next;

	list_for_each_entry_safe(ck, next, &rd->checkpoints, node) {
		rd_checkpoint_unlink(rd, ck);
		rd_checkpoint_free(ck);
	}
}

int rd_checkpoint_parse_clone_of(const char *who, const char *text, char *disk, size_t disk_len,
				 char *name)
{
	size_t len = strcspn(text, "\n");
	size_t disk_end = strcspn(text, "\n ");
	size_t i;
	int err;

	if (text[len] && text[len + 1]) {
		pr_warn("%s: clone_of takes one line: DISK CHECKPOINT\n", who);
		return -EINVAL;
	}
	if (!len) {
		disk[0] = '\0';
		name[0] = '\0';
		return 0;
	}
	for (i = 0; i < disk_end && isascii(text[i]) && isalnum(text[i]); i++)
		;
	if (!disk_end || disk_end >= disk_len || disk_end == len || i < disk_end) {
		pr_warn("%s: clone_of takes DISK CHECKPOINT (ramdisk0 base, say): a disk name of at most %zu letters and digits, a space and a checkpoint name\n",
			who, disk_len - 1);
		return -EINVAL;
	}
	err = rd_checkpoint_name_parse(who, text + disk_end + 1, len - disk_end - 1, name);
	if (err)
		return err;
	memcpy(disk, text, disk_end);
	disk[disk_end] = '\0';
	return 0;
}

struct rd_store *rd_checkpoint_clone(struct rd_device *origin, const char *who, const char *name,
				     int numa_node, struct rd_checkpoint **base)
{
	struct rd_checkpoint *ck = rd_checkpoint_find(origin, name);
	struct rd_store *store;

	if (!ck) {
		pr_warn("%s: %s has no checkpoint %s to clone\n", who, origin->disk->disk_name,
			name);
		return ERR_PTR(-ENOENT);
	}
	/* the clone's index is one more holder of shared pages */
	rd_pages_sharing_get();
	store = origin->store->ops->clone(origin->store, ck->data, numa_node);
	if (IS_ERR(store)) {
		rd_pages_sharing_put();
		pr_warn("%s: cannot clone checkpoint %s of %s: %ld\n", who, name,
			origin->disk->disk_name, PTR_ERR(store));
		return store;
	}
	ck->clones++;
	origin->clones++;
	*base = ck;
	return store;
}

/*
 * The clone is being made: no bio reaches it yet. Its zones, made empty
 * from the origin's geometry (rd_dev_clone_config()), start from the
 * checkpoint's words, as its pages start from the checkpoint's.
 */
int rd_checkpoint_clone_zones(struct rd_checkpoint *base, struct rd_zones *zones, const char *who)
{
	int err = rd_zones_check_words(zones, base->zone_words, base->nr_zone_words, who);

	if (err)
		return err;
	rd_zones_restore_words(zones, base->zone_words);
	return 0;
}

void rd_checkpoint_unclone(struct rd_device *origin, struct rd_checkpoint *base)
{
	base->clones--;
	origin->clones--;
	rd_pages_sharing_put();
}
