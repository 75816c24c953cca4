/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htmlpage: what `schedrec report html` (tools/html.c) builds its page
 * from: the reports' tables written as HTML tables, their SVG files
 * inlined or sized for an <object>, and the page's own style sheet and
 * script.  Nothing here fetches anything: the page works from file://
 * with no network.
 */
#ifndef SCHEDREC_HTMLPAGE_H
#define SCHEDREC_HTMLPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "table.h"

/*
 * @s with &, <, >, " and ' escaped, for text and attribute values; new
 * lines kept, other control bytes dropped, bytes that are not UTF-8
 * replaced (svg_escape()).
 */
void html_escape(FILE *f, const char *s);

/*
 * Table @tab as <table class="data sortable" id="@id">: a column per CSV
 * column, headed by a readable name of its CSV name (data-col), the first
 * @max_rows rows (0: all).  Durations (*_ns) show with a unit, shares
 * (*_share) as percentages, times (*_s) with 6 decimals; such a cell keeps
 * its CSV value, exact, in data-v.  The rows @tab has.
 */
size_t html_table(FILE *out, const struct table *tab, const char *id,
		  size_t max_rows);

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
