// SPDX-License-Identifier: GPL-2.0
/*
 * The routine that copies whole pages between bios and the store, chosen
 * once at load time by timing the candidates on this machine.
 *
 * None of them wins everywhere. Each kernel patches in its own memcpy():
 * 6.1 uses "rep movsb" on CPUs with ERMS, later kernels only with FSRM and
 * otherwise a loop moving 32 bytes a turn; copy_page() is "rep movsq"
 * where string moves are fast; the unrolled loop here moves 64 bytes a
 * turn through eight registers. Which is fastest depends on the CPU (and
 * on the emulator, under QEMU) and on the kernel, not on anything the
 * module can read. So the module measures, as the kernel's RAID code does
 * for its algorithms.
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

/* what copy= asked for: one routine, or RD_COPY_AUTO to time them all */
#define RD_COPY_AUTO RD_COPY_NR_ROUTINES

static const char *const rd_copy_names[] = {
	[RD_COPY_MEMCPY] = "memcpy",
	[RD_COPY_PAGE] = "copy_page",
	[RD_COPY_UNROLLED] = "unrolled",
	[RD_COPY_AUTO] = "auto",
};

static int rd_copy_request = RD_COPY_AUTO;
enum rd_copy_routine rd_copy_whole_page_routine __read_mostly;

/* Pages copied per timed batch, and batches per routine (the fastest counts). */
#define RD_COPY_BATCH_PAGES 64
#define RD_COPY_BATCHES 5

static int rd_copy_param_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(rd_copy_names, val);

	if (i < 0) {
		pr_warn("copy '%s' is not auto, memcpy, copy_page or unrolled\n", val);
		return -EINVAL;
	}
	rd_copy_request = i;
	return 0;
}

/* Reads back the routine in use, which "auto" resolves at load. */
static int rd_copy_param_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n", rd_copy_names[rd_copy_whole_page_routine]);
}

static const struct kernel_param_ops rd_copy_param_ops = {
	.set = rd_copy_param_set,
	.get = rd_copy_param_get,
};
module_param_cb(copy, &rd_copy_param_ops, NULL, 0444);
MODULE_PARM_DESC(copy,
		 "Whole-page copy routine: auto (timed at load), memcpy, copy_page or unrolled");

/*
 * All eight loads of a turn before its stores: the compiler keeps the
 * loop as written instead of seeing a byte copy it would turn back into
 * a memcpy() call. dst and src are page aligned and do not overlap.
 */
void rd_copy_page_unrolled(void *dst, const void *src)
{
	const u64 *s = src;
	u64 *d = dst;
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / sizeof(u64); i += 8) {
		u64 w0 = s[i], w1 = s[i + 1], w2 = s[i + 2], w3 = s[i + 3];
		u64 w4 = s[i + 4], w5 = s[i + 5], w6 = s[i + 6], w7 = s[i + 7];

		d[i] = w0;
		d[i + 1] = w1;
		d[i + 2] = w2;
		d[i + 3] = w3;
		d[i + 4] = w4;
		d[i + 5] = w5;
		d[i + 6] = w6;
		d[i + 7] = w7;
	}
}

/* The fastest of RD_COPY_BATCHES batches through the data path's own copy. */
static u64 rd_copy_time(void *dst, void *src, enum rd_copy_routine routine)
{
	u64 best = U64_MAX;
	unsigned int b, i;

	WRITE_ONCE(rd_copy_whole_page_routine, routine);
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
	u64 ns[RD_COPY_NR_ROUTINES];
	enum rd_copy_routine r, best = RD_COPY_MEMCPY;
	struct page *pages;
	void *src;

	if (rd_copy_request != RD_COPY_AUTO) {
		rd_copy_whole_page_routine = rd_copy_request;
		return;
	}
	/* without two pages to time with, memcpy() is never wrong */
	rd_copy_whole_page_routine = RD_COPY_MEMCPY;
	pages = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 1);
	if (!pages)
		return;
	src = page_address(pages);
	memset(src, 0x5a, PAGE_SIZE);
	for (r = 0; r < RD_COPY_NR_ROUTINES; r++) {
		ns[r] = rd_copy_time(src + PAGE_SIZE, src, r);
		if (ns[r] < ns[best])
			best = r;
	}
	__free_pages(pages, 1);
	WRITE_ONCE(rd_copy_whole_page_routine, best);
	pr_info("whole pages copied with %s (%u pages: memcpy %llu ns, copy_page %llu ns, unrolled %llu ns)\n",
		rd_copy_names[best], RD_COPY_BATCH_PAGES, ns[RD_COPY_MEMCPY], ns[RD_COPY_PAGE],
		ns[RD_COPY_UNROLLED]);
}
