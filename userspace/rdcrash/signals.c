// SPDX-License-Identifier: GPL-2.0
/*
 * The signals that stop a run (SIGINT, SIGTERM, SIGHUP): the handler
 * notes the signal in the stop flag (stop.c) and passes the stop on to
 * what runs now.
 */
#include "rdcrash.h"

#include <signal.h>
#include <stddef.h>

static void on_signal(int sig)
{
	stop_signal = sig;
	/* the workload or checker running now stops too; rdcrash waits for it */
	if (run_child > 0)
		kill(-run_child, SIGTERM);
	/* a worker of jobs.c stops after its state, and stops what it runs */
	jobs_signal(SIGTERM);
}

void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
