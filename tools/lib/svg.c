// SPDX-License-Identifier: GPL-2.0
/*
 * svg: the charts of the reports, written as plain SVG elements with no
 * script, style sheet or font of their own, so that a chart opens in any
 * browser and travels as one file.
 *
 * Text is measured by estimate, not by a font: a character is taken to be
 * 0.6 of the font size wide, which is generous for the common sans-serif
 * fonts, so a label estimated to fit does fit.  What is shortened to fit
 * keeps its whole text in a tooltip.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "timefmt.h"
#include "utf8.h"

#define DEFAULT_WIDTH	1200
#define MIN_WIDTH	400	/* below this the plots have no room */
#define MARGIN		10
#define CHAR_EM		0.6	/* a character's width, in font sizes */

#define TITLE_SIZE	16
#define SUBTITLE_SIZE	12
#define WARNING_SIZE	13
#define WARNING_LINES	4	/* more is cut: the tooltip has it all */
#define LABEL_SIZE	12
#define TICK_SIZE	11
#define NO_DATA_SIZE	14

#define ROW_HEIGHT	20
#define BAR_HEIGHT	14
#define TOTAL_GAP	4	/* between a bar and its total */
#define TOTAL_WIDTH	40	/* right of the bars for the totals, at least */
#define PLOT_HEIGHT	320	/* of histograms and time series */
#define TICK_GAP_X	80	/* the least distance between ticks, px */
#define TICK_GAP_Y	40
#define AXIS_BAND	44	/* under an x axis: tick labels, caption */
#define LEGEND_LINE	18
#define LEGEND_LABEL	300	/* the widest legend label, px */
#define ROTATED_LABEL	140	/* the longest slanted label, px */

#define TEXT_COLOUR	0x222222
#define MUTED_COLOUR	0x555555
#define WARNING_COLOUR	0xc00000
#define GRID_COLOUR	0xe0e0e0
#define AXIS_COLOUR	0x444444
#define BACKGROUND	0xffffff

#define ELLIPSIS	"\xe2\x80\xa6"
#define REPLACEMENT	"\xef\xbf\xbd"	/* U+FFFD, for bytes that are not UTF-8 */

/* A legend entry: a key of a bar chart, a histogram's or time series'. */
struct legend_key {
	int key;
	char *label;
	uint32_t colour;
	double total;		/* of the values drawn in this colour */
	double max;
};

struct bar_segment {
	size_t key;		/* index in svg_bars.keys */
	double value;
	char *title;
};

struct bar_row {
	char *label;
	struct bar_segment *segments;	/* in the order of their keys */
	size_t nr_segments, segments_cap;
	double total;
	bool marked;			/* "~" before its total */
};

struct svg_bars {
	char *title;
	char *unit;
	struct legend_key *keys;
	size_t nr_keys, keys_cap;
	struct bar_row *rows;
	size_t nr_rows, rows_cap;
	bool maxima;		/* a row's value is a maximum, not a sum */
	int err;		/* the first error, returned by the write */
};

struct hist_cell {
	double value;
	char *title;
};

struct hist_bucket {
	char *label;
	struct hist_cell *cells;	/* by series */
	size_t cells_cap;
};

struct svg_hist {
	char *title;
	char *unit;
	struct legend_key *series;
	size_t nr_series, series_cap;
	struct hist_bucket *buckets;
	size_t nr_buckets, buckets_cap;
	int err;
};

struct series_point {
	size_t line;
	double x, width, y;
	char *title;
};

struct svg_series {
	char *title;
	char *unit;
	struct legend_key *lines;
	size_t nr_lines, lines_cap;
	struct series_point *points;
	size_t nr_points, points_cap;
	int err;
};

/*
 * @array grown to hold @need elements of @size bytes, the new ones zeroed:
 * the new array, or NULL with the old one untouched.
 */
static void *reserve(void *array, size_t *cap, size_t need, size_t size)
{
	size_t new_cap = *cap ? *cap : 8;
	char *grown;

	if (need <= *cap)
		return array;
	while (new_cap < need)
		new_cap *= 2;
	grown = reallocarray(array, new_cap, size);
	if (!grown)
		return NULL;
	memset(grown + *cap * size, 0, (new_cap - *cap) * size);
	*cap = new_cap;
	return grown;
}

/* Keep the first error only: it is the cause, the others its echoes. */
static size_t fail(int *err, int error)
{
	if (!*err)
		*err = error;
	return SVG_NONE;
}

/* *@dst = a copy of @src (NULL stays NULL); 0 or -ENOMEM, *@dst unchanged */
static int copy_string(char **dst, const char *src)
{
	char *copy = NULL;

	if (src) {
		copy = strdup(src);
		if (!copy)
			return -ENOMEM;
	}
	free(*dst);
	*dst = copy;
	return 0;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static double max_double(double a, double b)
{
	return a > b ? a : b;
}

static double min_double(double a, double b)
{
	return a < b ? a : b;
}

/* A value the charts can draw: finite and above 0. */
static bool drawable(double value)
{
	return isfinite(value) && value > 0;
}

/*
 * The length of the UTF-8 character at @s (at most @avail bytes), or 0 if
 * the bytes there are not one that XML allows: U+FFFE and U+FFFF are not.
 */
static size_t xml_char_len(const unsigned char *s, size_t avail)
{
	size_t n = utf8_len(s, avail);

	if (n == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return n;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/*
 * Write up to @max characters of @s (@len bytes) escaped: control bytes
 * dropped, bytes that are not UTF-8 written as U+FFFD.
 */
static void escape_span(FILE *f, const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	size_t chars = 0, n;

	while (p < end && chars < max) {
		if (is_control(*p)) {
			p++;
			continue;
		}
		chars++;
		n = xml_char_len(p, end - p);
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			if (n)
				fwrite(p, 1, n, f);
			else
				fputs(REPLACEMENT, f);
		}
		p += n ? n : 1;
	}
}

/* The characters escape_span() would write of @s (@len bytes). */
static size_t count_chars(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	size_t chars = 0, n;

	while (p < end) {
		n = xml_char_len(p, end - p);
		if (!is_control(*p))
			chars++;
		p += n ? n : 1;
	}
	return chars;
}

void svg_escape(FILE *f, const char *s)
{
	if (s)
		escape_span(f, s, strlen(s), SIZE_MAX);
}

static double text_width(const char *s, unsigned int size)
{
	return count_chars(s, strlen(s)) * CHAR_EM * size;
}

/* How many characters of font @size fit in @px. */
static size_t fit_chars(unsigned int size, double px)
{
	return px > 0 ? (size_t)(px / (CHAR_EM * size)) : 0;
}

size_t svg_escape_fit(FILE *f, const char *s, unsigned int size,
		      double max_width)
{
	size_t len = strlen(s), chars = count_chars(s, len);
	size_t fit = fit_chars(size, max_width);

	if (chars <= fit) {
		escape_span(f, s, len, SIZE_MAX);
		return chars;
	}
	if (!fit)
		return 0;
	escape_span(f, s, len, fit - 1);
	fputs(ELLIPSIS, f);
	return fit;
}

/* @v with at most 2 decimals and no trailing zeros: attribute values */
static void format_number(char *buf, size_t size, double v)
{
	char *end;

	if (!isfinite(v))
		v = 0;
	snprintf(buf, size, "%.2f", v);
	end = buf + strlen(buf);
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		*--end = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
}

/* @v for people: up to 3 decimals, no trailing zeros, %g when tiny/huge */
static void format_value(char *buf, size_t size, double v)
{
	double a = fabs(v);
	char *end;

	if (a != 0 && (a < 1e-3 || a >= 1e15)) {
		snprintf(buf, size, "%g", v);
		return;
	}
	snprintf(buf, size, "%.3f", v);
	end = buf + strlen(buf);
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		*--end = '\0';
}

static void put_number(FILE *f, const char *name, double v)
{
	char buf[64];

	format_number(buf, sizeof(buf), v);
	fprintf(f, " %s=\"%s\"", name, buf);
}

static void put_colour(FILE *f, const char *name, uint32_t colour)
{
	fprintf(f, " %s=\"#%06x\"", name, colour & 0xffffff);
}

static void put_title(FILE *f, const char *title)
{
	fputs("<title>", f);
	svg_escape(f, title);
	fputs("</title>", f);
}

/* A tooltip "@who: @what: @value @unit", leaving out what is empty. */
/* "<title>WHO: WHAT: TEXT</title>", WHO and WHAT left out when empty. */
static void put_text_title(FILE *f, const char *who, const char *what,
			   const char *text)
{
	fputs("<title>", f);
	if (who && *who) {
		svg_escape(f, who);
		fputs(": ", f);
	}
	if (what && *what) {
		svg_escape(f, what);
		fputs(": ", f);
	}
	svg_escape(f, text);
	fputs("</title>", f);
}

static void put_value_title(FILE *f, const char *who, const char *what,
			    double value, const char *unit)
{
	char number[64], text[192];

	format_value(number, sizeof(number), value);
	snprintf(text, sizeof(text), "%s%s%s", number,
		 unit && *unit ? " " : "", unit ? unit : "");
	put_text_title(f, who, what, text);
}

uint32_t svg_state_colour(char state)
{
	switch (state) {
	case 'R':
		return SVG_RED;
	case 'S':
		return SVG_GREEN;
	case 'D':
		return SVG_YELLOW;
	case 'I':
		return SVG_LIGHTGREY;
	default:
		return SVG_GREY;
	}
}

static uint32_t colour_channel(double v)
{
	return (uint32_t)(min_double(max_double(v, 0), 1) * 255 + 0.5);
}

/* Hue @h in degrees, saturation @s and lightness @l in 0..1 to 0xRRGGBB. */
static uint32_t colour_hsl(double h, double s, double l)
{
	double c = (1 - fabs(2 * l - 1)) * s;
	double sector = fmod(h, 360) / 60;
	double x = c * (1 - fabs(fmod(sector, 2) - 1));
	double m = l - c / 2;
	double rgb[3] = { 0, 0, 0 };

	switch ((int)sector) {
	case 0:
		rgb[0] = c, rgb[1] = x;
		break;
	case 1:
		rgb[0] = x, rgb[1] = c;
		break;
	case 2:
		rgb[1] = c, rgb[2] = x;
		break;
	case 3:
		rgb[1] = x, rgb[2] = c;
		break;
	case 4:
		rgb[0] = x, rgb[2] = c;
		break;
	default:
		rgb[0] = c, rgb[2] = x;
	}
	return colour_channel(rgb[0] + m) << 16 |
	       colour_channel(rgb[1] + m) << 8 | colour_channel(rgb[2] + m);
}

uint32_t svg_hsl(double hue, double saturation, double lightness)
{
	return colour_hsl(fmod(fmod(hue, 360) + 360, 360), saturation,
			  lightness);
}

uint32_t svg_palette(unsigned int i)
{
	static const uint32_t first[] = {
		0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
		0x8c564b, 0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f,
	};

	if (i < ARRAY_SIZE(first))
		return first[i];
	/*
	 * The golden angle spreads any number of hues with no two neighbours
	 * alike; the lightness changes every turn of ten so that hues that
	 * come round again still differ.
	 */
	return colour_hsl(fmod(i * 137.508, 360), 0.65,
			  0.38 + 0.14 * (i / 10 % 3));
}

uint32_t svg_hash_colour(uint64_t key)
{
	/* splitmix64's finaliser: neighbouring keys land far apart */
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	/* dark and light enough for black text and white gaps */
	return colour_hsl(key % 360, 0.5 + (key >> 16) % 30 / 100.0,
			  0.42 + (key >> 24) % 18 / 100.0);
}

void svg_open(FILE *f, unsigned int width, unsigned int height,
	      const char *title)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
		" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\""
		" font-family=\"sans-serif\">\n", width, height, width, height);
	if (title) {
		put_title(f, title);
		fputc('\n', f);
	}
	/* an opaque page: charts stay readable on a dark viewer */
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#%06x\"/>\n",
		BACKGROUND);
}

void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
}

/* "<rect ..." left open for a title or "/>" */
static void rect_begin(FILE *f, double x, double y, double w, double h,
		       uint32_t colour)
{
	fputs("<rect", f);
	put_number(f, "x", x);
	put_number(f, "y", y);
	put_number(f, "width", w);
	put_number(f, "height", h);
	put_colour(f, "fill", colour);
}

void svg_rect(FILE *f, double x, double y, double w, double h,
	      uint32_t colour, const char *title)
{
	rect_begin(f, x, y, w, h, colour);
	if (!title) {
		fputs("/>\n", f);
		return;
	}
	fputc('>', f);
	put_title(f, title);
	fputs("</rect>\n", f);
}

static void draw_line(FILE *f, double x1, double y1, double x2, double y2,
		      uint32_t colour)
{
	fputs("<line", f);
	put_number(f, "x1", x1);
	put_number(f, "y1", y1);
	put_number(f, "x2", x2);
	put_number(f, "y2", y2);
	put_colour(f, "stroke", colour);
	fputs("/>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      uint32_t colour)
{
	draw_line(f, x1, y1, x2, y2, colour);
}

struct text_style {
	unsigned int size;
	const char *anchor;	/* "start", "middle", "end"; NULL: start */
	uint32_t colour;
	bool bold;
	bool tick;		/* an axis' tick label: class="tick" */
	int rotate;		/* degrees clockwise about (x, y) */
};

/*
 * A <text> of the first @keep characters of @s (@len bytes), then an
 * ellipsis if @cut, with the tooltip @title (NULL: none).
 */
static void text_element(FILE *f, const struct text_style *st, double x,
			 double y, const char *s, size_t len, size_t keep,
			 bool cut, const char *title)
{
	const char *anchor = st->anchor ? st->anchor : "start";
	char cx[64], cy[64];

	fputs("<text", f);
	put_number(f, "x", x);
	put_number(f, "y", y);
	fprintf(f, " font-size=\"%u\"", st->size);
	/* only the three known words: @anchor goes out unescaped */
	if (!strcmp(anchor, "middle") || !strcmp(anchor, "end"))
		fprintf(f, " text-anchor=\"%s\"", anchor);
	put_colour(f, "fill", st->colour);
	if (st->bold)
		fputs(" font-weight=\"bold\"", f);
	if (st->tick)
		fputs(" class=\"tick\"", f);
	if (st->rotate) {
		format_number(cx, sizeof(cx), x);
		format_number(cy, sizeof(cy), y);
		fprintf(f, " transform=\"rotate(%d %s %s)\"", st->rotate, cx,
			cy);
	}
	fputc('>', f);
	if (title)
		put_title(f, title);
	escape_span(f, s, len, keep);
	if (cut)
		fputs(ELLIPSIS, f);
	fputs("</text>\n", f);
}

/*
 * @s as a <text>, shortened with an ellipsis to fit @max_px; when
 * shortened, its tooltip is @title or else the whole of @s.  Nothing is
 * drawn where not even the ellipsis fits.
 */
static void text_fit(FILE *f, const struct text_style *st, double x, double y,
		     const char *s, double max_px, const char *title)
{
	size_t len = strlen(s);
	size_t fit = fit_chars(st->size, max_px);

	if (count_chars(s, len) <= fit)
		text_element(f, st, x, y, s, len, SIZE_MAX, false, title);
	else if (fit)
		text_element(f, st, x, y, s, len, fit - 1, true,
			     title ? title : s);
}

void svg_text(FILE *f, double x, double y, unsigned int size,
	      const char *anchor, const char *text, const char *title)
{
	const struct text_style st = {
		.size = size, .anchor = anchor, .colour = TEXT_COLOUR,
	};
	const char *s = or_empty(text);

	text_element(f, &st, x, y, s, strlen(s), SIZE_MAX, false, title);
}

void svg_text_fit(FILE *f, double x, double y, unsigned int size,
		  const char *anchor, const char *text, double max_width,
		  const char *title)
{
	const struct text_style st = {
		.size = size, .anchor = anchor, .colour = TEXT_COLOUR,
	};

	text_fit(f, &st, x, y, or_empty(text), max_width, title);
}

struct span {
	const char *s;
	size_t len;
};

/*
 * Split @s into lines of at most @cap characters, at newlines and at
 * spaces where it can (a longer word is cut); fill up to @max of them in
 * @lines and return how many there are in all.
 */
static size_t wrap_text(const char *s, size_t cap, struct span *lines,
			size_t max)
{
	const unsigned char *p, *cut, *end;
	size_t count = 0, chars, n;

	if (!cap)
		cap = 1;
	while (*s) {
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		p = (const unsigned char *)s;
		cut = NULL;
		chars = 0;
		while (*p && *p != '\n') {
			/* 4: a NUL stops xml_char_len() before the end */
			n = xml_char_len(p, 4);
			if (!is_control(*p)) {
				if (chars == cap)
					break;
				chars++;
			}
			if (*p == ' ')
				cut = p;
			p += n ? n : 1;
		}
		end = *p && *p != '\n' && *p != ' ' && cut ? cut : p;
		if (count < max) {
			lines[count].s = s;
			lines[count].len = (const char *)end - s;
		}
		count++;
		s = (const char *)end;
	}
	return count;
}

/* The title, subtitle and warning above every chart. */
struct header {
	unsigned int width;
	const char *title;
	const char *subtitle;		/* NULL: none */
	const char *warning;		/* NULL: none */
	struct span warning_lines[WARNING_LINES];
	size_t nr_warning_lines;	/* drawn */
	bool warning_cut;		/* more than drawn: an ellipsis */
	double height;
};

static void header_plan(struct header *h, const char *title,
			const struct svg_frame *frame)
{
	size_t lines;

	memset(h, 0, sizeof(*h));
	h->width = DEFAULT_WIDTH;
	if (frame && frame->width)
		h->width = frame->width > MIN_WIDTH ? frame->width : MIN_WIDTH;
	h->title = or_empty(title);
	if (frame && frame->subtitle && *frame->subtitle)
		h->subtitle = frame->subtitle;
	if (frame && frame->warning && *frame->warning)
		h->warning = frame->warning;

	h->height = MARGIN + TITLE_SIZE + 6;
	if (h->subtitle)
		h->height += SUBTITLE_SIZE + 6;
	if (h->warning) {
		lines = wrap_text(h->warning,
				  fit_chars(WARNING_SIZE,
					    h->width - 2 * MARGIN),
				  h->warning_lines, WARNING_LINES);
		h->nr_warning_lines = lines < WARNING_LINES ?
				      lines : WARNING_LINES;
		h->warning_cut = lines > WARNING_LINES;
		h->height += h->nr_warning_lines * (WARNING_SIZE + 4);
	}
	h->height += 8;
}

static void header_draw(FILE *f, const struct header *h)
{
	const struct text_style title = {
		.size = TITLE_SIZE, .anchor = "middle",
		.colour = TEXT_COLOUR, .bold = true,
	};
	const struct text_style subtitle = {
		.size = SUBTITLE_SIZE, .anchor = "middle",
		.colour = MUTED_COLOUR,
	};
	const struct text_style warning = {
		.size = WARNING_SIZE, .anchor = "middle",
		.colour = WARNING_COLOUR, .bold = true,
	};
	double mid = h->width / 2.0, room = h->width - 2 * MARGIN;
	double y = MARGIN + TITLE_SIZE;
	const struct span *l;
	size_t i, keep;
	bool cut;

	text_fit(f, &title, mid, y, h->title, room, NULL);
	y += 6;
	if (h->subtitle) {
		y += SUBTITLE_SIZE;
		text_fit(f, &subtitle, mid, y, h->subtitle, room, NULL);
		y += 6;
	}
	for (i = 0; i < h->nr_warning_lines; i++) {
		l = &h->warning_lines[i];
		keep = SIZE_MAX;
		cut = h->warning_cut && i == h->nr_warning_lines - 1;
		if (cut)
			keep = fit_chars(WARNING_SIZE, room) - 1;
		y += WARNING_SIZE;
		text_element(f, &warning, mid, y, l->s, l->len, keep, cut,
			     h->warning);
		y += 4;
	}
}

double svg_header_height(const char *title, const struct svg_frame *frame)
{
	struct header h;

	header_plan(&h, title, frame);
	return h.height;
}

void svg_header_draw(FILE *f, const char *title,
		     const struct svg_frame *frame)
{
	struct header h;

	header_plan(&h, title, frame);
	header_draw(f, &h);
}

/* 0, or -errno if anything written to @f was lost. */
static int finish(FILE *f)
{
	if (fflush(f) == EOF || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

static int write_empty(FILE *f, const struct header *h)
{
	const struct text_style st = {
		.size = NO_DATA_SIZE, .anchor = "middle",
		.colour = MUTED_COLOUR,
	};

	svg_open(f, h->width, h->height + 40, h->title);
	header_draw(f, h);
	text_fit(f, &st, h->width / 2.0, h->height + 20, "no data",
		 h->width - 2 * MARGIN, NULL);
	svg_close(f);
	return finish(f);
}

/* Ticks at multiples of a 1-2-5 step: first * step, ... */
struct ticks {
	double step;
	int decimals;		/* that the step's multiples need */
	long long first;
	long long count;
};

void svg_step_next(struct svg_step *s)
{
	if (s->mantissa < 5) {
		s->mantissa = s->mantissa == 1 ? 2 : 5;
		return;
	}
	s->mantissa = 1;
	s->exponent++;
}

static void ticks_set(struct ticks *t, const struct svg_step *s, double lo,
		      double hi)
{
	t->step = s->mantissa * pow(10, s->exponent);
	t->decimals = s->exponent < 0 ? -s->exponent : 0;
	t->first = (long long)ceil(lo / t->step - 1e-9);
	t->count = (long long)floor(hi / t->step + 1e-9) - t->first + 1;
	if (t->count < 0)
		t->count = 0;
}

static int tick_label(char *buf, size_t size, const struct ticks *t,
		      long long i)
{
	double v = (t->first + i) * t->step;

	return snprintf(buf, size, "%.*f", t->decimals, v == 0 ? 0 : v);
}

/* The widest tick label, px. */
static double ticks_label_width(const struct ticks *t)
{
	char buf[64];
	int a, b;

	if (!t->count)
		return 0;
	a = tick_label(buf, sizeof(buf), t, 0);
	b = tick_label(buf, sizeof(buf), t, t->count - 1);
	return (a > b ? a : b) * CHAR_EM * TICK_SIZE;
}

/*
 * The smallest 1-2-5 step that puts ticks of [@lo, @hi] drawn on @px
 * pixels at least @gap px apart and, on an x axis (@labels_across), far
 * enough apart for their labels.
 */
static void ticks_choose(struct ticks *t, double lo, double hi, double px,
			 double gap, bool labels_across)
{
	double least = (hi - lo) * gap / px;
	struct svg_step s = { 1, (int)floor(log10(least)) };
	unsigned int tries;

	for (tries = 0; tries < 64; tries++, svg_step_next(&s)) {
		ticks_set(t, &s, lo, hi);
		if (t->step >= least * (1 - 1e-9) &&
		    (!labels_across || t->count < 2 ||
		     ticks_label_width(t) + 8 <= t->step * px / (hi - lo)))
			return;
	}
}

/*
 * An x axis at @axis_y for [@lo, @hi] drawn from @x0 over @px, with grid
 * lines up to @top, tick labels and the @caption under it.
 */
static void x_axis(FILE *f, const struct ticks *t, double lo, double hi,
		   double x0, double px, double top, double axis_y,
		   const char *caption)
{
	const struct text_style label = {
		.size = TICK_SIZE, .anchor = "middle",
		.colour = TEXT_COLOUR, .tick = true,
	};
	const struct text_style muted = {
		.size = TICK_SIZE, .anchor = "middle",
		.colour = MUTED_COLOUR,
	};
	double scale = px / (hi - lo), x;
	char buf[64];
	long long i;

	for (i = 0; i < t->count; i++) {
		x = x0 + ((t->first + i) * t->step - lo) * scale;
		draw_line(f, x, top, x, axis_y, GRID_COLOUR);
		draw_line(f, x, axis_y, x, axis_y + 4, AXIS_COLOUR);
		tick_label(buf, sizeof(buf), t, i);
		text_fit(f, &label, x, axis_y + 15, buf,
			 max_double(t->step * scale - 4, TICK_GAP_X), NULL);
	}
	draw_line(f, x0, axis_y, x0 + px, axis_y, AXIS_COLOUR);
	if (caption && *caption)
		text_fit(f, &muted, x0 + px / 2, axis_y + 31, caption, px,
			 NULL);
}

/*
 * A y axis at @x0 for [0, @hi] drawn from @axis_y up over @px, with grid
 * lines across @width, tick labels left of it and @caption above it.
 */
static void y_axis(FILE *f, const struct ticks *t, double hi, double x0,
		   double width, double axis_y, double px, const char *caption)
{
	const struct text_style label = {
		.size = TICK_SIZE, .anchor = "end",
		.colour = TEXT_COLOUR, .tick = true,
	};
	const struct text_style muted = {
		.size = TICK_SIZE, .colour = MUTED_COLOUR,
	};
	double scale = px / hi, y;
	char buf[64];
	long long i;

	for (i = 0; i < t->count; i++) {
		y = axis_y - (t->first + i) * t->step * scale;
		draw_line(f, x0, y, x0 + width, y, GRID_COLOUR);
		draw_line(f, x0 - 4, y, x0, y, AXIS_COLOUR);
		tick_label(buf, sizeof(buf), t, i);
		text_fit(f, &label, x0 - 6, y + 4, buf, x0 - 6 - MARGIN,
			 NULL);
	}
	draw_line(f, x0, axis_y, x0, axis_y - px, AXIS_COLOUR);
	if (caption && *caption)
		text_fit(f, &muted, MARGIN, axis_y - px - 8, caption,
			 width + x0 - 2 * MARGIN, NULL);
}

struct legend {
	const struct legend_key *keys;
	size_t nr_keys;
	const char *unit;
	bool by_max;		/* the tooltip tells the largest value */
};

/*
 * The legend of the keys that were drawn, from @y down, flowing over lines
 * of @width; with @f NULL only measured.  Returns the lines it takes.
 */
static size_t legend_draw(FILE *f, const struct legend *lg, double y,
			  unsigned int width)
{
	const struct text_style st = {
		.size = LABEL_SIZE, .colour = TEXT_COLOUR,
	};
	const struct legend_key *k;
	double x = MARGIN, label, entry, top;
	size_t i, lines = 0;

	for (i = 0; i < lg->nr_keys; i++) {
		k = &lg->keys[i];
		if (!drawable(k->total))
			continue;
		label = min_double(text_width(k->label, LABEL_SIZE),
				   LEGEND_LABEL);
		entry = 16 + label + 18;
		if (!lines) {
			lines = 1;
		} else if (x + entry > width - MARGIN) {
			x = MARGIN;
			lines++;
		}
		if (f) {
			top = y + (lines - 1) * LEGEND_LINE;
			rect_begin(f, x, top, 12, 12, k->colour);
			fputc('>', f);
			put_value_title(f, k->label, lg->by_max ? "max" :
					"total", lg->by_max ? k->max : k->total,
					lg->unit);
			fputs("</rect>\n", f);
			text_fit(f, &st, x + 16, top + 11, k->label,
				 LEGEND_LABEL, NULL);
		}
		x += entry;
	}
	return lines;
}

static void legend_key_free(struct legend_key *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(keys[i].label);
	free(keys);
}

/* A new key at the end of @keys, or SVG_NONE if out of memory. */
static size_t legend_key_add(struct legend_key **keys, size_t *nr,
			     size_t *cap, int key, const char *label,
			     uint32_t colour)
{
	struct legend_key *grown = reserve(*keys, cap, *nr + 1,
					   sizeof(**keys));
	struct legend_key *k;

	if (!grown)
		return SVG_NONE;
	*keys = grown;
	k = &grown[*nr];
	memset(k, 0, sizeof(*k));
	if (copy_string(&k->label, or_empty(label)))
		return SVG_NONE;
	k->key = key;
	k->colour = colour;
	return (*nr)++;
}

struct svg_bars *svg_bars_new(const char *title, const char *unit)
{
	struct svg_bars *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	if (copy_string(&b->title, or_empty(title)) ||
	    copy_string(&b->unit, or_empty(unit))) {
		svg_bars_free(b);
		return NULL;
	}
	return b;
}

void svg_bars_free(struct svg_bars *b)
{
	size_t i, j;

	if (!b)
		return;
	for (i = 0; i < b->nr_rows; i++) {
		for (j = 0; j < b->rows[i].nr_segments; j++)
			free(b->rows[i].segments[j].title);
		free(b->rows[i].segments);
		free(b->rows[i].label);
	}
	free(b->rows);
	legend_key_free(b->keys, b->nr_keys);
	free(b->title);
	free(b->unit);
	free(b);
}

static size_t bars_key_index(const struct svg_bars *b, int key)
{
	size_t i;

	for (i = 0; i < b->nr_keys; i++)
		if (b->keys[i].key == key)
			return i;
	return SVG_NONE;
}

void svg_bars_key(struct svg_bars *b, int key, const char *label,
		  uint32_t colour)
{
	size_t i;

	if (!b)
		return;
	i = bars_key_index(b, key);
	if (i == SVG_NONE) {
		if (legend_key_add(&b->keys, &b->nr_keys, &b->keys_cap, key,
				   label, colour) == SVG_NONE)
			fail(&b->err, -ENOMEM);
		return;
	}
	if (copy_string(&b->keys[i].label, or_empty(label)))
		fail(&b->err, -ENOMEM);
	b->keys[i].colour = colour;
}

size_t svg_bars_row(struct svg_bars *b, const char *label)
{
	struct bar_row *rows;

	if (!b)
		return SVG_NONE;
	rows = reserve(b->rows, &b->rows_cap, b->nr_rows + 1, sizeof(*rows));
	if (!rows)
		return fail(&b->err, -ENOMEM);
	b->rows = rows;
	if (copy_string(&rows[b->nr_rows].label, or_empty(label)))
		return fail(&b->err, -ENOMEM);
	return b->nr_rows++;
}

/* Key @key's index, declaring it (named after itself) if it was not. */
static size_t bars_key_find(struct svg_bars *b, int key)
{
	size_t i = bars_key_index(b, key);
	char label[16];

	if (i != SVG_NONE)
		return i;
	if (key > ' ' && key < 0x7f)
		snprintf(label, sizeof(label), "%c", key);
	else
		snprintf(label, sizeof(label), "%d", key);
	return legend_key_add(&b->keys, &b->nr_keys, &b->keys_cap, key, label,
			      svg_hash_colour((uint64_t)key));
}

/* Row @row's segment of key index @key, made if it has none yet. */
static struct bar_segment *bars_segment(struct bar_row *row, size_t key)
{
	struct bar_segment *segments;
	size_t i;

	for (i = 0; i < row->nr_segments; i++) {
		if (row->segments[i].key == key)
			return &row->segments[i];
		if (row->segments[i].key > key)
			break;
	}
	segments = reserve(row->segments, &row->segments_cap,
			   row->nr_segments + 1, sizeof(*segments));
	if (!segments)
		return NULL;
	row->segments = segments;
	/* keep them in key order, the order they are drawn in */
	memmove(&segments[i + 1], &segments[i],
		(row->nr_segments - i) * sizeof(*segments));
	memset(&segments[i], 0, sizeof(*segments));
	segments[i].key = key;
	row->nr_segments++;
	return &segments[i];
}

void svg_bars_add(struct svg_bars *b, size_t row, int key, double value,
		  const char *title)
{
	struct bar_segment *segment;
	size_t k;

	if (!b)
		return;
	if (row >= b->nr_rows) {
		fail(&b->err, -EINVAL);
		return;
	}
	if (!drawable(value))
		return;
	k = bars_key_find(b, key);
	if (k == SVG_NONE) {
		fail(&b->err, -ENOMEM);
		return;
	}
	segment = bars_segment(&b->rows[row], k);
	if (!segment || (title && copy_string(&segment->title, title))) {
		fail(&b->err, -ENOMEM);
		return;
	}
	segment->value += value;
	b->rows[row].total += value;
	b->keys[k].total += value;
	b->keys[k].max = max_double(b->keys[k].max, segment->value);
}

void svg_bars_maxima(struct svg_bars *b)
{
	if (b)
		b->maxima = true;
}

void svg_bars_mark(struct svg_bars *b, size_t row)
{
	if (b && row < b->nr_rows)
		b->rows[row].marked = true;
}

static const char *const time_units[] = { "ns", "us", "ms", "s" };

/* Which of time_units @unit is, or -1: a chart of times. */
static int time_unit(const char *unit)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(time_units); i++)
		if (!strcmp(unit, time_units[i]))
			return i;
	return -1;
}

/*
 * The unit of an axis of times up to @max @unit: the largest in which
 * @max is 1 or more (20000 ms are 20 s), and *@div, what divides values
 * in @unit to it.  @unit itself when it is not a time.
 */
static const char *axis_unit(const char *unit, double max, double *div)
{
	int i = time_unit(unit);

	*div = 1;
	if (i < 0)
		return unit;
	while (i + 1 < (int)ARRAY_SIZE(time_units) && max / *div >= 1000) {
		*div *= 1000;
		i++;
	}
	return time_units[i];
}

/*
 * A row's total as written after its bar: a time in the unit that suits
 * it, as the text tables print it (20.532 s, not 20531.799 ms), when the
 * chart's unit is ns, us, ms or s; else the number and the unit.
 */
static void bars_total_text(char *buf, size_t size,
			    const struct svg_bars *b, double total,
			    bool marked)
{
	int unit = time_unit(b->unit);
	double ns = total * pow(1000, unit);
	char number[64];

	if (unit >= 0 && ns < 1e19) {
		snprintf(buf, size, "%s%s", marked ? "~" : "",
			 format_duration(number, llround(ns)));
		return;
	}
	format_value(number, sizeof(number), total);
	snprintf(buf, size, "%s%s%s%s", marked ? "~" : "", number,
		 *b->unit ? " " : "", b->unit);
}

/* Row @i: its label, its segments from @x0 and its total after them. */
static void bars_row_draw(FILE *f, const struct svg_bars *b, size_t i,
			  double y, double x0, double scale, unsigned int width)
{
	const struct text_style label = {
		.size = LABEL_SIZE, .anchor = "end", .colour = TEXT_COLOUR,
	};
	const struct text_style total = {
		.size = TICK_SIZE, .colour = MUTED_COLOUR,
	};
	const struct bar_row *row = &b->rows[i];
	const struct bar_segment *s;
	const struct legend_key *k;
	double done = 0, x;
	char text[160];
	size_t j;

	/* the row's tooltip for whatever in it has none of its own */
	bars_total_text(text, sizeof(text), b, row->total, row->marked);
	fputs("<g>", f);
	put_text_title(f, row->label, b->maxima ? "max" : "total", text);
	fputc('\n', f);
	/* every other row shaded; the clear ones still catch the pointer */
	fputs("<rect", f);
	put_number(f, "x", MARGIN);
	put_number(f, "y", y);
	put_number(f, "width", width - 2 * MARGIN);
	put_number(f, "height", ROW_HEIGHT);
	fprintf(f, " fill=\"#000000\" fill-opacity=\"%s\"/>\n",
		i % 2 ? "0.04" : "0");
	text_fit(f, &label, x0 - 6, y + 14, row->label, x0 - 6 - MARGIN,
		 NULL);
	for (j = 0; j < row->nr_segments; j++) {
		s = &row->segments[j];
		k = &b->keys[s->key];
		/* from the running sum, so that rounding does not add up */
		rect_begin(f, x0 + done * scale, y + 3, s->value * scale,
			   BAR_HEIGHT, k->colour);
		fputc('>', f);
		if (s->title)
			put_title(f, s->title);
		else
			put_value_title(f, row->label, k->label, s->value,
					b->unit);
		fputs("</rect>\n", f);
		done += s->value;
	}
	x = x0 + row->total * scale + TOTAL_GAP;
	text_fit(f, &total, x, y + 14, text, width - MARGIN - x, NULL);
	fputs("</g>\n", f);
}

/* The room right of the plot that the widest row total needs, px. */
static double bars_total_width(const struct svg_bars *b)
{
	double w = TOTAL_WIDTH;
	char text[160];
	size_t i;

	for (i = 0; i < b->nr_rows; i++) {
		bars_total_text(text, sizeof(text), b, b->rows[i].total,
				b->rows[i].marked);
		w = max_double(w, text_width(text, TICK_SIZE) + TOTAL_GAP +
			       MARGIN + 1);
	}
	return w;
}

int svg_bars_write(const struct svg_bars *b, FILE *f,
		   const struct svg_frame *frame)
{
	double label_w = 0, max_total = 0, x0, plot_w, top, axis_y, legend_y;
	double div;
	const char *unit;
	struct legend lg;
	struct header h;
	struct ticks t;
	size_t i, lines;

	if (!b)
		return -ENOMEM;
	if (b->err)
		return b->err;
	errno = 0;
	header_plan(&h, b->title, frame);
	if (!b->nr_rows)
		return write_empty(f, &h);

	for (i = 0; i < b->nr_rows; i++) {
		label_w = max_double(label_w,
				     text_width(b->rows[i].label, LABEL_SIZE));
		max_total = max_double(max_total, b->rows[i].total);
	}
	/* labels take what they need, but leave most of it to the bars */
	label_w = min_double(max_double(label_w + 12, 60), h.width * 0.3);
	x0 = MARGIN + label_w;
	plot_w = h.width - min_double(bars_total_width(b), h.width * 0.3) -
		 x0;
	if (!drawable(max_total))
		max_total = 1;
	unit = axis_unit(b->unit, max_total, &div);
	ticks_choose(&t, 0, max_total / div, plot_w, TICK_GAP_X, true);
	top = h.height;
	axis_y = top + b->nr_rows * ROW_HEIGHT;
	legend_y = axis_y + AXIS_BAND;
	lg = (struct legend){ b->keys, b->nr_keys, b->unit, b->maxima };
	lines = legend_draw(NULL, &lg, legend_y, h.width);

	svg_open(f, h.width, legend_y + lines * LEGEND_LINE + MARGIN,
		 h.title);
	header_draw(f, &h);
	x_axis(f, &t, 0, max_total / div, x0, plot_w, top, axis_y, unit);
	for (i = 0; i < b->nr_rows; i++)
		bars_row_draw(f, b, i, top + i * ROW_HEIGHT, x0,
			      plot_w / max_total, h.width);
	legend_draw(f, &lg, legend_y, h.width);
	svg_close(f);
	return finish(f);
}

struct svg_hist *svg_hist_new(const char *title, const char *y_unit)
{
	struct svg_hist *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	if (copy_string(&h->title, or_empty(title)) ||
	    copy_string(&h->unit, or_empty(y_unit))) {
		svg_hist_free(h);
		return NULL;
	}
	return h;
}

void svg_hist_free(struct svg_hist *h)
{
	size_t b, s;

	if (!h)
		return;
	for (b = 0; b < h->nr_buckets; b++) {
		for (s = 0; s < h->buckets[b].cells_cap; s++)
			free(h->buckets[b].cells[s].title);
		free(h->buckets[b].cells);
		free(h->buckets[b].label);
	}
	free(h->buckets);
	legend_key_free(h->series, h->nr_series);
	free(h->title);
	free(h->unit);
	free(h);
}

size_t svg_hist_series(struct svg_hist *h, const char *label,
		       uint32_t colour)
{
	size_t i;

	if (!h)
		return SVG_NONE;
	i = legend_key_add(&h->series, &h->nr_series, &h->series_cap,
			   (int)h->nr_series, label, colour);
	if (i == SVG_NONE)
		return fail(&h->err, -ENOMEM);
	return i;
}

size_t svg_hist_bucket(struct svg_hist *h, const char *label)
{
	struct hist_bucket *buckets;

	if (!h)
		return SVG_NONE;
	buckets = reserve(h->buckets, &h->buckets_cap, h->nr_buckets + 1,
			  sizeof(*buckets));
	if (!buckets)
		return fail(&h->err, -ENOMEM);
	h->buckets = buckets;
	if (copy_string(&buckets[h->nr_buckets].label, or_empty(label)))
		return fail(&h->err, -ENOMEM);
	return h->nr_buckets++;
}

/* Series @s's legend total and maximum, over every bucket. */
static void hist_series_sum(struct svg_hist *h, size_t s)
{
	struct legend_key *k = &h->series[s];
	double v;
	size_t b;

	/* summed afresh: a value replaced must not linger in the total */
	k->total = 0;
	k->max = 0;
	for (b = 0; b < h->nr_buckets; b++) {
		if (s >= h->buckets[b].cells_cap)
			continue;
		v = h->buckets[b].cells[s].value;
		k->total += v;
		k->max = max_double(k->max, v);
	}
}

void svg_hist_set(struct svg_hist *h, size_t series, size_t bucket,
		  double value, const char *title)
{
	struct hist_bucket *b;
	struct hist_cell *cells;

	if (!h)
		return;
	if (series >= h->nr_series || bucket >= h->nr_buckets) {
		fail(&h->err, -EINVAL);
		return;
	}
	b = &h->buckets[bucket];
	cells = reserve(b->cells, &b->cells_cap, series + 1, sizeof(*cells));
	if (!cells || copy_string(&cells[series].title, title)) {
		if (cells)
			b->cells = cells;
		fail(&h->err, -ENOMEM);
		return;
	}
	b->cells = cells;
	cells[series].value = drawable(value) ? value : 0;
	hist_series_sum(h, series);
}

/* How to label buckets of @group_w px: across, or slanted and sparser. */
struct hist_labels {
	bool slanted;
	size_t every;		/* label every n-th bucket */
	double reach;		/* how far a slanted label reaches left, px */
	double band;		/* px under the axis */
};

static void hist_labels_plan(struct hist_labels *hl, const struct svg_hist *h,
			     double group_w)
{
	double widest = 0;
	size_t b;

	for (b = 0; b < h->nr_buckets; b++)
		widest = max_double(widest, text_width(h->buckets[b].label,
						       TICK_SIZE));
	/* narrower buckets than planned first never make labels fit */
	hl->slanted = hl->slanted || widest > group_w - 4;
	hl->every = 1;
	hl->band = AXIS_BAND - 16;
	if (hl->slanted) {
		/* slanted lines of text need a line's height between them */
		hl->every = (size_t)ceil(1.5 * TICK_SIZE / group_w);
		hl->reach = min_double(widest, ROTATED_LABEL) * M_SQRT1_2;
		hl->band = hl->reach + 2 * TICK_SIZE;
	}
}

static void hist_bucket_draw(FILE *f, const struct svg_hist *h, size_t b,
			     const struct hist_labels *hl, double x,
			     double group_w, double axis_y, double scale)
{
	const struct text_style across = {
		.size = TICK_SIZE, .anchor = "middle", .colour = TEXT_COLOUR,
	};
	const struct text_style slanted = {
		.size = TICK_SIZE, .anchor = "end", .colour = TEXT_COLOUR,
		.rotate = -45,
	};
	const struct hist_bucket *bucket = &h->buckets[b];
	double bar_w = group_w * 0.8 / h->nr_series, height;
	const struct hist_cell *c;
	size_t s;

	fputs("<g>", f);
	put_title(f, bucket->label);
	fputc('\n', f);
	for (s = 0; s < bucket->cells_cap && s < h->nr_series; s++) {
		c = &bucket->cells[s];
		if (!drawable(c->value))
			continue;
		height = c->value * scale;
		rect_begin(f, x + group_w * 0.1 + s * bar_w, axis_y - height,
			   bar_w, height, h->series[s].colour);
		fputc('>', f);
		if (c->title)
			put_title(f, c->title);
		else
			put_value_title(f, h->series[s].label, bucket->label,
					c->value, h->unit);
		fputs("</rect>\n", f);
	}
	if (b % hl->every == 0) {
		if (hl->slanted)
			text_fit(f, &slanted, x + group_w / 2 + 3, axis_y + 12,
				 bucket->label, ROTATED_LABEL, NULL);
		else
			text_fit(f, &across, x + group_w / 2, axis_y + 15,
				 bucket->label, group_w - 4, NULL);
	}
	fputs("</g>\n", f);
}

/* Where a plot with a y axis of @t starts: right of the tick labels. */
static double y_axis_x0(const struct ticks *t, double least)
{
	return max_double(MARGIN + ticks_label_width(t) + 10, least);
}

int svg_hist_write(const struct svg_hist *h, FILE *f,
		   const struct svg_frame *frame)
{
	double y_max = 0, x0, plot_w, group_w, top, axis_y, legend_y;
	struct hist_labels hl;
	struct header hd;
	struct legend lg;
	struct ticks t;
	size_t b, lines;

	if (!h)
		return -ENOMEM;
	if (h->err)
		return h->err;
	errno = 0;
	header_plan(&hd, h->title, frame);
	if (!h->nr_buckets || !h->nr_series)
		return write_empty(f, &hd);

	for (b = 0; b < h->nr_series; b++)
		y_max = max_double(y_max, h->series[b].max);
	if (!drawable(y_max))
		y_max = 1;
	ticks_choose(&t, 0, y_max, PLOT_HEIGHT, TICK_GAP_Y, false);
	x0 = y_axis_x0(&t, 0);
	plot_w = hd.width - MARGIN - x0;
	hl.slanted = false;
	hist_labels_plan(&hl, h, plot_w / h->nr_buckets);
	if (hl.slanted) {
		/* the first label slants left, past the axis */
		x0 = y_axis_x0(&t, MARGIN + hl.reach);
		plot_w = hd.width - MARGIN - x0;
		hist_labels_plan(&hl, h, plot_w / h->nr_buckets);
	}
	group_w = plot_w / h->nr_buckets;
	top = hd.height + 16;
	axis_y = top + PLOT_HEIGHT;
	legend_y = axis_y + hl.band + 16;
	lg = (struct legend){ h->series, h->nr_series, h->unit, false };
	lines = legend_draw(NULL, &lg, legend_y, hd.width);

	svg_open(f, hd.width, legend_y + lines * LEGEND_LINE + MARGIN,
		 hd.title);
	header_draw(f, &hd);
	y_axis(f, &t, y_max, x0, plot_w, axis_y, PLOT_HEIGHT, h->unit);
	for (b = 0; b < h->nr_buckets; b++)
		hist_bucket_draw(f, h, b, &hl, x0 + b * group_w, group_w,
				 axis_y, PLOT_HEIGHT / y_max);
	draw_line(f, x0, axis_y, x0 + plot_w, axis_y, AXIS_COLOUR);
	legend_draw(f, &lg, legend_y, hd.width);
	svg_close(f);
	return finish(f);
}

struct svg_series *svg_series_new(const char *title, const char *y_unit)
{
	struct svg_series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (copy_string(&s->title, or_empty(title)) ||
	    copy_string(&s->unit, or_empty(y_unit))) {
		svg_series_free(s);
		return NULL;
	}
	return s;
}

void svg_series_free(struct svg_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_points; i++)
		free(s->points[i].title);
	free(s->points);
	legend_key_free(s->lines, s->nr_lines);
	free(s->title);
	free(s->unit);
	free(s);
}

size_t svg_series_line(struct svg_series *s, const char *label,
		       uint32_t colour)
{
	size_t i;

	if (!s)
		return SVG_NONE;
	i = legend_key_add(&s->lines, &s->nr_lines, &s->lines_cap,
			   (int)s->nr_lines, label, colour);
	if (i == SVG_NONE)
		return fail(&s->err, -ENOMEM);
	return i;
}

void svg_series_point(struct svg_series *s, size_t line, double x,
		      double width, double y, const char *title)
{
	struct series_point *points, *p;

	if (!s)
		return;
	if (line >= s->nr_lines) {
		fail(&s->err, -EINVAL);
		return;
	}
	if (!isfinite(x) || !isfinite(width) || width < 0 || !drawable(y))
		return;
	points = reserve(s->points, &s->points_cap, s->nr_points + 1,
			 sizeof(*points));
	if (!points) {
		fail(&s->err, -ENOMEM);
		return;
	}
	s->points = points;
	p = &points[s->nr_points];
	if (copy_string(&p->title, title)) {
		fail(&s->err, -ENOMEM);
		return;
	}
	p->line = line;
	p->x = x;
	p->width = width;
	p->y = y;
	s->nr_points++;
	s->lines[line].total += y;
	s->lines[line].max = max_double(s->lines[line].max, y);
}

/* The time and value ranges of @s's points. */
struct series_range {
	double x_lo, x_hi, y_max;
};

static void series_range(const struct svg_series *s, struct series_range *r)
{
	const struct series_point *p;
	size_t i;

	r->x_lo = s->points[0].x;
	r->x_hi = s->points[0].x + s->points[0].width;
	r->y_max = 0;
	for (i = 0; i < s->nr_points; i++) {
		p = &s->points[i];
		r->x_lo = min_double(r->x_lo, p->x);
		r->x_hi = max_double(r->x_hi, p->x + p->width);
		r->y_max = max_double(r->y_max, p->y);
	}
	if (!(r->x_hi > r->x_lo))
		r->x_hi = r->x_lo + 1;
	if (!drawable(r->y_max))
		r->y_max = 1;
}

/* Lines with points share each interval: @line's place among them. */
static size_t series_slot(const struct svg_series *s, size_t line)
{
	size_t i, slot = 0;

	for (i = 0; i < line && i < s->nr_lines; i++)
		slot += drawable(s->lines[i].total);
	return slot;
}

static void series_point_draw(FILE *f, const struct svg_series *s,
			      const struct series_point *p, double x,
			      double w, double axis_y, double y_scale)
{
	char what[160], lo[64], hi[64];
	double height = p->y * y_scale;

	rect_begin(f, x, axis_y - height, w, height, s->lines[p->line].colour);
	fputc('>', f);
	if (p->title) {
		put_title(f, p->title);
	} else {
		format_value(lo, sizeof(lo), p->x);
		format_value(hi, sizeof(hi), p->x + p->width);
		snprintf(what, sizeof(what), "%s-%s s", lo, hi);
		put_value_title(f, s->lines[p->line].label, what, p->y,
				s->unit);
	}
	fputs("</rect>\n", f);
}

int svg_series_write(const struct svg_series *s, FILE *f,
		     const struct svg_frame *frame)
{
	double x0, plot_w, top, axis_y, legend_y, x_scale, w;
	const struct series_point *p;
	struct series_range r;
	struct ticks xt, yt;
	struct legend lg;
	struct header h;
	size_t i, lines, slots;

	if (!s)
		return -ENOMEM;
	if (s->err)
		return s->err;
	errno = 0;
	header_plan(&h, s->title, frame);
	if (!s->nr_points)
		return write_empty(f, &h);

	series_range(s, &r);
	slots = series_slot(s, s->nr_lines);
	ticks_choose(&yt, 0, r.y_max, PLOT_HEIGHT, TICK_GAP_Y, false);
	x0 = y_axis_x0(&yt, 0);
	/* room on the right for half of the last tick's label */
	plot_w = h.width - 4 * MARGIN - x0;
	ticks_choose(&xt, r.x_lo, r.x_hi, plot_w, TICK_GAP_X, true);
	x_scale = plot_w / (r.x_hi - r.x_lo);
	top = h.height + 16;
	axis_y = top + PLOT_HEIGHT;
	legend_y = axis_y + AXIS_BAND;
	lg = (struct legend){ s->lines, s->nr_lines, s->unit, true };
	lines = legend_draw(NULL, &lg, legend_y, h.width);

	svg_open(f, h.width, legend_y + lines * LEGEND_LINE + MARGIN,
		 h.title);
	header_draw(f, &h);
	y_axis(f, &yt, r.y_max, x0, plot_w, axis_y, PLOT_HEIGHT, s->unit);
	x_axis(f, &xt, r.x_lo, r.x_hi, x0, plot_w, top, axis_y, "time (s)");
	for (i = 0; i < s->nr_points; i++) {
		p = &s->points[i];
		/* lines side by side in each interval; at least a pixel */
		w = p->width * x_scale / slots;
		series_point_draw(f, s, p, x0 + (p->x - r.x_lo) * x_scale +
				  series_slot(s, p->line) * w,
				  max_double(w, 1), axis_y,
				  PLOT_HEIGHT / r.y_max);
	}
	legend_draw(f, &lg, legend_y, h.width);
	svg_close(f);
	return finish(f);
}
