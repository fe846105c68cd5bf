// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the run summary (median, min, max), the median's interval
 * and the timer helpers.
 */
#include "stats.h"
#include "timing.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

static int failures;

static void expect(const double *v, size_t n, double median, double min, double max)
{
	struct stats st;

	if (stats_compute(v, n, &st) || st.n != n || st.median != median || st.min != min ||
	    st.max != max) {
		fprintf(stderr, "n=%zu: want %g/%g/%g, got %g/%g/%g\n", n, median, min, max,
			st.median, st.min, st.max);
		failures++;
	}
}

/* The interval of 1..n must be [k, n + 1 - k]. */
static void expect_interval(size_t n, size_t k)
{
	double v[1000], low, high;

	/* in descending order, so that the function must sort */
	for (size_t i = 0; i < n; i++)
		v[i] = (double)(n - i);
	if (stats_median_interval95(v, n, &low, &high) || low != (double)k ||
	    high != (double)(n + 1 - k)) {
		fprintf(stderr, "interval of 1..%zu: want [%zu, %zu], got [%g, %g]\n", n, k,
			n + 1 - k, low, high);
		failures++;
	}
}

int main(void)
{
	const double one[] = { 7.5 };
	const double odd[] = { 3, 1, 2 };
	const double even[] = { 4, 1, 3, 2 };
	const double same[] = { 5, 5, 5, 5, 5 };
	const double neg[] = { -1, -10, 0.5, -2, 100 };
	const double big[] = { DBL_MAX, DBL_MAX };
	const double input[] = { 9, 8, 7 };
	const double nan_in[] = { 1, NAN, 2 };
	const double nan6[] = { 1, 2, 3, NAN, 5, 6 };
	double low, high;
	struct stats st;
	uint64_t a, b;

	expect(one, 1, 7.5, 7.5, 7.5);
	expect(odd, 3, 2, 1, 3);
	expect(even, 4, 2.5, 1, 4);
	expect(same, 5, 5, 5, 5);
	expect(neg, 5, -1, -10, 100);
	/* the mean of two huge middles must not overflow to infinity */
	expect(big, 2, DBL_MAX, DBL_MAX, DBL_MAX);
	/* the input is left as it was */
	expect(input, 3, 8, 7, 9);
	if (input[0] != 9 || input[2] != 7) {
		fprintf(stderr, "input reordered\n");
		failures++;
	}
	errno = 0;
	if (stats_compute(one, 0, &st) != -1 || errno != EINVAL) {
		fprintf(stderr, "empty input accepted\n");
		failures++;
	}
	errno = 0;
	if (stats_compute(nan_in, 3, &st) != -1 || errno != EINVAL) {
		fprintf(stderr, "NaN accepted\n");
		failures++;
	}

	/*
	 * The sign test's tables: 95% needs six values ([1st, 6th]); then
	 * 9 -> 2nd, 15 -> 4th, 21 -> 6th, 101 -> 41st, 1000 -> 469th.
	 */
	expect_interval(6, 1);
	expect_interval(8, 1);
	expect_interval(9, 2);
	expect_interval(15, 4);
	expect_interval(21, 6);
	expect_interval(101, 41);
	expect_interval(1000, 469);
	for (size_t n = 0; n < 6; n++) {
		errno = 0;
		if (stats_median_interval95(nan6, n, &low, &high) != -1 || errno != EDOM) {
			fprintf(stderr, "an interval from %zu values\n", n);
			failures++;
		}
	}
	errno = 0;
	if (stats_median_interval95(nan6, 6, &low, &high) != -1 || errno != EINVAL) {
		fprintf(stderr, "NaN accepted by the interval\n");
		failures++;
	}

	a = now_ns();
	b = now_ns();
	if (b < a || elapsed_s(a, a + 1500000000u) != 1.5) {
		fprintf(stderr, "clock went backwards or elapsed_s wrong\n");
		failures++;
	}
	if (timer_cost_ns() <= 0 || timer_cost_ns() > 1e6) {
		fprintf(stderr, "implausible timer cost %g ns\n", timer_cost_ns());
		failures++;
	}
	if (failures)
		return 1;
	printf("stats: all checks passed (timer %.1f ns per read)\n", timer_cost_ns());
	return 0;
}
