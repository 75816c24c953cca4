// SPDX-License-Identifier: GPL-2.0
/* The one pass over a trace's records; see tracepass.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tracepass.h"

/* "schedrec VERB: PATH: why" (@err may name @path already); NULL, errno @e. */
static struct srecreader *open_failed(const char *verb, const char *path,
				      const char *err, int e)
{
	size_t len = strlen(path);
	bool named = !strncmp(err, path, len);

	fprintf(stderr, "schedrec %s: %s%s%s\n", verb, named ? "" : path,
		named ? "" : ": ", err);
	errno = e ? e : EIO;
	return NULL;
}

struct srecreader *trace_open(const char *verb, char *const *paths,
			      unsigned int n,
			      const struct srecreader_options *opt)
{
	struct srecreader *r;
	char err[512];
	unsigned int i;
	int ret;

	r = srecreader_open(paths[0], opt, err, sizeof(err));
	if (!r)
		return open_failed(verb, paths[0], err, errno);
	for (i = 1; i < n; i++) {
		/* standard input is read once: checked when it is reached */
		ret = strcmp(paths[i], "-") ?
		      srecreader_check_file(r, paths[i], err, sizeof(err)) : 0;
		if (!ret && srecreader_add_file(r, paths[i])) {
			snprintf(err, sizeof(err), "no memory");
			ret = -ENOMEM;
		}
		if (ret) {
			srecreader_close(r);
			return open_failed(verb, paths[i], err, -ret);
		}
	}
	return r;
}

const char *trace_path(const struct srecreader *r, char *const *paths)
{
	return paths[r ? srecreader_status(r)->file : 0];
}

/* Records read from the reader at once */
#define TRACE_PASS_BATCH	64

/* Where a pass is: the latest time seen, and why it stopped */
struct pass_state {
	uint64_t end;
	int ret;	/* what trace_pass() returns */
	bool early;	/* the window is over */
};

/* One record through the hooks and the model; false: the pass stops. */
static bool pass_record(struct schedmodel *m,
			const struct trace_pass_hooks *hooks,
			const struct srec_record *rec, struct pass_state *p)
{
	if (hooks && hooks->before) {
		p->ret = hooks->before(hooks->arg, rec);
		if (p->ret)
			return false;
	}
	if (rec->hdr->ts > p->end)
		p->end = rec->hdr->ts;
	p->ret = schedmodel_record(m, rec);
	if (p->ret <= 0) {
		p->early = !p->ret;
		return false;
	}
	if (hooks && hooks->after) {
		p->ret = hooks->after(hooks->arg, rec);
		if (p->ret)
			return false;
	}
	return true;
}

int trace_pass(struct srecreader *r, struct schedmodel *m,
	       const struct trace_pass_hooks *hooks)
{
	const struct srec_trailer_head *trailer;
	const struct srec_cpu_total *totals;
	struct srec_record recs[TRACE_PASS_BATCH];
	struct pass_state p = { 0 };
	uint64_t start, win_end, end;
	bool going = true;
	unsigned int fed;
	int n, i;

	while (going &&
	       (p.ret = n = srecreader_next_batch(r, recs, TRACE_PASS_BATCH)) >
	       0) {
		if (hooks) {
			for (i = 0; i < n && going; i++)
				going = pass_record(m, hooks, &recs[i], &p);
			continue;
		}
		/*
		 * Without hooks, the whole batch at once; the model keeps
		 * the newest time of the records it took (and
		 * schedmodel_finish() ends no earlier), so p.end need not.
		 */
		p.ret = schedmodel_records(m, recs, n, &fed);
		if (p.ret != 1) {
			p.early = !p.ret;
			going = false;
		}
	}
	end = p.end;
	if (p.early) {
		/* nothing after the window matters: it ends there */
		schedmodel_window_abs(m, &start, &win_end);
		end = win_end;
	} else {
		trailer = srecreader_trailer(r, &totals);
		if (trailer && trailer->end_mono_ns > end)
			end = trailer->end_mono_ns;
	}
	schedmodel_finish(m, end);
	return p.ret;
}
