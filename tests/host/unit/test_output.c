// SPDX-License-Identifier: GPL-2.0
/* Unit test of rdbench's table printer: human alignment, JSON and CSV quoting. */
#include "output.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(const struct table *t, enum output_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || table_print(t, fmt, f)) {
		fprintf(stderr, "render failed\n");
		exit(1);
	}
	fclose(f);
	return buf;
}

static void expect_render(const struct table *t, enum output_format fmt, const char *want)
{
	char *got = render(t, fmt);

	if (strcmp(got, want)) {
		fprintf(stderr, "format %d\n--- want\n%s--- got\n%s---\n", fmt, want, got);
		failures++;
	}
	free(got);
}

static void expect_string(void (*writer)(FILE *, const char *), const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	writer(f, in);
	fclose(f);
	if (strcmp(buf, want)) {
		fprintf(stderr, "escape of \"%s\": want %s, got %s\n", in, want, buf);
		failures++;
	}
	free(buf);
}

static void test_formats(void)
{
	struct table *t = table_new();

	CHECK(t);
	CHECK(table_add_column(t, "target", TABLE_TEXT) == 0);
	CHECK(table_add_column(t, "ops/s", TABLE_NUMBER) == 1);
	CHECK(table_add_column(t, "raw", TABLE_NUMBER_LIST | TABLE_MACHINE_ONLY) == 2);
	CHECK(table_add_column(t, "note", TABLE_TEXT) == 3);
	CHECK(table_row_begin(t) == 0);
	CHECK(table_cell(t, "tmpfs") == 0);
	CHECK(table_cell(t, "%d", 12) == 0);
	CHECK(table_cell(t, "1.5 2 3") == 0);
	CHECK(table_cell(t, "x") == 0);
	CHECK(table_row_begin(t) == 0);
	CHECK(table_cell(t, "%s", "say \"hi\", ok") == 0);
	CHECK(table_cell(t, "%d", 12345) == 0);
	CHECK(table_cell(t, "%s", "") == 0);
	CHECK(table_cell(t, "a\nb") == 0);
	CHECK(table_cell(t, "one too many") == -1);
	CHECK(table_row_begin(t) == 0);
	CHECK(table_cell(t, "ünï") == 0);
	CHECK(table_cell(t, "-") == 0);
	/* columns cannot be added once rows exist */
	CHECK(table_add_column(t, "late", TABLE_TEXT) == -1);

	expect_render(t, OUTPUT_HUMAN,
		      "target        ops/s  note\n"
		      "tmpfs            12  x\n"
		      "say \"hi\", ok  12345  a\nb\n"
		      "ünï               -  \n");
	expect_render(t, OUTPUT_JSON,
		      "[\n"
		      "  {\"target\": \"tmpfs\", \"ops/s\": 12, "
		      "\"raw\": [1.5,2,3], \"note\": \"x\"},\n"
		      "  {\"target\": \"say \\\"hi\\\", ok\", \"ops/s\": 12345, "
		      "\"raw\": [], \"note\": \"a\\nb\"},\n"
		      "  {\"target\": \"ünï\", \"ops/s\": null, "
		      "\"raw\": [], \"note\": \"\"}\n"
		      "]\n");
	expect_render(t, OUTPUT_CSV,
		      "target,ops/s,raw,note\n"
		      "tmpfs,12,1.5 2 3,x\n"
		      "\"say \"\"hi\"\", ok\",12345,,\"a\nb\"\n"
		      "ünï,-,,\n");
	table_free(t);
}

static void test_empty(void)
{
	struct table *t = table_new();

	/* a row needs columns */
	CHECK(table_row_begin(t) == -1);
	CHECK(table_cell(t, "x") == -1);
	CHECK(table_add_column(t, "only", TABLE_NUMBER) == 0);
	CHECK(table_add_column(t, "bad", 7) == -1);
	CHECK(table_add_column(t, "bad", TABLE_NUMBER | 0x200) == -1);
	expect_render(t, OUTPUT_JSON, "[]\n");
	expect_render(t, OUTPUT_CSV, "only\n");
	expect_render(t, OUTPUT_HUMAN, "only\n");
	table_free(t);
}

static void test_escapes(void)
{
	expect_string(json_write_string, "plain", "\"plain\"");
	expect_string(json_write_string, "q\"b\\s/", "\"q\\\"b\\\\s/\"");
	expect_string(json_write_string, "\t\r\n\b\f\x01\x1f\x7f",
		      "\"\\t\\r\\n\\b\\f\\u0001\\u001f\\u007f\"");
	expect_string(json_write_string, "€ 😀", "\"€ 😀\"");
	/* invalid UTF-8: stray continuation, overlong, surrogate, truncated */
	expect_string(json_write_string, "a\x80z", "\"a\\ufffdz\"");
	expect_string(json_write_string, "\xc0\xaf", "\"\\ufffd\\ufffd\"");
	expect_string(json_write_string, "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	expect_string(json_write_string, "\xe2\x82", "\"\\ufffd\\ufffd\"");

	expect_string(csv_write_field, "plain", "plain");
	expect_string(csv_write_field, "", "");
	expect_string(csv_write_field, "a,b", "\"a,b\"");
	expect_string(csv_write_field, "he said \"x\"", "\"he said \"\"x\"\"\"");
	expect_string(csv_write_field, "cr\rlf\n", "\"cr\rlf\n\"");
	expect_string(csv_write_field, " lead", " lead");
}

static void test_numbers(void)
{
	const char *good[] = { "0", "-0", "12", "1.5", "-3.25e10", "1E+3", "0.001", "2e-7" };
	const char *bad[] = { "",   "-",   "01",  "1.",	  ".5", "+1",
			      "1e", "inf", "nan", "0x10", "1 ", "1,5" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(json_is_number(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(!json_is_number(bad[i]));
}

int main(void)
{
	test_formats();
	test_empty();
	test_escapes();
	test_numbers();
	return check_done();
}
