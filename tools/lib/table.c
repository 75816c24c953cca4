// SPDX-License-Identifier: GPL-2.0
/* Tables of the reports, as text or CSV; see table.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "timefmt.h"
#include "utf8.h"

struct table_col {
	char *heading;
	char *name;
	enum table_align align;
	size_t width;
};

/* A cell's strings, as offsets in the table's pool. */
struct table_cell {
	size_t text;
	size_t csv;	/* CSV_SAME: the same as text */
};

#define CSV_SAME	SIZE_MAX

/*
 * The strings of every cell are kept one after another in one pool: a
 * table of a million rows (offcpu --interval) takes a third of the memory
 * a string of its own per cell did, and no allocation per cell.
 */
struct table {
	struct table_col *cols;
	size_t nr_cols;
	struct table_cell *cells;	/* rows * nr_cols, row-major */
	size_t nr_cells;
	size_t cap_cells;
	size_t nr_rows;
	char *pool;
	size_t pool_len;
	size_t pool_cap;
	bool failed;
};

struct table *table_new(void)
{
	return calloc(1, sizeof(struct table));
}

void table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_cols; i++) {
		free(t->cols[i].heading);
		free(t->cols[i].name);
	}
	free(t->cols);
	free(t->cells);
	free(t->pool);
	free(t);
}

void table_column(struct table *t, const char *heading, const char *name,
		  enum table_align align)
{
	struct table_col *cols;

	cols = realloc(t->cols, (t->nr_cols + 1) * sizeof(*cols));
	if (!cols) {
		t->failed = true;
		return;
	}
	t->cols = cols;
	cols[t->nr_cols] = (struct table_col){
		.heading = strdup(heading), .name = strdup(name),
		.align = align, .width = strlen(heading),
	};
	if (!cols[t->nr_cols].heading || !cols[t->nr_cols].name)
		t->failed = true;
	t->nr_cols++;
}

void table_row(struct table *t)
{
	/* pad the previous row if it was left short */
	while (t->nr_cells < t->nr_rows * t->nr_cols)
		table_cell(t, "", NULL);
	t->nr_rows++;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/*
 * The bytes of the character at @p (of @left bytes) kept as they are: 0
 * for one text_escape() writes as \xNN.
 */
static size_t kept_len(const unsigned char *p, size_t left)
{
	return is_control(*p) ? 0 : utf8_len(p, left);
}

/*
 * @text as text_escape() writes it: into @out if not NULL, its bytes
 * (without the NUL) into *@len; the columns it takes on a terminal.
 */
static size_t text_escaped(char *out, const char *text, size_t *len)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t left = strlen(text), width = 0, bytes = 0, n;

	while (left) {
		n = kept_len(p, left);
		if (!n) {
			if (out)
				sprintf(out + bytes, "\\x%02x", *p);
			bytes += 4;
			width += 4;
			n = 1;
		} else {
			if (out)
				memcpy(out + bytes, p, n);
			bytes += n;
			width += utf8_width(p, n);
		}
		p += n;
		left -= n;
	}
	if (out)
		out[bytes] = 0;
	*len = bytes;
	return width;
}

char *text_escape(char *out, const char *text)
{
	size_t len;

	text_escaped(out, text, &len);
	return out;
}

/* @len bytes more in the pool: their offset, or SIZE_MAX (failed). */
static size_t pool_take(struct table *t, size_t len)
{
	size_t cap = t->pool_cap ? t->pool_cap : 4096;
	char *pool;

	if (t->pool_len + len > t->pool_cap) {
		while (cap < t->pool_len + len)
			cap *= 2;
		pool = realloc(t->pool, cap);
		if (!pool) {
			t->failed = true;
			return SIZE_MAX;
		}
		t->pool = pool;
		t->pool_cap = cap;
	}
	t->pool_len += len;
	return t->pool_len - len;
}

void table_cell(struct table *t, const char *text, const char *csv)
{
	struct table_cell *cell;
	size_t width, len, off, csv_off = CSV_SAME, col;

	if (!t->nr_cols || t->nr_cells >= t->nr_rows * t->nr_cols)
		return;		/* no row started, or the row is full */
	if (t->nr_cells == t->cap_cells) {
		size_t cap = t->cap_cells ? 2 * t->cap_cells : 64;

		cell = realloc(t->cells, cap * sizeof(*cell));
		if (!cell) {
			t->failed = true;
			return;
		}
		t->cells = cell;
		t->cap_cells = cap;
	}
	/* as text_escape() writes it */
	width = text_escaped(NULL, text, &len);
	/* CSV keeps the bytes as they are, quoted where needed */
	if (len != strlen(text) && !csv)
		csv = text;
	off = pool_take(t, len + 1);
	if (csv && off != SIZE_MAX)
		csv_off = pool_take(t, strlen(csv) + 1);
	if (off == SIZE_MAX || (csv && csv_off == SIZE_MAX))
		return;
	text_escape(t->pool + off, text);
	if (csv)
		strcpy(t->pool + csv_off, csv);
	cell = &t->cells[t->nr_cells];
	cell->text = off;
	cell->csv = csv_off;
	col = t->nr_cells % t->nr_cols;
	if (width > t->cols[col].width)
		t->cols[col].width = width;
	t->nr_cells++;
}

void table_str(struct table *t, const char *s)
{
	table_cell(t, s, NULL);
}

void table_strf(struct table *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	table_cell(t, buf, NULL);
}

void table_u64(struct table *t, uint64_t v)
{
	table_strf(t, "%" PRIu64, v);
}

void table_duration(struct table *t, uint64_t ns)
{
	table_duration_mark(t, ns, false);
}

void table_duration_mark(struct table *t, uint64_t ns, bool uncertain)
{
	char text[DURATION_LEN + 1], csv[24];

	text[0] = '~';
	format_duration(text + 1, ns);
	snprintf(csv, sizeof(csv), "%" PRIu64, ns);
	table_cell(t, uncertain ? text : text + 1, csv);
}

void table_seconds(struct table *t, int64_t ns)
{
	char text[SECONDS_LEN], csv[SECONDS_LEN];

	table_cell(t, format_seconds(text, ns, 6), format_seconds(csv, ns, 9));
}

void table_share(struct table *t, double fraction)
{
	char text[16], csv[16];

	snprintf(text, sizeof(text), "%.1f%%", fraction * 100);
	snprintf(csv, sizeof(csv), "%.6f", fraction);
	table_cell(t, text, csv);
}

void table_none(struct table *t)
{
	table_cell(t, "-", "");
}

size_t table_rows(const struct table *t)
{
	return t->nr_rows;
}

void csv_field(FILE *f, const char *s)
{
	const char *p;

	if (!s[strcspn(s, ",\"\n\r")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* A line of text being made: its bytes, and room for more. */
struct text_line {
	char *buf;
	size_t len, cap;
};

/* Room for @more bytes in @l; false on ENOMEM. */
static bool line_room(struct text_line *l, size_t more)
{
	size_t cap = l->cap ? l->cap : 256;
	char *buf;

	if (l->len + more <= l->cap)
		return true;
	while (cap < l->len + more)
		cap *= 2;
	buf = realloc(l->buf, cap);
	if (!buf)
		return false;
	l->buf = buf;
	l->cap = cap;
	return true;
}

/* @n bytes of @c into @l (then room was made). */
static void line_fill(struct text_line *l, char c, size_t n)
{
	memset(l->buf + l->len, c, n);
	l->len += n;
}

/* Text: one line of cells, padded, with no trailing blanks (made in @l). */
static void print_text_line(FILE *f, const struct table *t,
			    const char *const *cells, struct text_line *l)
{
	size_t col, len, width, pad;
	bool first = true;

	l->len = 0;
	for (col = 0; col < t->nr_cols; col++) {
		const struct table_col *c = &t->cols[col];

		if (c->align == TABLE_CSV_ONLY)
			continue;
		/* padded by the columns the text takes, not its bytes */
		width = text_escaped(NULL, cells[col], &len);
		len = strlen(cells[col]);
		pad = c->width > width ? c->width - width : 0;
		if (!line_room(l, 2 + pad + len))
			return;
		line_fill(l, ' ', first ? 0 : 2);
		line_fill(l, ' ', c->align == TABLE_RIGHT ? pad : 0);
		memcpy(l->buf + l->len, cells[col], len);
		l->len += len;
		line_fill(l, ' ', c->align == TABLE_RIGHT ? 0 : pad);
		first = false;
	}
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	fwrite(l->buf, 1, l->len, f);
	fputc('\n', f);
}

size_t table_nr_columns(const struct table *t)
{
	return t->nr_cols;
}

const char *table_column_name(const struct table *t, size_t col)
{
	return t->cols[col].name;
}

const char *table_csv_cell(const struct table *t, size_t row, size_t col)
{
	size_t i = row * t->nr_cols + col;
	const struct table_cell *cell;

	if (i >= t->nr_cells)
		return "";
	cell = &t->cells[i];
	return t->pool + (cell->csv != CSV_SAME ? cell->csv : cell->text);
}

int table_print(const struct table *t, FILE *f, bool csv)
{
	struct text_line line = { 0 };
	const char **cells;
	size_t row, col;

	if (t->failed)
		return -ENOMEM;
	cells = calloc(t->nr_cols + 1, sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	for (col = 0; col < t->nr_cols; col++) {
		if (csv) {
			csv_field(f, t->cols[col].name);
			fputc(col + 1 < t->nr_cols ? ',' : '\n', f);
		}
		cells[col] = t->cols[col].heading;
	}
	if (!csv)
		print_text_line(f, t, cells, &line);
	for (row = 0; row < t->nr_rows; row++) {
		for (col = 0; col < t->nr_cols; col++) {
			size_t i = row * t->nr_cols + col;
			const struct table_cell *cell =
				i < t->nr_cells ? &t->cells[i] : NULL;

			cells[col] = cell ? t->pool + cell->text : "";
			if (!csv)
				continue;
			csv_field(f, table_csv_cell(t, row, col));
			fputc(col + 1 < t->nr_cols ? ',' : '\n', f);
		}
		if (!csv)
			print_text_line(f, t, cells, &line);
	}
	free(line.buf);
	free(cells);
	return stream_error(f);
}

int stream_error(FILE *f)
{
	int before = errno;

	if (!ferror(f))
		return 0;
	/*
	 * stdio keeps the error flag, not the errno.  What the buffer still
	 * holds is written again, and fails again, for the same reason; an
	 * unbuffered stream holds nothing, and the errno of the write that
	 * failed stands (each later write fails again and sets it anew).
	 */
	errno = 0;
	if (fflush(f) && errno)
		return -errno;
	errno = before;
	return before ? -before : -EIO;
}
