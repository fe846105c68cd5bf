// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ramdiskctl's fault_schedule lines: the kinds and
 * probabilities it accepts and refuses (the module's syntax), the rules it
 * refuses, the line it writes, and the module's lines it reads back.
 */
#include "fault_rule.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static void test_kinds(void)
{
	static const char *const bad[] = { "",	  "READ",     "read,", ",read", "read,,write",
					   "all", "any,read", "reads" };
	unsigned int k;
	char buf[32];

	CHECK(!fault_parse_kinds("read", &k) && k == FAULT_KIND_READ);
	CHECK(!fault_parse_kinds("discard,write", &k) &&
	      k == (FAULT_KIND_DISCARD | FAULT_KIND_WRITE));
	CHECK(!fault_parse_kinds("any", &k) && k == FAULT_KIND_ANY);
	CHECK(!fault_parse_kinds("read,write,flush,discard", &k) && k == FAULT_KIND_ANY);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!fault_parse_kinds(bad[i], &k)) {
			fprintf(stderr, "kinds '%s' were accepted\n", bad[i]);
			failures++;
		}
	}
	/* printed in the module's order, and "any" for all four */
	fault_kinds_name(FAULT_KIND_DISCARD | FAULT_KIND_READ, buf, sizeof(buf));
	CHECK(!strcmp(buf, "read,discard"));
	fault_kinds_name(FAULT_KIND_ANY, buf, sizeof(buf));
	CHECK(!strcmp(buf, "any"));
}

static void test_prob(void)
{
	static const char *const bad[] = {
		"",	     "0",    "0.0",  "1.000001", "2",	 ".5",
		"0.0000001", "-0.5", "0.5x", "10",	 "01.5", "1e-3"
	};
	char buf[16];
	uint32_t p;

	CHECK(!fault_parse_prob("1", &p) && p == FAULT_PPM);
	CHECK(!fault_parse_prob("1.000000", &p) && p == FAULT_PPM);
	CHECK(!fault_parse_prob("0.25", &p) && p == 250000);
	CHECK(!fault_parse_prob("0.000001", &p) && p == 1);
	CHECK(!fault_parse_prob("01", &p) && p == FAULT_PPM);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!fault_parse_prob(bad[i], &p)) {
			fprintf(stderr, "probability '%s' was accepted\n", bad[i]);
			failures++;
		}
	}
	fault_prob_name(250000, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0.250000"));
	fault_prob_name(1, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0.000001"));
	fault_prob_name(FAULT_PPM, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1"));
}

static void test_rules(void)
{
	struct fault_rule ok = { .kinds = FAULT_KIND_WRITE, .every = 3 }, r;

	CHECK(!fault_rule_invalid(&ok));
	r = ok;
	r.prob_ppm = 5;
	CHECK(fault_rule_invalid(&r)); /* both triggers */
	r = ok;
	r.every = 0;
	CHECK(fault_rule_invalid(&r)); /* no trigger */
	r = ok;
	r.seed = 1;
	CHECK(fault_rule_invalid(&r)); /* a seed without prob */
	r = ok;
	r.drop = true;
	r.delay_us = 1;
	CHECK(fault_rule_invalid(&r));
	r = ok;
	r.kinds = FAULT_KIND_ANY;
	r.drop = true;
	CHECK(fault_rule_invalid(&r)); /* dropped reads */
	r = ok;
	r.delay_us = FAULT_DELAY_US_MAX + 1;
	CHECK(fault_rule_invalid(&r));
	r = ok;
	r.kinds = 0;
	CHECK(fault_rule_invalid(&r));
}

static void test_lines(void)
{
	struct fault_rule r = { .kinds = FAULT_KIND_READ | FAULT_KIND_FLUSH,
				.prob_ppm = 300000,
				.seed = 42,
				.after_flush = 2,
				.window_ms = 1500,
				.error = FAULT_MEDIUM },
			  back;
	char buf[256], small[24];

	CHECK(!fault_rule_format(&r, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "+read,flush prob=0.300000 seed=42 after_flush=2 window_ms=1500 "
			   "error=medium"));
	CHECK(fault_rule_format(&r, small, sizeof(small)));
	/* what is written comes back, with the module's counters */
	strcat(buf, " # seen=10 injected=3\n");
	CHECK(!fault_rule_parse_line(buf, &back));
	CHECK(back.kinds == r.kinds && back.prob_ppm == r.prob_ppm && back.seed == 42 &&
	      back.after_flush == 2 && back.window_ms == 1500 && back.error == FAULT_MEDIUM &&
	      !back.every && !back.delay_us && !back.drop && back.seen == 10 && back.injected == 3);
	CHECK(!fault_rule_parse_line("+write every=3 drop # seen=0 injected=0", &back));
	CHECK(back.every == 3 && back.drop && back.kinds == FAULT_KIND_WRITE);
	CHECK(!fault_rule_parse_line("+any every=2 delay_us=300 # seen=0 injected=0", &back));
	CHECK(back.delay_us == 300 && back.kinds == FAULT_KIND_ANY);
	r = back;
	CHECK(!fault_rule_format(&r, buf, sizeof(buf)) &&
	      !strcmp(buf, "+any every=2 delay_us=300"));
	/* not the module's lines: no counters, no action, no '+', a bad option */
	CHECK(fault_rule_parse_line("+write every=3 error=eio\n", &back));
	CHECK(fault_rule_parse_line("+write every=3 # seen=0 injected=0\n", &back));
	CHECK(fault_rule_parse_line("write every=3 error=eio # seen=0 injected=0\n", &back));
	CHECK(fault_rule_parse_line("+write every=3 error=eio more=1 # seen=0 injected=0\n",
				    &back));
	CHECK(fault_rule_parse_line("+write every=0 error=eio # seen=0 injected=0\n", &back));
	CHECK(fault_rule_parse_line("", &back));
}

int main(void)
{
	test_kinds();
	test_prob();
	test_rules();
	test_lines();
	return check_done();
}
