// SPDX-License-Identifier: GPL-2.0
/*
 * minird: the smallest useful RAM disk, for lab 6. One device, /dev/minird0,
 * backed by an array of pages allocated at load time. It is bio-based: the
 * block layer hands each bio to minird_submit_bio() in the submitter's own
 * context, with no request queue and no completion interrupt.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/numa.h>
#include <linux/slab.h>

#include "minird_probe.h"

#define MINIRD_MAX_MIB 1024

static unsigned int size_mib = 16;
module_param(size_mib, uint, 0444);
MODULE_PARM_DESC(size_mib, "Size of /dev/minird0 in MiB, 1-1024 (default 16)");

struct minird {
	struct gendisk *disk;
	/* pages[i] holds bytes [i * PAGE_SIZE, (i + 1) * PAGE_SIZE) of the disk */
	struct page **pages;
	unsigned long nr_pages;
};

static struct minird minird;
static int minird_major;

static void minird_free_pages(struct minird *rd)
{
	/* LAB: TODO 5: free every page that was allocated, then the array */
	unsigned long i;

	for (i = 0; i < rd->nr_pages; i++)
		if (rd->pages[i])
			__free_page(rd->pages[i]);
	kvfree(rd->pages);
	/* LAB: END */
	rd->pages = NULL;
}

/* Everything is allocated up front, so the I/O path can never fail. */
static int minird_alloc_pages(struct minird *rd)
{
	/* LAB: TODO 1: allocate the array and one zeroed page per entry */
	unsigned long i;

	rd->pages = kvcalloc(rd->nr_pages, sizeof(*rd->pages), GFP_KERNEL);
	if (!rd->pages)
		return -ENOMEM;
	for (i = 0; i < rd->nr_pages; i++) {
		rd->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!rd->pages[i]) {
			minird_free_pages(rd);
			return -ENOMEM;
		}
	}
	/* LAB: END */
	return 0;
}

/* Copies one segment that lies inside a single page of the disk. */
static void minird_copy(struct minird *rd, u64 pos, struct page *page, unsigned int off,
			unsigned int len, bool write)
{
	/* LAB: TODO 2: copy len bytes between the bio's page and the disk's page */
	void *addr = page_address(rd->pages[pos >> PAGE_SHIFT]) + offset_in_page(pos);

	if (write)
		memcpy_from_page(addr, page, off, len);
	else
		memcpy_to_page(page, off, addr, len);
	/* LAB: END */
}

static void minird_submit_bio(struct bio *bio)
{
	struct minird *rd = bio->bi_bdev->bd_disk->private_data;
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	bool write = bio_op(bio) == REQ_OP_WRITE;
	struct bvec_iter iter;
	struct bio_vec bv;

	/* no write cache, discard or write-zeroes is advertised */
	if (bio_op(bio) != REQ_OP_READ && !write) {
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	/* LAB: TODO 3: for each segment, call minird_copy() once per disk page it touches */
	bio_for_each_segment(bv, bio, iter) {
		unsigned int off = bv.bv_offset;
		unsigned int left = bv.bv_len;

		while (left) {
			unsigned int len =
				min_t(unsigned int, left, PAGE_SIZE - offset_in_page(pos));

			minird_copy(rd, pos, bv.bv_page, off, len, write);
			pos += len;
			off += len;
			left -= len;
		}
	}
	/* LAB: END */
	bio_endio(bio);
}

static const struct block_device_operations minird_fops = {
	.owner = THIS_MODULE,
	.submit_bio = minird_submit_bio,
};

#ifdef HAVE_ALLOC_DISK_LIMITS
/* 6.9: the queue limits are given at allocation; failure is an ERR_PTR. */
static struct gendisk *minird_alloc_disk(void)
{
	struct queue_limits lim = { .logical_block_size = SECTOR_SIZE };

	return blk_alloc_disk(&lim, NUMA_NO_NODE);
}
#else
/* Before 6.9: the default limits (512-byte blocks) fit; failure is NULL. */
static struct gendisk *minird_alloc_disk(void)
{
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);

	return disk ? disk : ERR_PTR(-ENOMEM);
}
#endif

static int __init minird_init(void)
{
	struct gendisk *disk;
	int err;

	if (!size_mib || size_mib > MINIRD_MAX_MIB) {
		pr_warn("size_mib %u is not from 1 to %d\n", size_mib, MINIRD_MAX_MIB);
		return -EINVAL;
	}
	minird.nr_pages = (unsigned long)size_mib << (20 - PAGE_SHIFT);
	err = minird_alloc_pages(&minird);
	if (err)
		return err;

	minird_major = register_blkdev(0, "minird");
	if (minird_major < 0) {
		err = minird_major;
		goto out_free_pages;
	}
	disk = minird_alloc_disk();
	if (IS_ERR(disk)) {
		err = PTR_ERR(disk);
		goto out_unregister_blkdev;
	}
	/* LAB: TODO 4: name the disk, give it its numbers, operations and size */
	disk->major = minird_major;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->flags |= GENHD_FL_NO_PART;
	disk->fops = &minird_fops;
	disk->private_data = &minird;
	strscpy(disk->disk_name, "minird0", DISK_NAME_LEN);
	set_capacity(disk, (sector_t)minird.nr_pages << (PAGE_SHIFT - SECTOR_SHIFT));
	/* LAB: END */
	minird.disk = disk;

	err = add_disk(disk);
	if (err)
		goto out_put_disk;
	return 0;

out_put_disk:
	put_disk(disk);
out_unregister_blkdev:
	unregister_blkdev(minird_major, "minird");
out_free_pages:
	minird_free_pages(&minird);
	return err;
}

static void __exit minird_exit(void)
{
	del_gendisk(minird.disk);
	put_disk(minird.disk);
	unregister_blkdev(minird_major, "minird");
	minird_free_pages(&minird);
}

module_init(minird_init);
module_exit(minird_exit);

MODULE_DESCRIPTION("Minimal RAM disk for the ramdisk labs");
MODULE_LICENSE("GPL");
