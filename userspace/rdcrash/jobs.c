// SPDX-License-Identifier: GPL-2.0
/*
 * Checking an epoch's states on several clones at once (rdcrash.h).
 *
 * Each state is independent: a clone of the epoch's checkpoint, a few
 * writes, a mount and the checkers. So worker w, a process of its own
 * forked for the epoch, takes states w, w + jobs, w + 2 jobs, ... on its
 * own clone and mount directory, and sends each result down a pipe. The
 * parent keeps them by state number, so what a run prints does not depend
 * on which worker finished first: -j 2 prints what -j 1 does. Processes,
 * not threads: a check runs mount, fsck and the user's command, and its
 * failures (a stuck mount, a killed check) stay in its own process.
 */
#include "rdcrash.h"
#include "full_io.h"

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The workers running now, for a signal handler to pass a stop on to. */
static volatile pid_t running[64];

void jobs_signal(int sig)
{
	unsigned int w;

	for (w = 0; w < 64; w++)
		if (running[w] > 0)
			kill(running[w], sig);
}

/* What a worker sends per state: the result, or that it could not check it. */
struct job_msg {
	unsigned int index;
	struct job_result res;
};

/* Worker w's share of the states; never returns. */
static void worker(unsigned int w, unsigned int jobs, unsigned int n, job_fn fn, void *arg, int out)
{
	struct job_msg m;
	unsigned int i;

	for (i = w; i < n; i += jobs) {
		memset(&m, 0, sizeof(m));
		m.index = i;
		if (fn(arg, w, i, &m.res))
			m.res.error = true;
		/* a stop may have killed the check under way: that state was not judged */
		if (rdcrash_stopped() || write_full(out, &m, sizeof(m)) || m.res.error)
			break;
	}
	/* no atexit handler of the parent's (the device it made) runs here */
	_exit(0);
}

int jobs_run(unsigned int jobs, unsigned int n, job_fn fn, void *arg, struct job_result *res,
	     job_progress_fn progress)
{
	struct pollfd *fds;
	pid_t *pids;
	unsigned int w, open_fds, done = 0;
	size_t got[64] = { 0 };
	struct job_msg m[64];
	int rc = 0, status;

	if (jobs > n)
		jobs = n ? n : 1;
	/* one process: no fork, no pipe */
	if (jobs == 1) {
		for (w = 0; w < n; w++) {
			memset(&res[w], 0, sizeof(res[w]));
			if (fn(arg, 0, w, &res[w]))
				return -1;
			if (rdcrash_stopped())
				return 0;
			res[w].done = true;
			progress(arg, w + 1);
		}
		return 0;
	}
	if (jobs > 64)
		jobs = 64;
	fds = calloc(jobs, sizeof(*fds));
	pids = calloc(jobs, sizeof(*pids));
	if (!fds || !pids)
		err(RC_ERROR, "out of memory");
	for (w = 0; w < n; w++)
		memset(&res[w], 0, sizeof(res[w]));
	fflush(NULL);
	for (w = 0; w < jobs; w++) {
		int p[2];

		if (pipe(p))
			err(RC_ERROR, "pipe");
		pids[w] = fork();
		if (pids[w] < 0)
			err(RC_ERROR, "fork");
		running[w] = pids[w];
		if (!pids[w]) {
			unsigned int j;

			close(p[0]);
			for (j = 0; j < w; j++) {
				close(fds[j].fd);
				/* its siblings are not its to stop */
				running[j] = 0;
			}
			worker(w, jobs, n, fn, arg, p[1]);
		}
		close(p[1]);
		fds[w].fd = p[0];
		fds[w].events = POLLIN;
	}
	open_fds = jobs;
	while (open_fds) {
		if (poll(fds, jobs, -1) < 0) {
			if (errno == EINTR)
				continue;
			err(RC_ERROR, "poll");
		}
		for (w = 0; w < jobs; w++) {
			ssize_t r;

			if (fds[w].fd < 0 || !fds[w].revents)
				continue;
			r = read(fds[w].fd, (char *)&m[w] + got[w], sizeof(m[w]) - got[w]);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(fds[w].fd);
				fds[w].fd = -1;
				open_fds--;
				continue;
			}
			got[w] += (size_t)r;
			if (got[w] < sizeof(m[w]))
				continue;
			got[w] = 0;
			if (m[w].index >= n || m[w].res.error) {
				rc = -1;
				continue;
			}
			res[m[w].index] = m[w].res;
			res[m[w].index].done = true;
			progress(arg, ++done);
		}
	}
	for (w = 0; w < jobs; w++) {
		while (waitpid(pids[w], &status, 0) < 0 && errno == EINTR)
			;
		running[w] = 0;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = -1;
	}
	free(fds);
	free(pids);
	return rc;
}
