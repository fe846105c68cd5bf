// SPDX-License-Identifier: GPL-2.0
/*
 * The fault_schedule lines, without any I/O, so that a host unit test
 * holds them to the syntax the module takes (Documentation/admin-guide.md,
 * "Fault schedules").
 */
#include "fault_rule.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = { "read", "write", "flush", "discard" };
#define NR_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))

/* A decimal number, digits only, no sign, at most max; 0 or -1. */
static int parse_num(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
	uint64_t n;

	if (parse_num(s, UINT32_MAX, &n))
		return -1;
	*v = (uint32_t)n;
	return 0;
}

int fault_parse_kinds(const char *s, unsigned int *kinds)
{
	const char *p = s;

	*kinds = 0;
	if (!strcmp(s, "any")) {
		*kinds = FAULT_KIND_ANY;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NR_KINDS; i++)
			if (strlen(kind_names[i]) == len && !strncmp(p, kind_names[i], len))
				break;
		if (i == NR_KINDS)
			return -1;
		*kinds |= 1u << i;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int fault_parse_prob(const char *s, uint32_t *ppm)
{
	uint32_t whole = 0, frac = 0, scale = FAULT_PPM;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && whole <= 1)
		whole = whole * 10 + (uint32_t)(*p++ - '0');
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9' && scale > 1) {
			scale /= 10;
			frac += (uint32_t)(*p++ - '0') * scale;
		}
	}
	if (*p || whole > 1 || (whole == 1 && frac) || (!whole && !frac))
		return -1;
	*ppm = whole * FAULT_PPM + frac;
	return 0;
}

void fault_kinds_name(unsigned int kinds, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (kinds == FAULT_KIND_ANY) {
		snprintf(buf, len, "any");
		return;
	}
	for (size_t i = 0; i < NR_KINDS; i++) {
		if (!(kinds & (1u << i)) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
					 kind_names[i]);
	}
}

void fault_prob_name(uint32_t ppm, char *buf, size_t len)
{
	if (ppm == FAULT_PPM)
		snprintf(buf, len, "1");
	else
		snprintf(buf, len, "0.%06" PRIu32, ppm);
}

const char *fault_rule_invalid(const struct fault_rule *r)
{
	if (!r->kinds || r->kinds > FAULT_KIND_ANY)
		return "no kind of I/O";
	if (!r->every == !r->prob_ppm)
		return "not one of every and prob";
	if (r->prob_ppm > FAULT_PPM)
		return "a probability above 1";
	if (r->seed && !r->prob_ppm)
		return "a seed without prob";
	if (r->delay_us > FAULT_DELAY_US_MAX)
		return "a delay above 60 s";
	if (r->drop && r->delay_us)
		return "both drop and a delay";
	if (r->drop && (r->kinds & FAULT_KIND_READ))
		return "drop for reads";
	return NULL;
}

int fault_rule_format(const struct fault_rule *r, char *buf, size_t len)
{
	char kinds[32], prob[16], trigger[64], gate[48] = "", action[24];
	int n;

	fault_kinds_name(r->kinds, kinds, sizeof(kinds));
	fault_prob_name(r->prob_ppm, prob, sizeof(prob));
	if (r->every)
		snprintf(trigger, sizeof(trigger), "every=%" PRIu32, r->every);
	else
		snprintf(trigger, sizeof(trigger), "prob=%s seed=%" PRIu64, prob, r->seed);
	if (r->after_flush)
		snprintf(gate, sizeof(gate), " after_flush=%" PRIu32, r->after_flush);
	if (r->window_ms)
		snprintf(gate + strlen(gate), sizeof(gate) - strlen(gate), " window_ms=%" PRIu32,
			 r->window_ms);
	if (r->delay_us)
		snprintf(action, sizeof(action), "delay_us=%" PRIu32, r->delay_us);
	else if (r->drop)
		snprintf(action, sizeof(action), "drop");
	else
		snprintf(action, sizeof(action), "error=%s", fault_error_name(r->error));
	n = snprintf(buf, len, "+%s %s%s %s", kinds, trigger, gate, action);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* One "key=value" (or "drop") of a line read back; 0 or -1. */
static int parse_option(char *tok, struct fault_rule *r, bool *have_action)
{
	char *val = strchr(tok, '=');

	if (!strcmp(tok, "drop")) {
		r->drop = *have_action = true;
		return 0;
	}
	if (!val)
		return -1;
	*val++ = '\0';
	if (!strcmp(tok, "every"))
		return parse_u32(val, &r->every) || !r->every ? -1 : 0;
	if (!strcmp(tok, "prob"))
		return fault_parse_prob(val, &r->prob_ppm);
	if (!strcmp(tok, "seed"))
		return parse_num(val, UINT64_MAX, &r->seed);
	if (!strcmp(tok, "after_flush"))
		return parse_u32(val, &r->after_flush);
	if (!strcmp(tok, "window_ms"))
		return parse_u32(val, &r->window_ms);
	if (!strcmp(tok, "delay_us")) {
		*have_action = true;
		return parse_u32(val, &r->delay_us) || !r->delay_us ? -1 : 0;
	}
	if (!strcmp(tok, "error")) {
		*have_action = true;
		return fault_parse_error(val, &r->error);
	}
	if (!strcmp(tok, "seen"))
		return parse_num(val, UINT64_MAX, &r->seen);
	if (!strcmp(tok, "injected"))
		return parse_num(val, UINT64_MAX, &r->injected);
	return -1;
}

int fault_rule_parse_line(const char *line, struct fault_rule *r)
{
	char buf[256], *save = NULL, *tok, *hash;
	size_t len = strcspn(line, "\n");
	bool have_action = false;

	if (len >= sizeof(buf) || line[0] != '+')
		return -1;
	memcpy(buf, line + 1, len - 1);
	buf[len - 1] = '\0';
	/* the module ends each line with its counters, as a comment */
	hash = strstr(buf, " # ");
	if (!hash)
		return -1;
	*hash = ' ';
	hash[1] = ' ';
	*r = (struct fault_rule){ .error = FAULT_EIO };
	tok = strtok_r(buf, " ", &save);
	if (!tok || fault_parse_kinds(tok, &r->kinds))
		return -1;
	while ((tok = strtok_r(NULL, " ", &save)))
		if (parse_option(tok, r, &have_action))
			return -1;
	/* the module prints the action of every rule */
	return have_action && !fault_rule_invalid(r) ? 0 : -1;
}
