/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htmlpage: what `schedrec report html` (tools/html.c) builds its page
 * from: the reports' CSV files read back and written as HTML tables, their
 * SVG files inlined or sized for an <object>, and the page's own style
 * sheet and script.  Nothing here fetches anything: the page works from
 * file:// with no network.
 */
#ifndef SCHEDREC_HTMLPAGE_H
#define SCHEDREC_HTMLPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A CSV file (RFC 4180, as table.c writes them), read a row at a time. */
struct csv_reader {
	FILE *f;
	char *buf;		/* the fields of the row, NUL after each */
	size_t len, cap;
	size_t *starts;		/* of each field in buf */
	size_t nr_fields, cap_fields;
};

/* 0, or -errno. */
int csvin_open(struct csv_reader *c, const char *path);
/* The next row: 1 (csvin_field() has its fields), 0 at the end, -errno. */
int csvin_next(struct csv_reader *c);
/* Field @i of the row, "" past its last. */
const char *csvin_field(const struct csv_reader *c, size_t i);
void csvin_close(struct csv_reader *c);

/*
 * @s with &, <, >, " and ' escaped, for text and attribute values; new
 * lines kept, other control bytes dropped, bytes that are not UTF-8
 * replaced (svg_escape()).
 */
void html_escape(FILE *f, const char *s);

/*
 * The CSV file @path as <table class="data sortable" id="@id">: a column
 * per CSV column, headed by a readable name (data-col: the CSV name), the
 * first @max_rows rows (0: all).  Durations (*_ns) show with a unit,
 * shares (*_share) as percentages, times (*_s) with 6 decimals; such a
 * cell keeps the CSV's exact value in data-v.  *@rows: the rows the file
 * has.  0, or -errno.
 */
int html_csv_table(FILE *out, const char *path, const char *id,
		   size_t max_rows, size_t *rows);

/* The width and height of the SVG file @path (its root's); 0 or -errno. */
int html_svg_size(const char *path, unsigned int *width,
		  unsigned int *height);

/*
 * Copy the SVG file @path into the page as an inline <svg>, with
 * id="@id" and class="@cls": without its XML declaration and namespace
 * attribute (HTML needs neither).  0, or -errno.
 */
int html_inline_svg(FILE *out, const char *path, const char *id,
		    const char *cls);

/* An <object> showing the SVG file @src (relative to the page) of @path. */
void html_svg_object(FILE *out, const char *src, const char *path,
		     const char *id);

/* The page's style sheet and script, to put in <style> and <script>. */
extern const char html_page_style[];
extern const char html_page_script[];

#endif /* SCHEDREC_HTMLPAGE_H */
