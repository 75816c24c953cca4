/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedrec report: what every report is to the front (tools/report.c) and
 * what the front gives every report.  One report per file in tools/; the
 * meaning of each is doc/reports.md's.
 *
 * The front parses the options every report has (select.h, --csv, --svg,
 * --top, ...) and the report's own, opens the trace, builds the model,
 * calls start() to let the report add its handlers, feeds every record
 * of the window to the model once, then calls output().
 */
#ifndef SCHEDREC_REPORT_H
#define SCHEDREC_REPORT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "front.h"
#include "idmap.h"
#include "schedmodel.h"
#include "select.h"
#include "srecreader.h"
#include "svg.h"
#include "table.h"
#include "util.h"

struct report_ctx {
	struct front front;		/* the trace, its model, the selection */
	FILE *out;			/* stdout */
	bool csv;
	const char *svg_path;		/* NULL: no chart */
	FILE *svg;			/* --svg's file, opened before the pass */
	bool svg_is_file;		/* a regular file: removed if not drawn */
	bool said;			/* an output error was printed */
	bool partial;			/* it shows less than the trace holds
					 * (html: its second read stopped)
					 */
	unsigned int top;		/* rows at most, 0: all */
	bool top_given;			/* --top was on the command line */
	bool loss_warned;		/* the CSV loss warning went to stderr */
	/*
	 * Handed each CSV table the report prints, once printed
	 * (report_table_out()): html shows the tables from here, not from
	 * its files; NULL.  0 or -errno.
	 */
	int (*csv_table)(void *arg, const struct table *tab);
	void *csv_table_arg;
	/* what report_svg_begin() puts in a chart's frame */
	char chart_subtitle[512];
	char chart_warning[1024];
};

struct report {
	const char *name;
	const char *summary;	/* one line, for the list of reports */
	const char *help;	/* what it shows, its columns */
	/*
	 * its own options (keys from REPORT_OPT_BASE), with what --cpu
	 * means to it (key 0): {0} terminated, listed after @help
	 */
	const struct optspec *options;
	const char *notes;	/* after its options: its chart, ...; NULL */
	const char *examples;	/* lines of "schedrec report ..." */
	size_t priv_size;		/* its state, zeroed */
	/* one of its options; 0, or -EINVAL after report_usage_error() */
	int (*parse)(void *priv, const struct report_ctx *ctx, int key,
		     const char *arg);
	/* the header is read: check options, add handlers to the model */
	int (*start)(void *priv, struct report_ctx *ctx);
	/*
	 * every record was seen: print, and draw the chart; -EINVAL after
	 * report_usage_error() for an option the trace proves wrong
	 */
	int (*output)(void *priv, struct report_ctx *ctx);
	void (*free)(void *priv);
};

extern const struct report offcpu_report;
extern const struct report tenancy_report;
extern const struct report states_report;
extern const struct report latency_report;
extern const struct report heatmap_report;
extern const struct report timeline_report;
extern const struct report folded_report;
extern const struct report flame_report;
extern const struct report html_report;

/* Option keys of the reports' own options start here. */
#define REPORT_OPT_BASE	0x200

/* "schedrec report NAME: " + message, to stderr. */
__printf(2, 3)
void report_usage_error(const struct report *r, const char *fmt, ...);

/*
 * The text heading of an output: the title, the trace (host, kernel, CPUs,
 * length), the window and the selection, then the loss warning if the
 * window holds lost events.  Nothing in CSV mode, where the loss warning
 * goes to stderr.
 */
void report_heading(struct report_ctx *ctx, const char *title);

/*
 * The loss warning for the window, in one line ("" if nothing was lost
 * there): for SVG frames.  Returns its length.
 */
size_t report_loss_warning(const struct report_ctx *ctx, char *buf,
			   size_t size);

/* A subtitle for charts: the trace, the window, the selection. */
void report_subtitle(const struct report_ctx *ctx, char *buf, size_t size);

/* Times relative to the origin: schedmodel_rel() of the report's model. */
int64_t report_rel(const struct report_ctx *ctx, uint64_t abs_ns);

/* The window's length in ns (after the pass). */
uint64_t report_window_ns(const struct report_ctx *ctx);

/* "comm" of a task, "<idle>" for NULL, with a '?' name if unknown. */
const char *report_comm(const struct task *t);

/*
 * report_comm() for text outside a table: its control bytes escaped
 * (text_escape()) in @buf.  @buf.
 */
#define REPORT_COMM_TEXT_LEN	(4 * SCHEDREC_COMM_LEN + 1)
const char *report_comm_text(const struct task *t,
			     char buf[REPORT_COMM_TEXT_LEN]);

/*
 * The chart's file: ctx->svg if the front opened it (--svg), else
 * ctx->svg_path opened for writing; NULL with a message on failure.
 */
FILE *report_svg_open(struct report_ctx *ctx);

/*
 * The start of every chart: fill @frame (the subtitle, and the loss
 * warning if any, kept in @ctx) and open ctx->svg_path, as
 * report_svg_open().  Close it with report_svg_close().
 */
FILE *report_svg_begin(struct report_ctx *ctx, struct svg_frame *frame);

/* The PID cell of a row: @t's process, "?" if not known, 0 for idle. */
void report_cell_pid(struct table *t, const struct task *task);
/*
 * Flush and close it; 0, or -errno (@ret if not 0, else the stream's
 * error) with a message, the file removed (if a regular file).
 */
int report_svg_close(struct report_ctx *ctx, FILE *f, int ret);

/*
 * Draw @bars as the chart, from report_svg_begin() to report_svg_close(),
 * and free them.  0, or -errno (with a message if it was the file).
 */
int report_svg_bars(struct report_ctx *ctx, struct svg_bars *bars);

/* Row limit for tables: --top, or 20 in text and all in CSV by default. */
size_t report_limit(const struct report_ctx *ctx, size_t rows);

/* --by of report @r: *@by_process; 0, or -EINVAL after a usage error. */
int report_parse_by(const struct report *r, const char *arg,
		    bool *by_process);

/*
 * The rows of a report by thread or, with --by process, by process.  The
 * report's own row starts with a struct report_row, so that a pointer to
 * one is a pointer to the other.
 */
struct report_row {
	bool used;			/* set by the report */
	/*
	 * the thread; a process's latest thread, until sorting names it
	 * after its leader (schedmodel_process_leader())
	 */
	const struct task *task;
	uint32_t key;			/* by process: task->process */
};

struct report_rows {
	bool by_process;		/* --by process */
	const struct schedmodel *model;	/* that knows the leaders */
	struct per_task threads;
	struct keyed processes;
};

/* Rows of @size bytes of @m's tasks; before the first report_row_of(). */
void report_rows_init(struct report_rows *rows, size_t size,
		      const struct schedmodel *m);

/* The row of @t's process (--by process); NULL on ENOMEM. */
struct report_row *report_process_row(struct report_rows *rows,
				      const struct task *t);

/* The row of thread @t (not --by process); NULL on ENOMEM. */
static inline struct report_row *report_thread_row(struct report_rows *rows,
						   const struct task *t)
{
	struct report_row *row = per_task_get(&rows->threads, t);

	if (row)
		row->task = t;
	return row;
}

/* The row of @t, or of its process; NULL on ENOMEM.  Once per event. */
static inline struct report_row *report_row_of(struct report_rows *rows,
					       const struct task *t)
{
	if (rows->by_process)
		return report_process_row(rows, t);
	return report_thread_row(rows, t);
}

/* Every row, used or not: report_rows_count() of them. */
size_t report_rows_count(const struct report_rows *rows);
struct report_row *report_rows_item(const struct report_rows *rows,
				    size_t i);

/*
 * The rows in use, sorted by @cmp, in an array to free(); NULL on ENOMEM
 * (*@count 0 then).  A process's row is named after its leader from here
 * on (schedmodel_process_leader()).
 */
typedef int report_row_cmp(const struct report_row *a,
			   const struct report_row *b, void *arg);
struct report_row **report_rows_sorted(struct report_rows *rows,
				       report_row_cmp *cmp, void *arg,
				       size_t *count);
void report_rows_free(struct report_rows *rows);

/* The columns that say whose a row is: TID PID COMM, or PID COMM. */
void report_rows_columns(const struct report_rows *rows, struct table *t);
void report_rows_cells(const struct report_rows *rows, struct table *t,
		       const struct report_row *row);

/* TID PID COMM: the columns, and @task's cells. */
void report_columns_thread(struct table *t);
void report_cells_thread(struct table *t, const struct task *task);

/*
 * Print @tab to ctx->out, as CSV if @csv; a CSV table then goes to
 * ctx->csv_table too.  Every table a report prints goes through here.
 */
int report_table_out(const struct report_ctx *ctx, const struct table *tab,
		     bool csv);

/*
 * Print @tab (CSV with ctx->csv); in text, follow it with "(@none)" if
 * it has no row, or with the number of rows --top left out of @n.
 */
int report_table_print(const struct report_ctx *ctx, struct table *tab,
		       size_t n, size_t shown, const char *none);

/* A column of a table: its heading in text, its name in CSV. */
struct report_column {
	const char *heading;
	const char *name;
};

/*
 * The columns of a CSV of pairs of threads (pairs.h) after the thread's
 * tid, pid and comm: the other thread's, the count and the time.
 */
struct report_pairs {
	struct report_column other[3];	/* its tid, pid and comm */
	struct report_column count;
	struct report_column ns;	/* heading NULL: no time column */
	const char *nobody;		/* the comm where there is no other */
};

struct task_pairs;

/* The pairs of @pairs as CSV, a row each, task_pairs_sorted()'s order. */
int report_pairs_csv(const struct report_ctx *ctx,
		     const struct task_pairs *pairs,
		     const struct report_pairs *cols);

#endif /* SCHEDREC_REPORT_H */
