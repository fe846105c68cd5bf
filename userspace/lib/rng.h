/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seeded generator of rdfuzz and rdcrash: splitmix64, small, fast and
 * the same on every machine, so a seed printed by one run replays on
 * another.
 */
#ifndef RAMDISK_RNG_H
#define RAMDISK_RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);

#endif /* RAMDISK_RNG_H */
