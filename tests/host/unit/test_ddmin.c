// SPDX-License-Identifier: GPL-2.0
/*
 * ddmin against predicates whose minimal failing sets are known: a set
 * that must all be there, any one of several, one plus one of two, the
 * empty set; every result failing and 1-minimal (each member needed), in
 * a number of tests near ddmin's bound, and an error passed on.
 */
#include "check.h"
#include "ddmin.h"

#include <stdint.h>
#include <string.h>

#define N 40

struct pred {
	int kind;
	uint64_t need; /* kind 0: all of these; 1: any of these */
	int x, y, z; /* kind 2: x and (y or z) */
	long calls;
	long error_after; /* > 0: the test fails with -1 on that call */
};

static uint64_t bits(const bool *in, size_t n)
{
	uint64_t b = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (in[i])
			b |= 1ull << i;
	return b;
}

static int holds(const struct pred *p, uint64_t b)
{
	switch (p->kind) {
	case 0:
		return (b & p->need) == p->need;
	case 1:
		return (b & p->need) != 0;
	case 2:
		return (b >> p->x & 1) && ((b >> p->y & 1) || (b >> p->z & 1));
	default:
		return 1; /* fails whatever is there */
	}
}

static int fails(const bool *in, size_t n, void *arg)
{
	struct pred *p = arg;

	p->calls++;
	if (p->error_after && p->calls == p->error_after)
		return -1;
	return holds(p, bits(in, n));
}

/* Runs ddmin on all N changes; checks the result fails and is 1-minimal. */
static uint64_t run(struct pred *p, long *tests)
{
	bool in[N];
	uint64_t b;
	int i;

	for (i = 0; i < N; i++)
		in[i] = true;
	*tests = ddmin(in, N, fails, p);
	CHECK(*tests == p->calls);
	b = bits(in, N);
	CHECK(holds(p, b));
	for (i = 0; i < N; i++)
		if (b >> i & 1)
			CHECK(!holds(p, b & ~(1ull << i)));
	return b;
}

int main(void)
{
	struct pred p;
	long tests;
	bool in[N], none[3] = { false, false, false };
	int i;

	/* all of three far apart: exactly them, in well under N^2 tests */
	p = (struct pred){ .kind = 0, .need = 1ull << 3 | 1ull << 17 | 1ull << 38 };
	CHECK(run(&p, &tests) == p.need);
	CHECK(tests > 0 && tests < 200);
	/* one change: found by halving, about 2 log2(N) tests */
	p = (struct pred){ .kind = 0, .need = 1ull << 29 };
	CHECK(run(&p, &tests) == p.need);
	CHECK(tests <= 2 * 6 + 1);
	/* any one of three: a single one of them */
	p = (struct pred){ .kind = 1, .need = 1ull << 5 | 1ull << 6 | 1ull << 30 };
	{
		uint64_t b = run(&p, &tests);

		CHECK(b && !(b & (b - 1)) && (b & p.need));
	}
	/* x and (y or z): x with one of y and z */
	p = (struct pred){ .kind = 2, .x = 12, .y = 0, .z = 39 };
	{
		uint64_t b = run(&p, &tests);

		CHECK(b == (1ull << 12 | 1ull << 0) || b == (1ull << 12 | 1ull << 39));
	}
	/* a failure that needs none of the changes: the empty set, in one test */
	p = (struct pred){ .kind = 3 };
	CHECK(run(&p, &tests) == 0);
	CHECK(tests == 1);
	/* a set of one or none: nothing to split */
	p = (struct pred){ .kind = 0, .need = 1ull << 1 };
	memset(in, 0, sizeof(in));
	in[1] = true;
	CHECK(ddmin(in, N, fails, &p) == 1);
	CHECK(in[1] && bits(in, N) == 1ull << 1);
	CHECK(ddmin(none, 3, fails, &p) == 0);
	/* an error stops it: -1, and what is in still fails */
	p = (struct pred){ .kind = 0, .need = 1ull << 3 | 1ull << 17, .error_after = 4 };
	for (i = 0; i < N; i++)
		in[i] = true;
	CHECK(ddmin(in, N, fails, &p) == -1);
	CHECK(holds(&p, bits(in, N)));
	return check_done();
}
