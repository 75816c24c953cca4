/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables of the reports: filled row by row, then printed either aligned
 * for people (a header, columns padded to their widest cell) or as CSV
 * (a header of column names, values quoted when they need it).  A cell
 * holds both forms: durations read "48.120 ms" in text and "48120000" in
 * CSV.
 *
 *	struct table *t = table_new();
 *
 *	table_column(t, "TID", "tid", TABLE_RIGHT);
 *	table_column(t, "MAX", "max_ns", TABLE_RIGHT);
 *	table_row(t);
 *	table_u64(t, 4242);
 *	table_duration(t, 48120000);
 *	table_print(t, stdout, csv);
 *	table_free(t);
 */
#ifndef SCHEDREC_TABLE_H
#define SCHEDREC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

enum table_align {
	TABLE_LEFT,
	TABLE_RIGHT,
	TABLE_CSV_ONLY,		/* a column only CSV has */
};

struct table;

struct table *table_new(void);
void table_free(struct table *t);

/* A column: its heading in text, its name in CSV. */
void table_column(struct table *t, const char *heading, const char *name,
		  enum table_align align);

/* Start a row; the cells that follow fill it left to right. */
void table_row(struct table *t);

/* A cell with its text and CSV forms. */
void table_cell(struct table *t, const char *text, const char *csv);
/* The same text in both. */
void table_str(struct table *t, const char *s);
__printf(2, 3)
void table_strf(struct table *t, const char *fmt, ...);
void table_u64(struct table *t, uint64_t v);
/* Nanoseconds: "48.120 ms" / "48120000". */
void table_duration(struct table *t, uint64_t ns);
/* The same, "~48.120 ms" in text if it may rest on lost events. */
void table_duration_mark(struct table *t, uint64_t ns, bool uncertain);
/* Seconds since the start: "12.345678" / "12.345678901". */
void table_seconds(struct table *t, int64_t ns);
/* A fraction: "99.5%" / "0.995000". */
void table_share(struct table *t, double fraction);
/* An empty cell ("-" in text). */
void table_none(struct table *t);

size_t table_rows(const struct table *t);
size_t table_nr_columns(const struct table *t);
/* Column @col's CSV name. */
const char *table_column_name(const struct table *t, size_t col);
/* The CSV form of the cell at @row, @col ("" if it was left empty). */
const char *table_csv_cell(const struct table *t, size_t row, size_t col);

/* 0, -ENOMEM if a cell could not be stored, or -errno of a write error. */
int table_print(const struct table *t, FILE *f, bool csv);

/*
 * 0, or what failed a write to @f (ferror()) as -errno: -ENOSPC, -EPIPE...
 * (what is left in its buffer is written again to tell); -EIO when that is
 * not known.
 */
int stream_error(FILE *f);

/* A CSV field, quoted if it must be. */
void csv_field(FILE *f, const char *s);

/*
 * @text into @out (4 * strlen(@text) + 1 bytes at most) with each control
 * byte, and each byte that is not part of a UTF-8 character, as \xNN, as
 * table cells show it: a thread may name itself with a newline or a tab,
 * which would break the lines of a text output, or with bytes a terminal
 * would show as it likes.  @out.
 */
char *text_escape(char *out, const char *text);

#endif /* SCHEDREC_TABLE_H */
