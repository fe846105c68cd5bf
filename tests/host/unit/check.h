/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one assertion of the host unit tests: CHECK(cond) reports a false
 * condition with its place and counts it in `failures`, and the test goes
 * on, so one run shows every check that fails. main() ends with
 * check_done().
 */
#ifndef RD_UNIT_CHECK_H
#define RD_UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                              \
		}                                                                                \
	} while (0)

/*
 * The end of main(): how many checks failed, or "ok"; the exit status.
 * One ending for every test, so their logs read alike.
 */
static inline int check_done(void)
{
	if (failures) {
		fprintf(stderr, "%d checks failed\n", failures);
		return 1;
	}
	puts("ok");
	return 0;
}

#endif /* RD_UNIT_CHECK_H */
