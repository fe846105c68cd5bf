/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault schedules: rules that fail or delay bios picked by their count or
 * by a seeded draw, the fault models of dm-flakey and the kernel's
 * fail_make_request in the device itself. Like bad blocks, the rules live
 * with the configfs item, so they outlive power cycles, and the submit
 * path consults them only while some device in the module has one (the
 * static key).
 */
#ifndef RAMDISK_FAULT_SCHEDULE_H
#define RAMDISK_FAULT_SCHEDULE_H

#include <linux/blk_types.h>
#include <linux/jump_label.h>
#include <linux/types.h>

struct bio;
struct rd_fault_sched;

/* Set while at least one schedule has a rule; changed only by configfs. */
DECLARE_STATIC_KEY_FALSE(rd_fault_sched_in_use);

/*
 * What the schedule decided for a bio: fail it with status, end it
 * successfully without serving it (drop), or serve it and end it late.
 */
struct rd_fault_verdict {
	blk_status_t status;
	bool drop;
	u64 delay_ns;
};

struct rd_fault_sched *rd_fault_sched_create(void);
void rd_fault_sched_destroy(struct rd_fault_sched *s);
/* rules now; read without a lock, a hint for the submit path */
unsigned int rd_fault_sched_count(const struct rd_fault_sched *s);

/* The configfs attribute: one rule per line, with what it has done. */
ssize_t rd_fault_sched_show(struct rd_fault_sched *s, char *page, size_t size);
/* -EINVAL (logged, nothing changed), -ENOSPC (full) or -ENOMEM */
int rd_fault_sched_store(struct rd_fault_sched *s, const char *who, const char *page);

/*
 * The submit path: counts bio against every rule, in the order the bios
 * come; true when a rule fires, with what it does in *v. A failed or
 * dropped bio is never served.
 */
bool rd_fault_sched_draw(struct rd_fault_sched *s, const struct bio *bio,
			 struct rd_fault_verdict *v);

#endif /* RAMDISK_FAULT_SCHEDULE_H */
