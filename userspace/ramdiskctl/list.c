// SPDX-License-Identifier: GPL-2.0
/* list: every device and configuration as a table or JSON (device_table.c). */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "device_table.h"
#include "exported.h"
#include "help.h"
#include "module_check.h"
#include "usage.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		TABLE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct table_opts o = { 0 };
	struct rdctl_device *list;
	size_t count;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, ":" TABLE_SHORTOPTS "h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return command_help("list");
		if (table_option(opt, optarg, &o))
			return option_error("list", argv, opt);
	}
	if (optind < argc)
		return usage_error("list", "unexpected argument '%s'", argv[optind]);
	if ((rc = table_columns_parse("list", &o)))
		return rc;
	if ((rc = require_module()))
		return rc;
	if (rd_list_all(&list, &count))
		return report_errno(errno, "list: %s", rd_configfs_root());
	for (size_t i = 0; i < count; i++)
		rd_load_export(&list[i]);
	rc = print_devices(list, count, &o);
	free(list);
	return rc;
}
