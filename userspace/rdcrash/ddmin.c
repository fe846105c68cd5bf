// SPDX-License-Identifier: GPL-2.0
/*
 * ddmin over a set held as flags: the current failing set is split into g
 * chunks; a chunk that fails alone becomes the set (g back to 2), else a
 * complement that fails does (g one less), else the chunks get smaller
 * (g doubles) until they are single changes, when the set is 1-minimal.
 */
#include "ddmin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The test on the chunk [lo, hi) of cur (m members), alone or its complement. */
static int try_part(const size_t *cur, size_t m, size_t lo, size_t hi, bool complement, bool *trial,
		    size_t n, ddmin_test fails, void *arg)
{
	size_t j;

	memset(trial, 0, n * sizeof(*trial));
	for (j = 0; j < m; j++)
		if ((j >= lo && j < hi) != complement)
			trial[cur[j]] = true;
	return fails(trial, n, arg);
}

long ddmin(bool *in, size_t n, ddmin_test fails, void *arg)
{
	size_t *cur = malloc((n ? n : 1) * sizeof(*cur));
	bool *trial = calloc(n ? n : 1, sizeof(*trial));
	size_t m = 0, g = 2, c, j, lo, hi;
	long tests = 0;
	int r = 0;

	if (!cur || !trial) {
		free(cur);
		free(trial);
		errno = ENOMEM;
		return -1;
	}
	for (j = 0; j < n; j++)
		if (in[j])
			cur[m++] = j;
	if (m) {
		/* the failure may need none of the changes */
		tests++;
		r = fails(trial, n, arg);
		if (r > 0)
			m = 0;
	}
	while (r >= 0 && m >= 2) {
		bool found = false;

		if (g > m)
			g = m;
		/* each chunk alone, then (with more than two) each complement */
		for (c = 0; c < 2 * g && !found; c++) {
			bool complement = c >= g;

			if (complement && g == 2)
				break;
			lo = (c % g) * m / g;
			hi = (c % g + 1) * m / g;
			tests++;
			r = try_part(cur, m, lo, hi, complement, trial, n, fails, arg);
			if (r < 0)
				break;
			if (!r)
				continue;
			found = true;
			if (complement) {
				memmove(cur + lo, cur + hi, (m - hi) * sizeof(*cur));
				m -= hi - lo;
				g = g > 2 ? g - 1 : 2;
			} else {
				memmove(cur, cur + lo, (hi - lo) * sizeof(*cur));
				m = hi - lo;
				g = 2;
			}
		}
		if (r < 0 || found)
			continue;
		if (g >= m)
			break;
		g = 2 * g < m ? 2 * g : m;
	}
	memset(in, 0, n * sizeof(*in));
	for (j = 0; j < m; j++)
		in[cur[j]] = true;
	free(cur);
	free(trial);
	return r < 0 ? -1 : tests;
}
