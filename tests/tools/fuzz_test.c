// SPDX-License-Identifier: GPL-2.0
/*
 * Random recordings through every report and export.  Each case writes a
 * trace from a random description in tracegen's language: any mix of
 * records on 1 to 5 CPUs (or 9 to 12, which the reader merges with a
 * heap), tids from a small pool and at the edges of their range, reused
 * by forks and execs, dead switch-outs, a thread switched out on one CPU
 * while another runs it, switches from a thread to itself, stacks,
 * losses, gaps, filtered records, names with any byte, times equal or
 * seconds apart, with or without a trailer, types of a newer module in
 * the event table.  Such records are what a
 * damaged or crafted file holds once its checksums are right, so the
 * reports must take them.  Every report then runs on the trace
 * with each of its options, as text, CSV or SVG, and html and every
 * export, each with a random selection that applies to the trace.  Each
 * run must end by itself with 0 (1 when the trace has no trailer, unless
 * a --range ends before the reading does) and print nothing of
 * AddressSanitizer or UndefinedBehaviorSanitizer.
 *
 * make check runs build/user-tests/schedrec, built with both sanitizers
 * (SCHEDREC_ASAN_BIN); without it, the schedrec of SCHEDREC_BIN.  The
 * cases are the same every run: cases 0 to 39, case N from seed N.
 * SCHEDREC_FUZZ_FIRST=F runs cases F to F + 39 instead, to look further by
 * hand: for f in $(seq 1000 40 1960); do SCHEDREC_FUZZ_FIRST=$f ...; done
 * SCHEDREC_FUZZ_KEEP=DIR keeps each case's trace there as SEED.srec
 * (tests/compare_builds.sh runs two builds on them).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "run_util.h"
#include "uapi/schedrec.h"

#define CASES_PER_TEST	10
#define CASES_TIMEOUT	300	/* s: each run is killed after 20 */
#define MAX_POOL	16
#define MAX_ARGS	32

/* xorshift64*: the same cases on every machine. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

/* 0 .. @n - 1 (0 if @n is 0). */
static uint64_t below(uint64_t *state, uint64_t n)
{
	return n ? next_random(state) % n : 0;
}

/* True with probability @percent %. */
static bool chance(uint64_t *state, unsigned int percent)
{
	return below(state, 100) < percent;
}

/* What a case's trace holds, for choosing selections that apply to it. */
struct fuzz_trace {
	uint64_t seed;
	unsigned int nr_cpus;
	uint32_t pool[MAX_POOL];
	unsigned int nr_pool;
	uint64_t last_ns;	/* the last record's time (0: none) */
	uint64_t end_ns;	/* the recording's end */
	bool no_trailer;
	struct text desc;
};

static const uint32_t edge_tids[] = {
	1, 2, 32767, 32768, 65535, 4194303, 4194304, 2147483647, 4294967295u,
};

static const char *const states[] = {
	"R", "R0", "S", "D", "I", "T", "t", "P", "Z", "X",
	"0x402", "0x80", "0xffff", "0x1000", "0x8000", "0x7fffffff",
};

/* A name: printable bytes mostly, some any byte but 0, some markup. */
static void add_comm(struct fuzz_trace *f, uint64_t *st)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz-_/:0123456789";
	static const char markup[] = "<>&\"';,%";
	unsigned int n = 1 + below(st, 15), i;

	text_add(&f->desc, " ", 1);
	for (i = 0; i < n; i++) {
		unsigned int kind = below(st, 10);

		if (kind < 8)
			text_printf(&f->desc, "%c",
				    plain[below(st, sizeof(plain) - 1)]);
		else if (kind < 9)
			text_printf(&f->desc, "\\x%02x",
				    (unsigned int)(1 + below(st, 255)));
		else
			text_printf(&f->desc, "%c",
				    markup[below(st, sizeof(markup) - 1)]);
	}
}

/* A tid of the pool, now and then 0 (the idle task). */
static uint32_t any_tid(const struct fuzz_trace *f, uint64_t *st)
{
	return chance(st, 10) ? 0 : f->pool[below(st, f->nr_pool)];
}

static void add_switch(struct fuzz_trace *f, uint64_t *st, uint64_t ts,
		       unsigned int cpu, const uint64_t *ksyms,
		       unsigned int nr_ksyms)
{
	uint32_t prev = any_tid(f, st), next = any_tid(f, st);
	unsigned int depth, i;

	if (chance(st, 5))
		next = prev;	/* a switch to itself: no kernel writes it */
	if (prev && chance(st, 10)) {
		depth = below(st, 6);
		text_printf(&f->desc, "%" PRIu64 "ns cpu%u stack %u ", ts,
			    cpu, prev);
		for (i = 0; i < depth; i++)
			text_printf(&f->desc, "%s%" PRIx64, i ? "," : "",
				    (uint64_t)(nr_ksyms ?
					       ksyms[below(st, nr_ksyms)] :
					       0xffffffff81000000ull) +
				    below(st, 64));
		text_printf(&f->desc, "%s\n", depth ? "" : "-");
	}
	text_printf(&f->desc, "%" PRIu64 "ns cpu%u switch %u %s %u", ts, cpu,
		    prev, states[below(st, ARRAY_SIZE(states))], next);
	if (chance(st, 10))
		text_printf(&f->desc, " prio %u %u",
			    (unsigned int)below(st, 140),
			    (unsigned int)below(st, 140));
	text_add(&f->desc, "\n", 1);
}

static void add_wakeup(struct fuzz_trace *f, uint64_t *st, uint64_t ts,
		       unsigned int cpu)
{
	static const char *const kinds[] = { "waking", "wakeup", "wakeup_new" };

	text_printf(&f->desc, "%" PRIu64 "ns cpu%u %s %u", ts, cpu,
		    kinds[below(st, ARRAY_SIZE(kinds))], any_tid(f, st));
	if (chance(st, 30))
		text_printf(&f->desc, " waker %u", any_tid(f, st));
	if (chance(st, 10))
		text_add(&f->desc, " irq", 4);
	if (chance(st, 50))
		text_printf(&f->desc, " target %u",
			    (unsigned int)below(st, f->nr_cpus));
	text_add(&f->desc, "\n", 1);
}

/* A task event: fork, exec, exit or rename, with a name. */
static void add_task(struct fuzz_trace *f, uint64_t *st, uint64_t ts,
		     unsigned int cpu)
{
	unsigned int kind = below(st, 4);
	uint32_t tid = any_tid(f, st), tgid = any_tid(f, st);

	if (kind == 0)
		text_printf(&f->desc, "%" PRIu64 "ns cpu%u fork %u %u %u", ts,
			    cpu, tid, tgid, any_tid(f, st));
	else if (kind == 1)
		text_printf(&f->desc, "%" PRIu64 "ns cpu%u exec %u %u %u", ts,
			    cpu, tid, tgid, any_tid(f, st));
	else
		text_printf(&f->desc, "%" PRIu64 "ns cpu%u %s %u %u", ts, cpu,
			    kind == 2 ? "exit" : "rename", tid, tgid);
	add_comm(f, st);
	text_add(&f->desc, "\n", 1);
}

/*
 * Losses: a LOST record, numbers skipped silently, or filtered; whether
 * it wrote a record (gap and filter write none).
 */
static bool add_loss(struct fuzz_trace *f, uint64_t *st, uint64_t ts,
		     unsigned int cpu)
{
	uint64_t first = below(st, ts + 1), last;
	unsigned int kind = below(st, 3);

	last = first + below(st, ts - first + 1);
	if (kind == 0)
		text_printf(&f->desc, "%" PRIu64 "ns cpu%u lost %u %" PRIu64
			    "ns %" PRIu64 "ns\n", ts, cpu,
			    (unsigned int)(1 + below(st, 1000)), first, last);
	else
		text_printf(&f->desc, "%" PRIu64 "ns cpu%u %s %u\n", ts, cpu,
			    kind == 1 ? "gap" : "filter",
			    (unsigned int)(1 + below(st, 100)));
	return !kind;
}

/* The header's part: CPUs, start, drainer, threads, kallsyms. */
static unsigned int add_header(struct fuzz_trace *f, uint64_t *st,
			       uint64_t *ksyms, unsigned int max_ksyms)
{
	static const uint64_t starts[] = {
		1, 1000, 1000000000, 1000000000000000000ull,
	};
	static const char *const names[] = {
		"schedule", "__schedule", "do_nanosleep", "io_schedule",
		"f", "x_y",
	};
	static const char *const modules[] = { "", " [ext4]", " [x]" };
	uint64_t addr = 0xffffffff81000000ull;
	unsigned int i, n, nr_ksyms = 0;

	/* more than 8 CPUs: the reader merges them with a heap, not a scan */
	f->nr_cpus = chance(st, 20) ? 9 + below(st, 4) : 1 + below(st, 5);
	text_printf(&f->desc, "cpus %u\n", f->nr_cpus);
	if (chance(st, 30))
		text_printf(&f->desc, "start %" PRIu64 "ns\n",
			    starts[below(st, ARRAY_SIZE(starts))]);
	if (chance(st, 30))
		text_printf(&f->desc, "drainer %u %u %u\n",
			    (unsigned int)(1 + below(st, 5)),
			    (unsigned int)(1 + below(st, 5)),
			    (unsigned int)below(st, f->nr_cpus));
	if (chance(st, 10))
		text_printf(&f->desc, "filtered\n");
	f->no_trailer = chance(st, 15);
	if (f->no_trailer)
		text_printf(&f->desc, "notrailer\n");
	f->nr_pool = 1 + below(st, 12);
	for (i = 0; i < f->nr_pool; i++)
		f->pool[i] = 1 + below(st, 50);
	for (n = below(st, 4); n && f->nr_pool < MAX_POOL; n--)
		f->pool[f->nr_pool++] = edge_tids[below(st,
							ARRAY_SIZE(edge_tids))];
	/* threads at the start, each tid once */
	for (i = 0; i < f->nr_pool; i++) {
		if (!chance(st, 60))
			continue;
		for (n = 0; n < i && f->pool[n] != f->pool[i]; n++)
			;
		if (n < i)
			continue;
		text_printf(&f->desc, "thread %u %u", f->pool[i],
			    f->pool[below(st, f->nr_pool)]);
		add_comm(f, st);
		text_add(&f->desc, "\n", 1);
	}
	for (n = chance(st, 40) ? 1 + below(st, max_ksyms) : 0; n; n--) {
		addr += below(st, 0x10000);
		text_printf(&f->desc, "ksym %" PRIx64 " %c %s%s\n", addr,
			    "tTdbw"[below(st, 5)],
			    names[below(st, ARRAY_SIZE(names))],
			    modules[below(st, ARRAY_SIZE(modules))]);
		ksyms[nr_ksyms++] = addr;
	}
	/* types of a newer module in the event table, some past the mask */
	for (n = chance(st, 25) ? 3 : 0; n; n--)
		text_printf(&f->desc, "event %u %u newer%u%s\n",
			    SCHEDREC_REC_MAX + 1 + 40 * (n - 1) +
			    (unsigned int)below(st, 40),
			    16 * (unsigned int)(1 + below(st, 4)), n,
			    chance(st, 50) ? " off" : "");
	return nr_ksyms;
}

/* Case @seed's description, in f->desc. */
static void make_description(struct fuzz_trace *f, uint64_t seed)
{
	static const uint64_t scales[] = {
		1, 1000, 1000000, 100000000, 10000000000ull,
	};
	uint64_t st = seed * 0x9e3779b97f4a7c15ull + 1, ksyms[8], ts = 0;
	unsigned int nr_ksyms, n, i;
	uint64_t scale;

	memset(f, 0, sizeof(*f));
	f->seed = seed;
	nr_ksyms = add_header(f, &st, ksyms, ARRAY_SIZE(ksyms));
	scale = scales[below(&st, ARRAY_SIZE(scales))];
	n = below(&st, 200);
	for (i = 0; i < n; i++) {
		unsigned int cpu = below(&st, f->nr_cpus), kind;

		kind = below(&st, 4);
		ts += kind < 2 ? 0 : kind == 2 ? 1 : 1 + below(&st, scale);
		kind = below(&st, 100);
		if (kind < 45)
			add_switch(f, &st, ts, cpu, ksyms, nr_ksyms);
		else if (kind < 70)
			add_wakeup(f, &st, ts, cpu);
		else if (kind < 76)
			text_printf(&f->desc, "%" PRIu64
				    "ns cpu%u migrate %u %u %u\n", ts, cpu,
				    any_tid(f, &st),
				    (unsigned int)below(&st, f->nr_cpus),
				    (unsigned int)below(&st, f->nr_cpus));
		else if (kind < 93)
			add_task(f, &st, ts, cpu);
		else if (!add_loss(f, &st, ts, cpu))
			continue;
		f->last_ns = ts;
	}
	f->end_ns = f->last_ns;
	if (chance(&st, 20)) {
		f->end_ns = ts + below(&st, scale);
		text_printf(&f->desc, "end %" PRIu64 "ns\n", f->end_ns);
	}
}

/* A command line being built, its words kept in @buf. */
struct fuzz_cmd {
	char *argv[MAX_ARGS + 1];
	unsigned int argc;
	char buf[1024];
	size_t used;
	bool range_end;		/* --range with an END */
};

static void arg(struct fuzz_cmd *c, const char *fmt, ...)
{
	size_t left = sizeof(c->buf) - c->used;
	va_list ap;
	int len;

	if (c->argc >= MAX_ARGS)
		abort();
	va_start(ap, fmt);
	len = vsnprintf(c->buf + c->used, left, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= left)
		abort();
	c->argv[c->argc++] = c->buf + c->used;
	c->argv[c->argc] = NULL;
	c->used += len + 1;
}

/* Words split at spaces, each an argument. */
static void args(struct fuzz_cmd *c, const char *words)
{
	char copy[256], *save = NULL, *w;

	snprintf(copy, sizeof(copy), "%s", words);
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		arg(c, "%s", w);
}

/* @ns as seconds, all nine decimals. */
static void arg_seconds(struct fuzz_cmd *c, const char *prefix, uint64_t ns,
			const char *suffix)
{
	arg(c, "%s%" PRIu64 ".%09" PRIu64 "%s", prefix, ns / 1000000000,
	    ns % 1000000000, suffix);
}

/* A selection that applies to the trace: --range inside it, its CPUs. */
static void add_selection(struct fuzz_cmd *c, const struct fuzz_trace *f,
			  uint64_t *st, bool threads)
{
	static const char *const regexes[] = {
		"a", "^x", ".", "[[:cntrl:]]", "w$", "^(a|b)",
	};
	char range[64];
	uint64_t start, end;

	if (f->last_ns && chance(st, 30)) {
		start = below(st, f->last_ns);
		end = start + 1 + below(st, f->end_ns - start);
		arg(c, "--range");
		c->range_end = true;
		if (chance(st, 20)) {
			arg_seconds(c, ":", end, "");
		} else if (chance(st, 20)) {
			arg_seconds(c, "", start, ":");
			c->range_end = false;
		} else {
			snprintf(range, sizeof(range), "%" PRIu64 ".%09" PRIu64
				 ":%" PRIu64 ".%09" PRIu64,
				 start / 1000000000, start % 1000000000,
				 end / 1000000000, end % 1000000000);
			arg(c, "%s", range);
		}
	}
	if (threads && chance(st, 20))
		arg(c, "--pid=%u", f->pool[below(st, f->nr_pool)]);
	if (threads && chance(st, 20))
		arg(c, "--tid=%u", f->pool[below(st, f->nr_pool)]);
	if (threads && chance(st, 20))
		arg(c, "--comm=%s", regexes[below(st, ARRAY_SIZE(regexes))]);
	if (chance(st, 20))
		arg(c, "--cpu=%u", (unsigned int)below(st, f->nr_cpus));
	if (chance(st, 10))
		arg(c, "--cpu=0-%u", f->nr_cpus - 1);
}

/* A report's variants: csv_only needs --csv, no_csv refuses it. */
struct variant {
	const char *report;
	const char *options;
	bool csv_only;
	bool no_csv;
};

static const struct variant variants[] = {
	{ "offcpu", "", false, false },
	{ "offcpu", "--by process", false, false },
	{ "offcpu", "--interval", false, false },
	{ "offcpu", "--min 1ns --max 1ms", false, false },
	{ "offcpu", "--sort total", false, false },
	{ "offcpu", "--sort count", false, false },
	{ "tenancy", "", false, false },
	{ "states", "", false, false },
	{ "states", "--usurpers", true, false },
	{ "latency", "", false, false },
	{ "latency", "--by process", false, false },
	{ "latency", "--wakers", true, false },
	{ "latency", "--hist", true, false },
	{ "heatmap", "", false, false },
	{ "heatmap", "--metric offcpu", false, false },
	{ "heatmap", "--metric wakeups", false, false },
	{ "heatmap", "--metric switches --rows 1000", false, false },
	{ "heatmap", "--rows 1", false, false },
	{ "timeline", "", false, false },
	{ "timeline", "--threads --wakeups", false, false },
	{ "folded", "", false, false },
	{ "flame", "", false, true },
	{ "flame", "--per-thread", false, true },
};

/* An export's variants: threads, whether it takes --pid, --tid, --comm */
static const struct {
	const char *format, *args;
	bool threads;
} exports[] = {
	{ "perfetto", "", false },
	{ "perfetto", "--format=json", true },
	{ "schedlog", "", true },
	{ "csv", "", true },
	{ "openmetrics", "", true },
};

/* Run @c; whether it ended as it must (else say why). */
static bool run_ok(struct __test_metadata *_metadata,
		   const struct fuzz_trace *f, struct fuzz_cmd *c,
		   const char *desc_path)
{
	int expected = f->no_trailer ? 1 : 0, status;
	struct run_result r;
	char line[1024] = "";
	unsigned int i;
	bool ok;

	status = run_command(c->argv, NULL, &r);
	/* a window that ends early may end before the missing trailer */
	ok = status >= 0 && WIFEXITED(status) &&
	     (WEXITSTATUS(status) == expected ||
	      (f->no_trailer && c->range_end && !WEXITSTATUS(status))) &&
	     !strstr(r.err.data ? r.err.data : "", "Sanitizer") &&
	     !strstr(r.err.data ? r.err.data : "", "runtime error");
	if (!ok) {
		for (i = 1; i < c->argc; i++)
			snprintf(line + strlen(line),
				 sizeof(line) - strlen(line), " %s",
				 c->argv[i]);
		TH_LOG("case %" PRIu64 " (tracegen %s):%s: %s %d, want %d\n%.3000s",
		       f->seed, desc_path, line,
		       status < 0 ? r.why : WIFEXITED(status) ? "exit" :
		       "signal",
		       status < 0 ? 0 : WIFEXITED(status) ?
		       WEXITSTATUS(status) : WTERMSIG(status), expected,
		       r.err.data ? r.err.data : "");
	}
	run_result_free(&r);
	return ok;
}

static void cmd_start(struct fuzz_cmd *c, const char *bin)
{
	c->argc = 0;
	c->used = 0;
	c->range_end = false;
	arg(c, "%s", bin);
}

/* A copy of @trace in SCHEDREC_FUZZ_KEEP, if set. */
static void keep_trace(const char *trace, uint64_t seed)
{
	const char *keep = getenv("SCHEDREC_FUZZ_KEEP");
	char cmd[1024];

	if (!keep || !*keep)
		return;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/%" PRIu64 ".srec'", trace,
		 keep, seed);
	if (system(cmd))
		fprintf(stderr, "fuzz: could not keep %s in %s\n", trace,
			keep);
}

/*
 * One report run twice must draw the same: the flame graphs of
 * --per-thread once named a thread after whichever of its entries a hash
 * of their addresses put first, which changes from run to run.  Run
 * with the plain build (SCHEDREC_BIN): AddressSanitizer's allocator
 * places the memory alike in each run, and hid that.
 */
static bool same_twice(struct __test_metadata *_metadata,
		       const struct fuzz_trace *f, const char *bin,
		       const char *trace, const char *dir,
		       const char *desc_path)
{
	char *svg[2];
	size_t len[2];
	struct fuzz_cmd c;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < 2; i++) {
		cmd_start(&c, bin);
		args(&c, "report flame --per-thread");
		arg(&c, "%s", trace);
		arg(&c, "--svg=%s/twice-%u.svg", dir, i);
		ok &= run_ok(_metadata, f, &c, desc_path);
	}
	if (!ok)
		return false;
	for (i = 0; i < 2; i++) {
		char path[300];

		snprintf(path, sizeof(path), "%s/twice-%u.svg", dir, i);
		svg[i] = read_file(path, &len[i]);
	}
	ok = svg[0] && svg[1] && len[0] == len[1] &&
	     !memcmp(svg[0], svg[1], len[0]);
	if (!ok)
		TH_LOG("%s: report flame --per-thread drew two different graphs of one trace",
		       desc_path);
	free(svg[0]);
	free(svg[1]);
	return ok;
}

/* Case @seed: its trace through every report and export. */
static bool run_case(struct __test_metadata *_metadata, const char *bin,
		     const char *dir, uint64_t seed)
{
	enum { TEXT, CSV, SVG, NR_MODES } mode;
	char trace[256], desc_path[256];
	uint64_t st = seed ^ 0x5851f42d4c957f2dull;
	struct fuzz_trace f;
	struct fuzz_cmd c;
	unsigned int v, e;
	bool ok = true;

	make_description(&f, seed);
	snprintf(trace, sizeof(trace), "%s/%" PRIu64 ".srec", dir, seed);
	snprintf(desc_path, sizeof(desc_path), "%s/%" PRIu64 ".txt", dir,
		 seed);
	if (write_file(desc_path, f.desc.data) ||
	    write_trace_file(trace, f.desc.data)) {
		TH_LOG("case %" PRIu64 ": no trace from %s", seed, desc_path);
		text_free(&f.desc);
		return false;
	}
	for (v = 0; v < ARRAY_SIZE(variants); v++) {
		const struct variant *var = &variants[v];

		/* text, CSV or SVG, whichever the variant takes */
		mode = var->csv_only ? CSV : below(&st, NR_MODES);
		if (var->no_csv && mode == CSV)
			mode = SVG;
		cmd_start(&c, bin);
		arg(&c, "report");
		arg(&c, "%s", var->report);
		arg(&c, "%s", trace);
		if (!strcmp(var->options, "--interval"))
			arg(&c, "--interval=%" PRIu64 "ns",
			    f.end_ns / 500 + 1);
		else
			args(&c, var->options);
		if (mode == SVG)
			arg(&c, "--svg=%s/out.svg", dir);
		else if (mode == CSV)
			arg(&c, "--csv");
		/* not with --interval, which prints every bucket */
		if (chance(&st, 20) && strcmp(var->options, "--interval"))
			arg(&c, "--top=%u",
			    (unsigned int)below(&st, 3) * 50);
		add_selection(&c, &f, &st, true);
		ok &= run_ok(_metadata, &f, &c, desc_path);
	}
	cmd_start(&c, bin);
	args(&c, "report html");
	arg(&c, "%s", trace);
	arg(&c, "--output=%s/html", dir);
	arg(&c, "--force");
	arg(&c, "--seconds=%u", (unsigned int)below(&st, 4));
	add_selection(&c, &f, &st, true);
	ok &= run_ok(_metadata, &f, &c, desc_path);
	for (e = 0; e < ARRAY_SIZE(exports); e++) {
		cmd_start(&c, bin);
		arg(&c, "export");
		arg(&c, "%s", exports[e].format);
		arg(&c, "%s", trace);
		if (*exports[e].args)
			arg(&c, "%s", exports[e].args);
		arg(&c, "--output=%s/out.%s", dir, exports[e].format);
		add_selection(&c, &f, &st, exports[e].threads);
		ok &= run_ok(_metadata, &f, &c, desc_path);
	}
	ok &= same_twice(_metadata, &f, schedrec_bin(), trace, dir, desc_path);
	keep_trace(trace, seed);
	/* what failed stays for a look: the description and its trace */
	if (ok) {
		unlink(trace);
		unlink(desc_path);
	}
	text_free(&f.desc);
	return ok;
}

FIXTURE(fuzz) {
	const char *bin;
	char dir[32];
	uint64_t first;		/* of the cases: SCHEDREC_FUZZ_FIRST, or 0 */
	unsigned int failed;
};

/*
 * The schedrec to run: the sanitized one of make check, if there is one;
 * its model checked against itself (SCHEDREC_MODEL_CHECK: it aborts where
 * offcpu's fast switch path and the general one differ).
 */
FIXTURE_SETUP(fuzz)
{
	const char *asan = getenv("SCHEDREC_ASAN_BIN");
	const char *first = getenv("SCHEDREC_FUZZ_FIRST");

	self->bin = asan && *asan ? asan : schedrec_bin();
	self->first = first ? strtoull(first, NULL, 10) : 0;
	self->failed = 0;
	setenv("SCHEDREC_MODEL_CHECK", "1", 1);
	snprintf(self->dir, sizeof(self->dir), "/tmp/schedrec-fuzz.XXXXXX");
	if (access(self->bin, X_OK))
		SKIP(return, "no schedrec at %.300s: set SCHEDREC_ASAN_BIN or SCHEDREC_BIN",
		     self->bin);
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

/* What failed stays for a look, named in the log. */
FIXTURE_TEARDOWN(fuzz)
{
	if (!self->dir[0] || strchr(self->dir, 'X'))
		return;
	if (self->failed)
		TH_LOG("the failed cases' descriptions and traces are in %s",
		       self->dir);
	else
		remove_tree(self->dir);
}

/* Each variant is a group of CASES_PER_TEST cases, from its offset on. */
FIXTURE_VARIANT(fuzz) {
	unsigned int offset;
};

FIXTURE_VARIANT_ADD(fuzz, cases_0) { .offset = 0 };
FIXTURE_VARIANT_ADD(fuzz, cases_10) { .offset = 10 };
FIXTURE_VARIANT_ADD(fuzz, cases_20) { .offset = 20 };
FIXTURE_VARIANT_ADD(fuzz, cases_30) { .offset = 30 };

TEST_F_TIMEOUT(fuzz, run, CASES_TIMEOUT)
{
	uint64_t seed, first = self->first + variant->offset;

	for (seed = first; seed < first + CASES_PER_TEST; seed++)
		self->failed += !run_case(_metadata, self->bin, self->dir,
					  seed);
	EXPECT_EQ(0, self->failed);
}

TEST_HARNESS_MAIN
