// SPDX-License-Identifier: GPL-2.0
/*
 * Zone appends for the zoned tests and bench. User space cannot send
 * REQ_OP_ZONE_APPEND to a block device (io_uring and fio reach it only
 * through NVMe passthrough), so this module sends them as a file system
 * does, from its load: count appends of bytes each to the zone starting
 * at sector of the block device at path, one at a time, each waited for.
 * Append i carries bytes of the value i % 251 + 1, so a test can tell
 * where each landed from the data too. With fua=1 each carries REQ_FUA
 * and nothing else asks for durability: the one way a test can send a
 * FUA write with no flush after it (an O_DSYNC write to a block device is
 * followed by one).
 *
 * The load succeeds once the device is open, whatever the appends
 * answered; the results are read back from the read-only parameters
 * (/sys/module/rd_selftest_zone_append/parameters/) before rmmod:
 * result (0 or the first append's error), done (appends that succeeded),
 * first_sector and last_sector (where the first and the last of them
 * landed, as the block layer reported it back) and elapsed_ns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/module.h>

static char *path;
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "the zoned block device");
static unsigned long long sector;
module_param(sector, ullong, 0444);
MODULE_PARM_DESC(sector, "first sector of the zone to append to");
static unsigned int count = 1;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "appends to send (default 1)");
static bool fua;
module_param(fua, bool, 0444);
MODULE_PARM_DESC(fua, "send each append with REQ_FUA (default 0)");
static unsigned int bytes = 4096;
module_param(bytes, uint, 0444);
MODULE_PARM_DESC(bytes, "bytes of each append, whole logical blocks up to a page (default 4096)");

static int result;
module_param(result, int, 0444);
MODULE_PARM_DESC(result, "0, or the errno of the first append that failed");
static unsigned int done;
module_param(done, uint, 0444);
MODULE_PARM_DESC(done, "appends that succeeded");
static unsigned long long first_sector, last_sector, elapsed_ns;
module_param(first_sector, ullong, 0444);
MODULE_PARM_DESC(first_sector, "where the first append landed");
module_param(last_sector, ullong, 0444);
MODULE_PARM_DESC(last_sector, "where the last append that succeeded landed");
module_param(elapsed_ns, ullong, 0444);
MODULE_PARM_DESC(elapsed_ns, "nanoseconds the appends took, all told");

/* One append; *landed is where the block layer says it was written. */
static int rd_append_one(struct block_device *bdev, struct page *page, sector_t *landed)
{
	struct bio *bio;
	int err;

	bio = bio_alloc(bdev, 1, REQ_OP_ZONE_APPEND | REQ_SYNC | (fua ? REQ_FUA : 0), GFP_KERNEL);
	bio->bi_iter.bi_sector = sector;
	if (bio_add_page(bio, page, bytes, 0) != bytes) {
		bio_put(bio);
		return -EINVAL;
	}
	err = submit_bio_wait(bio);
	*landed = bio->bi_iter.bi_sector;
	bio_put(bio);
	return err;
}

static int __init rd_selftest_zone_append_init(void)
{
	struct file *bdev_file;
	struct page *page;
	sector_t landed;
	u64 start;
	unsigned int i;

	if (!path || !bytes || bytes > PAGE_SIZE || bytes % SECTOR_SIZE)
		return -EINVAL;
	bdev_file = bdev_file_open_by_path(path, BLK_OPEN_READ | BLK_OPEN_WRITE, NULL, NULL);
	if (IS_ERR(bdev_file))
		return PTR_ERR(bdev_file);
	page = alloc_page(GFP_KERNEL);
	if (!page) {
		fput(bdev_file);
		return -ENOMEM;
	}
	start = ktime_get_ns();
	for (i = 0; i < count; i++) {
		memset_page(page, 0, i % 251 + 1, bytes);
		result = rd_append_one(file_bdev(bdev_file), page, &landed);
		if (result)
			break;
		if (!done++)
			first_sector = landed;
		last_sector = landed;
	}
	elapsed_ns = ktime_get_ns() - start;
	__free_page(page);
	fput(bdev_file);
	pr_info("%u of %u appends of %u bytes to the zone at %llu: first at %llu, last at %llu, result %d, %llu ns\n",
		done, count, bytes, sector, first_sector, last_sector, result, elapsed_ns);
	return 0;
}

static void __exit rd_selftest_zone_append_exit(void)
{
}

module_init(rd_selftest_zone_append_init);
module_exit(rd_selftest_zone_append_exit);
MODULE_DESCRIPTION("ramdisk tests: zone appends to a zoned block device, from the kernel");
MODULE_LICENSE("GPL");
