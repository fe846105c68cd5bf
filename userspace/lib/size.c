// SPDX-License-Identifier: GPL-2.0
#include "size.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/*
 * A fraction of d decimal places is kept as an integer (below 10^d) and
 * divided by 5^d; 5^27 is the largest power of five in 64 bits. A whole
 * number of bytes with a T suffix never needs more than 40 places, and
 * nobody types those.
 */
#define MAX_FRACTION_DIGITS 27

static int fail(int err, const char *reason, const char **why)
{
	if (why)
		*why = reason;
	errno = err;
	return -1;
}

/* Power-of-two exponent of the suffix at s, and where the suffix ends. */
static int parse_suffix(const char *s, unsigned int *shift, const char **end)
{
	static const char units[] = "kmgt";
	const char *unit;

	*shift = 0;
	if (*s && (unit = strchr(units, tolower((unsigned char)*s)))) {
		*shift = 10 * (unsigned int)(unit - units + 1);
		s++;
		if (tolower((unsigned char)s[0]) == 'i' && tolower((unsigned char)s[1]) == 'b')
			s += 2;
		else if (tolower((unsigned char)s[0]) == 'b')
			s++;
	} else if (tolower((unsigned char)*s) == 'b') {
		s++;
	}
	*end = s;
	return *s ? -1 : 0;
}

/*
 * The value of 0.frac (digits decimal places) times 2^shift, if it is a
 * whole number. frac / 10^d * 2^s = (frac / 5^d) * 2^(s - d), so frac must
 * be a multiple of 5^d and what remains must absorb any 2^(d - s).
 */
static int fraction_bytes(uint64_t frac, unsigned int digits, unsigned int shift, uint64_t *bytes)
{
	uint64_t pow5 = 1, q;
	unsigned int i;

	for (i = 0; i < digits; i++)
		pow5 *= 5;
	if (frac % pow5)
		return -1;
	q = frac / pow5;
	if (digits <= shift) {
		/* q < 2^digits, so q << (shift - digits) < 2^shift. */
		*bytes = q << (shift - digits);
		return 0;
	}
	if (q & ((UINT64_C(1) << (digits - shift)) - 1))
		return -1;
	*bytes = q >> (digits - shift);
	return 0;
}

int size_parse(const char *s, uint64_t *bytes, const char **why)
{
	uint64_t whole = 0, frac = 0, frac_bytes;
	unsigned int digits = 0, shift;
	const char *p = s, *end;
	int seen_digit = 0;

	if (!s || !*s)
		return fail(EINVAL, "empty", why);
	if (*p == '-')
		return fail(EINVAL, "negative", why);
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (whole > (UINT64_MAX - d) / 10)
			return fail(ERANGE, "too large for 64 bits", why);
		whole = whole * 10 + d;
		seen_digit = 1;
	}
	if (!seen_digit)
		return fail(EINVAL, "not a number", why);
	if (*p == '.') {
		const char *first = ++p, *last;

		if (!isdigit((unsigned char)*p))
			return fail(EINVAL, "no digits after the decimal point", why);
		while (isdigit((unsigned char)*p))
			p++;
		/* Trailing zeros change nothing; leave them out of frac. */
		for (last = p; last > first && last[-1] == '0'; last--)
			;
		if (last - first > MAX_FRACTION_DIGITS)
			return fail(EINVAL, "too many decimal places", why);
		for (; first < last; first++, digits++) {
			if (frac > UINT64_MAX / 10 - 9)
				return fail(EINVAL, "too many decimal places", why);
			frac = frac * 10 + (uint64_t)(*first - '0');
		}
	}
	if (parse_suffix(p, &shift, &end))
		return fail(EINVAL, "unknown suffix (use K, M, G or T)", why);
	if (fraction_bytes(frac, digits, shift, &frac_bytes))
		return fail(EINVAL, "not a whole number of bytes", why);
	if (shift && whole > (UINT64_MAX >> shift))
		return fail(ERANGE, "too large for 64 bits", why);
	whole <<= shift;
	if (whole > UINT64_MAX - frac_bytes)
		return fail(ERANGE, "too large for 64 bits", why);
	*bytes = whole + frac_bytes;
	return 0;
}

char *size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	unsigned int unit = 0;
	long long tenths, whole;
	double v;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64, bytes);
		return buf;
	}
	v = (double)bytes / 1024.0;
	while (v >= 1024.0 && unit < sizeof(units) - 2) {
		v /= 1024.0;
		unit++;
	}
	/* Round half up by hand: v is positive and libm is not linked. */
	tenths = (long long)(v * 10.0 + 0.5);
	if (tenths < 100) {
		snprintf(buf, len, "%lld.%lld%c", tenths / 10, tenths % 10, units[unit]);
		return buf;
	}
	whole = (long long)(v + 0.5);
	if (whole >= 1024 && unit < sizeof(units) - 2)
		snprintf(buf, len, "1.0%c", units[unit + 1]);
	else
		snprintf(buf, len, "%lld%c", whole, units[unit]);
	return buf;
}
