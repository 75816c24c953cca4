// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report timeline: who ran when.  A lane per CPU coloured by the
 * process that ran there, optionally a lane per selected thread coloured
 * by its state (running, runnable, sleeping, ...) and arrows from wakers
 * to the switch-in of the threads they woke; as text, the on-CPU
 * intervals of the CPU lanes.
 *
 * Memory does not grow with the events.  The window is cut into SLOTS
 * slots, each narrower than a pixel of the chart; a lane keeps its pieces
 * of at least a slot exactly, and sums the shorter ones per slot, with
 * the few threads (or states) that had most of it: that is what merging
 * intervals smaller than a pixel needs.  Where the window ends is not
 * known before the trace ends (it may be a pipe), so slots start short
 * and double, merging pairs, whenever the time seen outgrows them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"
#include "table.h"
#include "timefmt.h"

#define SLOTS		2048		/* of the window: under a pixel each */
#define SLOT_NS_MIN	64
#define SLOT_NS_MAX	(1ull << 51)
#define SPAN_MAX	(SLOTS * SLOT_NS_MAX)	/* ns, 146 years: no clock's */
#define SLOT_KEYS	3		/* the busiest kept per slot */
#define WIDE_MAX	(4 * SLOTS)	/* exact pieces per lane, at most */
#define THREAD_LANES_MAX	256	/* thread lanes kept */
#define THREAD_LANES_SHOWN	32	/* drawn, most on-CPU time first */
#define ARROWS_MAX	1000
#define TEXT_ROWS_MAX	100000		/* text with --top 0; CSV has all */
#define LEGEND_PROCESSES	12
#define MERGED_WARN	1000		/* warn past this many merged */

/* The chart */
#define WIDTH		1200
#define MARGIN		10
#define LABEL_W		130		/* lane labels, left of the plot */
#define CPU_LANE_H	18
#define THREAD_LANE_H	14
#define LANE_GAP	3
#define TICK_GAP	96		/* px between time ticks at least */
#define LANE_BACKGROUND	0xf3f3f3
#define OTHERS_COLOUR	0xbdbdbd	/* threads not selected */
#define UNKNOWN_COLOUR	0xeeeeee	/* a state not known */
#define ARROW_COLOUR	0x222222
#define LOSS_COLOUR	0xc00000

/* Kinds of pieces of a thread lane; a CPU lane's are all RUNNING. */
#define KIND_RUNNING	'+'
#define KIND_WOKEN	'W'	/* runnable: woken, not running yet */

enum {
	OPT_THREADS = REPORT_OPT_BASE,
	OPT_WAKEUPS,
};

/* A piece of a lane. */
struct piece {
	uint64_t start, end;		/* absolute */
	const struct task *task;	/* who ran (CPU lane) or the thread */
	uint32_t cpu;			/* where it ran */
	char kind;			/* KIND_*, or the state off CPU */
	uint8_t flags;			/* IV_* */
};

/* The time of the pieces shorter than a slot that fell in it. */
struct slot {
	uint64_t busy;			/* ns */
	uint32_t count;			/* pieces that began in it */
	uint32_t keys[SLOT_KEYS];	/* CPU lane: task id + 1; thread: kind */
	uint64_t ns[SLOT_KEYS];
};

struct lane {
	struct piece *wide;		/* pieces of a slot or longer */
	size_t nr_wide, cap_wide;
	struct slot *slots;		/* SLOTS of them, NULL until needed */
	const struct task *task;	/* a thread lane's thread */
	uint32_t cpu;			/* a CPU lane's CPU */
	bool by_state;			/* a thread lane */
};

/* An off-CPU interval waiting for the wakeup that may come with it. */
struct pending {
	bool set;
	uint64_t start, end;
	char state;
	uint8_t flags;
};

struct timeline_thread {
	uint32_t lane;		/* index + 1 of its thread lane; 0: none */
	bool no_lane;		/* none left for it */
	uint64_t oncpu;		/* on the CPUs shown, in the window */
	uint64_t oncpu_all;	/* on any CPU */
	struct pending pending;
};

struct arrow {
	uint64_t wake, in;		/* absolute */
	const struct task *task;	/* woken */
	const struct task *waker;	/* NULL: interrupt or not known */
	uint32_t cpu;			/* of the switch-in */
	bool irq;
};

struct timeline {
	struct report_ctx *ctx;
	bool threads;			/* --threads */
	bool wakeups;			/* --wakeups */
	bool started;
	uint64_t w0;			/* the window's start, absolute */
	uint64_t slot_ns;
	uint64_t limit;			/* lanes stop here: w0 + SPAN_MAX */
	bool cut;			/* a piece ended past it */
	unsigned int nr_cpus;
	struct lane *cpu_lanes;		/* per CPU; only selected ones used */
	struct lane *thread_lanes;
	size_t nr_thread_lanes;
	uint64_t threads_left_out;	/* past THREAD_LANES_MAX */
	struct per_task per_thread;	/* struct timeline_thread */
	struct arrow *arrows;
	size_t nr_arrows;
	uint64_t wakeups_seen;
	struct piece *rows;		/* text: the first intervals */
	size_t nr_rows, cap_rows;
	uint64_t rows_seen;
	bool failed;
};

static const struct optspec timeline_options[] = {
	{ "threads", OPT_THREADS, no_argument, NULL,
	  "also a lane per selected thread (the 32 with the most "
	  "on-CPU time): running (blue, on any CPU), R runnable (red: "
	  "from a preempted switch-out, or from the wakeup, to the "
	  "switch-in), S sleeping (green), D uninterruptible "
	  "(yellow), I idle kernel thread, other states grey\n" },
	{ "wakeups", OPT_WAKEUPS, no_argument, NULL,
	  "arrows from the waker (its thread lane, else the CPU lane "
	  "where it ran) at the wakeup, to the CPU lane where the "
	  "woken thread was switched in, for the selected threads "
	  "(dashed: woken from interrupt context, or by a thread on "
	  "no lane); the first 1000 in the window\n" },
	{ "cpu", 0, required_argument, "CPU",
	  "only those CPUs' lanes and intervals; thread lanes show "
	  "the threads on every CPU\n" },
	{ 0 },
};

static int timeline_parse(void *priv, const struct report_ctx *ctx, int key,
			  const char *arg)
{
	struct timeline *tl = priv;

	(void)ctx;
	(void)arg;
	switch (key) {
	case OPT_THREADS:
		tl->threads = true;
		return 0;
	case OPT_WAKEUPS:
		tl->wakeups = true;
		return 0;
	}
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Slots */

/* Add @ns of @key to @s: a key it has, a free place, or the least one's. */
static void slot_key_add(struct slot *s, uint32_t key, uint64_t ns)
{
	unsigned int i, least = 0;

	for (i = 0; i < SLOT_KEYS; i++) {
		if (s->ns[i] && s->keys[i] == key) {
			s->ns[i] += ns;
			return;
		}
	}
	for (i = 0; i < SLOT_KEYS; i++) {
		if (!s->ns[i]) {
			s->keys[i] = key;
			s->ns[i] = ns;
			return;
		}
		if (s->ns[i] < s->ns[least])
			least = i;
	}
	/* the busiest are kept, the rest only counted in busy */
	if (ns > s->ns[least]) {
		s->keys[least] = key;
		s->ns[least] = ns;
	}
}

static void slot_merge(struct slot *into, const struct slot *from)
{
	unsigned int i;

	into->busy += from->busy;
	into->count += from->count;
	for (i = 0; i < SLOT_KEYS; i++)
		if (from->ns[i])
			slot_key_add(into, from->keys[i], from->ns[i]);
}

static uint32_t piece_key(const struct lane *l, const struct piece *p)
{
	return l->by_state ? (uint8_t)p->kind : p->task->id + 1;
}

/* Sum [@start, @end) of @key into the slots it covers. */
static void slots_add(struct timeline *tl, struct lane *l, uint64_t start,
		      uint64_t end, uint32_t key)
{
	uint64_t t = start, bound, piece;
	size_t i;

	if (!l->slots) {
		l->slots = calloc(SLOTS, sizeof(*l->slots));
		if (!l->slots) {
			tl->failed = true;
			return;
		}
	}
	l->slots[(start - tl->w0) / tl->slot_ns].count++;
	while (t < end) {
		i = (t - tl->w0) / tl->slot_ns;
		bound = tl->w0 + (i + 1) * tl->slot_ns;
		piece = (end < bound ? end : bound) - t;
		l->slots[i].busy += piece;
		slot_key_add(&l->slots[i], key, piece);
		t += piece;
	}
}

/* Twice as long slots: pairs merged, pieces now shorter than one moved in */
static void lane_coarsen(struct timeline *tl, struct lane *l)
{
	size_t i, kept = 0;

	if (l->slots) {
		for (i = 0; i < SLOTS / 2; i++) {
			l->slots[i] = l->slots[2 * i];
			slot_merge(&l->slots[i], &l->slots[2 * i + 1]);
		}
		memset(l->slots + SLOTS / 2, 0,
		       SLOTS / 2 * sizeof(*l->slots));
	}
	for (i = 0; i < l->nr_wide; i++) {
		struct piece *p = &l->wide[i];

		if (p->end - p->start >= tl->slot_ns)
			l->wide[kept++] = *p;
		else
			slots_add(tl, l, p->start, p->end, piece_key(l, p));
	}
	l->nr_wide = kept;
}

/*
 * Slots long enough that SLOTS of them reach @end (absolute), at most
 * SLOT_NS_MAX: lane_add() cuts what ends after tl->limit.
 */
static void cover(struct timeline *tl, uint64_t end)
{
	size_t i;

	while (end - tl->w0 > SLOTS * tl->slot_ns &&
	       tl->slot_ns < SLOT_NS_MAX) {
		tl->slot_ns *= 2;
		for (i = 0; i < tl->nr_cpus; i++)
			lane_coarsen(tl, &tl->cpu_lanes[i]);
		for (i = 0; i < tl->nr_thread_lanes; i++)
			lane_coarsen(tl, &tl->thread_lanes[i]);
	}
}

static void lane_add(struct timeline *tl, struct lane *l,
		     const struct piece *p)
{
	struct piece *wide, cut;

	if (p->end <= p->start)
		return;
	if (p->end > tl->limit) {
		/* timestamps gone wild: the slots cannot reach that far */
		tl->cut = true;
		if (p->start >= tl->limit)
			return;
		cut = *p;
		cut.end = tl->limit;
		cut.flags |= IV_CUT_END;
		p = &cut;
	}
	cover(tl, p->end);
	if (p->end - p->start < tl->slot_ns || l->nr_wide >= WIDE_MAX) {
		slots_add(tl, l, p->start, p->end, piece_key(l, p));
		return;
	}
	if (l->nr_wide == l->cap_wide) {
		size_t cap = l->cap_wide ? 2 * l->cap_wide : 64;

		wide = reallocarray(l->wide, cap, sizeof(*wide));
		if (!wide) {
			tl->failed = true;
			return;
		}
		l->wide = wide;
		l->cap_wide = cap;
	}
	l->wide[l->nr_wide++] = *p;
}

/* ------------------------------------------------------------------ */
/* The pass */

/* The first callback comes once the model knows the window. */
static void start_lanes(struct timeline *tl)
{
	uint64_t end;

	if (tl->started)
		return;
	schedmodel_window_abs(tl->ctx->front.model, &tl->w0, &end);
	tl->slot_ns = SLOT_NS_MIN;
	/* w0 + SLOTS * slot_ns must not wrap: none past a start that late */
	tl->limit = tl->w0 <= UINT64_MAX - SPAN_MAX ? tl->w0 + SPAN_MAX :
		    tl->w0;
	tl->started = true;
}

static struct timeline_thread *thread_of(struct timeline *tl,
					 const struct task *t)
{
	struct timeline_thread *th = per_task_get(&tl->per_thread, t);

	if (!th)
		tl->failed = true;
	return th;
}

/* @t's thread lane, made if it has none and there is room; NULL if not. */
static struct lane *thread_lane(struct timeline *tl, const struct task *t,
				struct timeline_thread *th)
{
	struct lane *lanes;

	if (th->lane)
		return &tl->thread_lanes[th->lane - 1];
	if (th->no_lane)
		return NULL;
	if (tl->nr_thread_lanes == THREAD_LANES_MAX) {
		tl->threads_left_out++;
		th->no_lane = true;
		return NULL;
	}
	lanes = reallocarray(tl->thread_lanes, tl->nr_thread_lanes + 1,
			     sizeof(*lanes));
	if (!lanes) {
		tl->failed = true;
		return NULL;
	}
	tl->thread_lanes = lanes;
	memset(&lanes[tl->nr_thread_lanes], 0, sizeof(*lanes));
	lanes[tl->nr_thread_lanes].task = t;
	lanes[tl->nr_thread_lanes].by_state = true;
	th->lane = ++tl->nr_thread_lanes;
	return &lanes[th->lane - 1];
}

/* "start", "end", "both" or "": what the window cut of it. */
static const char *censored_word(unsigned int flags)
{
	switch (flags & (IV_CUT_START | IV_CUT_END)) {
	case IV_CUT_START:
		return "start";
	case IV_CUT_END:
		return "end";
	case IV_CUT_START | IV_CUT_END:
		return "both";
	}
	return "";
}

static void print_csv_row(struct timeline *tl, const struct piece *p)
{
	FILE *out = tl->ctx->out;
	char a[SECONDS_LEN], b[SECONDS_LEN], comm[SCHEDREC_COMM_LEN + 2];

	fprintf(out, "%u,%s,%s,%" PRIu64 ",%u,", p->cpu,
		format_seconds(a, report_rel(tl->ctx, p->start), 9),
		format_seconds(b, report_rel(tl->ctx, p->end), 9),
		p->end - p->start, p->task->tid);
	if (p->task->tgid)
		fprintf(out, "%u", p->task->tgid);
	fputc(',', out);
	snprintf(comm, sizeof(comm), "%s", report_comm(p->task));
	csv_field(out, comm);
	fprintf(out, ",%s,%d\n", censored_word(p->flags),
		!!(p->flags & IV_UNCERTAIN));
}

/* An interval of a selected thread on a CPU lane: a row of the table. */
static void add_row(struct timeline *tl, const struct piece *p)
{
	size_t limit = tl->ctx->top ? tl->ctx->top : TEXT_ROWS_MAX;
	struct piece *rows;

	tl->rows_seen++;
	if (tl->ctx->csv) {
		/* all of them, unless --top says otherwise */
		if (!tl->ctx->top || tl->rows_seen <= tl->ctx->top)
			print_csv_row(tl, p);
		return;
	}
	if (tl->nr_rows >= limit)
		return;
	if (tl->nr_rows == tl->cap_rows) {
		size_t cap = tl->cap_rows ? 2 * tl->cap_rows : 64;

		rows = reallocarray(tl->rows, cap, sizeof(*rows));
		if (!rows) {
			tl->failed = true;
			return;
		}
		tl->rows = rows;
		tl->cap_rows = cap;
	}
	tl->rows[tl->nr_rows++] = *p;
}

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct timeline *tl = arg;
	const struct selection *sel = &tl->ctx->front.sel;
	struct piece p = {
		.start = iv->start, .end = iv->end, .task = iv->task,
		.cpu = iv->cpu, .kind = KIND_RUNNING, .flags = iv->flags,
	};
	struct timeline_thread *th;
	bool selected;
	struct lane *l;

	if (!iv->task || iv->cpu >= tl->nr_cpus)
		return;		/* idle: blank */
	start_lanes(tl);
	selected = select_task(sel, (struct task *)iv->task);
	th = thread_of(tl, iv->task);
	if (!th)
		return;
	if (select_cpu(sel, iv->cpu)) {
		lane_add(tl, &tl->cpu_lanes[iv->cpu], &p);
		th->oncpu += iv->end - iv->start;
		if (selected)
			add_row(tl, &p);
	}
	if (!selected)
		return;
	th->oncpu_all += iv->end - iv->start;
	if (tl->threads) {
		l = thread_lane(tl, iv->task, th);
		if (l)
			lane_add(tl, l, &p);
	}
}

/* Put @t's pending off-CPU interval on its lane, cut at @wake if woken. */
static void flush_pending(struct timeline *tl, const struct task *t,
			  struct timeline_thread *th, uint64_t wake)
{
	struct pending *pd = &th->pending;
	struct piece p = {
		.task = t, .cpu = CPU_NONE, .kind = pd->state,
		.flags = pd->flags,
	};
	struct lane *l;

	if (!pd->set)
		return;
	pd->set = false;
	l = thread_lane(tl, t, th);
	if (!l)
		return;
	if (wake < pd->start)
		wake = pd->start;
	p.start = pd->start;
	p.end = wake < pd->end ? wake : pd->end;
	if (wake < pd->end)
		p.flags &= ~IV_CUT_END;		/* the woken part has it */
	lane_add(tl, l, &p);
	if (wake < pd->end) {
		p.start = wake;
		p.end = pd->end;
		p.kind = KIND_WOKEN;
		p.flags = pd->flags & ~(wake > pd->start ? IV_CUT_START : 0);
		lane_add(tl, l, &p);
	}
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	struct timeline *tl = arg;
	struct timeline_thread *th;

	if (!select_task(&tl->ctx->front.sel, (struct task *)iv->task))
		return;
	start_lanes(tl);
	th = thread_of(tl, iv->task);
	if (!th)
		return;
	/* a wakeup may follow, at the same switch-in: wait for it */
	flush_pending(tl, iv->task, th, UINT64_MAX);
	th->pending = (struct pending){
		.set = true, .start = iv->start, .end = iv->end,
		.state = iv->state, .flags = iv->flags,
	};
}

static void add_arrow(struct timeline *tl, const struct latency_ev *ev)
{
	struct arrow *a;

	tl->wakeups_seen++;
	if (tl->nr_arrows == ARROWS_MAX)
		return;
	if (!tl->arrows) {
		tl->arrows = calloc(ARROWS_MAX, sizeof(*tl->arrows));
		if (!tl->arrows) {
			tl->failed = true;
			return;
		}
	}
	a = &tl->arrows[tl->nr_arrows++];
	a->wake = ev->start;
	a->in = ev->end;
	a->task = ev->task;
	a->waker = ev->waker_irq ? NULL : ev->waker;
	a->irq = ev->waker_irq;
	a->cpu = ev->cpu;
}

static void on_latency(void *arg, const struct latency_ev *ev)
{
	struct timeline *tl = arg;
	const struct selection *sel = &tl->ctx->front.sel;
	struct latency_ev in = *ev;
	struct timeline_thread *th;

	/* drawn where it ends: under the name the thread has at its switch-in */
	in.task = schedmodel_task_of(tl->ctx->front.model, ev->task->tid);
	if (!in.task)
		in.task = ev->task;
	if (ev->kind != LATENCY_WAKEUP ||
	    !select_task(sel, (struct task *)in.task))
		return;
	start_lanes(tl);
	th = thread_of(tl, in.task);
	if (!th)
		return;
	if (th->pending.set && th->pending.end == ev->end)
		flush_pending(tl, in.task, th, ev->start);
	if (tl->wakeups && ev->cpu < tl->nr_cpus && select_cpu(sel, ev->cpu))
		add_arrow(tl, &in);
}

static int timeline_start(void *priv, struct report_ctx *ctx)
{
	struct timeline *tl = priv;
	struct sched_handler h = {
		.oncpu = on_oncpu, .arg = tl,
	};
	unsigned int cpu;

	tl->ctx = ctx;
	tl->nr_cpus = ctx->front.info->file.nr_cpus;
	tl->per_thread.size = sizeof(struct timeline_thread);
	tl->cpu_lanes = calloc(tl->nr_cpus ? tl->nr_cpus : 1,
			       sizeof(*tl->cpu_lanes));
	if (!tl->cpu_lanes)
		return -ENOMEM;
	for (cpu = 0; cpu < tl->nr_cpus; cpu++)
		tl->cpu_lanes[cpu].cpu = cpu;
	if (tl->threads) {
		h.offcpu = on_offcpu;
		h.latency = on_latency;
	}
	if (tl->wakeups)
		h.latency = on_latency;
	if (ctx->csv)
		fprintf(ctx->out, "cpu,start_s,end_s,oncpu_ns,tid,pid,comm,censored,uncertain\n");
	return schedmodel_add_handler(ctx->front.model, &h);
}

/* ------------------------------------------------------------------ */
/* Text */

static int print_table(struct timeline *tl)
{
	struct report_ctx *ctx = tl->ctx;
	struct table *t = table_new();
	char dur[DURATION_LEN + 1];
	const struct piece *p;
	size_t i;
	int ret;

	if (!t)
		return -ENOMEM;
	table_column(t, "CPU", "cpu", TABLE_RIGHT);
	table_column(t, "START(s)", "start_s", TABLE_RIGHT);
	table_column(t, "END(s)", "end_s", TABLE_RIGHT);
	table_column(t, "ON-CPU", "oncpu_ns", TABLE_RIGHT);
	report_columns_thread(t);
	table_column(t, "CENSORED", "censored", TABLE_LEFT);
	for (i = 0; i < tl->nr_rows; i++) {
		p = &tl->rows[i];
		table_row(t);
		table_u64(t, p->cpu);
		table_seconds(t, report_rel(ctx, p->start));
		table_seconds(t, report_rel(ctx, p->end));
		dur[0] = '~';
		format_duration(dur + 1, p->end - p->start);
		table_cell(t, p->flags & IV_UNCERTAIN ? dur : dur + 1, NULL);
		table_u64(t, p->task->tid);
		if (p->task->tgid)
			table_u64(t, p->task->tgid);
		else
			table_str(t, "?");
		table_str(t, report_comm(p->task));
		if (p->flags & (IV_CUT_START | IV_CUT_END))
			table_str(t, censored_word(p->flags));
		else
			table_none(t);
	}
	ret = report_table_out(ctx, t, false);
	table_free(t);
	if (ret)
		return ret;
	if (!tl->rows_seen)
		fprintf(ctx->out, "(no thread of the selection ran on these CPUs in the window)\n");
	else if (tl->nr_rows < tl->rows_seen)
		fprintf(ctx->out, "(%" PRIu64 " more intervals: --top 0 shows up to %u, --csv all)\n",
			tl->rows_seen - tl->nr_rows, TEXT_ROWS_MAX);
	return stream_error(ctx->out);
}

/* ------------------------------------------------------------------ */
/* The chart */

struct plot {
	uint64_t t0, t1;	/* absolute: the window in the recording */
	double x0, w;		/* px */
	double y;		/* the next lane's top */
};

static double x_of(const struct plot *p, uint64_t t)
{
	if (t <= p->t0)
		return p->x0;
	if (t >= p->t1)
		return p->x0 + p->w;
	return p->x0 + (double)(t - p->t0) * p->w / (p->t1 - p->t0);
}

static const char *state_name(char kind)
{
	switch (kind) {
	case KIND_RUNNING:
		return "running";
	case KIND_WOKEN:
		return "R runnable (woken, waiting for a CPU)";
	case 'R':
		return "R runnable (preempted, waiting for a CPU)";
	case 'S':
		return "S sleeping";
	case 'D':
		return "D uninterruptible";
	case 'I':
		return "I idle kernel thread";
	case '?':
		return "not known (not seen before)";
	}
	return NULL;
}

static uint32_t state_colour(char kind)
{
	switch (kind) {
	case KIND_RUNNING:
		return SVG_BLUE;
	case KIND_WOKEN:
		return SVG_RED;
	case '?':
		return UNKNOWN_COLOUR;
	}
	return svg_state_colour(kind);
}

static uint32_t task_colour(const struct timeline *tl, const struct task *t)
{
	if (!select_task(&tl->ctx->front.sel, (struct task *)t))
		return OTHERS_COLOUR;
	return svg_hash_colour(schedmodel_process_key(t));
}

/* "comm 123 (pid 120)" */
static void task_label(char *buf, size_t size, const struct task *t)
{
	if (t->tgid && t->tgid != t->tid)
		snprintf(buf, size, "%s %u (pid %u)", report_comm(t), t->tid,
			 t->tgid);
	else
		snprintf(buf, size, "%s %u", report_comm(t), t->tid);
}

static void kind_label(char *buf, size_t size, char kind)
{
	const char *name = state_name(kind);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "state %c", kind);
}

/* "12.000100-12.000600 s (500.000 us)" and what cut it */
static void span_text(const struct timeline *tl, char *buf, size_t size,
		      uint64_t start, uint64_t end, unsigned int flags)
{
	char a[SECONDS_LEN], b[SECONDS_LEN], d[DURATION_LEN];

	snprintf(buf, size, "%s-%s s (%s%s%s%s)",
		 format_seconds(a, report_rel(tl->ctx, start), 6),
		 format_seconds(b, report_rel(tl->ctx, end), 6),
		 flags & IV_UNCERTAIN ? "~" : "", format_duration(d, end - start),
		 flags & IV_CUT_START ? ", began before the window" : "",
		 flags & IV_CUT_END ? ", still going at its end" : "");
}

static void draw_piece(FILE *f, const struct timeline *tl,
		       const struct plot *p, const struct lane *l,
		       const struct piece *pc, double y, double h)
{
	double x = x_of(p, pc->start), w = x_of(p, pc->end) - x;
	char title[384], span[160], who[96], state[64];
	uint32_t colour;

	span_text(tl, span, sizeof(span), pc->start, pc->end, pc->flags);
	task_label(who, sizeof(who), pc->task);
	if (!l->by_state) {
		colour = task_colour(tl, pc->task);
		snprintf(title, sizeof(title), "CPU %u: %s%s, %s", pc->cpu,
			 who, colour == OTHERS_COLOUR ? " (not selected)" : "",
			 span);
	} else if (pc->kind == KIND_RUNNING) {
		colour = state_colour(pc->kind);
		snprintf(title, sizeof(title), "%s: running on CPU %u, %s",
			 who, pc->cpu, span);
	} else {
		colour = state_colour(pc->kind);
		kind_label(state, sizeof(state), pc->kind);
		snprintf(title, sizeof(title), "%s: %s, %s", who, state, span);
	}
	if (w < 0.5)
		w = 0.5;
	svg_rect(f, x, y, w, h, colour, title);
	if (!l->by_state && w >= 40)
		svg_text_fit(f, x + 3, y + h - 5, 10, "start",
			     report_comm(pc->task), w - 6, title);
}

/* What a slot's key is, in words, and its colour. */
static void key_text(const struct timeline *tl, const struct lane *l,
		     uint32_t key, char *buf, size_t size, uint32_t *colour)
{
	struct task *const *tasks;
	size_t nr = schedmodel_tasks(tl->ctx->front.model, &tasks);

	if (l->by_state) {
		kind_label(buf, size, (char)key);
		*colour = state_colour((char)key);
	} else if (key && key - 1 < nr) {
		task_label(buf, size, tasks[key - 1]);
		*colour = task_colour(tl, tasks[key - 1]);
		if (*colour == OTHERS_COLOUR)
			snprintf(buf + strlen(buf), size - strlen(buf),
				 " (not selected)");
	} else {
		snprintf(buf, size, "?");
		*colour = OTHERS_COLOUR;
	}
}

/* The order states are stacked in, from the bottom of a thread lane. */
static unsigned int kind_rank(char kind)
{
	static const char order[] = { KIND_RUNNING, 'R', KIND_WOKEN, 'D', 'S',
				      'I', '?' };
	unsigned int i;

	for (i = 0; i < sizeof(order); i++)
		if (order[i] == kind)
			return i;
	return sizeof(order);
}

/*
 * A merged slot is drawn as a stack of what it holds: a part per key it
 * kept, as high as its share of the slot in eighths (at least one), the
 * busiest thread at the bottom of a CPU lane, running at the bottom of a
 * thread lane.  A CPU lane's stacks are as high as it was busy.
 */
struct stack {
	unsigned int n;
	uint32_t keys[SLOT_KEYS];
	unsigned int eighths[SLOT_KEYS];
};

static bool stack_before(const struct lane *l, const struct slot *s,
			 unsigned int a, unsigned int b)
{
	if (l->by_state && kind_rank(s->keys[a]) != kind_rank(s->keys[b]))
		return kind_rank(s->keys[a]) < kind_rank(s->keys[b]);
	if (s->ns[a] != s->ns[b])
		return s->ns[a] > s->ns[b];
	return s->keys[a] < s->keys[b];
}

static void slot_stack(const struct lane *l, const struct slot *s,
		       uint64_t slot_ns, struct stack *st)
{
	unsigned int order[SLOT_KEYS], i, j, sum = 0, top;

	st->n = 0;
	for (i = 0; i < SLOT_KEYS; i++) {
		if (!s->ns[i])
			continue;
		for (j = st->n; j > 0 && stack_before(l, s, i, order[j - 1]);
		     j--)
			order[j] = order[j - 1];
		order[j] = i;
		st->n++;
	}
	for (i = 0; i < st->n; i++) {
		st->keys[i] = s->keys[order[i]];
		st->eighths[i] = (s->ns[order[i]] * 8 + slot_ns - 1) / slot_ns;
		if (st->eighths[i] > 8)
			st->eighths[i] = 8;
		sum += st->eighths[i];
	}
	/* rounding up must not make a stack higher than its lane */
	while (sum > 8) {
		for (top = 0, i = 1; i < st->n; i++)
			if (st->eighths[i] > st->eighths[top])
				top = i;
		st->eighths[top]--;
		sum--;
	}
}

static bool same_stack(const struct stack *a, const struct stack *b)
{
	unsigned int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->keys[i] != b->keys[i] || a->eighths[i] != b->eighths[i])
			return false;
	return true;
}

/* What run @run holds, most first: "a (1.000 ms), then b (...)". */
static void run_contents(const struct timeline *tl, const struct lane *l,
			 const struct slot *run, char *buf, size_t size)
{
	unsigned int order[SLOT_KEYS], i, j, n = 0;
	char what[96], d[DURATION_LEN];
	size_t len = 0;
	uint32_t colour;

	buf[0] = '\0';
	for (i = 0; i < SLOT_KEYS; i++) {
		if (!run->ns[i])
			continue;
		for (j = n; j > 0 && run->ns[i] > run->ns[order[j - 1]]; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	for (i = 0; i < n && len < size; i++) {
		key_text(tl, l, run->keys[order[i]], what, sizeof(what),
			 &colour);
		len += snprintf(buf + len, size - len, "%s%s (%s)",
				i == 1 ? ", then " : i ? ", " : "", what,
				format_duration(d, run->ns[order[i]]));
	}
}

/* Slots [@from, @to), all with stack @st, as one stack with a tooltip. */
static void draw_merged(FILE *f, const struct timeline *tl,
			const struct plot *p, const struct lane *l,
			size_t from, size_t to, const struct stack *st,
			double y, double h)
{
	uint64_t start = tl->w0 + from * tl->slot_ns;
	uint64_t end = tl->w0 + to * tl->slot_ns;
	struct slot run = { 0 };
	char title[640], contents[400], who[96];
	double x, w, bottom = y + h, part;
	unsigned int i;
	uint32_t colour;

	if (end > p->t1)
		end = p->t1;
	for (i = from; i < to; i++)
		slot_merge(&run, &l->slots[i]);
	run_contents(tl, l, &run, contents, sizeof(contents));
	if (l->by_state) {
		task_label(who, sizeof(who), l->task);
		snprintf(title, sizeof(title),
			 "%s, %.6f-%.6f s: %u %s merged (shorter than a pixel), mostly %s",
			 who, report_rel(tl->ctx, start) / 1e9,
			 report_rel(tl->ctx, end) / 1e9, run.count,
			 plural(run.count, "interval", "intervals"), contents);
	} else {
		snprintf(title, sizeof(title),
			 "CPU %u, %.6f-%.6f s: %u %s merged (shorter than a pixel), busiest: %s; busy %.0f%%",
			 l->cpu, report_rel(tl->ctx, start) / 1e9,
			 report_rel(tl->ctx, end) / 1e9, run.count,
			 plural(run.count, "interval", "intervals"), contents,
			 100.0 * run.busy / (end > start ? end - start : 1));
	}
	x = x_of(p, start);
	w = x_of(p, end) - x;
	if (w < 0.5)
		w = 0.5;
	fputs("<g><title>", f);
	svg_escape(f, title);
	fputs("</title>", f);
	for (i = 0; i < st->n; i++) {
		key_text(tl, l, st->keys[i], who, sizeof(who), &colour);
		part = h * st->eighths[i] / 8;
		bottom -= part;
		svg_rect(f, x, bottom, w, part, colour, NULL);
	}
	fputs("</g>\n", f);
}

/* The slots [from, to) that fall in one pixel column, summed. */
struct pixel {
	size_t from, to;
	struct slot sum;
};

/* The pixel column from slot @i on (empty at @used); the slot after it. */
static size_t pixel_next(const struct timeline *tl, const struct plot *p,
			 const struct lane *l, size_t i, size_t used,
			 struct pixel *px)
{
	long column = (long)x_of(p, tl->w0 + i * tl->slot_ns);

	memset(px, 0, sizeof(*px));
	px->from = i;
	while (i < used && (long)x_of(p, tl->w0 + i * tl->slot_ns) == column)
		slot_merge(&px->sum, &l->slots[i++]);
	px->to = i;
	return i;
}

/* A lane's merged slots: a stack per pixel, runs of the same drawn once. */
static void draw_slots(FILE *f, const struct timeline *tl,
		       const struct plot *p, const struct lane *l, double y,
		       double h)
{
	size_t used = (p->t1 - tl->w0 + tl->slot_ns - 1) / tl->slot_ns;
	struct pixel cur, next;
	struct stack st, st_next;
	size_t i, from, to;

	if (!l->slots)
		return;
	if (used > SLOTS)
		used = SLOTS;
	i = pixel_next(tl, p, l, 0, used, &cur);
	slot_stack(l, &cur.sum, (cur.to - cur.from) * tl->slot_ns, &st);
	while (cur.to > cur.from) {
		from = cur.from;
		to = cur.to;
		for (;;) {
			i = pixel_next(tl, p, l, i, used, &next);
			st_next.n = 0;
			if (next.to == next.from)
				break;
			slot_stack(l, &next.sum,
				   (next.to - next.from) * tl->slot_ns,
				   &st_next);
			if (!st.n || !same_stack(&st, &st_next))
				break;
			to = next.to;
		}
		if (st.n)
			draw_merged(f, tl, p, l, from, to, &st, y, h);
		cur = next;
		st = st_next;
	}
}

static int compare_pieces(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void draw_lane(FILE *f, const struct timeline *tl,
		      const struct plot *p, const struct lane *l,
		      const char *label, double h)
{
	size_t i;

	/* the time grid, drawn first, shows through */
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#%06x\" fill-opacity=\"0.7\"/>\n",
		p->x0, p->y, p->w, h, LANE_BACKGROUND);
	svg_text_fit(f, p->x0 - 6, p->y + h - 4, 11, "end", label,
		     LABEL_W - MARGIN - 6, NULL);
	draw_slots(f, tl, p, l, p->y, h);
	for (i = 0; i < l->nr_wide; i++)
		draw_piece(f, tl, p, l, &l->wide[i], p->y, h);
}

/*
 * The lost events of @cpu in the window, hatched red over its lane: those
 * of @losses[*@next] on, which are sorted by CPU (struct chart); *@next
 * is moved past them.
 */
static void draw_losses(FILE *f, const struct timeline *tl,
			const struct plot *p, uint32_t cpu, double y,
			const struct sched_loss *const *by_cpu, size_t nr,
			size_t *next)
{
	char title[192], a[SECONDS_LEN], b[SECONDS_LEN];
	const struct sched_loss *l;
	double x, w;

	for (; *next < nr && by_cpu[*next]->cpu <= cpu; ++*next) {
		l = by_cpu[*next];
		if (l->cpu != cpu || l->last < p->t0 || l->first > p->t1)
			continue;
		x = x_of(p, l->first);
		w = x_of(p, l->last) - x;
		format_seconds(a, report_rel(tl->ctx, l->first), 6);
		format_seconds(b, report_rel(tl->ctx, l->last), 6);
		if (l->cut)
			snprintf(title, sizeof(title),
				 "CPU %u: the file is cut short, its records whole up to %s s: who ran there until %s s is not known",
				 cpu, a, b);
		else
			snprintf(title, sizeof(title),
				 "CPU %u: %" PRIu64 " %s lost between %s and %s s: who ran is not known",
				 cpu, l->count,
				 plural(l->count, "event", "events"),
				 a, b);
		fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" fill=\"url(#lost)\" stroke=\"#%06x\"><title>",
			w < 2 ? x - 1 : x, y, w < 2 ? 2 : w, CPU_LANE_H,
			LOSS_COLOUR);
		svg_escape(f, title);
		fputs("</title></rect>\n", f);
	}
}

/* Ticks of the time axis: a 1-2-5 step and how to label it. */
struct time_ticks {
	uint64_t step;		/* ns */
	uint64_t first;		/* absolute */
	bool offsets;		/* labels after t0, not since the origin */
	uint64_t unit;		/* of offset labels: 1 ns or 1000 ns */
	int decimals;
};

static void ticks_plan(const struct timeline *tl, const struct plot *p,
		       struct time_ticks *t)
{
	uint64_t span = p->t1 - p->t0, least, scale = 1, rel0;
	struct svg_step s = { 1, 0 };
	int exponent;

	memset(t, 0, sizeof(*t));
	/* span * TICK_GAP wraps from about 6 years on */
	least = span <= UINT64_MAX / TICK_GAP ?
		span * TICK_GAP / (uint64_t)p->w :
		span / (uint64_t)p->w * TICK_GAP;
	/* svg.c's steps, in whole ns: scale is ten to the exponent */
	for (;;) {
		t->step = s.mantissa * scale;
		if (t->step >= least || t->step >= UINT64_MAX / 100)
			break;
		svg_step_next(&s);
		if (s.mantissa == 1)
			scale *= 10;
	}
	exponent = s.exponent;
	t->offsets = t->step < 1000000;
	rel0 = report_rel(tl->ctx, p->t0);
	if (t->offsets) {
		/* from the window's start: +250 us */
		t->first = p->t0;
		t->unit = t->step >= 1000 ? 1000 : 1;
		t->decimals = t->unit == 1000 && exponent < 3 ? 3 - exponent :
			      0;
	} else {
		/* seconds since the start, at multiples of the step */
		t->first = p->t0 + (t->step - rel0 % t->step) % t->step;
		t->decimals = exponent < 9 ? 9 - exponent : 0;
	}
}

static void tick_label(const struct timeline *tl, const struct plot *p,
		       const struct time_ticks *t, uint64_t at, char *buf,
		       size_t size)
{
	char s[SECONDS_LEN];
	uint64_t off = at - p->t0;

	if (!t->offsets) {
		snprintf(buf, size, "%s",
			 format_seconds(s, report_rel(tl->ctx, at),
					t->decimals));
		return;
	}
	if (t->unit == 1)
		snprintf(buf, size, "+%" PRIu64 " ns", off);
	else
		snprintf(buf, size, "+%.*f us", t->decimals, off / 1000.0);
}

/* Grid lines over the lanes from @top, the axis and its labels at @y. */
static void draw_axis(FILE *f, const struct timeline *tl,
		      const struct plot *p, double top, double y)
{
	char label[64], caption[128], s[SECONDS_LEN];
	struct time_ticks t;
	uint64_t at;
	double x;

	ticks_plan(tl, p, &t);
	for (at = t.first; at <= p->t1; at += t.step) {
		x = x_of(p, at);
		svg_line(f, x, top, x, y + 4, 0xd8d8d8);
		tick_label(tl, p, &t, at, label, sizeof(label));
		svg_text(f, x, y + 16, 11, "middle", label, NULL);
		if (at > UINT64_MAX - t.step)
			break;
	}
	svg_line(f, p->x0, y, p->x0 + p->w, y, 0x444444);
	if (t.offsets)
		snprintf(caption, sizeof(caption),
			 "time after %s s (the start of the window)",
			 format_seconds(s, report_rel(tl->ctx, p->t0), 6));
	else
		snprintf(caption, sizeof(caption),
			 "seconds since the start of the recording");
	svg_text(f, p->x0 + p->w / 2, y + 32, 11, "middle", caption, NULL);
}

/* The y of the middle of the lane where @t ran at @at, or < 0. */
static double waker_y(const struct timeline *tl, const double *cpu_y,
		      const double *thread_y, const struct task *t,
		      uint64_t at)
{
	const struct timeline_thread *th = per_task_find(&tl->per_thread, t);
	const struct lane *l;
	size_t lo, hi, mid, i;
	unsigned int cpu, k;

	if (th && th->lane && thread_y[th->lane - 1] >= 0)
		return thread_y[th->lane - 1] + THREAD_LANE_H / 2.0;
	for (cpu = 0; cpu < tl->nr_cpus; cpu++) {
		l = &tl->cpu_lanes[cpu];
		if (cpu_y[cpu] < 0)
			continue;
		/* the last piece that began at or before @at */
		lo = 0;
		hi = l->nr_wide;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (l->wide[mid].start <= at)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && l->wide[lo - 1].task == t && l->wide[lo - 1].end >= at)
			return cpu_y[cpu] + CPU_LANE_H / 2.0;
		if (!l->slots || at < tl->w0)
			continue;
		i = (at - tl->w0) / tl->slot_ns;
		for (k = 0; i < SLOTS && k < SLOT_KEYS; k++)
			if (l->slots[i].ns[k] &&
			    l->slots[i].keys[k] == t->id + 1)
				return cpu_y[cpu] + CPU_LANE_H / 2.0;
	}
	return -1;
}

static void draw_arrow(FILE *f, const struct timeline *tl,
		       const struct plot *p, const struct arrow *a,
		       const double *cpu_y, const double *thread_y)
{
	char title[384], who[96], by[96], a_s[SECONDS_LEN], b_s[SECONDS_LEN];
	char d[DURATION_LEN];
	double x1 = x_of(p, a->wake), x2 = x_of(p, a->in), y1 = -1, y2;
	bool found;

	if (a->cpu >= tl->nr_cpus || cpu_y[a->cpu] < 0)
		return;
	y2 = cpu_y[a->cpu] + CPU_LANE_H / 2.0;
	if (a->waker)
		y1 = waker_y(tl, cpu_y, thread_y, a->waker, a->wake);
	found = y1 >= 0;
	if (!found)
		y1 = cpu_y[a->cpu] - 1;	/* along the top of the lane */
	task_label(who, sizeof(who), a->task);
	if (a->waker)
		task_label(by, sizeof(by), a->waker);
	snprintf(title, sizeof(title),
		 "%s woken at %s s %s%s%s, ran at %s s on CPU %u (after %s)",
		 who, format_seconds(a_s, report_rel(tl->ctx, a->wake), 6),
		 a->irq ? "from interrupt context" :
		 a->waker ? "by " : "by a task not known",
		 a->waker ? by : "",
		 a->waker && !found ? " (not on a lane shown)" : "",
		 format_seconds(b_s, report_rel(tl->ctx, a->in), 6), a->cpu,
		 format_duration(d, a->in - a->wake));
	fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#%06x\" stroke-width=\"1\" stroke-opacity=\"0.8\"%s marker-end=\"url(#arrowhead)\"><title>",
		x1, y1, x2, y2, ARROW_COLOUR,
		found ? "" : " stroke-dasharray=\"3 2\"");
	svg_escape(f, title);
	fputs("</title></line>\n", f);
}

/* Processes by on-CPU time on the CPUs shown, for the legend. */
struct process_time {
	uint32_t key;		/* tgid, or tid if not known */
	const struct task *name;
	uint64_t ns;
};

static int compare_processes(const void *a, const void *b)
{
	const struct process_time *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static struct process_time *rank_processes(const struct timeline *tl,
					   size_t *count)
{
	struct task *const *tasks;
	size_t nr = schedmodel_tasks(tl->ctx->front.model, &tasks), i, j, n = 0;
	struct process_time *v = calloc(nr ? nr : 1, sizeof(*v));
	const struct timeline_thread *th;
	uint32_t key;

	*count = 0;
	if (!v)
		return NULL;
	for (i = 0; i < nr; i++) {
		th = per_task_find(&tl->per_thread, tasks[i]);
		if (!th || !th->oncpu ||
		    !select_task(&tl->ctx->front.sel, tasks[i]))
			continue;
		key = schedmodel_process_key(tasks[i]);
		for (j = 0; j < n && v[j].key != key; j++)
			;
		if (j == n) {
			v[n].key = key;
			v[n].name = schedmodel_process_name(tl->ctx->front.model,
							    key, tasks[i]);
			n++;
		}
		v[j].ns += th->oncpu;
	}
	qsort(v, n, sizeof(*v), compare_processes);
	*count = n;
	return v;
}

struct legend_cursor {
	FILE *f;
	double x, y;
	unsigned int lines;
};

static void legend_entry(struct legend_cursor *c, uint32_t colour,
			 const char *label, const char *title)
{
	double w = 16 + strlen(label) * 7.2 + 18;

	if (c->x + w > WIDTH - MARGIN && c->x > MARGIN) {
		c->x = MARGIN;
		c->y += 18;
		c->lines++;
	}
	if (c->f) {
		fprintf(c->f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"12\" height=\"12\" fill=\"#%06x\" stroke=\"#%06x\"/>\n",
			c->x, c->y, colour, colour == LANE_BACKGROUND ?
			0xbbbbbb : colour);
		svg_text(c->f, c->x + 16, c->y + 11, 12, "start", label,
			 title);
	}
	c->x += w;
}

/* The legend from @y; with @f NULL only measured: its lines. */
static unsigned int draw_legend(FILE *f, const struct timeline *tl,
				const struct process_time *procs, size_t n,
				bool others, size_t lanes, double y)
{
	static const char kinds[] = { KIND_RUNNING, 'R', 'S', 'D', 'I', 'o' };
	struct legend_cursor c = { f, MARGIN, y, 1 };
	char label[128], title[192], d[DURATION_LEN];
	size_t i;

	if (f)
		svg_text(f, MARGIN, y - 6, 12, "start",
			 "Processes, most on-CPU time first:", NULL);
	for (i = 0; i < n && i < LEGEND_PROCESSES; i++) {
		snprintf(label, sizeof(label), "%s %u",
			 report_comm(procs[i].name), procs[i].key);
		snprintf(title, sizeof(title), "process %s: %s on the CPUs shown",
			 label, format_duration(d, procs[i].ns));
		legend_entry(&c, svg_hash_colour(procs[i].key), label, title);
	}
	if (n > LEGEND_PROCESSES) {
		snprintf(label, sizeof(label), "(%zu more %s)",
			 n - LEGEND_PROCESSES,
			 plural(n - LEGEND_PROCESSES, "process", "processes"));
		c.x += 4;
		if (f)
			svg_text(f, c.x, c.y + 11, 12, "start", label, NULL);
		c.x += strlen(label) * 7.2 + 18;
	}
	if (others)
		legend_entry(&c, OTHERS_COLOUR, "threads not selected", NULL);
	legend_entry(&c, LANE_BACKGROUND, "idle", NULL);
	if (lanes) {
		c.x = MARGIN;
		c.y += 22;
		c.lines++;
		if (f)
			svg_text(f, c.x, c.y + 11, 12, "start",
				 "Thread lanes:", NULL);
		c.x += 100;
		for (i = 0; i < sizeof(kinds); i++) {
			if (kinds[i] == 'o')
				snprintf(label, sizeof(label), "other state");
			else if (kinds[i] == 'R')
				snprintf(label, sizeof(label),
					 "R runnable (preempted or woken)");
			else
				kind_label(label, sizeof(label), kinds[i]);
			legend_entry(&c, kinds[i] == 'o' ? SVG_GREY :
				     state_colour(kinds[i]), label, NULL);
		}
	}
	if (tl->wakeups) {
		c.x = MARGIN;
		c.y += 22;
		c.lines++;
		if (f) {
			fprintf(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#%06x\" stroke-width=\"1.2\" marker-end=\"url(#arrowhead)\"/>\n",
				MARGIN, c.y + 6, MARGIN + 30, c.y + 6,
				ARROW_COLOUR);
			snprintf(label, sizeof(label),
				 "wakeup: from the waker's lane at the wakeup to the switch-in (dashed: waker not shown)%s",
				 tl->wakeups_seen > tl->nr_arrows ?
				 "; only the first ones drawn" : "");
			svg_text(f, MARGIN + 38, c.y + 11, 12, "start", label,
				 NULL);
		}
	}
	return c.lines;
}

static void put_defs(FILE *f)
{
	fprintf(f, "<defs>\n"
		"<marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\">"
		"<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#%06x\"/></marker>\n"
		"<pattern id=\"lost\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"#ffffff\" fill-opacity=\"0.6\"/>"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#%06x\" stroke-width=\"2\"/></pattern>\n"
		"</defs>\n", ARROW_COLOUR, LOSS_COLOUR);
}

/* The thread lanes to draw, most on-CPU time first. */
static int compare_lanes(const void *a, const void *b, void *arg)
{
	const struct timeline *tl = arg;
	const struct lane *x = *(const struct lane *const *)a;
	const struct lane *y = *(const struct lane *const *)b;
	const struct timeline_thread *tx = per_task_find(&tl->per_thread,
							 x->task);
	const struct timeline_thread *ty = per_task_find(&tl->per_thread,
							 y->task);

	if (tx->oncpu_all != ty->oncpu_all)
		return tx->oncpu_all > ty->oncpu_all ? -1 : 1;
	if (x->task->tid != y->task->tid)
		return x->task->tid < y->task->tid ? -1 : 1;
	return x->task->id < y->task->id ? -1 : x->task->id > y->task->id;
}

/* The CPUs with a lane: selected, and online or with something drawn. */
static bool cpu_shown(const struct timeline *tl, unsigned int cpu)
{
	const struct lane *l = &tl->cpu_lanes[cpu];

	return select_cpu(&tl->ctx->front.sel, cpu) &&
	       (srecreader_cpu_online(tl->ctx->front.reader, cpu) || l->nr_wide ||
		l->slots);
}

struct chart {
	struct plot plot;
	const struct lane **lanes;	/* thread lanes drawn */
	size_t nr_lanes;
	double *cpu_y, *thread_y;	/* lane tops; -1: not drawn */
	struct process_time *procs;
	size_t nr_procs;
	bool others;			/* threads not selected ran */
	/*
	 * the loss windows by CPU, in their order for each: the lanes take
	 * theirs in turn, without a look through all of them for each CPU
	 * (a header may claim 65536 CPUs, each cut short)
	 */
	const struct sched_loss **losses;
	size_t nr_losses;
};

static void chart_free(struct chart *c)
{
	free(c->losses);
	free(c->lanes);
	free(c->cpu_y);
	free(c->thread_y);
	free(c->procs);
}

/* By CPU, then in the order of the model's list. */
static int compare_loss_cpus(const void *a, const void *b)
{
	const struct sched_loss *x = *(const struct sched_loss *const *)a;
	const struct sched_loss *y = *(const struct sched_loss *const *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int chart_plan(struct timeline *tl, struct chart *c)
{
	const struct sched_loss *losses;
	uint64_t end;
	size_t i;

	memset(c, 0, sizeof(*c));
	schedmodel_window_abs(tl->ctx->front.model, &c->plot.t0, &end);
	c->plot.t1 = end < schedmodel_end(tl->ctx->front.model) ?
		     end : schedmodel_end(tl->ctx->front.model);
	if (c->plot.t1 > tl->limit)
		c->plot.t1 = tl->limit;
	c->plot.x0 = LABEL_W;
	c->plot.w = WIDTH - LABEL_W - 2 * MARGIN;
	c->cpu_y = calloc(tl->nr_cpus ? tl->nr_cpus : 1, sizeof(*c->cpu_y));
	c->thread_y = calloc(tl->nr_thread_lanes ? tl->nr_thread_lanes : 1,
			     sizeof(*c->thread_y));
	c->lanes = calloc(tl->nr_thread_lanes ? tl->nr_thread_lanes : 1,
			  sizeof(*c->lanes));
	c->procs = rank_processes(tl, &c->nr_procs);
	c->nr_losses = schedmodel_losses(tl->ctx->front.model, &losses);
	c->losses = malloc((c->nr_losses ? c->nr_losses : 1) *
			   sizeof(*c->losses));
	if (!c->cpu_y || !c->thread_y || !c->lanes || !c->procs ||
	    !c->losses)
		return -ENOMEM;
	for (i = 0; i < c->nr_losses; i++)
		c->losses[i] = &losses[i];
	qsort(c->losses, c->nr_losses, sizeof(*c->losses), compare_loss_cpus);
	for (i = 0; i < tl->nr_cpus; i++) {
		c->cpu_y[i] = -1;
		if (tl->cpu_lanes[i].nr_wide)
			qsort(tl->cpu_lanes[i].wide, tl->cpu_lanes[i].nr_wide,
			      sizeof(struct piece), compare_pieces);
	}
	for (i = 0; i < tl->nr_thread_lanes; i++) {
		c->thread_y[i] = -1;
		c->lanes[i] = &tl->thread_lanes[i];
	}
	qsort_r(c->lanes, tl->nr_thread_lanes, sizeof(*c->lanes),
		compare_lanes, tl);
	c->nr_lanes = tl->nr_thread_lanes < THREAD_LANES_SHOWN ?
		      tl->nr_thread_lanes : THREAD_LANES_SHOWN;
	return 0;
}

/* Whether a thread not selected ran on a CPU lane (for the legend). */
static bool others_ran(const struct timeline *tl)
{
	struct task *const *tasks;
	size_t nr = schedmodel_tasks(tl->ctx->front.model, &tasks), i;
	const struct timeline_thread *th;

	for (i = 0; i < nr; i++) {
		th = per_task_find(&tl->per_thread, tasks[i]);
		if (th && th->oncpu &&
		    !select_task(&tl->ctx->front.sel, tasks[i]))
			return true;
	}
	return false;
}

static void draw_lanes(FILE *f, struct timeline *tl, struct chart *c)
{
	char label[96];
	unsigned int cpu;
	size_t i, next = 0;

	for (cpu = 0; cpu < tl->nr_cpus; cpu++) {
		if (!cpu_shown(tl, cpu))
			continue;
		c->cpu_y[cpu] = c->plot.y;
		snprintf(label, sizeof(label), "CPU %u", cpu);
		draw_lane(f, tl, &c->plot, &tl->cpu_lanes[cpu], label,
			  CPU_LANE_H);
		draw_losses(f, tl, &c->plot, cpu, c->plot.y, c->losses,
			    c->nr_losses, &next);
		c->plot.y += CPU_LANE_H + LANE_GAP;
	}
	if (!c->nr_lanes)
		return;
	c->plot.y += 8;
	for (i = 0; i < c->nr_lanes; i++) {
		c->thread_y[c->lanes[i] - tl->thread_lanes] = c->plot.y;
		snprintf(label, sizeof(label), "%s %u",
			 report_comm(c->lanes[i]->task), c->lanes[i]->task->tid);
		draw_lane(f, tl, &c->plot, c->lanes[i], label, THREAD_LANE_H);
		c->plot.y += THREAD_LANE_H + LANE_GAP;
	}
}

static int draw(struct timeline *tl, const char *title)
{
	struct report_ctx *ctx = tl->ctx;
	char sub[512], warn[1024], note[160];
	struct svg_frame frame = { .width = WIDTH };
	struct chart c;
	double top, lanes_h = 0, axis_y, legend_y;
	unsigned int cpu, lines;
	size_t i;
	FILE *f;
	int ret;

	report_subtitle(ctx, sub, sizeof(sub));
	report_loss_warning(ctx, warn, sizeof(warn));
	frame.subtitle = sub;
	frame.warning = warn[0] ? warn : NULL;
	ret = chart_plan(tl, &c);
	if (ret) {
		chart_free(&c);
		return ret;
	}
	c.others = others_ran(tl);
	for (cpu = 0; cpu < tl->nr_cpus; cpu++)
		lanes_h += cpu_shown(tl, cpu) ? CPU_LANE_H + LANE_GAP : 0;
	if (c.nr_lanes)
		lanes_h += 8 + c.nr_lanes * (THREAD_LANE_H + LANE_GAP);
	top = svg_header_height(title, &frame) + 8;
	axis_y = top + lanes_h + 2;
	legend_y = axis_y + (tl->nr_thread_lanes > c.nr_lanes ||
			     tl->threads_left_out ? 76 : 60);
	lines = draw_legend(NULL, tl, c.procs, c.nr_procs, c.others,
			    c.nr_lanes, legend_y);
	f = report_svg_open(ctx);
	if (!f) {
		chart_free(&c);
		return -EIO;
	}
	svg_open(f, WIDTH, legend_y + lines * 22 + 16, title);
	put_defs(f);
	svg_header_draw(f, title, &frame);
	if (c.plot.t1 <= c.plot.t0) {
		svg_text(f, WIDTH / 2, top + 20, 14, "middle",
			 "no data: the window is empty", NULL);
	} else {
		c.plot.y = top;
		draw_axis(f, tl, &c.plot, top, axis_y);
		draw_lanes(f, tl, &c);
		for (i = 0; i < tl->nr_arrows; i++)
			draw_arrow(f, tl, &c.plot, &tl->arrows[i], c.cpu_y,
				   c.thread_y);
		if (tl->nr_thread_lanes > c.nr_lanes || tl->threads_left_out) {
			size_t more = tl->nr_thread_lanes - c.nr_lanes +
				      tl->threads_left_out;

			snprintf(note, sizeof(note),
				 "(%zu more %s no lane: narrow the selection with --pid, --tid or --comm)",
				 more, plural(more, "thread has", "threads have"));
			svg_text(f, MARGIN, axis_y + 50, 11, "start", note,
				 NULL);
		}
	}
	draw_legend(f, tl, c.procs, c.nr_procs, c.others, c.nr_lanes,
		    legend_y);
	svg_close(f);
	chart_free(&c);
	return report_svg_close(ctx, f, 0);
}

/* Say so when most of what the CPU lanes show is merged. */
static void warn_merged(const struct timeline *tl)
{
	uint64_t merged = 0, exact = 0;
	char d[DURATION_LEN];
	unsigned int cpu;
	size_t i;

	for (cpu = 0; cpu < tl->nr_cpus; cpu++) {
		const struct lane *l = &tl->cpu_lanes[cpu];

		exact += l->nr_wide;
		for (i = 0; l->slots && i < SLOTS; i++)
			merged += l->slots[i].count;
	}
	if (tl->ctx->front.quiet || merged < MERGED_WARN || merged < exact)
		return;
	fprintf(stderr,
		"schedrec report timeline: %" PRIu64 " of %" PRIu64 " intervals on the CPU lanes are shorter than a pixel (%s) and are drawn merged; a shorter --range shows them apart\n",
		merged, merged + exact, format_duration(d, tl->slot_ns));
}

/* Say so when the lanes left out what ended too late to draw. */
static void warn_cut(const struct timeline *tl)
{
	if (tl->ctx->front.quiet || !tl->cut)
		return;
	fprintf(stderr,
		"schedrec report timeline: the chart leaves out intervals that end at times no clock reaches (over 146 years into the window): the trace's timestamps are wrong; --range chooses a part of the window\n");
}

static int timeline_output(void *priv, struct report_ctx *ctx)
{
	struct timeline *tl = priv;
	const char *title = "Who ran when: on-CPU intervals per CPU";
	struct task *const *tasks;
	size_t nr = schedmodel_tasks(ctx->front.model, &tasks), i;
	struct timeline_thread *th;
	int ret = 0;

	if (!tl->started)
		start_lanes(tl);
	for (i = 0; tl->threads && i < nr; i++) {
		th = per_task_find(&tl->per_thread, tasks[i]);
		if (th)
			flush_pending(tl, tasks[i], th, UINT64_MAX);
	}
	if (tl->failed)
		return -ENOMEM;
	report_heading(ctx, title);
	if (!ctx->csv)
		ret = print_table(tl);
	if (!ret && ctx->svg_path) {
		warn_merged(tl);
		warn_cut(tl);
		if (!ctx->front.quiet && tl->wakeups_seen > tl->nr_arrows)
			fprintf(stderr,
				"schedrec report timeline: %" PRIu64 " wakeups in the window, the first %zu drawn; a shorter --range shows them all\n",
				tl->wakeups_seen, tl->nr_arrows);
		ret = draw(tl, title);
	}
	return ret;
}

static void timeline_free(void *priv)
{
	struct timeline *tl = priv;
	size_t i;

	for (i = 0; tl->cpu_lanes && i < tl->nr_cpus; i++) {
		free(tl->cpu_lanes[i].wide);
		free(tl->cpu_lanes[i].slots);
	}
	for (i = 0; i < tl->nr_thread_lanes; i++) {
		free(tl->thread_lanes[i].wide);
		free(tl->thread_lanes[i].slots);
	}
	free(tl->cpu_lanes);
	free(tl->thread_lanes);
	per_task_free(&tl->per_thread);
	free(tl->arrows);
	free(tl->rows);
}

const struct report timeline_report = {
	.name = "timeline",
	.summary = "per-CPU lanes of who ran when, thread states, wakeups",
	.help =
	"Who ran when in the window: the on-CPU intervals of every CPU, from\n"
	"the switches.\n"
	"\n"
	"Text: the intervals of the selected threads on the CPUs, in the order\n"
	"they end (as the trace tells them), the first --top of them (idle\n"
	"time and threads not selected are not listed: they are the gaps).\n"
	"\n"
	"Columns (CSV names in brackets):\n"
	"  CPU [cpu]                  the CPU\n"
	"  START(s) END(s) [start_s end_s]   the interval, seconds since the\n"
	"                             start of the recording\n"
	"  ON-CPU [oncpu_ns]          its length ('~': it overlaps lost events,\n"
	"                             [uncertain] 1 in CSV)\n"
	"  TID PID COMM [tid pid comm]   the thread, named as it was then\n"
	"  CENSORED [censored]        start, end or both: cut by the start or\n"
	"                             end of the window, or of the recording\n"
	"CSV has every interval (or the first --top), printed as the trace is\n"
	"read.\n"
	"\n"
	"Chart (--svg): a lane per CPU, time left to right; each interval\n"
	"coloured by its process (the same colour for a process in every\n"
	"chart), grey for threads not selected, blank when the CPU idled;\n"
	"lost events hatched red.  The legend names the processes with the\n"
	"most on-CPU time.  Every interval has a tooltip.  The window is cut\n"
	"into slots of a power of two ns (64 or more), 1/2048 to 1/1024 of\n"
	"it (each under a pixel); intervals shorter than a slot are\n"
	"merged: a slot's are drawn as a stack of the (up to three) threads\n"
	"that had most of it, each as high as its share of that time, so a\n"
	"long window reads as the CPUs' load; the tooltip says how many were\n"
	"merged and who had them.\n",
	.options = timeline_options,
	.notes =
	"For long windows, the chart says how many intervals were merged, and\n"
	"a warning on stderr suggests a shorter --range.\n",
	.examples =
	"  schedrec report timeline run.srec --range 12.0:12.5 --svg tl.svg\n"
	"  schedrec report timeline run.srec --range 12.0:12.001 --pid 4242 --threads --wakeups --svg tl.svg\n"
	"  schedrec report timeline run.srec --cpu 3 --csv\n",
	.priv_size = sizeof(struct timeline),
	.parse = timeline_parse,
	.start = timeline_start,
	.output = timeline_output,
	.free = timeline_free,
};
