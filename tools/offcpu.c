// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report offcpu: who waited longest off CPU, when, in which state;
 * per thread or process, or as a time series of per-interval maxima.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "durstats.h"
#include "idmap.h"
#include "report.h"
#include "svg.h"
#include "table.h"
#include "timefmt.h"
#include "toolerr.h"

/* Buckets of --interval at most: it is memory per bucket. */
#define SERIES_MAX	(1u << 20)

enum {
	OPT_BY = REPORT_OPT_BASE,
	OPT_MIN,
	OPT_MAX,
	OPT_INTERVAL,
	OPT_SORT,
};

enum sort_key { SORT_MAX, SORT_TOTAL, SORT_COUNT };

/* The statistics of a row: a thread, or a process. */
struct offcpu_row {
	struct report_row r;		/* first */
	uint32_t threads;
	struct durstats d;
	uint64_t max_start, max_end;
	const struct task *max_task;
	uint32_t max_cpu;
	char max_state;
	struct durflags uncertain;	/* of d: overlapping lost events */
	uint64_t censored;
	uint64_t censored_max;
};

/* A bucket of --interval. */
struct offcpu_bucket {
	uint64_t count;
	uint64_t max;
	uint64_t start;			/* of the longest, for the loss check */
	const struct task *task;
	uint32_t cpu;
	char state;
	bool uncertain;
};

struct offcpu {
	uint64_t min, max;
	bool has_max;
	uint64_t interval;
	enum sort_key sort;
	bool has_sort;
	struct report_ctx *ctx;
	struct report_rows rows;	/* struct offcpu_row */
	struct idmap thread_index;	/* (process, tid) pairs seen */
	struct offcpu_bucket *buckets;
	size_t nr_buckets;
	uint64_t series_start;
	bool too_many;			/* --interval makes > SERIES_MAX */
	bool plain;			/* see count_offcpu() */
	bool failed;
};

static const struct optspec offcpu_options[] = {
	{ "by", OPT_BY, required_argument, "thread|process",
	  "rows per thread (default) or per process (THREADS "
	  "[threads] counted, MAX-TID [max_tid]; named after its "
	  "leader's last name)\n" },
	{ "min", OPT_MIN, required_argument, "DURATION",
	  "only intervals at least this long (e.g. 1ms, 2m: ns, us, "
	  "ms, s, m or h)\n" },
	{ "max", OPT_MAX, required_argument, "DURATION",
	  "only intervals at most this long\n" },
	{ "sort", OPT_SORT, required_argument, "max|total|count",
	  "the order of rows (default max; not with --interval)\n" },
	{ "interval", OPT_INTERVAL, required_argument, "DURATION",
	  "instead of the table, the longest interval ending in each "
	  "interval of the window: [start_s end_s count max_ns tid "
	  "pid comm state cpu uncertain], e.g. --interval 1s for each "
	  "second; the last ends with the window; at most 1048576 of "
	  "them, all printed (not with --top, --sort or --by)\n" },
	{ "cpu", 0, required_argument, "CPU",
	  "only intervals whose switch-out was on CPU\n" },
	{ 0 },
};

static int offcpu_parse(void *priv, const struct report_ctx *ctx, int key,
			const char *arg)
{
	struct offcpu *o = priv;

	(void)ctx;
	switch (key) {
	case OPT_BY:
		return report_parse_by(&offcpu_report, arg, &o->rows.by_process);
	case OPT_MIN:
	case OPT_MAX:
	case OPT_INTERVAL:
		if (parse_duration(arg, key == OPT_MIN ? &o->min :
				   key == OPT_MAX ? &o->max : &o->interval) ||
		    (key == OPT_INTERVAL && !o->interval)) {
			report_usage_error(&offcpu_report,
					   "bad --%s '%s': give a number and a unit (ns, us, ms, s, m, h), e.g. 1s or 500us",
					   key == OPT_MIN ? "min" :
					   key == OPT_MAX ? "max" : "interval",
					   arg);
			return -EINVAL;
		}
		o->has_max |= key == OPT_MAX;
		return 0;
	case OPT_SORT:
		o->has_sort = true;
		if (!strcmp(arg, "max"))
			o->sort = SORT_MAX;
		else if (!strcmp(arg, "total"))
			o->sort = SORT_TOTAL;
		else if (!strcmp(arg, "count"))
			o->sort = SORT_COUNT;
		else {
			report_usage_error(&offcpu_report,
					   "bad --sort '%s': max, total or count",
					   arg);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

/* @plain: not --by process (see count_offcpu()) */
static inline __attribute__((always_inline)) struct offcpu_row *
row_of(struct offcpu *o, const struct task *t, bool plain)
{
	struct offcpu_row *row = plain ?
				 (void *)report_thread_row(&o->rows, t) :
				 (void *)report_row_of(&o->rows, t);

	if (row && (plain || !o->rows.by_process))
		row->threads = 1;
	return row;
}

/* Count @t's tid as one of its process's threads, once. */
static void count_thread(struct offcpu *o, struct offcpu_row *row,
			 const struct task *t)
{
	size_t before = o->thread_index.count;

	if (!o->rows.by_process)
		return;
	if (idmap_get(&o->thread_index, idmap_pair(row->r.key, t->tid)) < 0)
		o->failed = true;
	else if (o->thread_index.count > before)
		row->threads++;
}

static void add_to_series(struct offcpu *o, const struct offcpu_iv *iv,
			  uint64_t len)
{
	struct offcpu_bucket *b;
	size_t i;

	if (iv->end < o->series_start)
		return;
	i = (iv->end - o->series_start) / o->interval;
	/* before doubling toward it: an interval years on would overflow */
	if (i >= SERIES_MAX) {
		o->too_many = true;
		return;
	}
	if (i >= o->nr_buckets) {
		size_t n = o->nr_buckets ? o->nr_buckets : 64;

		while (n <= i)
			n *= 2;
		b = realloc(o->buckets, n * sizeof(*b));
		if (!b) {
			o->failed = true;
			return;
		}
		memset(b + o->nr_buckets, 0, (n - o->nr_buckets) * sizeof(*b));
		o->buckets = b;
		o->nr_buckets = n;
	}
	b = &o->buckets[i];
	b->count++;
	if (len >= b->max) {
		b->max = len;
		b->start = iv->iv_start;
		b->task = iv->iv_task;
		b->cpu = iv->out_cpu;
		b->state = iv->state;
		b->uncertain = iv->iv_flags & IV_UNCERTAIN;
	}
}

/* Add @from, a bucket of later intervals, to @to. */
static void bucket_merge(struct offcpu_bucket *to,
			 const struct offcpu_bucket *from)
{
	uint64_t count = to->count + from->count;

	if (from->count && from->max >= to->max)
		*to = *from;
	to->count = count;
}

/*
 * Whether @iv, of length @len, passes --cpu, --min and --max; if so, it
 * goes into --interval's series too.
 */
static inline bool options_pass(struct offcpu *o, const struct offcpu_iv *iv,
				uint64_t len)
{
	const struct selection *sel = &o->ctx->front.sel;

	if (sel->cpus && (iv->out_cpu == CPU_NONE ||
			  !select_cpu(sel, iv->out_cpu)))
		return false;
	if (len < o->min || (o->has_max && len > o->max))
		return false;
	if (!(iv->iv_flags & (IV_CUT_START | IV_CUT_END)) && o->interval) {
		if (!o->series_start) {
			uint64_t end;

			schedmodel_window_abs(o->ctx->front.model, &o->series_start,
					      &end);
		}
		add_to_series(o, iv, len);
	}
	return true;
}

/*
 * @plain (a constant where it is inlined): no --cpu, --min, --max,
 * --interval nor --by process (o->plain), whose work then goes.
 */
static inline __attribute__((always_inline)) void
count_offcpu(struct offcpu *o, const struct offcpu_iv *iv, bool plain)
{
	uint64_t len = iv->end - iv->iv_start;
	struct offcpu_row *row;

	/* renamed during an interval: it counts once, whole, at its end */
	if ((iv->flags & IV_CONTINUED) ||
	    !select_task(&o->ctx->front.sel, (struct task *)iv->iv_task))
		return;
	if (!plain && !options_pass(o, iv, len))
		return;
	row = row_of(o, iv->iv_task, plain);
	if (!row) {
		o->failed = true;
		return;
	}
	row->r.used = true;
	if (!plain)
		count_thread(o, row, iv->iv_task);
	if (iv->iv_flags & (IV_CUT_START | IV_CUT_END)) {
		row->censored++;
		if (len > row->censored_max)
			row->censored_max = len;
		return;
	}
	if (durflags_add(&row->uncertain, &row->d, len,
			 iv->iv_flags & IV_UNCERTAIN)) {
		row->max_start = iv->iv_start;
		row->max_end = iv->end;
		row->max_task = iv->iv_task;
		row->max_cpu = iv->out_cpu;
		row->max_state = iv->state;
	}
	durstats_add(&row->d, len);
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	count_offcpu(arg, iv, false);
}

static void on_offcpus(void *arg, const struct offcpu_iv *iv,
		       unsigned int n)
{
	struct offcpu *o = arg;
	unsigned int i;

	if (o->plain) {
		for (i = 0; i < n; i++)
			count_offcpu(o, &iv[i], true);
		return;
	}
	for (i = 0; i < n; i++)
		count_offcpu(o, &iv[i], false);
}

static int offcpu_start(void *priv, struct report_ctx *ctx)
{
	struct offcpu *o = priv;
	struct sched_handler h = {
		.offcpu = on_offcpu, .offcpus = on_offcpus, .arg = o,
	};

	o->ctx = ctx;
	report_rows_init(&o->rows, sizeof(struct offcpu_row), ctx->front.model);
	if (o->interval && o->rows.by_process) {
		report_usage_error(&offcpu_report,
				   "--interval makes one series for the whole selection: leave out --by");
		return -EINVAL;
	}
	if (o->interval && o->has_sort) {
		report_usage_error(&offcpu_report,
				   "--interval prints its series in time order: leave out --sort");
		return -EINVAL;
	}
	if (o->interval && ctx->top_given) {
		report_usage_error(&offcpu_report,
				   "--interval prints every interval of the window: leave out --top (a shorter --range prints fewer)");
		return -EINVAL;
	}
	if (o->has_max && o->min > o->max) {
		char min[DURATION_LEN], max[DURATION_LEN];

		report_usage_error(&offcpu_report,
				   "--min %s is longer than --max %s: no interval can match",
				   format_duration(min, o->min),
				   format_duration(max, o->max));
		return -EINVAL;
	}
	o->plain = !ctx->front.sel.cpus && !o->min && !o->has_max &&
		   !o->interval && !o->rows.by_process;
	return schedmodel_add_handler(ctx->front.model, &h);
}

static int compare_rows(const struct report_row *a, const struct report_row *b,
			void *arg)
{
	const struct offcpu_row *x = (const void *)a;
	const struct offcpu_row *y = (const void *)b;
	const struct offcpu *o = arg;
	uint64_t kx, ky;

	switch (o->sort) {
	case SORT_TOTAL:
		kx = x->d.total;
		ky = y->d.total;
		break;
	case SORT_COUNT:
		kx = x->d.count;
		ky = y->d.count;
		break;
	default:
		kx = x->d.max;
		ky = y->d.max;
		break;
	}
	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->censored_max != y->censored_max)
		return x->censored_max > y->censored_max ? -1 : 1;
	if (a->task->tid != b->task->tid)
		return a->task->tid < b->task->tid ? -1 : 1;
	/* names of one thread with equal keys: the older first */
	return a->task->id < b->task->id ? -1 : a->task->id > b->task->id;
}

static void table_columns(struct offcpu *o, struct table *t)
{
	report_rows_columns(&o->rows, t);
	if (o->rows.by_process)
		table_column(t, "THREADS", "threads", TABLE_RIGHT);
	table_column(t, "COUNT", "count", TABLE_RIGHT);
	table_column(t, "TOTAL", "total_ns", TABLE_RIGHT);
	table_column(t, "MAX", "max_ns", TABLE_RIGHT);
	table_column(t, "STATE", "max_state", TABLE_LEFT);
	table_column(t, "CPU", "max_cpu", TABLE_RIGHT);
	table_column(t, "AT(s)", "max_start_s", TABLE_RIGHT);
	if (o->rows.by_process)
		table_column(t, "MAX-TID", "max_tid", TABLE_RIGHT);
	table_column(t, "P50", "p50_ns", TABLE_RIGHT);
	table_column(t, "P99", "p99_ns", TABLE_RIGHT);
	table_column(t, "CENSORED", "censored", TABLE_RIGHT);
	table_column(t, "CENSORED-MAX", "censored_max_ns", TABLE_RIGHT);
	table_column(t, "~", "uncertain", TABLE_CSV_ONLY);
}

/* Whether the row's longest interval overlaps lost events. */
static bool row_uncertain(const struct report_ctx *ctx,
			  const struct offcpu_row *row)
{
	return row->d.count &&
	       (row->uncertain.max ||
		schedmodel_overlaps_loss(ctx->front.model, row->max_start,
					 row->max_end));
}

static void table_add(struct offcpu *o, struct table *t,
		      struct offcpu_row *row)
{
	const struct report_ctx *ctx = o->ctx;
	bool uncertain = row_uncertain(ctx, row);
	bool p50_uncertain = false, p99_uncertain = false;
	uint64_t p50, p99;

	table_row(t);
	report_rows_cells(&o->rows, t, &row->r);
	if (o->rows.by_process)
		table_u64(t, row->threads);
	table_u64(t, row->d.count);
	table_duration(t, row->d.total);
	if (row->d.count) {
		table_duration_mark(t, row->d.max, uncertain);
		table_strf(t, "%c", row->max_state);
		if (row->max_cpu == CPU_NONE)
			table_none(t);
		else
			table_u64(t, row->max_cpu);
		table_seconds(t, report_rel(ctx, row->max_start));
		if (o->rows.by_process)
			table_u64(t, row->max_task->tid);
		p50 = durstats_percentile(&row->d, 50);
		p99 = durstats_percentile(&row->d, 99);
		p50_uncertain = durflags_value(&row->uncertain, &row->d,
					       uncertain, p50);
		p99_uncertain = durflags_value(&row->uncertain, &row->d,
					       uncertain, p99);
		table_duration_mark(t, p50, p50_uncertain);
		table_duration_mark(t, p99, p99_uncertain);
	} else {
		table_none(t);
		table_none(t);
		table_none(t);
		table_none(t);
		if (o->rows.by_process)
			table_none(t);
		table_none(t);
		table_none(t);
	}
	table_u64(t, row->censored);
	if (row->censored)
		table_duration(t, row->censored_max);
	else
		table_none(t);
	/* the row's flag: any of its values marked */
	uncertain |= p50_uncertain || p99_uncertain;
	table_cell(t, uncertain ? "~" : "", uncertain ? "1" : "0");
}

static int draw_rows(struct offcpu *o, struct report_row **rows, size_t n)
{
	struct report_ctx *ctx = o->ctx;
	static const char states[] = "RSDI";
	char label[64], title[256], dur[DURATION_LEN];
	struct svg_bars *bars;
	size_t i, row;

	bars = svg_bars_new(o->rows.by_process ?
			    "Longest off-CPU interval per process, by state at switch-out" :
			    "Longest off-CPU interval per thread, by state at switch-out",
			    "ms");
	if (!bars)
		return -ENOMEM;
	for (i = 0; states[i]; i++) {
		snprintf(label, sizeof(label), "%c", states[i]);
		svg_bars_key(bars, states[i], label,
			     svg_state_colour(states[i]));
	}
	svg_bars_key(bars, 'o', "other", SVG_GREY);
	svg_bars_maxima(bars);
	for (i = 0; i < n; i++) {
		const struct offcpu_row *x = (const void *)rows[i];
		bool uncertain;

		if (!x->d.count)
			continue;
		uncertain = row_uncertain(ctx, x);
		if (o->rows.by_process)
			snprintf(label, sizeof(label), "%s %u",
				 report_comm(x->r.task),
				 schedmodel_process_key(x->r.task));
		else
			snprintf(label, sizeof(label), "%s %u",
				 report_comm(x->r.task),
				 x->r.task->tid);
		row = svg_bars_row(bars, label);
		if (uncertain)
			svg_bars_mark(bars, row);
		snprintf(title, sizeof(title),
			 "%s: longest off-CPU %s%s in state %c from %.6f s on CPU %d; %" PRIu64 " %s%s",
			 label, uncertain ? "~" : "",
			 format_duration(dur, x->d.max),
			 x->max_state,
			 report_rel(ctx, x->max_start) / 1e9,
			 x->max_cpu == CPU_NONE ? -1 :
			 (int)x->max_cpu, x->d.count,
			 plural(x->d.count, "interval", "intervals"),
			 uncertain ? " (it overlaps lost events)" : "");
		svg_bars_add(bars, row,
			     strchr(states, x->max_state) ?
			     x->max_state : 'o',
			     x->d.max / 1e6, title);
	}
	return report_svg_bars(ctx, bars);
}

static int output_table(struct offcpu *o)
{
	struct report_ctx *ctx = o->ctx;
	struct report_row **rows;
	struct table *t;
	size_t n, i, shown;
	int ret;

	rows = report_rows_sorted(&o->rows, compare_rows, o, &n);
	t = table_new();
	if (!rows || !t) {
		free(rows);
		table_free(t);
		return -ENOMEM;
	}
	report_heading(ctx, o->rows.by_process ?
		       "Off-CPU intervals per process (censored ones apart)" :
		       "Off-CPU intervals per thread (censored ones apart)");
	table_columns(o, t);
	shown = report_limit(ctx, n);
	for (i = 0; i < shown; i++)
		table_add(o, t, (void *)rows[i]);
	ret = report_table_print(ctx, t, n, shown,
				 "no off-CPU interval in the selection");
	if (!ret && ctx->svg_path)
		ret = draw_rows(o, rows, shown);
	table_free(t);
	free(rows);
	return ret;
}

/* Whether a bucket's longest interval overlaps lost events. */
static bool bucket_uncertain(const struct report_ctx *ctx,
			     const struct offcpu_bucket *b)
{
	return b->count &&
	       (b->uncertain ||
		schedmodel_overlaps_loss(ctx->front.model, b->start,
					 b->start + b->max));
}

static int draw_series(struct offcpu *o, size_t n)
{
	struct report_ctx *ctx = o->ctx;
	struct svg_frame frame;
	char title[256], dur[DURATION_LEN];
	struct svg_series *s;
	size_t line, i;
	FILE *f;
	int ret;

	s = svg_series_new("Longest off-CPU interval ending in each interval",
			   "ms");
	if (!s)
		return -ENOMEM;
	line = svg_series_line(s, "longest off-CPU", SVG_BLUE);
	for (i = 0; i < n && i < o->nr_buckets; i++) {
		const struct offcpu_bucket *b = &o->buckets[i];
		double x = report_rel(ctx, o->series_start + i * o->interval) /
			   1e9;
		bool uncertain = bucket_uncertain(ctx, b);

		if (!b->count)
			continue;
		snprintf(title, sizeof(title),
			 "%.6f s: longest %s%s, %s %u in state %c; %" PRIu64 " %s%s",
			 x, uncertain ? "~" : "", format_duration(dur, b->max),
			 report_comm(b->task), b->task->tid, b->state,
			 b->count, plural(b->count, "interval", "intervals"),
			 uncertain ? " (it overlaps lost events)" : "");
		svg_series_point(s, line, x, o->interval / 1e9, b->max / 1e6,
				 title);
	}
	f = report_svg_begin(ctx, &frame);
	ret = f ? svg_series_write(s, f, &frame) : -EIO;
	svg_series_free(s);
	return f ? report_svg_close(ctx, f, ret) : ret;
}

static int output_series(struct offcpu *o)
{
	struct report_ctx *ctx = o->ctx;
	uint64_t start, end, last, window = report_window_ns(ctx);
	size_t n = window ? (window - 1) / o->interval + 1 : 0, i;
	struct table *t = table_new();
	char title[128], dur[DURATION_LEN];
	bool uncertain;
	int ret;

	if (!t)
		return -ENOMEM;
	/* an interval ending at the window's very end is in the last one */
	if (n && o->nr_buckets > n)
		bucket_merge(&o->buckets[n - 1], &o->buckets[n]);
	schedmodel_window_abs(ctx->front.model, &start, &end);
	last = start + window;
	snprintf(title, sizeof(title),
		 "Longest off-CPU interval ending in each %s (censored ones left out)",
		 format_duration(dur, o->interval));
	report_heading(ctx, title);
	table_column(t, "START(s)", "start_s", TABLE_RIGHT);
	table_column(t, "END(s)", "end_s", TABLE_RIGHT);
	table_column(t, "COUNT", "count", TABLE_RIGHT);
	table_column(t, "MAX", "max_ns", TABLE_RIGHT);
	report_columns_thread(t);
	table_column(t, "STATE", "state", TABLE_LEFT);
	table_column(t, "CPU", "cpu", TABLE_RIGHT);
	table_column(t, "~", "uncertain", TABLE_CSV_ONLY);
	for (i = 0; i < n; i++) {
		static const struct offcpu_bucket empty;
		const struct offcpu_bucket *b = i < o->nr_buckets ?
						&o->buckets[i] : &empty;
		uint64_t from = o->series_start + i * o->interval;

		table_row(t);
		table_seconds(t, report_rel(ctx, from));
		/* the last one ends with the window */
		table_seconds(t, report_rel(ctx, from + o->interval < last ?
					    from + o->interval : last));
		table_u64(t, b->count);
		uncertain = bucket_uncertain(ctx, b);
		if (!b->count) {
			table_none(t);
			table_none(t);
			table_none(t);
			table_none(t);
			table_none(t);
			table_none(t);
		} else {
			table_duration_mark(t, b->max, uncertain);
			report_cells_thread(t, b->task);
			table_strf(t, "%c", b->state);
			if (b->cpu == CPU_NONE)
				table_none(t);
			else
				table_u64(t, b->cpu);
		}
		table_cell(t, uncertain ? "~" : "", uncertain ? "1" : "0");
	}
	ret = report_table_out(ctx, t, ctx->csv);
	if (!ret && ctx->svg_path)
		ret = draw_series(o, n);
	table_free(t);
	return ret;
}

static int offcpu_output(void *priv, struct report_ctx *ctx)
{
	struct offcpu *o = priv;
	uint64_t window = report_window_ns(ctx);

	if (o->failed) {
		tool_error("report", ENOMEM, "offcpu");
		return -ENOMEM;
	}
	/* every interval of the window is printed, not only those with ends */
	if (o->interval && window && (window - 1) / o->interval >= SERIES_MAX)
		o->too_many = true;
	if (o->too_many) {
		uint64_t least = (window + SERIES_MAX - 1) / SERIES_MAX;
		char a[DURATION_LEN], b[DURATION_LEN];

		report_usage_error(&offcpu_report,
				   "--interval %s makes more than %u intervals of the window: give at least %s, or a shorter --range",
				   format_duration(a, o->interval), SERIES_MAX,
				   format_duration(b, least));
		return -EINVAL;
	}
	if (!o->series_start) {
		uint64_t end;

		schedmodel_window_abs(ctx->front.model, &o->series_start, &end);
	}
	return o->interval ? output_series(o) : output_table(o);
}

static void offcpu_free(void *priv)
{
	struct offcpu *o = priv;
	size_t i;

	for (i = 0; i < report_rows_count(&o->rows); i++)
		durstats_free(&((struct offcpu_row *)
				report_rows_item(&o->rows, i))->d);
	report_rows_free(&o->rows);
	idmap_free(&o->thread_index);
	free(o->buckets);
}

const struct report offcpu_report = {
	.name = "offcpu",
	.summary = "off-CPU maxima per thread or process, or per interval",
	.help =
	"Off-CPU intervals per thread: from a switch-out (any CPU) to the next\n"
	"switch-in (any CPU), with the state at switch-out (R preempted or\n"
	"runnable, S sleeping, D uninterruptible, I idle kernel thread, ...).\n"
	"\n"
	"Columns (CSV names in brackets):\n"
	"  TID PID COMM [tid pid comm]  the thread, named as it was then\n"
	"  COUNT [count]            complete off-CPU intervals in the window\n"
	"  TOTAL [total_ns]         their summed length\n"
	"  MAX [max_ns]             the longest; STATE [max_state] at its\n"
	"                           switch-out, on CPU [max_cpu], beginning at\n"
	"                           AT(s) [max_start_s] seconds since the start\n"
	"  P50 P99 [p50_ns p99_ns]  nearest-rank percentiles (exact up to 1024\n"
	"                           intervals per row, then within 1 %)\n"
	"  CENSORED [censored]      intervals cut by the start or end of the\n"
	"                           recording or of --range: not counted above;\n"
	"                           CENSORED-MAX [censored_max_ns] the longest\n"
	"                           cut piece (a lower bound)\n"
	"  ~ [uncertain]            the longest, or a percentile, may rest on\n"
	"                           lost events: ~ before it in text (a\n"
	"                           percentile equal to the longest as it is;\n"
	"                           below it, one at or above the shortest\n"
	"                           interval that overlaps them)\n",
	.options = offcpu_options,
	.notes =
	"Chart (--svg): the longest interval of each row, coloured by state;\n"
	"with --interval, the series.\n",
	.examples =
	"  schedrec report offcpu run.srec --pid 4242 --top 20\n"
	"  schedrec report offcpu run.srec --cpu 3 --interval 1s\n"
	"  schedrec report offcpu run.srec --by process --min 10ms --csv\n",
	.priv_size = sizeof(struct offcpu),
	.parse = offcpu_parse,
	.start = offcpu_start,
	.output = offcpu_output,
	.free = offcpu_free,
};
