// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report: the verb.  Parses what every report shares, reads the
 * trace once through the model and lets the chosen report print; the
 * reports themselves are one file each (report.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front.h"
#include "pairs.h"
#include "report.h"
#include "timefmt.h"
#include "toolerr.h"
#include "tracepass.h"
#include "verbs.h"

static const struct report *const reports[] = {
	&offcpu_report,
	&tenancy_report,
	&states_report,
	&latency_report,
	&heatmap_report,
	&timeline_report,
	&folded_report,
	&flame_report,
	&html_report,
};

/* The options of every report beside the front's (front.h) */
enum {
	OPT_CSV = FRONT_OPT_OWN,
	OPT_SVG,
	OPT_TOP,
};

static const struct optspec output_options[] = {
	{ "cpu", FRONT_OPT_CPU, required_argument, "CPU[,CPU]",
	  "only these CPUs (0-3,8 for ranges); what a CPU means "
	  "differs: each report's --help says\n" },
	{ "csv", OPT_CSV, no_argument, NULL,
	  "the table as CSV on stdout, nothing else (durations in ns, "
	  "times in s, shares in 0..1)\n" },
	{ "svg", OPT_SVG, required_argument, "FILE",
	  "also draw the chart into FILE\n" },
	{ "top", OPT_TOP, required_argument, "N",
	  "at most N rows (default 20 in text, all in CSV; 0: all)\n" },
	{ 0 },
};

/* The options of every report, in the order --help lists them */
static const struct optspec *const common_options[] = {
	front_select_options, output_options, front_reading_options, NULL,
};

/* What --help says of every report after their options */
static const char common_help[] =
	"\n"
	FRONT_HELP_COMBINE
	"The drainer (schedrec record itself) is left out unless --pid or --tid\n"
	"names it.  Censored intervals (cut by the start or end of the\n"
	"recording or of --range) are shown apart and never counted in a\n"
	"maximum.  If events were lost in the window, the output starts with\n"
	"a warning, and values that overlap the loss are marked '~'.\n"
	"\n"
	"Exit status: 0 done; 1 the trace is cut short or damaged (truncated,\n"
	"no trailer, corrupt sections skipped, totals in the trailer that the\n"
	"records do not match, a read error, a corrupt chunk with --strict):\n"
	"what could be read is reported; 2 a usage error; 3 the trace cannot\n"
	"be read or the output cannot be written.\n";

static void print_common(FILE *f)
{
	fprintf(f, "Options of every report:\n");
	optspec_help(f, common_options);
	fputs(common_help, f);
}

static void print_list(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: schedrec report REPORT TRACE... [OPTIONS]\n"
		"       schedrec report REPORT --help\n"
		"\n"
		"Read a trace written by schedrec record once and report on it.\n"
		"TRACE is a .srec file, or - for standard input; the files of a\n"
		"rotation (schedrec record --rotate) read as one recording when\n"
		"given in the order they were written: run.*.srec.\n"
		"\n"
		"Reports:\n");
	for (i = 0; i < ARRAY_SIZE(reports); i++)
		fprintf(f, "  %-9s %s\n", reports[i]->name,
			reports[i]->summary);
	fputc('\n', f);
	print_common(f);
	fprintf(f, "\nExamples:\n");
	for (i = 0; i < ARRAY_SIZE(reports); i++)
		fputs(reports[i]->examples, f);
}

static void print_help(const struct report *r, FILE *f)
{
	const struct optspec *const own[] = { r->options, NULL };

	fprintf(f, "usage: schedrec report %s TRACE... [OPTIONS]\n\n%s\n",
		r->name, r->help);
	if (r->options) {
		fprintf(f, "Options:\n");
		optspec_help(f, own);
		fputc('\n', f);
	}
	if (r->notes)
		fprintf(f, "%s\n", r->notes);
	print_common(f);
	fprintf(f, "\nExamples:\n%s", r->examples);
}

void report_usage_error(const struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	front_vusage_error("report", r->name, fmt, ap);
	va_end(ap);
}

int64_t report_rel(const struct report_ctx *ctx, uint64_t abs_ns)
{
	return schedmodel_rel(ctx->front.model, abs_ns);
}

const char *report_comm(const struct task *t)
{
	if (!t)
		return "<idle>";
	return t->comm[0] ? t->comm : "?";
}

const char *report_comm_text(const struct task *t,
			     char buf[REPORT_COMM_TEXT_LEN])
{
	return text_escape(buf, report_comm(t));
}

size_t report_limit(const struct report_ctx *ctx, size_t rows)
{
	size_t limit = ctx->top;

	if (!limit)
		return rows;
	return rows < limit ? rows : limit;
}

int report_parse_by(const struct report *r, const char *arg,
		    bool *by_process)
{
	if (strcmp(arg, "thread") && strcmp(arg, "process")) {
		report_usage_error(r, "bad --by '%s': thread or process", arg);
		return -EINVAL;
	}
	*by_process = !strcmp(arg, "process");
	return 0;
}

void report_rows_init(struct report_rows *rows, size_t size,
		      const struct schedmodel *m)
{
	rows->model = m;
	rows->threads.size = size;
	rows->processes.size = size;
}

struct report_row *report_process_row(struct report_rows *rows,
				      const struct task *t)
{
	struct report_row *row;
	uint32_t key;
	bool fresh;

	key = t->process;
	row = keyed_get(&rows->processes, key, &fresh);
	if (!row)
		return NULL;
	if (fresh)
		row->key = key;
	row->task = t;
	return row;
}

size_t report_rows_count(const struct report_rows *rows)
{
	return rows->by_process ? rows->processes.count : rows->threads.count;
}

struct report_row *report_rows_item(const struct report_rows *rows,
				    size_t i)
{
	if (rows->by_process)
		return keyed_item(&rows->processes, i);
	return (void *)((char *)rows->threads.items + i * rows->threads.size);
}

struct rows_order {
	report_row_cmp *cmp;
	void *arg;
};

static int compare_rows(const void *a, const void *b, void *arg)
{
	const struct rows_order *order = arg;

	return order->cmp(*(const struct report_row *const *)a,
			  *(const struct report_row *const *)b, order->arg);
}

struct report_row **report_rows_sorted(struct report_rows *rows,
				       report_row_cmp *cmp, void *arg,
				       size_t *count)
{
	struct rows_order order = { .cmp = cmp, .arg = arg };
	size_t n = report_rows_count(rows), i;
	struct report_row **v = calloc(n ? n : 1, sizeof(*v));

	*count = 0;
	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		struct report_row *row = report_rows_item(rows, i);

		if (!row->used)
			continue;
		if (rows->by_process)
			row->task = schedmodel_process_leader(rows->model,
							      row->task);
		v[(*count)++] = row;
	}
	qsort_r(v, *count, sizeof(*v), compare_rows, &order);
	return v;
}

void report_rows_free(struct report_rows *rows)
{
	per_task_free(&rows->threads);
	keyed_free(&rows->processes);
}

void report_rows_columns(const struct report_rows *rows, struct table *t)
{
	if (!rows->by_process)
		table_column(t, "TID", "tid", TABLE_RIGHT);
	table_column(t, "PID", "pid", TABLE_RIGHT);
	table_column(t, "COMM", "comm", TABLE_LEFT);
}

void report_rows_cells(const struct report_rows *rows, struct table *t,
		       const struct report_row *row)
{
	if (!rows->by_process)
		table_u64(t, row->task->tid);
	report_cell_pid(t, row->task);
	table_str(t, report_comm(row->task));
}

void report_columns_thread(struct table *t)
{
	static const struct report_rows by_thread;

	report_rows_columns(&by_thread, t);
}

void report_cells_thread(struct table *t, const struct task *task)
{
	static const struct report_rows by_thread;
	const struct report_row row = { .task = task };

	report_rows_cells(&by_thread, t, &row);
}

int report_table_out(const struct report_ctx *ctx, const struct table *tab,
		     bool csv)
{
	int ret = table_print(tab, ctx->out, csv);

	if (!ret && csv && ctx->csv_table)
		ret = ctx->csv_table(ctx->csv_table_arg, tab);
	return ret;
}

int report_table_print(const struct report_ctx *ctx, struct table *tab,
		       size_t n, size_t shown, const char *none)
{
	int ret = report_table_out(ctx, tab, ctx->csv);

	if (ret || ctx->csv)
		return ret;
	if (!n)
		fprintf(ctx->out, "(%s)\n", none);
	else if (shown < n)
		fprintf(ctx->out, "(%zu more row%s: --top 0 shows all)\n",
			n - shown, n - shown == 1 ? "" : "s");
	return stream_error(ctx->out);
}

int report_pairs_csv(const struct report_ctx *ctx,
		     const struct task_pairs *pairs,
		     const struct report_pairs *cols)
{
	const struct task_pair **sorted = task_pairs_sorted(pairs);
	struct table *tab = table_new();
	size_t i;
	int ret;

	if (!tab || !sorted) {
		table_free(tab);
		free(sorted);
		return -ENOMEM;
	}
	report_columns_thread(tab);
	for (i = 0; i < ARRAY_SIZE(cols->other); i++)
		table_column(tab, cols->other[i].heading, cols->other[i].name,
			     i < 2 ? TABLE_RIGHT : TABLE_LEFT);
	table_column(tab, cols->count.heading, cols->count.name, TABLE_RIGHT);
	if (cols->ns.heading)
		table_column(tab, cols->ns.heading, cols->ns.name,
			     TABLE_RIGHT);
	for (i = 0; i < pairs->count; i++) {
		const struct task_pair *p = sorted[i];

		table_row(tab);
		report_cells_thread(tab, p->task);
		table_u64(tab, p->other ? p->other->tid : 0);
		report_cell_pid(tab, p->other);
		table_str(tab, p->other ? report_comm(p->other) : cols->nobody);
		table_u64(tab, p->count);
		if (cols->ns.heading)
			table_duration(tab, p->ns);
	}
	ret = report_table_out(ctx, tab, true);
	table_free(tab);
	free(sorted);
	return ret;
}

/* The window actually covered: [start, end] clipped to the recording. */
static void window_covered(const struct report_ctx *ctx, uint64_t *start,
			   uint64_t *end)
{
	schedmodel_window_abs(ctx->front.model, start, end);
	if (*end > schedmodel_end(ctx->front.model))
		*end = schedmodel_end(ctx->front.model);
}

uint64_t report_window_ns(const struct report_ctx *ctx)
{
	uint64_t start, end;

	window_covered(ctx, &start, &end);
	return end > start ? end - start : 0;
}

/* Whether loss @l is in [@start, @end] and of the kind asked (@cut). */
static bool loss_in(const struct sched_loss *l, uint64_t start, uint64_t end,
		    bool cut)
{
	return l->first <= end && l->last >= start && l->cut == cut;
}

/*
 * The losses of one kind (@cut: CPUs whose records the file ends before)
 * in [@start, @end], per CPU, at @len of @buf: "CPU 0: 12 between 1.5 and
 * 1.7 s" (from its first to its last), or "CPU 1's records are whole up
 * to 13.3 s"; the new length.
 */
static size_t loss_cpus(const struct report_ctx *ctx, char *buf, size_t size,
			size_t len, uint64_t start, uint64_t end, bool cut,
			bool *unexplained)
{
	const struct sched_loss *losses;
	size_t nr = schedmodel_losses(ctx->front.model, &losses), i, j;
	char a[SECONDS_LEN], b[SECONDS_LEN];
	const char *sep = "";

	for (i = 0; i < nr && len < size; i++) {
		uint64_t count = 0, first = UINT64_MAX, last = 0;

		if (!loss_in(&losses[i], start, end, cut))
			continue;
		for (j = 0; j < i; j++)
			if (losses[j].cpu == losses[i].cpu &&
			    loss_in(&losses[j], start, end, cut))
				break;
		if (j < i)
			continue;	/* this CPU is done */
		for (j = i; j < nr; j++) {
			if (losses[j].cpu != losses[i].cpu ||
			    !loss_in(&losses[j], start, end, cut))
				continue;
			count += losses[j].count;
			first = losses[j].first < first ? losses[j].first :
							  first;
			last = losses[j].last > last ? losses[j].last : last;
			*unexplained |= losses[j].unexplained;
		}
		format_seconds(a, report_rel(ctx, first), 6);
		format_seconds(b, report_rel(ctx, last), 6);
		if (cut)
			len += snprintf(buf + len, size - len,
					"%sCPU %u's records are whole up to %s s", sep,
					losses[i].cpu, a);
		else
			len += snprintf(buf + len, size - len,
					"%sCPU %u: %" PRIu64 " between %s and %s s",
					sep, losses[i].cpu, count, a, b);
		sep = cut ? ", " : "; ";
	}
	return len;
}

size_t report_loss_warning(const struct report_ctx *ctx, char *buf,
			   size_t size)
{
	const struct sched_loss *losses;
	size_t nr = schedmodel_losses(ctx->front.model, &losses), i, len;
	uint64_t start, end, total = 0;
	bool unexplained = false, cut = false;

	buf[0] = '\0';
	window_covered(ctx, &start, &end);
	for (i = 0; i < nr; i++) {
		if (loss_in(&losses[i], start, end, false))
			total += losses[i].count;
		cut |= loss_in(&losses[i], start, end, true);
	}
	if (!total && !cut)
		return 0;
	len = snprintf(buf, size, "WARNING: ");
	if (total) {
		len += snprintf(buf + len, size - len,
				"%" PRIu64 " %s lost in this window (", total,
				plural(total, "event", "events"));
		len = loss_cpus(ctx, buf, size, len, start, end, false,
				&unexplained);
		if (len < size)
			len += snprintf(buf + len, size - len, ")%s%s",
					unexplained ?
					" (some only as missing sequence numbers)" :
					"", cut ? "; " : "");
	}
	if (cut && len < size) {
		len += snprintf(buf + len, size - len,
				"the file is cut short: ");
		len = loss_cpus(ctx, buf, size, len, start, end, true,
				&unexplained);
		if (len < size)
			len += snprintf(buf + len, size - len,
					" only, and what ran there later is not known");
	}
	if (len < size)
		len += snprintf(buf + len, size - len,
				"; values that overlap them are marked ~");
	return len < size ? len : size - 1;
}

void report_subtitle(const struct report_ctx *ctx, char *buf, size_t size)
{
	char a[SECONDS_LEN], b[SECONDS_LEN], sel[256];
	uint64_t start, end;
	size_t len;

	window_covered(ctx, &start, &end);
	select_describe(&ctx->front.sel, sel, sizeof(sel));
	len = snprintf(buf, size, "%s%s: %s, %s, %u CPU%s; %s to %s s",
		       ctx->front.path, ctx->front.nr_paths > 1 ? " and the files after it" :
		       "", ctx->front.info->hostname, ctx->front.info->release,
		       ctx->front.info->file.nr_cpus,
		       ctx->front.info->file.nr_cpus == 1 ? "" : "s",
		       format_seconds(a, report_rel(ctx, start), 6),
		       format_seconds(b, report_rel(ctx, end), 6));
	if (sel[0] && len < size)
		snprintf(buf + len, size - len, "; %s", sel);
}

/*
 * What a damaged header took from the output, in one line ("" if
 * nothing): the reader's warning on stderr said where and why.
 */
static void header_warning(const struct report_ctx *ctx, char *buf,
			   size_t size)
{
	static const struct {
		unsigned int bit;
		const char *what;
	} losses[] = {
		{ SRECREADER_LOST_THREADS, "threads from before the recording have no name or process (?) unless a record gives them one" },
		{ SRECREADER_LOST_STRINGS, "the host and kernel are not known (?)" },
		{ SRECREADER_LOST_KSYMS, "kernel stacks are not named" },
		{ SRECREADER_LOST_OTHER, "a damaged part of it was skipped (names of threads from before the recording may be missing)" },
		{ SRECREADER_LOST_EVENTS, "the record types are this reader's own, of the same module ABI" },
	};
	unsigned int lost = srecreader_status(ctx->front.reader)->header_lost;
	const char *sep = ":";
	size_t i, len;

	buf[0] = '\0';
	if (!lost)
		return;
	len = snprintf(buf, size, "WARNING: the trace's header is damaged");
	for (i = 0; i < ARRAY_SIZE(losses) && len < size; i++) {
		if (!(lost & losses[i].bit))
			continue;
		len += snprintf(buf + len, size - len, "%s %s", sep,
				losses[i].what);
		sep = ";";
	}
}

void report_heading(struct report_ctx *ctx, const char *title)
{
	char warning[1024], subtitle[512], header[512];

	report_loss_warning(ctx, warning, sizeof(warning));
	if (ctx->csv) {
		/* once: a front may print several tables (html) */
		if (warning[0] && !ctx->loss_warned)
			fprintf(stderr, "schedrec report: %s\n", warning);
		ctx->loss_warned |= warning[0] != '\0';
		return;
	}
	report_subtitle(ctx, subtitle, sizeof(subtitle));
	header_warning(ctx, header, sizeof(header));
	fprintf(ctx->out, "%s\n%s\n", title, subtitle);
	if (header[0])
		fprintf(ctx->out, "%s\n", header);
	if (warning[0])
		fprintf(ctx->out, "%s\n", warning);
	fputc('\n', ctx->out);
}

FILE *report_svg_open(struct report_ctx *ctx)
{
	FILE *f = ctx->svg;
	struct stat st;

	if (f) {
		ctx->svg = NULL;
		return f;
	}
	f = fopen(ctx->svg_path, "w");
	if (!f) {
		tool_error("report", errno, "cannot write the chart %s",
			   ctx->svg_path);
		ctx->said = true;
		return NULL;
	}
	ctx->svg_is_file = !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
	return f;
}

/* A chart not (wholly) drawn leaves no file behind (a device stays). */
static void svg_remove(const struct report_ctx *ctx)
{
	if (ctx->svg_is_file)
		unlink(ctx->svg_path);
}

FILE *report_svg_begin(struct report_ctx *ctx, struct svg_frame *frame)
{
	report_subtitle(ctx, ctx->chart_subtitle, sizeof(ctx->chart_subtitle));
	report_loss_warning(ctx, ctx->chart_warning,
			    sizeof(ctx->chart_warning));
	*frame = (struct svg_frame){
		.subtitle = ctx->chart_subtitle,
		.warning = ctx->chart_warning[0] ? ctx->chart_warning : NULL,
	};
	return report_svg_open(ctx);
}

void report_cell_pid(struct table *t, const struct task *task)
{
	if (!task)
		table_u64(t, 0);
	else if (task->tgid)
		table_u64(t, task->tgid);
	else
		table_cell(t, "?", "");
}

int report_svg_close(struct report_ctx *ctx, FILE *f, int ret)
{
	int flushed = front_flush_error(f);

	if (!ret)
		ret = flushed;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		tool_error("report", ret, "cannot write the chart %s",
			   ctx->svg_path);
		ctx->said = true;
		svg_remove(ctx);
	}
	return ret;
}

int report_svg_bars(struct report_ctx *ctx, struct svg_bars *bars)
{
	struct svg_frame frame;
	FILE *f = report_svg_begin(ctx, &frame);
	int ret = f ? svg_bars_write(bars, f, &frame) : -EIO;

	svg_bars_free(bars);
	return f ? report_svg_close(ctx, f, ret) : ret;
}

static const struct report *find_report(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reports); i++)
		if (!strcmp(reports[i]->name, name))
			return reports[i];
	return NULL;
}

/* --csv, --svg, --top; 1 for --top, -ENOENT for none of them. */
static int parse_output(struct report_ctx *ctx, const struct report *r,
			int key, const char *arg)
{
	char *end;
	unsigned long top;

	switch (key) {
	case OPT_CSV:
		ctx->csv = true;
		return 0;
	case OPT_SVG:
		ctx->svg_path = arg;
		return 0;
	case OPT_TOP:
		errno = 0;
		top = strtoul(arg, &end, 10);
		if (errno || *end || !*arg || arg[0] == '-' || top > UINT32_MAX) {
			report_usage_error(r, "bad --top '%s': give a number of rows, 0 for all",
					   arg);
			return -EINVAL;
		}
		ctx->top = top;
		return 1;
	}
	return -ENOENT;
}

/* Read every record of the window into the model; 0, or -errno. */
static int run_pass(struct report_ctx *ctx)
{
	return trace_pass(ctx->front.reader, ctx->front.model, NULL);
}

/*
 * Switches that disagree with what ran on their CPU, or records out of
 * time order, in a trace that lost nothing: say so, the numbers near them
 * are approximate.  (With losses, the loss warning says it already.)
 */
static void warn_anomalies(const struct report_ctx *ctx)
{
	const struct schedmodel_anomalies *a = schedmodel_anomalies(ctx->front.model);
	const struct sched_loss *losses;

	if (ctx->front.quiet || (ctx->front.info->file.flags & SREC_FILE_F_FILTERED) ||
	    schedmodel_losses(ctx->front.model, &losses))
		return;
	if (a->desyncs)
		fprintf(stderr, "schedrec report: warning: %s: %llu %s not follow from the ones before %s on %s CPU, though no event was lost: the numbers around %s are approximate\n",
			ctx->front.path, (unsigned long long)a->desyncs,
			plural(a->desyncs, "switch does", "switches do"),
			plural(a->desyncs, "it", "them"),
			plural(a->desyncs, "its", "their"),
			plural(a->desyncs, "it", "them"));
	if (a->backwards)
		fprintf(stderr, "schedrec report: warning: %s: %llu %s older than one before %s\n",
			ctx->front.path, (unsigned long long)a->backwards,
			plural(a->backwards, "record is", "records are"),
			plural(a->backwards, "it", "them"));
}

static int run_report(const struct report *r, struct report_ctx *ctx,
		      void *priv)
{
	struct front *fr = &ctx->front;
	int ret, status;

	status = front_open(fr);
	if (status)
		return status;
	ret = r->start ? r->start(priv, ctx) : 0;
	if (ret)
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	/* before the pass: a path that cannot be written is known at once */
	if (ctx->svg_path) {
		if (front_output_is_input(fr, "--svg", ctx->svg_path))
			return EXIT_USAGE;
		ctx->svg = report_svg_open(ctx);
		if (!ctx->svg)
			return EXIT_FAIL;
	}
	ret = run_pass(ctx);
	front_pass_over(fr);
	if (!ret && front_window_after_end(fr))
		return EXIT_USAGE;
	warn_anomalies(ctx);
	status = front_pass_status(fr, ret, "reporting");
	if (ret == -ENOMEM)
		return EXIT_FAIL;
	ret = r->output(priv, ctx);
	if (ret == -EINVAL)	/* the report said why */
		return EXIT_USAGE;
	if (ret) {
		if (ret != -EPIPE && !ctx->said)
			tool_error("report", ret, "cannot write the report");
		return EXIT_FAIL;
	}
	if (fflush(ctx->out)) {
		tool_error("report", errno, "cannot write the report");
		return EXIT_FAIL;
	}
	return ctx->partial && status == EXIT_OK ? EXIT_LOST : status;
}

int cmd_report(int argc, char **argv)
{
	struct report_ctx ctx = {
		.front.verb = "report", .out = stdout,
	};
	const struct report *r;
	struct option *opts;
	void *priv = NULL;
	char shortopts[32];
	int key, ret, status;

	if (argc < 2) {
		print_list(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_list(stdout);
		return EXIT_OK;
	}
	r = find_report(argv[1]);
	if (!r) {
		fprintf(stderr, "schedrec report: unknown report '%s'; the reports are:",
			argv[1]);
		for (key = 0; key < (int)ARRAY_SIZE(reports); key++)
			fprintf(stderr, " %s", reports[key]->name);
		fprintf(stderr, " (schedrec report --help says what each shows)\n");
		return EXIT_USAGE;
	}
	ctx.front.name = r->name;
	opts = front_getopt(common_options, r->options, shortopts,
			    sizeof(shortopts));
	priv = calloc(1, r->priv_size ? r->priv_size : 1);
	if (!opts || !priv) {
		free(opts);
		free(priv);
		tool_error("report", ENOMEM, "cannot start");
		return EXIT_FAIL;
	}
	status = EXIT_USAGE;
	argc--;
	argv++;
	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (key == 'h') {
			print_help(r, stdout);
			status = EXIT_OK;
			goto out;
		}
		ret = front_parse(&ctx.front, key, argv);
		if (ret == -ENOENT)
			ret = parse_output(&ctx, r, key, optarg);
		if (ret == 1)
			ctx.top_given = true;
		else if (ret == -ENOENT)
			ret = r->parse ? r->parse(priv, &ctx, key, optarg) :
					 -EINVAL;
		if (ret < 0)
			goto out;
	}
	if (front_paths(&ctx.front, argc, argv))
		goto out;
	ctx.front.path = ctx.front.paths[0];
	if (!ctx.top_given && !ctx.csv)
		ctx.top = 20;
	status = run_report(r, &ctx, priv);
out:
	/* a chart file opened but not drawn, the report having failed */
	if (ctx.svg) {
		fclose(ctx.svg);
		svg_remove(&ctx);
	}
	if (r->free)
		r->free(priv);
	free(priv);
	free(opts);
	schedmodel_free(ctx.front.model);
	if (ctx.front.reader)
		srecreader_close(ctx.front.reader);
	select_free(&ctx.front.sel);
	return status;
}
