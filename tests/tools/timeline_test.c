// SPDX-License-Identifier: GPL-2.0
/*
 * report timeline stays readable from minutes to microseconds: over a
 * long window, thousands of intervals shorter than a pixel are merged
 * (a tooltip says how many, stderr suggests a shorter --range) and the
 * chart's size does not grow with them; over a short window every
 * interval is drawn on its own with its exact times; the CSV has every
 * interval either way.  The traces are made with tracegen, the report is
 * the schedrec binary of SCHEDREC_BIN (as `make check` sets it).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "run_util.h"

#define US		1000ull
#define MS		1000000ull
#define RUNS		6000		/* of 20 us, every 3 ms: 18 s */

/* Thread 100 runs 20 us every 3 ms on CPU 1; thread 200 holds CPU 0. */
static int write_trace(const char *path)
{
	struct text t = { 0 };
	unsigned int i;
	int ret;

	text_printf(&t, "cpus 2\nthread 100 100 ticker\nthread 200 200 hog\nend 18100ms\n0ns cpu0 switch 0 R0 200\n");
	for (i = 0; i < RUNS; i++)
		text_printf(&t, "%" PRIu64 "ns cpu1 switch 0 R0 100\n"
			    "%" PRIu64 "ns cpu1 switch 100 S 0\n",
			    (uint64_t)(i * 3 * MS + 100 * US),
			    (uint64_t)(i * 3 * MS + 120 * US));
	ret = write_trace_file(path, t.data);
	text_free(&t);
	return ret;
}

FIXTURE(timeline) {
	char dir[64];
	char trace[96], svg[96];
};

FIXTURE_SETUP(timeline)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/timeline_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->trace, sizeof(self->trace), "%s/trace.srec",
		 self->dir);
	snprintf(self->svg, sizeof(self->svg), "%s/out.svg", self->dir);
	if (access(schedrec_bin(), X_OK))
		SKIP(return, "no schedrec at %.300s: set SCHEDREC_BIN",
		     schedrec_bin());
	ASSERT_EQ(0, write_trace(self->trace));
}

FIXTURE_TEARDOWN(timeline)
{
	remove_tree(self->dir);
}

/* 18 s: the ticks merge, the chart stays small, stderr says so. */
TEST_F(timeline, long_window_merges)
{
	struct run_result r;
	struct stat st;
	char *svg;

	run_schedrec(&r, "report timeline %s --csv --svg %s", self->trace,
		     self->svg);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status));
	/* the CSV: a header and every interval of both threads */
	EXPECT_EQ(1 + RUNS + 1, count_lines(r.out.data));
	EXPECT_NE(NULL, strstr(r.err.data,
			       "are drawn merged; a shorter --range shows them apart"));
	ASSERT_EQ(0, stat(self->svg, &st));
	EXPECT_GT(200 * 1024, st.st_size)
		TH_LOG("the chart is %jd bytes", (intmax_t)st.st_size);
	svg = read_file(self->svg, NULL);
	ASSERT_NE(NULL, svg);
	EXPECT_NE(NULL, strstr(svg, "intervals merged (shorter than a pixel), busiest: ticker 100"));
	/* no tick drawn alone: they are all in merged pixels */
	EXPECT_EQ(0, count_matches(svg, "<title>CPU 1: ticker 100,"));
	EXPECT_NE(NULL, strstr(svg, "<title>CPU 0: hog 200, 0.000000-18.100000 s"));
	free(svg);
	run_result_free(&r);
}

/* 30 ms: ten ticks, each its own rect with its exact times; no warning. */
TEST_F(timeline, short_window_is_exact)
{
	struct run_result r;
	char *svg;

	run_schedrec(&r, "report timeline %s --range 3:3.03 --csv --svg %s",
		     self->trace, self->svg);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(0, WEXITSTATUS(r.status));
	EXPECT_EQ(1 + 10 + 1, count_lines(r.out.data));
	EXPECT_EQ(NULL, strstr(r.err.data, "merged"));
	svg = read_file(self->svg, NULL);
	ASSERT_NE(NULL, svg);
	EXPECT_EQ(10, count_matches(svg, "<title>CPU 1: ticker 100,"));
	EXPECT_NE(NULL, strstr(svg, "<title>CPU 1: ticker 100, 3.000100-3.000120 s (20.000 us)</title>"));
	EXPECT_EQ(NULL, strstr(svg, "intervals merged"));
	free(svg);
	run_result_free(&r);
}

/*
 * A clock gone wild, but consistently (the records and their chunk heads
 * agree): thread 200 runs from 1 ms to 9300000000 s, more than 2^63 ns
 * on.  The report ends (it looped for ever), every interval in its CSV,
 * and the chart stops 146 years in, saying so.
 */
TEST_F(timeline, wild_clock_ends)
{
	char wild[128];
	struct run_result r;
	char *svg;

	snprintf(wild, sizeof(wild), "%s/wild.srec", self->dir);
	ASSERT_EQ(0, write_trace_file(wild, "cpus 2\nstart 1s\n"
				      "thread 100 100 a\nthread 200 200 b\n"
				      "0ns cpu0 switch 0 R0 100\n"
				      "1ms cpu0 switch 100 S 200\n"
				      "9300000000s cpu0 switch 200 S 100\n"
				      "9300000000.5s cpu0 switch 100 S 0\n"));
	run_schedrec(&r, "report timeline %s --csv --threads --svg %s", wild,
		     self->svg);
	ASSERT_TRUE(WIFEXITED(r.status)) TH_LOG("%s", r.why);
	EXPECT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("%s", r.err.data);
	EXPECT_EQ(1 + 3, count_lines(r.out.data)) TH_LOG("%s", r.out.data);
	EXPECT_NE(NULL, strstr(r.err.data,
			       "the chart leaves out intervals that end at times no clock reaches (over 146 years into the window): the trace's timestamps are wrong"))
		TH_LOG("%s", r.err.data);
	svg = read_file(self->svg, NULL);
	ASSERT_NE(NULL, svg);
	EXPECT_NE(NULL, strstr(svg, "<title>CPU 0: b 200, 0.001000-4611686018.427388 s (4611686018.426 s, still going at its end)</title>"));
	free(svg);
	run_result_free(&r);
}

TEST_HARNESS_MAIN
