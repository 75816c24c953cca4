/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph: folded stacks drawn as flame graphs in one SVG, for
 * `report flame` and `report folded --svg` (doc/reports.md).
 *
 * A graph is a tree of frames: the lines' frames, root first, merged where
 * their paths agree, under a root frame "all".  Each frame is a rectangle
 * as wide as its time, its children stacked on top of it (the root at the
 * bottom, as FlameGraph draws them), siblings sorted warm first, then by
 * name.  Colours: the first frames of a line (process, thread) grey, the
 * rest warm (reds to yellows) for on-CPU lines, blue for off-CPU ones,
 * each shade stable per name.  Every frame has a tooltip: its name, time
 * and share of the graph's scale.  Several graphs go one under another.
 *
 * Zoom: an embedded script (no network, no other file) makes a click on a
 * frame widen it to the whole width, its descendants with it, its
 * ancestors kept below it dimmed, and shows a "Reset zoom" control; the
 * SVG draws the same without the script, unzoomed.
 *
 * Size: a frame narrower than FLAMEGRAPH_MIN_PX is not drawn (it stays
 * part of its parent's width, and its tooltip); if a graph would still
 * draw more than its share of FLAMEGRAPH_FRAMES_MAX (split evenly among
 * the graphs, but at least FLAMEGRAPH_GRAPH_FRAMES each), that width
 * doubles for it until its frames fit.
 *
 *	struct flamegraph *fg = flamegraph_new();
 *	size_t g = flamegraph_graph(fg, "all threads", 0);
 *
 *	flamegraph_add(fg, g, &(struct flame_line){
 *		.stack = "app-1;app 1;on-CPU", .ns = 5000, .neutral = 2 });
 *	flamegraph_write(fg, file, "Flame graph", &frame);
 *	flamegraph_free(fg);
 */
#ifndef SCHEDREC_FLAMEGRAPH_H
#define SCHEDREC_FLAMEGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "svg.h"

#define FLAMEGRAPH_MIN_PX	0.1
#define FLAMEGRAPH_FRAMES_MAX	40000
#define FLAMEGRAPH_GRAPH_FRAMES	1000
#define FLAMEGRAPH_DEPTH_MAX	128	/* frames past it add to the last */
#define FLAMEGRAPH_ROOT		"all"

enum flame_heat {
	FLAME_NEUTRAL,		/* grey: the process and thread frames */
	FLAME_WARM,		/* reds to yellows: on CPU */
	FLAME_COLD,		/* blues: off CPU */
};

/* The colour (0xRRGGBB) of a frame named @name: a shade of @heat's. */
uint32_t flamegraph_colour(const char *name, enum flame_heat heat);

struct flame_line {
	const char *stack;	/* frames, root first, ';' between them */
	uint64_t ns;
	unsigned int neutral;	/* its first frames, drawn grey */
	bool cold;		/* the others: off-CPU (blue), else warm */
};

/* How frame @i (0: the root's child, the first of the stack) is drawn */
static inline enum flame_heat flame_frame_heat(const struct flame_line *line,
					       unsigned int i)
{
	return i < line->neutral ? FLAME_NEUTRAL :
	       line->cold ? FLAME_COLD : FLAME_WARM;
}

struct flamegraph;

/* NULL when out of memory; every function takes NULL. */
struct flamegraph *flamegraph_new(void);
void flamegraph_free(struct flamegraph *fg);

/*
 * Start a graph, titled @heading; @scale_ns is the time the whole width
 * stands for and the percentages are of (0: the graph's total; if less
 * than the total, the total).  Returns its index, or SVG_NONE when out of
 * memory.
 */
size_t flamegraph_graph(struct flamegraph *fg, const char *heading,
			uint64_t scale_ns);

/* Add @line's time to graph @graph (0 ns: nothing). */
void flamegraph_add(struct flamegraph *fg, size_t graph,
		    const struct flame_line *line);

/*
 * Draw every graph, one under another, under @title and @frame's subtitle
 * and warning.  0, or -errno: -ENOMEM (here or in an earlier call),
 * -EINVAL for a graph index never returned, or the write error.
 */
int flamegraph_write(struct flamegraph *fg, FILE *f, const char *title,
		     const struct svg_frame *frame);

/* What flamegraph_write() drew of graph @graph. */
struct flamegraph_stats {
	uint64_t ns;		/* its total */
	size_t frames;		/* drawn, the root included */
	size_t merged;		/* too narrow: not drawn */
	double min_px;		/* the narrowest width drawn */
};

void flamegraph_stats(const struct flamegraph *fg, size_t graph,
		      struct flamegraph_stats *stats);

#endif /* SCHEDREC_FLAMEGRAPH_H */
