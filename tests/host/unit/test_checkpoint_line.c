// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of ramdiskctl's checkpoints lines: the names it accepts and
 * refuses (the module's rules), and the module's "NAME pages=N own=M"
 * lines it reads back.
 */
#include "checkpoint_line.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static void test_names(void)
{
	static const char *const good[] = {
		"a", "base", "x.y_z-1", "-x", "...", "0", "abcdefghijklmnopqrstuvwxyz01234"
	};
	static const char *const bad[] = { "",
					   "a b",
					   "a/b",
					   "a\n",
					   "caf\xc3\xa9",
					   "a+b",
					   "a=b",
					   "tab\there",
					   "~",
					   "a\\b",
					   "abcdefghijklmnopqrstuvwxyz012345" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (checkpoint_name_invalid(good[i])) {
			fprintf(stderr, "name '%s' was refused: %s\n", good[i],
				checkpoint_name_invalid(good[i]));
			failures++;
		}
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!checkpoint_name_invalid(bad[i])) {
			fprintf(stderr, "name '%s' was accepted\n", bad[i]);
			failures++;
		}
	}
	CHECK(!strcmp(checkpoint_name_invalid(""), "it is empty"));
	CHECK(strstr(checkpoint_name_invalid("abcdefghijklmnopqrstuvwxyz012345"), "31"));
}

static void test_lines(void)
{
	static const char *const bad[] = {
		"",
		"\n",
		"base",
		"base pages=1",
		"base own=1 pages=2",
		"base pages=1 own=",
		"base pages= own=1",
		"base pages=-1 own=0",
		"base pages=+1 own=0",
		"base pages=1 own=0 extra",
		"base pages=1 own=0 ",
		"base  pages=1 own=0",
		"base pages=1x own=0",
		"a b pages=1 own=0",
		" pages=1 own=0",
		"base pages=1 own=0\nother pages=1 own=0\n",
		"base pages=18446744073709551616 own=0",
		"abcdefghijklmnopqrstuvwxyz012345 pages=1 own=0",
	};
	struct checkpoint_line c;

	CHECK(!checkpoint_parse_line("base pages=2048 own=513\n", &c));
	CHECK(!strcmp(c.name, "base") && c.pages == 2048 && c.own == 513);
	CHECK(!checkpoint_parse_line("x.y_z-1 pages=0 own=0", &c));
	CHECK(!strcmp(c.name, "x.y_z-1") && !c.pages && !c.own);
	CHECK(!checkpoint_parse_line(
		"abcdefghijklmnopqrstuvwxyz01234 pages=18446744073709551615 own=7\n", &c));
	CHECK(!strcmp(c.name, "abcdefghijklmnopqrstuvwxyz01234") &&
	      c.pages == 18446744073709551615ull && c.own == 7);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!checkpoint_parse_line(bad[i], &c)) {
			fprintf(stderr, "line '%s' was accepted\n", bad[i]);
			failures++;
		}
	}
}

int main(void)
{
	test_names();
	test_lines();
	return check_done();
}
