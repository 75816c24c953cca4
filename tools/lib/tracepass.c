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

int trace_pass(struct srecreader *r, struct schedmodel *m,
	       const struct trace_pass_hooks *hooks)
{
	const struct srec_trailer_head *trailer;
	const struct srec_cpu_total *totals;
	struct srec_record rec;
	uint64_t end = 0, start, win_end;
	bool early = false;
	int ret;

	while ((ret = srecreader_next(r, &rec)) > 0) {
		if (hooks && hooks->before) {
			ret = hooks->before(hooks->arg, &rec);
			if (ret)
				break;
		}
		if (rec.hdr->ts > end)
			end = rec.hdr->ts;
		ret = schedmodel_record(m, &rec);
		if (ret < 0)
			break;
		if (!ret) {
			early = true;
			break;
		}
		if (hooks && hooks->after) {
			ret = hooks->after(hooks->arg, &rec);
			if (ret)
				break;
		}
	}
	if (early) {
		/* nothing after the window matters: it ends there */
		schedmodel_window_abs(m, &start, &win_end);
		end = win_end;
	} else {
		trailer = srecreader_trailer(r, &totals);
		if (trailer && trailer->end_mono_ns > end)
			end = trailer->end_mono_ns;
	}
	schedmodel_finish(m, end);
	return ret;
}
