/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines of a configuration's fault_schedule file: the rule ramdiskctl
 * fault schedule writes ("+KINDS every=N|prob=P seed=S ... ACTION") and the
 * rules the module reads back, one a line, each with "# seen=N injected=M".
 */
#ifndef RAMDISKCTL_FAULT_RULE_H
#define RAMDISKCTL_FAULT_RULE_H

#include "fault_range.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fault_kind {
	FAULT_KIND_READ = 1,
	FAULT_KIND_WRITE = 2,
	FAULT_KIND_FLUSH = 4,
	FAULT_KIND_DISCARD = 8,
	FAULT_KIND_ANY = 15,
};

/* The longest delay the module takes, in microseconds. */
#define FAULT_DELAY_US_MAX 60000000u
/* A probability in parts per million, as the module keeps it. */
#define FAULT_PPM 1000000u

struct fault_rule {
	unsigned int kinds; /* enum fault_kind bits */
	uint32_t every; /* or 0, and prob_ppm decides */
	uint32_t prob_ppm;
	uint64_t seed;
	uint32_t after_flush;
	uint32_t window_ms;
	/* the action: delay_us when not 0, else drop when set, else error */
	uint32_t delay_us;
	bool drop;
	enum fault_error error;
	/* read back only */
	uint64_t seen, injected;
};

/* "read", "write,flush", "any"; 0 or -1 */
int fault_parse_kinds(const char *s, unsigned int *kinds);
/* "0.25", "1", "0.000001": above 0, at most 1, up to 6 places; 0 or -1 */
int fault_parse_prob(const char *s, uint32_t *ppm);
/* The kinds as the module prints them ("any", or "read,write"). */
void fault_kinds_name(unsigned int kinds, char *buf, size_t len);
/* The probability as the module prints it ("1", "0.250000"). */
void fault_prob_name(uint32_t ppm, char *buf, size_t len);
/* Whether r is a rule the module takes; the reason when not. */
const char *fault_rule_invalid(const struct fault_rule *r);
/* The line that adds r; -1 when buf is too small. */
int fault_rule_format(const struct fault_rule *r, char *buf, size_t len);
/* One line of the module's schedule (with or without its newline); 0 or -1. */
int fault_rule_parse_line(const char *line, struct fault_rule *r);

#endif /* RAMDISKCTL_FAULT_RULE_H */
