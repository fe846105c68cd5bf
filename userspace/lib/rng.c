// SPDX-License-Identifier: GPL-2.0
/* splitmix64 (rng.h). */
#include "rng.h"

void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The modulo bias is far below anything a fuzzer would notice. */
uint64_t rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}
