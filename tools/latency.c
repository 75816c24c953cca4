// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report latency: wakeup latency (woken -> on CPU) and runqueue
 * latency after preemption (R switch-out -> on CPU), per thread or
 * process, as log2 histograms and percentiles, and who woke whom.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "durstats.h"
#include "pairs.h"
#include "report.h"
#include "svg.h"
#include "table.h"
#include "timefmt.h"

enum {
	OPT_BY = REPORT_OPT_BASE,
	OPT_WAKERS,
	OPT_HIST,
};

#define NR_KINDS	2
#define NR_PCTS		3
static const double pcts[NR_PCTS] = { 50, 90, 99 };
static const char *const kind_names[NR_KINDS] = {
	[LATENCY_WAKEUP] = "wakeup",
	[LATENCY_RUNQUEUE] = "runqueue",
};

/* The samples of one kind of a row. */
struct latency_stats {
	struct durstats d;
	uint64_t max_start;		/* of the longest, for the loss check */
	struct durflags uncertain;	/* of d: overlapping lost events */
};

struct latency_row {
	struct report_row r;		/* first */
	struct latency_stats s[NR_KINDS];
};

struct latency {
	struct report_ctx *ctx;
	bool wakers_csv;
	bool hist_csv;
	struct report_rows rows;	/* struct latency_row */
	struct log2hist hist[NR_KINDS];	/* of the selection, in us */
	/* (thread, waker): count wakeups; other NULL: interrupt context */
	struct task_pairs wakers;
	bool failed;
};

static const struct optspec latency_options[] = {
	{ "by", OPT_BY, required_argument, "thread|process",
	  "rows per thread (default) or process (named after its "
	  "leader's last name)\n" },
	{ "wakers", OPT_WAKERS, no_argument, NULL,
	  "with --csv: who woke whom instead, a row per (thread, "
	  "waker): tid pid comm waker_tid waker_pid waker_comm "
	  "wakeups (waker <irq>, tid 0: from interrupt context)\n" },
	{ "hist", OPT_HIST, no_argument, NULL,
	  "with --csv: the histograms instead: kind low_ns high_ns "
	  "count\n" },
	{ "cpu", 0, required_argument, "CPU",
	  "samples whose switch-in was on those CPUs\n" },
	{ 0 },
};

static int latency_parse(void *priv, const struct report_ctx *ctx, int key,
			 const char *arg)
{
	struct latency *l = priv;

	(void)ctx;
	switch (key) {
	case OPT_BY:
		return report_parse_by(&latency_report, arg, &l->rows.by_process);
	case OPT_WAKERS:
		l->wakers_csv = true;
		return 0;
	case OPT_HIST:
		l->hist_csv = true;
		return 0;
	}
	return -EINVAL;
}

static void count_waker(struct latency *l, const struct latency_ev *ev)
{
	if (!ev->waker_irq && !ev->waker)
		return;		/* not known */
	if (task_pair_add(&l->wakers, ev->task,
			  ev->waker_irq ? NULL : ev->waker, 1, 0))
		l->failed = true;
}

static void stats_add(struct latency_stats *s, const struct latency_ev *ev)
{
	uint64_t len = ev->end - ev->start;

	if (durflags_add(&s->uncertain, &s->d, len, ev->flags & IV_UNCERTAIN))
		s->max_start = ev->start;
	durstats_add(&s->d, len);
}

static void on_latency(void *arg, const struct latency_ev *ev)
{
	struct latency *l = arg;
	struct latency_row *row;
	uint64_t len = ev->end - ev->start;

	if (!select_task(&l->ctx->front.sel, (struct task *)ev->task) ||
	    !select_cpu(&l->ctx->front.sel, ev->cpu))
		return;
	row = (void *)report_row_of(&l->rows, ev->task);
	if (!row) {
		l->failed = true;
		return;
	}
	row->r.used = true;
	stats_add(&row->s[ev->kind], ev);
	log2hist_add(&l->hist[ev->kind], len / 1000);
	if (ev->kind == LATENCY_WAKEUP)
		count_waker(l, ev);
}

static int latency_start(void *priv, struct report_ctx *ctx)
{
	struct latency *l = priv;
	struct sched_handler h = { .latency = on_latency, .arg = l };

	if ((l->wakers_csv || l->hist_csv) && !ctx->csv) {
		report_usage_error(&latency_report,
				   "--wakers and --hist choose the CSV table: add --csv");
		return -EINVAL;
	}
	if (l->wakers_csv && l->hist_csv) {
		report_usage_error(&latency_report,
				   "--wakers or --hist: one table at a time");
		return -EINVAL;
	}
	if (l->wakers_csv && l->rows.by_process) {
		report_usage_error(&latency_report,
				   "--wakers is per thread: leave out --by process");
		return -EINVAL;
	}
	l->ctx = ctx;
	report_rows_init(&l->rows, sizeof(struct latency_row), ctx->front.model);
	return schedmodel_add_handler(ctx->front.model, &h);
}

static uint64_t row_count(const struct latency_row *row)
{
	return row->s[LATENCY_WAKEUP].d.count +
	       row->s[LATENCY_RUNQUEUE].d.count;
}

static uint64_t row_max(const struct latency_row *row)
{
	uint64_t w = row->s[LATENCY_WAKEUP].d.max;
	uint64_t r = row->s[LATENCY_RUNQUEUE].d.max;

	return w > r ? w : r;
}

static int compare_rows(const struct report_row *a, const struct report_row *b,
			void *arg)
{
	const struct latency_row *x = (const void *)a;
	const struct latency_row *y = (const void *)b;
	uint64_t kx = row_max(x), ky = row_max(y);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (row_count(x) != row_count(y))
		return row_count(x) > row_count(y) ? -1 : 1;
	(void)arg;
	return a->task->tid < b->task->tid ? -1 : a->task->tid > b->task->tid;
}

/* The values of a kind of a row, and which may rest on lost events. */
struct latency_values {
	uint64_t v[NR_PCTS + 1];	/* the percentiles, then the max */
	bool uncertain[NR_PCTS + 1];
	bool any;			/* one of them is */
};

/*
 * The longest sample is uncertain if it overlaps lost events (checked
 * again against every loss of the window: one seen after the sample
 * ended counts); the percentiles as durflags_value() says.
 */
static void stats_values(const struct report_ctx *ctx,
			 struct latency_stats *s, struct latency_values *out)
{
	bool max_uncertain;
	unsigned int i;

	max_uncertain = s->d.count &&
		(s->uncertain.max ||
		 schedmodel_overlaps_loss(ctx->front.model, s->max_start,
					  s->max_start + s->d.max));
	out->v[NR_PCTS] = s->d.max;
	out->uncertain[NR_PCTS] = max_uncertain;
	out->any = max_uncertain;
	for (i = 0; i < NR_PCTS; i++) {
		out->v[i] = durstats_percentile(&s->d, pcts[i]);
		out->uncertain[i] = durflags_value(&s->uncertain, &s->d,
						   max_uncertain, out->v[i]);
		out->any |= out->uncertain[i];
	}
}

/* P50 P90 P99 MAX, "~" on those that may rest on lost events. */
static void cells_values(struct table *tab, const struct latency_values *x)
{
	unsigned int i;

	for (i = 0; i <= NR_PCTS; i++)
		table_duration_mark(tab, x->v[i], x->uncertain[i]);
}

/* COUNT P50 P90 P99 MAX of one kind. */
static void cells_stats(const struct report_ctx *ctx, struct table *tab,
			struct latency_row *row, unsigned int kind)
{
	struct latency_stats *s = &row->s[kind];
	struct latency_values x;
	unsigned int i;

	table_u64(tab, s->d.count);
	if (!s->d.count) {
		for (i = 0; i <= NR_PCTS; i++)
			table_none(tab);
		return;
	}
	stats_values(ctx, s, &x);
	cells_values(tab, &x);
}

static int print_text(struct latency *l, struct report_row **rows, size_t n)
{
	struct report_ctx *ctx = l->ctx;
	struct table *tab = table_new();
	size_t i, shown = report_limit(ctx, n);
	unsigned int k;
	int ret;

	if (!tab)
		return -ENOMEM;
	fprintf(ctx->out, "Wakeup latency (woken -> on CPU), all selected threads:\n");
	log2hist_print(ctx->out, &l->hist[LATENCY_WAKEUP], "usecs");
	fprintf(ctx->out, "\nRunqueue latency after preemption (R switch-out -> on CPU):\n");
	log2hist_print(ctx->out, &l->hist[LATENCY_RUNQUEUE], "usecs");
	fputc('\n', ctx->out);
	report_rows_columns(&l->rows, tab);
	for (k = 0; k < NR_KINDS; k++) {
		static const char *const heads[NR_KINDS][5] = {
			{ "WAKEUPS", "W-P50", "W-P90", "W-P99", "W-MAX" },
			{ "PREEMPTED", "R-P50", "R-P90", "R-P99", "R-MAX" },
		};
		unsigned int c;

		for (c = 0; c < 5; c++)
			table_column(tab, heads[k][c], heads[k][c],
				     TABLE_RIGHT);
	}
	for (i = 0; i < shown; i++) {
		table_row(tab);
		report_rows_cells(&l->rows, tab, rows[i]);
		for (k = 0; k < NR_KINDS; k++)
			cells_stats(ctx, tab, (void *)rows[i], k);
	}
	ret = report_table_print(ctx, tab, n, shown,
				 "no wakeup or preemption in the selection");
	table_free(tab);
	return ret;
}

/* Each shown thread's top wakers (text). */
static int print_wakers(struct latency *l, struct report_row **rows,
			size_t n)
{
	struct report_ctx *ctx = l->ctx;
	const struct task_pair **pairs = task_pairs_sorted(&l->wakers);
	char comm[REPORT_COMM_TEXT_LEN];
	size_t i, j, shown = report_limit(ctx, n), printed, count;
	uint64_t rest;

	if (!pairs)
		return -ENOMEM;
	if (l->wakers.count && !l->rows.by_process)
		fprintf(ctx->out, "\nWho woke them, most first (<irq>: from interrupt context):\n");
	for (i = 0; i < shown && !l->rows.by_process; i++) {
		const struct task_pair **mine;

		mine = task_pairs_of(pairs, l->wakers.count, rows[i]->task,
				     &count);
		printed = 0;
		rest = 0;
		for (j = 0; j < count; j++) {
			const struct task_pair *p = mine[j];

			if (!printed++)
				fprintf(ctx->out, "%s %u:",
					report_comm_text(p->task, comm),
					p->task->tid);
			if (printed > 3) {
				rest += p->count;
				continue;
			}
			fprintf(ctx->out, "%s %" PRIu64 " by ",
				printed > 1 ? "," : "", p->count);
			if (p->other)
				fprintf(ctx->out, "%s %u",
					report_comm_text(p->other, comm),
					p->other->tid);
			else
				fprintf(ctx->out, "<irq>");
		}
		if (rest)
			fprintf(ctx->out, ", %" PRIu64 " by others", rest);
		if (printed)
			fputc('\n', ctx->out);
	}
	free(pairs);
	return ferror(ctx->out) ? -EIO : 0;
}

static int print_csv(struct latency *l, struct report_row **rows, size_t n)
{
	struct table *tab = table_new();
	size_t i, shown = report_limit(l->ctx, n);
	unsigned int k;
	int ret;

	if (!tab)
		return -ENOMEM;
	report_rows_columns(&l->rows, tab);
	table_column(tab, "KIND", "kind", TABLE_LEFT);
	table_column(tab, "COUNT", "count", TABLE_RIGHT);
	table_column(tab, "TOTAL", "total_ns", TABLE_RIGHT);
	table_column(tab, "P50", "p50_ns", TABLE_RIGHT);
	table_column(tab, "P90", "p90_ns", TABLE_RIGHT);
	table_column(tab, "P99", "p99_ns", TABLE_RIGHT);
	table_column(tab, "MAX", "max_ns", TABLE_RIGHT);
	table_column(tab, "~", "uncertain", TABLE_CSV_ONLY);
	for (i = 0; i < shown; i++) {
		for (k = 0; k < NR_KINDS; k++) {
			struct latency_stats *s =
				&((struct latency_row *)rows[i])->s[k];
			struct latency_values x;

			if (!s->d.count)
				continue;
			stats_values(l->ctx, s, &x);
			table_row(tab);
			report_rows_cells(&l->rows, tab, rows[i]);
			table_str(tab, kind_names[k]);
			table_u64(tab, s->d.count);
			table_duration(tab, s->d.total);
			cells_values(tab, &x);
			table_u64(tab, x.any);
		}
	}
	ret = report_table_out(l->ctx, tab, true);
	table_free(tab);
	return ret;
}

static const struct report_pairs waker_columns = {
	.other = { { "WAKER-TID", "waker_tid" },
		   { "WAKER-PID", "waker_pid" },
		   { "WAKER-COMM", "waker_comm" } },
	.count = { "WAKEUPS", "wakeups" },
	.nobody = "<irq>",
};

static int print_hist_csv(struct latency *l)
{
	struct table *tab = table_new();
	unsigned int k, i;
	int ret;

	if (!tab)
		return -ENOMEM;
	table_column(tab, "KIND", "kind", TABLE_LEFT);
	table_column(tab, "LOW", "low_ns", TABLE_RIGHT);
	table_column(tab, "HIGH", "high_ns", TABLE_RIGHT);
	table_column(tab, "COUNT", "count", TABLE_RIGHT);
	for (k = 0; k < NR_KINDS; k++) {
		for (i = 0; i < LOG2HIST_SLOTS; i++) {
			if (!l->hist[k].slots[i])
				continue;
			table_row(tab);
			table_str(tab, kind_names[k]);
			table_u64(tab, log2hist_low(i) * 1000);
			table_u64(tab, log2hist_high(i) * 1000 + 999);
			table_u64(tab, l->hist[k].slots[i]);
		}
	}
	ret = report_table_out(l->ctx, tab, true);
	table_free(tab);
	return ret;
}

static int draw(struct latency *l)
{
	struct report_ctx *ctx = l->ctx;
	struct svg_frame frame;
	char label[64], title[256];
	size_t series[NR_KINDS], bucket;
	struct svg_hist *h;
	int first = -1, last = -1, i;
	unsigned int k;
	FILE *f;
	int ret;

	h = svg_hist_new("Wakeup and runqueue latency (log2 buckets)",
			 "events");
	if (!h)
		return -ENOMEM;
	series[LATENCY_WAKEUP] = svg_hist_series(h, "wakeup -> on CPU",
						 SVG_BLUE);
	series[LATENCY_RUNQUEUE] = svg_hist_series(h, "preempted -> on CPU",
						   SVG_RED);
	for (i = 0; i < LOG2HIST_SLOTS; i++) {
		if (!l->hist[0].slots[i] && !l->hist[1].slots[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
	}
	for (i = first; first >= 0 && i <= last; i++) {
		snprintf(label, sizeof(label), "%llu-%llu us",
			 (unsigned long long)log2hist_low(i),
			 (unsigned long long)log2hist_high(i));
		bucket = svg_hist_bucket(h, label);
		for (k = 0; k < NR_KINDS; k++) {
			snprintf(title, sizeof(title), "%s latency %s: %llu",
				 kind_names[k], label,
				 (unsigned long long)l->hist[k].slots[i]);
			svg_hist_set(h, series[k], bucket, l->hist[k].slots[i],
				     title);
		}
	}
	f = report_svg_begin(ctx, &frame);
	ret = f ? svg_hist_write(h, f, &frame) : -EIO;
	svg_hist_free(h);
	return f ? report_svg_close(ctx, f, ret) : ret;
}

static int latency_output(void *priv, struct report_ctx *ctx)
{
	struct latency *l = priv;
	struct report_row **rows;
	size_t n;
	int ret;

	if (l->failed)
		return -ENOMEM;
	rows = report_rows_sorted(&l->rows, compare_rows, NULL, &n);
	if (!rows)
		return -ENOMEM;
	report_heading(ctx, l->rows.by_process ?
		       "Wakeup and runqueue latency per process" :
		       "Wakeup and runqueue latency per thread");
	if (!ctx->csv) {
		ret = print_text(l, rows, n);
		if (!ret)
			ret = print_wakers(l, rows, n);
	} else if (l->wakers_csv) {
		ret = report_pairs_csv(ctx, &l->wakers, &waker_columns);
	} else if (l->hist_csv) {
		ret = print_hist_csv(l);
	} else {
		ret = print_csv(l, rows, n);
	}
	if (!ret && ctx->svg_path)
		ret = draw(l);
	free(rows);
	return ret;
}

static void latency_free(void *priv)
{
	struct latency *l = priv;
	struct latency_row *row;
	unsigned int k;
	size_t i;

	for (i = 0; i < report_rows_count(&l->rows); i++) {
		row = (void *)report_rows_item(&l->rows, i);
		for (k = 0; k < NR_KINDS; k++)
			durstats_free(&row->s[k].d);
	}
	report_rows_free(&l->rows);
	task_pairs_free(&l->wakers);
}

const struct report latency_report = {
	.name = "latency",
	.summary = "wakeup and runqueue latency: histograms, percentiles, wakers",
	.help =
	"Wakeup latency: from the first sched_waking (or sched_wakeup, or\n"
	"sched_wakeup_new) after a thread went to sleep, to its switch-in\n"
	"(none for a thread switched out runnable, R: it never slept).\n"
	"Runqueue latency: from a preempted (R) switch-out to the next\n"
	"switch-in.  A sample belongs to the window its switch-in is in.\n"
	"\n"
	"Text: log2 histograms of both for the whole selection (usecs), then\n"
	"a row per thread: TID PID COMM, WAKEUPS (wakeup samples) and\n"
	"W-P50 W-P90 W-P99 W-MAX of their latency, PREEMPTED (runqueue\n"
	"samples) and R-P50 R-P90 R-P99 R-MAX of theirs (nearest rank, exact\n"
	"up to 1024 samples per row, then within 1 %; ~ on a value that may\n"
	"rest on lost events), then each thread's top wakers.\n"
	"\n"
	"CSV columns, a row per (thread, kind):\n"
	"  tid pid comm        the thread (no tid with --by process)\n"
	"  kind                wakeup or runqueue\n"
	"  count total_ns      its samples (WAKEUPS or PREEMPTED) and their sum\n"
	"  p50_ns p90_ns p99_ns max_ns   percentiles and the longest\n"
	"  uncertain           1 if one of them may rest on lost events (~\n"
	"                      before it in text): the max if its sample\n"
	"                      overlaps them, a percentile equal to it as it\n"
	"                      is, one below it if at or above the shortest\n"
	"                      sample that does\n",
	.options = latency_options,
	.notes =
	"Chart (--svg): both histograms.\n",
	.examples =
	"  schedrec report latency run.srec --pid 4242\n"
	"  schedrec report latency run.srec --csv --wakers\n",
	.priv_size = sizeof(struct latency),
	.parse = latency_parse,
	.start = latency_start,
	.output = latency_output,
	.free = latency_free,
};
