// SPDX-License-Identifier: GPL-2.0
#include "output.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct table_column {
	char *name;
	int kind;
};

struct table {
	struct table_column *cols;
	size_t ncols;
	char ***rows;
	size_t nrows;
	size_t rows_alloc;
	/* next cell table_cell() fills in the last row */
	size_t cursor;
	bool building;
};

struct table *table_new(void)
{
	return calloc(1, sizeof(struct table));
}

static void free_row(char **row, size_t ncols)
{
	if (!row)
		return;
	for (size_t i = 0; i < ncols; i++)
		free(row[i]);
	free(row);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->nrows; r++)
		free_row(t->rows[r], t->ncols);
	free(t->rows);
	for (size_t c = 0; c < t->ncols; c++)
		free(t->cols[c].name);
	free(t->cols);
	free(t);
}

static bool kind_valid(int kind)
{
	int base = kind & TABLE_KIND_MASK;

	if (kind & ~(TABLE_KIND_MASK | TABLE_MACHINE_ONLY))
		return false;
	return base == TABLE_TEXT || base == TABLE_NUMBER || base == TABLE_NUMBER_LIST;
}

int table_add_column(struct table *t, const char *name, int kind)
{
	struct table_column *cols;
	char *copy;

	/* rows are fixed-width arrays; widening them later is not worth it */
	if (!name || t->nrows || !kind_valid(kind)) {
		errno = EINVAL;
		return -1;
	}
	copy = strdup(name);
	if (!copy)
		return -1;
	cols = realloc(t->cols, (t->ncols + 1) * sizeof(*cols));
	if (!cols) {
		free(copy);
		return -1;
	}
	t->cols = cols;
	t->cols[t->ncols].name = copy;
	t->cols[t->ncols].kind = kind;
	return (int)t->ncols++;
}

static char **append_empty_row(struct table *t)
{
	char **row;

	if (!t->ncols) {
		errno = EINVAL;
		return NULL;
	}
	if (t->nrows == t->rows_alloc) {
		size_t n = t->rows_alloc ? 2 * t->rows_alloc : 16;
		char ***rows = realloc(t->rows, n * sizeof(*rows));

		if (!rows)
			return NULL;
		t->rows = rows;
		t->rows_alloc = n;
	}
	row = calloc(t->ncols, sizeof(*row));
	if (!row)
		return NULL;
	t->rows[t->nrows++] = row;
	return row;
}

int table_row_begin(struct table *t)
{
	if (!append_empty_row(t)) {
		t->building = false;
		return -1;
	}
	t->building = true;
	t->cursor = 0;
	return 0;
}

int table_cell(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (!t->building || t->cursor >= t->ncols) {
		errno = EINVAL;
		return -1;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	t->rows[t->nrows - 1][t->cursor++] = s;
	return 0;
}

static const char *cell(const struct table *t, size_t row, size_t col)
{
	const char *s = t->rows[row][col];

	return s ? s : "";
}

/* Width on a terminal, counting UTF-8 code points rather than bytes. */
static size_t display_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void print_human_line(const struct table *t, FILE *out, const size_t *width,
			     const char *const *text, size_t last)
{
	bool first = true;

	for (size_t c = 0; c <= last; c++) {
		int kind = t->cols[c].kind;
		size_t w;

		if (kind & TABLE_MACHINE_ONLY)
			continue;
		if (!first)
			fputs("  ", out);
		first = false;
		w = display_width(text[c]);
		if ((kind & TABLE_KIND_MASK) == TABLE_TEXT) {
			fputs(text[c], out);
			/* no trailing blanks after the last column */
			if (c != last)
				pad(out, width[c] - w);
		} else {
			pad(out, width[c] - w);
			fputs(text[c], out);
		}
	}
	fputc('\n', out);
}

static int print_human(const struct table *t, FILE *out)
{
	size_t *width = calloc(t->ncols ? t->ncols : 1, sizeof(*width));
	const char **text = calloc(t->ncols ? t->ncols : 1, sizeof(*text));
	size_t last = 0;
	bool any = false;
	int ret = -1;

	if (!width || !text)
		goto out_free;
	for (size_t c = 0; c < t->ncols; c++) {
		if (t->cols[c].kind & TABLE_MACHINE_ONLY)
			continue;
		any = true;
		last = c;
		width[c] = display_width(t->cols[c].name);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t w = display_width(cell(t, r, c));

			if (w > width[c])
				width[c] = w;
		}
	}
	ret = 0;
	if (!any)
		goto out_free;
	for (size_t c = 0; c < t->ncols; c++)
		text[c] = t->cols[c].name;
	print_human_line(t, out, width, text, last);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			text[c] = cell(t, r, c);
		print_human_line(t, out, width, text, last);
	}
out_free:
	free(text);
	free(width);
	return ret;
}

/*
 * Length of the valid UTF-8 sequence at s, or 0 when it is not one
 * (overlong forms, surrogates and code points past U+10FFFF included).
 */
static size_t utf8_sequence_length(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff)
		return 0;
	return n;
}

void json_write_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		size_t n = utf8_sequence_length(p);

		if (n == 0) {
			/* JSON must be UTF-8: show a stray byte as U+FFFD */
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
		p++;
	}
	fputc('"', out);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int json_is_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (is_digit(*s))
		while (is_digit(*s))
			s++;
	else
		return 0;
	if (*s == '.') {
		s++;
		if (!is_digit(*s))
			return 0;
		while (is_digit(*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return 0;
		while (is_digit(*s))
			s++;
	}
	return *s == '\0';
}

static void json_write_number_cell(FILE *out, const char *s)
{
	if (!*s || !strcmp(s, "-"))
		fputs("null", out);
	else if (json_is_number(s))
		fputs(s, out);
	else
		json_write_string(out, s); /* keep "inf" or "n/a" readable */
}

static void json_write_number_list(FILE *out, const char *s)
{
	const char *p = s;
	bool first = true;

	fputc('[', out);
	while (*p) {
		size_t len;
		char *item;

		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		if (!len)
			break;
		item = strndup(p, len);
		if (!first)
			fputc(',', out);
		first = false;
		json_write_number_cell(out, item ? item : "");
		free(item);
		p += len;
	}
	fputc(']', out);
}

static int print_json(const struct table *t, FILE *out)
{
	fputc('[', out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n  {" : "\n  {", out);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cell(t, r, c);

			if (c)
				fputs(", ", out);
			json_write_string(out, t->cols[c].name);
			fputs(": ", out);
			switch (t->cols[c].kind & TABLE_KIND_MASK) {
			case TABLE_NUMBER:
				json_write_number_cell(out, s);
				break;
			case TABLE_NUMBER_LIST:
				json_write_number_list(out, s);
				break;
			default:
				json_write_string(out, s);
			}
		}
		fputc('}', out);
	}
	fputs(t->nrows ? "\n]\n" : "]\n", out);
	return 0;
}

void csv_write_field(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int print_csv(const struct table *t, FILE *out)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		csv_write_field(out, t->cols[c].name);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', out);
			csv_write_field(out, cell(t, r, c));
		}
		fputc('\n', out);
	}
	return 0;
}

int table_print(const struct table *t, enum output_format fmt, FILE *out)
{
	int ret;

	switch (fmt) {
	case OUTPUT_JSON:
		ret = print_json(t, out);
		break;
	case OUTPUT_CSV:
		ret = print_csv(t, out);
		break;
	case OUTPUT_HUMAN:
		ret = print_human(t, out);
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	if (ret)
		return ret;
	if (fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
