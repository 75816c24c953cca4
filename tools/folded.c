// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec report folded: on-CPU and off-CPU time per thread as folded
 * stacks, one line per stack with its time in microseconds, the input
 * FlameGraph's flamegraph.pl takes (--countname=us):
 *
 *	app-4242;worker 4243;on-CPU 1200
 *	app-4242;worker 4243;off-CPU;S;do_nanosleep;hrtimer_nanosleep 8800
 *
 * The lines are counted by foldstack.c; this prints them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flame.h"
#include "flamegraph.h"
#include "foldstack.h"
#include "ksyms.h"
#include "report.h"
#include "table.h"
#include "toolerr.h"

enum {
	OPT_NO_IDS = REPORT_OPT_BASE,
	OPT_PALETTE,
};

struct folded {
	struct report_ctx *ctx;
	struct foldstack *fs;
	struct ksyms *ks;
	bool no_ids;
	const char *palette;	/* --palette FILE, or NULL */
};

static int folded_parse(void *priv, const struct report_ctx *ctx, int key,
			const char *arg)
{
	struct folded *fo = priv;

	(void)ctx;
	if (key == OPT_NO_IDS)
		fo->no_ids = true;
	else if (key == OPT_PALETTE)
		fo->palette = arg;
	else
		return -EINVAL;
	return 0;
}

static int folded_start(void *priv, struct report_ctx *ctx)
{
	struct folded *fo = priv;

	if (fo->no_ids && ctx->csv) {
		report_usage_error(&folded_report,
				   "--no-ids is for the folded lines: the CSV has the pid and tid in columns of their own");
		return -EINVAL;
	}
	fo->ctx = ctx;
	fo->fs = foldstack_new(ctx->front.model, ctx->front.info, &ctx->front.sel);
	return fo->fs ? 0 : -ENOMEM;
}

/* Microseconds, rounded to the nearest. */
static uint64_t to_us(uint64_t ns)
{
	return ns / 1000 + (ns % 1000 >= 500);
}

static int print_folded(FILE *out, const struct fold_line *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t us = to_us(lines[i].ns);

		if (us)
			fprintf(out, "%s %" PRIu64 "\n", lines[i].stack, us);
	}
	return stream_error(out);
}

/* The kernel frames of a line: what follows "off-CPU;STATE;". */
static const char *kernel_part(const struct fold_line *l)
{
	const char *p = l->stack;
	unsigned int semicolons = 0;

	if (!l->entry->state)
		return "";
	for (; *p; p++)
		if (*p == ';' && ++semicolons == FOLD_TASK_FRAMES + 2)
			return p + 1;
	return "";
}

/*
 * The process's name as its frame has it, the leader's name then: lines
 * that differ only in it (the leader renamed) are rows that differ only
 * in it.  Empty if not known.
 */
static void process_cell(struct table *tab, const struct fold_entry *e)
{
	char name[SCHEDREC_COMM_LEN + 1] = "";

	if (e->process)
		memcpy(name, e->process, strnlen(e->process,
						 SCHEDREC_COMM_LEN));
	table_str(tab, name);
}

static int print_csv(struct report_ctx *ctx, const struct fold_line *lines,
		     size_t n)
{
	struct table *tab = table_new();
	char state[2] = "";
	size_t i;
	int ret;

	if (!tab)
		return -ENOMEM;
	table_column(tab, "PID", "pid", TABLE_RIGHT);
	table_column(tab, "PROCESS", "process", TABLE_LEFT);
	table_column(tab, "TID", "tid", TABLE_RIGHT);
	table_column(tab, "COMM", "comm", TABLE_LEFT);
	table_column(tab, "KIND", "kind", TABLE_LEFT);
	table_column(tab, "STATE", "state", TABLE_LEFT);
	table_column(tab, "KERNEL STACK", "kernel_stack", TABLE_LEFT);
	table_column(tab, "TIME", "time_ns", TABLE_RIGHT);
	for (i = 0; i < n; i++) {
		const struct fold_entry *e = lines[i].entry;

		table_row(tab);
		report_cell_pid(tab, e->task);
		process_cell(tab, e);
		table_u64(tab, e->task->tid);
		table_str(tab, report_comm(e->task));
		table_str(tab, e->state ? FOLD_OFFCPU : FOLD_ONCPU);
		state[0] = e->state;
		table_str(tab, state);
		table_str(tab, kernel_part(&lines[i]));
		table_duration(tab, lines[i].ns);
	}
	ret = report_table_out(ctx, tab, true);
	table_free(tab);
	return ret;
}

/* Say on stderr what stands in the way of naming kernel frames. */
static void warn_names(const struct folded *fo)
{
	const struct report_ctx *ctx = fo->ctx;
	char warning[1024];

	report_loss_warning(ctx, warning, sizeof(warning));
	if (warning[0])
		fprintf(stderr, "schedrec report: %s\n", warning);
	if (ctx->front.quiet || !foldstack_has_stacks(fo->fs))
		return;
	if (!ctx->front.info->kallsyms_len)
		fprintf(stderr, "schedrec report: warning: %s has kernel stacks but no kallsyms snapshot: their frames are hex addresses\n",
			ctx->front.path);
	else if (ksyms_hidden(fo->ks))
		fprintf(stderr, "schedrec report: warning: %s: the kernel hid its symbol addresses from the recording (kptr_restrict): kernel frames are hex addresses\n",
			ctx->front.path);
}

/* A frame name and how it is drawn, for the palette */
struct paint {
	const char *name;
	size_t len;
	enum flame_heat heat;
};

static int compare_paints(const void *a, const void *b)
{
	const struct paint *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int ret = memcmp(x->name, y->name, n);

	if (ret)
		return ret;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (int)x->heat - (int)y->heat;
}

/*
 * The palette flamegraph.pl --cp reads (palette.map): a line per frame
 * name, "NAME->rgb(R,G,B)", sorted, in the colours report flame draws
 * (a name seen grey and hot or cold: grey, then hot).  A name with "->"
 * in it is left out: flamegraph.pl splits a line at the first.
 */
static int write_palette(struct folded *fo, const struct fold_line *lines,
			 size_t n)
{
	struct paint *v = NULL, *grown;
	size_t nr = 0, cap = 0, i, frame;
	const char *p, *end;
	char name[1024];
	uint32_t rgb;
	FILE *f;
	int ret = 0;

	for (i = 0; i < n; i++) {
		/* as report flame draws it (flame.c) */
		struct flame_line fl = {
			.neutral = FOLD_TASK_FRAMES,
			.cold = lines[i].entry->state != 0,
		};

		for (p = lines[i].stack, frame = 0; *p; frame++) {
			end = strchr(p, ';');
			if (!end)
				end = p + strlen(p);
			if (nr == cap) {
				cap = cap ? 2 * cap : 256;
				grown = realloc(v, cap * sizeof(*v));
				if (!grown) {
					free(v);
					return -ENOMEM;
				}
				v = grown;
			}
			v[nr++] = (struct paint){
				.name = p, .len = end - p,
				.heat = flame_frame_heat(&fl, frame),
			};
			p = *end ? end + 1 : end;
		}
	}
	if (nr)
		qsort(v, nr, sizeof(*v), compare_paints);
	f = fopen(fo->palette, "w");
	if (!f) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		if (i && v[i].len == v[i - 1].len &&
		    !memcmp(v[i].name, v[i - 1].name, v[i].len))
			continue;	/* the name again */
		snprintf(name, sizeof(name), "%.*s", (int)v[i].len, v[i].name);
		if (strstr(name, "->"))
			continue;	/* flamegraph.pl would split it there */
		rgb = flamegraph_colour(name, v[i].heat);
		fprintf(f, "%s->rgb(%u,%u,%u)\n", name, rgb >> 16,
			rgb >> 8 & 0xff, rgb & 0xff);
	}
	ret = stream_error(f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		unlink(fo->palette);
out:
	free(v);
	if (ret) {
		tool_error("report", ret, "cannot write the palette %s",
			   fo->palette);
		fo->ctx->said = true;
	}
	return ret;
}

static int folded_output(void *priv, struct report_ctx *ctx)
{
	struct folded *fo = priv;
	struct fold_line *lines;
	long n;
	int ret;

	if (foldstack_failed(fo->fs))
		return -ENOMEM;
	fo->ks = ksyms_parse(ctx->front.info->kallsyms, ctx->front.info->kallsyms_len);
	if (!fo->ks)
		return -ENOMEM;
	warn_names(fo);
	n = foldstack_lines(fo->fs, fo->ks, !fo->no_ids, &lines);
	if (n < 0)
		return n;
	if (ctx->csv)
		ret = print_csv(ctx, lines, n);
	else
		ret = print_folded(ctx->out, lines, n);
	if (!ret && ctx->svg_path)
		ret = flame_draw_svg(ctx, lines, n);
	if (!ret && fo->palette)
		ret = write_palette(fo, lines, n);
	return ret;
}

static void folded_free(void *priv)
{
	struct folded *fo = priv;

	foldstack_free(fo->fs);
	ksyms_free(fo->ks);
}

static const struct optspec folded_options[] = {
	{ "cpu", 0, required_argument, "CPU",
	  "on-CPU time on those CPUs, and off-CPU intervals that "
	  "began with a switch-out on one of them\n" },
	{ "no-ids", OPT_NO_IDS, no_argument, NULL,
	  "process and thread frames without pid and tid (app;worker;...), "
	  "so that two recordings' lines match (difffolded.pl); lines "
	  "that are then equal are one\n" },
	{ "palette", OPT_PALETTE, required_argument, "FILE",
	  "also write FILE, a palette.map for flamegraph.pl --cp: these "
	  "frames in report flame's hot/cold colours\n" },
	{ 0 },
};

const struct report folded_report = {
	.name = "folded",
	.summary = "on-CPU and off-CPU time as folded stacks, for flamegraph.pl",
	.help =
	"On-CPU and off-CPU time of each thread in the window as folded\n"
	"stacks: one line per stack, its frames root first separated by ';',\n"
	"then a space and the time in microseconds, which is what FlameGraph's\n"
	"flamegraph.pl reads (flamegraph.pl --countname=us in.folded):\n"
	"\n"
	"  PROCESS;THREAD;on-CPU US\n"
	"  PROCESS;THREAD;off-CPU;STATE[;KERNEL FRAMES...] US\n"
	"\n"
	"  PROCESS  the process: its leader's name then (the last it had if\n"
	"           it has exited) and its pid, app-4242 (\"pid 4242\" if the\n"
	"           leader's name is not known, \"pid ?\" if the process is not)\n"
	"  THREAD   the thread: its name then and its tid, \"worker 4243\"; a\n"
	"           thread renamed shows under each name\n"
	"  STATE    the state at switch-out: R, S, D, I, another letter, or ?\n"
	"           (off CPU since before the recording)\n"
	"  KERNEL FRAMES  when the trace has kernel stacks (the stack event),\n"
	"           the kernel functions the thread left the CPU from, the\n"
	"           outermost first (entry_SYSCALL_64;...;do_nanosleep), named\n"
	"           from the trace's kallsyms snapshot, without the scheduler's\n"
	"           own frames (__schedule and what called it for every\n"
	"           sleep); hex addresses if the snapshot is missing or hidden,\n"
	"           [unknown] for an address no symbol covers\n"
	"\n"
	"The values are time, as in states: intervals clipped to the window,\n"
	"censored pieces (cut by an edge of the recording or of --range)\n"
	"included.  Each line's nanoseconds are summed, then rounded to the\n"
	"nearest microsecond; lines that round to 0 are left out.  Lines are\n"
	"sorted by their text (bytes), and in names ';' becomes ':' and\n"
	"control characters '?'.  The idle task is not a thread: not shown.\n"
	"Nothing else is printed on stdout (the loss warning goes to stderr).\n"
	"--top does not apply: every line is printed.\n",
	.options = folded_options,
	.parse = folded_parse,
	.notes =
	"CSV (--csv): a row per line, with exact nanoseconds:\n"
	"  pid process     the process: its pid, and its leader's name then\n"
	"                  (empty if not known)\n"
	"  tid comm        the thread (under its name then)\n"
	"  kind            on-CPU or off-CPU\n"
	"  state           the state at switch-out (empty on CPU)\n"
	"  kernel_stack    the kernel frames, outermost first, ';' between\n"
	"  time_ns         the time\n"
	"\n"
	"Chart (--svg): the lines drawn as one hot/cold flame graph, as\n"
	"schedrec report flame draws it.\n",
	.examples =
	"  schedrec report folded run.srec --pid 4242 > hotcold.folded\n"
	"  schedrec report folded run.srec --no-ids --palette palette.map > run.folded\n"
	"  schedrec report folded run.srec --range 12.5:13 --csv\n",
	.priv_size = sizeof(struct folded),
	.start = folded_start,
	.output = folded_output,
	.free = folded_free,
};
