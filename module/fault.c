// SPDX-License-Identifier: GPL-2.0
/*
 * What the fault layers share. The errors of injected faults, by name;
 * what each stands for: EIO is a command the disk failed for no stated
 * reason; a medium error is an
 * unreadable or unwritable sector (ENODATA to the caller, and the block
 * layer logs it as a critical medium error); NOSPC is a thin-provisioned
 * device out of room; a timeout is a command that never answered, which
 * the block layer ends with BLK_STS_TIMEOUT (ETIMEDOUT) after it waited.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "fault.h"

static const char *const rd_fault_error_names[] = {
	[RD_FAULT_EIO] = "eio",
	[RD_FAULT_MEDIUM] = "medium",
	[RD_FAULT_NOSPC] = "nospc",
	[RD_FAULT_TIMEOUT] = "timeout",
};

static const blk_status_t rd_fault_error_statuses[] = {
	[RD_FAULT_EIO] = BLK_STS_IOERR,
	[RD_FAULT_MEDIUM] = BLK_STS_MEDIUM,
	[RD_FAULT_NOSPC] = BLK_STS_NOSPC,
	[RD_FAULT_TIMEOUT] = BLK_STS_TIMEOUT,
};

int rd_fault_error_parse(const char *name)
{
	return match_string(rd_fault_error_names, ARRAY_SIZE(rd_fault_error_names), name);
}

const char *rd_fault_error_name(enum rd_fault_error error)
{
	return rd_fault_error_names[error];
}

blk_status_t rd_fault_error_status(enum rd_fault_error error)
{
	return rd_fault_error_statuses[error];
}

void rd_fault_key_follow(struct static_key_false *key, bool *held, bool in_use)
{
	if (in_use && !*held)
		static_branch_inc(key);
	else if (!in_use && *held)
		static_branch_dec(key);
	*held = in_use;
}
