/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two fronts that read a trace share, `schedrec report`
 * (tools/report.c) and `schedrec export` (tools/export.c): the options
 * that select what is read (--range, --pid, --tid, --comm, --cpu),
 * --strict, -q and -h, and their help; the usage errors; the reader's
 * diagnostics; opening the trace and starting the model of the window.
 * Each front keeps what is its own: its other options, its help, its pass.
 */
#ifndef SCHEDREC_FRONT_H
#define SCHEDREC_FRONT_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "optspec.h"
#include "progress.h"
#include "schedmodel.h"
#include "select.h"
#include "srecreader.h"
#include "util.h"

/* Keys of the shared options; a front's own start at FRONT_OPT_OWN. */
enum {
	FRONT_OPT_RANGE = 0x100,
	FRONT_OPT_PID,
	FRONT_OPT_TID,
	FRONT_OPT_COMM,
	FRONT_OPT_CPU,
	FRONT_OPT_STRICT,
	FRONT_OPT_OWN,
};

/*
 * The shared options but --cpu, whose help differs (a front lists it
 * in a table of its own with the key FRONT_OPT_CPU): what selects the
 * threads and the window, to list first; how the trace is read, -q and
 * -h, to list last.  {0} terminated (optspec.h).
 */
extern const struct optspec front_select_options[];
extern const struct optspec front_reading_options[];

/* How the selections combine; after the options. */
#define FRONT_HELP_COMBINE						\
	"--pid and --tid add threads (a thread is kept if either names it);\n" \
	"--comm, --cpu and --range narrow what is kept: --pid 10 --tid 12\n" \
	"keeps process 10 and thread 12, --pid 10 --comm '^w' only the\n" \
	"threads of process 10 whose name starts with w.\n"

/*
 * A run of `schedrec VERB NAME [OPTIONS] TRACE...`: what the shared
 * options set and what front_open() opens.  The contexts of both fronts
 * (report_ctx, export_ctx) begin with one.
 */
struct front {
	const char *verb;		/* "report" or "export" */
	const char *name;		/* the report's or the format's */
	const char *path;		/* the trace (its first file) */
	char *const *paths;		/* its files (front_paths()): a
					 * rotation has several
					 */
	unsigned int nr_paths;
	const struct srecreader_info *info;
	struct srecreader *reader;
	struct schedmodel *model;
	struct selection sel;
	bool select_threads;		/* --pid, --tid or --comm was given */
	bool quiet;
	bool strict;
	bool streams;			/* writes its output while it reads */
	struct progress progress;	/* on a terminal, of the read */
};

/* "schedrec VERB NAME: " + message, to stderr. */
void front_vusage_error(const char *verb, const char *name, const char *fmt,
			va_list ap);
__printf(2, 3)
void front_usage_error(const struct front *f, const char *fmt, ...);

/*
 * getopt_long()'s table of a front's options: its @common tables (a
 * NULL-terminated list of at most 6), then @own, the report's or the
 * format's (NULL for none); in @shortopts their short options, after
 * ':' (a missing value is ':', not '?').  free() it; NULL on ENOMEM, or
 * EINVAL if @size or the list is too short.
 */
struct option *front_getopt(const struct optspec *const *common,
			    const struct optspec *own, char *shortopts,
			    size_t size);

/*
 * The option getopt_long() just returned, @key (its argument optarg, its
 * word argv[optind - 1]): a shared one into the context, or the usage
 * error of an unknown option or a missing value ('?', ':').  0, -EINVAL
 * after the message, or -ENOENT for an option that is not shared.
 */
int front_parse(struct front *f, int key, char *const argv[]);

/* The trace's files, the words after the options; -EINVAL if none. */
int front_paths(struct front *f, int argc, char *const argv[]);

/*
 * Open the trace, check --cpu against it and start the model of the
 * window; the reader's diagnostics go to stderr (not the warnings with
 * -q).  With stderr a terminal, and without -q, a progress line there
 * while the trace is read (progress.h); not if the front streams its
 * output to the terminal too.  EXIT_OK, or the exit status after a
 * message.  @f must last as long as the reader.
 */
int front_open(struct front *f);

/* The pass is over: the progress line, if any, is wiped. */
void front_pass_over(struct front *f);

/*
 * Whether @path is one of the trace's files, which writing an output
 * there would destroy: a usage error then (said, naming @option).
 */
bool front_output_is_input(const struct front *f, const char *option,
			   const char *path);

/*
 * Flush @f: 0, or its error: the write's own (ENOSPC, ...) when flushing
 * says it, else -EIO if a write into it had failed.
 */
int front_flush_error(FILE *f);

/*
 * After the pass: whether --range starts after the recording ended, a
 * usage error then (said).
 */
bool front_window_after_end(const struct front *f);

/*
 * After the pass, which returned @err: the exit status for what was read.
 * EXIT_LOST if it stopped early (said, with @doing: "reporting",
 * "exporting": the output is made of what was read before) or read less
 * than the recording (the input ends inside a section or before the
 * trailer, or damaged sections were skipped; the reader warned), else
 * EXIT_OK; a pass that stopped at the end of --range before the reader
 * came to the damage read all it needed, unless the file is cut short
 * inside the window (a CPU's records end there: said, and EXIT_LOST).
 * Also a warning (but with -q) when --pid, --tid or --comm matched no
 * thread of the window.
 */
int front_pass_status(const struct front *f, int err, const char *doing);

#endif /* SCHEDREC_FRONT_H */
