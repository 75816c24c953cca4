// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec export perfetto --format json: the Chrome JSON trace-event
 * format, which the Perfetto UI (ui.perfetto.dev) and chrome://tracing open.  One track per
 * thread with its running slices and, between them, slices of its
 * off-CPU intervals named by state; one track per CPU (a pseudo-process
 * "CPUs") with slices of whoever ran there.  The mapping is
 * doc/export.md's.
 *
 * Written as the model hands out intervals: memory grows with the number
 * of threads only.  Thread and process names come last, once the latest
 * name of every thread is known.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export_perfetto.h"
#include "idmap.h"
#include "json.h"
#include "table.h"
#include "timefmt.h"
#include "toolerr.h"

/*
 * The pseudo-process of the CPU tracks, and its threads: above every
 * real pid and tid (the kernel's PID_MAX_LIMIT is 2^22).
 */
#define CPUS_PID	(1u << 22)
#define CPU_TID(cpu)	(CPUS_PID + 1 + (cpu))

/* A thread's track: (pid, tid), the end of its last slice, its name. */
struct track {
	uint32_t pid, tid;
	uint64_t last_end;
	const struct task *latest;	/* the task of its latest slice */
};

/* A process with a track, and the task that names it. */
struct process {
	uint32_t pid;
	const struct task *name;
};

/*
 * An event is made in a buffer, then written whole: one write per event,
 * not one per field.  Every event fits: its strings are short (names of
 * at most 16 bytes, which escaping makes at most 6 times longer).
 */
#define LINE_MAX_LEN	1024

struct line {
	char buf[LINE_MAX_LEN];
	size_t len;
};

struct perfetto {
	struct export_ctx *ctx;
	FILE *out;
	uint64_t origin;		/* set at the end, for the losses */
	bool started;			/* an event was written: commas */
	struct idmap track_ids;		/* (pid, tid) -> index */
	struct track *tracks;
	size_t nr_tracks, cap_tracks;
	uint64_t *cpu_last_end;		/* per CPU */
	bool *cpu_used;
	uint64_t clipped;		/* slices cut short: they overlapped */
	bool failed;			/* out of memory */
	struct line line;		/* the event being written */
};

/* ------------------------------------------------------------------ */
/* JSON */

static void line_add(struct line *l, const char *s, size_t len)
{
	if (len > sizeof(l->buf) - l->len)
		len = sizeof(l->buf) - l->len;	/* never, see LINE_MAX_LEN */
	memcpy(l->buf + l->len, s, len);
	l->len += len;
}

static void line_lit(struct line *l, const char *s)
{
	line_add(l, s, strlen(s));
}

static void line_u64(struct line *l, uint64_t v)
{
	char digits[24];
	size_t n = sizeof(digits);

	do {
		digits[--n] = '0' + v % 10;
		v /= 10;
	} while (v);
	line_add(l, digits + n, sizeof(digits) - n);
}

/* A short string, quoted and escaped. */
static void line_str(struct line *l, const char *s)
{
	size_t len = strnlen(s, 64);
	char buf[6 * 64];

	line_add(l, "\"", 1);
	line_add(l, buf, json_escape(buf, s, len));
	line_add(l, "\"", 1);
}

/* ,"KEY":NUMBER */
static void line_key_u64(struct line *l, const char *key, uint64_t v)
{
	line_lit(l, ",\"");
	line_lit(l, key);
	line_lit(l, "\":");
	line_u64(l, v);
}

/* ,"KEY": nanoseconds as microseconds with three decimals: exact */
static void line_key_us(struct line *l, const char *key, uint64_t ns)
{
	char frac[5] = { '.', '0' + ns / 100 % 10, '0' + ns / 10 % 10,
			 '0' + ns % 10, 0 };

	line_key_u64(l, key, ns / 1000);
	line_add(l, frac, 4);
}

static const char *comm_of(const struct task *t)
{
	return t->comm[0] ? t->comm : "?";
}

/* Start an event: the separator, "ph", "pid", "tid". */
static struct line *begin_event(struct perfetto *pf, char ph, uint32_t pid,
				const uint32_t *tid)
{
	struct line *l = &pf->line;
	char phase[] = { '{', '"', 'p', 'h', '"', ':', '"', ph, '"', 0 };

	l->len = 0;
	if (pf->started)
		line_lit(l, ",\n");
	pf->started = true;
	line_lit(l, phase);
	line_key_u64(l, "pid", pid);
	if (tid)
		line_key_u64(l, "tid", *tid);
	return l;
}

static void end_event(struct perfetto *pf)
{
	fwrite(pf->line.buf, 1, pf->line.len, pf->out);
}

/* A complete event [start, end) (absolute ns), its args left open. */
static struct line *begin_slice(struct perfetto *pf, uint32_t pid,
				uint32_t tid, const char *cat,
				const char *name, uint64_t start,
				uint64_t end)
{
	struct line *l = begin_event(pf, 'X', pid, &tid);

	line_lit(l, ",\"cat\":\"");
	line_lit(l, cat);
	line_lit(l, "\",\"name\":");
	line_str(l, name);
	line_key_us(l, "ts", start - schedmodel_origin(pf->ctx->front.model));
	line_key_us(l, "dur", end - start);
	line_lit(l, ",\"args\":{");
	return l;
}

/* The args every slice has: what cut it, and loss; then write it. */
static void end_slice(struct perfetto *pf, unsigned int flags)
{
	static const char *const cut[] = { "", "start", "end", "both" };
	unsigned int edges = flags & (IV_CUT_START | IV_CUT_END);
	struct line *l = &pf->line;

	if (edges) {
		line_lit(l, ",\"censored\":\"");
		line_lit(l, cut[edges]);
		line_lit(l, "\"");
	}
	if (flags & IV_UNCERTAIN)
		line_lit(l, ",\"uncertain\":true");
	line_lit(l, "}}");
	end_event(pf);
}

/* ------------------------------------------------------------------ */
/* Tracks */

static struct track *track_of(struct perfetto *pf, const struct task *t)
{
	uint32_t pid = schedmodel_process_key(t);
	long index = idmap_get(&pf->track_ids, idmap_pair(pid, t->tid));

	if (index < 0)
		goto fail;
	if ((size_t)index == pf->nr_tracks) {
		if (pf->nr_tracks == pf->cap_tracks) {
			size_t cap = pf->cap_tracks ? 2 * pf->cap_tracks : 256;
			struct track *v = realloc(pf->tracks,
						  cap * sizeof(*v));

			if (!v)
				goto fail;
			pf->tracks = v;
			pf->cap_tracks = cap;
		}
		pf->tracks[pf->nr_tracks++] = (struct track){
			.pid = pid, .tid = t->tid,
		};
	}
	return &pf->tracks[index];
fail:
	pf->failed = true;
	return NULL;
}

/*
 * Make [*start, end) follow the slice that ended at *last_end on the same
 * track: slices of a track never overlap (a loss can make the model's
 * intervals do).  False if nothing is left of it, or nothing was.
 */
static bool after_last(struct perfetto *pf, uint64_t *last_end,
		       uint64_t *start, uint64_t end)
{
	if (end <= *start)
		return false;
	if (*start < *last_end) {
		pf->clipped++;
		if (end <= *last_end)
			return false;
		*start = *last_end;
	}
	*last_end = end;
	return true;
}

/*
 * The track of thread @t for a slice [*start, end), made to follow the
 * track's last one; NULL if the selection leaves @t out or nothing is
 * left of the slice.
 */
static struct track *thread_track(struct perfetto *pf, const struct task *t,
				  uint64_t *start, uint64_t end)
{
	struct track *tr;

	if (!export_task_kept(pf->ctx, t))
		return NULL;
	tr = track_of(pf, t);
	if (!tr || !after_last(pf, &tr->last_end, start, end))
		return NULL;
	tr->latest = t;
	return tr;
}

/* ------------------------------------------------------------------ */
/* The model's intervals */

static void cpu_slice(struct perfetto *pf, const struct oncpu_iv *iv)
{
	const struct task *t = iv->task;
	uint64_t start = iv->start;
	char name[SCHEDREC_COMM_LEN + 16];
	struct line *l;

	if (!after_last(pf, &pf->cpu_last_end[iv->cpu], &start, iv->end))
		return;
	pf->cpu_used[iv->cpu] = true;
	snprintf(name, sizeof(name), "%s %" PRIu32, comm_of(t), t->tid);
	l = begin_slice(pf, CPUS_PID, CPU_TID(iv->cpu), "cpu", name, start,
			iv->end);
	line_lit(l, "\"tid\":");
	line_u64(l, t->tid);
	if (t->tgid)
		line_key_u64(l, "pid", t->tgid);
	line_lit(l, ",\"comm\":");
	line_str(l, comm_of(t));
	end_slice(pf, iv->flags);
}

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct perfetto *pf = arg;
	struct export_ctx *ctx = pf->ctx;
	uint64_t start = iv->start;
	struct track *tr;
	struct line *l;

	if (!iv->task || !select_cpu(&ctx->front.sel, iv->cpu))
		return;		/* idle: nothing ran */
	cpu_slice(pf, iv);
	tr = thread_track(pf, iv->task, &start, iv->end);
	if (!tr)
		return;
	l = begin_slice(pf, tr->pid, tr->tid, "oncpu", "Running", start,
			iv->end);
	line_lit(l, "\"cpu\":");
	line_u64(l, iv->cpu);
	line_lit(l, ",\"comm\":");
	line_str(l, comm_of(iv->task));
	end_slice(pf, iv->flags);
}

/* The slice name of an off-CPU interval in @state. */
static const char *state_name(char state)
{
	switch (state) {
	case 'R':
		return "R runnable";
	case 'S':
		return "S sleeping";
	case 'D':
		return "D uninterruptible";
	case 'I':
		return "I idle";
	case 'T':
		return "T stopped";
	case 't':
		return "t traced";
	case 'P':
		return "P parked";
	case 'X':
		return "X dead";
	case 'Z':
		return "Z zombie";
	case '?':
		return "? not seen yet";
	default:
		return NULL;
	}
}

static void line_cpu(struct line *l, const char *key, uint32_t cpu)
{
	if (cpu != CPU_NONE) {
		line_key_u64(l, key, cpu);
		return;
	}
	line_lit(l, ",\"");
	line_lit(l, key);
	line_lit(l, "\":null");
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	struct perfetto *pf = arg;
	struct export_ctx *ctx = pf->ctx;
	uint64_t start = iv->start;
	const char *name = state_name(iv->state);
	char other[24];
	struct track *tr;
	struct line *l;

	if (ctx->front.sel.cpus && (iv->out_cpu == CPU_NONE ||
			      !select_cpu(&ctx->front.sel, iv->out_cpu)))
		return;
	tr = thread_track(pf, iv->task, &start, iv->end);
	if (!tr)
		return;
	if (!name) {
		snprintf(other, sizeof(other), "%c state", iv->state);
		name = other;
	}
	l = begin_slice(pf, tr->pid, tr->tid, "offcpu", name, start, iv->end);
	line_lit(l, "\"state\":");
	line_str(l, (char[]){ iv->state, 0 });
	line_cpu(l, "out_cpu", iv->out_cpu);
	line_cpu(l, "in_cpu", iv->in_cpu);
	line_lit(l, ",\"comm\":");
	line_str(l, comm_of(iv->task));
	end_slice(pf, iv->flags);
}

/* ------------------------------------------------------------------ */

static int perfetto_start(void *priv, struct export_ctx *ctx)
{
	struct perfetto *pf = priv;
	const struct srecreader_info *info = ctx->front.info;
	unsigned int nr_cpus = info->file.nr_cpus;
	struct sched_handler h = {
		.oncpu = on_oncpu, .offcpu = on_offcpu, .arg = pf,
	};

	pf->ctx = ctx;
	pf->out = ctx->out;
	pf->cpu_last_end = calloc(nr_cpus, sizeof(*pf->cpu_last_end));
	pf->cpu_used = calloc(nr_cpus, sizeof(*pf->cpu_used));
	if (!pf->cpu_last_end || !pf->cpu_used)
		return -ENOMEM;
	fputs("{\"traceEvents\":[\n", pf->out);
	return schedmodel_add_handler(ctx->front.model, &h);
}

/*
 * What the trace is, last (the origin is known once the first record was
 * read): the time base, ts 0, in CLOCK_REALTIME, and where the recording
 * started on the ts axis, which agree with start_realtime_ns.
 */
static void put_other_data(struct perfetto *pf)
{
	const struct srecreader_info *info = pf->ctx->front.info;
	uint64_t start = info->file.start_mono_ns, real = info->file.start_real_ns;
	uint64_t since = pf->origin && start > pf->origin ?
			 start - pf->origin : 0;

	fputs("\"otherData\":{\"exporter\":", pf->out);
	json_put_string(pf->out, "schedrec " SCHEDREC_VERSION);
	fputs(",\"trace\":", pf->out);
	json_put_string(pf->out, pf->ctx->front.path);
	fputs(",\"host\":", pf->out);
	json_put_string(pf->out, info->hostname);
	fputs(",\"kernel\":", pf->out);
	json_put_string(pf->out, info->release);
	fprintf(pf->out, ",\"cpus\":\"%u\",\"start_realtime_ns\":\"%" PRIu64
		"\",\"start_us\":%" PRIu64 ".%03u", info->file.nr_cpus, real,
		since / 1000, (unsigned int)(since % 1000));
	if (real >= since)
		fprintf(pf->out, ",\"origin_realtime_ns\":\"%" PRIu64 "\"",
			real - since);
	fputs("}}\n", pf->out);
}

/* A metadata event: a name for a process or a thread, or a sort index. */
static void put_meta(struct perfetto *pf, const char *what, uint32_t pid,
		     const uint32_t *tid, const char *name, long sort_index)
{
	struct line *l = begin_event(pf, 'M', pid, tid);

	line_lit(l, ",\"name\":\"");
	line_lit(l, what);
	if (name) {
		line_lit(l, "\",\"args\":{\"name\":");
		line_str(l, name);
	} else {
		line_lit(l, "\",\"args\":{\"sort_index\":");
		if (sort_index < 0)
			line_lit(l, "-");
		line_u64(l, sort_index < 0 ? -sort_index : sort_index);
	}
	line_lit(l, "}}");
	end_event(pf);
}

/* Loss windows as instants on their CPU's track. */
static void put_losses(struct perfetto *pf)
{
	const struct sched_loss *losses;
	size_t nr = schedmodel_losses(pf->ctx->front.model, &losses), i;
	uint64_t start, end;
	char last[SECONDS_LEN];
	struct line *line;
	uint32_t tid;

	schedmodel_window_abs(pf->ctx->front.model, &start, &end);
	for (i = 0; i < nr; i++) {
		const struct sched_loss *l = &losses[i];

		if (l->last < start || l->first >= end ||
		    !select_cpu(&pf->ctx->front.sel, l->cpu))
			continue;
		tid = CPU_TID(l->cpu);
		line = begin_event(pf, 'i', CPUS_PID, &tid);
		line_lit(line, ",\"s\":\"t\",\"cat\":\"loss\",\"name\":\"Events lost\"");
		line_key_us(line, "ts", (l->first > start ? l->first : start) -
					pf->origin);
		line_lit(line, ",\"args\":{\"cpu\":");
		line_u64(line, l->cpu);
		line_key_u64(line, "count", l->count);
		line_lit(line, ",\"until_s\":");
		line_lit(line, format_seconds(last,
					      schedmodel_rel(pf->ctx->front.model,
							     l->last),
					      9));
		/* cut: the file ends before this CPU's records; count not known */
		if (l->cut)
			line_lit(line, ",\"cut\":true");
		line_lit(line, l->unexplained ? ",\"unexplained\":true}}" :
			 ",\"unexplained\":false}}");
		end_event(pf);
		pf->cpu_used[l->cpu] = true;
	}
}

/*
 * The processes of the tracks, each named after its leader if the model
 * knows it, else after the latest name of one of its threads.
 */
static struct process *processes(struct perfetto *pf,
				 const struct schedmodel *m, size_t *count)
{
	struct process *v = calloc(pf->nr_tracks + 1, sizeof(*v));
	struct idmap ids = { 0 };
	size_t i;
	long index;

	*count = 0;
	for (i = 0; v && i < pf->nr_tracks; i++) {
		const struct track *tr = &pf->tracks[i];

		index = idmap_get(&ids, tr->pid);
		if (index < 0) {
			free(v);
			v = NULL;
			break;
		}
		if ((size_t)index == *count)
			v[(*count)++] = (struct process){ .pid = tr->pid };
		if (!v[index].name)
			v[index].name = schedmodel_process_name(m, tr->pid,
								tr->latest);
	}
	idmap_free(&ids);
	return v;
}

static int perfetto_finish(void *priv, struct export_ctx *ctx)
{
	struct perfetto *pf = priv;
	unsigned int cpu, nr_cpus = ctx->front.info->file.nr_cpus;
	struct process *procs;
	size_t nr_procs, i;
	char name[32];
	uint32_t tid;

	if (pf->failed)
		return -ENOMEM;
	pf->origin = schedmodel_origin(ctx->front.model);
	put_losses(pf);
	for (i = 0; i < pf->nr_tracks; i++) {
		const struct track *tr = &pf->tracks[i];

		put_meta(pf, "thread_name", tr->pid, &tr->tid,
			 tr->latest ? comm_of(tr->latest) : "?", 0);
	}
	procs = processes(pf, ctx->front.model, &nr_procs);
	if (!procs)
		return -ENOMEM;
	for (i = 0; i < nr_procs; i++)
		put_meta(pf, "process_name", procs[i].pid, NULL,
			 procs[i].name ? comm_of(procs[i].name) : "?", 0);
	free(procs);
	put_meta(pf, "process_name", CPUS_PID, NULL, "CPUs", 0);
	put_meta(pf, "process_sort_index", CPUS_PID, NULL, NULL, -1);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!select_cpu(&ctx->front.sel, cpu) ||
		    (!pf->cpu_used[cpu] &&
		     !srecreader_cpu_online(ctx->front.reader, cpu)))
			continue;
		tid = CPU_TID(cpu);
		snprintf(name, sizeof(name), "CPU %u", cpu);
		put_meta(pf, "thread_name", CPUS_PID, &tid, name, 0);
		put_meta(pf, "thread_sort_index", CPUS_PID, &tid, NULL, cpu);
	}
	fputs("\n],", pf->out);
	put_other_data(pf);
	if (pf->clipped)
		export_warn(ctx, "%" PRIu64 " %s an earlier slice of its track (events were lost?) and %s cut short",
			    pf->clipped,
			    plural(pf->clipped, "slice overlapped",
				   "slices overlapped"),
			    plural(pf->clipped, "was", "were"));
	return stream_error(pf->out);
}

static void perfetto_free(void *priv)
{
	struct perfetto *pf = priv;

	idmap_free(&pf->track_ids);
	free(pf->tracks);
	free(pf->cpu_last_end);
	free(pf->cpu_used);
}

const struct perfetto_writer perfetto_json = {
	.priv_size = sizeof(struct perfetto),
	.start = perfetto_start,
	.finish = perfetto_finish,
	.free = perfetto_free,
};
