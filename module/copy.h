/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data copies between bio pages and the backing store. A whole, aligned
 * page goes through the routine copy.c chose at load: memcpy(), the
 * architecture's copy_page(), or copy.c's own unrolled loop.
 */
#ifndef RAMDISK_COPY_H
#define RAMDISK_COPY_H

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/string.h>

enum rd_copy_routine { RD_COPY_MEMCPY, RD_COPY_PAGE, RD_COPY_UNROLLED, RD_COPY_NR_ROUTINES };

/* set once by rd_copy_select() before any device exists */
extern enum rd_copy_routine rd_copy_whole_page_routine;

void rd_copy_page_unrolled(void *dst, const void *src);

void rd_copy_select(void);

static inline bool rd_copy_is_whole_page(const void *a, const void *b, unsigned int len)
{
	return len == PAGE_SIZE && !(((unsigned long)a | (unsigned long)b) & ~PAGE_MASK);
}

static inline void rd_copy_bytes(void *dst, const void *src, unsigned int len)
{
	enum rd_copy_routine routine = rd_copy_whole_page_routine;

	if (routine == RD_COPY_MEMCPY || !rd_copy_is_whole_page(dst, src, len))
		memcpy(dst, src, len);
	else if (routine == RD_COPY_PAGE)
		copy_page(dst, (void *)src);
	else
		rd_copy_page_unrolled(dst, src);
}

/* store -> bio page; off + len lies within the page */
static inline void rd_copy_to_page(struct page *dst, unsigned int off, const void *src,
				   unsigned int len)
{
	void *addr = kmap_local_page(dst);

	rd_copy_bytes(addr + off, src, len);
	kunmap_local(addr);
}

/* bio page -> store; off + len lies within the page */
static inline void rd_copy_from_page(void *dst, struct page *src, unsigned int off,
				     unsigned int len)
{
	void *addr = kmap_local_page(src);

	rd_copy_bytes(dst, addr + off, len);
	kunmap_local(addr);
}

#endif /* RAMDISK_COPY_H */
