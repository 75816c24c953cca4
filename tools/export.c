// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec export: the verb.  Parses the options, reads the trace once
 * through the model and lets the chosen format write; the formats
 * themselves are one file each (export.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "export.h"
#include "front.h"
#include "toolerr.h"
#include "tracepass.h"
#include "verbs.h"

static const struct export_format *const formats[] = {
	&perfetto_export,
	&schedlog_export,
	&csv_export,
	&openmetrics_export,
};

/* The options of every format beside the front's (front.h) */
static const struct optspec output_options[] = {
	{ "output", 'o', required_argument, "FILE",
	  "write to FILE (replaced if it exists); - for standard "
	  "output\n" },
	{ "cpu", FRONT_OPT_CPU, required_argument, "CPU[,CPU]",
	  "only these CPUs (0-3,8 for ranges)\n" },
	{ 0 },
};

/* The options of every format, in the order --help lists them */
static const struct optspec *const common_options[] = {
	output_options, front_select_options, front_reading_options, NULL,
};

/* What --help says of every format after their options */
static const char common_help[] =
	"\n"
	FRONT_HELP_COMBINE
	"Without --pid, --tid or --comm every thread is exported, the drainer\n"
	"(schedrec record itself) included; with them, the drainer only if\n"
	"--pid or --tid names it.  doc/export.md describes each format.\n"
	"\n"
	"Exit status: 0 done; 1 the trace is cut short or damaged (truncated,\n"
	"no trailer, corrupt sections skipped, totals in the trailer that the\n"
	"records do not match, a read error, a corrupt chunk with --strict):\n"
	"what could be read is exported; 2 a usage error; 3 the trace cannot\n"
	"be read or the output cannot be written.\n";

static void print_common(FILE *f)
{
	fprintf(f, "Options:\n");
	optspec_help(f, common_options);
	fputs(common_help, f);
}

static void print_list(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: schedrec export FORMAT TRACE... [-o FILE] [OPTIONS]\n"
		"       schedrec export FORMAT --help\n"
		"\n"
		"Write a trace recorded by schedrec record in the format of another\n"
		"tool.  TRACE is a .srec file, or - for standard input; the files\n"
		"of a rotation (schedrec record --rotate), given in the order they\n"
		"were written, are one recording.\n"
		"\n"
		"Formats:\n");
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		fprintf(f, "  %-11s %s\n", formats[i]->name,
			formats[i]->summary);
	fprintf(f, "\nEvery format needs -o FILE but");
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i]->stdout_default)
			fprintf(f, " %s", formats[i]->name);
	fprintf(f, ", which writes to standard output\nwithout it.\n");
	fputc('\n', f);
	print_common(f);
	fprintf(f, "\nExamples:\n");
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		fputs(formats[i]->examples, f);
}

static void print_help(const struct export_format *fmt, FILE *f)
{
	const struct optspec *const own[] = { fmt->options, NULL };

	fprintf(f, "usage: schedrec export %s TRACE... %s [OPTIONS]\n\n%s\n",
		fmt->name, fmt->stdout_default ? "[-o FILE]" : "-o FILE",
		fmt->help);
	if (fmt->options) {
		fprintf(f, "Options of this format:\n");
		optspec_help(f, own);
		fputc('\n', f);
	}
	print_common(f);
	fprintf(f, "\nExamples:\n%s", fmt->examples);
}

void export_warn(const struct export_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->front.quiet)
		return;
	fprintf(stderr, "schedrec export: warning: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int64_t export_start_time(const struct export_ctx *ctx)
{
	return ctx->front.info->file.start_real_ns / 1000000000ull;
}

static const struct export_format *find_format(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The pass: each record with the threads it is about */

struct pass {
	struct export_ctx *ctx;
	const struct export_format *fmt;
	void *priv;
	uint32_t tids[2];
	struct task *subject[2];
	struct task stand_in[2];
	int error;			/* the format's, -errno */
};

static bool is_task_record(unsigned int type)
{
	return type == SCHEDREC_EV_FORK || type == SCHEDREC_EV_EXEC ||
	       type == SCHEDREC_EV_EXIT || type == SCHEDREC_EV_RENAME;
}

/* The tids @hdr is about, 0 for none (or the idle task). */
static void tids_of(const struct schedrec_header *hdr, uint32_t tids[2])
{
	const struct schedrec_switch *sw = (const void *)hdr;
	const struct schedrec_wakeup *wk = (const void *)hdr;
	const struct schedrec_migrate *mg = (const void *)hdr;
	const struct schedrec_task *tk = (const void *)hdr;

	tids[0] = 0;
	tids[1] = 0;
	switch (hdr->type) {
	case SCHEDREC_EV_SWITCH:
		tids[0] = sw->prev_tid;
		tids[1] = sw->next_tid;
		break;
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		tids[0] = wk->tid;
		break;
	case SCHEDREC_EV_MIGRATE:
		tids[0] = mg->tid;
		break;
	default:
		if (is_task_record(hdr->type))
			tids[0] = tk->tid;
		break;
	}
}

/*
 * Before the model: who the threads are now.  A switch's prev may be
 * dying (the model forgets it), so its name is taken before.
 */
static int pass_before(void *arg, const struct srec_record *rec)
{
	struct pass *p = arg;
	int i;

	tids_of(rec->hdr, p->tids);
	for (i = 0; i < 2; i++)
		p->subject[i] = p->tids[i] && !is_task_record(rec->hdr->type) ?
				schedmodel_task_of(p->ctx->front.model, p->tids[i]) :
				NULL;
	return 0;
}

/* A task for a thread the model does not know: its tid, maybe more. */
static struct task *stand_in(struct pass *p, int i,
			     const struct schedrec_header *hdr)
{
	const struct schedrec_task *tk = (const void *)hdr;
	struct task *t = &p->stand_in[i];
	uint32_t drainer = p->ctx->front.info->file.drainer_pid;

	memset(t, 0, sizeof(*t));
	t->tid = p->tids[i];
	t->selected = -1;
	if (is_task_record(hdr->type)) {
		t->tgid = tk->tgid;
		memcpy(t->comm, tk->comm, SCHEDREC_COMM_LEN);
	}
	t->drainer = drainer && t->tgid == drainer;
	return t;
}

bool export_task_kept(const struct export_ctx *ctx, const struct task *t)
{
	return !ctx->front.select_threads ||
	       (t && select_task(&ctx->front.sel, (struct task *)t));
}

static bool selected(struct pass *p)
{
	bool about_threads = false;
	int i;

	if (!p->ctx->front.select_threads)
		return true;
	for (i = 0; i < 2; i++) {
		if (!p->tids[i])
			continue;
		about_threads = true;
		if (export_task_kept(p->ctx, p->subject[i]))
			return true;
	}
	/* LOST and records of unknown types are about no thread: kept */
	return !about_threads;
}

/* After the model: new threads are known now; hand the record over. */
static int pass_after(void *arg, const struct srec_record *rec)
{
	struct pass *p = arg;
	struct export_record er = { .rec = rec };
	uint64_t start, end;
	int i;

	schedmodel_window_abs(p->ctx->front.model, &start, &end);
	if (rec->hdr->ts < start)
		return 0;
	for (i = 0; i < 2; i++) {
		if (!p->tids[i])
			continue;
		if (!p->subject[i])
			p->subject[i] = schedmodel_task_of(p->ctx->front.model,
							   p->tids[i]);
		if (!p->subject[i])
			p->subject[i] = stand_in(p, i, rec->hdr);
		er.subject[i] = p->subject[i];
	}
	if (!selected(p))
		return 0;
	er.rel_ns = schedmodel_rel(p->ctx->front.model, rec->hdr->ts);
	p->error = p->fmt->record(p->priv, p->ctx, &er);
	return p->error;
}

/* ------------------------------------------------------------------ */

/* -o FILE.gz: a stream that writes through gzip */
static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
	int n = size ? gzwrite(cookie, buf, size) : 0;

	if (size && n <= 0) {
		gzerror(cookie, &n);
		if (n != Z_ERRNO)
			errno = EIO;
		return -1;
	}
	return n;
}

static int gz_close(void *cookie)
{
	int ret = gzclose(cookie);

	if (ret == Z_OK)
		return 0;
	if (ret != Z_ERRNO)
		errno = EIO;
	return -1;
}

/* A stream that gzips what is written to it into @fd; it owns @fd. */
static FILE *gz_stream(int fd)
{
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	gzFile gz = gzdopen(fd, "wb");
	FILE *f;

	if (!gz) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	f = fopencookie(gz, "w", io);
	if (!f) {
		gzclose(gz);
		errno = ENOMEM;
	}
	return f;
}

/* Open ctx->out_path; EXIT_OK, or an exit status after a message. */
static int open_output(const struct export_format *fmt,
		       struct export_ctx *ctx)
{
	const struct front *fr = &ctx->front;
	struct stat st;
	int fd;

	if (!strcmp(ctx->out_path, "-")) {
		if (fmt->binary && isatty(STDOUT_FILENO)) {
			front_usage_error(fr, "will not write a binary archive to a terminal: redirect standard output, or give -o FILE");
			return EXIT_USAGE;
		}
		ctx->out = stdout;
		return EXIT_OK;
	}
	if (front_output_is_input(fr, "-o", ctx->out_path))
		return EXIT_USAGE;
	fd = open(ctx->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  0666);
	if (fd < 0) {
		tool_error("export", errno, "cannot write %s", ctx->out_path);
		return EXIT_FAIL;
	}
	/* never remove what is not a file of ours (-o /dev/null) */
	ctx->out_is_file = !fstat(fd, &st) && S_ISREG(st.st_mode);
	if (str_ends_with(ctx->out_path, ".gz")) {
		ctx->out = gz_stream(fd);
	} else {
		ctx->out = fdopen(fd, "w");
		if (!ctx->out)
			close(fd);
	}
	if (!ctx->out) {
		tool_error("export", errno, "cannot write %s", ctx->out_path);
		if (ctx->out_is_file)
			unlink(ctx->out_path);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * Close the output; EXIT_FAIL if it failed.  No file is left after a
 * failure or a usage error.
 */
static int close_output(struct export_ctx *ctx, int status, int err)
{
	bool is_stdout = ctx->out == stdout;
	int flushed;

	if (!ctx->out)
		return status;
	/*
	 * A usage error found once the pass began (--range past the end)
	 * writes nothing: what stdio still holds of the output (a header)
	 * is dropped, as a file is removed.
	 */
	if (status == EXIT_USAGE)
		__fpurge(ctx->out);
	flushed = front_flush_error(ctx->out);
	if (!err)
		err = flushed;
	if (!is_stdout && fclose(ctx->out) && !err)
		err = -errno;
	ctx->out = NULL;
	if (err && err != -EPIPE && err != -ECANCELED)
		tool_error("export", err, "cannot write %s",
			   is_stdout ? "standard output" : ctx->out_path);
	if (err)
		status = EXIT_FAIL;
	if ((status == EXIT_FAIL || status == EXIT_USAGE) && ctx->out_is_file)
		unlink(ctx->out_path);
	return status;
}

static int run_export(const struct export_format *fmt,
		      struct export_ctx *ctx, void *priv)
{
	struct front *fr = &ctx->front;
	struct pass pass = { .ctx = ctx, .fmt = fmt, .priv = priv };
	struct trace_pass_hooks hooks = {
		.before = pass_before, .after = pass_after, .arg = &pass,
	};
	int ret, status;

	status = front_open(fr);
	if (status)
		return status;
	status = open_output(fmt, ctx);
	if (status)
		return status;
	ret = fmt->start(priv, ctx);
	if (ret == -EINVAL)	/* a usage error, said */
		return close_output(ctx, EXIT_USAGE, 0);
	if (ret)
		return close_output(ctx, EXIT_FAIL, ret);
	ret = trace_pass(ctx->front.reader, ctx->front.model,
			 fmt->record && !ctx->no_records ? &hooks : NULL);
	front_pass_over(fr);
	if (ret && pass.error)
		return close_output(ctx, EXIT_FAIL, pass.error);
	if (ret == -ENOMEM) {
		tool_error("export", ret, "cannot read %s", ctx->front.path);
		return close_output(ctx, EXIT_FAIL, 0);
	}
	if (!ret && front_window_after_end(fr))
		return close_output(ctx, EXIT_USAGE, 0);
	status = front_pass_status(fr, ret, "exporting");
	ret = fmt->finish(priv, ctx);
	return close_output(ctx, ret ? EXIT_FAIL : status, ret);
}

int cmd_export(int argc, char **argv)
{
	struct export_ctx ctx = { .front.verb = "export" };
	const struct export_format *fmt;
	struct option *opts;
	void *priv = NULL;
	char shortopts[32];
	int key, ret, status = EXIT_USAGE;

	if (argc < 2) {
		print_list(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_list(stdout);
		return EXIT_OK;
	}
	fmt = find_format(argv[1]);
	if (!fmt) {
		fprintf(stderr, "schedrec export: unknown format '%s'; the formats are:",
			argv[1]);
		for (key = 0; key < (int)ARRAY_SIZE(formats); key++)
			fprintf(stderr, " %s", formats[key]->name);
		fprintf(stderr, " (schedrec export --help says what each writes)\n");
		return EXIT_USAGE;
	}
	ctx.front.name = fmt->name;
	priv = calloc(1, fmt->priv_size ? fmt->priv_size : 1);
	opts = front_getopt(common_options, fmt->options, shortopts,
			    sizeof(shortopts));
	if (!priv || !opts) {
		free(priv);
		free(opts);
		tool_error("export", ENOMEM, "cannot start");
		return EXIT_FAIL;
	}
	argc--;
	argv++;
	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (key == 'h') {
			print_help(fmt, stdout);
			status = EXIT_OK;
			goto out;
		}
		ret = front_parse(&ctx.front, key, argv);
		if (ret == -ENOENT && key == 'o') {
			ctx.out_path = optarg;
			ret = 0;
		} else if (ret == -ENOENT) {
			ret = fmt->parse ? fmt->parse(priv, key, optarg) :
					   -EINVAL;
		}
		if (ret)
			goto out;
	}
	if (front_paths(&ctx.front, argc, argv))
		goto out;
	ctx.front.select_threads = ctx.front.select_threads;
	if (!ctx.out_path && fmt->stdout_default)
		ctx.out_path = "-";
	if (!ctx.out_path) {
		front_usage_error(&ctx.front, "where to? give -o FILE (or -o - for standard output)");
		goto out;
	}
	ctx.front.streams = !strcmp(ctx.out_path, "-");
	ctx.front.paths = ctx.front.paths;
	ctx.front.nr_paths = ctx.front.nr_paths;
	ctx.front.path = ctx.front.paths[0];
	status = run_export(fmt, &ctx, priv);
out:
	if (fmt->free)
		fmt->free(priv);
	free(priv);
	free(opts);
	schedmodel_free(ctx.front.model);
	if (ctx.front.reader)
		srecreader_close(ctx.front.reader);
	select_free(&ctx.front.sel);
	return status;
}
