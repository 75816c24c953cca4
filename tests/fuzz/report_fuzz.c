// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the reports (tools/) and their model (tools/lib):
 * one report of `schedrec report` run on the input's trace, read in
 * memory, as tools/report.c runs it (start, the one pass through the
 * model, the status of what was read, output), its text or CSV and its
 * chart written to a stream that drops them.  Nothing touches a file.
 *
 * The control byte (srecfuzz.h): bits 0-2 the report (offcpu, tenancy,
 * states, latency, heatmap, timeline, folded, flame: html writes a
 * directory and is left out), bit 3 --csv, bit 4 --svg, bit 5 --top 0
 * (every row), bit 6 --strict, bit 7 --cpu 0-1 --pid 100,200.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "srecfuzz.h"
#include "tracepass.h"

static const struct report *const reports[8] = {
	&offcpu_report, &tenancy_report, &states_report, &latency_report,
	&heatmap_report, &timeline_report, &folded_report, &flame_report,
};

static char *const paths[] = { (char *)"fuzz.srec" };

/* Where the output goes: formatted, then dropped. */
static ssize_t drop_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	(void)buf;
	return size;
}

static FILE *drop_stream(void)
{
	cookie_io_functions_t io = { .write = drop_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		abort();
	return f;
}

static FILE *out;

/* The reader's diagnostics are strings: ASan checks they are. */
static void diag(void *arg, enum srec_diag_level level, uint64_t offset,
		 const char *msg)
{
	size_t *said = arg;

	(void)level;
	(void)offset;
	*said += strlen(msg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	srecfuzz_init();
	/* the pass in this thread: no reader thread, no /proc/loadavg */
	setenv("SCHEDREC_THREADS", "1", 1);
	out = drop_stream();
	return 0;
}

/* bit 7: a selection of CPUs and processes, as front_open() checks it */
static int select_some(struct report_ctx *ctx, char *err, size_t size)
{
	struct front *f = &ctx->front;

	if (select_parse(&f->sel, "cpu", "0-1", err, size) ||
	    select_parse(&f->sel, "pid", "100,200", err, size))
		abort();
	f->select_threads = true;
	return select_check_cpus(&f->sel, f->info->file.nr_cpus, err, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, said = 0;
	unsigned int ctl = srecfuzz_control(data, size, &len);
	const struct report *rep = reports[ctl & 7];
	struct report_ctx ctx = {
		.front = {
			.verb = "report", .name = rep->name,
			.path = paths[0], .paths = paths, .nr_paths = 1,
			.quiet = true, .strict = ctl & 0x40,
		},
		.out = out, .csv = ctl & 0x08, .top = ctl & 0x20 ? 0 : 20,
	};
	struct srecreader_options opt = {
		.strict = ctx.front.strict, .diag = diag, .diag_arg = &said,
	};
	struct schedmodel_window window;
	char err[512];
	void *priv;
	int ret;

	priv = calloc(1, rep->priv_size ? rep->priv_size : 1);
	if (!priv)
		abort();
	if (ctl & 0x10) {
		/* /dev/null only if a report opened its chart twice */
		ctx.svg_path = "/dev/null";
		ctx.svg = drop_stream();
	}
	ctx.front.reader = srecreader_open_mem(data, len, &opt, err,
					       sizeof(err));
	if (!ctx.front.reader)
		goto out;
	ctx.front.info = srecreader_info(ctx.front.reader);
	if ((ctl & 0x80) && select_some(&ctx, err, sizeof(err)))
		goto out;
	select_window(&ctx.front.sel, &window);
	ctx.front.model = schedmodel_new(ctx.front.info, &window);
	if (!ctx.front.model)
		abort();
	ret = rep->start ? rep->start(priv, &ctx) : 0;
	if (ret)
		goto out;
	ret = trace_pass(ctx.front.reader, ctx.front.model, NULL);
	if (!ret && front_window_after_end(&ctx.front))
		goto out;
	front_pass_status(&ctx.front, ret, "reporting");
	if (ret == -ENOMEM)
		abort();
	rep->output(priv, &ctx);
	fflush(out);
out:
	clearerr(out);
	if (ctx.svg)
		fclose(ctx.svg);
	if (rep->free)
		rep->free(priv);
	free(priv);
	schedmodel_free(ctx.front.model);
	if (ctx.front.reader)
		srecreader_close(ctx.front.reader);
	select_free(&ctx.front.sel);
	return 0;
}
