/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RDCRASH_FS_OBJECTS_F2FS_H
#define RDCRASH_FS_OBJECTS_F2FS_H

#include <stdint.h>
#include <stdio.h>

/*
 * Prints "; f2fs: what" for the distinct f2fs objects of the first blocks of
 * the range, read-only on the unmounted device dev.
 */
void f2fs_objects_print(const char *dev, uint64_t sector, uint32_t nr_sectors, FILE *out);

#endif
