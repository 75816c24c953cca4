/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one pass of `schedrec report` and `schedrec export`: every record of
 * the trace, in time order, through the model, up to the end of its window,
 * then the model finished at the end of the recording.  A front that wants
 * the records themselves too hooks in before or after the model sees each.
 */
#ifndef SCHEDREC_TRACEPASS_H
#define SCHEDREC_TRACEPASS_H

#include "schedmodel.h"
#include "srecreader.h"

/*
 * Open the trace @paths[0] for `schedrec VERB`, the files @paths[1..n-1]
 * following it as the rest of its rotation (srecreader_add_file()).  NULL
 * after saying why on stderr, the file named once; errno is set.
 */
struct srecreader *trace_open(const char *verb, char *const *paths,
			      unsigned int n,
			      const struct srecreader_options *opt);

/* The file @r reads now, of @paths (@r may be NULL: the first). */
const char *trace_path(const struct srecreader *r, char *const *paths);

struct trace_pass_hooks {
	/*
	 * Called for every record before the model sees it; a non-zero
	 * return stops the pass and is returned.  NULL: none.
	 */
	int (*before)(void *arg, const struct srec_record *rec);
	/*
	 * Called once the model took a record of the window (records past
	 * its end are not: the pass stops there).  As above.
	 */
	int (*after)(void *arg, const struct srec_record *rec);
	void *arg;
};

/*
 * Read what is left of @r into @m, then schedmodel_finish() it at the end
 * of the recording (the trailer's end, the last record's time, or the end
 * of the window if the pass stopped there).  Returns 0, the reader's or
 * the model's -errno (the model is finished all the same: what was read
 * can be reported), or what a hook returned.  Without hooks, and with a
 * CPU free for it (fewer tasks runnable than the CPUs this one may use;
 * or SCHEDREC_THREADS above 1), another thread reads @r while this one
 * runs @m: @r is the other thread's until this returns, and is
 * read no further than in one thread.  Meanwhile each thread runs on its
 * own share of the CPUs this one may use; this one has them all back
 * when it returns.
 */
int trace_pass(struct srecreader *r, struct schedmodel *m,
	       const struct trace_pass_hooks *hooks);

/*
 * The records of @r are over (the last at @last_ts), or @m's window is
 * (@last_ts its end): schedmodel_finish() @m at the end of the recording,
 * the trailer's if it has one, or of the window; in a file without a
 * trailer (cut short), each CPU's records end where the file holds them
 * all (schedmodel_cpu_complete_until()), which a window that stopped the
 * pass early can reach when the input was over before it stopped (as it
 * is by then, unless the reader held more than its max_buffered).
 */
void trace_finish(const struct srecreader *r, struct schedmodel *m,
		  uint64_t last_ts);

#endif /* SCHEDREC_TRACEPASS_H */
