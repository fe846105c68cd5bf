/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delay points for the race tests. A race whose window is a few
 * instructions wide cannot be hit in a test's time; a test build widens it
 * on purpose. scripts/build-module compiles a second module with
 * RD_TEST_HOOKS defined and module/test_hooks.c added
 * (build/kernels/KVER/testhooks/ramdisk.ko): there, rd_test_delay() spins
 * for the parameter test_delay_us at the point named by test_delay_point.
 * In the module that is shipped, it is an empty inline: no parameter, no
 * code.
 */
#ifndef RAMDISK_TEST_HOOKS_H
#define RAMDISK_TEST_HOOKS_H

enum rd_test_point {
	RD_TEST_POINT_NONE,
	/*
	 * store_pages.c: a write found its page in the index and has not yet
	 * looked at whether it may write it in place
	 */
	RD_TEST_WRITE_LOOKED_UP,
	/*
	 * io.c, the layered path: a bio was served (or failed) and the write
	 * log has not yet been told how it ended
	 */
	RD_TEST_SERVED_UNLOGGED,
	/* io.c, the layered path: the write log has the bio, no layer has run it */
	RD_TEST_LOGGED_UNSERVED,
	/*
	 * checkpoint.c, a power domain's checkpoint: one member's is taken,
	 * the next member's not yet
	 */
	RD_TEST_DOMAIN_MEMBER_TAKEN,
};

#ifdef RD_TEST_HOOKS
void rd_test_delay(enum rd_test_point point);
#else
static inline void rd_test_delay(enum rd_test_point point)
{
}
#endif

#endif /* RAMDISK_TEST_HOOKS_H */
