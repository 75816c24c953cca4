// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report flame: the folded stacks of `report folded` drawn as a
 * hot/cold flame graph, by us (flamegraph.c): on-CPU frames warm, off-CPU
 * frames blue, zoomable with a click in a browser.  --per-thread draws a
 * graph per thread, each as wide as the window, so that a thread's
 * off-CPU time cannot swamp the on-CPU time of the others.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "flamegraph.h"
#include "foldstack.h"
#include "ksyms.h"
#include "report.h"
#include "table.h"
#include "timefmt.h"

enum {
	OPT_PER_THREAD = REPORT_OPT_BASE,
};

static const struct optspec flame_options[] = {
	{ "per-thread", OPT_PER_THREAD, no_argument, NULL,
	  "a graph per thread, one under another, each as wide as the "
	  "window (wall time): a thread that slept half of it is half "
	  "off-CPU blue, half something else, so a long sleep cannot "
	  "swamp another thread's on-CPU time; percentages are of the "
	  "window.  The --top threads (default 20, 0: all) with the "
	  "most on-CPU time, most first.  Without it: one graph of "
	  "all the threads selected, as wide as their total time (if "
	  "its on-CPU time is under 5 % of that, too narrow to read, "
	  "a line says so)\n" },
	{ "cpu", 0, required_argument, "CPU",
	  "as in folded (on-CPU time there, off-CPU intervals that "
	  "began there)\n" },
	{ 0 },
};

#define TITLE		"Hot/cold flame graph: on-CPU (warm) and off-CPU (blue) time"
#define TITLE_THREADS	"Hot/cold flame graphs, one per thread, each as wide as the window"

/* A graph of --per-thread: one thread (a tid in a process). */
struct flame_thread {
	uint32_t tid, tgid;
	const struct fold_line *last;	/* of its latest name */
	uint64_t oncpu, offcpu;
	size_t graph;			/* SVG_NONE: not drawn */
};

/* What is drawn: the graphs and what each holds. */
struct flame_plan {
	struct flamegraph *fg;
	struct flame_thread *threads;	/* by (tid, tgid); NULL: one graph */
	size_t nr_threads;
	struct flame_thread **shown;	/* the ones drawn, in order */
	size_t nr_shown;
	struct flame_thread all;	/* the one graph, without --per-thread */
};

struct flame {
	struct report_ctx *ctx;
	bool per_thread;
	struct foldstack *fs;
	struct ksyms *ks;
	struct flame_plan plan;
};

static int flame_parse(void *priv, const struct report_ctx *ctx, int key,
		       const char *arg)
{
	struct flame *fl = priv;

	(void)ctx;
	(void)arg;
	if (key != OPT_PER_THREAD)
		return -EINVAL;
	fl->per_thread = true;
	return 0;
}

static int flame_start(void *priv, struct report_ctx *ctx)
{
	struct flame *fl = priv;

	fl->ctx = ctx;
	if (ctx->csv) {
		report_usage_error(&flame_report,
				   "flame draws a picture: for its numbers, use schedrec report folded --csv");
		return -EINVAL;
	}
	fl->fs = foldstack_new(ctx->front.model, ctx->front.info, &ctx->front.sel);
	return fl->fs ? 0 : -ENOMEM;
}

static int compare_threads(const void *a, const void *b)
{
	const struct flame_thread *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

/* Most on-CPU time first, then by tid. */
static int compare_shown(const void *a, const void *b)
{
	const struct flame_thread *x = *(const struct flame_thread **)a;
	const struct flame_thread *y = *(const struct flame_thread **)b;

	if (x->oncpu != y->oncpu)
		return x->oncpu > y->oncpu ? -1 : 1;
	return compare_threads(x, y);
}

static struct flame_thread *thread_of(struct flame_plan *plan,
				      const struct fold_line *l)
{
	struct flame_thread key = {
		.tid = l->entry->task->tid, .tgid = l->entry->task->tgid,
	};

	return bsearch(&key, plan->threads, plan->nr_threads,
		       sizeof(key), compare_threads);
}

/* The threads of @lines, each with its totals. */
static int plan_threads(struct flame_plan *plan,
			const struct fold_line *lines, size_t n)
{
	struct flame_thread *t;
	size_t i, count = 0;

	plan->threads = calloc(n ? n : 1, sizeof(*plan->threads));
	if (!plan->threads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		plan->threads[count].tid = lines[i].entry->task->tid;
		plan->threads[count].tgid = lines[i].entry->task->tgid;
		count++;
	}
	qsort(plan->threads, count, sizeof(*plan->threads), compare_threads);
	plan->nr_threads = 0;
	for (i = 0; i < count; i++)
		if (!plan->nr_threads ||
		    compare_threads(&plan->threads[plan->nr_threads - 1],
				    &plan->threads[i]))
			plan->threads[plan->nr_threads++] = plan->threads[i];
	for (i = 0; i < n; i++) {
		t = thread_of(plan, &lines[i]);
		if (!t->last || t->last->entry->task->id <
				lines[i].entry->task->id)
			t->last = &lines[i];
		if (lines[i].entry->state)
			t->offcpu += lines[i].ns;
		else
			t->oncpu += lines[i].ns;
	}
	plan->shown = calloc(plan->nr_threads ? plan->nr_threads : 1,
			     sizeof(*plan->shown));
	if (!plan->shown)
		return -ENOMEM;
	for (i = 0; i < plan->nr_threads; i++)
		plan->shown[i] = &plan->threads[i];
	qsort(plan->shown, plan->nr_threads, sizeof(*plan->shown),
	      compare_shown);
	return 0;
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/* "worker 4243 in app-4242: on-CPU 1.200 ms (12.00%), off-CPU ..." */
static void thread_heading(char *buf, size_t size,
			   const struct flame_thread *t, uint64_t window)
{
	char process[64], thread[64], on[DURATION_LEN], off[DURATION_LEN];
	char win[DURATION_LEN];

	fold_process_frame(process, sizeof(process), t->last->entry, true);
	fold_thread_frame(thread, sizeof(thread), t->last->entry, true);
	snprintf(buf, size,
		 "%s in %s: on-CPU %s (%.2f%%), off-CPU %s (%.2f%%) of the %s window",
		 thread, process, format_duration(on, t->oncpu),
		 share(t->oncpu, window), format_duration(off, t->offcpu),
		 share(t->offcpu, window), format_duration(win, window));
}

/* The graphs to draw: one, or one per thread (--top of them). */
static int plan_graphs(struct report_ctx *ctx, struct flame_plan *plan,
		       const struct fold_line *lines, size_t n,
		       bool per_thread)
{
	uint64_t window = report_window_ns(ctx);
	char heading[512], on[DURATION_LEN], off[DURATION_LEN];
	struct flame_thread *t;
	size_t i;

	plan->fg = flamegraph_new();
	if (!plan->fg)
		return -ENOMEM;
	if (per_thread) {
		if (plan_threads(plan, lines, n))
			return -ENOMEM;
		plan->nr_shown = report_limit(ctx, plan->nr_threads);
		for (i = 0; i < plan->nr_threads; i++)
			plan->threads[i].graph = SVG_NONE;
		for (i = 0; i < plan->nr_shown; i++) {
			t = plan->shown[i];
			thread_heading(heading, sizeof(heading), t, window);
			t->graph = flamegraph_graph(plan->fg, heading, window);
		}
	} else {
		t = &plan->all;
		for (i = 0; i < n; i++)
			*(lines[i].entry->state ? &t->offcpu : &t->oncpu) +=
				lines[i].ns;
		snprintf(heading, sizeof(heading),
			 "All threads selected: on-CPU %s, off-CPU %s",
			 format_duration(on, t->oncpu),
			 format_duration(off, t->offcpu));
		t->graph = flamegraph_graph(plan->fg, heading, 0);
		plan->shown = calloc(1, sizeof(*plan->shown));
		if (!plan->shown)
			return -ENOMEM;
		plan->shown[0] = t;
		plan->nr_shown = 1;
	}
	for (i = 0; i < n; i++) {
		struct flame_line fl = {
			.stack = lines[i].stack, .ns = lines[i].ns,
			.neutral = FOLD_TASK_FRAMES,
			.cold = lines[i].entry->state != 0,
		};

		t = per_thread ? thread_of(plan, &lines[i]) : &plan->all;
		flamegraph_add(plan->fg, t->graph, &fl);
	}
	return 0;
}

static void plan_free(struct flame_plan *plan)
{
	flamegraph_free(plan->fg);
	free(plan->threads);
	free(plan->shown);
	memset(plan, 0, sizeof(*plan));
}

int flame_draw_svg(struct report_ctx *ctx, const struct fold_line *lines,
		   size_t n)
{
	struct flame_plan plan = { 0 };
	struct svg_frame frame;
	FILE *f;
	int ret;

	ret = plan_graphs(ctx, &plan, lines, n, false);
	if (ret) {
		plan_free(&plan);
		return ret;
	}
	f = report_svg_begin(ctx, &frame);
	if (!f) {
		plan_free(&plan);
		return -EIO;
	}
	ret = flamegraph_write(plan.fg, f, TITLE, &frame);
	plan_free(&plan);
	return report_svg_close(ctx, f, ret);
}

/*
 * One graph of all the threads, whose off-CPU time leaves the on-CPU
 * frames under 5 % of its width (sleepers' hours against milliseconds of
 * work): say how to see them, on @out.
 */
static void hint_swamped(const struct flame *fl, FILE *out)
{
	const struct flame_thread *t = &fl->plan.all;
	uint64_t total = t->oncpu + t->offcpu;

	if (fl->per_thread || !t->oncpu || t->oncpu * 20 >= total)
		return;
	fprintf(out, "On-CPU time is only %.2f%% of the graph's width: --per-thread draws each thread as wide as the window, so that sleepers cannot swamp it (or narrow it: --tid, --range).\n",
		100.0 * t->oncpu / total);
}

/* With --svg FILE: what was drawn, on stdout. */
static int print_summary(struct flame *fl)
{
	struct report_ctx *ctx = fl->ctx;
	const struct flame_plan *plan = &fl->plan;
	struct flamegraph_stats st;
	struct table *tab = table_new();
	char process[64], thread[64];
	size_t i, merged = 0;
	double min_px = FLAMEGRAPH_MIN_PX;
	int ret;

	if (!tab)
		return -ENOMEM;
	report_heading(ctx, fl->per_thread ? TITLE_THREADS : TITLE);
	table_column(tab, "GRAPH", "graph", TABLE_LEFT);
	table_column(tab, "ON-CPU", "oncpu_ns", TABLE_RIGHT);
	table_column(tab, "OFF-CPU", "offcpu_ns", TABLE_RIGHT);
	table_column(tab, "FRAMES", "frames", TABLE_RIGHT);
	table_column(tab, "MERGED", "merged", TABLE_RIGHT);
	for (i = 0; i < plan->nr_shown; i++) {
		const struct flame_thread *t = plan->shown[i];

		flamegraph_stats(plan->fg, t->graph, &st);
		merged += st.merged;
		min_px = st.min_px;
		table_row(tab);
		if (fl->per_thread) {
			fold_process_frame(process, sizeof(process),
					   t->last->entry, true);
			fold_thread_frame(thread, sizeof(thread),
					  t->last->entry, true);
			table_strf(tab, "%s in %s", thread, process);
		} else {
			table_str(tab, "all threads selected");
		}
		table_duration(tab, t->oncpu);
		table_duration(tab, t->offcpu);
		table_u64(tab, st.frames);
		table_u64(tab, st.merged);
	}
	ret = report_table_out(ctx, tab, false);
	table_free(tab);
	if (ret)
		return ret;
	if (fl->per_thread && !plan->nr_threads)
		fprintf(ctx->out, "(no thread of the selection has time in the window)\n");
	else if (plan->nr_shown < plan->nr_threads)
		fprintf(ctx->out, "(%zu more %s: --top 0 draws all)\n",
			plan->nr_threads - plan->nr_shown,
			plural(plan->nr_threads - plan->nr_shown, "thread",
			       "threads"));
	fprintf(ctx->out, "\nDrawn into %s.", ctx->svg_path);
	if (merged)
		fprintf(ctx->out, " %zu %s narrower than %g px %s not drawn (%s time is in %s width).",
			merged, plural(merged, "frame", "frames"), min_px,
			plural(merged, "is", "are"),
			plural(merged, "its", "their"),
			plural(merged, "its parent's", "their parents'"));
	fputc('\n', ctx->out);
	hint_swamped(fl, ctx->out);
	return stream_error(ctx->out);
}

static int flame_output(void *priv, struct report_ctx *ctx)
{
	struct flame *fl = priv;
	struct svg_frame frame;
	struct fold_line *lines;
	FILE *f;
	long n;
	int ret;

	if (foldstack_failed(fl->fs))
		return -ENOMEM;
	fl->ks = ksyms_parse(ctx->front.info->kallsyms, ctx->front.info->kallsyms_len);
	if (!fl->ks)
		return -ENOMEM;
	n = foldstack_lines(fl->fs, fl->ks, true, &lines);
	if (n < 0)
		return n;
	ret = plan_graphs(ctx, &fl->plan, lines, n, fl->per_thread);
	if (ret)
		return ret;
	if (!ctx->svg_path) {
		/* the picture on stdout: schedrec report flame T > x.svg */
		report_subtitle(ctx, ctx->chart_subtitle,
				sizeof(ctx->chart_subtitle));
		report_loss_warning(ctx, ctx->chart_warning,
				    sizeof(ctx->chart_warning));
		frame = (struct svg_frame){
			.subtitle = ctx->chart_subtitle,
			.warning = ctx->chart_warning[0] ?
				   ctx->chart_warning : NULL,
		};
		if (!ctx->front.quiet)
			hint_swamped(fl, stderr);
		return flamegraph_write(fl->plan.fg, ctx->out,
					fl->per_thread ? TITLE_THREADS : TITLE,
					&frame);
	}
	f = report_svg_begin(ctx, &frame);
	if (!f)
		return -EIO;
	ret = flamegraph_write(fl->plan.fg, f,
			       fl->per_thread ? TITLE_THREADS : TITLE, &frame);
	ret = report_svg_close(ctx, f, ret);
	return ret ? ret : print_summary(fl);
}

static void flame_free(void *priv)
{
	struct flame *fl = priv;

	plan_free(&fl->plan);
	foldstack_free(fl->fs);
	ksyms_free(fl->ks);
}

const struct report flame_report = {
	.name = "flame",
	.summary = "hot/cold flame graph of on-CPU and off-CPU time (SVG)",
	.help =
	"The folded stacks of schedrec report folded (see its --help: process,\n"
	"thread, on-CPU, or off-CPU, the state at switch-out and the kernel\n"
	"frames) drawn as a hot/cold flame graph: a frame is a rectangle as\n"
	"wide as its time, its callees stacked on top of it, the root (\"all\")\n"
	"at the bottom as in FlameGraph; siblings sorted on-CPU first, then by\n"
	"name.  On-CPU frames are warm (reds to yellows), off-CPU frames blue,\n"
	"process and thread frames grey; each shade is stable per name.  Every\n"
	"frame has a tooltip: its name, its time and its share of the graph\n"
	"(\"do_nanosleep (3.700 ms, 37.00%)\").  Labels are cut to fit.\n"
	"\n"
	"In a browser, a click on a frame zooms into it: it takes the whole\n"
	"width with what is above it, its callers stay under it, dimmed, and\n"
	"\"Reset zoom\" (top right of the graph) zooms out.  The script is in\n"
	"the SVG (no network, no other file); without it the SVG draws\n"
	"unzoomed.  Frames narrower than 0.1 px are not drawn: they stay part\n"
	"of their parent's width; in a graph that would still have more than\n"
	"its share of 40000 frames (at least 1000 each) that limit doubles\n"
	"until they fit.  Zooming does not bring them back: narrow the\n"
	"selection (--tid, --range) or read report folded.\n"
	"\n"
	"The SVG goes to --svg FILE, which prints on stdout what was drawn\n"
	"(per graph: on-CPU and off-CPU time, frames drawn and merged);\n"
	"without --svg, the SVG itself goes to stdout.  --csv is refused: the\n"
	"numbers are schedrec report folded --csv.\n",
	.options = flame_options,
	.examples =
	"  schedrec report flame run.srec --pid 4242 --svg hotcold.svg\n"
	"  schedrec report flame run.srec --pid 4242 --per-thread --svg threads.svg\n"
	"  schedrec report flame run.srec --range 12.5:13 > window.svg\n",
	.priv_size = sizeof(struct flame),
	.parse = flame_parse,
	.start = flame_start,
	.output = flame_output,
	.free = flame_free,
};
