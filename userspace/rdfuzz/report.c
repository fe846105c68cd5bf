// SPDX-License-Identifier: GPL-2.0
/*
 * What rdfuzz tells: each step and its outcome in the log (--log), and
 * each broken rule, counted, on stderr and in the log.
 */
#include "rdfuzz.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

void fuzz_log(struct fuzz *f, const char *fmt, ...)
{
	va_list ap;

	if (!f->log)
		return;
	va_start(ap, fmt);
	vfprintf(f->log, fmt, ap);
	va_end(ap);
}

void fuzz_report(struct fuzz *f, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f->reports++;
	fprintf(stderr, "rdfuzz: REPORT at step %" PRIu64 ": %s\n", f->step, msg);
	fuzz_log(f, " REPORT: %s", msg);
}
