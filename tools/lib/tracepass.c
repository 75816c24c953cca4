// SPDX-License-Identifier: GPL-2.0
/* The one pass over a trace's records; see tracepass.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tracepass.h"

struct srecreader *trace_open(const char *verb, char *const *paths,
			      unsigned int n,
			      const struct srecreader_options *opt)
{
	struct srecreader *r;
	char err[512];
	size_t len = strlen(paths[0]);
	unsigned int i;

	r = srecreader_open(paths[0], opt, err, sizeof(err));
	if (!r) {
		int saved = errno;

		fprintf(stderr, "schedrec %s: %s%s%s\n", verb,
			strncmp(err, paths[0], len) ? paths[0] : "",
			strncmp(err, paths[0], len) ? ": " : "", err);
		errno = saved;
		return NULL;
	}
	for (i = 1; i < n; i++) {
		if (srecreader_add_file(r, paths[i])) {
			fprintf(stderr, "schedrec %s: no memory\n", verb);
			srecreader_close(r);
			errno = ENOMEM;
			return NULL;
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
