// SPDX-License-Identifier: GPL-2.0
/* The loop of a command whose only words are devices: remove, unexport. */
#include "ramdiskctl.h"

#include "help.h"
#include "module_check.h"
#include "per_device.h"
#include "usage.h"

#include <getopt.h>

int run_per_device(const char *cmd, int argc, char **argv, int (*fn)(const char *arg))
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc, first_rc = RC_OK;

	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help(cmd);
		return option_error(cmd, argv, opt);
	}
	if (optind == argc)
		return usage_error(cmd, "which device? give NAME or DEV");
	if ((rc = require_module()))
		return rc;
	/* Try every argument; report the first failure's status. */
	for (int i = optind; i < argc; i++) {
		rc = fn(argv[i]);
		if (rc && !first_rc)
			first_rc = rc;
	}
	return first_rc;
}
