// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ramdiskctl's badblocks lines: the ranges and options it
 * accepts and refuses, the line it writes, and the module's lines it reads
 * back (each one a line it could write again).
 */
#include "fault_range.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static void test_range(void)
{
	static const char *const bad[] = { "",
					   "-",
					   "1-",
					   "-1",
					   "2-1",
					   "x",
					   "1-x",
					   "+1-2",
					   " 1-2",
					   "1-2 ",
					   "1--2",
					   "0x10",
					   "18446744073709551616",
					   "1-18446744073709551616",
					   "1-2-3" };
	uint64_t s = 7, e = 7;

	CHECK(!fault_parse_range("100-199", &s, &e) && s == 100 && e == 199);
	CHECK(!fault_parse_range("5", &s, &e) && s == 5 && e == 5);
	CHECK(!fault_parse_range("0-0", &s, &e) && s == 0 && e == 0);
	CHECK(!fault_parse_range("18446744073709551615", &s, &e) && s == UINT64_MAX &&
	      e == UINT64_MAX);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!fault_parse_range(bad[i], &s, &e)) {
			fprintf(stderr, "range '%s' was accepted\n", bad[i]);
			failures++;
		}
	}
}

static void test_names(void)
{
	enum fault_error err;
	enum fault_rw rw;

	CHECK(!fault_parse_rw("read", &rw) && rw == FAULT_READ);
	CHECK(!fault_parse_rw("write", &rw) && rw == FAULT_WRITE);
	CHECK(!fault_parse_rw("both", &rw) && rw == FAULT_BOTH);
	CHECK(fault_parse_rw("", &rw) && fault_parse_rw("READ", &rw) && fault_parse_rw("rw", &rw));
	CHECK(!fault_parse_error("eio", &err) && err == FAULT_EIO);
	CHECK(!fault_parse_error("medium", &err) && err == FAULT_MEDIUM);
	CHECK(!fault_parse_error("nospc", &err) && err == FAULT_NOSPC);
	CHECK(!fault_parse_error("timeout", &err) && err == FAULT_TIMEOUT);
	CHECK(fault_parse_error("enospc", &err) && fault_parse_error("", &err));
	CHECK(!strcmp(fault_rw_name(FAULT_BOTH), "both"));
	CHECK(!strcmp(fault_error_name(FAULT_TIMEOUT), "timeout"));
}

static void test_lines(void)
{
	struct fault_range r = { 100, 199, FAULT_WRITE, FAULT_MEDIUM, false }, back;
	char buf[128], small[16];

	CHECK(!fault_format_add(&r, buf, sizeof(buf)));
	CHECK(!strcmp(buf, "+100-199 rw=write error=medium sticky=0"));
	CHECK(fault_format_add(&r, small, sizeof(small)));
	/* what is written is read back the same */
	memset(&back, 0, sizeof(back));
	CHECK(!fault_parse_line(buf, &back));
	CHECK(back.start == 100 && back.end == 199 && back.rw == FAULT_WRITE &&
	      back.error == FAULT_MEDIUM && !back.sticky);
	CHECK(!fault_parse_line("+7-7 rw=both error=timeout sticky=1\n", &back));
	CHECK(back.start == 7 && back.rw == FAULT_BOTH && back.error == FAULT_TIMEOUT &&
	      back.sticky);
	/* the module prints every option: anything else is not one of its lines */
	CHECK(fault_parse_line("+7-7 rw=both error=timeout\n", &back));
	CHECK(fault_parse_line("7-7 rw=both error=eio sticky=1\n", &back));
	CHECK(fault_parse_line("+7-7 rw=both error=eio sticky=2\n", &back));
	CHECK(fault_parse_line("+7-7 rw=both error=eio sticky=1 more=1\n", &back));
	CHECK(fault_parse_line("\n", &back));
	CHECK(fault_parse_line("", &back));
}

int main(void)
{
	test_range();
	test_names();
	test_lines();
	return check_done();
}
