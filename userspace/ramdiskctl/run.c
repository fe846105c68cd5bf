// SPDX-License-Identifier: GPL-2.0
/*
 * The system's tools, run rather than re-implemented: blkid knows every
 * file system's signature, mkfs.TYPE how to make it, mount(8) the option
 * strings and helpers (mount.TYPE) that mount(2) does not.
 */
#include "run.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(char *const argv[], int out_fd)
{
	int null = open("/dev/null", O_RDONLY);

	if (null >= 0 && null != STDIN_FILENO) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	if (out_fd >= 0 && out_fd != STDOUT_FILENO) {
		dup2(out_fd, STDOUT_FILENO);
		close(out_fd);
	} else if (out_fd < 0) {
		/* mkfs's chatter is not apply's output, which says what was done */
		dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	execvp(argv[0], argv);
	warn("cannot run %s", argv[0]);
	_exit(127);
}

int run_tool(char *const argv[], char *out, size_t len)
{
	int pipefd[2] = { -1, -1 }, status;
	size_t used = 0;
	pid_t pid;

	fflush(stdout);
	if (out && pipe2(pipefd, O_CLOEXEC)) {
		warn("pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		warn("fork");
		return -1;
	}
	if (!pid)
		child(argv, pipefd[1]);
	if (out) {
		ssize_t n;

		close(pipefd[1]);
		while ((n = read(pipefd[0], out + used, len - 1 - used)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			used += (size_t)n;
			if (used == len - 1) {
				char sink[256];

				/* the rest is not wanted, but the tool must not block on it */
				while (read(pipefd[0], sink, sizeof(sink)) > 0)
					;
				break;
			}
		}
		close(pipefd[0]);
		out[used] = '\0';
		while (used && out[used - 1] == '\n')
			out[--used] = '\0';
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			warn("waitpid");
			return -1;
		}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
