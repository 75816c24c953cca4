// SPDX-License-Identifier: GPL-2.0
/*
 * report heatmap draws the FlameScope patterns: a thread that wakes every
 * 500 ms for 5 ms is two horizontal lines (the buckets at offsets 0 and
 * 0.5 s, in every second); a thread that works 20 ms and sleeps 1 s is a
 * diagonal that climbs a 20 ms bucket per second; work that straddles a
 * bucket's edge is split exactly between the two; uneven buckets
 * (--rows 7) lose no time; and a long window's chart has columns of
 * several seconds.  The traces are made with tracegen, the
 * report is the schedrec binary of SCHEDREC_BIN (as `make check` sets
 * it), read back from its CSV.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "run_util.h"

#define MS		1000000ull
#define MAX_SECONDS	64
#define MAX_ROWS	100

/* The CSV of a heat map, as a matrix. */
struct matrix {
	unsigned int rows;
	unsigned int seconds;		/* columns seen */
	uint64_t cell[MAX_SECONDS][MAX_ROWS];
	unsigned int lines;		/* cells read */
};

/* A trace of thread 100 on CPU 0 running [start, start + run) at each start. */
static int write_trace(const char *path, const uint64_t *starts, size_t n,
		       uint64_t run, uint64_t end)
{
	struct text t = { 0 };
	size_t i;
	int ret;

	text_printf(&t, "cpus 2\nthread 100 100 pattern\nend %" PRIu64 "ns\n",
		    end);
	for (i = 0; i < n; i++)
		text_printf(&t, "%" PRIu64 "ns cpu0 waking 100\n"
			    "%" PRIu64 "ns cpu0 switch 0 R0 100\n"
			    "%" PRIu64 "ns cpu0 switch 100 S 0\n",
			    starts[i], starts[i], starts[i] + run);
	ret = write_trace_file(path, t.data);
	text_free(&t);
	return ret;
}

/* Parse the CSV; 0, or -1 if a line is not what it should be. */
static int parse_csv(const char *csv, struct matrix *m)
{
	const char *line = strchr(csv, '\n');
	unsigned long second;
	double from, to, covered;
	uint64_t value;
	long row;

	if (strncmp(csv, "second,offset_start_s,offset_end_s,", 35) || !line)
		return -1;
	for (line++; *line; line = strchr(line, '\n') + 1) {
		if (sscanf(line, "%lu,%lf,%lf,%" SCNu64 ",%lf", &second, &from,
			   &to, &value, &covered) != 5)
			return -1;
		row = lround(from * m->rows);
		if (second >= MAX_SECONDS || row < 0 || row >= m->rows ||
		    covered != 1.0)
			return -1;
		m->cell[second][row] = value;
		if (second + 1 > m->seconds)
			m->seconds = second + 1;
		m->lines++;
		if (!strchr(line, '\n'))
			break;
	}
	return 0;
}

FIXTURE(heatmap) {
	char dir[64];
	char trace[96];
	struct matrix *m;
};

FIXTURE_SETUP(heatmap)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/heatmap_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->trace, sizeof(self->trace), "%s/trace.srec",
		 self->dir);
	self->m = calloc(1, sizeof(*self->m));
	ASSERT_NE(NULL, self->m);
	if (access(schedrec_bin(), X_OK))
		SKIP(return, "no schedrec at %.300s: set SCHEDREC_BIN",
		     schedrec_bin());
}

FIXTURE_TEARDOWN(heatmap)
{
	remove_tree(self->dir);
	free(self->m);
}

/* The heat map of thread 100 with @rows rows, into self->m. */
static int heatmap_of(const char *trace, unsigned int rows, struct matrix *m)
{
	struct run_result r;
	int status, ret;

	m->rows = rows;
	status = run_schedrec(&r, "report heatmap %s --tid 100 --rows %u --csv",
			      trace, rows);
	ret = WIFEXITED(status) && !WEXITSTATUS(status) ?
	      parse_csv(r.out.data, m) : -1;
	if (ret)
		fprintf(stderr, "schedrec said (status %d):\n%s%s%s", status,
			r.out.data, r.err.data, r.why);
	run_result_free(&r);
	return ret;
}

/* Woken every 500 ms for 5 ms: two lines, at offsets 0 and 0.5 s. */
TEST_F(heatmap, periodic_is_two_lines)
{
	uint64_t starts[20];
	unsigned int i, second, row;

	for (i = 0; i < 20; i++)
		starts[i] = i * 500 * MS;
	ASSERT_EQ(0, write_trace(self->trace, starts, 20, 5 * MS,
				 10000 * MS));
	ASSERT_EQ(0, heatmap_of(self->trace, 50, self->m));
	ASSERT_EQ(10, self->m->seconds);
	ASSERT_EQ(10 * 50, self->m->lines);
	for (second = 0; second < 10; second++) {
		for (row = 0; row < 50; row++) {
			uint64_t want = row == 0 || row == 25 ? 5 * MS : 0;

			EXPECT_EQ(want, self->m->cell[second][row])
				TH_LOG("second %u, row %u", second, row);
		}
	}
}

/* 20 ms of work, then 1 s asleep: the work climbs a row every second. */
TEST_F(heatmap, drift_is_a_diagonal)
{
	uint64_t starts[20];
	unsigned int i, second, row, want_row;

	for (i = 0; i < 20; i++)
		starts[i] = i * 1020 * MS;
	ASSERT_EQ(0, write_trace(self->trace, starts, 20, 20 * MS,
				 20000 * MS));
	ASSERT_EQ(0, heatmap_of(self->trace, 50, self->m));
	ASSERT_EQ(20, self->m->seconds);
	for (second = 0; second < 20; second++) {
		want_row = (second * 1020 % 1000) / 20;
		for (row = 0; row < 50; row++) {
			uint64_t want = row == want_row ? 20 * MS : 0;

			EXPECT_EQ(want, self->m->cell[second][row])
				TH_LOG("second %u, row %u (the diagonal is at row %u)",
				       second, row, want_row);
		}
	}
}

/* The same, 7 ms later: each job straddles two rows, 13 ms and 7 ms. */
TEST_F(heatmap, drift_split_at_row_edges)
{
	uint64_t starts[20];
	unsigned int i, second, row, first;

	for (i = 0; i < 20; i++)
		starts[i] = (i * 1020 + 7) * MS;
	ASSERT_EQ(0, write_trace(self->trace, starts, 20, 20 * MS,
				 20000 * MS));
	ASSERT_EQ(0, heatmap_of(self->trace, 50, self->m));
	for (second = 0; second < 20; second++) {
		first = (second * 1020 % 1000 + 7) / 20;
		for (row = 0; row < 50; row++) {
			uint64_t want = row == first ? 13 * MS :
					row == first + 1 ? 7 * MS : 0;

			EXPECT_EQ(want, self->m->cell[second][row])
				TH_LOG("second %u, row %u", second, row);
		}
	}
}

/* Rows of uneven length (1 s / 7): the cells still add up to the work. */
TEST_F(heatmap, uneven_rows_keep_every_ns)
{
	uint64_t starts[20], total = 0;
	unsigned int i, second, row;

	for (i = 0; i < 20; i++)
		starts[i] = i * 500 * MS + i * 37 * MS;
	ASSERT_EQ(0, write_trace(self->trace, starts, 20, 5 * MS,
				 11000 * MS));
	ASSERT_EQ(0, heatmap_of(self->trace, 7, self->m));
	ASSERT_EQ(11, self->m->seconds);
	for (second = 0; second < self->m->seconds; second++)
		for (row = 0; row < 7; row++)
			total += self->m->cell[second][row];
	EXPECT_EQ(20 * 5 * MS, total);
}

/*
 * A window of 2502 s (more than the chart's 1200 columns): the text and
 * CSV keep a column per second, the chart has columns of 5 s (the 1-2-5
 * step over 2502 / 1200), 501 of them, each cell holding the sum of its
 * seconds, says so, and stays small (a column per second made 469 MB of
 * SVG at 23 h and 50 rows).
 */
TEST_F(heatmap, long_window_chart_has_wide_columns)
{
	uint64_t start = 1200500 * MS;
	struct run_result r;
	char svg[128];
	size_t len;
	char *text;
	int status;

	ASSERT_EQ(0, write_trace(self->trace, &start, 1, 1000 * MS,
				 2502000 * MS));
	snprintf(svg, sizeof(svg), "%s/out.svg", self->dir);
	status = run_schedrec(&r, "report heatmap %s --tid 100 --rows 1 --csv --svg %s",
			      self->trace, svg);
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("%s%s", r.err.data, r.why);
	EXPECT_EQ(1 + 2502, count_lines(r.out.data));
	EXPECT_NE(NULL, strstr(r.out.data,
			       "\n1200,0.000000000,1.000000000,500000000,"));
	EXPECT_NE(NULL, strstr(r.out.data,
			       "\n1201,0.000000000,1.000000000,500000000,"));
	run_result_free(&r);
	text = read_file(svg, &len);
	ASSERT_NE(NULL, text);
	EXPECT_GT(200 * 1024, len);
	EXPECT_EQ(501, count_matches(text, "<title>seconds "));
	EXPECT_EQ(0, count_matches(text, "<title>second "));
	EXPECT_EQ(1, count_matches(text, "<title>seconds 1200-1204, offset 0-1000 ms: on-CPU 1.000 s<"));
	EXPECT_EQ(1, count_matches(text, "<title>seconds 2500-2504, offset 0-1000 ms: on-CPU 0 ns (only 2.000 s of this cell is in the window)<"));
	EXPECT_EQ(1, count_matches(text, "seconds since the start of the recording, 5 s a column"));
	EXPECT_EQ(1, count_matches(text, ">1.000 s (the largest cell)<"));
	free(text);
}

TEST_HARNESS_MAIN
