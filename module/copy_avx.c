// SPDX-License-Identifier: GPL-2.0
/*
 * A whole-page copy through the 256-bit AVX registers, one of the routines
 * copy.c times at load.
 *
 * The kernel's own copies use general-purpose registers, as the kernel
 * must not touch vector state without saving it. Where a vector copy
 * moves more per instruction than "rep movs" or the unrolled loop (QEMU's
 * TCG, and CPUs without fast string moves), paying for the save wins: the
 * user's state is saved once per system call, not once per page, and is
 * restored on the way back to user space.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>

#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/simd.h>

#include "copy.h"

bool rd_copy_avx_usable(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

/* dst and src are page aligned; false when vector registers are off limits here */
bool rd_copy_page_avx(void *dst, const void *src)
{
	unsigned long blocks = PAGE_SIZE / 256;

	if (!may_use_simd())
		return false;
	kernel_fpu_begin();
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
		     "add $256, %[src]\n\t"
		     "add $256, %[dst]\n\t"
		     "dec %[blocks]\n\t"
		     "jnz 1b\n\t"
		     /* kernel SSE code after us must not pay the AVX transition */
		     "vzeroupper"
		     : [src] "+r"(src), [dst] "+r"(dst), [blocks] "+r"(blocks)
		     :
		     : "memory", "cc");
	kernel_fpu_end();
	return true;
}
