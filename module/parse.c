// SPDX-License-Identifier: GPL-2.0
/*
 * Size and address strings as the module parameters and configfs accept
 * them: a size is decimal digits with an optional K, M, G or T suffix
 * (base 1024); an address or reserved size may also be 0x hex. Digits
 * are decimal, a leading 0 or not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "ramdisk.h"

/* Returns 0, or -EINVAL for anything but digits and a suffix, or on overflow. */
int rd_parse_size(const char *str, u64 *bytes)
{
	char digits[24];
	unsigned int shift = 0;
	size_t len;
	u64 value;

	len = strlen(str);
	/* configfs and sysfs writes usually end with a newline */
	while (len && isspace(str[len - 1]))
		len--;
	if (!len)
		return -EINVAL;

	switch (str[len - 1]) {
	case 'K':
	case 'k':
		shift = 10;
		break;
	case 'M':
	case 'm':
		shift = 20;
		break;
	case 'G':
	case 'g':
		shift = 30;
		break;
	case 'T':
	case 't':
		shift = 40;
		break;
	}
	if (shift)
		len--;
	if (!len || len >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, str, len);
	digits[len] = '\0';
	if (!isdigit(digits[0]) || kstrtou64(digits, 10, &value))
		return -EINVAL;
	if (value > (U64_MAX >> shift))
		return -EINVAL;
	*bytes = value << shift;
	return 0;
}

/*
 * Length of a written value, counting at most max characters, without its
 * trailing newline or spaces: for quoting it in a log line.
 */
int rd_text_len(const char *page, size_t max)
{
	size_t len = strnlen(page, max);

	while (len && isspace(page[len - 1]))
		len--;
	return len;
}

/*
 * An address or size: 0x hex, or a size (decimal digits, optional suffix).
 * Never base 0, which reads a leading 0 as octal: 0100000 is 100000 here,
 * as it is for every size, not 32768.
 */
int rd_parse_phys(const char *str, u64 *val)
{
	/* base 16 skips the one 0x; a sign or a second 0x is refused */
	if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X'))
		return kstrtou64(str, 16, val);
	return rd_parse_size(str, val);
}
