// SPDX-License-Identifier: GPL-2.0
/*
 * Times whole-page copy routines in the kernel, for experiments 6 and 9 of
 * Documentation/performance-log.md. Loading it prints one line per routine and
 * then fails with -EAGAIN, so it never stays loaded.
 *
 * Each round copies 1 MiB as 256 pages, each between two pages of its own
 * as a bio's are, with every routine in turn; the order rotates from round
 * to round so that no routine always runs first.
 *
 * With spread_mib=N, each round instead copies one source page, as a
 * benchmark's buffer is, into 256 pages drawn at random from N MiB, as
 * random I/O over a RAM disk of that size lands: what a copy costs when
 * its destination is cold (under TCG, a miss in the emulator's TLB too).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include <asm/fpu/api.h>

#define COPYTIME_PAGES 256
#define COPYTIME_ROUNDS 15

static struct page *copytime_src[COPYTIME_PAGES], *copytime_dst[COPYTIME_PAGES];

static unsigned int copytime_spread_mib;
module_param_named(spread_mib, copytime_spread_mib, uint, 0444);
/* 4 GiB at most: the pool's page count must fit in an unsigned int */
#define COPYTIME_MAX_SPREAD_MIB 4096
MODULE_PARM_DESC(
	spread_mib,
	"Copy into random pages of this many MiB, up to 4096 (default 0: 256 fixed pairs)");

static struct page **copytime_pool;
static unsigned int copytime_pool_pages;
/* the pool pages a round copies into, drawn before the clock starts */
static unsigned int copytime_pick[COPYTIME_PAGES];
static u64 copytime_seed = 0x9e3779b97f4a7c15ull;

static void copytime_draw(void)
{
	unsigned int i;

	for (i = 0; i < COPYTIME_PAGES; i++) {
		copytime_seed ^= copytime_seed << 13;
		copytime_seed ^= copytime_seed >> 7;
		copytime_seed ^= copytime_seed << 17;
		copytime_pick[i] = copytime_seed % copytime_pool_pages;
	}
}

/* through a pointer, so the compiler cannot put its own string move inline */
static void *(*volatile copytime_memcpy)(void *, const void *, size_t) = memcpy;

/* the loop of module/copy.c: eight loads, then eight stores */
static noinline void copytime_eight(void *dst, const void *src)
{
	unsigned long turns = PAGE_SIZE / 64;

	asm volatile("1:\n\t"
		     "movq   (%[src]), %%r8\n\t"
		     "movq  8(%[src]), %%r9\n\t"
		     "movq 16(%[src]), %%r10\n\t"
		     "movq 24(%[src]), %%r11\n\t"
		     "movq 32(%[src]), %%rax\n\t"
		     "movq 40(%[src]), %%rcx\n\t"
		     "movq 48(%[src]), %%rdx\n\t"
		     "movq 56(%[src]), %%rsi\n\t"
		     "movq %%r8,    (%[dst])\n\t"
		     "movq %%r9,   8(%[dst])\n\t"
		     "movq %%r10, 16(%[dst])\n\t"
		     "movq %%r11, 24(%[dst])\n\t"
		     "movq %%rax, 32(%[dst])\n\t"
		     "movq %%rcx, 40(%[dst])\n\t"
		     "movq %%rdx, 48(%[dst])\n\t"
		     "movq %%rsi, 56(%[dst])\n\t"
		     "leaq 64(%[src]), %[src]\n\t"
		     "leaq 64(%[dst]), %[dst]\n\t"
		     "decq %[turns]\n\t"
		     "jnz 1b\n\t"
		     : [src] "+D"(src), [dst] "+b"(dst), [turns] "+r"(turns)
		     :
		     : "memory", "cc", "r8", "r9", "r10", "r11", "rax", "rcx", "rdx", "rsi");
}

/* the shape of the kernel's memcpy() without fast string moves */
static noinline void copytime_four(void *dst, const void *src)
{
	unsigned long turns = PAGE_SIZE / 32;

	asm volatile("1:\n\t"
		     "movq   (%[src]), %%r8\n\t"
		     "movq  8(%[src]), %%r9\n\t"
		     "movq 16(%[src]), %%r10\n\t"
		     "movq 24(%[src]), %%r11\n\t"
		     "movq %%r8,    (%[dst])\n\t"
		     "movq %%r9,   8(%[dst])\n\t"
		     "movq %%r10, 16(%[dst])\n\t"
		     "movq %%r11, 24(%[dst])\n\t"
		     "leaq 32(%[src]), %[src]\n\t"
		     "leaq 32(%[dst]), %[dst]\n\t"
		     "decq %[turns]\n\t"
		     "jnz 1b\n\t"
		     : [src] "+r"(src), [dst] "+r"(dst), [turns] "+r"(turns)
		     :
		     : "memory", "cc", "r8", "r9", "r10", "r11");
}

/* the caller holds the vector state (kernel_fpu_begin()) */
static noinline void copytime_avx(void *dst, const void *src)
{
	unsigned long turns = PAGE_SIZE / 256;

	asm volatile("1:\n\t"
		     "vmovdqa    (%[src]), %%ymm0\n\t"
		     "vmovdqa  32(%[src]), %%ymm1\n\t"
		     "vmovdqa  64(%[src]), %%ymm2\n\t"
		     "vmovdqa  96(%[src]), %%ymm3\n\t"
		     "vmovdqa 128(%[src]), %%ymm4\n\t"
		     "vmovdqa 160(%[src]), %%ymm5\n\t"
		     "vmovdqa 192(%[src]), %%ymm6\n\t"
		     "vmovdqa 224(%[src]), %%ymm7\n\t"
		     "vmovdqa %%ymm0,    (%[dst])\n\t"
		     "vmovdqa %%ymm1,  32(%[dst])\n\t"
		     "vmovdqa %%ymm2,  64(%[dst])\n\t"
		     "vmovdqa %%ymm3,  96(%[dst])\n\t"
		     "vmovdqa %%ymm4, 128(%[dst])\n\t"
		     "vmovdqa %%ymm5, 160(%[dst])\n\t"
		     "vmovdqa %%ymm6, 192(%[dst])\n\t"
		     "vmovdqa %%ymm7, 224(%[dst])\n\t"
		     "addq $256, %[src]\n\t"
		     "addq $256, %[dst]\n\t"
		     "decq %[turns]\n\t"
		     "jnz 1b\n\t"
		     "vzeroupper"
		     : [src] "+r"(src), [dst] "+r"(dst), [turns] "+r"(turns)
		     :
		     : "memory", "cc");
}

enum copytime_routine {
	CT_MEMCPY,
	CT_COPY_PAGE,
	CT_EIGHT,
	CT_FOUR,
	CT_AVX_1,
	CT_AVX_64,
	CT_AVX_256,
	CT_NR
};

static const char *const copytime_names[CT_NR] = {
	[CT_MEMCPY] = "memcpy",
	[CT_COPY_PAGE] = "copy_page",
	[CT_EIGHT] = "eight-registers",
	[CT_FOUR] = "four-registers",
	[CT_AVX_1] = "avx-state-per-page",
	[CT_AVX_64] = "avx-state-per-64",
	[CT_AVX_256] = "avx-state-per-256",
};

/* pages copied per kernel_fpu_begin(), for the AVX routines */
static unsigned int copytime_avx_batch(enum copytime_routine r)
{
	return r == CT_AVX_1 ? 1 : r == CT_AVX_64 ? 64 : COPYTIME_PAGES;
}

static u64 copytime_round(enum copytime_routine r)
{
	unsigned int i;
	u64 start;

	if (copytime_pool)
		copytime_draw();
	start = ktime_get_ns();
	for (i = 0; i < COPYTIME_PAGES; i++) {
		void *dst, *src;

		if (copytime_pool) {
			dst = page_address(copytime_pool[copytime_pick[i]]);
			src = page_address(copytime_src[0]);
		} else {
			dst = page_address(copytime_dst[i]);
			src = page_address(copytime_src[i]);
		}

		switch (r) {
		case CT_MEMCPY:
			copytime_memcpy(dst, src, PAGE_SIZE);
			break;
		case CT_COPY_PAGE:
			copy_page(dst, src);
			break;
		case CT_EIGHT:
			copytime_eight(dst, src);
			break;
		case CT_FOUR:
			copytime_four(dst, src);
			break;
		default:
			if (i % copytime_avx_batch(r) == 0)
				kernel_fpu_begin();
			copytime_avx(dst, src);
			if (i % copytime_avx_batch(r) == copytime_avx_batch(r) - 1)
				kernel_fpu_end();
			break;
		}
	}
	return ktime_get_ns() - start;
}

static int copytime_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void copytime_free(void)
{
	unsigned int i;

	for (i = 0; copytime_pool && i < copytime_pool_pages; i++)
		if (copytime_pool[i])
			__free_page(copytime_pool[i]);
	kvfree(copytime_pool);
	copytime_pool = NULL;

	for (i = 0; i < COPYTIME_PAGES; i++) {
		if (copytime_src[i])
			__free_page(copytime_src[i]);
		if (copytime_dst[i])
			__free_page(copytime_dst[i]);
	}
}

static int __init copytime_init(void)
{
	static u64 ns[CT_NR][COPYTIME_ROUNDS];
	unsigned int i, round, nr = CT_NR;
	enum copytime_routine r;

	if (copytime_spread_mib > COPYTIME_MAX_SPREAD_MIB) {
		pr_err("spread_mib %u is more than %d\n", copytime_spread_mib,
		       COPYTIME_MAX_SPREAD_MIB);
		return -EINVAL;
	}
	if (!boot_cpu_has(X86_FEATURE_AVX)) {
		pr_info("no AVX: timing the general-purpose routines only\n");
		nr = CT_AVX_1;
	}
	for (i = 0; i < COPYTIME_PAGES; i++) {
		copytime_src[i] = alloc_page(GFP_KERNEL);
		copytime_dst[i] = alloc_page(GFP_KERNEL);
		if (!copytime_src[i] || !copytime_dst[i]) {
			copytime_free();
			return -ENOMEM;
		}
		memset(page_address(copytime_src[i]), i, PAGE_SIZE);
	}
	if (copytime_spread_mib) {
		copytime_pool_pages = copytime_spread_mib << (20 - PAGE_SHIFT);
		copytime_pool = kvcalloc(copytime_pool_pages, sizeof(*copytime_pool), GFP_KERNEL);
		if (!copytime_pool) {
			copytime_free();
			return -ENOMEM;
		}
		for (i = 0; i < copytime_pool_pages; i++) {
			copytime_pool[i] = alloc_page(GFP_KERNEL);
			if (!copytime_pool[i]) {
				copytime_free();
				return -ENOMEM;
			}
			cond_resched();
		}
		pr_info("destinations drawn at random from %u MiB\n", copytime_spread_mib);
	}
	for (round = 0; round < COPYTIME_ROUNDS; round++) {
		for (i = 0; i < nr; i++) {
			r = (i + round) % nr;
			ns[r][round] = copytime_round(r);
			cond_resched();
		}
	}
	copytime_free();
	for (r = 0; r < nr; r++) {
		sort(ns[r], COPYTIME_ROUNDS, sizeof(u64), copytime_cmp, NULL);
		pr_info("%s: 1 MiB in %llu us at best, %llu us at the median of %d rounds\n",
			copytime_names[r], ns[r][0] / NSEC_PER_USEC,
			ns[r][COPYTIME_ROUNDS / 2] / NSEC_PER_USEC, COPYTIME_ROUNDS);
	}
	/* a measurement, not a module to keep: refuse to stay loaded */
	return -EAGAIN;
}
module_init(copytime_init);

MODULE_DESCRIPTION("Times whole-page copy routines (ramdisk benchmark)");
MODULE_LICENSE("GPL");
