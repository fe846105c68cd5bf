// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the attribute-file library on plain files in a temporary
 * directory: a line is written with one write(2) into a truncated file,
 * read back without its newline, numbers and lists are refused with
 * EINVAL (a list naming its bad line), and RAMDISK_CONFIGFS moves the
 * configfs root.
 */
#include "attr_file.h"
#include "check.h"
#include "ramdisk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_attr_file.XXXXXX";
static char path[64];

/* path holds exactly text */
static void put(const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f || fputs(text, f) == EOF || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* What path holds, NUL-terminated in buf. */
static void get(char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f) {
		perror(path);
		exit(1);
	}
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* The process's write(2) calls so far (syscw in /proc/self/io), or -1. */
static long write_calls(void)
{
	char buf[512], *p;
	int fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "syscw: ");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

static void test_write_line(void)
{
	long before, after;
	char buf[64];

	put("a longer value that was there before\n");
	before = write_calls();
	CHECK(!attr_write_line(path, "12"));
	after = write_calls();
	get(buf, sizeof(buf));
	CHECK(!strcmp(buf, "12"));
	if (before < 0 || after < 0)
		printf("no syscw in /proc/self/io: the count of writes is not checked\n");
	else
		CHECK(after - before == 1);

	/* the same through attr_write, with a NUL and a newline inside */
	CHECK(attr_write(path, "a\0b\n", 4) == 4);
	CHECK(!attr_read_line(path, buf, sizeof(buf)) && !strcmp(buf, "a"));

	errno = 0;
	CHECK(attr_write_line("/nonexistent-dir/attr", "1") == -1 && errno == ENOENT);
}

static void test_read_line(void)
{
	char buf[64], small[4];

	put("value\nsecond line\n");
	CHECK(!attr_read_line(path, buf, sizeof(buf)) && !strcmp(buf, "value"));
	CHECK(attr_read(path, buf, sizeof(buf)) == 18 && !strcmp(buf, "value\nsecond line\n"));
	/* a buffer too small keeps what fits */
	CHECK(!attr_read_line(path, small, sizeof(small)) && !strcmp(small, "val"));
	put("no newline");
	CHECK(!attr_read_line(path, buf, sizeof(buf)) && !strcmp(buf, "no newline"));
	put("");
	CHECK(!attr_read_line(path, buf, sizeof(buf)) && !strcmp(buf, ""));

	errno = 0;
	CHECK(attr_read_line(path, buf, 0) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(attr_read_line("/nonexistent-dir/attr", buf, sizeof(buf)) == -1 && errno == ENOENT);
}

static void test_numbers(void)
{
	static const char *const bad_u64[] = {
		"12x\n", "", " 12\n", "-1\n", "+1\n", "12 \n", "x\n", "18446744073709551616\n",
	};
	uint64_t u = 7, v = 7;
	int64_t s = 7;

	put("12\n");
	CHECK(!attr_read_u64(path, &u) && u == 12);
	put("18446744073709551615");
	CHECK(!attr_read_u64(path, &u) && u == UINT64_MAX);
	for (size_t i = 0; i < sizeof(bad_u64) / sizeof(bad_u64[0]); i++) {
		put(bad_u64[i]);
		errno = 0;
		u = 7;
		if (attr_read_u64(path, &u) != -1 || errno != EINVAL || u != 7) {
			fprintf(stderr, "u64 '%s' was not refused with EINVAL\n", bad_u64[i]);
			failures++;
		}
	}

	put("-5\n");
	CHECK(!attr_read_s64(path, &s) && s == -5);
	put("-\n");
	errno = 0;
	CHECK(attr_read_s64(path, &s) == -1 && errno == EINVAL);

	put("3 4096\n");
	CHECK(!attr_read_u64_pair(path, &u, &v) && u == 3 && v == 4096);
	put("5  6\n");
	errno = 0;
	CHECK(attr_read_u64_pair(path, &u, &v) == -1 && errno == EINVAL && u == 3 && v == 4096);
}

/* a line of digits, into an int */
static int parse_digits(const char *line, void *item)
{
	size_t n = strspn(line, "0123456789");

	if (!n || strcmp(line + n, "\n"))
		return -1;
	*(int *)item = atoi(line);
	return 0;
}

static void test_read_lines(void)
{
	int items[3] = { 0 };
	char *bad = (char *)"unset";

	put("1\n22\n");
	CHECK(attr_read_lines(path, items, sizeof(items[0]), 3, parse_digits, &bad) == 2);
	CHECK(!bad && items[0] == 1 && items[1] == 22);

	put("1\nbad line\n3\n");
	errno = 0;
	CHECK(attr_read_lines(path, items, sizeof(items[0]), 3, parse_digits, &bad) == -1);
	CHECK(errno == EINVAL && bad && !strcmp(bad, "bad line"));
	free(bad);

	/* a line past max is refused as well */
	put("1\n2\n3\n4\n");
	errno = 0;
	CHECK(attr_read_lines(path, items, sizeof(items[0]), 3, parse_digits, &bad) == -1);
	CHECK(errno == EINVAL && bad && !strcmp(bad, "4"));
	free(bad);

	put("");
	CHECK(attr_read_lines(path, items, sizeof(items[0]), 3, parse_digits, &bad) == 0 && !bad);

	errno = 0;
	CHECK(attr_read_lines("/nonexistent-dir/list", items, sizeof(items[0]), 3, parse_digits,
			      &bad) == -1);
	CHECK(errno == ENOENT && !bad);
}

static void test_configfs_root(void)
{
	CHECK(!unsetenv("RAMDISK_CONFIGFS"));
	CHECK(!strcmp(rd_configfs_root(), RAMDISK_CONFIGFS_ROOT));
	CHECK(!setenv("RAMDISK_CONFIGFS", "", 1));
	CHECK(!strcmp(rd_configfs_root(), RAMDISK_CONFIGFS_ROOT));
	CHECK(!setenv("RAMDISK_CONFIGFS", "/tmp/fake-configfs", 1));
	CHECK(!strcmp(rd_configfs_root(), "/tmp/fake-configfs"));
	CHECK(!unsetenv("RAMDISK_CONFIGFS"));
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/attr", dir);
	test_write_line();
	test_read_line();
	test_numbers();
	test_read_lines();
	test_configfs_root();
	unlink(path);
	rmdir(dir);
	return check_done();
}
