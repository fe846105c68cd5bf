// SPDX-License-Identifier: GPL-2.0
#include "attr_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ramdisk.h"

const char *rd_configfs_root(void)
{
	const char *root = getenv("RAMDISK_CONFIGFS");

	return root && *root ? root : RAMDISK_CONFIGFS_ROOT;
}

ssize_t attr_read(const char *path, char *buf, size_t size)
{
	ssize_t got;
	int fd, saved;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do {
		got = read(fd, buf, size - 1);
	} while (got < 0 && errno == EINTR);
	saved = errno;
	close(fd);
	if (got < 0) {
		errno = saved;
		return -1;
	}
	buf[got] = '\0';
	return got;
}

int attr_read_line(const char *path, char *buf, size_t len)
{
	if (attr_read(path, buf, len) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

ssize_t attr_write(const char *path, const void *buf, size_t len)
{
	ssize_t put;
	int fd, saved;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do {
		put = write(fd, buf, len);
	} while (put < 0 && errno == EINTR);
	saved = errno;
	if (close(fd) && put >= 0) {
		saved = errno;
		put = -1;
	}
	if (put < 0)
		errno = saved;
	return put;
}

int attr_write_line(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t put = attr_write(path, value, len);

	if (put < 0)
		return -1;
	if ((size_t)put != len) {
		/* A store method that takes part of a value took none of it. */
		errno = EIO;
		return -1;
	}
	return 0;
}

/* strtoull/strtoll accept leading blanks and signs; attribute files don't. */
static int parse_u64(const char *s, char **end, uint64_t *value)
{
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, end, 10);
	if (errno)
		return -1;
	*value = v;
	return 0;
}

int attr_read_u64(const char *path, uint64_t *value)
{
	char buf[64], *end;
	uint64_t v;

	if (attr_read_line(path, buf, sizeof(buf)))
		return -1;
	if (parse_u64(buf, &end, &v) || *end) {
		errno = EINVAL;
		return -1;
	}
	*value = v;
	return 0;
}

int attr_read_s64(const char *path, int64_t *value)
{
	char buf[64], *end;
	long long v;

	if (attr_read_line(path, buf, sizeof(buf)))
		return -1;
	if (buf[0] != '-' && (buf[0] < '0' || buf[0] > '9')) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end || end == buf) {
		errno = EINVAL;
		return -1;
	}
	*value = v;
	return 0;
}

int attr_read_u64_pair(const char *path, uint64_t *first, uint64_t *second)
{
	char buf[128], *end;
	uint64_t a, b;

	if (attr_read_line(path, buf, sizeof(buf)))
		return -1;
	if (parse_u64(buf, &end, &a) || *end != ' ' || parse_u64(end + 1, &end, &b) || *end) {
		errno = EINVAL;
		return -1;
	}
	*first = a;
	*second = b;
	return 0;
}

int attr_read_lines(const char *path, void *items, size_t size, int max,
		    int (*parse)(const char *line, void *item), char **bad)
{
	char *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f;

	*bad = NULL;
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if (n == max || parse(line, (char *)items + (size_t)n * size)) {
			line[strcspn(line, "\n")] = '\0';
			*bad = line;
			line = NULL;
			n = -1;
			break;
		}
		n++;
	}
	free(line);
	fclose(f);
	if (*bad)
		errno = EINVAL;
	return n;
}
