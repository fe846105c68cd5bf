/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A configuration's checkpoints file: the names ramdiskctl checkpoint
 * writes ("+NAME", "-NAME") and rollback writes, checked with the module's
 * rules, and the lines the module reads back, one a checkpoint, oldest
 * first: "NAME pages=N own=M".
 */
#ifndef RAMDISKCTL_CHECKPOINT_LINE_H
#define RAMDISKCTL_CHECKPOINT_LINE_H

#include <stdint.h>

/* The longest checkpoint name, and the most checkpoints a device has. */
#define CHECKPOINT_NAME_MAX 31
#define CHECKPOINT_MAX 16

struct checkpoint_line {
	char name[CHECKPOINT_NAME_MAX + 1];
	uint64_t pages; /* pages the checkpoint holds */
	uint64_t own; /* of those, the pages only it holds */
};

/*
 * Whether name is one the module takes (1 to 31 letters, digits, '.', '_'
 * and '-'): NULL, or the reason it is not.
 */
const char *checkpoint_name_invalid(const char *name);
/* One line of the module's list (with or without its newline); 0 or -1. */
int checkpoint_parse_line(const char *line, struct checkpoint_line *c);

#endif /* RAMDISKCTL_CHECKPOINT_LINE_H */
