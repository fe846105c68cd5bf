/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizes as people type and read them: "4k", "1.5G", "512", "1TiB".
 *
 * Suffixes K, M, G and T are powers of 1024 (the module's size and
 * mem_limit attributes use the same base), case-insensitive, optionally
 * followed by "iB" or "B"; a bare "B" means bytes. A decimal fraction is
 * accepted when it names a whole number of bytes ("1.5G" yes, "1.1K" no).
 */
#ifndef RAMDISK_SIZE_H
#define RAMDISK_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Big enough for every size_format() result ("1023K", "16E", "9.9T"). */
#define SIZE_STR_MAX 24

/*
 * Parse s into *bytes. Returns 0, or -1 with errno EINVAL (not a size) or
 * ERANGE (more than UINT64_MAX bytes); *why (when not NULL) then points to
 * a short static reason such as "unknown suffix" for the error message.
 */
int size_parse(const char *s, uint64_t *bytes, const char **why);

/*
 * Write bytes as a short human size into buf and return buf: below 1024
 * plain bytes ("0", "512"); otherwise one decimal below ten units ("4.0K",
 * "1.5G") and whole units from ten up ("512M", "100G"), rounded to nearest.
 */
char *size_format(uint64_t bytes, char *buf, size_t len);

#endif /* RAMDISK_SIZE_H */
