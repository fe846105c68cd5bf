/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RDCRASH_FS_OBJECTS_BTRFS_H
#define RDCRASH_FS_OBJECTS_BTRFS_H

#include <stdint.h>
#include <stdio.h>

/*
 * Prints "; btrfs: what" for the distinct btrfs objects of the first blocks of
 * the range, read-only on the unmounted device dev.
 */
void btrfs_objects_print(const char *dev, uint64_t sector, uint32_t nr_sectors, FILE *out);

#endif
