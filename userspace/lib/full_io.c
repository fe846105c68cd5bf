// SPDX-License-Identifier: GPL-2.0
/* Writes that finish (full_io.h). */
#include "full_io.h"

#include <errno.h>
#include <unistd.h>

/* off < 0: write(2) at the file position, else pwrite(2) at off. */
static int put_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = off < 0 ? write(fd, p, len) : pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		if (off >= 0)
			off += n;
	}
	return 0;
}

int write_full(int fd, const void *buf, size_t len)
{
	return put_all(fd, buf, len, -1);
}

int pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	if (off < 0) {
		errno = EINVAL;
		return -1;
	}
	return put_all(fd, buf, len, off);
}
