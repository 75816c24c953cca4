/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedrec export: what every format is to the front (tools/export.c) and
 * what the front gives every format.  One format per file in tools/; what
 * each writes is doc/export.md's.
 *
 * The front parses the options (-o and the selection of select.h), opens
 * the trace and the output, builds the model, calls start() to let the
 * format write its beginning and add its model handlers, reads every
 * record of the window once (trace_pass()), handing each record that the
 * thread selection keeps to record(), then calls finish().
 */
#ifndef SCHEDREC_EXPORT_H
#define SCHEDREC_EXPORT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "front.h"
#include "schedmodel.h"
#include "select.h"
#include "srecreader.h"
#include "util.h"

struct export_ctx {
	struct front front;		/* the trace, its model, the selection */
	const char *out_path;		/* -o, "-" for standard output */
	FILE *out;
	bool out_is_file;		/* a regular file: removed on failure */
	/* set by start(): record() is not needed this time */
	bool no_records;
};

/*
 * A record of the window that the thread selection keeps, and the threads
 * it is about: a switch's prev and next, the task of the other events
 * (NULL for none, the idle task, and LOST).  A task is the thread under
 * the name it had at the record (after it, for fork, exec and rename); a
 * thread the model does not know (yet) gets a stand-in with only its tid.
 */
struct export_record {
	const struct srec_record *rec;
	int64_t rel_ns;			/* since the origin of the trace */
	const struct task *subject[2];
};

/*
 * The functions of a format return 0 or -errno; the front then says that
 * the output cannot be written, unless it is -ECANCELED: the format said
 * what failed itself.
 */
struct export_format {
	const char *name;
	const char *summary;	/* one line, for the list of formats */
	const char *help;	/* what it writes, how the selection applies */
	const char *examples;	/* lines of "schedrec export ..." */
	bool binary;		/* never written to a terminal */
	bool stdout_default;	/* without -o: standard output */
	/*
	 * its own options, {0} terminated (keys from EXPORT_OPT_BASE),
	 * listed after @help; NULL
	 */
	const struct optspec *options;
	/* one of its options: 0, or -EINVAL after saying why (exit 2) */
	int (*parse)(void *priv, int key, const char *arg);
	size_t priv_size;	/* its state, zeroed */
	/* the header is read, the output open: write the beginning */
	int (*start)(void *priv, struct export_ctx *ctx);
	/* a record of the window (NULL: the format only uses the model) */
	int (*record)(void *priv, struct export_ctx *ctx,
		      const struct export_record *er);
	/* every record was seen and the model finished: write the end */
	int (*finish)(void *priv, struct export_ctx *ctx);
	void (*free)(void *priv);
};

extern const struct export_format perfetto_export;
extern const struct export_format schedlog_export;
extern const struct export_format csv_export;
extern const struct export_format openmetrics_export;

/* Option keys of the formats' own options start here. */
#define EXPORT_OPT_BASE	0x200

/* "schedrec export: warning: " + message, to stderr unless -q. */
__printf(2, 3)
void export_warn(const struct export_ctx *ctx, const char *fmt, ...);

/*
 * Whether the thread selection keeps thread @t (NULL: not known): every
 * thread, the drainer included, when none was given.
 */
bool export_task_kept(const struct export_ctx *ctx, const struct task *t);

/* The start of the recording in CLOCK_REALTIME seconds (0 if unknown). */
int64_t export_start_time(const struct export_ctx *ctx);

#endif /* SCHEDREC_EXPORT_H */
