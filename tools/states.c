// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report states: per thread, switch-outs and off-CPU time by the
 * state at switch-out, and for R, the usurpers: who took the CPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "report.h"
#include "svg.h"
#include "table.h"
#include "timefmt.h"

/* The states counted apart, in column order; anything else is '?'. */
static const char state_letters[] = "RSDITtXZP?";
#define NR_STATES	(sizeof(state_letters) - 1)
/* The columns of the text table: R S D I, then the rest as "other". */
#define NR_MAIN		4

enum {
	OPT_USURPERS = REPORT_OPT_BASE,
};

struct states_thread {
	bool used;
	uint64_t oncpu;
	uint64_t switchouts[NR_STATES];
	uint64_t offcpu[NR_STATES];
};

struct states {
	struct report_ctx *ctx;
	bool usurpers_csv;
	struct per_task threads;	/* struct states_thread */
	/* (thread, usurper): count preemptions, ns held; other NULL: idle */
	struct task_pairs usurpers;
	bool failed;
};

static const struct optspec states_options[] = {
	{ "usurpers", OPT_USURPERS, no_argument, NULL,
	  "with --csv: the usurpers instead, a row per (thread, "
	  "usurper): tid pid comm usurper_tid usurper_pid "
	  "usurper_comm preemptions held_ns\n" },
	{ "cpu", 0, required_argument, "CPU",
	  "switch-outs (and their time, and the usurpers of those in "
	  "R) on those CPUs only\n" },
	{ 0 },
};

static unsigned int state_index(char state)
{
	const char *p = state ? strchr(state_letters, state) : NULL;

	return p ? (unsigned int)(p - state_letters) : NR_STATES - 1;
}

static int states_parse(void *priv, const struct report_ctx *ctx, int key,
			const char *arg)
{
	struct states *s = priv;

	(void)ctx;
	(void)arg;
	if (key != OPT_USURPERS)
		return -EINVAL;
	s->usurpers_csv = true;
	return 0;
}

static inline struct states_thread *thread_of(struct states *s,
					     const struct task *t)
{
	struct states_thread *row;

	if (!select_task(&s->ctx->front.sel, (struct task *)t))
		return NULL;
	row = per_task_get(&s->threads, t);
	if (!row) {
		s->failed = true;
		return NULL;
	}
	row->used = true;
	return row;
}

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct states *s = arg;
	struct states_thread *row;

	if (!iv->task || !select_cpu(&s->ctx->front.sel, iv->cpu))
		return;
	row = thread_of(s, iv->task);
	if (row)
		row->oncpu += iv->end - iv->start;
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	struct states *s = arg;
	struct states_thread *row;

	if (s->ctx->front.sel.cpus && (iv->out_cpu == CPU_NONE ||
				 !select_cpu(&s->ctx->front.sel, iv->out_cpu)))
		return;
	row = thread_of(s, iv->task);
	if (row)
		row->offcpu[state_index(iv->state)] += iv->end - iv->start;
}

static void on_switchout(void *arg, const struct switchout_ev *ev)
{
	struct states *s = arg;
	struct states_thread *row;

	if (!select_cpu(&s->ctx->front.sel, ev->cpu))
		return;
	row = thread_of(s, ev->task);
	if (!row)
		return;
	row->switchouts[state_index(ev->state)]++;
	if (ev->state == 'R' &&
	    task_pair_add(&s->usurpers, ev->task, ev->next, 1, 0))
		s->failed = true;
}

static inline __attribute__((always_inline)) void
count_usurp(struct states *s, const struct usurp_ev *ev)
{
	/* --cpu: of the R switch-out, as for its R-TIME */
	if (select_cpu(&s->ctx->front.sel, ev->out_cpu) && thread_of(s, ev->task) &&
	    task_pair_add(&s->usurpers, ev->task, ev->usurper, 0,
			  ev->end - ev->start))
		s->failed = true;
}

static void on_usurp(void *arg, const struct usurp_ev *ev)
{
	count_usurp(arg, ev);
}

/* Each waiter's, when a CPU's holder changes: tens a switch, with hackbench */
static void on_usurps(void *arg, const struct usurp_ev *ev, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		count_usurp(arg, &ev[i]);
}

static int states_start(void *priv, struct report_ctx *ctx)
{
	struct states *s = priv;
	struct sched_handler h = {
		.oncpu = on_oncpu, .offcpu = on_offcpu,
		.switchout = on_switchout, .usurp = on_usurp,
		.usurps = on_usurps, .arg = s,
	};

	if (s->usurpers_csv && !ctx->csv) {
		report_usage_error(&states_report,
				   "--usurpers chooses the CSV table: add --csv (the text shows usurpers anyway)");
		return -EINVAL;
	}
	s->ctx = ctx;
	s->threads.size = sizeof(struct states_thread);
	return schedmodel_add_handler(ctx->front.model, &h);
}

static uint64_t offcpu_total(const struct states_thread *row)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < NR_STATES; i++)
		sum += row->offcpu[i];
	return sum;
}

struct ranked {
	const struct task *task;
	const struct states_thread *row;
};

/* What a thread wanted of the CPUs: its time on one or runnable. */
static uint64_t demand(const struct states_thread *row)
{
	return row->oncpu + row->offcpu[state_index('R')];
}

static int compare_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	uint64_t kx = demand(x->row), ky = demand(y->row);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->task->tid != y->task->tid)
		return x->task->tid < y->task->tid ? -1 : 1;
	/* names of one thread with equal keys: the older first */
	return x->task->id < y->task->id ? -1 : x->task->id > y->task->id;
}

/* The threads seen, most CPU demand (on CPU or runnable) first. */
static struct ranked *rank(struct states *s, size_t *count)
{
	struct task *const *tasks;
	size_t nr = schedmodel_tasks(s->ctx->front.model, &tasks), i;
	struct ranked *v = calloc(nr ? nr : 1, sizeof(*v));

	*count = 0;
	if (!v)
		return NULL;
	for (i = 0; i < nr; i++) {
		const struct states_thread *row =
			per_task_find(&s->threads, tasks[i]);

		if (!row || !row->used)
			continue;
		v[*count].task = tasks[i];
		v[*count].row = row;
		(*count)++;
	}
	qsort(v, *count, sizeof(*v), compare_ranked);
	return v;
}

static void print_usurpers(struct states *s, const struct task_pair **pairs,
			   const struct ranked *r)
{
	struct report_ctx *ctx = s->ctx;
	char dur[DURATION_LEN], comm[REPORT_COMM_TEXT_LEN];
	size_t i, n, shown, limit;
	uint64_t rest_held = 0, rest_preempted = 0, rest_count = 0;

	pairs = task_pairs_of(pairs, s->usurpers.count, r->task, &n);
	if (!n)
		return;
	fprintf(ctx->out, "%s %u, runnable (R) while these held its CPU:\n",
		report_comm_text(r->task, comm), r->task->tid);
	limit = ctx->top ? ctx->top : n;
	shown = n < limit ? n : limit;
	for (i = 0; i < n; i++) {
		const struct task_pair *p = pairs[i];

		if (shown) {
			fprintf(ctx->out, "  %12s  %8" PRIu64 " %-11s  %s %u\n",
				format_duration(dur, p->ns), p->count,
				plural(p->count, "preemption", "preemptions"),
				report_comm_text(p->other, comm),
				p->other ? p->other->tid : 0);
			shown--;
			continue;
		}
		rest_held += p->ns;
		rest_preempted += p->count;
		rest_count++;
	}
	/* the rest summed, by time and by count, as the rows above */
	if (rest_count)
		fprintf(ctx->out, "  %12s  %8" PRIu64 " %-11s  %" PRIu64 " %s\n",
			format_duration(dur, rest_held), rest_preempted,
			plural(rest_preempted, "preemption", "preemptions"),
			rest_count, plural(rest_count, "other", "others"));
}

static int print_text(struct states *s, struct ranked *v, size_t n)
{
	struct report_ctx *ctx = s->ctx;
	struct table *tab = table_new();
	const struct task_pair **pairs = task_pairs_sorted(&s->usurpers);
	size_t i, shown = report_limit(ctx, n);
	unsigned int k;
	int ret;

	if (!tab || !pairs) {
		table_free(tab);
		free(pairs);
		return -ENOMEM;
	}
	report_columns_thread(tab);
	table_column(tab, "ON-CPU", "oncpu_ns", TABLE_RIGHT);
	for (k = 0; k < NR_MAIN; k++) {
		char heading[16];

		snprintf(heading, sizeof(heading), "%c", state_letters[k]);
		table_column(tab, heading, heading, TABLE_RIGHT);
		snprintf(heading, sizeof(heading), "%c-TIME",
			 state_letters[k]);
		table_column(tab, heading, heading, TABLE_RIGHT);
	}
	table_column(tab, "OTHER", "other", TABLE_RIGHT);
	table_column(tab, "OTHER-TIME", "other_time", TABLE_RIGHT);
	for (i = 0; i < shown; i++) {
		const struct states_thread *row = v[i].row;
		uint64_t count = 0, time = 0;

		table_row(tab);
		report_cells_thread(tab, v[i].task);
		table_duration(tab, row->oncpu);
		for (k = 0; k < NR_STATES; k++) {
			if (k < NR_MAIN) {
				table_u64(tab, row->switchouts[k]);
				table_duration(tab, row->offcpu[k]);
				continue;
			}
			count += row->switchouts[k];
			time += row->offcpu[k];
		}
		table_u64(tab, count);
		table_duration(tab, time);
	}
	ret = report_table_print(ctx, tab, n, shown,
				 "no thread of the selection was seen");
	if (!ret && s->usurpers.count) {
		fprintf(ctx->out,
			"\nUsurpers: while a thread was runnable after a switch-out in R, who held\n"
			"the CPU it waited for (time), and who was switched in (preemptions).\n");
		for (i = 0; i < shown; i++)
			print_usurpers(s, pairs, &v[i]);
	}
	table_free(tab);
	free(pairs);
	return ret ? ret : stream_error(ctx->out);
}

static int print_states_csv(struct states *s, struct ranked *v, size_t n)
{
	struct table *tab = table_new();
	size_t i, shown = report_limit(s->ctx, n);
	unsigned int k;
	int ret;

	if (!tab)
		return -ENOMEM;
	report_columns_thread(tab);
	table_column(tab, "STATE", "state", TABLE_LEFT);
	table_column(tab, "SWITCHOUTS", "switchouts", TABLE_RIGHT);
	table_column(tab, "OFF-CPU", "offcpu_ns", TABLE_RIGHT);
	for (i = 0; i < shown; i++) {
		for (k = 0; k < NR_STATES; k++) {
			if (!v[i].row->switchouts[k] && !v[i].row->offcpu[k])
				continue;
			table_row(tab);
			report_cells_thread(tab, v[i].task);
			table_strf(tab, "%c", state_letters[k]);
			table_u64(tab, v[i].row->switchouts[k]);
			table_duration(tab, v[i].row->offcpu[k]);
		}
	}
	ret = report_table_out(s->ctx, tab, true);
	table_free(tab);
	return ret;
}

static const struct report_pairs usurper_columns = {
	.other = { { "USURPER-TID", "usurper_tid" },
		   { "USURPER-PID", "usurper_pid" },
		   { "USURPER-COMM", "usurper_comm" } },
	.count = { "PREEMPTIONS", "preemptions" },
	.ns = { "HELD", "held_ns" },
	.nobody = "<idle>",
};

static int draw(struct states *s, struct ranked *v, size_t n)
{
	static const struct {
		int key;
		const char *label;
	} keys[] = {
		{ 'o', "on CPU" }, { 'R', "R runnable" }, { 'S', "S sleeping" },
		{ 'D', "D uninterruptible" }, { 'I', "I idle (kernel)" },
		{ '?', "other" },
	};
	char label[64], title[256], dur[DURATION_LEN];
	struct svg_bars *bars;
	size_t i, row, k;

	bars = svg_bars_new("Time per thread: on CPU, and off CPU by state at switch-out",
			    "ms");
	if (!bars)
		return -ENOMEM;
	for (k = 0; k < ARRAY_SIZE(keys); k++)
		svg_bars_key(bars, keys[k].key, keys[k].label,
			     keys[k].key == 'o' ? SVG_BLUE :
			     svg_state_colour(keys[k].key));
	for (i = 0; i < n; i++) {
		const struct states_thread *r = v[i].row;
		uint64_t life = r->oncpu + offcpu_total(r), other = 0;

		snprintf(label, sizeof(label), "%s %u",
			 report_comm(v[i].task), v[i].task->tid);
		row = svg_bars_row(bars, label);
		snprintf(title, sizeof(title), "%s on CPU: %s (%.1f%%)",
			 label, format_duration(dur, r->oncpu),
			 life ? 100.0 * r->oncpu / life : 0);
		svg_bars_add(bars, row, 'o', r->oncpu / 1e6, title);
		for (k = 0; k < NR_STATES; k++) {
			if (k >= NR_MAIN) {
				other += r->offcpu[k];
				continue;
			}
			snprintf(title, sizeof(title),
				 "%s %c: %s (%.1f%%), %" PRIu64 " switch-outs",
				 label, state_letters[k],
				 format_duration(dur, r->offcpu[k]),
				 life ? 100.0 * r->offcpu[k] / life : 0,
				 r->switchouts[k]);
			svg_bars_add(bars, row, state_letters[k],
				     r->offcpu[k] / 1e6, title);
		}
		snprintf(title, sizeof(title), "%s other states: %s (%.1f%%)",
			 label, format_duration(dur, other),
			 life ? 100.0 * other / life : 0);
		svg_bars_add(bars, row, '?', other / 1e6, title);
	}
	return report_svg_bars(s->ctx, bars);
}

static int states_output(void *priv, struct report_ctx *ctx)
{
	struct states *s = priv;
	struct ranked *v;
	size_t n;
	int ret;

	if (s->failed)
		return -ENOMEM;
	v = rank(s, &n);
	if (!v)
		return -ENOMEM;
	report_heading(ctx, "Switch-outs and off-CPU time by state, per thread");
	if (!ctx->csv)
		ret = print_text(s, v, n);
	else if (s->usurpers_csv)
		ret = report_pairs_csv(ctx, &s->usurpers, &usurper_columns);
	else
		ret = print_states_csv(s, v, n);
	if (!ret && ctx->svg_path)
		ret = draw(s, v, report_limit(ctx, n));
	free(v);
	return ret;
}

static void states_free(void *priv)
{
	struct states *s = priv;

	per_task_free(&s->threads);
	task_pairs_free(&s->usurpers);
}

const struct report states_report = {
	.name = "states",
	.summary = "R/S/D/... at switch-out per thread, and who took the CPU",
	.help =
	"Per thread: switch-outs and off-CPU time by the state at switch-out\n"
	"(R preempted or runnable, S sleeping, D uninterruptible, I idle\n"
	"kernel thread, other: T t X Z P, and ? for time before a thread was\n"
	"first seen), its on-CPU time, and for R, the usurpers.\n"
	"\n"
	"Off-CPU time is clipped to the window, censored pieces included: it is\n"
	"time spent, not a maximum.  Rows: most CPU demand (on CPU or\n"
	"runnable) first.\n"
	"\n"
	"Usurpers: while a thread waited runnable after an R switch-out, the\n"
	"threads that held the CPU whose runqueue it waited on (following\n"
	"migrations), until it ran again on any CPU: their time (held), and\n"
	"how often each was the one switched in when it was preempted\n"
	"(preemptions).  <idle> means that CPU idled while it waited there.\n"
	"\n"
	"Text columns, a row per thread:\n"
	"  TID PID COMM      the thread, named as it was then\n"
	"  ON-CPU            its on-CPU time in the window\n"
	"  R S D I           switch-outs in that state in the window\n"
	"  R-TIME ... I-TIME off-CPU time in that state in the window\n"
	"  OTHER OTHER-TIME  the same for the other states together\n"
	"                    (T t X Z P ?)\n"
	"then, per thread with R time, its usurpers: held time, preemptions,\n"
	"and who (the --top N most, the rest summed).\n"
	"\n"
	"CSV columns, a row per (thread, state):\n"
	"  tid pid comm      the thread\n"
	"  state             R, S, D, I, T, t, X, Z, P or ?\n"
	"  switchouts        switch-outs in that state in the window\n"
	"  offcpu_ns         off-CPU time in that state in the window\n",
	.options = states_options,
	.notes =
	"Chart (--svg): a bar per thread: on CPU blue, R red, S green,\n"
	"D yellow, I light grey, other grey.\n",
	.examples =
	"  schedrec report states run.srec --pid 4242 --svg states.svg\n"
	"  schedrec report states run.srec --csv --usurpers\n",
	.priv_size = sizeof(struct states),
	.parse = states_parse,
	.start = states_start,
	.output = states_output,
	.free = states_free,
};
