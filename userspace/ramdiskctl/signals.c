// SPDX-License-Identifier: GPL-2.0
/* Holding off the usual terminating signals while configfs is changed. */
#include "signals.h"

#include <signal.h>

/*
 * The usual terminating signals wait until a change to configfs is made or
 * undone: even Ctrl-C cannot strand a half-made device, subsystem or port.
 * create and export both hold them.
 */
void hold_signals(sigset_t *old)
{
	sigset_t held;

	sigemptyset(&held);
	sigaddset(&held, SIGINT);
	sigaddset(&held, SIGTERM);
	sigaddset(&held, SIGHUP);
	sigaddset(&held, SIGQUIT);
	sigprocmask(SIG_BLOCK, &held, old);
}
