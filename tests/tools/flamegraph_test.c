// SPDX-License-Identifier: GPL-2.0
/*
 * tools/lib/flamegraph: lines merge into frames by path, widths are
 * proportional to time on the graph's scale, siblings go warm first then
 * by name, a frame narrower than a tenth of a pixel is not drawn, and a
 * graph with more frames than its share of FLAMEGRAPH_FRAMES_MAX raises
 * that width until they fit; bad input is an error, not a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "flamegraph.h"
#include "run_util.h"

/* What @fg draws, as a string (free() it). */
static char *draw(struct flamegraph *fg, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	*ret = flamegraph_write(fg, f, "test", NULL);
	fclose(f);
	return buf;
}

/* The x and width of the rectangle of the frame titled @title. */
static int frame_geometry(const char *svg, const char *title, double *x,
			  double *width)
{
	char needle[256];
	const char *p;

	snprintf(needle, sizeof(needle), "<title>%s</title><rect x=\"",
		 title);
	p = strstr(svg, needle);
	if (!p)
		return -1;
	return sscanf(p + strlen(needle), "%lf\" y=\"%*f\" width=\"%lf",
		      x, width) == 2 ? 0 : -1;
}

TEST(merge_scale_and_order)
{
	struct flamegraph *fg = flamegraph_new();
	struct flamegraph_stats st;
	size_t g;
	double x, w, x2, w2;
	char *svg;
	int ret;

	ASSERT_NE(NULL, fg);
	g = flamegraph_graph(fg, "one", 0);
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "p;t;off-CPU;S;b", .ns = 3000, .neutral = 2,
		.cold = true });
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "p;t;off-CPU;S;a", .ns = 1000, .neutral = 2,
		.cold = true });
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "p;t;on-CPU", .ns = 4000, .neutral = 2 });
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "p;t;off-CPU;S;b", .ns = 2000, .neutral = 2,
		.cold = true });
	flamegraph_add(fg, g, &(struct flame_line){ .stack = "x", .ns = 0 });
	svg = draw(fg, &ret);
	ASSERT_EQ(0, ret);
	/* all, p, t, on-CPU, off-CPU, S, a, b: 10 us */
	flamegraph_stats(fg, g, &st);
	EXPECT_EQ(10000, st.ns);
	EXPECT_EQ(8, st.frames);
	EXPECT_EQ(0, st.merged);
	EXPECT_EQ(8, count_matches(svg, "<g class=\"frame\">"));
	EXPECT_NE(NULL, strstr(svg, "<title>b (5.000 us, 50.00%)</title>"));
	EXPECT_NE(NULL, strstr(svg, "<title>all (10.000 us, 100.00%)</title>"));
	/* the plot is 1180 px from x = 10: on-CPU first (warm), 40% */
	ASSERT_EQ(0, frame_geometry(svg, "on-CPU (4.000 us, 40.00%)", &x, &w));
	EXPECT_EQ(10, x);
	EXPECT_EQ(472, w);
	ASSERT_EQ(0, frame_geometry(svg, "off-CPU (6.000 us, 60.00%)", &x, &w));
	EXPECT_EQ(482, x);
	EXPECT_EQ(708, w);
	/* then by name: a before b */
	ASSERT_EQ(0, frame_geometry(svg, "a (1.000 us, 10.00%)", &x, &w));
	ASSERT_EQ(0, frame_geometry(svg, "b (5.000 us, 50.00%)", &x2, &w2));
	EXPECT_EQ(482, x);
	EXPECT_EQ(x + w, x2);
	EXPECT_EQ(590, w2);
	EXPECT_EQ(1, count_matches(svg, "<script"));
	free(svg);
	flamegraph_free(fg);
}

/* A scale wider than the total: the graph is as wide as its share. */
TEST(scale)
{
	struct flamegraph *fg = flamegraph_new();
	double x, w;
	size_t g;
	char *svg;
	int ret;

	g = flamegraph_graph(fg, "thread", 4000);
	flamegraph_add(fg, g, &(struct flame_line){ .stack = "a", .ns = 1000 });
	svg = draw(fg, &ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, frame_geometry(svg, "all (1.000 us, 25.00%)", &x, &w));
	EXPECT_EQ(295, w);
	free(svg);
	flamegraph_free(fg);
}

/*
 * 10000 lines of 0.118 px each, 4 frames of their own: 40002 frames are
 * more than FLAMEGRAPH_FRAMES_MAX, so 0.2 px is the least drawn, and the
 * lines' frames are not.
 */
TEST(frames_limit)
{
	struct flamegraph *fg = flamegraph_new();
	struct flamegraph_stats st;
	char stack[64], *svg;
	size_t g;
	int i, ret;

	g = flamegraph_graph(fg, "many", 0);
	for (i = 0; i < 10000; i++) {
		snprintf(stack, sizeof(stack), "a;b%d;c;d;e", i);
		flamegraph_add(fg, g, &(struct flame_line){
			.stack = stack, .ns = 1000 });
	}
	svg = draw(fg, &ret);
	ASSERT_EQ(0, ret);
	flamegraph_stats(fg, g, &st);
	EXPECT_EQ(2, st.frames);
	EXPECT_EQ(40000, st.merged);
	EXPECT_EQ(0.2, st.min_px);
	EXPECT_EQ(2, count_matches(svg, "<g class=\"frame\">"));
	EXPECT_NE(NULL, strstr(svg, "40000 frames narrower than 0.1 px (wider in busy graphs) not drawn"));
	free(svg);
	flamegraph_free(fg);
}

/* Without the limit, 0.1 px is the least drawn: 0.0118 px is not. */
TEST(narrow_frames)
{
	struct flamegraph *fg = flamegraph_new();
	struct flamegraph_stats st;
	size_t g;
	char *svg;
	int ret;

	g = flamegraph_graph(fg, "narrow", 0);
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "wide;x", .ns = 99999 });
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "thin;y", .ns = 1 });
	svg = draw(fg, &ret);
	ASSERT_EQ(0, ret);
	flamegraph_stats(fg, g, &st);
	EXPECT_EQ(3, st.frames);
	EXPECT_EQ(2, st.merged);
	EXPECT_EQ(0, count_matches(svg, "<title>thin"));
	free(svg);
	flamegraph_free(fg);
}

TEST(depth_and_errors)
{
	struct flamegraph *fg = flamegraph_new();
	struct flamegraph_stats st;
	char *deep, *svg;
	size_t g, i;
	int ret;

	deep = malloc(4 * (FLAMEGRAPH_DEPTH_MAX + 10));
	ASSERT_NE(NULL, deep);
	deep[0] = '\0';
	for (i = 0; i < FLAMEGRAPH_DEPTH_MAX + 10; i++)
		strcat(deep, i ? ";f" : "f");
	g = flamegraph_graph(fg, "deep", 0);
	flamegraph_add(fg, g, &(struct flame_line){ .stack = deep, .ns = 5 });
	/* an empty frame name is still a frame */
	flamegraph_add(fg, g, &(struct flame_line){ .stack = "g;;h", .ns = 5 });
	flamegraph_graph(fg, "empty", 0);
	svg = draw(fg, &ret);
	ASSERT_EQ(0, ret);
	flamegraph_stats(fg, g, &st);
	/* all, FLAMEGRAPH_DEPTH_MAX f frames, g, "", h */
	EXPECT_EQ(FLAMEGRAPH_DEPTH_MAX + 4, st.frames);
	EXPECT_NE(NULL, strstr(svg, "no time to draw"));
	free(svg);
	free(deep);
	/* a graph never made */
	flamegraph_add(fg, 7, &(struct flame_line){ .stack = "a", .ns = 1 });
	svg = draw(fg, &ret);
	EXPECT_EQ(-EINVAL, ret);
	free(svg);
	flamegraph_free(fg);
	/* NULL everywhere */
	EXPECT_EQ(SVG_NONE, flamegraph_graph(NULL, "x", 0));
	flamegraph_add(NULL, 0, &(struct flame_line){ .stack = "a" });
	EXPECT_EQ(-ENOMEM, flamegraph_write(NULL, stdout, "x", NULL));
	flamegraph_free(NULL);
}

/* Names are escaped, and the script ends its CDATA once. */
TEST(escaping)
{
	struct flamegraph *fg = flamegraph_new();
	size_t g;
	char *svg;
	int ret;

	g = flamegraph_graph(fg, "<heading & co>", 0);
	flamegraph_add(fg, g, &(struct flame_line){
		.stack = "a<b>&\"c\";]]>", .ns = 10 });
	svg = draw(fg, &ret);
	ASSERT_EQ(0, ret);
	EXPECT_NE(NULL, strstr(svg, "&lt;heading &amp; co&gt;"));
	EXPECT_NE(NULL, strstr(svg, "<title>a&lt;b&gt;&amp;&quot;c&quot; ("));
	EXPECT_NE(NULL, strstr(svg, "<title>]]&gt; ("));
	EXPECT_EQ(1, count_matches(svg, "]]>"));
	free(svg);
	flamegraph_free(fg);
}

TEST_HARNESS_MAIN
