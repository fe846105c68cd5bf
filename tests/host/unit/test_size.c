// SPDX-License-Identifier: GPL-2.0
/* Edge cases of size_parse() and size_format(); exit 0 when all pass. */
#include "size.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void expect_ok(const char *s, uint64_t want)
{
	const char *why = NULL;
	uint64_t got = 0;

	if (size_parse(s, &got, &why)) {
		printf("FAIL parse \"%s\": %s, want %" PRIu64 "\n", s, why, want);
		failures++;
	} else if (got != want) {
		printf("FAIL parse \"%s\": got %" PRIu64 ", want %" PRIu64 "\n", s, got, want);
		failures++;
	}
}

static void expect_bad(const char *s, int want_errno)
{
	const char *why = NULL;
	uint64_t got = 12345;

	errno = 0;
	if (!size_parse(s, &got, &why)) {
		printf("FAIL parse \"%s\": accepted as %" PRIu64 "\n", s ? s : "(null)", got);
		failures++;
		return;
	}
	if (errno != want_errno || !why || !*why) {
		printf("FAIL parse \"%s\": errno %d why \"%s\", want errno %d\n", s ? s : "(null)",
		       errno, why ? why : "(null)", want_errno);
		failures++;
	}
	if (got != 12345) {
		printf("FAIL parse \"%s\": wrote the result on failure\n", s);
		failures++;
	}
}

static void expect_format(uint64_t bytes, const char *want)
{
	char buf[SIZE_STR_MAX];

	size_format(bytes, buf, sizeof(buf));
	if (strcmp(buf, want)) {
		printf("FAIL format %" PRIu64 ": got \"%s\", want \"%s\"\n", bytes, buf, want);
		failures++;
	}
}

int main(void)
{
	const uint64_t K = 1024, M = K * K, G = M * K, T = G * K;
	char buf[SIZE_STR_MAX];

	/* Plain numbers and every suffix spelling. */
	expect_ok("0", 0);
	expect_ok("512", 512);
	expect_ok("007", 7);
	expect_ok("4k", 4 * K);
	expect_ok("4K", 4 * K);
	expect_ok("4KB", 4 * K);
	expect_ok("4kib", 4 * K);
	expect_ok("4KiB", 4 * K);
	expect_ok("1m", M);
	expect_ok("1G", G);
	expect_ok("1g", G);
	expect_ok("2GiB", 2 * G);
	expect_ok("1T", T);
	expect_ok("1t", T);
	expect_ok("512B", 512);
	expect_ok("512b", 512);
	expect_ok("16777215T", 16777215 * T);

	/* Fractions that name whole bytes. */
	expect_ok("1.5G", G + G / 2);
	expect_ok("0.5K", 512);
	expect_ok("1.0", 1);
	expect_ok("1.000000000000000000000000", 1);
	expect_ok("0.25M", M / 4);
	expect_ok("1.125k", 1152);
	expect_ok("0.0009765625K", 1);
	expect_ok("0.00000095367431640625M", 1);
	expect_ok("0.5000000000000000000000000000000K", 512);

	/* The extremes of uint64_t. */
	expect_ok("18446744073709551615", UINT64_MAX);
	expect_ok("18446744073709551615B", UINT64_MAX);
	expect_ok("16777215.5T", UINT64_MAX - (UINT64_C(1) << 39) + 1);

	/* Garbage. */
	expect_bad(NULL, EINVAL);
	expect_bad("", EINVAL);
	expect_bad("-1", EINVAL);
	expect_bad("-4K", EINVAL);
	expect_bad("+4K", EINVAL);
	expect_bad(" 4K", EINVAL);
	expect_bad("4K ", EINVAL);
	expect_bad("4 K", EINVAL);
	expect_bad("K", EINVAL);
	expect_bad("abc", EINVAL);
	expect_bad("4X", EINVAL);
	expect_bad("4P", EINVAL);
	expect_bad("4KK", EINVAL);
	expect_bad("4KiBB", EINVAL);
	expect_bad("4iB", EINVAL);
	expect_bad("4Ki", EINVAL);
	expect_bad("0x10", EINVAL);
	expect_bad("1e3", EINVAL);
	expect_bad("1.", EINVAL);
	expect_bad(".5G", EINVAL);
	expect_bad("1.5", EINVAL);
	expect_bad("1.1K", EINVAL);
	expect_bad("1.2.3", EINVAL);
	expect_bad("4K\n", EINVAL);
	expect_bad("0.00000000000000000001T", EINVAL);

	/* Beyond UINT64_MAX. */
	expect_bad("18446744073709551616", ERANGE);
	expect_bad("99999999999999999999999", ERANGE);
	expect_bad("16777216T", ERANGE);
	expect_bad("17179869184G", ERANGE);
	expect_bad("18014398509481984K", ERANGE);

	/* Formatting. */
	expect_format(0, "0");
	expect_format(1, "1");
	expect_format(512, "512");
	expect_format(1023, "1023");
	expect_format(K, "1.0K");
	expect_format(4 * K, "4.0K");
	expect_format(1536, "1.5K");
	expect_format(10 * K, "10K");
	expect_format(100 * K, "100K");
	expect_format(1023 * K, "1023K");
	expect_format(M - 1, "1.0M");
	expect_format(M, "1.0M");
	expect_format(512 * M, "512M");
	expect_format(G, "1.0G");
	expect_format(G + G / 2, "1.5G");
	expect_format(10 * G - 1, "10G");
	expect_format(T, "1.0T");
	expect_format(1024 * T, "1.0P");
	expect_format(UINT64_MAX, "16E");

	/* What we print for an exact size, we parse back. */
	size_format(3 * G / 2, buf, sizeof(buf));
	expect_ok(buf, 3 * G / 2);

	if (failures) {
		printf("%d size checks failed\n", failures);
		return 1;
	}
	printf("all size checks passed\n");
	return 0;
}
