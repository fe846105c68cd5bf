// SPDX-License-Identifier: GPL-2.0
/*
 * Random text for attributes and sysfs files. Most values are near what a
 * parser expects (numbers at type boundaries, sizes with suffixes, the
 * words attributes take) because those reach the checks behind the parser;
 * the rest is garbage, empty, or longer than a page.
 */
#include "rdfuzz.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const boundaries[] = {
	"0",
	"1",
	"-1",
	"2",
	"7",
	"100",
	"101",
	"255",
	"256",
	"511",
	"512",
	"513",
	"1000",
	"4095",
	"4096",
	"4097",
	"8192",
	"16384",
	"65536",
	"1048576",
	"2147483647",
	"2147483648",
	"-2147483648",
	"4294967295",
	"4294967296",
	"9223372036854775807",
	"9223372036854775808",
	"-9223372036854775808",
	"18446744073709551615",
	"18446744073709551616",
	"99999999999999999999999",
};

static const char *const words[] = {
	"writeback",   "writethrough",
	"writebac",    "WRITEBACK",
	"writeback ",  "y",
	"n",	       "Y",
	"on",	       "off",
	"yes",	       "true",
	"none",	       "mq-deadline",
	"kyber",       "bfq",
	"nvram",       "0x",
	"0x1000",      "0X10",
	"unordered",   "plp",
	"lying-flush", "lying_flush",
	"misdirected", "torn-media-error",
};

static const char *const odd_forms[] = {
	" 12", "12 ", "1\n\n", "+5",   "1e3", "0b101", "0o17", "1.5", "12abc", "  ",  "\t1",
	"1,2", "1 2", "--1",   "0x-1", "1K1", "1.5G",  "1.1K", "007", "4k\n",  "16M",
};

static const char *const suffixes[] = { "",  "K", "M",	"G",   "T",  "k", "m", "g",  "t",
					"P", "E", "KB", "KiB", "iB", "B", "Z", "K ", "KK" };

/* Sizes a device could really have, so power-on paths run often. */
static const char *const plausible[] = { "4K",	"8K",  "64K",  "1M",  "4M",	"8M",
					 "16M", "1G",  "1T",   "16T", "131072", "4194304",
					 "16K", "32K", "256K", "512K" };

#define PICK(r, a) ((a)[rng_below((r), sizeof(a) / sizeof((a)[0]))])

static void put(struct value *v, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(v->buf) - 2)
		n = sizeof(v->buf) - 2;
	memcpy(v->buf, s, n);
	v->len = n;
}

static void put_fmt_u64(struct value *v, const char *prefix, uint64_t x, const char *suffix)
{
	v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%s%" PRIu64 "%s", prefix, x, suffix);
}

void value_make(struct rng *r, struct value *v)
{
	unsigned int kind = (unsigned int)rng_below(r, 20);
	size_t i, n;

	switch (kind) {
	case 0:
	case 1:
		put_fmt_u64(v, "", rng_below(r, 10), "");
		break;
	case 2:
	case 3:
	case 4:
		put(v, PICK(r, boundaries));
		break;
	case 5:
	case 6:
		put_fmt_u64(v, "", 1 + rng_below(r, 4096), PICK(r, suffixes));
		break;
	case 7:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "0x%" PRIx64,
					  rng_next(r) >> rng_below(r, 64));
		break;
	case 8:
		put_fmt_u64(v, "-", rng_next(r) >> rng_below(r, 64), "");
		break;
	case 9:
		/* any bytes, NUL included: the kernel must not read past them */
		n = 1 + rng_below(r, 64);
		for (i = 0; i < n; i++)
			v->buf[i] = (char)rng_below(r, 256);
		v->len = n;
		break;
	case 10:
		v->len = rng_below(r, 2);
		v->buf[0] = '\n';
		break;
	case 11:
		put(v, PICK(r, odd_forms));
		break;
	case 12:
		/* longer than a page: configfs and sysfs cut it at PAGE_SIZE - 1 */
		n = 100 + rng_below(r, VALUE_MAX - 200);
		memset(v->buf, rng_below(r, 2) ? '1' : 'A', n);
		v->len = n;
		break;
	case 13:
	case 14:
		put(v, PICK(r, words));
		break;
	default:
		put(v, PICK(r, plausible));
		break;
	}
	/* echo adds a newline; write(2) from a program may not */
	if (rng_below(r, 2) && v->len < sizeof(v->buf) - 1)
		v->buf[v->len++] = '\n';
}

void value_describe(const struct value *v, char *out, size_t size)
{
	size_t i = 0, o = 0, run;

	if (size < 64) {
		out[0] = '\0';
		return;
	}
	out[o++] = '"';
	while (i < v->len && o + 32 < size) {
		unsigned char c = (unsigned char)v->buf[i];

		for (run = 1; i + run < v->len && v->buf[i + run] == v->buf[i]; run++)
			;
		if (run > 8) {
			o += (size_t)snprintf(out + o, size - o, "%c*%zu",
					      c >= 32 && c < 127 ? c : '?', run);
			i += run;
			continue;
		}
		if (c == '\n')
			o += (size_t)snprintf(out + o, size - o, "\\n");
		else if (c == '"' || c == '\\')
			o += (size_t)snprintf(out + o, size - o, "\\%c", c);
		else if (c < 32 || c >= 127)
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
		i++;
	}
	if (i < v->len)
		o += (size_t)snprintf(out + o, size - o, "...");
	snprintf(out + o, size - o, "\"[%zu]", v->len);
}

/*
 * A line for the badblocks attribute, from two draws already made: mostly
 * ranges inside the window the I/O checks cover, so bad blocks meet the
 * fuzzer's reads and writes, with every option; removals, clear, and a few
 * lines the module must refuse.
 */
void value_badblocks(uint64_t x, uint64_t y, struct value *v)
{
	static const char *const rw[] = { "", " rw=read", " rw=write", " rw=both" };
	/* a timeout holds each bio a second: rarely */
	static const char *const errs[] = {
		"",	      " error=eio",    " error=medium", " error=nospc",
		" error=eio", " error=medium", " error=nospc",	" error=timeout"
	};
	static const char *const sticky[] = { "", " sticky=0", " sticky=1" };
	static const char *const refused[] = { " rw=sideways", " error=enoent", " sticky=2",
					       " bogus",       " rw",		"  rw=read x" };
	uint64_t start = (y >> 8) % SHADOW_SECTORS;
	uint64_t end = start + (y >> 32) % 64;
	const char *nl = x & 0x1000 ? "\n" : "";

	switch (x % 10) {
	case 0:
	case 1:
	case 2:
	case 3:
		v->len = (size_t)snprintf(
			v->buf, sizeof(v->buf), "+%" PRIu64 "-%" PRIu64 "%s%s%s%s", start, end,
			rw[(x >> 4) % 4], errs[(x >> 6) % 8], sticky[(x >> 9) % 3], nl);
		break;
	case 4:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%" PRIu64 "%s", start, nl);
		break;
	case 5:
	case 6:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "-%" PRIu64 "-%" PRIu64 "%s",
					  start, end, nl);
		break;
	case 7:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "clear%s", nl);
		break;
	case 8:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%" PRIu64 "-%" PRIu64 "%s",
					  end + 1, start, nl);
		break;
	default:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%" PRIu64 "-%" PRIu64 "%s%s",
					  start, end, refused[(x >> 4) % 6], nl);
		break;
	}
}

/*
 * A line for the fault_schedule attribute, from two draws already made:
 * mostly rules of every trigger, gate and action, with short delays (a
 * timeout holds a bio a second: rarely); clear; and lines the module must
 * refuse.
 */
void value_fault_schedule(uint64_t x, uint64_t y, struct value *v)
{
	static const char *const kinds[] = {
		"read",	      "write", "flush",	      "discard",
		"read,write", "any",   "write,flush", "write,discard"
	};
	static const char *const gates[] = { "",
					     "",
					     " after_flush=1",
					     " after_flush=3",
					     " window_ms=200",
					     " after_flush=1 window_ms=500" };
	static const char *const actions[] = {
		"",	 " error=eio", " error=medium", " error=nospc", " delay_us=1000",
		" drop", " error=eio", " error=timeout"
	};
	static const char *const refused[] = { " every=0",
					       " prob=0",
					       " prob=1.5",
					       " every=2 prob=0.5",
					       " every=2 seed=3",
					       " every=2 drop error=eio",
					       " every=2 delay_us=0",
					       " every=2 bogus=1" };
	const char *k = kinds[x % 8], *action = actions[(x >> 6) % 8];
	const char *nl = x & 0x1000 ? "\n" : "";
	char trigger[48];

	/* a dropped read is refused: make it a rule the module takes, mostly */
	if (!strcmp(action, " drop") && (!strncmp(k, "read", 4) || !strcmp(k, "any")))
		k = "write";
	if ((x >> 3) % 2)
		snprintf(trigger, sizeof(trigger), " every=%" PRIu64, 1 + (y % 8));
	else
		snprintf(trigger, sizeof(trigger), " prob=0.%02" PRIu64 " seed=%" PRIu64,
			 1 + (y % 99), y >> 40);
	switch ((x >> 9) % 10) {
	case 0:
	case 1:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "clear%s", nl);
		break;
	case 2:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%s%s%s", k,
					  refused[(y >> 8) % 8], nl);
		break;
	default:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%s%s%s%s%s", k, trigger,
					  gates[(y >> 16) % 6], action, nl);
		break;
	}
}

/*
 * A checkpoint name: mostly a few names, so that takes meet existing ones
 * and rollbacks and drops find them, and more names than the 16 a device
 * keeps; some the module must refuse (empty, too long, other characters).
 */
static void checkpoint_name(uint64_t x, char *out, size_t size)
{
	static const char *const names[] = { "base", "a", "ck-1", "x.y_z",
					     "abcdefghijklmnopqrstuvwxyz01234" };
	static const char *const refused[] = {
		"", "a b", "a/b", "abcdefghijklmnopqrstuvwxyz012345", "caf\xc3\xa9", "+a", "a=1"
	};

	switch (x % 8) {
	case 5:
	case 6:
		snprintf(out, size, "n%u", (unsigned int)((x >> 3) % 14));
		break;
	case 7:
		snprintf(out, size, "%s", refused[(x >> 3) % 7]);
		break;
	default:
		snprintf(out, size, "%s", names[(x >> 3) % 5]);
		break;
	}
}

/*
 * A line for the checkpoints attribute, from a draw already made: mostly
 * takes and drops of a name, and lines the module must refuse (no sign,
 * two lines).
 */
void value_checkpoints(uint64_t x, struct value *v)
{
	const char *nl = x & 0x100000 ? "\n" : "";
	char name[40], other[40];

	checkpoint_name(x >> 4, name, sizeof(name));
	switch (x % 10) {
	case 0:
	case 1:
	case 2:
	case 3:
	case 4:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%s%s", name, nl);
		break;
	case 5:
	case 6:
	case 7:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "-%s%s", name, nl);
		break;
	case 8:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%s%s", name, nl);
		break;
	default:
		checkpoint_name(x >> 24, other, sizeof(other));
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "+%s\n-%s%s", name, other, nl);
		break;
	}
}

void value_clone_of(uint64_t x, unsigned int slot, struct value *v)
{
	char name[40];

	if (x % 6 == 0) {
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "\n");
		return;
	}
	checkpoint_name(x >> 3, name, sizeof(name));
	v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "slot:%u %s\n", slot, name);
}

void value_rollback(uint64_t x, struct value *v)
{
	char name[40];

	checkpoint_name(x >> 1, name, sizeof(name));
	v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%s%s", name, x % 2 ? "\n" : "");
}

/*
 * A line for the write_log attribute, from a draw already made: mostly the
 * commands, so that logs start, record, stop and go; mark with a short text,
 * or the longest the module takes; and lines it must refuse. "start CK"
 * names a checkpoint as value_checkpoints() does, so that it meets the
 * slot's others; the model takes it as "+CK" (wlog_command() in actions.c).
 */
void value_write_log(uint64_t x, struct value *v)
{
	static const char *const refused[] = { "mark ",	    "mark",	  "start ",
					       "start  ",   "startx",	  "stop 1",
					       "clear x",   "Start",	  "mark caf\xc3\xa9",
					       "mark a\tb", "start\nstop" };
	const char *nl = x & 0x1000 ? "\n" : "";
	char text[130];

	switch (x % 10) {
	case 0:
	case 1:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "start%s", nl);
		break;
	case 2:
		checkpoint_name(x >> 4, text, sizeof(text));
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "start %s%s", text, nl);
		break;
	case 3:
	case 4:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "stop%s", nl);
		break;
	case 5:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "clear%s", nl);
		break;
	case 6:
	case 7:
	case 8:
		/* 127 characters are the most a mark takes, 128 too many */
		if ((x >> 4) % 16 == 0) {
			memset(text, 'z', sizeof(text));
			text[(x >> 8) % 2 ? 127 : 128] = '\0';
		} else {
			snprintf(text, sizeof(text), "m%" PRIu64, (x >> 13) % 1000000);
		}
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "mark %s%s", text, nl);
		break;
	default:
		v->len = (size_t)snprintf(
			v->buf, sizeof(v->buf), "%s%s",
			refused[(x >> 4) % (sizeof(refused) / sizeof(refused[0]))], nl);
		break;
	}
}

/*
 * A size for write_log_limit, from a draw already made: 4K to 8M in bytes,
 * K or M, so that logs overflow at sizes a run reaches without eating the
 * guest's memory (see write_log_limit_cap() in actions.c for the rest).
 */
void value_write_log_limit(uint64_t x, struct value *v)
{
	const char *nl = x & 0x1000 ? "\n" : "";
	uint64_t n = x >> 13;

	switch (x % 3) {
	case 0:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%" PRIu64 "%s",
					  4096 + n % (WRITE_LOG_LIMIT_MAX - 4096 + 1), nl);
		break;
	case 1:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%" PRIu64 "K%s",
					  4 + n % (WRITE_LOG_LIMIT_MAX / 1024 - 4 + 1), nl);
		break;
	default:
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%" PRIu64 "M%s",
					  1 + n % (WRITE_LOG_LIMIT_MAX >> 20), nl);
		break;
	}
}
