// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a signal asked the run to stop: the flag the handler of
 * signals.c sets and the loops of the run poll.
 */
#include "rdcrash.h"

#include <err.h>
#include <signal.h>

/* A signal that asked the run to stop: it stops at the next state and cleans up. */
volatile sig_atomic_t stop_signal;

bool rdcrash_stopped(void)
{
	return stop_signal;
}

bool stopped(void)
{
	if (stop_signal)
		warnx("stopped by signal %d", (int)stop_signal);
	return stop_signal;
}
