// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report heatmap: the subsecond-offset heat map FlameScope made
 * known.  A column per whole second since the start, a row per bucket of
 * the second (lowest offset at the bottom), and in each cell what the
 * selection did in that bucket of that second: on-CPU or off-CPU time,
 * wakeups or switch-outs.  Periodic work shows as horizontal lines, work
 * that drifts against the second as diagonals.
 *
 * Time is split exactly at the cells' boundaries, so the cells of a
 * column add up to what happened in that second.  Memory is a counter per
 * cell: it grows with the length of the window, never with the events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"
#include "timefmt.h"

#define ROWS_DEFAULT	50		/* 20 ms, as FlameScope */
#define ROWS_MAX	1000		/* 1 ms buckets */
#define CELLS_MAX	(1u << 22)	/* 32 MB of counters: 23 h at 50 rows */
#define TEXT_BLOCK	100		/* seconds per block of the text grid */

/* The chart */
#define PLOT_LEFT	76		/* room for the offset labels */
#define PLOT_RIGHT	24
#define CELL_W_MAX	64
#define CELL_W_MIN	3		/* the page widens below this */
#define CELL_H_MAX	14
/*
 * Columns of the chart at most: a longer window gets columns of a few
 * seconds each (a 1-2-5 step), so that the chart stays a few MB.  With a
 * column per second, 23 h at 50 rows made a 469 MB SVG.
 */
#define CHART_COLUMNS_MAX	1200
#define PLOT_H		560		/* the rows share this, within limits */
#define LABEL_GAP	16		/* px between offset labels at least */
#define CENSORED_FILL	0xe8e8e8
#define HATCH_COLOUR	0x9a9a9a

enum {
	OPT_METRIC = REPORT_OPT_BASE,
	OPT_ROWS,
};

enum heatmap_metric {
	METRIC_ONCPU,
	METRIC_OFFCPU,
	METRIC_WAKEUPS,
	METRIC_SWITCHES,
};

static const struct {
	const char *name;	/* of --metric */
	const char *column;	/* of the CSV */
	const char *title;
	const char *what;	/* in a tooltip, before the value */
	bool duration;		/* ns, else a count */
} metrics[] = {
	[METRIC_ONCPU] = { "oncpu", "oncpu_ns", "On-CPU time", "on-CPU",
			   true },
	[METRIC_OFFCPU] = { "offcpu", "offcpu_ns", "Off-CPU time", "off-CPU",
			    true },
	[METRIC_WAKEUPS] = { "wakeups", "wakeups", "Wakeups", "wakeups",
			     false },
	[METRIC_SWITCHES] = { "switches", "switches", "Switch-outs",
			      "switch-outs", false },
};

struct heatmap {
	struct report_ctx *ctx;
	enum heatmap_metric metric;
	unsigned int rows;
	uint64_t *cells;	/* [second * rows + row] */
	size_t nr_seconds;	/* columns allocated */
	uint64_t too_long;	/* seconds the window needed past CELLS_MAX */
	bool failed;
};

/* The window as drawn: relative ns, and the columns that cover it. */
struct heatmap_window {
	uint64_t start, end;	/* [start, end): the window in the recording */
	uint64_t first;		/* the first column's second */
	size_t columns;
	uint64_t max;		/* the largest value of a cell in the window */
	uint8_t *lost;		/* per cell of the window: overlaps a loss */
};

static const struct optspec heatmap_options[] = {
	{ "metric", OPT_METRIC, required_argument,
	  "oncpu|offcpu|wakeups|switches",
	  "what a cell holds:\n"
	  "oncpu     on-CPU time of the selected threads (default); "
	  "with several threads or CPUs a cell can hold more than its "
	  "own length\n"
	  "offcpu    off-CPU time of the selected threads in that "
	  "cell (from switch-out to switch-in, any state, censored "
	  "pieces included: this is time, not a maximum)\n"
	  "wakeups   wakeups of the selected threads (the first "
	  "waking after they went to sleep), at the time of the "
	  "wakeup\n"
	  "switches  switch-outs of the selected threads, in any "
	  "state\n" },
	{ "rows", OPT_ROWS, required_argument, "N",
	  "buckets per second, 1 to 1000 (default 50)\n" },
	{ "cpu", 0, required_argument, "CPU",
	  "oncpu: time on those CPUs; offcpu: intervals that "
	  "began with a switch-out there; wakeups: those to run there "
	  "(the target CPU); switches: switch-outs there\n" },
	{ 0 },
};

static int heatmap_parse(void *priv, const struct report_ctx *ctx, int key,
			 const char *arg)
{
	struct heatmap *h = priv;
	unsigned long rows;
	char *end;
	size_t i;

	(void)ctx;
	switch (key) {
	case OPT_METRIC:
		for (i = 0; i < ARRAY_SIZE(metrics); i++) {
			if (!strcmp(arg, metrics[i].name)) {
				h->metric = i;
				return 0;
			}
		}
		report_usage_error(&heatmap_report,
				   "bad --metric '%s': oncpu, offcpu, wakeups or switches",
				   arg);
		return -EINVAL;
	case OPT_ROWS:
		errno = 0;
		rows = strtoul(arg, &end, 10);
		if (errno || *end || !*arg || arg[0] == '-' || !rows ||
		    rows > ROWS_MAX) {
			report_usage_error(&heatmap_report,
					   "bad --rows '%s': give the buckets of a second, 1 to %u (50: 20 ms each)",
					   arg, ROWS_MAX);
			return -EINVAL;
		}
		h->rows = rows;
		return 0;
	}
	return -EINVAL;
}

/* Where row @row begins in its second, ns: rows split it as evenly as ns do */
static uint64_t row_start(const struct heatmap *h, uint64_t row)
{
	return (row * NSEC_PER_SEC + h->rows - 1) / h->rows;
}

/* The row of offset @offset (< 1 s): exact with row_start()'s rounding. */
static unsigned int row_of(const struct heatmap *h, uint64_t offset)
{
	return offset * h->rows / NSEC_PER_SEC;
}

/* Make room for column @second; false past CELLS_MAX or out of memory. */
static bool grow(struct heatmap *h, uint64_t second)
{
	uint64_t limit = CELLS_MAX / h->rows;
	size_t n = h->nr_seconds ? h->nr_seconds : 16;
	uint64_t *cells;

	if (second >= limit) {
		if (second + 1 > h->too_long)
			h->too_long = second + 1;
		return false;
	}
	while (n <= second)
		n *= 2;
	if (n > limit)
		n = limit;
	cells = reallocarray(h->cells, n * h->rows, sizeof(*cells));
	if (!cells) {
		h->failed = true;
		return false;
	}
	memset(cells + h->nr_seconds * h->rows, 0,
	       (n - h->nr_seconds) * h->rows * sizeof(*cells));
	h->cells = cells;
	h->nr_seconds = n;
	return true;
}

static uint64_t *cell_of(struct heatmap *h, uint64_t second, unsigned int row)
{
	if (second >= h->nr_seconds && !grow(h, second))
		return NULL;
	return &h->cells[second * h->rows + row];
}

/* Add the time of [@start, @end) (absolute) to its cells, split exactly. */
static void add_time(struct heatmap *h, uint64_t start, uint64_t end)
{
	int64_t from = report_rel(h->ctx, start), to = report_rel(h->ctx, end);
	uint64_t t = from > 0 ? from : 0, second, bound, piece;
	unsigned int row;
	uint64_t *cell;

	while (to > 0 && t < (uint64_t)to) {
		second = t / NSEC_PER_SEC;
		row = row_of(h, t % NSEC_PER_SEC);
		bound = second * NSEC_PER_SEC + row_start(h, row + 1);
		piece = ((uint64_t)to < bound ? (uint64_t)to : bound) - t;
		cell = cell_of(h, second, row);
		if (!cell)
			return;
		*cell += piece;
		t += piece;
	}
}

/* Count one event at @ts (absolute) if it is in the window. */
static void add_event(struct heatmap *h, uint64_t ts)
{
	uint64_t start, end, t;
	uint64_t *cell;

	schedmodel_window_abs(h->ctx->front.model, &start, &end);
	if (ts < start || ts >= end)
		return;
	t = report_rel(h->ctx, ts);
	cell = cell_of(h, t / NSEC_PER_SEC, row_of(h, t % NSEC_PER_SEC));
	if (cell)
		(*cell)++;
}

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct heatmap *h = arg;
	const struct selection *sel = &h->ctx->front.sel;

	if (iv->task && select_cpu(sel, iv->cpu) &&
	    select_task(sel, (struct task *)iv->task))
		add_time(h, iv->start, iv->end);
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	struct heatmap *h = arg;
	const struct selection *sel = &h->ctx->front.sel;

	if (!select_task(sel, (struct task *)iv->task))
		return;
	/* --cpu: the CPU it was switched out on, as offcpu counts it */
	if (sel->cpus && (iv->out_cpu == CPU_NONE ||
			  !select_cpu(sel, iv->out_cpu)))
		return;
	add_time(h, iv->start, iv->end);
}

static void on_wakeup(void *arg, const struct wakeup_ev *ev)
{
	struct heatmap *h = arg;
	const struct selection *sel = &h->ctx->front.sel;

	if (select_cpu(sel, ev->target_cpu) &&
	    select_task(sel, (struct task *)ev->task))
		add_event(h, ev->ts);
}

static void on_switchout(void *arg, const struct switchout_ev *ev)
{
	struct heatmap *h = arg;
	const struct selection *sel = &h->ctx->front.sel;

	if (select_cpu(sel, ev->cpu) &&
	    select_task(sel, (struct task *)ev->task))
		add_event(h, ev->ts);
}

static int heatmap_start(void *priv, struct report_ctx *ctx)
{
	struct heatmap *h = priv;
	struct sched_handler handler = { .arg = h };

	/*
	 * Like every report, a --range past the recording's end is clipped
	 * to it: only the window's real length (after the pass) can be too
	 * long, and the cells grow with the records, not with --range.
	 */
	h->ctx = ctx;
	if (!h->rows)
		h->rows = ROWS_DEFAULT;
	switch (h->metric) {
	case METRIC_ONCPU:
		handler.oncpu = on_oncpu;
		break;
	case METRIC_OFFCPU:
		handler.offcpu = on_offcpu;
		break;
	case METRIC_WAKEUPS:
		handler.wakeup = on_wakeup;
		break;
	case METRIC_SWITCHES:
		handler.switchout = on_switchout;
		break;
	}
	return schedmodel_add_handler(ctx->front.model, &handler);
}

/* The cell of relative time @t in the window's cells. */
static size_t window_cell(const struct heatmap *h,
			  const struct heatmap_window *w, uint64_t t)
{
	return (t / NSEC_PER_SEC - w->first) * h->rows +
	       row_of(h, t % NSEC_PER_SEC);
}

/* Mark the cells that overlap lost events of the CPUs selected. */
static int mark_losses(const struct heatmap *h, struct heatmap_window *w)
{
	const struct report_ctx *ctx = h->ctx;
	const struct sched_loss *losses;
	size_t nr = schedmodel_losses(ctx->front.model, &losses), i, c, last;
	uint64_t origin = schedmodel_origin(ctx->front.model), from, to;

	w->lost = calloc(w->columns * h->rows + 1, 1);
	if (!w->lost)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		if (!select_cpu(&ctx->front.sel, losses[i].cpu) ||
		    losses[i].last < origin + w->start ||
		    losses[i].first >= origin + w->end)
			continue;
		from = losses[i].first - origin;
		to = losses[i].last - origin;
		from = from > w->start ? from : w->start;
		to = to < w->end - 1 ? to : w->end - 1;
		last = window_cell(h, w, to);
		for (c = window_cell(h, w, from); c <= last; c++)
			w->lost[c] = 1;
	}
	return 0;
}

static bool cell_lost(const struct heatmap *h, const struct heatmap_window *w,
		      uint64_t second, unsigned int row)
{
	return w->lost[(second - w->first) * h->rows + row];
}

static void window_of(const struct heatmap *h, struct heatmap_window *w)
{
	const struct report_ctx *ctx = h->ctx;
	uint64_t start, end, second;
	unsigned int row;

	schedmodel_window_abs(ctx->front.model, &start, &end);
	if (end > schedmodel_end(ctx->front.model))
		end = schedmodel_end(ctx->front.model);
	memset(w, 0, sizeof(*w));
	if (end <= start)
		return;
	w->start = report_rel(ctx, start);
	w->end = report_rel(ctx, end);
	w->first = w->start / NSEC_PER_SEC;
	w->columns = (w->end - 1) / NSEC_PER_SEC - w->first + 1;
	for (second = w->first; second < h->nr_seconds &&
	     second < w->first + w->columns; second++)
		for (row = 0; row < h->rows; row++)
			if (h->cells[second * h->rows + row] > w->max)
				w->max = h->cells[second * h->rows + row];
}

static uint64_t cell_value(const struct heatmap *h, uint64_t second,
			   unsigned int row)
{
	return second < h->nr_seconds ? h->cells[second * h->rows + row] : 0;
}

/* The ns of the cell in the window (0: none of it, outside). */
static uint64_t cell_covered(const struct heatmap *h,
			     const struct heatmap_window *w, uint64_t second,
			     unsigned int row)
{
	uint64_t from = second * NSEC_PER_SEC + row_start(h, row);
	uint64_t to = second * NSEC_PER_SEC + row_start(h, row + 1);

	from = from > w->start ? from : w->start;
	to = to < w->end ? to : w->end;
	return to > from ? to - from : 0;
}

static uint64_t cell_width(const struct heatmap *h, unsigned int row)
{
	return row_start(h, row + 1) - row_start(h, row);
}

/* A value as people read it: "5.000 ms" or "3". */
static char *format_value(const struct heatmap *h, char buf[DURATION_LEN],
			  uint64_t v)
{
	if (metrics[h->metric].duration)
		return format_duration(buf, v);
	snprintf(buf, DURATION_LEN, "%" PRIu64, v);
	return buf;
}

/* An offset in the second, in ms: "20", "333.334". */
static char *format_ms(char buf[SECONDS_LEN], uint64_t ns)
{
	char *end;

	snprintf(buf, SECONDS_LEN, "%" PRIu64 ".%06" PRIu64, ns / 1000000,
		 ns % 1000000);
	end = buf + strlen(buf);
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		*--end = '\0';
	return buf;
}

static int print_csv(const struct heatmap *h, const struct heatmap_window *w)
{
	FILE *out = h->ctx->out;
	char a[SECONDS_LEN], b[SECONDS_LEN];
	uint64_t second, covered;
	unsigned int row;

	fprintf(out, "second,offset_start_s,offset_end_s,%s,covered,uncertain\n",
		metrics[h->metric].column);
	for (second = w->first; second < w->first + w->columns; second++) {
		for (row = 0; row < h->rows; row++) {
			covered = cell_covered(h, w, second, row);
			if (!covered)
				continue;
			fprintf(out, "%" PRIu64 ",%s,%s,%" PRIu64 ",%.6f,%d\n",
				second,
				format_seconds(a, row_start(h, row), 9),
				format_seconds(b, row_start(h, row + 1), 9),
				cell_value(h, second, row),
				(double)covered / cell_width(h, row),
				cell_lost(h, w, second, row));
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* The character of a cell in the text grid. */
static char cell_char(const struct heatmap *h, const struct heatmap_window *w,
		      uint64_t second, unsigned int row)
{
	static const char levels[] = ".:-=+*#%@";
	uint64_t v = cell_value(h, second, row);
	unsigned int level;

	if (!cell_covered(h, w, second, row))
		return '/';
	/* its glyph would claim a value that lost events may change */
	if (cell_lost(h, w, second, row))
		return '~';
	if (!v)
		return ' ';
	/* 1..9: the ninths of the largest cell, rounded up */
	level = (v * 9 + w->max - 1) / w->max;
	return levels[(level > 9 ? 9 : level) - 1];
}

/* Seconds @first.. of one block: numbers every ten, then unit digits. */
static void print_grid_heading(FILE *out, uint64_t first, size_t n)
{
	char numbers[TEXT_BLOCK + 24];
	size_t i, len = 0, next = 0;
	int w;

	memset(numbers, ' ', sizeof(numbers));
	for (i = 0; i < n; i++) {
		if (i < next || (i && (first + i) % 10))
			continue;
		w = snprintf(numbers + i, sizeof(numbers) - i, "%" PRIu64,
			     first + i);
		numbers[i + w] = ' ';
		next = i + w + 1;
		len = i + w;
	}
	numbers[len] = '\0';
	fprintf(out, "%9s %s\n", "second", numbers);
	fprintf(out, "%9s ", "ms");
	for (i = 0; i < n; i++)
		fputc('0' + (first + i) % 10, out);
	fputc('\n', out);
}

/* Whether a cell of the window overlaps lost events. */
static bool any_lost(const struct heatmap *h, const struct heatmap_window *w)
{
	return memchr(w->lost, 1, w->columns * h->rows);
}

static int print_text(const struct heatmap *h, const struct heatmap_window *w)
{
	FILE *out = h->ctx->out;
	char value[DURATION_LEN], width[DURATION_LEN], ms[SECONDS_LEN];
	uint64_t first, second;
	unsigned int row;
	size_t n;

	if (!w->columns) {
		fprintf(out, "(the window is empty)\n");
		return ferror(out) ? -EIO : 0;
	}
	fprintf(out, "A column per second since the start, a row per %s of it (offset in ms at\n"
		"the left, lowest at the bottom).  Each cell: ' ' none, then . : - = + * # %% @\n"
		"in ninths of the largest cell, %s; / outside the window.\n",
		format_duration(width, cell_width(h, 0)),
		format_value(h, value, w->max));
	if (any_lost(h, w))
		fprintf(out, "~ a cell that overlaps lost events, whatever its value (see it in\n"
			"--csv or the chart's tooltips).\n");
	for (first = w->first; first < w->first + w->columns;
	     first += TEXT_BLOCK) {
		n = w->first + w->columns - first;
		if (n > TEXT_BLOCK)
			n = TEXT_BLOCK;
		fputc('\n', out);
		print_grid_heading(out, first, n);
		for (row = h->rows; row-- > 0;) {
			fprintf(out, "%8s |", format_ms(ms, row_start(h, row)));
			for (second = first; second < first + n; second++)
				fputc(cell_char(h, w, second, row), out);
			fputs("|\n", out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* White, orange, red: the larger the hotter; a value > 0 is never white. */
static uint32_t ramp_colour(double t)
{
	static const uint32_t stops[] = { 0xffffff, 0xff9a1f, 0xc40000 };
	uint32_t a, b, c = 0;
	double f;
	int shift;

	t = 0.12 + 0.88 * (t < 0 ? 0 : t > 1 ? 1 : t);
	a = t < 0.5 ? stops[0] : stops[1];
	b = t < 0.5 ? stops[1] : stops[2];
	f = t < 0.5 ? t * 2 : (t - 0.5) * 2;
	for (shift = 0; shift <= 16; shift += 8) {
		double x = ((a >> shift) & 0xff) * (1 - f) +
			   ((b >> shift) & 0xff) * f;

		c |= (uint32_t)(x + 0.5) << shift;
	}
	return c;
}

/* The layout of the chart. */
struct heatmap_plot {
	unsigned int width;
	double x0, y0;		/* top left of the cells */
	double cell_w, cell_h;
	double height;		/* of the cells */
	/*
	 * A column is @span seconds, the first from second @base (a
	 * multiple of @span); @columns of them; @max: the largest cell.
	 */
	unsigned int span;
	uint64_t base;
	size_t columns;
	uint64_t max;
};

/* What a cell of the chart holds: row @row of @span seconds. */
struct chart_cell {
	uint64_t first;		/* its first second */
	uint64_t value, covered, width;
	bool lost;
};

static void chart_cell(const struct heatmap *h, const struct heatmap_window *w,
		       const struct heatmap_plot *p, size_t column,
		       unsigned int row, struct chart_cell *c)
{
	uint64_t second;

	memset(c, 0, sizeof(*c));
	c->first = p->base + column * p->span;
	for (second = c->first; second < c->first + p->span; second++) {
		c->width += cell_width(h, row);
		if (second < w->first || second >= w->first + w->columns)
			continue;
		c->value += cell_value(h, second, row);
		c->covered += cell_covered(h, w, second, row);
		c->lost |= cell_lost(h, w, second, row);
	}
}

/* The smallest of 1, 2, 5, 10, 20, 50... that is at least @least. */
static unsigned int nice_step(double least)
{
	unsigned int step = 1;

	while (step < least) {
		if (step * 2 >= least)
			return step * 2;
		if (step * 5 >= least)
			return step * 5;
		step *= 10;
	}
	return step;
}

static void plot_plan(const struct heatmap *h, const struct heatmap_window *w,
		      struct heatmap_plot *p)
{
	unsigned int room = 1200 - PLOT_LEFT - PLOT_RIGHT, row;
	struct chart_cell c;
	size_t column;

	p->span = nice_step((double)w->columns / CHART_COLUMNS_MAX);
	p->base = w->first - w->first % p->span;
	p->columns = (w->first + w->columns - p->base + p->span - 1) / p->span;
	p->max = 0;
	for (column = 0; column < p->columns; column++) {
		for (row = 0; row < h->rows; row++) {
			chart_cell(h, w, p, column, row, &c);
			if (c.value > p->max)
				p->max = c.value;
		}
	}
	/* whole pixels: no seams between cells */
	p->cell_w = room / p->columns;
	if (p->cell_w > CELL_W_MAX)
		p->cell_w = CELL_W_MAX;
	if (p->cell_w < CELL_W_MIN)
		p->cell_w = CELL_W_MIN;
	p->width = PLOT_LEFT + PLOT_RIGHT + p->cell_w * p->columns;
	if (p->width < 1200)
		p->width = 1200;
	p->cell_h = PLOT_H / h->rows;
	if (p->cell_h > CELL_H_MAX)
		p->cell_h = CELL_H_MAX;
	if (p->cell_h < 1)
		p->cell_h = 1;
	p->height = p->cell_h * h->rows;
	p->x0 = PLOT_LEFT;
}

static void put_defs(FILE *f)
{
	/* outside the window: hatched grey; partly outside: hatched over */
	fprintf(f, "<defs>\n"
		"<pattern id=\"outside\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#%06x\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#%06x\" stroke-width=\"2\"/></pattern>\n"
		"<pattern id=\"partly\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#%06x\" stroke-width=\"1.5\"/></pattern>\n"
		"</defs>\n", CENSORED_FILL, HATCH_COLOUR, HATCH_COLOUR);
}

/*
 * The tooltip of a cell: "second 3, offset 20-40 ms: on-CPU 5.000 ms", or
 * "seconds 10-14, ..." in a column of several.
 */
static void cell_title(const struct heatmap *h, const struct heatmap_window *w,
		       const struct heatmap_plot *p, char *buf, size_t size,
		       const struct chart_cell *c, unsigned int row)
{
	char a[SECONDS_LEN], b[SECONDS_LEN], value[DURATION_LEN];
	size_t len;

	if (p->span == 1)
		len = snprintf(buf, size, "second %" PRIu64, c->first);
	else
		len = snprintf(buf, size, "seconds %" PRIu64 "-%" PRIu64,
			       c->first, c->first + p->span - 1);
	if (len < size)
		len += snprintf(buf + len, size - len,
				", offset %s-%s ms: ",
				format_ms(a, row_start(h, row)),
				format_ms(b, row_start(h, row + 1)));
	if (len >= size)
		return;
	if (!c->covered) {
		snprintf(buf + len, size - len, "outside the %s",
			 c->first * NSEC_PER_SEC + row_start(h, row) <
			 w->start ? "window (before its start)" :
			 "window (after its end, or the recording's)");
		return;
	}
	len += snprintf(buf + len, size - len, "%s %s%s",
			metrics[h->metric].what, c->lost ? "~" : "",
			format_value(h, value, c->value));
	if (len < size && c->covered < c->width)
		len += snprintf(buf + len, size - len,
				" (only %s of this cell is in the window)",
				format_duration(value, c->covered));
	if (len < size && c->lost)
		snprintf(buf + len, size - len,
			 " (~: it overlaps lost events)");
}

static void draw_cells(FILE *f, const struct heatmap *h,
		       const struct heatmap_window *w,
		       const struct heatmap_plot *p)
{
	char title[256];
	struct chart_cell c;
	unsigned int row;
	double x, y;
	uint64_t v;
	size_t i;

	fputs("<g shape-rendering=\"crispEdges\">\n", f);
	for (i = 0; i < p->columns; i++) {
		x = p->x0 + i * p->cell_w;
		for (row = 0; row < h->rows; row++) {
			y = p->y0 + (h->rows - 1 - row) * p->cell_h;
			chart_cell(h, w, p, i, row, &c);
			v = c.value;
			cell_title(h, w, p, title, sizeof(title), &c, row);
			if (!c.covered) {
				fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"url(#outside)\"><title>",
					x, y, p->cell_w, p->cell_h);
				svg_escape(f, title);
				fputs("</title></rect>\n", f);
				continue;
			}
			if (c.covered < c.width) {
				fputs("<g><title>", f);
				svg_escape(f, title);
				fputs("</title>", f);
				svg_rect(f, x, y, p->cell_w, p->cell_h,
					 v ? ramp_colour((double)v / p->max) :
					 0xffffff, NULL);
				fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"url(#partly)\"/></g>\n",
					x, y, p->cell_w, p->cell_h);
				continue;
			}
			svg_rect(f, x, y, p->cell_w, p->cell_h,
				 v ? ramp_colour((double)v / p->max) : 0xffffff,
				 title);
		}
	}
	fputs("</g>\n", f);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#444444\"/>\n",
		p->x0, p->y0, p->cell_w * p->columns, p->height);
}

static void draw_axes(FILE *f, const struct heatmap *h,
		      const struct heatmap_window *w,
		      const struct heatmap_plot *p)
{
	unsigned int every, row;
	char label[SECONDS_LEN + 8], ms[SECONDS_LEN], caption[96];
	double x, y, base = p->y0 + p->height;
	size_t i;

	/* offsets: at the lower edge of every few rows, and at the top */
	every = nice_step(LABEL_GAP / p->cell_h);
	for (row = 0; row <= h->rows; row += every) {
		y = base - row * p->cell_h;
		svg_line(f, p->x0 - 4, y, p->x0, y, 0x444444);
		svg_text(f, p->x0 - 6, y + 4, 11, "end",
			 format_ms(ms, row_start(h, row)), NULL);
	}
	if ((h->rows % every) && h->rows * p->cell_h -
	    (h->rows / every) * every * p->cell_h >= LABEL_GAP) {
		svg_line(f, p->x0 - 4, p->y0, p->x0, p->y0, 0x444444);
		svg_text(f, p->x0 - 6, p->y0 + 4, 11, "end", "1000", NULL);
	}
	svg_text(f, 10, p->y0 - 8, 11, "start", "offset (ms)", NULL);
	/* seconds: under their columns (the first of each), as many as fit */
	snprintf(label, sizeof(label), "%" PRIu64,
		 w->first + w->columns - 1);
	every = nice_step((strlen(label) * 6.6 + 8) / p->cell_w);
	for (i = 0; i < p->columns; i++) {
		if ((p->base / p->span + i) % every)
			continue;
		x = p->x0 + (i + 0.5) * p->cell_w;
		svg_line(f, x, base, x, base + 4, 0x444444);
		snprintf(label, sizeof(label), "%" PRIu64,
			 p->base + i * p->span);
		svg_text(f, x, base + 16, 11, "middle", label, NULL);
	}
	snprintf(caption, sizeof(caption),
		 "seconds since the start of the recording");
	if (p->span > 1)
		snprintf(caption + strlen(caption),
			 sizeof(caption) - strlen(caption), ", %u s a column",
			 p->span);
	svg_text(f, p->x0 + p->cell_w * p->columns / 2, base + 32, 11,
		 "middle", caption, NULL);
}

static void draw_legend(FILE *f, const struct heatmap *h,
			const struct heatmap_plot *p, double y)
{
	char value[DURATION_LEN], text[128];
	double x = p->x0;
	unsigned int i;

	svg_text(f, x, y + 11, 12, "start", "0", NULL);
	x += 14;
	for (i = 0; i < 10; i++) {
		snprintf(text, sizeof(text), "%u-%u %% of the largest cell",
			 i * 10, (i + 1) * 10);
		svg_rect(f, x + i * 16, y, 16, 14,
			 ramp_colour((i + 0.5) / 10), text);
	}
	x += 10 * 16 + 6;
	snprintf(text, sizeof(text), "%s (the largest cell)",
		 p->max ? format_value(h, value, p->max) : "0");
	svg_text(f, x, y + 11, 12, "start", text, NULL);
	x += strlen(text) * 7.2 + 24;
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"14\" fill=\"url(#outside)\"/>\n",
		x, y);
	svg_text(f, x + 18, y + 11, 12, "start",
		 "outside the recording or --range", NULL);
	x += 18 + 33 * 7.2 + 16;
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"14\" fill=\"#ffffff\" stroke=\"#cccccc\"/>"
		"<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"14\" fill=\"url(#partly)\"/>\n",
		x, y, x, y);
	svg_text(f, x + 18, y + 11, 12, "start", "partly outside", NULL);
}

static int draw(const struct heatmap *h, const struct heatmap_window *w,
		const char *title)
{
	struct report_ctx *ctx = h->ctx;
	char sub[512], warn[1024];
	struct svg_frame frame = { 0 };
	struct heatmap_plot p;
	double legend_y;
	FILE *f;

	report_subtitle(ctx, sub, sizeof(sub));
	report_loss_warning(ctx, warn, sizeof(warn));
	frame.subtitle = sub;
	frame.warning = warn[0] ? warn : NULL;
	f = report_svg_open(ctx);
	if (!f)
		return -EIO;
	if (!w->columns) {
		frame.width = 1200;
		svg_open(f, 1200, svg_header_height(title, &frame) + 40, title);
		svg_header_draw(f, title, &frame);
		svg_text(f, 600, svg_header_height(title, &frame) + 20, 14,
			 "middle", "no data: the window is empty", NULL);
		svg_close(f);
		return report_svg_close(ctx, f, 0);
	}
	plot_plan(h, w, &p);
	frame.width = p.width;
	p.y0 = svg_header_height(title, &frame) + 20;
	legend_y = p.y0 + p.height + 46;
	svg_open(f, p.width, legend_y + 14 + 10, title);
	put_defs(f);
	svg_header_draw(f, title, &frame);
	draw_cells(f, h, w, &p);
	draw_axes(f, h, w, &p);
	draw_legend(f, h, &p, legend_y);
	svg_close(f);
	return report_svg_close(ctx, f, 0);
}

static int heatmap_output(void *priv, struct report_ctx *ctx)
{
	struct heatmap *h = priv;
	struct heatmap_window w;
	char title[160], dur[DURATION_LEN];
	int ret;

	if (h->failed)
		return -ENOMEM;
	window_of(h, &w);
	if (h->too_long || w.columns > CELLS_MAX / h->rows) {
		report_usage_error(&heatmap_report,
				   "the window is %zu s long: at %u rows a second, more than %u cells; narrow it with --range or use fewer --rows",
				   w.columns > h->too_long ? w.columns :
				   (size_t)h->too_long, h->rows, CELLS_MAX);
		return -EINVAL;
	}
	ret = mark_losses(h, &w);
	if (ret)
		return ret;
	snprintf(title, sizeof(title),
		 "%s per %s of each second (subsecond-offset heat map)",
		 metrics[h->metric].title,
		 format_duration(dur, cell_width(h, 0)));
	report_heading(ctx, title);
	ret = ctx->csv ? print_csv(h, &w) : print_text(h, &w);
	if (!ret && ctx->svg_path)
		ret = draw(h, &w, title);
	free(w.lost);
	return ret;
}

static void heatmap_free(void *priv)
{
	struct heatmap *h = priv;

	free(h->cells);
}

const struct report heatmap_report = {
	.name = "heatmap",
	.summary = "subsecond-offset heat map (FlameScope layout)",
	.help =
	"A subsecond-offset heat map, as FlameScope draws them: a column per\n"
	"whole second since the start of the recording, a row per bucket of\n"
	"that second (--rows, default 50: 20 ms each), the lowest offset at the\n"
	"bottom.  A cell holds what the selected threads did in that bucket of\n"
	"that second (--metric).  Work that repeats every second, or every\n"
	"half second, shows as horizontal lines; work that drifts against the\n"
	"second as diagonals.  Time is split exactly where an interval crosses\n"
	"a cell's edge, so the cells of a column add up to that second.\n",
	.options = heatmap_options,
	.notes =
	"Text: the matrix as a grid of characters, a column per second (the\n"
	"second on top; blocks of 100 seconds), a row per bucket (its offset\n"
	"in ms at the left), each cell ' ' for nothing, then . : - = + * # % @\n"
	"for ninths of the largest cell, and / outside the window (before\n"
	"--range's start, after its end or the recording's); ~ for a cell\n"
	"that overlaps lost events, whatever its value.\n"
	"\n"
	"CSV columns, a row per cell in the window, second by second, the\n"
	"lowest offset first:\n"
	"  second                    the column: whole seconds since the start\n"
	"  offset_start_s offset_end_s   the bucket within that second\n"
	"  oncpu_ns | offcpu_ns | wakeups | switches   the value (named after\n"
	"                            --metric)\n"
	"  covered                   the part of the cell in the window (0..1;\n"
	"                            less than 1 at an edge of --range or of\n"
	"                            the recording)\n"
	"  uncertain                 1 if the cell overlaps events lost on\n"
	"                            the CPUs selected (~ in the text and the\n"
	"                            chart)\n"
	"\n"
	"Chart (--svg): the heat map, white to orange to red up to the largest\n"
	"cell, every cell with its value as a tooltip; cells outside the\n"
	"window hatched grey, cells partly outside hatched over their colour.\n"
	"Memory: a counter per cell; a window longer than 4194304 cells is\n"
	"refused (23 hours at 50 rows): narrow it with --range.\n",
	.examples =
	"  schedrec report heatmap run.srec --pid 4242 --svg heat.svg\n"
	"  schedrec report heatmap run.srec --metric wakeups --rows 100 --csv\n",
	.priv_size = sizeof(struct heatmap),
	.parse = heatmap_parse,
	.start = heatmap_start,
	.output = heatmap_output,
	.free = heatmap_free,
};
