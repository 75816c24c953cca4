// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec export openmetrics: the numbers of the reports as metrics, for
 * Prometheus.  Per thread and per process (the --top most active): on-CPU
 * time per CPU, off-CPU time, switch-outs and the longest off-CPU interval
 * by state, wakeup and runqueue latency as histograms; per CPU, idle time
 * and lost events; and what the recording was.  Each is a number of a
 * report on the same trace and selection; doc/export.md has the table.
 *
 * Two texts of the same samples: the Prometheus text format (the default:
 * what node_exporter's textfile collector and promtool read), and
 * OpenMetrics 1.0 (--format openmetrics), which names a counter's family
 * without its _total, an info metric's without its _info, says the unit
 * in # UNIT and ends with # EOF.
 *
 * Everything is counted as the model hands out intervals and written at
 * the end: memory grows with the number of threads only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "durstats.h"
#include "export.h"
#include "idmap.h"
#include "promtext.h"
#include "table.h"

enum {
	OPT_TOP = EXPORT_OPT_BASE,
	OPT_FORMAT,
};

static const struct optspec openmetrics_options[] = {
	{ "top", OPT_TOP, required_argument, "N",
	  "the N most active threads, and processes (default 20; 0: "
	  "all)\n" },
	{ "format", OPT_FORMAT, required_argument, "FORMAT",
	  "prometheus (default) or openmetrics\n" },
	{ 0 },
};

#define DEFAULT_TOP	20

/* The states counted apart, as report states counts them: others are '?' */
static const char state_letters[] = "RSDITtXZP?";
#define NR_STATES	(sizeof(state_letters) - 1)
#define STATE_R		0

#define NR_KINDS	2

/*
 * The finite buckets of a latency histogram: report latency's log2 slots
 * of microseconds 0 to 23, so the last one holds what is below 2^24 us
 * (16.8 s); the rest is only in +Inf.  The same buckets for every series,
 * so that they add up across threads.
 */
#define NR_BUCKETS	24

/* What is counted of a thread (a task), a process, or a series. */
struct om_row {
	bool used;
	const struct task *task;	/* the one that names it */
	uint32_t key;			/* a process's pid */
	uint64_t *oncpu;		/* per CPU, NULL until it ran */
	uint64_t offcpu[NR_STATES];	/* time, censored pieces included */
	uint64_t switches[NR_STATES];
	uint64_t intervals[NR_STATES];	/* complete (uncensored) ones */
	uint64_t max[NR_STATES];	/* the longest complete one */
	uint64_t latency_count[NR_KINDS];
	uint64_t latency_total[NR_KINDS];
	struct log2hist hist[NR_KINDS];	/* of microseconds, as report latency */
};

/* pid="4242",tid="4243",comm="..." with every byte of a comm escaped */
#define LABELS_LEN	(64 + 2 * SCHEDREC_COMM_LEN)

/* A series: the labels, and the rows that have them summed. */
struct om_series {
	struct om_row sum;
	uint32_t pid, tid;		/* tid 0: a process */
	const char *comm;
	uint64_t activity;		/* on-CPU time + time runnable */
	char labels[LABELS_LEN];
};

struct openmetrics {
	struct export_ctx *ctx;
	FILE *out;
	bool openmetrics;		/* --format openmetrics */
	bool top_set;
	unsigned int top;		/* 0: all */
	unsigned int nr_cpus;
	struct per_task threads;	/* struct om_row */
	struct keyed processes;		/* struct om_row by pid */
	uint64_t *idle;			/* per CPU */
	bool failed;			/* out of memory */
};

static __printf(1, 2) void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedrec export openmetrics: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int openmetrics_parse(void *priv, int key, const char *arg)
{
	struct openmetrics *om = priv;
	unsigned long top;
	char *end;

	switch (key) {
	case OPT_TOP:
		errno = 0;
		top = strtoul(arg, &end, 10);
		if (errno || *end || !*arg || arg[0] < '0' || arg[0] > '9' ||
		    top > UINT32_MAX) {
			usage_error("bad --top '%s': give a number of threads and processes, 0 for all",
				    arg);
			return -EINVAL;
		}
		om->top = top;
		om->top_set = true;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "prometheus") && strcmp(arg, "openmetrics")) {
			usage_error("bad --format '%s': prometheus or openmetrics",
				    arg);
			return -EINVAL;
		}
		om->openmetrics = !strcmp(arg, "openmetrics");
		return 0;
	}
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Counting */

static unsigned int state_index(char state)
{
	const char *p = state ? strchr(state_letters, state) : NULL;

	return p ? (unsigned int)(p - state_letters) : NR_STATES - 1;
}

/*
 * The rows of @t, its own and its process's, or false (not selected, or
 * out of memory).
 */
static bool rows_of(struct openmetrics *om, const struct task *t,
		    struct om_row *rows[2])
{
	uint32_t key = schedmodel_process_key(t);
	struct om_row *p;

	if (!select_task(&om->ctx->front.sel, (struct task *)t))
		return false;
	rows[0] = per_task_get(&om->threads, t);
	rows[1] = keyed_get(&om->processes, key, NULL);
	if (!rows[0] || !rows[1]) {
		om->failed = true;
		return false;
	}
	rows[0]->used = true;
	rows[0]->task = t;
	/* its latest thread, until process_series() names it */
	p = rows[1];
	p->used = true;
	p->key = key;
	p->task = t;
	return true;
}

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct openmetrics *om = arg;
	uint64_t len = iv->end - iv->start;
	struct om_row *rows[2];
	int i;

	if (!select_cpu(&om->ctx->front.sel, iv->cpu))
		return;
	if (!iv->task) {
		om->idle[iv->cpu] += len;
		return;
	}
	if (!rows_of(om, iv->task, rows))
		return;
	for (i = 0; i < 2; i++) {
		if (!rows[i]->oncpu)
			rows[i]->oncpu = calloc(om->nr_cpus,
						sizeof(*rows[i]->oncpu));
		if (!rows[i]->oncpu) {
			om->failed = true;
			return;
		}
		rows[i]->oncpu[iv->cpu] += len;
	}
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	struct openmetrics *om = arg;
	const struct selection *sel = &om->ctx->front.sel;
	uint64_t len = iv->end - iv->iv_start;
	unsigned int k = state_index(iv->state);
	struct om_row *rows[2];
	int i;

	if (sel->cpus && (iv->out_cpu == CPU_NONE ||
			  !select_cpu(sel, iv->out_cpu)))
		return;
	/* time to each part's name */
	if (!rows_of(om, iv->task, rows))
		return;
	for (i = 0; i < 2; i++)
		rows[i]->offcpu[k] += iv->end - iv->start;
	/*
	 * the interval, once and whole, to the name it began with; a
	 * censored one is a lower bound: never a maximum
	 */
	if ((iv->flags & IV_CONTINUED) ||
	    (iv->iv_flags & (IV_CUT_START | IV_CUT_END)) ||
	    !rows_of(om, iv->iv_task, rows))
		return;
	for (i = 0; i < 2; i++) {
		rows[i]->intervals[k]++;
		if (len > rows[i]->max[k])
			rows[i]->max[k] = len;
	}
}

static void on_switchout(void *arg, const struct switchout_ev *ev)
{
	struct openmetrics *om = arg;
	struct om_row *rows[2];

	if (!select_cpu(&om->ctx->front.sel, ev->cpu) ||
	    !rows_of(om, ev->task, rows))
		return;
	rows[0]->switches[state_index(ev->state)]++;
	rows[1]->switches[state_index(ev->state)]++;
}

static void on_latency(void *arg, const struct latency_ev *ev)
{
	struct openmetrics *om = arg;
	uint64_t len = ev->end - ev->start;
	struct om_row *rows[2];
	int i;

	if (!select_cpu(&om->ctx->front.sel, ev->cpu) ||
	    !rows_of(om, ev->task, rows))
		return;
	for (i = 0; i < 2; i++) {
		rows[i]->latency_count[ev->kind]++;
		rows[i]->latency_total[ev->kind] += len;
		log2hist_add(&rows[i]->hist[ev->kind], len / 1000);
	}
}

static int openmetrics_start(void *priv, struct export_ctx *ctx)
{
	struct openmetrics *om = priv;
	struct sched_handler h = {
		.oncpu = on_oncpu, .offcpu = on_offcpu,
		.switchout = on_switchout, .latency = on_latency, .arg = om,
	};

	om->ctx = ctx;
	om->out = ctx->out;
	om->nr_cpus = ctx->front.info->file.nr_cpus;
	if (!om->top_set)
		om->top = DEFAULT_TOP;
	om->threads.size = sizeof(struct om_row);
	om->processes.size = sizeof(struct om_row);
	om->idle = calloc(om->nr_cpus ? om->nr_cpus : 1, sizeof(*om->idle));
	if (!om->idle)
		return -ENOMEM;
	return schedmodel_add_handler(ctx->front.model, &h);
}

/* ------------------------------------------------------------------ */
/* Series: rows of the same labels summed, the most active first */

/* Add @from to @to. */
static int row_add(struct om_row *to, const struct om_row *from,
		   unsigned int nr_cpus)
{
	unsigned int i, k;

	if (from->oncpu && !to->oncpu)
		to->oncpu = calloc(nr_cpus, sizeof(*to->oncpu));
	if (from->oncpu && !to->oncpu)
		return -ENOMEM;
	for (i = 0; from->oncpu && i < nr_cpus; i++)
		to->oncpu[i] += from->oncpu[i];
	for (k = 0; k < NR_STATES; k++) {
		to->offcpu[k] += from->offcpu[k];
		to->switches[k] += from->switches[k];
		to->intervals[k] += from->intervals[k];
		if (from->max[k] > to->max[k])
			to->max[k] = from->max[k];
	}
	for (k = 0; k < NR_KINDS; k++) {
		to->latency_count[k] += from->latency_count[k];
		to->latency_total[k] += from->latency_total[k];
		for (i = 0; i < LOG2HIST_SLOTS; i++)
			to->hist[k].slots[i] += from->hist[k].slots[i];
	}
	to->used = true;
	return 0;
}

static uint64_t oncpu_total(const struct om_row *row, unsigned int nr_cpus)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; row->oncpu && i < nr_cpus; i++)
		sum += row->oncpu[i];
	return sum;
}

static const char *comm_of(const struct task *t)
{
	return t->comm[0] ? t->comm : "?";
}

static void series_labels(struct om_series *s)
{
	char comm[2 * SCHEDREC_COMM_LEN + 1];
	size_t len = promtext_escape(comm, s->comm,
					strnlen(s->comm, SCHEDREC_COMM_LEN));

	comm[len] = '\0';
	if (s->tid)
		snprintf(s->labels, sizeof(s->labels),
			 "pid=\"%" PRIu32 "\",tid=\"%" PRIu32 "\",comm=\"%s\"",
			 s->pid, s->tid, comm);
	else
		snprintf(s->labels, sizeof(s->labels),
			 "pid=\"%" PRIu32 "\",comm=\"%s\"", s->pid, comm);
}

/* Thread rows by labels: pid, tid, comm. */
static int compare_labels(const void *a, const void *b)
{
	const struct om_row *x = *(const struct om_row *const *)a;
	const struct om_row *y = *(const struct om_row *const *)b;
	uint32_t px = schedmodel_process_key(x->task);
	uint32_t py = schedmodel_process_key(y->task);

	if (px != py)
		return px < py ? -1 : 1;
	if (x->task->tid != y->task->tid)
		return x->task->tid < y->task->tid ? -1 : 1;
	return strcmp(comm_of(x->task), comm_of(y->task));
}

/* Most active first, then by tid (pid), then by name. */
static int compare_activity(const void *a, const void *b)
{
	const struct om_series *x = a, *y = b;

	if (x->activity != y->activity)
		return x->activity > y->activity ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static void series_free(struct om_series *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i].sum.oncpu);
	free(v);
}

/*
 * The series of @rows (@n pointers, sorted so that rows of the same
 * labels are next to each other; @thread: labels pid, tid, comm, else pid,
 * comm), sorted by activity.  NULL on ENOMEM.
 */
static struct om_series *make_series(struct openmetrics *om,
				     struct om_row **rows, size_t n,
				     bool thread, size_t *count)
{
	struct om_series *v = calloc(n ? n : 1, sizeof(*v)), *s = NULL;
	size_t i;

	*count = 0;
	for (i = 0; v && i < n; i++) {
		const struct task *t = rows[i]->task;
		uint32_t pid = thread ? schedmodel_process_key(t) : rows[i]->key;

		if (!s || !thread || s->pid != pid || s->tid != t->tid ||
		    strcmp(s->comm, comm_of(t))) {
			s = &v[(*count)++];
			s->pid = pid;
			s->tid = thread ? t->tid : 0;
			s->comm = comm_of(t);
		}
		if (row_add(&s->sum, rows[i], om->nr_cpus)) {
			series_free(v, *count);
			return NULL;
		}
	}
	for (i = 0; v && i < *count; i++) {
		v[i].activity = oncpu_total(&v[i].sum, om->nr_cpus) +
				v[i].sum.offcpu[STATE_R];
		series_labels(&v[i]);
	}
	if (v)
		qsort(v, *count, sizeof(*v), compare_activity);
	return v;
}

static struct om_series *thread_series(struct openmetrics *om, size_t *count)
{
	struct om_row *items = om->threads.items, **rows;
	struct om_series *v;
	size_t i, n = 0;

	rows = calloc(om->threads.count + 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < om->threads.count; i++)
		if (items[i].used)
			rows[n++] = &items[i];
	qsort(rows, n, sizeof(*rows), compare_labels);
	v = make_series(om, rows, n, true, count);
	free(rows);
	return v;
}

static struct om_series *process_series(struct openmetrics *om,
					size_t *count)
{
	struct om_row **rows;
	struct om_series *v;
	size_t i, n = 0;

	rows = calloc(om->processes.count + 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < om->processes.count; i++) {
		struct om_row *row = keyed_item(&om->processes, i);

		if (!row->used)
			continue;
		row->task = schedmodel_process_name(om->ctx->front.model, row->key,
						    row->task);
		rows[n++] = row;
	}
	v = make_series(om, rows, n, false, count);
	free(rows);
	return v;
}

/* ------------------------------------------------------------------ */
/* Writing */

enum om_type { OM_COUNTER, OM_GAUGE, OM_HISTOGRAM, OM_INFO };

static const char *const type_names[] = {
	[OM_COUNTER] = "counter", [OM_GAUGE] = "gauge",
	[OM_HISTOGRAM] = "histogram", [OM_INFO] = "info",
};

/* The family being written: its name (no _total, no _info) and type. */
struct family {
	char name[96];
	enum om_type type;
};

/*
 * Begin family @name (without _total or _info): TYPE, UNIT (when its name
 * ends in _seconds) and HELP in OpenMetrics; in the Prometheus format HELP
 * and TYPE of the name its samples have, an info metric being a gauge.
 */
static void begin_family(struct openmetrics *om, struct family *f,
			 enum om_type type, const char *help_prefix,
			 const char *help)
{
	static const char unit[] = "_seconds";
	size_t len = strlen(f->name);
	const char *suffix = type == OM_COUNTER ? "_total" :
			     type == OM_INFO ? "_info" : "";

	f->type = type;
	if (!om->openmetrics) {
		fprintf(om->out, "# HELP %s%s %s%s\n# TYPE %s%s %s\n",
			f->name, suffix, help_prefix, help, f->name, suffix,
			type == OM_INFO ? "gauge" : type_names[type]);
		return;
	}
	fprintf(om->out, "# TYPE %s %s\n", f->name, type_names[type]);
	if (len > sizeof(unit) - 1 &&
	    !strcmp(f->name + len - (sizeof(unit) - 1), unit))
		fprintf(om->out, "# UNIT %s seconds\n", f->name);
	fprintf(om->out, "# HELP %s %s%s\n", f->name, help_prefix, help);
}

/* NAME[SUFFIX]{LABELS,EXTRA} VALUE, the name the family's. */
static void put_sample(struct openmetrics *om, const struct family *f,
		       const char *suffix, const char *labels,
		       const char *extra, const char *value)
{
	if (!suffix)
		suffix = f->type == OM_COUNTER ? "_total" :
			 f->type == OM_INFO ? "_info" : "";
	fprintf(om->out, "%s%s", f->name, suffix);
	if (*labels || *extra)
		fprintf(om->out, "{%s%s%s}", labels,
			*labels && *extra ? "," : "", extra);
	fprintf(om->out, " %s\n", value);
}

static char *format_u64(char buf[PROMTEXT_NUM_LEN], uint64_t v)
{
	snprintf(buf, PROMTEXT_NUM_LEN, "%" PRIu64, v);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Per thread and per process */

static void put_oncpu(struct openmetrics *om, const struct family *f,
		      const struct om_series *s, int arg)
{
	char extra[32], value[PROMTEXT_NUM_LEN];
	unsigned int cpu;

	(void)arg;
	for (cpu = 0; s->sum.oncpu && cpu < om->nr_cpus; cpu++) {
		if (!s->sum.oncpu[cpu])
			continue;
		snprintf(extra, sizeof(extra), "cpu=\"%u\"", cpu);
		put_sample(om, f, NULL, s->labels, extra,
			   promtext_seconds(value, s->sum.oncpu[cpu]));
	}
}

/* Per state: @arg 0 off-CPU time, 1 switch-outs, 2 the longest interval. */
static void put_states(struct openmetrics *om, const struct family *f,
		       const struct om_series *s, int arg)
{
	const struct om_row *r = &s->sum;
	char extra[32], value[PROMTEXT_NUM_LEN];
	unsigned int k;

	for (k = 0; k < NR_STATES; k++) {
		/* a row of report states, or of report offcpu for the max */
		if (arg == 2 ? !r->intervals[k] :
		    !r->switches[k] && !r->offcpu[k])
			continue;
		snprintf(extra, sizeof(extra), "state=\"%c\"",
			 state_letters[k]);
		put_sample(om, f, NULL, s->labels, extra,
			   arg == 0 ? promtext_seconds(value, r->offcpu[k]) :
			   arg == 1 ? format_u64(value, r->switches[k]) :
			   promtext_seconds(value, r->max[k]));
	}
}

/* The highest latency (ns) in bucket @slot, as report latency --hist says */
static uint64_t bucket_high_ns(unsigned int slot)
{
	return log2hist_high(slot) * 1000 + 999;
}

/* The histogram of latency kind @arg: cumulative buckets, +Inf, count, sum */
static void put_latency(struct openmetrics *om, const struct family *f,
			const struct om_series *s, int arg)
{
	const struct log2hist *h = &s->sum.hist[arg];
	char extra[48], value[PROMTEXT_NUM_LEN], le[PROMTEXT_NUM_LEN];
	uint64_t count = s->sum.latency_count[arg], below = 0;
	unsigned int slot;

	if (!count)
		return;
	for (slot = 0; slot < NR_BUCKETS; slot++) {
		below += h->slots[slot];
		snprintf(extra, sizeof(extra), "le=\"%s\"",
			 promtext_le(le, bucket_high_ns(slot)));
		put_sample(om, f, "_bucket", s->labels, extra,
			   format_u64(value, below));
	}
	put_sample(om, f, "_bucket", s->labels, "le=\"+Inf\"",
		   format_u64(value, count));
	put_sample(om, f, "_count", s->labels, "", format_u64(value, count));
	put_sample(om, f, "_sum", s->labels, "",
		   promtext_seconds(value, s->sum.latency_total[arg]));
}

static const struct series_family {
	const char *name;	/* after schedrec_thread_, schedrec_process_ */
	enum om_type type;
	const char *help;
	void (*put)(struct openmetrics *om, const struct family *f,
		    const struct om_series *s, int arg);
	int arg;
} series_families[] = {
	{ "oncpu_seconds", OM_COUNTER,
	  "on-CPU time per CPU in the window (report tenancy: oncpu_ns)",
	  put_oncpu, 0 },
	{ "offcpu_seconds", OM_COUNTER,
	  "off-CPU time by state at switch-out, clipped to the window, censored pieces included (report states: offcpu_ns)",
	  put_states, 0 },
	{ "switches", OM_COUNTER,
	  "switch-outs by state (report states: switchouts)",
	  put_states, 1 },
	{ "offcpu_max_seconds", OM_GAUGE,
	  "longest complete off-CPU interval by state at switch-out, censored ones left out (report offcpu: max_ns in max_state)",
	  put_states, 2 },
	{ "wakeup_latency_seconds", OM_HISTOGRAM,
	  "wakeup latency, from the first wakeup to the switch-in (report latency: kind wakeup, and --hist)",
	  put_latency, LATENCY_WAKEUP },
	{ "runqueue_latency_seconds", OM_HISTOGRAM,
	  "runqueue latency, from a preempted switch-out to the switch-in (report latency: kind runqueue, and --hist)",
	  put_latency, LATENCY_RUNQUEUE },
};

static void put_series(struct openmetrics *om, const char *who,
		       const char *help_prefix, const struct om_series *v,
		       size_t n)
{
	const struct series_family *sf;
	struct family f;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(series_families); i++) {
		sf = &series_families[i];
		snprintf(f.name, sizeof(f.name), "schedrec_%s_%s", who,
			 sf->name);
		begin_family(om, &f, sf->type, help_prefix, sf->help);
		for (j = 0; j < n; j++)
			sf->put(om, &f, &v[j], sf->arg);
	}
}

/* ------------------------------------------------------------------ */
/* The recording, and per CPU */

/* Append ,name="VALUE" (escaped) to @buf at @len; the new length. */
static size_t add_label(char *buf, size_t len, const char *name,
			const char *value)
{
	len += sprintf(buf + len, "%s%s=\"", len ? "," : "", name);
	len += promtext_escape(buf + len, value, strlen(value));
	buf[len++] = '"';
	buf[len] = '\0';
	return len;
}

/* The labels of the info metric: host, kernel, machine, cpus. */
static char *recording_labels(const struct srecreader_info *info)
{
	const char *host = info->hostname ? info->hostname : "";
	const char *kernel = info->release ? info->release : "";
	const char *machine = info->machine ? info->machine : "";
	char cpus[16], *buf;
	size_t len;

	snprintf(cpus, sizeof(cpus), "%u", info->file.nr_cpus);
	buf = malloc(64 + 2 * (strlen(host) + strlen(kernel) +
			       strlen(machine) + strlen(cpus)));
	if (!buf)
		return NULL;
	len = add_label(buf, 0, "host", host);
	len = add_label(buf, len, "kernel", kernel);
	len = add_label(buf, len, "machine", machine);
	add_label(buf, len, "cpus", cpus);
	return buf;
}

static int put_recording(struct openmetrics *om)
{
	const struct srecreader_info *info = om->ctx->front.info;
	struct schedmodel *m = om->ctx->front.model;
	uint64_t origin = schedmodel_origin(m), end = schedmodel_end(m);
	char *labels = recording_labels(info), value[PROMTEXT_NUM_LEN];
	uint64_t start, stop;
	struct family f;

	if (!labels)
		return -ENOMEM;
	strcpy(f.name, "schedrec_recording");
	begin_family(om, &f, OM_INFO, "",
		     "The recording: the host, its kernel release and machine, and its number of CPUs");
	put_sample(om, &f, NULL, labels, "", "1");

	strcpy(f.name, "schedrec_recording_start_time_seconds");
	begin_family(om, &f, OM_GAUGE, "",
		     "When the recording started, seconds since the Unix epoch (CLOCK_REALTIME)");
	put_sample(om, &f, NULL, "", "",
		   promtext_seconds(value, info->file.start_real_ns));

	strcpy(f.name, "schedrec_recording_length_seconds");
	begin_family(om, &f, OM_GAUGE, "",
		     "The length of the recording, from its start to its end");
	put_sample(om, &f, NULL, "", "",
		   promtext_seconds(value, end > origin ? end - origin : 0));

	/* the window: --range, clipped to the recording */
	schedmodel_window_abs(m, &start, &stop);
	if (stop > end)
		stop = end;
	strcpy(f.name, "schedrec_window_start_seconds");
	begin_family(om, &f, OM_GAUGE, "",
		     "The start of the window the numbers are of (--range), seconds since the start of the recording");
	put_sample(om, &f, NULL, "", "",
		   promtext_seconds(value, start > origin ? start - origin : 0));

	strcpy(f.name, "schedrec_window_length_seconds");
	begin_family(om, &f, OM_GAUGE, "",
		     "The length of the window the numbers are of, within the recording");
	put_sample(om, &f, NULL, "", "",
		   promtext_seconds(value, stop > start ? stop - start : 0));
	free(labels);
	return 0;
}

/*
 * Events lost on @cpu in the window: the LOST records and missing
 * sequence numbers of the loss windows that overlap it, as the reports'
 * loss warning counts them.
 */
static uint64_t lost_on(struct openmetrics *om, uint32_t cpu)
{
	struct schedmodel *m = om->ctx->front.model;
	const struct sched_loss *losses;
	size_t nr = schedmodel_losses(m, &losses), i;
	uint64_t start, end, count = 0;

	schedmodel_window_abs(m, &start, &end);
	if (end > schedmodel_end(m))
		end = schedmodel_end(m);
	for (i = 0; i < nr; i++)
		if (losses[i].cpu == cpu && losses[i].first <= end &&
		    losses[i].last >= start)
			count += losses[i].count;
	return count;
}

static void put_cpus(struct openmetrics *om)
{
	char extra[32], value[PROMTEXT_NUM_LEN];
	struct family f;
	unsigned int cpu, pass;
	uint64_t lost;

	for (pass = 0; pass < 2; pass++) {
		strcpy(f.name, pass ? "schedrec_lost_events" :
		       "schedrec_cpu_idle_seconds");
		begin_family(om, &f, OM_COUNTER, "", pass ?
			     "Events lost on the CPU in the window: dropped by its full ring, or missing sequence numbers (the reports' loss warning)" :
			     "Time the CPU idled in the window (report tenancy: oncpu_ns of tid 0, <idle>)");
		for (cpu = 0; cpu < om->nr_cpus; cpu++) {
			lost = lost_on(om, cpu);
			if (!select_cpu(&om->ctx->front.sel, cpu) ||
			    (!srecreader_cpu_online(om->ctx->front.reader, cpu) &&
			     !om->idle[cpu] && !lost))
				continue;
			snprintf(extra, sizeof(extra), "cpu=\"%u\"", cpu);
			put_sample(om, &f, NULL, "", extra, pass ?
				   format_u64(value, lost) :
				   promtext_seconds(value, om->idle[cpu]));
		}
	}
}

/* ------------------------------------------------------------------ */

static int openmetrics_finish(void *priv, struct export_ctx *ctx)
{
	struct openmetrics *om = priv;
	struct om_series *threads = NULL, *procs = NULL;
	size_t nr_threads = 0, nr_procs = 0, shown_threads, shown_procs;
	int ret = -ENOMEM;

	if (om->failed)
		return -ENOMEM;
	threads = thread_series(om, &nr_threads);
	procs = process_series(om, &nr_procs);
	if (!threads || !procs)
		goto out;
	shown_threads = om->top && nr_threads > om->top ? om->top : nr_threads;
	shown_procs = om->top && nr_procs > om->top ? om->top : nr_procs;
	ret = put_recording(om);
	if (ret)
		goto out;
	put_cpus(om);
	put_series(om, "thread", "Thread ", threads, shown_threads);
	put_series(om, "process", "Process (its threads summed) ", procs,
		   shown_procs);
	if (om->openmetrics)
		fputs("# EOF\n", om->out);
	if (shown_threads < nr_threads || shown_procs < nr_procs)
		export_warn(ctx, "the %zu most active of %zu threads and %zu of %zu processes written (--top %u; --top 0 writes all)",
			    shown_threads, nr_threads, shown_procs, nr_procs,
			    om->top);
	ret = stream_error(om->out);
out:
	series_free(threads, nr_threads);
	series_free(procs, nr_procs);
	return ret;
}

static void openmetrics_free(void *priv)
{
	struct openmetrics *om = priv;
	struct om_row *rows = om->threads.items;
	size_t i;

	for (i = 0; i < om->threads.count; i++)
		free(rows[i].oncpu);
	for (i = 0; i < om->processes.count; i++)
		free(((struct om_row *)keyed_item(&om->processes, i))->oncpu);
	per_task_free(&om->threads);
	keyed_free(&om->processes);
	free(om->idle);
}

const struct export_format openmetrics_export = {
	.name = "openmetrics",
	.summary = "metrics for Prometheus (node_exporter's textfile collector)",
	.help =
	"The numbers of the reports as metrics for Prometheus, in the text\n"
	"format node_exporter's textfile collector reads (the default;\n"
	"promtool check metrics passes it), or in OpenMetrics 1.0 (--format\n"
	"openmetrics: # UNIT lines, a counter's family named without _total,\n"
	"# EOF at the end).  To standard output unless -o says where.  Each\n"
	"value is a number of a report on the same trace and selection:\n"
	"\n"
	"Per thread (labels pid, tid, comm) and per process (pid, comm: its\n"
	"threads summed), the --top N most active (on-CPU time plus time\n"
	"runnable, the order of report states):\n"
	"  schedrec_thread_oncpu_seconds_total{cpu}       report tenancy\n"
	"  schedrec_thread_offcpu_seconds_total{state}    report states\n"
	"  schedrec_thread_switches_total{state}          report states\n"
	"  schedrec_thread_offcpu_max_seconds{state}      report offcpu (max)\n"
	"  schedrec_thread_wakeup_latency_seconds         report latency\n"
	"  schedrec_thread_runqueue_latency_seconds       report latency\n"
	"  schedrec_process_... the six above per process, without tid, for\n"
	"  the --top N processes (what report offcpu --by process and report\n"
	"  latency --by process show)\n"
	"Per CPU:\n"
	"  schedrec_cpu_idle_seconds_total{cpu}           report tenancy\n"
	"  schedrec_lost_events_total{cpu}                the loss warning\n"
	"The recording: schedrec_recording_info{host,kernel,machine,cpus},\n"
	"schedrec_recording_start_time_seconds (Unix time),\n"
	"schedrec_recording_length_seconds, schedrec_window_start_seconds and\n"
	"schedrec_window_length_seconds (--range).\n"
	"\n"
	"The latency histograms have the buckets of report latency --hist\n"
	"(log2 of microseconds) up to 16.8 s, then +Inf.  A maximum leaves\n"
	"out intervals cut by the edges of the window (censored); off-CPU time\n"
	"counts them.  Threads are selected as in the reports: the drainer\n"
	"only if --pid or --tid names it.  --cpu: on-CPU and idle time on\n"
	"those CPUs, switch-outs there and the off-CPU time they began,\n"
	"latency of switch-ins there, and their lost events.\n",
	.options = openmetrics_options,
	.examples =
	"  schedrec export openmetrics run.srec -o run.prom\n"
	"  schedrec export openmetrics run.srec --pid 4242 --top 5 >pid.prom\n"
	"  schedrec export openmetrics run.srec --format openmetrics -o run.om\n",
	.stdout_default = true,
	.parse = openmetrics_parse,
	.priv_size = sizeof(struct openmetrics),
	.start = openmetrics_start,
	.finish = openmetrics_finish,
	.free = openmetrics_free,
};
