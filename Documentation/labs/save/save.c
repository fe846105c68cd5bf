// SPDX-License-Identifier: GPL-2.0
/*
 * save FILE TEXT: replaces FILE's contents with TEXT the careful way. The
 * new contents go to FILE.new, which is fsync'd and then renamed over
 * FILE: rename is atomic, so a crash leaves the old file or the new one,
 * never a mixture. Then it prints "saved FILE", and its user may believe
 * the new contents will survive a crash. Lab 7 asks whether they may.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *file, *text;
	char tmp[4096];
	size_t len;
	int fd;

	if (argc != 3)
		errx(2, "usage: save FILE TEXT");
	file = argv[1];
	text = argv[2];
	if (snprintf(tmp, sizeof(tmp), "%s.new", file) >= (int)sizeof(tmp))
		errx(2, "%s: name too long", file);

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		err(1, "%s", tmp);
	len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1)
		err(1, "writing %s", tmp);
	/* the new contents are on the disk before the name points at them */
	if (fsync(fd))
		err(1, "fsync %s", tmp);
	if (close(fd))
		err(1, "close %s", tmp);
	if (rename(tmp, file))
		err(1, "rename %s to %s", tmp, file);

	printf("saved %s\n", file);
	return 0;
}
