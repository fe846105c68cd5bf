/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delta debugging (Zeller and Hildebrandt's ddmin): from a set of changes
 * that makes a test fail, a subset that still fails and from which no
 * single change can be taken away without the test passing (1-minimal).
 * rdcrash minimise uses it over the writes a failing crash state lost.
 */
#ifndef RDCRASH_DDMIN_H
#define RDCRASH_DDMIN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether the changes i with in[i] set, and no other, make the test fail:
 * 1 it fails, 0 it passes (or the subset cannot be tried), -1 an error.
 */
typedef int (*ddmin_test)(const bool *in, size_t n, void *arg);

/*
 * in[0..n) holds a failing set on entry (the test is not run on it again)
 * and a 1-minimal failing subset of it on return. The empty set is tried
 * first. Returns the tests run, or -1 if one returned an error (in then
 * holds the smallest failing set found so far).
 */
long ddmin(bool *in, size_t n, ddmin_test fails, void *arg);

#endif /* RDCRASH_DDMIN_H */
