// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report html: every report in one directory, and index.html
 * that shows them together, with no network: the trace's summary and
 * loss, the tables of offcpu, tenancy, states and latency, the heat map,
 * and under it the timeline and flame graph of the second clicked.
 *
 * The reports are not re-implemented here: each is started on the same
 * model (report.h), the trace is read once, then each writes its text,
 * CSV and chart into the directory as `schedrec report NAME` would; the
 * page's tables are the ones each CSV was printed from, handed over by
 * report_table_out() (ctx->csv_table).  A timeline needs its
 * window before the pass, so the per-second views come from a second
 * read of the file: one model per second shown, all fed in that one
 * read, for the busiest seconds of the heat map (--seconds).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "htmlpage.h"
#include "json.h"
#include "report.h"
#include "timefmt.h"
#include "toolerr.h"
#include "tracepass.h"

#define SECONDS_DEFAULT	10	/* per-second views pre-rendered */
#define SECONDS_MAX	100
#define PAGE_ROWS	200	/* of a table in the page; the CSV has all */
#define SECONDS_DIR	"seconds"

enum {
	OPT_OUTPUT = 'o',
	OPT_FORCE = REPORT_OPT_BASE,
	OPT_SECONDS,
};

/* What a part writes: NAME.txt (with the chart), NAME.csv, NAME.svg. */
#define PART_TEXT	0x1
#define PART_CSV	0x2
#define PART_SVG	0x4
#define PART_ALL	(PART_TEXT | PART_CSV | PART_SVG)

/* A report run on the page's model, and the files it writes. */
struct part_spec {
	const struct report *report;
	const char *option;	/* one of its own options, or NULL */
	const char *name;
	unsigned int files;
};

static const struct part_spec part_specs[] = {
	{ &offcpu_report, NULL, "offcpu", PART_ALL },
	{ &tenancy_report, NULL, "tenancy", PART_ALL },
	{ &states_report, NULL, "states", PART_ALL },
	{ &states_report, "usurpers", "states-usurpers", PART_CSV },
	{ &latency_report, NULL, "latency", PART_ALL },
	{ &latency_report, "wakers", "latency-wakers", PART_CSV },
	{ &heatmap_report, NULL, "heatmap", PART_ALL },
	{ &flame_report, NULL, "flame", PART_TEXT | PART_SVG },
};

/* A table of the page: a part's CSV, and what it says. */
struct table_spec {
	const char *part;
	const char *title;
	const char *intro;
};

/* A section of tables: a report's. */
struct section_spec {
	const char *id;
	const char *title;
	const struct report *report;	/* its --help, for the columns */
	struct table_spec tables[2];
};

static const struct section_spec sections[] = {
	{ "offcpu", "Off-CPU: who waited longest", &offcpu_report, {
	  { "offcpu", NULL,
	    "Per thread, its off-CPU intervals, from a switch-out to the next switch-in: how many, their total, the longest with the state it began in (R preempted or runnable, S sleeping, D uninterruptible, I idle kernel thread), its CPU and time, and percentiles.  Intervals cut by the start or end of the recording are censored: counted apart, never a maximum." },
	} },
	{ "tenancy", "Tenancy: who held each CPU", &tenancy_report, {
	  { "tenancy", NULL,
	    "Exact on-CPU time per thread and CPU, from the switches: thread_share is the part of the thread's time on that CPU, cpu_share the part of the window it held that CPU; tid 0 is the CPU idling, tid -1 its time not known (events were lost, the file is cut short, or no switch shows who ran)." },
	} },
	{ "states", "States: why threads left the CPU, and who took it", &states_report, {
	  { "states", NULL,
	    "Per thread, switch-outs and off-CPU time by the state at switch-out." },
	  { "states-usurpers", "Usurpers",
	    "While a thread waited runnable (R), the threads that held the CPU it waited on: preemptions counts the switch-outs where the usurper came in, held the time it ran there until the thread ran again." },
	} },
	{ "latency", "Latency: from wakeup or preemption to running", &latency_report, {
	  { "latency", NULL,
	    "Wakeup latency (the first wakeup after a thread slept, to its switch-in) and runqueue latency (a preempted switch-out to the next switch-in), per thread." },
	  { "latency-wakers", "Wakers",
	    "Who woke whom, and how often (<irq>: from interrupt context)." },
	} },
};

/* A second shown under the heat map: its model, timeline and flame graph. */
struct html_second {
	uint64_t second;
	uint64_t oncpu;			/* its heat-map column, ns */
	struct report_ctx ctx;		/* the page's, narrowed to it */
	void *timeline, *flame;		/* the reports' state */
	bool done;			/* its window is over */
	int failed;			/* -errno: its files are missing */
};

struct html {
	const char *dir;
	bool force;
	bool seconds_set;
	unsigned int max_seconds;
	struct report_ctx *ctx;
	unsigned int top;		/* of the text outputs and charts */
	void *privs[ARRAY_SIZE(part_specs)];
	/* on-CPU time of the selection per second since the origin */
	uint64_t *per_second;
	size_t nr_per_second;
	bool per_second_failed;		/* out of memory */
	/* each part's CSV table as the page shows it, and its rows */
	char *tables[ARRAY_SIZE(part_specs)];
	size_t table_rows[ARRAY_SIZE(part_specs)];
	size_t part;			/* write_part()'s, for keep_table() */
	struct html_second *seconds;	/* the busiest first */
	size_t nr_seconds;
	/* the files written, relative to dir, for the list */
	char **files;
	size_t nr_files;
	char path[4096];
	char svg_path[4096];
};

static const struct optspec html_options[] = {
	{ "output", OPT_OUTPUT, required_argument, "DIR",
	  "the directory to write; created if missing (with its "
	  "parents); it must be empty unless --force\n" },
	{ "force", OPT_FORCE, no_argument, NULL,
	  "write into a directory that is not empty: the page's files "
	  "are written over, others left alone\n" },
	{ "seconds", OPT_SECONDS, required_argument, "N",
	  "pre-render the N busiest seconds of the heat map (most "
	  "on-CPU time of the selected threads), 0 to 100, default "
	  "10; a click on another second says how to draw it\n" },
	{ 0 },
};

static int html_parse(void *priv, const struct report_ctx *ctx, int key,
		      const char *arg)
{
	struct html *h = priv;
	unsigned long n;
	char *end;

	(void)ctx;
	switch (key) {
	case OPT_OUTPUT:
		h->dir = arg;
		return 0;
	case OPT_FORCE:
		h->force = true;
		return 0;
	case OPT_SECONDS:
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (errno || *end || !*arg || arg[0] == '-' ||
		    n > SECONDS_MAX) {
			report_usage_error(&html_report,
					   "bad --seconds '%s': give how many seconds to pre-render, 0 to %u",
					   arg, SECONDS_MAX);
			return -EINVAL;
		}
		h->max_seconds = n;
		h->seconds_set = true;
		return 0;
	}
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* The directory */

/* DIR/@name (a path in h->path); NULL if too long. */
static const char *path_of(struct html *h, const char *name)
{
	size_t n = snprintf(h->path, sizeof(h->path), "%s/%s", h->dir, name);

	return n < sizeof(h->path) ? h->path : NULL;
}

/* mkdir -p @dir; 0 or -errno. */
static int make_dirs(const char *dir)
{
	char *copy = strdup(dir), *p;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (p = copy + 1; !ret; p++) {
		if (*p && *p != '/')
			continue;
		if (*p == '/' && p[-1] == '/')
			continue;
		if (*p == '/') {
			*p = '\0';
			if (mkdir(copy, 0777) && errno != EEXIST)
				ret = -errno;
			*p = '/';
			continue;
		}
		if (mkdir(copy, 0777) && errno != EEXIST)
			ret = -errno;
		break;
	}
	free(copy);
	return ret;
}

/* Whether @dir holds anything; -errno if it cannot be read. */
static int dir_used(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int used = 0;

	if (!d)
		return -errno;
	while (!used && (e = readdir(d)))
		used = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return used;
}

/* Create the directory, or check the one there; 0, -EINVAL, -errno. */
static int prepare_dir(struct html *h)
{
	struct stat st;
	const char *sub;
	int ret;

	if (!stat(h->dir, &st) && !S_ISDIR(st.st_mode)) {
		report_usage_error(&html_report,
				   "-o %s: that is not a directory; give a new or empty one",
				   h->dir);
		return -EINVAL;
	}
	ret = make_dirs(h->dir);
	if (ret) {
		tool_error("report", ret, "html: cannot create the directory %s",
			   h->dir);
		return ret;
	}
	ret = dir_used(h->dir);
	if (ret < 0) {
		tool_error("report", ret, "html: cannot read the directory %s",
			   h->dir);
		return ret;
	}
	if (ret && !h->force) {
		report_usage_error(&html_report,
				   "-o %s: the directory is not empty; give a new or empty one, or add --force to write over the page's files in it",
				   h->dir);
		return -EINVAL;
	}
	sub = path_of(h, SECONDS_DIR);
	if (!sub)
		return -ENAMETOOLONG;
	if (mkdir(sub, 0777) && errno != EEXIST) {
		ret = -errno;
		tool_error("report", ret, "html: cannot create %s", sub);
		return ret;
	}
	/* a directory we may not write into fails here, not after the pass */
	if (access(h->dir, W_OK) || access(sub, W_OK)) {
		ret = -errno;
		tool_error("report", ret, "html: cannot write into %s", h->dir);
		return ret;
	}
	return 0;
}

/* Add @name to the files the page lists. */
static void list_file(struct html *h, const char *name)
{
	char **files = reallocarray(h->files, h->nr_files + 1,
				    sizeof(*files));

	if (files) {
		h->files = files;
		files[h->nr_files] = strdup(name);
		if (files[h->nr_files])
			h->nr_files++;
	}
}

/* Open DIR/@name for writing, and list it; NULL with a message. */
static FILE *open_file(struct html *h, const char *name)
{
	const char *path = path_of(h, name);
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f) {
		tool_error("report", path ? errno : ENAMETOOLONG,
			   "html: cannot write %s/%s", h->dir, name);
		return NULL;
	}
	list_file(h, name);
	return f;
}

/* DIR/@name into h->svg_path, for a report's chart; -ENAMETOOLONG. */
static int chart_path(struct html *h, const char *name)
{
	if (!path_of(h, name))
		return -ENAMETOOLONG;
	strcpy(h->svg_path, h->path);
	list_file(h, name);
	return 0;
}

/* Close what open_file() opened: 0, or -errno with a message. */
static int close_file(struct html *h, FILE *f, const char *name, int ret)
{
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret && ret != -EINVAL)
		tool_error("report", ret, "html: cannot write %s/%s", h->dir,
			   name);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The reports, on the page's model */

/* Give report @r its option --@name (no value), as its parse() takes it. */
static int report_option(const struct report *r, void *priv,
			 const struct report_ctx *ctx, const char *name)
{
	const struct optspec *o = optspec_find(r->options, name);

	if (o && o->key)
		return r->parse(priv, ctx, o->key, NULL);
	fprintf(stderr, "schedrec report html: report %s has no --%s\n",
		r->name, name);
	return -EINVAL;
}

/* The trace is read twice: a file, not a pipe. */
static int check_trace_files(const struct html *h,
			     const struct report_ctx *ctx)
{
	struct stat st;
	unsigned int i;

	for (i = 0; h->max_seconds && i < ctx->front.nr_paths; i++) {
		if (strcmp(ctx->front.paths[i], "-") && !stat(ctx->front.paths[i], &st) &&
		    S_ISREG(st.st_mode))
			continue;
		report_usage_error(&html_report,
				   "%s: html reads the trace twice (the second time for the per-second views): give a file, not a pipe; or --seconds 0 for no per-second views",
				   ctx->front.paths[i]);
		return -EINVAL;
	}
	return 0;
}

/* Room in h->per_second for @second; false out of memory. */
static bool per_second_room(struct html *h, uint64_t second)
{
	size_t n = h->nr_per_second ? h->nr_per_second : 64;
	uint64_t *v;

	if (second < h->nr_per_second)
		return true;
	while (n <= second)
		n *= 2;
	v = reallocarray(h->per_second, n, sizeof(*v));
	if (!v) {
		h->per_second_failed = true;
		return false;
	}
	memset(v + h->nr_per_second, 0, (n - h->nr_per_second) * sizeof(*v));
	h->per_second = v;
	h->nr_per_second = n;
	return true;
}

/*
 * On-CPU time of the selection, split at whole seconds since the origin:
 * what the heat map's columns add up to, to choose the busiest seconds.
 */
static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct html *h = arg;
	const struct selection *sel = &h->ctx->front.sel;
	int64_t from, to;
	uint64_t t, second, piece;

	if (!iv->task || !select_cpu(sel, iv->cpu) ||
	    !select_task(sel, (struct task *)iv->task))
		return;
	from = report_rel(h->ctx, iv->start);
	to = report_rel(h->ctx, iv->end);
	for (t = from > 0 ? from : 0; to > 0 && t < (uint64_t)to;
	     t += piece) {
		second = t / NSEC_PER_SEC;
		piece = (second + 1) * NSEC_PER_SEC - t;
		if ((uint64_t)to - t < piece)
			piece = to - t;
		if (!per_second_room(h, second))
			return;
		h->per_second[second] += piece;
	}
}

static int html_start(void *priv, struct report_ctx *ctx)
{
	struct html *h = priv;
	struct sched_handler per_second = { .oncpu = on_oncpu, .arg = h };
	bool csv = ctx->csv;
	size_t i;
	int ret;

	h->ctx = ctx;
	if (!h->seconds_set)
		h->max_seconds = SECONDS_DEFAULT;
	if (!h->dir) {
		report_usage_error(&html_report,
				   "where to? give -o DIR, a new or empty directory for the page and its files");
		return -EINVAL;
	}
	if (csv || ctx->svg_path) {
		report_usage_error(&html_report,
				   "%s: html writes every CSV file and chart into -o DIR",
				   csv ? "--csv" : "--svg");
		return -EINVAL;
	}
	ret = check_trace_files(h, ctx);
	if (!ret)
		ret = prepare_dir(h);
	if (ret)
		return ret;
	h->top = ctx->top;
	ret = schedmodel_add_handler(ctx->front.model, &per_second);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(part_specs); i++) {
		const struct part_spec *p = &part_specs[i];

		h->privs[i] = calloc(1, p->report->priv_size ?
				     p->report->priv_size : 1);
		if (!h->privs[i])
			return -ENOMEM;
		if (p->option && report_option(p->report, h->privs[i], ctx,
					       p->option))
			return -EINVAL;
		/* a part that is only a CSV table is started as one */
		ctx->csv = p->files == PART_CSV;
		ret = p->report->start(h->privs[i], ctx);
		ctx->csv = false;
		if (ret && ret != -EINVAL)
			tool_error("report", ret, "html: cannot start %s",
				   p->name);
		if (ret)
			return ret;
	}
	return 0;
}

/* The table of part h->part, as the page shows it (ctx->csv_table). */
static int keep_table(void *arg, const struct table *tab)
{
	struct html *h = arg;
	char id[80], **html = &h->tables[h->part];
	size_t len;
	FILE *f;
	int ret;

	free(*html);
	*html = NULL;
	f = open_memstream(html, &len);
	if (!f)
		return -errno;
	snprintf(id, sizeof(id), "table-%s", part_specs[h->part].name);
	h->table_rows[h->part] = html_table(f, tab, id, PAGE_ROWS);
	ret = stream_error(f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	return ret;
}

/* Let part @i write NAME.txt (and NAME.svg), or NAME.csv (@csv). */
static int write_part(struct html *h, size_t i, bool csv)
{
	const struct part_spec *p = &part_specs[i];
	struct report_ctx *ctx = h->ctx;
	char name[64];
	FILE *f;
	int ret;

	snprintf(name, sizeof(name), "%s.%s", p->name, csv ? "csv" : "txt");
	f = open_file(h, name);
	if (!f)
		return -EIO;
	ctx->out = f;
	ctx->csv = csv;
	ctx->top = csv ? 0 : h->top;
	ctx->svg_path = NULL;
	if (!csv && (p->files & PART_SVG)) {
		snprintf(name, sizeof(name), "%s.svg", p->name);
		if (chart_path(h, name)) {
			fclose(f);
			return -ENAMETOOLONG;
		}
		ctx->svg_path = h->svg_path;
	}
	h->part = i;
	ctx->csv_table = keep_table;
	ctx->csv_table_arg = h;
	ret = p->report->output(h->privs[i], ctx);
	ctx->csv_table = NULL;
	ctx->out = stdout;
	ctx->csv = false;
	ctx->svg_path = NULL;
	ctx->top = h->top;
	snprintf(name, sizeof(name), "%s.%s", p->name, csv ? "csv" : "txt");
	return close_file(h, f, name, ret);
}

static int write_parts(struct html *h)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < ARRAY_SIZE(part_specs); i++) {
		if (part_specs[i].files & PART_TEXT)
			ret = write_part(h, i, false);
		if (!ret && (part_specs[i].files & PART_CSV))
			ret = write_part(h, i, true);
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* The seconds shown: the busiest of the heat map */

static int compare_seconds(const void *a, const void *b)
{
	const struct html_second *x = a, *y = b;

	if (x->oncpu != y->oncpu)
		return x->oncpu > y->oncpu ? -1 : 1;
	return x->second < y->second ? -1 : x->second > y->second;
}

/* The seconds of the window, the busiest first, at most max_seconds. */
static int choose_seconds(struct html *h)
{
	uint64_t start, end, first, last, s;
	struct html_second *v;
	size_t n;

	schedmodel_window_abs(h->ctx->front.model, &start, &end);
	if (end > schedmodel_end(h->ctx->front.model))
		end = schedmodel_end(h->ctx->front.model);
	if (!h->max_seconds || end <= start)
		return 0;
	first = report_rel(h->ctx, start) / NSEC_PER_SEC;
	last = (report_rel(h->ctx, end) - 1) / NSEC_PER_SEC;
	n = last - first + 1;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (s = first; s <= last; s++) {
		v[s - first].second = s;
		v[s - first].oncpu = s < h->nr_per_second ?
				     h->per_second[s] : 0;
	}
	qsort(v, n, sizeof(*v), compare_seconds);
	h->seconds = v;
	h->nr_seconds = n < h->max_seconds ? n : h->max_seconds;
	return 0;
}

/* Narrow @v's copy of the page's context to its second, and start it. */
static int start_second(struct html *h, struct html_second *v,
			struct srecreader *reader)
{
	const struct report_ctx *ctx = h->ctx;
	struct schedmodel_window window;
	uint64_t from = v->second * NSEC_PER_SEC, to = from + NSEC_PER_SEC;
	int ret;

	v->ctx = *ctx;
	v->ctx.front.reader = reader;
	v->ctx.front.info = srecreader_info(reader);
	v->ctx.front.quiet = true;
	v->ctx.csv = false;
	v->ctx.loss_warned = true;
	/* the selection is shared, not copied: only the window differs */
	if (!ctx->front.sel.has_start || ctx->front.sel.start < from)
		v->ctx.front.sel.start = from;
	if (!ctx->front.sel.has_end || ctx->front.sel.end > to)
		v->ctx.front.sel.end = to;
	v->ctx.front.sel.has_start = true;
	v->ctx.front.sel.has_end = true;
	select_window(&v->ctx.front.sel, &window);
	v->ctx.front.model = schedmodel_new(v->ctx.front.info, &window);
	v->timeline = calloc(1, timeline_report.priv_size);
	v->flame = calloc(1, flame_report.priv_size);
	if (!v->ctx.front.model || !v->timeline || !v->flame)
		return -ENOMEM;
	ret = report_option(&timeline_report, v->timeline, &v->ctx,
			    "threads");
	if (!ret)
		ret = timeline_report.start(v->timeline, &v->ctx);
	if (!ret)
		ret = flame_report.start(v->flame, &v->ctx);
	return ret;
}

/* Feed every record to the seconds' models, until all their windows end. */
static int read_seconds_pass(struct html *h, struct srecreader *reader)
{
	struct srec_record rec;
	uint64_t end = 0, start, win_end;
	size_t i, active = h->nr_seconds;
	int ret = 0, fed;

	while (active && (ret = srecreader_next_batch(reader, &rec, 1)) > 0) {
		if (rec.hdr->ts > end)
			end = rec.hdr->ts;
		for (i = 0; i < h->nr_seconds; i++) {
			struct html_second *v = &h->seconds[i];

			if (v->done)
				continue;
			fed = schedmodel_record(v->ctx.front.model, &rec);
			if (fed > 0)
				continue;
			/* past its window, or out of memory: it ends here */
			v->done = true;
			v->failed = fed;
			active--;
			schedmodel_window_abs(v->ctx.front.model, &start, &win_end);
			trace_finish(reader, v->ctx.front.model, win_end);
		}
	}
	for (i = 0; active && i < h->nr_seconds; i++)
		if (!h->seconds[i].done)
			trace_finish(reader, h->seconds[i].ctx.front.model, end);
	return ret < 0 ? ret : 0;
}

/* The files of second @s: seconds/KIND-S.EXT. */
static void second_file(char *buf, size_t size, const char *kind,
			uint64_t s, const char *ext)
{
	snprintf(buf, size, SECONDS_DIR "/%s-%" PRIu64 ".%s", kind, s, ext);
}

/* Let a report write seconds/KIND-S.txt and its chart seconds/KIND-S.svg. */
static int write_second_part(struct html *h, struct html_second *v,
			     const struct report *r, void *priv,
			     const char *kind)
{
	char name[128];
	FILE *f;
	int ret;

	second_file(name, sizeof(name), kind, v->second, "svg");
	if (chart_path(h, name))
		return -ENAMETOOLONG;
	second_file(name, sizeof(name), kind, v->second, "txt");
	f = open_file(h, name);
	if (!f)
		return -EIO;
	v->ctx.out = f;
	v->ctx.svg_path = h->svg_path;
	v->ctx.top = h->top;
	ret = r->output(priv, &v->ctx);
	v->ctx.out = stdout;
	v->ctx.svg_path = NULL;
	return close_file(h, f, name, ret);
}

/* The timeline and flame graph of each second shown: a second read. */
static int render_seconds(struct html *h)
{
	struct report_ctx *ctx = h->ctx;
	struct srecreader_options opt = { .strict = ctx->front.strict };
	struct srecreader *reader;
	size_t i;
	int ret = 0;

	if (!h->nr_seconds)
		return 0;
	reader = trace_open("report", ctx->front.paths, ctx->front.nr_paths, &opt);
	if (!reader)
		return -errno;
	for (i = 0; !ret && i < h->nr_seconds; i++)
		ret = start_second(h, &h->seconds[i], reader);
	if (!ret)
		ret = read_seconds_pass(h, reader);
	if (ret && ret != -ENOMEM) {
		fprintf(stderr, "schedrec report: %s: %s; the per-second views show what was read before\n",
			ctx->front.path, *srecreader_error(reader) ?
			srecreader_error(reader) : strerror(-ret));
		ctx->partial = true;
		ret = 0;
	}
	for (i = 0; !ret && i < h->nr_seconds; i++) {
		struct html_second *v = &h->seconds[i];

		if (v->failed)
			continue;
		ret = write_second_part(h, v, &timeline_report, v->timeline,
					"timeline");
		if (!ret)
			ret = write_second_part(h, v, &flame_report, v->flame,
						"flame");
	}
	for (i = 0; i < h->nr_seconds; i++) {
		struct html_second *v = &h->seconds[i];

		if (v->timeline)
			timeline_report.free(v->timeline);
		if (v->flame)
			flame_report.free(v->flame);
		free(v->timeline);
		free(v->flame);
		schedmodel_free(v->ctx.front.model);
		v->timeline = NULL;
		v->flame = NULL;
		v->ctx.front.model = NULL;
	}
	srecreader_close(reader);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The page */

/* The options that give the page's selection, for a command line. */
static void selection_options(const struct selection *sel, char *buf,
			      size_t size)
{
	size_t len = 0, i;
	const char *p;

	buf[0] = '\0';
	if (sel->nr_pids && len < size) {
		len += snprintf(buf + len, size - len, " --pid ");
		len = select_put_ids(buf, size, len, sel->pids, sel->nr_pids);
	}
	if (sel->nr_tids && len < size) {
		len += snprintf(buf + len, size - len, " --tid ");
		len = select_put_ids(buf, size, len, sel->tids, sel->nr_tids);
	}
	if (sel->has_comm && len < size) {
		len += snprintf(buf + len, size - len, " --comm '");
		for (p = sel->comm_text; *p && len < size; p++)
			len += snprintf(buf + len, size - len, *p == '\'' ?
					"'\\''" : "%c", *p);
		if (len < size)
			len += snprintf(buf + len, size - len, "'");
	}
	for (i = 0; sel->cpus && i < sel->cpu_limit && len < size; i++) {
		if (!select_cpu(sel, i))
			continue;
		len += snprintf(buf + len, size - len, "%s%zu",
				strstr(buf, " --cpu ") ? "," : " --cpu ", i);
	}
}

/* A <dt> and the start of its <dd>. */
static void put_term(FILE *f, const char *term)
{
	fprintf(f, "<dt>%s</dt><dd>", term);
}

/* Links to a part's files: text, CSV, SVG. */
static void put_files(FILE *f, const char *name, unsigned int files)
{
	fputs("<p class=\"files\">Files:", f);
	if (files & PART_TEXT)
		fprintf(f, " <a href=\"%s.txt\">%s.txt</a>", name, name);
	if (files & PART_CSV)
		fprintf(f, " <a href=\"%s.csv\">%s.csv</a>", name, name);
	if (files & PART_SVG)
		fprintf(f, " <a href=\"%s.svg\">%s.svg</a>", name, name);
	fputs("</p>\n", f);
}

static void write_head(struct html *h, FILE *f)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>schedrec: ", f);
	html_escape(f, h->ctx->front.info->hostname[0] ? h->ctx->front.info->hostname :
		    h->ctx->front.path);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		html_page_style);
	fputs("<nav><a href=\"#summary\">Summary</a>"
	      "<a href=\"#heatmap\">Heat map</a>"
	      "<a href=\"#second\">Second</a>"
	      "<a href=\"#offcpu\">Off-CPU</a>"
	      "<a href=\"#tenancy\">Tenancy</a>"
	      "<a href=\"#states\">States</a>"
	      "<a href=\"#latency\">Latency</a>"
	      "<a href=\"#flame\">Flame graph</a>"
	      "<a href=\"#files\">Files</a></nav>\n<main>\n", f);
}

/* The start of the recording, CLOCK_REALTIME, in UTC. */
static void put_realtime(FILE *f, uint64_t ns)
{
	time_t t = ns / NSEC_PER_SEC;
	struct tm tm;
	char buf[64];

	if (!ns || !gmtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm)) {
		fputs("not known", f);
		return;
	}
	fprintf(f, "%s.%03u UTC", buf,
		(unsigned int)(ns % NSEC_PER_SEC / 1000000));
}

static void write_trace_terms(struct html *h, FILE *f)
{
	const struct report_ctx *ctx = h->ctx;
	const struct srecreader_info *info = ctx->front.info;
	uint64_t origin = schedmodel_origin(ctx->front.model);
	char d[DURATION_LEN];

	put_term(f, "Trace");
	html_escape(f, ctx->front.path);
	if (ctx->front.nr_paths > 1)
		fprintf(f, " and the %u %s of its rotation after it",
			ctx->front.nr_paths - 1,
			plural(ctx->front.nr_paths - 1, "file", "files"));
	fputs("</dd>\n", f);
	put_term(f, "Host");
	html_escape(f, info->hostname);
	fputs("</dd>\n", f);
	put_term(f, "Kernel");
	html_escape(f, info->release);
	fputc(' ', f);
	html_escape(f, info->version);
	fputc(' ', f);
	html_escape(f, info->machine);
	fputs("</dd>\n", f);
	put_term(f, "CPUs");
	fprintf(f, "%u (online at the start: ", info->file.nr_cpus);
	html_escape(f, info->online);
	fputs(")</dd>\n", f);
	put_term(f, "Started");
	put_realtime(f, info->file.start_real_ns);
	fputs("</dd>\n", f);
	put_term(f, "Length");
	fprintf(f, "%s</dd>\n", format_duration(d, schedmodel_end(ctx->front.model) -
						origin));
}

/*
 * Whether @ev was enabled: its bit of the event mask, which has 32; the
 * table's own flag for the types past it (a newer module's).
 */
static bool event_recorded(const struct srecreader_info *info,
			   const struct srec_event *ev)
{
	if (ev->id >= 32)
		return ev->flags & SREC_EVENT_F_ENABLED;
	return info->file.event_mask & (1u << ev->id);
}

static void write_recorder_terms(struct html *h, FILE *f)
{
	const struct report_ctx *ctx = h->ctx;
	const struct srecreader_info *info = ctx->front.info;
	const char *sep = "";
	unsigned int i;

	put_term(f, "Events recorded");
	for (i = 0; i < info->nr_events; i++) {
		if (!event_recorded(info, &info->events[i]))
			continue;
		fputs(sep, f);
		html_escape(f, info->events[i].name);
		sep = ", ";
	}
	fprintf(f, "; rings of %u KiB per CPU, %s mode</dd>\n",
		info->file.buf_kb, info->file.mode == SCHEDREC_MODE_OVERWRITE ?
		"overwrite (flight recorder)" : "stream");
	put_term(f, "Drainer");
	if (info->file.drainer_cpu == UINT32_MAX)
		fputs("not pinned", f);
	else
		fprintf(f, "pinned to <strong>CPU %u</strong>",
			info->file.drainer_cpu);
	fprintf(f, "; pid %u (left out of the reports unless --pid or --tid names it)</dd>\n",
		info->file.drainer_pid);
	put_term(f, "Command line");
	fputs("<code>schedrec ", f);
	html_escape(f, info->cmdline);
	fputs("</code></dd>\n", f);
	if (info->filter[0]) {
		put_term(f, "Filter");
		html_escape(f, info->filter);
		fputs("</dd>\n", f);
	}
}

static void write_window_terms(struct html *h, FILE *f)
{
	const struct report_ctx *ctx = h->ctx;
	char a[SECONDS_LEN], b[SECONDS_LEN], sel[256];
	uint64_t start, end;

	schedmodel_window_abs(ctx->front.model, &start, &end);
	if (end > schedmodel_end(ctx->front.model))
		end = schedmodel_end(ctx->front.model);
	put_term(f, "Window");
	fprintf(f, "%s to %s s since the start%s</dd>\n",
		format_seconds(a, report_rel(ctx, start), 6),
		format_seconds(b, report_rel(ctx, end), 6),
		ctx->front.sel.has_start || ctx->front.sel.has_end ? " (--range)" : "");
	select_describe(&ctx->front.sel, sel, sizeof(sel));
	put_term(f, "Threads");
	if (sel[0])
		html_escape(f, sel);
	else
		fputs("all (but the drainer)", f);
	fputs("</dd>\n", f);
}

/* Per CPU: records read, lost, missing; and the warning. */
static void write_loss(struct html *h, FILE *f)
{
	const struct report_ctx *ctx = h->ctx;
	const struct srec_cpu_total *totals;
	uint64_t records = 0, lost = 0;
	char warning[1024];
	unsigned int cpu;

	for (cpu = 0; cpu < ctx->front.info->file.nr_cpus; cpu++) {
		const struct srecreader_cpu *c = srecreader_cpu(ctx->front.reader,
								cpu);

		records += c->records;
		lost += c->lost + c->missing;
	}
	report_loss_warning(ctx, warning, sizeof(warning));
	fprintf(f, "<h3>Events and loss</h3>\n<p class=\"sub\">%" PRIu64 " %s read%s.</p>\n",
		records, plural(records, "record", "records"),
		srecreader_trailer(ctx->front.reader, &totals) ? "" :
		ctx->front.sel.has_end ? " (up to the end of the window)" :
		" (the file has no trailer: the recording was cut short)");
	if (warning[0]) {
		fputs("<p class=\"warning\" id=\"loss-warning\">", f);
		html_escape(f, warning);
		fputs("</p>\n", f);
	} else if (lost) {
		fputs("<p class=\"warning\" id=\"loss-warning\">Events were lost, outside the window: see the table.</p>\n",
		      f);
	} else {
		fputs("<p class=\"ok\">No event was lost: every CPU's sequence numbers are complete.</p>\n",
		      f);
	}
	fputs("<table class=\"data\" id=\"loss\"><thead><tr><th class=\"n\">CPU</th><th class=\"n\">records</th><th class=\"n\">lost</th><th class=\"n\">missing</th><th>note</th></tr></thead>\n<tbody>\n",
	      f);
	for (cpu = 0; cpu < ctx->front.info->file.nr_cpus; cpu++) {
		const struct srecreader_cpu *c = srecreader_cpu(ctx->front.reader,
								cpu);

		if (!c->records && !c->lost && !c->missing &&
		    !srecreader_cpu_online(ctx->front.reader, cpu))
			continue;
		fprintf(f, "<tr><td class=\"n\">%u</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td><td>%s</td></tr>\n",
			cpu, c->records, c->lost, c->missing,
			cpu == ctx->front.info->file.drainer_cpu ?
			"the drainer's CPU" : "");
	}
	fputs("</tbody></table>\n<p class=\"sub\">lost: events a full ring dropped (LOST records); missing: sequence numbers that no record explains.</p>\n",
	      f);
	if (*srecreader_error(ctx->front.reader)) {
		fputs("<p class=\"warning\">The trace could not be read to its end: ",
		      f);
		html_escape(f, srecreader_error(ctx->front.reader));
		fputs("; everything here is what was read before.</p>\n", f);
	}
}

static void write_summary(struct html *h, FILE *f)
{
	fputs("<h1>schedrec: ", f);
	html_escape(f, h->ctx->front.info->hostname[0] ? h->ctx->front.info->hostname :
		    h->ctx->front.path);
	fputs("</h1>\n<p class=\"sub\">", f);
	html_escape(f, h->ctx->front.path);
	fputs("</p>\n<section id=\"summary\">\n<h2>The recording</h2>\n"
	      "<dl class=\"meta\">\n", f);
	write_trace_terms(h, f);
	write_window_terms(h, f);
	write_recorder_terms(h, f);
	fputs("</dl>\n", f);
	write_loss(h, f);
	fputs("</section>\n", f);
}

static int write_heatmap(struct html *h, FILE *f)
{
	int ret;

	fputs("<section id=\"heatmap\">\n<h2>Heat map: on-CPU time, second by second</h2>\n"
	      "<p class=\"sub\">A column per second since the start of the recording (of several on a window over 1200 s, as its axis says: those columns are not clickable), a row per 20 ms of it, the lowest offset at the bottom: the redder a cell, the more on-CPU time the selected threads had in it (hover over a cell for its value). ",
	      f);
	if (h->nr_seconds)
		fprintf(f, "<strong>Click a column</strong> to see that second below, as a timeline and a flame graph; the %zu busiest seconds (most on-CPU time) are ready, marked by a blue bar over their column.</p>\n",
			h->nr_seconds);
	else
		fputs("No second was pre-rendered (--seconds 0).</p>\n", f);
	if (!path_of(h, "heatmap.svg"))
		return -ENAMETOOLONG;
	ret = html_inline_svg(f, h->path, "heat", "heatmap");
	if (ret) {
		tool_error("report", ret, "html: cannot read %s", h->path);
		return ret;
	}
	put_files(f, "heatmap", PART_ALL);
	fputs("</section>\n", f);
	return 0;
}

/* The busiest second's view, as the page opens (the script changes it). */
static void write_view(struct html *h, FILE *f, const char *kind,
		       const char *title)
{
	const struct html_second *v = h->nr_seconds ? &h->seconds[0] : NULL;
	char src[128], text[128];

	fprintf(f, "<div id=\"second-%s\"%s>\n<h3>%s</h3>\n", kind,
		v ? "" : " hidden", title);
	if (!v) {
		fputs("<div class=\"slot\"></div>\n</div>\n", f);
		return;
	}
	second_file(src, sizeof(src), kind, v->second, "svg");
	second_file(text, sizeof(text), kind, v->second, "txt");
	fprintf(f, "<p class=\"files\">Files: <a data-kind=\"src\" href=\"%s\">SVG</a> <a data-kind=\"text\" href=\"%s\">text</a></p>\n<div class=\"slot\">",
		src, text);
	if (path_of(h, src))
		html_svg_object(f, src, h->path, NULL);
	fputs("</div>\n</div>\n", f);
}

static int compare_by_second(const void *a, const void *b)
{
	const struct html_second *x = *(const struct html_second **)a;
	const struct html_second *y = *(const struct html_second **)b;

	return x->second < y->second ? -1 : x->second > y->second;
}

static int write_second(struct html *h, FILE *f)
{
	struct html_second **order;
	char src[128], d[DURATION_LEN];
	size_t i;

	fputs("<section id=\"second\">\n", f);
	if (!h->nr_seconds) {
		fputs("<h2 id=\"second-title\">A second</h2>\n<p class=\"sub\">No second was pre-rendered (--seconds 0): see one with schedrec report timeline and flame, --range S:S+1.</p>\n<p id=\"second-note\" class=\"warning\" hidden></p>\n",
		      f);
	} else {
		fprintf(f, "<h2 id=\"second-title\">Second %" PRIu64 ", the busiest</h2>\n",
			h->seconds[0].second);
		fputs("<p class=\"sub\">Pre-rendered (the busiest, by on-CPU time; --seconds says how many): <span class=\"second-list\">",
		      f);
		order = calloc(h->nr_seconds, sizeof(*order));
		if (!order)
			return -ENOMEM;
		for (i = 0; i < h->nr_seconds; i++)
			order[i] = &h->seconds[i];
		qsort(order, h->nr_seconds, sizeof(*order), compare_by_second);
		for (i = 0; i < h->nr_seconds; i++) {
			if (order[i]->failed)
				continue;
			second_file(src, sizeof(src), "timeline",
				    order[i]->second, "svg");
			fprintf(f, "<a class=\"second-link\" data-second=\"%" PRIu64 "\" href=\"%s\" title=\"on-CPU %s\">%" PRIu64 " s</a>",
				order[i]->second, src,
				format_duration(d, order[i]->oncpu),
				order[i]->second);
		}
		free(order);
		fputs("</span></p>\n<p id=\"second-note\" class=\"warning\" hidden></p>\n",
		      f);
	}
	write_view(h, f, "timeline",
		   "Timeline: who ran on each CPU, and each thread's state (running, R runnable, S, D...)");
	write_view(h, f, "flame",
		   "Flame graph of that second: on-CPU (warm) and off-CPU (blue) time; click a frame to zoom in");
	fputs("</section>\n", f);
	return 0;
}

static int write_table(struct html *h, FILE *f, const struct table_spec *t)
{
	char name[64];
	size_t rows, i;

	if (t->title)
		fprintf(f, "<h3>%s</h3>\n", t->title);
	fputs("<p class=\"sub\">", f);
	html_escape(f, t->intro);
	fputs("</p>\n<div class=\"scroll\">\n", f);
	for (i = 0; strcmp(part_specs[i].name, t->part); i++)
		;
	if (!h->tables[i]) {
		tool_error("report", ENODATA, "html: %s wrote no table",
			   t->part);
		return -ENODATA;
	}
	fputs(h->tables[i], f);
	rows = h->table_rows[i];
	snprintf(name, sizeof(name), "%s.csv", t->part);
	fputs("</div>\n<p class=\"files\">", f);
	if (rows > PAGE_ROWS)
		fprintf(f, "The first %u of %zu rows: <a href=\"%s\">%s</a> has them all.",
			PAGE_ROWS, rows, name, name);
	else
		fprintf(f, "%zu row%s%s; a click on a column's heading sorts by it.",
			rows, rows == 1 ? "" : "s",
			rows ? "" : " (nothing in the selection)");
	fputs("</p>\n", f);
	return 0;
}

static int write_section(struct html *h, FILE *f,
			 const struct section_spec *s)
{
	char src[64];
	size_t i;
	int ret;

	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", s->id, s->title);
	for (i = 0; i < ARRAY_SIZE(s->tables) && s->tables[i].part; i++) {
		ret = write_table(h, f, &s->tables[i]);
		if (ret)
			return ret;
	}
	snprintf(src, sizeof(src), "%s.svg", s->id);
	if (!path_of(h, src))
		return -ENAMETOOLONG;
	html_svg_object(f, src, h->path, NULL);
	put_files(f, s->id, PART_ALL);
	fprintf(f, "<details><summary>What it shows, column by column (schedrec report %s --help)</summary>\n<pre>",
		s->report->name);
	html_escape(f, s->report->help);
	if (s->report->notes) {
		fputc('\n', f);
		html_escape(f, s->report->notes);
	}
	fputs("</pre></details>\n</section>\n", f);
	return 0;
}

static int write_flame(struct html *h, FILE *f)
{
	fputs("<section id=\"flame\">\n<h2>Flame graph of the whole window</h2>\n"
	      "<p class=\"sub\">On-CPU (warm) and off-CPU (blue) time of every selected thread, by process, thread and state at switch-out (and kernel stack, when the trace has them). Click a frame to zoom in.</p>\n",
	      f);
	if (!path_of(h, "flame.svg"))
		return -ENAMETOOLONG;
	html_svg_object(f, "flame.svg", h->path, NULL);
	put_files(f, "flame", PART_TEXT | PART_SVG);
	fputs("</section>\n", f);
	return 0;
}

static void write_file_list(struct html *h, FILE *f)
{
	struct stat st;
	size_t i;

	fputs("<section id=\"files\">\n<h2>Files</h2>\n<p class=\"sub\">Each report as <code>schedrec report NAME</code> writes it: its text (.txt), its table as CSV (durations in ns) and its chart (.svg).</p>\n<ul>\n",
	      f);
	for (i = 0; i < h->nr_files; i++) {
		const char *path = path_of(h, h->files[i]);

		fputs("<li><a href=\"", f);
		html_escape(f, h->files[i]);
		fputs("\">", f);
		html_escape(f, h->files[i]);
		fputs("</a>", f);
		if (path && !stat(path, &st))
			fprintf(f, " (%lld bytes)", (long long)st.st_size);
		fputs("</li>\n", f);
	}
	fprintf(f, "</ul>\n</section>\n<p class=\"sub\">Written by schedrec %s, <code>schedrec report html</code>.</p>\n</main>\n",
		SCHEDREC_VERSION);
}

/* What the script needs: the views of the seconds, as JSON. */
static void write_data(struct html *h, FILE *f)
{
	static const char *const kinds[] = { "timeline", "flame" };
	char src[128], text[128], d[DURATION_LEN], sel[512], why[128];
	unsigned int w, ht;
	size_t i, k, n = 0;

	selection_options(&h->ctx->front.sel, sel, sizeof(sel));
	snprintf(why, sizeof(why),
		 "only the %zu busiest seconds are (--seconds %u).",
		 h->nr_seconds, h->max_seconds);
	fputs("<script type=\"application/json\" id=\"views-data\">{\"trace\":",
	      f);
	json_put_string(f, h->ctx->front.path);
	fputs(",\"selection\":", f);
	json_put_string(f, sel);
	fputs(",\"why\":", f);
	json_put_string(f, why);
	fputs(",\"views\":[", f);
	for (i = 0; i < h->nr_seconds; i++) {
		const struct html_second *v = &h->seconds[i];

		if (v->failed)
			continue;
		fprintf(f, "%s\n{\"second\":%" PRIu64 ",\"oncpu\":\"%s\"",
			n++ ? "," : "", v->second,
			format_duration(d, v->oncpu));
		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			second_file(src, sizeof(src), kinds[k], v->second,
				    "svg");
			second_file(text, sizeof(text), kinds[k], v->second,
				    "txt");
			w = 1200;
			ht = 600;
			if (path_of(h, src))
				html_svg_size(h->path, &w, &ht);
			fprintf(f, ",\"%s\":{\"src\":\"%s\",\"text\":\"%s\",\"w\":%u,\"h\":%u}",
				kinds[k], src, text, w, ht);
		}
		fputc('}', f);
	}
	fprintf(f, "]}</script>\n<script>\n%s</script>\n</body>\n</html>\n",
		html_page_script);
}

static int write_page(struct html *h)
{
	FILE *f = open_file(h, "index.html");
	size_t i;
	int ret;

	if (!f)
		return -EIO;
	write_head(h, f);
	write_summary(h, f);
	ret = write_heatmap(h, f);
	if (!ret)
		ret = write_second(h, f);
	for (i = 0; !ret && i < ARRAY_SIZE(sections); i++)
		ret = write_section(h, f, &sections[i]);
	if (!ret)
		ret = write_flame(h, f);
	if (!ret) {
		write_file_list(h, f);
		write_data(h, f);
	}
	return close_file(h, f, "index.html", ferror(f) && !ret ? -EIO : ret);
}

static int html_output(void *priv, struct report_ctx *ctx)
{
	struct html *h = priv;
	size_t i;
	int ret;

	ret = h->per_second_failed ? -ENOMEM : write_parts(h);
	if (!ret)
		ret = choose_seconds(h);
	if (!ret)
		ret = render_seconds(h);
	if (!ret)
		ret = write_page(h);
	if (ret)
		return ret;
	fprintf(ctx->out, "Wrote %s/index.html and %zu %s beside it: open it in a browser (it needs no network).\n",
		h->dir, h->nr_files - 1,
		plural(h->nr_files - 1, "file", "files"));
	if (h->nr_seconds)
		fprintf(ctx->out, "The busiest second%s, shown under the heat map:",
			h->nr_seconds > 1 ? "s" : "");
	for (i = 0; i < h->nr_seconds; i++)
		fprintf(ctx->out, " %" PRIu64 "%s", h->seconds[i].second,
			i + 1 < h->nr_seconds ? "," : "\n");
	return stream_error(ctx->out);
}

static void html_free(void *priv)
{
	struct html *h = priv;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(part_specs); i++) {
		if (h->privs[i] && part_specs[i].report->free)
			part_specs[i].report->free(h->privs[i]);
		free(h->privs[i]);
	}
	for (i = 0; i < h->nr_files; i++)
		free(h->files[i]);
	free(h->files);
	free(h->seconds);
	free(h->per_second);
	for (i = 0; i < ARRAY_SIZE(part_specs); i++)
		free(h->tables[i]);
}

const struct report html_report = {
	.name = "html",
	.summary = "every report in one directory, with index.html to browse them",
	.help =
	"Every report in one directory, and index.html that shows them together\n"
	"and needs no network (open it from the disk, file://):\n"
	"\n"
	"  the recording   host, kernel, CPUs, start (UTC), length, events\n"
	"                  recorded, the drainer's CPU and command line, and\n"
	"                  per CPU the records read and the events lost, with\n"
	"                  the loss warning\n"
	"  heat map        on-CPU time per 20 ms of each second (heatmap); a\n"
	"                  click on a column shows that second under it\n"
	"  a second        the timeline (timeline --threads) and the flame\n"
	"                  graph (flame) of the second clicked, the busiest\n"
	"                  when the page opens\n"
	"  tables          offcpu, tenancy, states (and its usurpers), latency\n"
	"                  (and its wakers) as tables that sort by a click on\n"
	"                  a column's heading (the first 200 rows; the CSV\n"
	"                  files have all), with their charts\n"
	"  flame graph     of the whole window\n"
	"\n"
	"The directory also holds what each report writes on its own: NAME.txt,\n"
	"NAME.csv and NAME.svg for offcpu, tenancy, states, latency and heatmap;\n"
	"states-usurpers.csv and latency-wakers.csv; flame.txt and flame.svg;\n"
	"and in seconds/, timeline-S.svg/.txt and flame-S.svg/.txt for each\n"
	"second S pre-rendered.  The selection (--range, --pid, --tid, --comm,\n"
	"--cpu) applies to all; --top to the text files and the charts.\n"
	"\n"
	"The trace is read twice: once for every report, once more for the\n"
	"per-second views (one model per second shown, all fed in that one\n"
	"read).  So TRACE must be a file, not - or a pipe, unless --seconds 0.\n",
	.options = html_options,
	.notes =
	"Exit status: 1 also when the second read (for the per-second views)\n"
	"stops short; 2 when -o is missing or DIR is not empty; 3 when DIR\n"
	"cannot be created or written.\n",
	.examples =
	"  schedrec report html run.srec -o run-html\n"
	"  schedrec report html run.srec --pid 4242 --seconds 30 -o run-html --force\n",
	.priv_size = sizeof(struct html),
	.parse = html_parse,
	.start = html_start,
	.output = html_output,
	.free = html_free,
};
