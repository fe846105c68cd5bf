// SPDX-License-Identifier: GPL-2.0
/*
 * The routine that copies whole pages between bios and the store, chosen
 * once at load time by timing both on this machine.
 *
 * Neither memcpy() nor copy_page() wins everywhere. Each kernel patches in
 * its own memcpy(): 6.1 uses "rep movsb" on CPUs with ERMS, later kernels
 * only with FSRM and otherwise an unrolled register loop; copy_page() is
 * "rep movsq" where string moves are fast. Under QEMU's TCG those differ by
 * several times, in opposite directions on 6.1 and on 6.12 and later
 * (Documentation/performance.md), and on hardware the CPU decides. So the
 * module measures, as the kernel's RAID code does for its algorithms.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "copy.h"

enum rd_copy_request { RD_COPY_AUTO, RD_COPY_MEMCPY, RD_COPY_PAGE };

static const char *const rd_copy_names[] = {
	[RD_COPY_AUTO] = "auto",
	[RD_COPY_MEMCPY] = "memcpy",
	[RD_COPY_PAGE] = "copy_page",
};

static int rd_copy_request = RD_COPY_AUTO;
bool rd_copy_whole_pages_with_copy_page __read_mostly;

/* Pages copied per timed batch, and batches per routine (the fastest counts). */
#define RD_COPY_BATCH_PAGES 64
#define RD_COPY_BATCHES 5

static int rd_copy_param_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(rd_copy_names, val);

	if (i < 0) {
		pr_warn("copy '%s' is not auto, memcpy or copy_page\n", val);
		return -EINVAL;
	}
	rd_copy_request = i;
	return 0;
}

/* Reads back the routine in use, which "auto" resolves at load. */
static int rd_copy_param_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n",
			 rd_copy_whole_pages_with_copy_page ? "copy_page" : "memcpy");
}

static const struct kernel_param_ops rd_copy_param_ops = {
	.set = rd_copy_param_set,
	.get = rd_copy_param_get,
};
module_param_cb(copy, &rd_copy_param_ops, NULL, 0444);
MODULE_PARM_DESC(copy, "Whole-page copy routine: auto (timed at load), memcpy or copy_page");

/* The fastest of RD_COPY_BATCHES batches through the data path's own copy. */
static u64 rd_copy_time(void *dst, void *src, bool with_copy_page)
{
	u64 best = U64_MAX;
	unsigned int b, i;

	WRITE_ONCE(rd_copy_whole_pages_with_copy_page, with_copy_page);
	for (b = 0; b < RD_COPY_BATCHES; b++) {
		unsigned int len = PAGE_SIZE;
		u64 start;

		/* a length the compiler cannot see, as on the data path */
		OPTIMIZER_HIDE_VAR(len);
		preempt_disable();
		start = ktime_get_ns();
		for (i = 0; i < RD_COPY_BATCH_PAGES; i++)
			rd_copy_bytes(dst, src, len);
		best = min(best, ktime_get_ns() - start);
		preempt_enable();
		cond_resched();
	}
	return best;
}

void rd_copy_select(void)
{
	struct page *pages;
	u64 memcpy_ns, copy_page_ns;
	void *src;

	if (rd_copy_request != RD_COPY_AUTO) {
		rd_copy_whole_pages_with_copy_page = rd_copy_request == RD_COPY_PAGE;
		return;
	}
	/* without two pages to time with, memcpy() is never wrong */
	rd_copy_whole_pages_with_copy_page = false;
	pages = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 1);
	if (!pages)
		return;
	src = page_address(pages);
	memset(src, 0x5a, PAGE_SIZE);
	memcpy_ns = rd_copy_time(src + PAGE_SIZE, src, false);
	copy_page_ns = rd_copy_time(src + PAGE_SIZE, src, true);
	__free_pages(pages, 1);
	WRITE_ONCE(rd_copy_whole_pages_with_copy_page, copy_page_ns < memcpy_ns);
	pr_info("whole pages copied with %s (%u pages: memcpy %llu ns, copy_page %llu ns)\n",
		rd_copy_whole_pages_with_copy_page ? "copy_page" : "memcpy", RD_COPY_BATCH_PAGES,
		memcpy_ns, copy_page_ns);
}
