/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines of a configuration's badblocks file: what ramdiskctl fault
 * writes ("+START-END rw=... error=... sticky=...", "-START-END", "clear")
 * and the list the module reads back, one range a line.
 */
#ifndef RAMDISKCTL_FAULT_RANGE_H
#define RAMDISKCTL_FAULT_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fault_rw { FAULT_READ = 1, FAULT_WRITE = 2, FAULT_BOTH = 3 };
enum fault_error { FAULT_EIO, FAULT_MEDIUM, FAULT_NOSPC, FAULT_TIMEOUT, FAULT_NR_ERRORS };

/* 512-byte sectors, first and last, inclusive */
struct fault_range {
	uint64_t start, end;
	enum fault_rw rw;
	enum fault_error error;
	bool sticky;
};

/* "START-END" or "START" (decimal sectors, START <= END); 0 or -1 */
int fault_parse_range(const char *s, uint64_t *start, uint64_t *end);
/* "read", "write", "both"; 0 or -1 */
int fault_parse_rw(const char *s, enum fault_rw *rw);
/* "eio", "medium", "nospc", "timeout"; 0 or -1 */
int fault_parse_error(const char *s, enum fault_error *error);
const char *fault_rw_name(enum fault_rw rw);
const char *fault_error_name(enum fault_error error);
/* The line that adds r; -1 when buf is too small. */
int fault_format_add(const struct fault_range *r, char *buf, size_t len);
/* One line of the module's list (with or without its newline); 0 or -1. */
int fault_parse_line(const char *line, struct fault_range *r);

#endif /* RAMDISKCTL_FAULT_RANGE_H */
