// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report tenancy: exact on-CPU time per thread and CPU, and per
 * CPU, which threads occupied it and how long it idled.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"
#include "table.h"
#include "timefmt.h"

struct tenancy_thread {
	uint64_t *cpu_ns;	/* per CPU, NULL until it runs */
	uint64_t total;		/* on the CPUs of --cpu */
	uint64_t all;		/* on any CPU: what its shares are of */
};

struct tenancy {
	struct report_ctx *ctx;
	unsigned int nr_cpus;
	struct per_task threads;	/* struct tenancy_thread */
	uint64_t *idle_ns;		/* per CPU */
	uint64_t *others_ns;		/* per CPU: threads not selected */
	bool failed;
};

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct tenancy *t = arg;
	const struct report_ctx *ctx = t->ctx;
	uint64_t len = iv->end - iv->start;
	bool cpu = select_cpu(&ctx->front.sel, iv->cpu);
	struct tenancy_thread *row;

	if (!iv->task) {
		if (cpu)
			t->idle_ns[iv->cpu] += len;
		return;
	}
	if (!select_task(&ctx->front.sel, (struct task *)iv->task)) {
		if (cpu)
			t->others_ns[iv->cpu] += len;
		return;
	}
	row = per_task_get(&t->threads, iv->task);
	if (row && !row->cpu_ns)
		row->cpu_ns = calloc(t->nr_cpus, sizeof(*row->cpu_ns));
	if (!row || !row->cpu_ns) {
		t->failed = true;
		return;
	}
	/* time on the other CPUs too: is the thread pinned to these? */
	row->all += len;
	if (!cpu)
		return;
	row->cpu_ns[iv->cpu] += len;
	row->total += len;
}

static int tenancy_start(void *priv, struct report_ctx *ctx)
{
	struct tenancy *t = priv;
	struct sched_handler h = { .oncpu = on_oncpu, .arg = t };

	t->ctx = ctx;
	t->nr_cpus = ctx->front.info->file.nr_cpus;
	t->threads.size = sizeof(struct tenancy_thread);
	t->idle_ns = calloc(t->nr_cpus, sizeof(*t->idle_ns));
	t->others_ns = calloc(t->nr_cpus, sizeof(*t->others_ns));
	if (!t->idle_ns || !t->others_ns)
		return -ENOMEM;
	return schedmodel_add_handler(ctx->front.model, &h);
}

/* Tasks that ran, most on-CPU time first. */
struct ranked {
	const struct task *task;
	uint64_t ns;
};

static int compare_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->task->tid < y->task->tid ? -1 : x->task->tid > y->task->tid;
}

/* The threads that ran, by @cpu's time (CPU_NONE: their total). */
static struct ranked *rank(struct tenancy *t, uint32_t cpu, size_t *count)
{
	struct task *const *tasks;
	size_t nr = schedmodel_tasks(t->ctx->front.model, &tasks), i;
	struct ranked *v = calloc(nr ? nr : 1, sizeof(*v));

	*count = 0;
	if (!v)
		return NULL;
	for (i = 0; i < nr; i++) {
		struct tenancy_thread *row =
			per_task_find(&t->threads, tasks[i]);
		uint64_t ns;

		if (!row || !row->total)
			continue;
		ns = cpu == CPU_NONE ? row->total : row->cpu_ns[cpu];
		if (!ns)
			continue;
		v[*count].task = tasks[i];
		v[*count].ns = ns;
		(*count)++;
	}
	qsort(v, *count, sizeof(*v), compare_ranked);
	return v;
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / whole : 0;
}

/*
 * "cpu1 99.5%, cpu0 0.5%": the CPUs a thread ran on, most first, each as
 * a share of its on-CPU time on all CPUs (with --cpu, the rest is on the
 * others).
 */
static void cell_cpus(struct tenancy *t, struct table *tab,
		      const struct tenancy_thread *row)
{
	char buf[256];
	size_t len = 0, shown = 0;
	uint64_t done = 0, best;
	unsigned int cpu, pick = 0;
	bool *used = calloc(t->nr_cpus, sizeof(*used));

	buf[0] = '\0';
	while (used && done < row->total && len < sizeof(buf) - 16) {
		best = 0;
		for (cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (!used[cpu] && row->cpu_ns[cpu] > best) {
				best = row->cpu_ns[cpu];
				pick = cpu;
			}
		}
		if (!best)
			break;
		if (shown == 8) {
			len += snprintf(buf + len, sizeof(buf) - len,
					", others %.1f%%",
					100 * share(row->total - done,
						    row->all));
			break;
		}
		used[pick] = true;
		done += best;
		len += snprintf(buf + len, sizeof(buf) - len, "%scpu%u %.1f%%",
				shown ? ", " : "", pick,
				100 * share(best, row->all));
		shown++;
	}
	if (used && row->all > row->total)
		snprintf(buf + len, sizeof(buf) - len,
			 ", CPUs not selected %.1f%%",
			 100 * share(row->all - row->total, row->all));
	free(used);
	table_str(tab, buf);
}

static int print_threads(struct tenancy *t, struct ranked *v, size_t n)
{
	struct report_ctx *ctx = t->ctx;
	uint64_t window = report_window_ns(ctx);
	struct table *tab = table_new();
	size_t i, shown = report_limit(ctx, n);
	int ret;

	if (!tab)
		return -ENOMEM;
	report_columns_thread(tab);
	table_column(tab, "ON-CPU", "oncpu_ns", TABLE_RIGHT);
	table_column(tab, "OF-WINDOW", "window_share", TABLE_RIGHT);
	table_column(tab, "CPUS (SHARE OF ITS ON-CPU TIME)", "cpus",
		     TABLE_LEFT);
	for (i = 0; i < shown; i++) {
		const struct tenancy_thread *row =
			per_task_find(&t->threads, v[i].task);

		table_row(tab);
		report_cells_thread(tab, v[i].task);
		table_duration(tab, row->total);
		table_share(tab, share(row->total, window));
		cell_cpus(t, tab, row);
	}
	ret = report_table_print(ctx, tab, n, shown,
				 "no thread of the selection ran");
	table_free(tab);
	return ret;
}

/* The on-CPU time of every thread on @cpu, selected or not. */
static uint64_t cpu_busy(const struct tenancy *t, uint32_t cpu)
{
	const struct tenancy_thread *rows = t->threads.items;
	uint64_t busy = t->others_ns[cpu];
	size_t i;

	for (i = 0; i < t->threads.count; i++)
		if (rows[i].cpu_ns)
			busy += rows[i].cpu_ns[cpu];
	return busy;
}

/*
 * The time of @cpu in the window that nobody can be given, its threads'
 * (selected or not) being @busy.
 */
static uint64_t cpu_not_known(const struct tenancy *t, uint32_t cpu,
			      uint64_t busy)
{
	uint64_t window = report_window_ns(t->ctx);
	uint64_t known = busy + t->idle_ns[cpu];

	return window - (known < window ? known : window);
}

/* Whether @cpu is shown: selected, and online in the recording. */
static bool cpu_shown(const struct tenancy *t, uint32_t cpu)
{
	const struct report_ctx *ctx = t->ctx;

	return select_cpu(&ctx->front.sel, cpu) &&
	       srecreader_cpu_online(ctx->front.reader, cpu);
}

#define LOSS_LOST	0x1	/* events were lost */
#define LOSS_CUT	0x2	/* the file is cut short */

/*
 * Per CPU, the kinds of its loss windows (LOSS_*), in one look through
 * them: a header may claim 65536 CPUs, each cut short.  NULL on ENOMEM.
 */
static unsigned char *loss_kinds(const struct tenancy *t)
{
	const struct sched_loss *losses;
	size_t n = schedmodel_losses(t->ctx->front.model, &losses), i;
	unsigned char *kinds = calloc(t->nr_cpus, 1);

	for (i = 0; kinds && i < n; i++)
		if (losses[i].cpu < t->nr_cpus)
			kinds[losses[i].cpu] |= losses[i].cut ? LOSS_CUT :
								LOSS_LOST;
	return kinds;
}

/* Why some of a CPU's time is not known, its loss_kinds() @kinds. */
static const char *cpu_not_known_why(unsigned char kinds)
{
	if (kinds & LOSS_CUT)
		return kinds & LOSS_LOST ?
		       "events were lost, and the file is cut short" :
		       "the file is cut short";
	return kinds & LOSS_LOST ? "events were lost" :
		      "no switch recorded there tells who ran";
}

/*
 * What the time of threads not selected is: without --pid, --tid or
 * --comm, only the drainer's (schedrec record itself, left out unless
 * named).
 */
static const char *others_label(const struct report_ctx *ctx, char *buf,
				size_t size)
{
	const struct selection *sel = &ctx->front.sel;

	if (sel->nr_pids || sel->nr_tids || sel->has_comm ||
	    !ctx->front.info->file.drainer_pid)
		return "threads not selected";
	snprintf(buf, size, "schedrec record itself (--pid %u shows it)",
		 ctx->front.info->file.drainer_pid);
	return buf;
}

static int print_cpus(struct tenancy *t)
{
	struct report_ctx *ctx = t->ctx;
	uint64_t window = report_window_ns(ctx), rest, busy;
	char dur[DURATION_LEN], dur2[DURATION_LEN], drainer[64];
	char comm[REPORT_COMM_TEXT_LEN];
	unsigned char *kinds = loss_kinds(t);
	struct ranked *v;
	unsigned int cpu;
	size_t n, i, shown;

	if (!kinds)
		return -ENOMEM;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (!cpu_shown(t, cpu))
			continue;
		v = rank(t, cpu, &n);
		if (!v) {
			free(kinds);
			return -ENOMEM;
		}
		busy = cpu_busy(t, cpu);
		fprintf(ctx->out,
			"\nCPU %u: threads %s (%.1f%%), idle %s (%.1f%%)",
			cpu, format_duration(dur, busy),
			100 * share(busy, window),
			format_duration(dur2, t->idle_ns[cpu]),
			100 * share(t->idle_ns[cpu], window));
		rest = cpu_not_known(t, cpu, busy);
		if (rest)
			fprintf(ctx->out, ", not known %s (%s)",
				format_duration(dur, rest),
				cpu_not_known_why(kinds[cpu]));
		fputc('\n', ctx->out);
		shown = report_limit(ctx, n);
		for (i = 0; i < shown; i++)
			fprintf(ctx->out, "  %6.1f%%  %12s  %s %u\n",
				100 * share(v[i].ns, window),
				format_duration(dur, v[i].ns),
				report_comm_text(v[i].task, comm),
				v[i].task->tid);
		rest = 0;
		for (; i < n; i++)
			rest += v[i].ns;
		if (shown < n)
			fprintf(ctx->out, "  %6.1f%%  %12s  %zu %s\n",
				100 * share(rest, window),
				format_duration(dur, rest), n - shown,
				plural(n - shown, "other thread",
				       "other threads"));
		if (t->others_ns[cpu])
			fprintf(ctx->out, "  %6.1f%%  %12s  %s\n",
				100 * share(t->others_ns[cpu], window),
				format_duration(dur, t->others_ns[cpu]),
				others_label(ctx, drainer, sizeof(drainer)));
		free(v);
	}
	free(kinds);
	return stream_error(ctx->out);
}

/* A CSV row of @cpu's time that is no thread's: idle, or not known. */
static void csv_cpu_row(struct table *tab, uint32_t cpu, int tid,
			const char *comm, uint64_t ns, uint64_t window)
{
	table_row(tab);
	table_u64(tab, cpu);
	table_strf(tab, "%d", tid);
	table_strf(tab, "%d", tid);
	table_str(tab, comm);
	table_duration(tab, ns);
	table_share(tab, 1);
	table_share(tab, share(ns, window));
}

/*
 * CSV: a row per (CPU, thread), one per CPU for idle (tid 0) and one for
 * the time not known there (tid -1), as the text's "not known".
 */
static int print_csv(struct tenancy *t, struct ranked *v, size_t n)
{
	struct report_ctx *ctx = t->ctx;
	uint64_t window = report_window_ns(ctx);
	struct table *tab = table_new();
	size_t i, shown = report_limit(ctx, n);
	unsigned int cpu;
	int ret;

	if (!tab)
		return -ENOMEM;
	table_column(tab, "CPU", "cpu", TABLE_RIGHT);
	report_columns_thread(tab);
	table_column(tab, "ON-CPU", "oncpu_ns", TABLE_RIGHT);
	table_column(tab, "OF-THREAD", "thread_share", TABLE_RIGHT);
	table_column(tab, "OF-CPU", "cpu_share", TABLE_RIGHT);
	for (i = 0; i < shown; i++) {
		const struct tenancy_thread *row =
			per_task_find(&t->threads, v[i].task);

		for (cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (!row->cpu_ns[cpu])
				continue;
			table_row(tab);
			table_u64(tab, cpu);
			report_cells_thread(tab, v[i].task);
			table_duration(tab, row->cpu_ns[cpu]);
			table_share(tab, share(row->cpu_ns[cpu], row->all));
			table_share(tab, share(row->cpu_ns[cpu], window));
		}
	}
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (select_cpu(&ctx->front.sel, cpu) && t->idle_ns[cpu])
			csv_cpu_row(tab, cpu, 0, "<idle>", t->idle_ns[cpu],
				    window);
	}
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		uint64_t rest = cpu_shown(t, cpu) ?
				cpu_not_known(t, cpu, cpu_busy(t, cpu)) : 0;

		if (rest)
			csv_cpu_row(tab, cpu, -1, "<not known>", rest,
				    window);
	}
	ret = report_table_out(ctx, tab, true);
	table_free(tab);
	return ret;
}

static int draw(struct tenancy *t, struct ranked *v, size_t n)
{
	char label[64], title[256], dur[DURATION_LEN];
	struct svg_bars *bars;
	unsigned int cpu;
	size_t i, row;

	bars = svg_bars_new("On-CPU time per thread, by CPU", "ms");
	if (!bars)
		return -ENOMEM;
	/*
	 * A key for each CPU the rows have time on, in CPU order: only those
	 * are drawn, and a header may claim 65536 CPUs (keys are looked up
	 * one by one).
	 */
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		for (i = 0; i < n; i++) {
			const struct tenancy_thread *r =
				per_task_find(&t->threads, v[i].task);

			if (r->cpu_ns[cpu])
				break;
		}
		if (i == n)
			continue;
		snprintf(label, sizeof(label), "CPU %u", cpu);
		svg_bars_key(bars, cpu, label, svg_palette(cpu));
	}
	for (i = 0; i < n; i++) {
		const struct tenancy_thread *r =
			per_task_find(&t->threads, v[i].task);

		snprintf(label, sizeof(label), "%s %u",
			 report_comm(v[i].task), v[i].task->tid);
		row = svg_bars_row(bars, label);
		for (cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (!r->cpu_ns[cpu])
				continue;
			snprintf(title, sizeof(title),
				 "%s on CPU %u: %s (%.1f%% of its on-CPU time)",
				 label, cpu, format_duration(dur, r->cpu_ns[cpu]),
				 100 * share(r->cpu_ns[cpu], r->all));
			svg_bars_add(bars, row, cpu, r->cpu_ns[cpu] / 1e6,
				     title);
		}
	}
	return report_svg_bars(t->ctx, bars);
}

static int tenancy_output(void *priv, struct report_ctx *ctx)
{
	struct tenancy *t = priv;
	struct ranked *v;
	size_t n;
	int ret;

	if (t->failed)
		return -ENOMEM;
	v = rank(t, CPU_NONE, &n);
	if (!v)
		return -ENOMEM;
	report_heading(ctx, "On-CPU time per thread and CPU (exact, from switches)");
	if (ctx->csv) {
		ret = print_csv(t, v, n);
	} else {
		ret = print_threads(t, v, n);
		if (!ret)
			ret = print_cpus(t);
	}
	if (!ret && ctx->svg_path)
		ret = draw(t, v, report_limit(ctx, n));
	free(v);
	return ret;
}

static void tenancy_free(void *priv)
{
	struct tenancy *t = priv;
	struct tenancy_thread *rows = t->threads.items;
	size_t i;

	for (i = 0; i < t->threads.count; i++)
		free(rows[i].cpu_ns);
	per_task_free(&t->threads);
	free(t->idle_ns);
	free(t->others_ns);
}

static const struct optspec tenancy_options[] = {
	{ "cpu", 0, required_argument, "CPU",
	  "only those CPUs' rows and time; a thread's shares stay of "
	  "its time on all CPUs, so with --cpu 1 a share of 1.0 says "
	  "it ran on CPU 1 only (\"CPUs not selected\" in text is the "
	  "rest)\n" },
	{ 0 },
};

const struct report tenancy_report = {
	.name = "tenancy",
	.summary = "exact on-CPU time per thread and CPU, and who held each CPU",
	.help =
	"On-CPU time per thread and CPU in the window, exactly, from the\n"
	"switches; then per CPU, which threads occupied it and how long it\n"
	"idled.\n"
	"\n"
	"Text: per thread, ON-CPU (its on-CPU time), OF-WINDOW (that time as\n"
	"a share of the window) and the CPUs it ran on with the share of its\n"
	"on-CPU time (on all CPUs) on each; then per CPU the time of threads\n"
	"and idle, and its --top threads, the rest summed.  \"not known\" is\n"
	"time nobody can be given: events were lost, the file is cut short\n"
	"(its CPU's records end early), or no switch on that CPU shows who\n"
	"ran there.\n"
	"\n"
	"CSV columns, a row per (CPU, thread), one per CPU that idled and one\n"
	"per CPU with time not known:\n"
	"  cpu tid pid comm  the thread (tid 0, comm <idle>: the CPU idling;\n"
	"                    tid and pid -1, comm <not known>: not known)\n"
	"  oncpu_ns          its time on that CPU in the window\n"
	"  thread_share      of the thread's on-CPU time on all CPUs in the\n"
	"                    window, the part on this CPU\n"
	"  cpu_share         of the CPU's time in the window, the part this\n"
	"                    thread had; a CPU's rows add up to 1 when no\n"
	"                    thread is left out (the selection's, and\n"
	"                    schedrec record's own unless --pid or --tid\n"
	"                    names them: in text, \"threads not selected\"\n"
	"                    and \"schedrec record itself\")\n",
	.options = tenancy_options,
	.notes =
	"Chart (--svg): a bar per thread, one colour per CPU.\n",
	.examples =
	"  schedrec report tenancy run.srec --comm '^dw-'\n"
	"  schedrec report tenancy run.srec --cpu 1 --csv\n",
	.priv_size = sizeof(struct tenancy),
	.start = tenancy_start,
	.output = tenancy_output,
	.free = tenancy_free,
};
