// SPDX-License-Identifier: GPL-2.0
/*
 * `schedrec export openmetrics` on a synthetic trace (tracegen.h): Debian's
 * promtool (package prometheus) passes what it writes, with and without a
 * selection; every value equals the reports' CSV on the same trace and
 * selection (tenancy, states, offcpu and latency, per thread and per
 * process; the loss warning; the window); the latency histograms have the
 * same buckets everywhere, cumulative, ending in +Inf = _count, and add up
 * to report latency --hist, a latency on a bucket's edge in the bucket the
 * report puts it in; --format openmetrics is valid OpenMetrics (the Python
 * client library's strict parser) with the same samples; a comm with a
 * quote, a backslash and a byte that is not UTF-8 is escaped and reads
 * back; the escaping itself (tools/lib/promtext.h), a newline included (a
 * comm tracegen cannot write), and the numbers: seconds exact, "le" in
 * OpenMetrics' canonical form; --top keeps the most active threads and
 * processes; the drainer is left out unless named; bad options exit 2.
 *
 * promtool missing is a failure, not a skip: tests/check.sh installs it.
 * The parsers and the comparisons are tests/tools/openmetrics_check.py's
 * (python3-prometheus-client, also installed by tests/check.sh).
 *
 * Environment: SCHEDREC_BIN, the schedrec to run (default
 * build/user/schedrec of this tree); PROMTOOL (default /usr/bin/promtool).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "promtext.h"
#include "run_util.h"
#include "tracegen.h"

#define SKIP_STATUS	77

/*
 * Four CPUs, two processes and a kernel thread.  app (100) is preempted
 * (runqueue latency 1 us), and woken twice: 2 us after, then 1.999 us
 * after (either side of a bucket's edge); worker (101) is woken 4 us
 * before it runs; io (102) is renamed tmp, then io again while it sleeps
 * (its sleep's 10 us under tmp a series of its own; io's two tasks have
 * the same labels: one series), preempted by a thread whose
 * process is not known (300); a thread named with a quote, a backslash and
 * a byte that is not UTF-8 (201); events are lost on CPU 1; the drainer
 * (900) runs on CPU 3.
 */
static const char trace_text[] =
	"cpus 4\n"
	"drainer 900 900 3\n"
	"thread 100 100 app\n"
	"thread 101 100 worker\n"
	"thread 102 100 io\n"
	"thread 200 200 db\n"
	"thread 201 200 a\"b\\c\377d\n"
	"thread 7 7 kworker\n"
	"thread 900 900 schedrec\n"
	"0us cpu0 switch 0 R0 100\n"
	"10us cpu0 waking 101 target 1\n"
	"50us cpu0 switch 100 R 7\n"
	"51us cpu0 switch 7 I 100\n"
	"100us cpu0 switch 100 S 0\n"
	"300us cpu0 waking 100 irq target 0\n"
	"302us cpu0 switch 0 R0 100\n"
	"500us cpu0 switch 100 D 0\n"
	"800us cpu0 wakeup 100 target 0\n"
	"801.999us cpu0 switch 0 R0 100\n"
	"900us cpu0 switch 100 S 0\n"
	"5us cpu1 switch 0 R0 102\n"
	"14us cpu1 switch 102 D 101\n"
	"20us cpu1 rename 102 100 tmp\n"
	"30us cpu1 rename 102 100 io\n"
	"60us cpu1 wakeup 102 target 1\n"
	"100us cpu1 switch 101 S 102\n"
	"150us cpu1 switch 102 R 300\n"
	"180us cpu1 switch 300 S 102\n"
	"250us cpu1 switch 102 S 0\n"
	"400us cpu1 lost 3 390us 395us\n"
	"600us cpu1 switch 0 R0 101\n"
	"700us cpu1 switch 101 S 0\n"
	"0us cpu2 switch 0 R0 200\n"
	"200us cpu2 switch 200 S 201\n"
	"210us cpu2 waking 200 target 2\n"
	"260us cpu2 switch 201 R 200\n"
	"270us cpu2 switch 200 S 201\n"
	"350us cpu2 switch 201 S 0\n"
	"0us cpu3 switch 0 R0 900\n"
	"100us cpu3 switch 900 S 0\n"
	"500us cpu3 switch 0 R0 900\n"
	"600us cpu3 switch 900 S 0\n"
	"end 1ms\n";

/* The threads of trace_text under their labels, and its processes. */
#define TRACE_THREADS	8
#define TRACE_PROCESSES	4

/* 201's comm as a label reads back: the byte 0xff is U+00FF */
#define AWKWARD_COMM	"a\"b\\c\303\277d"

/* Selections the values are compared under, and what they make the window */
static const struct {
	const char *options;
	const char *expect;	/* --expect NAME=VALUE of openmetrics_check */
} selections[] = {
	{ "", "--expect schedrec_window_length_seconds=0.001 --expect schedrec_window_start_seconds=0 --expect schedrec_recording_length_seconds=0.001 --expect schedrec_recording_start_time_seconds=1700000000" },
	{ "--range 0.0001:0.0005", "--expect schedrec_window_length_seconds=0.0004 --expect schedrec_window_start_seconds=0.0001" },
	{ "--range 0.0006:", "--expect schedrec_window_length_seconds=0.0004" },
	{ "--cpu 1,2", "" },
	{ "--cpu 0 --range :0.0003", "" },
	{ "--pid 100", "" },
	{ "--comm '^(db|io)$'", "" },
	{ "--tid 900,300", "" },
};

/* ------------------------------------------------------------------ */

/* promtool: $PROMTOOL, else Debian's (package prometheus). */
static const char *promtool_path(void)
{
	const char *tool = getenv("PROMTOOL");

	return tool && *tool ? tool : "/usr/bin/promtool";
}

FIXTURE(om) {
	struct workdir w;
};

/*
 * Commands run in the fixture's directory with $S the schedrec binary,
 * $P promtool and $PY the checker (by the python3
 * python3-prometheus-client is for).
 */
FIXTURE_SETUP(om)
{
	char path[512], msg[512], py[2048];

	ASSERT_EQ(0, workdir_make(&self->w, "schedrec-openmetrics-test"));
	workdir_var(&self->w, "P", promtool_path());
	snprintf(py, sizeof(py), "%s %s/openmetrics_check.py", python3_bin(),
		 tools_test_dir());
	workdir_var(&self->w, "PY", py);
	snprintf(path, sizeof(path), "%s/run.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(trace_text, path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	/* not a skip: without promtool the format is not checked */
	ASSERT_EQ(0, access(promtool_path(), X_OK)) {
		TH_LOG("%s is missing: apt-get install prometheus (tests/check.sh installs it)",
		       promtool_path());
	}
}

FIXTURE_TEARDOWN(om)
{
	workdir_remove(&self->w);
}

#define RUN(...) workdir_run(&self->w, __VA_ARGS__)

/* openmetrics_check.py must say ok (77: the client library is missing). */
#define CHECK(...) do {							\
	int code_ = RUN("$PY " __VA_ARGS__);				\
	ASSERT_EQ(0, code_) {						\
		TH_LOG("openmetrics_check.py: %s%s%s", self->w.out,	\
		       self->w.err, code_ == SKIP_STATUS ?		\
		       "(apt-get install python3-prometheus-client; tests/check.sh installs it)" : ""); \
	}								\
} while (0)

/* promtool check metrics must pass FILE, saying nothing. */
#define PROMTOOL(file) do {						\
	ASSERT_EQ(0, RUN("$P check metrics <" file)) {			\
		TH_LOG("promtool check metrics <%s: %s%s", file,	\
		       self->w.out, self->w.err);				\
	}								\
	EXPECT_STREQ("", self->w.out);					\
	EXPECT_STREQ("", self->w.err);					\
} while (0)

/* The reports of selection @opts as CSV into directory @dir. */
static void make_reports(struct __test_metadata *_metadata,
			 struct workdir *w, const char *dir, const char *opts)
{
	ASSERT_EQ(0, workdir_run(w, "mkdir -p %s && "
				 "$S report tenancy run.srec --csv %s >%s/tenancy.csv 2>%s/loss.txt && "
				 "$S report states run.srec --csv %s >%s/states.csv && "
				 "$S report offcpu run.srec --csv %s >%s/offcpu.csv && "
				 "$S report offcpu run.srec --csv --by process %s >%s/offcpu_process.csv && "
				 "$S report latency run.srec --csv %s >%s/latency.csv && "
				 "$S report latency run.srec --csv --by process %s >%s/latency_process.csv && "
				 "$S report latency run.srec --csv --hist %s >%s/hist.csv",
				 dir, opts, dir, dir, opts, dir, opts, dir, opts, dir,
				 opts, dir, opts, dir, opts, dir)) {
		TH_LOG("the reports of '%s': %s", opts, w->err);
	}
}

/* ------------------------------------------------------------------ */

TEST_F(om, promtool_passes)
{
	size_t i;

	ASSERT_EQ(0, RUN("$S export openmetrics run.srec >m.prom"));
	EXPECT_STREQ("", self->w.err);
	PROMTOOL("m.prom");
	ASSERT_EQ(0, RUN("cat m.prom"));
	/* the Prometheus text format: no OpenMetrics lines */
	EXPECT_EQ(NULL, strstr(self->w.out, "# EOF"));
	EXPECT_EQ(NULL, strstr(self->w.out, "# UNIT"));
	EXPECT_NE(NULL, strstr(self->w.out, "# TYPE schedrec_thread_switches_total counter\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "# TYPE schedrec_recording_info gauge\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "# TYPE schedrec_thread_wakeup_latency_seconds histogram\n"));
	for (i = 0; i < ARRAY_SIZE(selections); i++) {
		ASSERT_EQ(0, RUN("$S export openmetrics run.srec %s --top 3 >s.prom",
				 selections[i].options));
		PROMTOOL("s.prom");
	}
}

TEST_F(om, values_match_reports)
{
	char dir[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(selections); i++) {
		snprintf(dir, sizeof(dir), "r%zu", i);
		make_reports(_metadata, &self->w, dir, selections[i].options);
		ASSERT_EQ(0, RUN("$S export openmetrics run.srec --top 0 %s -o %s/m.prom",
				 selections[i].options, dir));
		CHECK("values %s/m.prom %s %s", dir, dir, selections[i].expect);
		CHECK("hist %s/m.prom %s/hist.csv", dir, dir);
	}
	/* the loss is there to be counted: CPU 1, 3 events */
	ASSERT_EQ(0, RUN("grep -c '^schedrec_lost_events_total{cpu=\"1\"} 3$' r0/m.prom"));
	/* io, renamed away and back, is one series */
	ASSERT_EQ(0, RUN("grep -c 'tid=\"102\",comm=\"io\",cpu=\"1\"' r0/m.prom"));
	EXPECT_STREQ("1\n", self->w.out);
	/* 300's process is not known: it is its own */
	ASSERT_EQ(0, RUN("grep -c '^schedrec_process_oncpu_seconds_total{pid=\"300\",comm=\"?\",cpu=\"1\"} 0.00003$' r0/m.prom"));
}

TEST_F(om, histogram_buckets)
{
	/* app alone: woken 1.999 us and 2 us before it ran, preempted 1 us */
	make_reports(_metadata, &self->w, "app", "--tid 100");
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --tid 100 >app.prom"));
	CHECK("hist app.prom app/hist.csv");
	ASSERT_EQ(0, RUN("grep '^schedrec_thread_wakeup_latency_seconds' app.prom"));
	EXPECT_NE(NULL, strstr(self->w.out, "_bucket{pid=\"100\",tid=\"100\",comm=\"app\",le=\"1.999e-06\"} 1\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "_bucket{pid=\"100\",tid=\"100\",comm=\"app\",le=\"3.999e-06\"} 2\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "_bucket{pid=\"100\",tid=\"100\",comm=\"app\",le=\"16.777215999\"} 2\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "_bucket{pid=\"100\",tid=\"100\",comm=\"app\",le=\"+Inf\"} 2\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "_count{pid=\"100\",tid=\"100\",comm=\"app\"} 2\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "_sum{pid=\"100\",tid=\"100\",comm=\"app\"} 0.000003999\n"));
	/* 24 finite buckets and +Inf */
	EXPECT_EQ(25, count_matches(self->w.out, "_bucket{"));
	/* the process's histogram is its threads' */
	make_reports(_metadata, &self->w, "p100", "--pid 100");
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --pid 100 | grep -v '^schedrec_thread_' >p.prom"));
	ASSERT_EQ(0, RUN("sed 's/schedrec_process_/schedrec_thread_/; s/{pid=\"100\",/{pid=\"100\",tid=\"100\",/' p.prom >pt.prom"));
	CHECK("hist pt.prom p100/hist.csv");
}

TEST_F(om, openmetrics_format)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(selections); i++) {
		ASSERT_EQ(0, RUN("$S export openmetrics run.srec --top 0 %s >m.prom && "
				 "$S export openmetrics run.srec --top 0 %s --format openmetrics >m.om",
				 selections[i].options, selections[i].options));
		CHECK("same m.prom m.om");
	}
	ASSERT_EQ(0, RUN("cat m.om"));
	EXPECT_NE(NULL, strstr(self->w.out, "# TYPE schedrec_thread_oncpu_seconds counter\n"
					   "# UNIT schedrec_thread_oncpu_seconds seconds\n"
					   "# HELP schedrec_thread_oncpu_seconds "));
	EXPECT_NE(NULL, strstr(self->w.out, "# TYPE schedrec_recording info\n"));
	EXPECT_NE(NULL, strstr(self->w.out, "# TYPE schedrec_lost_events counter\n"));
	EXPECT_EQ(NULL, strstr(self->w.out, "# UNIT schedrec_lost_events"));
	EXPECT_NE(NULL, strstr(self->w.out, "\n# EOF\n"));
	EXPECT_EQ(0, strcmp(self->w.out + strlen(self->w.out) - 6, "# EOF\n"));
}

TEST_F(om, label_escaping)
{
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec >m.prom"));
	PROMTOOL("m.prom");
	CHECK("label m.prom 201 '" AWKWARD_COMM "'");
	ASSERT_EQ(0, RUN("grep -c 'comm=\"a\\\\\"b\\\\\\\\c\303\277d\"' m.prom"));
	EXPECT_LT(0, atoi(self->w.out));
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --format openmetrics >m.om"));
	CHECK("same m.prom m.om");
}

/* The label escaping itself: newline, which no tracegen comm can hold. */
TEST(escape_function)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "plain" },
		{ "a\"b", "a\\\"b" },
		{ "back\\slash", "back\\\\slash" },
		{ "two\nlines", "two\\nlines" },
		{ "\\\"\n", "\\\\\\\"\\n" },
		{ "tab\tcr\r\x01", "tab\tcr\r\x01" },
		/* UTF-8 stays */
		{ "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9" },
		{ "\xe2\x82\xac\xf0\x9f\x98\x80", "\xe2\x82\xac\xf0\x9f\x98\x80" },
		/* a byte that is not UTF-8 is its Latin-1 character */
		{ "\xff", "\xc3\xbf" },
		{ "\x80x", "\xc2\x80x" },
		/* overlong, surrogate, above U+10FFFF, cut short */
		{ "\xc0\xaf", "\xc3\x80\xc2\xaf" },
		{ "\xed\xa0\x80", "\xc3\xad\xc2\xa0\xc2\x80" },
		{ "\xf4\x90\x80\x80", "\xc3\xb4\xc2\x90\xc2\x80\xc2\x80" },
		{ "\xe2\x82", "\xc3\xa2\xc2\x82" },
	};
	char buf[64];
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		len = promtext_escape(buf, cases[i].in,
					 strlen(cases[i].in));
		ASSERT_GE(2 * strlen(cases[i].in), len);
		buf[len] = '\0';
		EXPECT_STREQ(cases[i].out, buf) {
			TH_LOG("case %zu", i);
		}
	}
}

/* Seconds exact; "le" as OpenMetrics' canonical numbers (Go's %g, ".0"). */
TEST(numbers)
{
	static const struct {
		uint64_t ns;
		const char *seconds, *le;
	} cases[] = {
		{ 0, "0", "0.0" },
		{ 1, "0.000000001", "1e-09" },
		{ 1999, "0.000001999", "1.999e-06" },
		{ 10000, "0.00001", "1e-05" },
		{ 15999, "0.000015999", "1.5999e-05" },
		{ 100000, "0.0001", "0.0001" },
		{ 255999, "0.000255999", "0.000255999" },
		{ 1000000, "0.001", "0.001" },
		{ 950000000, "0.95", "0.95" },
		{ 1000000000, "1", "1.0" },
		{ 1700000000, "1.7", "1.7" },
		{ 10000000000ull, "10", "10.0" },
		{ 16777215999ull, "16.777215999", "16.777215999" },
		{ 100000000000000ull, "100000", "100000.0" },
		{ 1000000000000000ull, "1000000", "1e+06" },
		{ 1234567890123456789ull, "1234567890.123456789",
		  "1.234567890123456789e+09" },
		{ UINT64_MAX, "18446744073.709551615", "1.8446744073709551615e+10" },
	};
	char buf[PROMTEXT_NUM_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_STREQ(cases[i].seconds,
			     promtext_seconds(buf, cases[i].ns));
		EXPECT_STREQ(cases[i].le, promtext_le(buf, cases[i].ns));
	}
}

TEST_F(om, top_limits)
{
	make_reports(_metadata, &self->w, "all", "");
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --top 2 >t.prom"));
	EXPECT_NE(NULL, strstr(self->w.err, "the 2 most active of 8 threads and 2 of 4 processes written (--top 2; --top 0 writes all)"));
	PROMTOOL("t.prom");
	CHECK("top t.prom all 2");
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --top 3 -q >t.prom"));
	EXPECT_STREQ("", self->w.err);
	CHECK("top t.prom all 3");
	/* the default, 20, leaves none out of this trace; nor does 0 */
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec >d.prom && $S export openmetrics run.srec --top 0 >z.prom && cmp d.prom z.prom"));
	EXPECT_STREQ("", self->w.err);
	ASSERT_EQ(0, RUN("grep -c '^schedrec_thread_switches_total{' z.prom"));
	/* the CPUs' metrics are never cut */
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --top 1 -q | grep -c '^schedrec_cpu_idle_seconds_total{'"));
	EXPECT_STREQ("4\n", self->w.out);
}

TEST_F(om, drainer)
{
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec | grep -c 'tid=\"900\"' || true"));
	EXPECT_STREQ("0\n", self->w.out);
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec --pid 900 | grep -c '^schedrec_thread_oncpu_seconds_total{pid=\"900\",tid=\"900\",comm=\"schedrec\",cpu=\"3\"} 0.0002$'"));
}

TEST_F(om, output_and_bad_options)
{
	/* standard output by default, or -o: the same bytes */
	ASSERT_EQ(0, RUN("$S export openmetrics run.srec >a.prom && $S export openmetrics run.srec -o b.prom && $S export openmetrics run.srec -o - >c.prom && cmp a.prom b.prom && cmp a.prom c.prom"));
	ASSERT_EQ(0, RUN("cat run.srec | $S export openmetrics - | cmp - a.prom"));
	/* usage errors: 2, a message, no output */
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --top x -o x"));
	EXPECT_NE(NULL, strstr(self->w.err, "bad --top 'x'"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --top -1 -o x"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --top '' -o x"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --top 99999999999 -o x"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --top"));
	EXPECT_NE(NULL, strstr(self->w.err, "needs a value"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --format json -o x"));
	EXPECT_NE(NULL, strstr(self->w.err, "bad --format 'json': prometheus or openmetrics"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --bogus -o x"));
	EXPECT_NE(NULL, strstr(self->w.err, "unknown option '--bogus'"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --cpu 4 -o x"));
	EXPECT_EQ(2, RUN("$S export openmetrics run.srec --range 2:1 -o x"));
	EXPECT_EQ(2, RUN("$S export openmetrics -o x"));
	EXPECT_EQ(0, RUN("test -e x || echo none"));
	EXPECT_STREQ("none\n", self->w.out);
	/* another format has no --top */
	EXPECT_EQ(2, RUN("$S export csv run.srec -o y --top 3"));
	/* cannot be read or written: 3 */
	EXPECT_EQ(3, RUN("$S export openmetrics missing.srec"));
	EXPECT_EQ(3, RUN("$S export openmetrics run.srec -o nodir/m.prom"));
	/* the help lists the options, for the completion */
	ASSERT_EQ(0, RUN("$S export openmetrics --help"));
	EXPECT_NE(NULL, strstr(self->w.out, "\n  --top N "));
	EXPECT_NE(NULL, strstr(self->w.out, "\n  --format FORMAT "));
	EXPECT_NE(NULL, strstr(self->w.out, "usage: schedrec export openmetrics TRACE"));
}

TEST_HARNESS_MAIN
