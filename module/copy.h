/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data copies between bio pages and the backing store. A whole, aligned
 * page goes through the routine copy.c chose at load: memcpy() or the
 * architecture's copy_page().
 */
#ifndef RAMDISK_COPY_H
#define RAMDISK_COPY_H

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/string.h>

/* set once by rd_copy_select() before any device exists */
extern bool rd_copy_whole_pages_with_copy_page;

void rd_copy_select(void);

static inline bool rd_copy_is_whole_page(const void *a, const void *b, unsigned int len)
{
	return len == PAGE_SIZE && !(((unsigned long)a | (unsigned long)b) & ~PAGE_MASK);
}

static inline void rd_copy_bytes(void *dst, const void *src, unsigned int len)
{
	if (rd_copy_whole_pages_with_copy_page && rd_copy_is_whole_page(dst, src, len))
		copy_page(dst, (void *)src);
	else
		memcpy(dst, src, len);
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
