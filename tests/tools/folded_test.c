// SPDX-License-Identifier: GPL-2.0
/*
 * report folded and report flame on a made-up but busy recording (three
 * CPUs, twelve threads in three processes, every state, kernel stacks
 * from a pool, renames, times to the nanosecond), through the schedrec
 * binary of SCHEDREC_BIN:
 *  - every folded line is what flamegraph.pl reads: frames that are not
 *    empty, ';' between them, one space, a positive integer; the lines
 *    are sorted and none repeats;
 *  - they add up to the other reports: per thread (under each name), its
 *    on-CPU line to tenancy's on-CPU time, its off-CPU lines of a state
 *    to states' offcpu_ns of that state, within the rounding of each line
 *    (half a microsecond), with --range, --cpu and --pid as well;
 *  - without a kallsyms snapshot, or with one whose addresses the kernel
 *    hid, kernel frames are hex addresses, and stderr says why;
 *  - flame --per-thread draws a graph per thread, most on-CPU time
 *    first, each frame with its tooltip, on-CPU frames warm and off-CPU
 *    frames blue, one script; without --svg the SVG is stdout; a thread
 *    too small for a pixel's tenth is not drawn, and the summary counts
 *    it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "run_util.h"
#include "tracegen.h"

#define TRACE_CPUS		3
#define NR_THREADS	12
#define NR_FUNCS	40
#define NR_STACKS	12
#define STEPS		3000
#define KEYS_MAX	1024

/* A small deterministic generator: the same trace every run. */
static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint32_t rng(uint32_t below)
{
	rng_state = rng_state * 6364136223846793005ull +
		    1442695040888963407ull;
	return (uint32_t)(rng_state >> 33) % below;
}

#define FUNC(i)		(0xffffffff81000000ull + 0x1000ull * (i))
#define SCHEDULE_FN	FUNC(NR_FUNCS)		/* schedule */
#define SCHED_CORE_FN	FUNC(NR_FUNCS + 1)	/* __schedule */

enum ksyms_kind {
	KSYMS_NAMED,
	KSYMS_NONE,
	KSYMS_HIDDEN,
};

/*
 * The recording: switches on random CPUs at increasing times (1 ns to
 * 0.5 ms apart), the thread switched in one that runs nowhere (or idle),
 * the one switched out in a random state, with a kernel stack from the
 * pool for most sleeps; now and then a running thread is renamed.
 */
static int write_trace(const char *path, enum ksyms_kind ksyms)
{
	static const char *const states[] = { "R", "R0", "S", "S", "D", "I" };
	struct text t = { 0 };
	uint32_t running[TRACE_CPUS] = { 0 }, renames = 0;
	char stacks[NR_STACKS][512];
	uint64_t ts = 0;
	unsigned int i, j, step;
	int ret;

	rng_state = 0x853c49e6748fea9bull;
	text_printf(&t, "cpus %d\nend 2s\n", TRACE_CPUS);
	for (i = 0; i < NR_THREADS; i++)
		text_printf(&t, "thread %u %u p%ut%u\n", 100 + i,
			    100 + i / 4 * 4, i / 4, i % 4);
	for (i = 0; ksyms != KSYMS_NONE && i < NR_FUNCS + 2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "func_%u", i);
		text_printf(&t, "ksym %016llx t %s\n",
			    ksyms == KSYMS_HIDDEN ? 0ull :
			    (unsigned long long)FUNC(i),
			    i == NR_FUNCS ? "schedule" :
			    i > NR_FUNCS ? "__schedule" : name);
	}
	for (i = 0; i < NR_STACKS; i++) {
		size_t len = snprintf(stacks[i], sizeof(stacks[i]),
				      "%llx,%llx",
				      (unsigned long long)SCHED_CORE_FN + 0x20,
				      (unsigned long long)SCHEDULE_FN + 0x20);

		for (j = 2 + rng(5); j > 0; j--)
			len += snprintf(stacks[i] + len, sizeof(stacks[i]) - len,
					",%llx", (unsigned long long)
					FUNC(rng(NR_FUNCS)) + 0x10);
	}
	for (step = 0; step < STEPS; step++) {
		unsigned int cpu = rng(TRACE_CPUS), c;
		uint32_t next = rng(4) ? 100 + rng(NR_THREADS) : 0;
		uint32_t prev = running[cpu];
		const char *state = states[rng(6)];

		ts += 1 + rng(500000);
		for (c = 0; next && c < TRACE_CPUS; c++)
			if (running[c] == next)
				next = 0;
		if (next == prev)
			continue;
		if (prev && state[0] != 'R' && rng(5))
			text_printf(&t, "%" PRIu64 "ns cpu%u stack %u %s\n",
				    ts, cpu, prev, stacks[rng(NR_STACKS)]);
		text_printf(&t, "%" PRIu64 "ns cpu%u switch %u %s %u\n", ts,
			    cpu, prev, prev ? state : "R0", next);
		running[cpu] = next;
		if (next && !rng(40))
			text_printf(&t, "%" PRIu64 "ns cpu%u rename %u %u n%u\n",
				    ts, cpu, next, 100 + (next - 100) / 4 * 4,
				    renames++);
	}
	ret = write_trace_file(path, t.data);
	text_free(&t);
	return ret;
}

/* schedrec report @report @trace @options (words split at spaces). */
static void run(const char *report, const char *trace, const char *options,
		struct run_result *r)
{
	run_schedrec(r, "report %s %s %s", report, trace, options);
}

/* ------------------------------------------------------------------ */
/* The folded format */

#define FRAMES_MAX	64

struct folded_line {
	char *frames[FRAMES_MAX];
	unsigned int nr;
	uint64_t us;
};

/*
 * Check one line (@line, modified) as flamegraph.pl reads it: frames
 * separated by ';', none empty, one space, a positive integer; and as
 * ours are: PROCESS;THREAD;on-CPU or PROCESS;THREAD;off-CPU;STATE[;...].
 * Returns NULL, or what is wrong.
 */
static const char *parse_folded(char *line, struct folded_line *l)
{
	char *space = strrchr(line, ' '), *p, *end;

	memset(l, 0, sizeof(*l));
	if (!space)
		return "no space before the count";
	*space = '\0';
	p = space + 1;
	if (!*p || *p == '0')
		return "the count is not a positive integer";
	for (end = p; *end; end++)
		if (*end < '0' || *end > '9')
			return "the count is not a positive integer";
	l->us = strtoull(p, NULL, 10);
	if (space == line || space[-1] == ' ')
		return "more than one space before the count";
	for (p = line; p && l->nr < FRAMES_MAX;) {
		end = strchr(p, ';');
		if (end)
			*end = '\0';
		if (!*p)
			return "an empty frame";
		l->frames[l->nr++] = p;
		p = end ? end + 1 : NULL;
	}
	if (l->nr < 3)
		return "fewer than 3 frames";
	if (!strcmp(l->frames[2], "on-CPU"))
		return l->nr == 3 ? NULL : "frames after on-CPU";
	if (strcmp(l->frames[2], "off-CPU"))
		return "the third frame is neither on-CPU nor off-CPU";
	if (l->nr < 4 || strlen(l->frames[3]) != 1)
		return "off-CPU without a state letter";
	return NULL;
}

/* Time per (thread name, tid, state): folded's, and the other reports'. */
struct key_total {
	uint32_t tid;
	char comm[32];
	char state;		/* 0: on CPU */
	uint64_t folded_us;
	unsigned int lines;
	uint64_t other_ns;
};

struct totals {
	struct key_total keys[KEYS_MAX];
	size_t nr;
};

static struct key_total *key_of(struct totals *t, uint32_t tid,
				const char *comm, size_t comm_len, char state)
{
	struct key_total *k;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		k = &t->keys[i];
		if (k->tid == tid && k->state == state &&
		    strlen(k->comm) == comm_len &&
		    !strncmp(k->comm, comm, comm_len))
			return k;
	}
	if (t->nr == KEYS_MAX || comm_len >= sizeof(k->comm))
		abort();
	k = &t->keys[t->nr++];
	memset(k, 0, sizeof(*k));
	k->tid = tid;
	memcpy(k->comm, comm, comm_len);
	k->state = state;
	return k;
}

/* Fields of a CSV line without quotes, into @fields; how many. */
static size_t csv_split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line, *comma;

	while (p && n < max) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		fields[n++] = p;
		p = comma ? comma + 1 : NULL;
	}
	return n;
}

FIXTURE(folded) {
	char dir[64];
	char trace[96], bare[96], hidden[96], svg[96];
};

FIXTURE_SETUP(folded)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/folded_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->trace, sizeof(self->trace), "%s/trace.srec", self->dir);
	snprintf(self->bare, sizeof(self->bare), "%s/bare.srec", self->dir);
	snprintf(self->hidden, sizeof(self->hidden), "%s/hidden.srec",
		 self->dir);
	snprintf(self->svg, sizeof(self->svg), "%s/out.svg", self->dir);
	if (access(schedrec_bin(), X_OK))
		SKIP(return, "no schedrec at %.300s: set SCHEDREC_BIN",
		     schedrec_bin());
	ASSERT_EQ(0, write_trace(self->trace, KSYMS_NAMED));
	ASSERT_EQ(0, write_trace(self->bare, KSYMS_NONE));
	ASSERT_EQ(0, write_trace(self->hidden, KSYMS_HIDDEN));
}

FIXTURE_TEARDOWN(folded)
{
	remove_tree(self->dir);
}

/* Folded's lines into @t, each checked; the number of lines. */
static size_t folded_totals(struct __test_metadata *_metadata,
			    const char *out, struct totals *t)
{
	char *copy = strdup(out), *line, *save, *prev = NULL;
	struct folded_line l;
	const char *why, *space;
	size_t n = 0;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct key_total *k;

		if (prev)
			EXPECT_GT(0, strcmp(prev, line))
				TH_LOG("not sorted or repeated: '%s' then '%s'",
				       prev, line);
		free(prev);
		prev = strdup(line);
		/* the stack alone, for the order: cut at the count */
		*strrchr(prev, ' ') = '\0';
		why = parse_folded(line, &l);
		EXPECT_EQ(NULL, why) TH_LOG("'%s': %s", prev, why ? why : "");
		if (why)
			continue;
		n++;
		space = strrchr(l.frames[1], ' ');
		ASSERT_NE(NULL, space) TH_LOG("thread frame '%s'",
					      l.frames[1]);
		k = key_of(t, strtoul(space + 1, NULL, 10), l.frames[1],
			   space - l.frames[1],
			   l.nr > 3 ? l.frames[3][0] : 0);
		k->folded_us += l.us;
		k->lines++;
	}
	free(prev);
	free(copy);
	return n;
}

/* tenancy's on-CPU time and states' off-CPU time by state into @t. */
static void other_totals(struct __test_metadata *_metadata,
			 const char *tenancy, const char *states,
			 struct totals *t)
{
	char *copy, *line, *save, *f[8];

	copy = strdup(tenancy);
	line = strtok_r(copy, "\n", &save);
	ASSERT_EQ(0, strncmp(line, "cpu,tid,pid,comm,oncpu_ns", 25));
	while ((line = strtok_r(NULL, "\n", &save))) {
		ASSERT_EQ(7, csv_split(line, f, 8));
		if (!strcmp(f[1], "0") || !strcmp(f[1], "-1"))
			continue;	/* idle, or not known */
		key_of(t, strtoul(f[1], NULL, 10), f[3], strlen(f[3]), 0)
			->other_ns += strtoull(f[4], NULL, 10);
	}
	free(copy);
	copy = strdup(states);
	line = strtok_r(copy, "\n", &save);
	ASSERT_STREQ("tid,pid,comm,state,switchouts,offcpu_ns", line);
	while ((line = strtok_r(NULL, "\n", &save))) {
		ASSERT_EQ(6, csv_split(line, f, 8));
		key_of(t, strtoul(f[0], NULL, 10), f[2], strlen(f[2]),
		       f[3][0])->other_ns += strtoull(f[5], NULL, 10);
	}
	free(copy);
}

/* Folded agrees with tenancy and states under @options. */
static void check_totals(struct __test_metadata *_metadata,
			 const char *trace, const char *options)
{
	struct run_result folded, tenancy, states;
	struct totals *t = calloc(1, sizeof(*t));
	char csv_options[512];
	size_t i, lines;

	ASSERT_NE(NULL, t);
	snprintf(csv_options, sizeof(csv_options), "%s --csv", options);
	run("folded", trace, options, &folded);
	run("tenancy", trace, csv_options, &tenancy);
	run("states", trace, csv_options, &states);
	ASSERT_EQ(0, folded.status) TH_LOG("%s", folded.err.data);
	ASSERT_EQ(0, tenancy.status) TH_LOG("%s", tenancy.err.data);
	ASSERT_EQ(0, states.status) TH_LOG("%s", states.err.data);
	lines = folded_totals(_metadata, folded.out.data, t);
	EXPECT_LT(10, lines) TH_LOG("options '%s': %zu lines", options,
				    lines);
	other_totals(_metadata, tenancy.out.data, states.out.data, t);
	for (i = 0; i < t->nr; i++) {
		const struct key_total *k = &t->keys[i];
		uint64_t ns = k->folded_us * 1000, slack;
		uint64_t diff = ns > k->other_ns ? ns - k->other_ns :
			       k->other_ns - ns;

		/* each line rounds to the nearest us; one dropped is < 0.5 */
		slack = 500 * (k->lines ? k->lines : 1);
		EXPECT_GE(slack, diff)
			TH_LOG("options '%s': %s %u %s%c: folded %" PRIu64 " us in %u lines, the others %" PRIu64 " ns",
			       options, k->comm, k->tid,
			       k->state ? "off-CPU " : "on-CPU", k->state,
			       k->folded_us, k->lines, k->other_ns);
	}
	run_result_free(&folded);
	run_result_free(&tenancy);
	run_result_free(&states);
	free(t);
}

TEST_F(folded, format_and_totals)
{
	check_totals(_metadata, self->trace, "");
	check_totals(_metadata, self->trace, "--range 0.3:1.2");
	check_totals(_metadata, self->trace, "--cpu 1");
	check_totals(_metadata, self->trace, "--cpu 0,2 --range 0.5:");
	check_totals(_metadata, self->trace, "--pid 104");
}

/* Kernel frames are named, trimmed of __schedule and schedule. */
TEST_F(folded, named_frames)
{
	struct run_result r;

	run("folded", self->trace, "", &r);
	ASSERT_EQ(0, r.status);
	EXPECT_LT(0, count_matches(r.out.data, ";func_"));
	EXPECT_EQ(0, count_matches(r.out.data, "schedule"));
	EXPECT_EQ(0, count_matches(r.out.data, ";0x"));
	EXPECT_STREQ("", r.err.data);
	run_result_free(&r);
}

/* No snapshot, or a hidden one: hex addresses, and stderr says why. */
TEST_F(folded, unnamed_frames)
{
	struct run_result r;

	run("folded", self->bare, "", &r);
	ASSERT_EQ(0, r.status);
	/* nothing is trimmed without names: __schedule's address stays */
	EXPECT_LT(0, count_matches(r.out.data, ";0xffffffff81029020 "));
	EXPECT_EQ(0, count_matches(r.out.data, "func_"));
	EXPECT_NE(NULL, strstr(r.err.data, "no kallsyms snapshot"))
		TH_LOG("%s", r.err.data);
	run_result_free(&r);

	run("folded", self->hidden, "", &r);
	ASSERT_EQ(0, r.status);
	EXPECT_LT(0, count_matches(r.out.data, ";0xffffffff81029020 "));
	EXPECT_NE(NULL, strstr(r.err.data, "hid its symbol addresses"))
		TH_LOG("%s", r.err.data);
	run_result_free(&r);

	run("folded", self->hidden, "-q", &r);
	EXPECT_STREQ("", r.err.data);
	run_result_free(&r);
}

/* Every frame's fill: warm under on-CPU, blue under off-CPU. */
static void check_colours(struct __test_metadata *_metadata, const char *svg)
{
	const char *p = svg;
	unsigned int warm = 0, cold = 0;

	while ((p = strstr(p, "<g class=\"frame\"><title>"))) {
		const char *fill = strstr(p, "fill=\"#");
		unsigned int rgb, r, b;
		bool on, off;
		int got;

		p += 24;
		on = !strncmp(p, "on-CPU (", 8);
		off = !strncmp(p, "off-CPU (", 9);
		ASSERT_NE(NULL, fill);
		got = sscanf(fill + 7, "%6x", &rgb);
		ASSERT_EQ(1, got);
		r = rgb >> 16;
		b = rgb & 0xff;
		if (on) {
			EXPECT_GT(r, b + 60) TH_LOG("on-CPU #%06x", rgb);
			warm++;
		}
		if (off) {
			EXPECT_GT(b, r + 60) TH_LOG("off-CPU #%06x", rgb);
			cold++;
		}
	}
	EXPECT_LT(0, warm);
	EXPECT_LT(0, cold);
}

TEST_F(folded, flame_per_thread)
{
	char options[256], *svg;
	struct run_result r;
	const char *p;
	uint64_t last = UINT64_MAX;
	size_t graphs = 0;

	snprintf(options, sizeof(options), "--per-thread --top 5 --svg %s",
		 self->svg);
	run("flame", self->trace, options, &r);
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err.data);
	EXPECT_NE(NULL, strstr(r.out.data, "(7 more threads: --top 0 draws all)"))
		TH_LOG("%s", r.out.data);
	svg = read_file(self->svg, NULL);
	ASSERT_NE(NULL, svg);
	EXPECT_EQ(0, strncmp(svg, "<?xml", 5));
	EXPECT_NE(NULL, strstr(svg, "</svg>\n"));
	EXPECT_EQ(1, count_matches(svg, "<script"));
	EXPECT_EQ(5, count_matches(svg, "<g class=\"flame\">"));
	EXPECT_EQ(5, count_matches(svg, ">Reset zoom</text>"));
	/* a frame is a group of its tooltip, rectangle and label */
	EXPECT_EQ(count_matches(svg, "<g class=\"frame\">"),
		  count_matches(svg, "<g class=\"frame\"><title>"));
	EXPECT_EQ(count_matches(svg, "<g class=\"frame\">"),
		  count_matches(svg, "</text></g>\n"));
	/* most on-CPU time first: headings "... in ...: on-CPU N.NNN ms" */
	for (p = svg; (p = strstr(p, " font-weight=\"bold\"")); p++) {
		const char *on = strstr(p, ": on-CPU ");
		double value;
		char unit[4];
		uint64_t ns;
		int got;

		if (!on || on > strstr(p, "</text>"))
			continue;
		got = sscanf(on + 9, "%lf %3s", &value, unit);
		ASSERT_EQ(2, got);
		ns = value * (!strcmp(unit, "s") ? 1e9 : !strcmp(unit, "ms") ?
			      1e6 : !strcmp(unit, "us") ? 1e3 : 1);
		EXPECT_GE(last, ns);
		last = ns;
		graphs++;
	}
	EXPECT_EQ(5, graphs);
	check_colours(_metadata, svg);
	free(svg);
	run_result_free(&r);
}

/* Without --svg the SVG is stdout; --csv is refused. */
TEST_F(folded, flame_stdout)
{
	struct run_result r;

	run("flame", self->trace, "--range 0.1:0.2", &r);
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err.data);
	EXPECT_EQ(0, strncmp(r.out.data, "<?xml", 5));
	EXPECT_EQ(1, count_matches(r.out.data, "<g class=\"flame\">"));
	EXPECT_EQ(1, count_matches(r.out.data, "</svg>"));
	run_result_free(&r);
	run("flame", self->trace, "--csv", &r);
	EXPECT_EQ(2, WEXITSTATUS(r.status));
	EXPECT_STREQ("", r.out.data);
	run_result_free(&r);
}

/*
 * Frames of 1 us in a 30 s graph are 0.00004 px wide: not drawn, and
 * counted; their time stays in their parents' width.
 */
/*
 * --no-ids: threads of one name in two processes of one name are one
 * line, their times summed; --palette: the palette.map of flamegraph.pl
 * --cp, a "NAME->rgb(R,G,B)" line per frame name of the folded lines,
 * sorted by bytes, each once, grey for the process and thread frames,
 * warm for on-CPU, blue for off-CPU and its frames; a name with "->",
 * which flamegraph.pl would split, left out.
 */
TEST(no_ids_and_palette)
{
	static const char text[] =
		"thread 10 10 app\n"
		"thread 11 10 worker\n"
		"thread 20 20 app\n"
		"thread 21 20 worker\n"
		"thread 30 30 a->b\n"
		"0ms cpu0 switch 0 R0 11\n"
		"0ms cpu1 switch 0 R0 21\n"
		"1ms cpu0 switch 11 S 30\n"
		"3ms cpu1 switch 21 D 0\n"
		"4ms cpu0 switch 30 S 0\n"
		"5ms cpu0 switch 0 R0 11\n"
		"6ms cpu0 switch 11 S 0\n"
		"end 10ms\n";
	struct workdir w;
	char path[600], msg[256];

	ASSERT_EQ(0, workdir_make(&w, "schedrec-folded-test"));
	snprintf(path, sizeof(path), "%s/run.srec", w.dir);
	ASSERT_EQ(0, tracegen_write_file(text, path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	/* worker 11: on 1 + 1 ms, S 4 + 4 ms; worker 21: on 3 ms, D 7 ms */
	ASSERT_EQ(0, workdir_run(&w, "$S report folded run.srec --no-ids --palette p.map -q | grep worker"));
	EXPECT_STREQ("app;worker;off-CPU;D 7000\n"
		     "app;worker;off-CPU;S 8000\n"
		     "app;worker;on-CPU 5000\n", w.out);
	ASSERT_EQ(0, workdir_run(&w, "cat p.map"));
	EXPECT_EQ(0, workdir_run(&w, "LC_ALL=C sort -c -u p.map"));
	/* exactly the frames of the lines, "a->b" aside */
	ASSERT_EQ(0, workdir_run(&w, "$S report folded run.srec --no-ids -q | sed 's/ [0-9]*$//' | tr ';' '\\n' | grep -v -- '->' | LC_ALL=C sort -u >frames && sed 's/->rgb(.*//' p.map | cmp - frames"));
	/* every line's shape, and its heat */
	ASSERT_EQ(0, workdir_run(&w, "grep -c -v -E '^[^;]+->rgb\\(([0-9]{1,3}),([0-9]{1,3}),([0-9]{1,3})\\)$' p.map || true"));
	EXPECT_STREQ("0\n", w.out);
	ASSERT_EQ(0, workdir_run(&w, "sed -E 's/^(.*)->rgb\\(([0-9]+),([0-9]+),([0-9]+)\\)$/\\1 \\2 \\3 \\4/' p.map | awk '$2 > 255 || $3 > 255 || $4 > 255 { print \"range\", $0 } /^(app|worker) / && !($2 == $3 && $3 == $4) { print \"not grey\", $0 } /^on-CPU / && !($2 > $4) { print \"not warm\", $0 } /^(off-CPU|[SD]) / && !($4 > $2) { print \"not cold\", $0 }'"));
	EXPECT_STREQ("", w.out);
	/* with ids the two workers are apart; --no-ids wants no CSV */
	ASSERT_EQ(0, workdir_run(&w, "$S report folded run.srec -q | grep -c 'worker'"));
	EXPECT_STREQ("4\n", w.out);
	EXPECT_EQ(2, workdir_run(&w, "$S report folded run.srec --no-ids --csv"));
	EXPECT_NE(NULL, strstr(w.err, "--no-ids is for the folded lines"));
	EXPECT_EQ(3, workdir_run(&w, "$S report folded run.srec --palette nodir/p.map -q"));
	EXPECT_NE(NULL, strstr(w.err, "cannot write the palette nodir/p.map"));
	workdir_remove(&w);
}

TEST(flame_merges_narrow_frames)
{
	char dir[] = "/tmp/folded_test.XXXXXX", trace[96], svg_path[96];
	char options[160], err[256], *svg;
	struct run_result r;

	if (access(schedrec_bin(), X_OK))
		SKIP(return, "no schedrec at %.300s", schedrec_bin());
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(trace, sizeof(trace), "%s/t.srec", dir);
	snprintf(svg_path, sizeof(svg_path), "%s/t.svg", dir);
	ASSERT_EQ(0, tracegen_write_file("end 10s\n"
					 "thread 1 1 big\nthread 2 2 big2\n"
					 "thread 7 7 tiny\n"
					 "0s cpu0 switch 0 R0 1\n"
					 "0s cpu1 switch 0 R0 2\n"
					 "5s cpu1 switch 2 R 7\n"
					 "5.000001s cpu1 switch 7 S 2\n",
					 trace, err, sizeof(err)))
		TH_LOG("%s", err);
	snprintf(options, sizeof(options), "--svg %s", svg_path);
	run("flame", trace, options, &r);
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err.data);
	/*
	 * Of 30 s: tiny's on-CPU 1 us, big2's off-CPU and R 1 us are not
	 * drawn; tiny itself is ('?' 0-5 s, S 5-10 s).
	 */
	EXPECT_NE(NULL, strstr(r.out.data, " 3 frames narrower than 0.1 px are not drawn"))
		TH_LOG("%s", r.out.data);
	svg = read_file(svg_path, NULL);
	ASSERT_NE(NULL, svg);
	EXPECT_NE(NULL, strstr(svg, "<title>tiny-7 (10.000 s, 33.33%)"));
	EXPECT_NE(NULL, strstr(svg, "<title>S (5.000 s, 16.67%)"));
	EXPECT_EQ(0, count_matches(svg, "<title>on-CPU (1.000 us"));
	EXPECT_EQ(0, count_matches(svg, "<title>R (1.000 us"));
	EXPECT_NE(NULL, strstr(svg, "3 frames narrower than 0.1 px not drawn"));
	free(svg);
	run_result_free(&r);
	remove_tree(dir);
}

TEST_HARNESS_MAIN
