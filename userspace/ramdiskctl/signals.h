/* SPDX-License-Identifier: GPL-2.0 */
/* Holding off the usual terminating signals while configfs is changed. */
#ifndef RAMDISKCTL_SIGNALS_H
#define RAMDISKCTL_SIGNALS_H

#include <signal.h>

/* Block SIGINT, SIGTERM, SIGHUP, SIGQUIT; old gets the mask. */
void hold_signals(sigset_t *old);

#endif /* RAMDISKCTL_SIGNALS_H */
