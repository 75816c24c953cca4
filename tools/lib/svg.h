/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg: self-contained SVG charts for the reports (no script, no external
 * font or style: every picture opens as a file in any browser).  Every
 * drawn value is a shape with a <title> child, so hovering shows the exact
 * value; labels that do not fit are shortened with an ellipsis and stay
 * whole in the tooltip.  Charts are 1200 px wide unless told otherwise.
 *
 * Low level: svg_open() / svg_rect() / svg_text() / svg_close() write
 * elements to a FILE.  High level: a chart is filled, then drawn:
 *
 *	struct svg_bars *b = svg_bars_new("Off-CPU time by state", "ms");
 *
 *	svg_bars_key(b, 'S', "S sleeping", SVG_GREEN);
 *	row = svg_bars_row(b, "app 4242");
 *	svg_bars_add(b, row, 'S', 12.5, "app 4242: S 12.500 ms (40.1 %)");
 *	svg_bars_write(b, file, &(struct svg_frame){ .subtitle = "run.srec" });
 *	svg_bars_free(b);
 */
#ifndef SCHEDREC_SVG_H
#define SCHEDREC_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* Colours as 0xRRGGBB. */
#define SVG_RED		0xd62728	/* R: runnable, waiting for a CPU */
#define SVG_GREEN	0x2ca02c	/* S: sleeping */
#define SVG_YELLOW	0xe8c31a	/* D: uninterruptible */
#define SVG_GREY	0x9a9a9a	/* other states */
#define SVG_LIGHTGREY	0xd0d0d0	/* I: idle kernel threads, idle CPU */
#define SVG_BLUE	0x1f77b4	/* on CPU */

/* The colour of state letter @state (R S D I, else grey). */
uint32_t svg_state_colour(char state);

/* The @i-th of a palette of distinct colours (CPUs, processes). */
uint32_t svg_palette(unsigned int i);

/* A stable colour for @key (a pid, a name hash): same key, same colour. */
uint32_t svg_hash_colour(uint64_t key);

/* @hue in degrees, @saturation and @lightness in 0..1, as 0xRRGGBB. */
uint32_t svg_hsl(double hue, double saturation, double lightness);

/*
 * Write @s with &, <, >, " and ' escaped, and control bytes dropped (bytes
 * that are not UTF-8, such as a name cut in a character, become U+FFFD).
 */
void svg_escape(FILE *f, const char *s);

/*
 * As svg_escape(), shortened with an ellipsis to fit @max_width px at font
 * @size (the estimate of svg_text_fit()); nothing if not even the
 * ellipsis fits.  Returns the characters written, the ellipsis included.
 */
size_t svg_escape_fit(FILE *f, const char *s, unsigned int size,
		      double max_width);

/* Elements.  @title (tooltip) may be NULL. */
void svg_open(FILE *f, unsigned int width, unsigned int height,
	      const char *title);
void svg_close(FILE *f);
void svg_rect(FILE *f, double x, double y, double w, double h,
	      uint32_t colour, const char *title);
/* @anchor: "start", "middle" or "end". */
void svg_text(FILE *f, double x, double y, unsigned int size,
	      const char *anchor, const char *text, const char *title);
/*
 * As svg_text(), shortened with an ellipsis to fit @max_width px (a
 * character taken as 0.6 x @size wide); when shortened, the tooltip is
 * @title or else the whole @text.  Nothing is drawn if not even the
 * ellipsis fits.
 */
void svg_text_fit(FILE *f, double x, double y, unsigned int size,
		  const char *anchor, const char *text, double max_width,
		  const char *title);

/* What every chart has around it. */
struct svg_frame {
	const char *subtitle;	/* e.g. the trace and the window */
	const char *warning;	/* e.g. the loss warning: shown in red on top */
	unsigned int width;	/* 0: 1200 */
};

/*
 * For charts drawn by hand with the elements above: the title, subtitle
 * and warning every chart has on top.  svg_header_height() is where the
 * drawing under them may start, px from the top; svg_header_draw() draws
 * them, right after svg_open().  Both for a page @frame->width wide (0:
 * 1200, at least 400).
 */
double svg_header_height(const char *title, const struct svg_frame *frame);
void svg_header_draw(FILE *f, const char *title,
		     const struct svg_frame *frame);

/* A line 1 px wide. */
/*
 * The steps of a chart's ticks: 1, 2, 5, 10, 20, 50, ..., @mantissa (1, 2
 * or 5) times ten to @exponent; svg_step_next() moves to the next one.
 */
struct svg_step {
	unsigned int mantissa;
	int exponent;
};

void svg_step_next(struct svg_step *s);

void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      uint32_t colour);

/*
 * Building a chart: values that are not finite or not above 0 draw nothing
 * (and a key, series or line with nothing drawn stays out of the legend).
 * A function that returns an index returns SVG_NONE when out of memory; the
 * calls given SVG_NONE do nothing, and the chart's *_write returns the
 * first error: -ENOMEM, or -EINVAL for an index never returned.  The *_new
 * functions return NULL when out of memory, and every function takes NULL
 * (the *_write then returns -ENOMEM).
 */
#define SVG_NONE	((size_t)-1)

/*
 * Horizontal stacked bars, one row per thread (or CPU), like grav's
 * scheduling-profile: each row's segments are drawn left to right in the
 * order of the keys, widths proportional to their values on a common
 * scale (the largest row total fills the plot), with an x axis labelled in
 * @unit and a legend of the keys that were used.  Rows are drawn in the
 * order they were added, each with its total after its bar, room kept
 * for the widest.  A @unit of time (ns, us, ms or s) is a time: the axis
 * is in the unit that suits the largest total (s from 1000 ms), and
 * totals are written as the text tables write times ("20.532 s").
 */
struct svg_bars;

struct svg_bars *svg_bars_new(const char *title, const char *unit);
void svg_bars_free(struct svg_bars *b);
/* Declare a segment kind: its key, its legend label, its colour. */
void svg_bars_key(struct svg_bars *b, int key, const char *label,
		  uint32_t colour);
/* Add a row labelled @label; returns its index. */
size_t svg_bars_row(struct svg_bars *b, const char *label);
/*
 * Each row holds one value, a maximum (offcpu's longest interval): the
 * tooltips of rows and legend keys tell the largest, not a sum.
 */
void svg_bars_maxima(struct svg_bars *b);
/* Row @row's value may rest on lost events: "~" before it, as in text. */
void svg_bars_mark(struct svg_bars *b, size_t row);
/*
 * Add @value to the segment @key of row @row, with a tooltip (NULL: keep
 * the one it had, or "row: key: value unit").  A key not declared is
 * declared with its letter (or number) as label and svg_hash_colour().
 */
void svg_bars_add(struct svg_bars *b, size_t row, int key, double value,
		  const char *title);
/* 0, or -errno (ENOMEM, or the write error). */
int svg_bars_write(const struct svg_bars *b, FILE *f,
		   const struct svg_frame *frame);

/*
 * A histogram with vertical bars: one bar per bucket, labelled under the
 * axis (e.g. "1-2 ms"); several series may share the buckets (drawn side by
 * side, with a legend).
 */
struct svg_hist;

struct svg_hist *svg_hist_new(const char *title, const char *y_unit);
void svg_hist_free(struct svg_hist *h);
/* Declare a series; returns its index. */
size_t svg_hist_series(struct svg_hist *h, const char *label,
		       uint32_t colour);
/* Add a bucket labelled @label; returns its index. */
size_t svg_hist_bucket(struct svg_hist *h, const char *label);
/* Set (not add) a bar's value; @title NULL: "series: bucket: value unit" */
void svg_hist_set(struct svg_hist *h, size_t series, size_t bucket,
		  double value, const char *title);
int svg_hist_write(const struct svg_hist *h, FILE *f,
		   const struct svg_frame *frame);

/*
 * A time series: x in seconds from the start of the recording, y in
 * @y_unit; each point is drawn as a bar from the axis (one per interval)
 * with its tooltip.  Several series share the axes, with a legend.
 */
struct svg_series;

struct svg_series *svg_series_new(const char *title, const char *y_unit);
void svg_series_free(struct svg_series *s);
size_t svg_series_line(struct svg_series *s, const char *label,
		       uint32_t colour);
/*
 * A point of series @line covering [@x, @x + @width) seconds (the lines'
 * bars side by side in it, each at least a pixel wide).
 */
void svg_series_point(struct svg_series *s, size_t line, double x,
		      double width, double y, const char *title);
int svg_series_write(const struct svg_series *s, FILE *f,
		     const struct svg_frame *frame);

#endif /* SCHEDREC_SVG_H */
