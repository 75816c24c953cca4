// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph: folded stacks drawn as flame graphs; see flamegraph.h.
 *
 * The frames of every graph are nodes of one array, found by (parent,
 * name) in an open-addressing table while lines come in.  Drawing sorts
 * them once by (parent, heat, name), so that each node's children lie
 * side by side, lays each graph out from its root, then writes a <g> per
 * frame: its tooltip, its rectangle and its label.  The zoom script reads
 * the geometry back from the rectangles: it needs nothing else.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "timefmt.h"

#define NONE		UINT32_MAX

#define DEFAULT_WIDTH	1200
#define MARGIN		10
#define FRAME_HEIGHT	16	/* a row of frames; the rectangle 1 px less */
#define FONT_SIZE	11
#define LABEL_PAD	3	/* left of a label, and kept free right of it */
#define HEADING_SIZE	13
#define HEADING_HEIGHT	22
#define NOTE_SIZE	11
#define NOTE_HEIGHT	18
#define GRAPH_GAP	14
#define TEXT_COLOUR	0x222222
#define MUTED_COLOUR	0x555555
#define LINK_COLOUR	0x1a5fb4

struct node {
	char *name;
	uint64_t ns;
	uint32_t parent;
	uint32_t children;	/* first in the sorted order, once sorted */
	uint32_t nr_children;
	uint16_t depth;
	uint8_t heat;
	bool drawn;
	double x, width;
};

struct graph {
	char *heading;
	uint64_t scale_ns;
	uint32_t root;
	unsigned int depth;	/* the deepest frame drawn */
	struct flamegraph_stats stats;
};

struct flamegraph {
	struct node *nodes;
	size_t nr_nodes, cap_nodes;
	uint32_t *slots;	/* node index + 1; 0: free */
	size_t mask;
	struct graph *graphs;
	size_t nr_graphs, cap_graphs;
	uint32_t *order;	/* nodes by (parent, heat, name) */
	int err;
};

static void fail(struct flamegraph *fg, int err)
{
	if (!fg->err)
		fg->err = err;
}

static size_t slot_of(const struct flamegraph *fg, uint32_t parent,
		      const char *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ parent;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
	return (h ^ h >> 29) & fg->mask;
}

static int slots_grow(struct flamegraph *fg)
{
	size_t mask = fg->mask ? 2 * fg->mask + 1 : 1023, i, j;
	uint32_t *slots = calloc(mask + 1, sizeof(*slots));
	size_t old_mask = fg->mask;
	uint32_t *old = fg->slots;

	if (!slots)
		return -ENOMEM;
	fg->slots = slots;
	fg->mask = mask;
	for (i = 0; old && i <= old_mask; i++) {
		const struct node *n;

		if (!old[i])
			continue;
		n = &fg->nodes[old[i] - 1];
		for (j = slot_of(fg, n->parent, n->name, strlen(n->name));
		     slots[j]; j = (j + 1) & mask)
			;
		slots[j] = old[i];
	}
	free(old);
	return 0;
}

/* A new node; its index, or NONE when out of memory. */
static uint32_t node_new(struct flamegraph *fg, uint32_t parent,
			 const char *name, size_t len, enum flame_heat heat)
{
	struct node *n;

	if (fg->nr_nodes >= NONE - 1)
		return NONE;
	if (fg->nr_nodes == fg->cap_nodes) {
		size_t cap = fg->cap_nodes ? 2 * fg->cap_nodes : 256;

		n = reallocarray(fg->nodes, cap, sizeof(*n));
		if (!n)
			return NONE;
		fg->nodes = n;
		fg->cap_nodes = cap;
	}
	n = &fg->nodes[fg->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->name = strndup(name, len);
	if (!n->name)
		return NONE;
	n->parent = parent;
	n->depth = parent == NONE ? 0 : fg->nodes[parent].depth + 1;
	n->heat = heat;
	return fg->nr_nodes++;
}

/* The child @name of @parent, made if new; NONE when out of memory. */
static uint32_t child_of(struct flamegraph *fg, uint32_t parent,
			 const char *name, size_t len, enum flame_heat heat)
{
	uint32_t idx;
	size_t i;

	if ((fg->nr_nodes + 1) * 2 > fg->mask + 1 && slots_grow(fg))
		return NONE;
	for (i = slot_of(fg, parent, name, len); fg->slots[i];
	     i = (i + 1) & fg->mask) {
		const struct node *n = &fg->nodes[fg->slots[i] - 1];

		if (n->parent == parent && !strncmp(n->name, name, len) &&
		    !n->name[len])
			return fg->slots[i] - 1;
	}
	idx = node_new(fg, parent, name, len, heat);
	if (idx != NONE)
		fg->slots[i] = idx + 1;
	return idx;
}

struct flamegraph *flamegraph_new(void)
{
	return calloc(1, sizeof(struct flamegraph));
}

void flamegraph_free(struct flamegraph *fg)
{
	size_t i;

	if (!fg)
		return;
	for (i = 0; i < fg->nr_nodes; i++)
		free(fg->nodes[i].name);
	for (i = 0; i < fg->nr_graphs; i++)
		free(fg->graphs[i].heading);
	free(fg->nodes);
	free(fg->slots);
	free(fg->graphs);
	free(fg->order);
	free(fg);
}

size_t flamegraph_graph(struct flamegraph *fg, const char *heading,
			uint64_t scale_ns)
{
	struct graph *g;

	if (!fg)
		return SVG_NONE;
	if (fg->nr_graphs == fg->cap_graphs) {
		size_t cap = fg->cap_graphs ? 2 * fg->cap_graphs : 8;

		g = reallocarray(fg->graphs, cap, sizeof(*g));
		if (!g)
			goto fail;
		fg->graphs = g;
		fg->cap_graphs = cap;
	}
	g = &fg->graphs[fg->nr_graphs];
	memset(g, 0, sizeof(*g));
	g->scale_ns = scale_ns;
	g->heading = strdup(heading ? heading : "");
	/* roots have no parent: each is its own, not shared */
	g->root = g->heading ? node_new(fg, NONE, FLAMEGRAPH_ROOT,
					strlen(FLAMEGRAPH_ROOT),
					FLAME_NEUTRAL) : NONE;
	if (g->root == NONE) {
		free(g->heading);
		goto fail;
	}
	return fg->nr_graphs++;
fail:
	fail(fg, -ENOMEM);
	return SVG_NONE;
}

void flamegraph_add(struct flamegraph *fg, size_t graph,
		    const struct flame_line *line)
{
	const char *p, *end;
	unsigned int i;
	uint32_t node;

	if (!fg || graph == SVG_NONE)
		return;
	if (graph >= fg->nr_graphs) {
		fail(fg, -EINVAL);
		return;
	}
	if (!line->ns)
		return;
	node = fg->graphs[graph].root;
	fg->nodes[node].ns += line->ns;
	for (p = line->stack, i = 0; *p && i < FLAMEGRAPH_DEPTH_MAX;
	     p = *end ? end + 1 : end, i++) {
		enum flame_heat heat = flame_frame_heat(line, i);

		end = strchr(p, ';');
		if (!end)
			end = p + strlen(p);
		node = child_of(fg, node, p, end - p, heat);
		if (node == NONE) {
			fail(fg, -ENOMEM);
			return;
		}
		fg->nodes[node].ns += line->ns;
	}
}

/* ------------------------------------------------------------------ */
/* Layout */

static int compare_nodes(const void *a, const void *b, void *arg)
{
	const struct flamegraph *fg = arg;
	const struct node *x = &fg->nodes[*(const uint32_t *)a];
	const struct node *y = &fg->nodes[*(const uint32_t *)b];

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->heat != y->heat)
		return x->heat < y->heat ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Every node's children side by side in fg->order, warm first. */
static int sort_children(struct flamegraph *fg)
{
	size_t i;

	free(fg->order);
	fg->order = calloc(fg->nr_nodes ? fg->nr_nodes : 1,
			   sizeof(*fg->order));
	if (!fg->order)
		return -ENOMEM;
	for (i = 0; i < fg->nr_nodes; i++) {
		fg->order[i] = i;
		fg->nodes[i].nr_children = 0;
	}
	qsort_r(fg->order, fg->nr_nodes, sizeof(*fg->order), compare_nodes,
		fg);
	for (i = 0; i < fg->nr_nodes; i++) {
		struct node *n = &fg->nodes[fg->order[i]];

		if (n->parent == NONE)
			continue;
		if (!fg->nodes[n->parent].nr_children++)
			fg->nodes[n->parent].children = i;
	}
	return 0;
}

/* Place @idx at @x, @px_per_ns, and its descendants on top of it. */
static void place(struct flamegraph *fg, uint32_t idx, double x,
		  double px_per_ns)
{
	struct node *n = &fg->nodes[idx];
	uint32_t i;

	n->x = x;
	n->width = n->ns * px_per_ns;
	for (i = 0; i < n->nr_children; i++) {
		uint32_t child = fg->order[n->children + i];

		place(fg, child, x, px_per_ns);
		x += fg->nodes[child].width;
	}
}

/* Frames of @idx's subtree at least @min_px wide, counting up to @limit. */
static size_t count_wide(const struct flamegraph *fg, uint32_t idx,
			 double min_px, size_t limit)
{
	const struct node *n = &fg->nodes[idx];
	size_t count = 1;
	uint32_t c;

	if (!n->ns || n->width < min_px)
		return 0;
	for (c = 0; c < n->nr_children && count <= limit; c++)
		count += count_wide(fg, fg->order[n->children + c], min_px,
				    limit - count);
	return count;
}

/* Count what of @idx's subtree is drawn into @g; mark it. */
static void choose_subtree(struct flamegraph *fg, uint32_t idx,
			   double min_px, struct graph *g)
{
	struct node *n = &fg->nodes[idx];
	uint32_t c;

	n->drawn = n->ns && n->width >= min_px;
	if (n->drawn) {
		g->stats.frames++;
		if (n->depth > g->depth)
			g->depth = n->depth;
	} else {
		g->stats.merged++;
	}
	for (c = 0; c < n->nr_children; c++)
		choose_subtree(fg, fg->order[n->children + c], min_px, g);
}

/*
 * Which frames are drawn, and the depth and counts of each graph: those
 * at least FLAMEGRAPH_MIN_PX wide, or wider in a graph that would have
 * more than its share of FLAMEGRAPH_FRAMES_MAX.
 */
static void choose_frames(struct flamegraph *fg)
{
	size_t i, budget = FLAMEGRAPH_FRAMES_MAX / (fg->nr_graphs ?
						    fg->nr_graphs : 1);

	if (budget < FLAMEGRAPH_GRAPH_FRAMES)
		budget = FLAMEGRAPH_GRAPH_FRAMES;
	for (i = 0; i < fg->nr_graphs; i++) {
		struct graph *g = &fg->graphs[i];
		double min_px = FLAMEGRAPH_MIN_PX;

		while (count_wide(fg, g->root, min_px, budget) > budget)
			min_px *= 2;
		g->depth = 0;
		g->stats = (struct flamegraph_stats){
			.ns = fg->nodes[g->root].ns, .min_px = min_px,
		};
		if (g->stats.ns)
			choose_subtree(fg, g->root, min_px, g);
	}
}

/* ------------------------------------------------------------------ */
/* Drawing */

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h ^ h >> 33;
}

uint32_t flamegraph_colour(const char *name, enum flame_heat heat)
{
	uint64_t h = name_hash(name);

	switch (heat) {
	case FLAME_WARM:
		return svg_hsl(h % 55, 0.78 + (h >> 8) % 18 / 100.0,
			       0.52 + (h >> 16) % 14 / 100.0);
	case FLAME_COLD:
		return svg_hsl(195 + h % 40, 0.55 + (h >> 8) % 25 / 100.0,
			       0.60 + (h >> 16) % 16 / 100.0);
	default:
		return svg_hsl(0, 0, 0.74 + (h >> 8) % 10 / 100.0);
	}
}

static void draw_frame(FILE *f, const struct node *n, double y,
		       uint64_t scale_ns)
{
	char dur[DURATION_LEN];

	fputs("<g class=\"frame\"><title>", f);
	svg_escape(f, n->name);
	fprintf(f, " (%s, %.2f%%)</title>", format_duration(dur, n->ns),
		scale_ns ? 100.0 * n->ns / scale_ns : 0);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" fill=\"#%06x\" rx=\"2\"/>",
		n->x, y, n->width, FRAME_HEIGHT - 1, flamegraph_colour(n->name, n->heat));
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%d\" fill=\"#%06x\">",
		n->x + LABEL_PAD, y + FRAME_HEIGHT - 5, FONT_SIZE,
		TEXT_COLOUR);
	svg_escape_fit(f, n->name, FONT_SIZE, n->width - 2 * LABEL_PAD);
	fputs("</text></g>\n", f);
}

static double graph_height(const struct graph *g)
{
	return HEADING_HEIGHT + (g->depth + 1) * FRAME_HEIGHT + GRAPH_GAP;
}

/* @idx and its descendants that are drawn, left to right. */
static void draw_subtree(FILE *f, const struct flamegraph *fg, uint32_t idx,
			 double base, uint64_t scale_ns)
{
	const struct node *n = &fg->nodes[idx];
	uint32_t c;

	if (!n->drawn)
		return;
	draw_frame(f, n, base - n->depth * FRAME_HEIGHT, scale_ns);
	for (c = 0; c < n->nr_children; c++)
		draw_subtree(f, fg, fg->order[n->children + c], base,
			     scale_ns);
}

/* Graph @g with its heading at @top, @width wide. */
static void draw_graph(FILE *f, const struct flamegraph *fg,
		       const struct graph *g, double top, double width)
{
	double base = top + HEADING_HEIGHT + g->depth * FRAME_HEIGHT;
	uint64_t scale = g->scale_ns > g->stats.ns ? g->scale_ns : g->stats.ns;

	fputs("<g class=\"flame\">\n", f);
	fprintf(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"%d\" font-weight=\"bold\" fill=\"#%06x\">",
		MARGIN, top + HEADING_SIZE + 2, HEADING_SIZE, TEXT_COLOUR);
	svg_escape_fit(f, g->heading, HEADING_SIZE, width - 2 * MARGIN - 90);
	fputs("</text>\n", f);
	fprintf(f, "<text class=\"reset\" x=\"%.2f\" y=\"%.2f\" font-size=\"%d\" text-anchor=\"end\" fill=\"#%06x\" visibility=\"hidden\" cursor=\"pointer\">Reset zoom</text>\n",
		width - MARGIN, top + HEADING_SIZE + 2, HEADING_SIZE,
		LINK_COLOUR);
	if (!g->stats.ns)
		fprintf(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"%d\" fill=\"#%06x\">no time to draw</text>\n",
			MARGIN, base + FRAME_HEIGHT - 5, FONT_SIZE,
			MUTED_COLOUR);
	else
		draw_subtree(f, fg, g->root, base, scale);
	fputs("</g>\n", f);
}

/*
 * The zoom, written for these graphs: a click on a frame widens it to the
 * whole width (its descendants scaled with it, its ancestors kept under it
 * at full width, dimmed, everything else hidden); "Reset zoom" undoes it.
 * Labels are cut to fit as the C side cuts them.
 */
static const char zoom_script[] =
	"function fit(name, width) {\n"
	"\tvar room = Math.floor((width - 2 * PAD) / (0.6 * FONT));\n"
	"\tif (name.length <= room)\n"
	"\t\treturn name;\n"
	"\treturn room > 0 ? name.substr(0, room - 1) + '\\u2026' : '';\n"
	"}\n"
	"function show(f, x, w, dim) {\n"
	"\tf.el.removeAttribute('display');\n"
	"\tf.el.setAttribute('opacity', dim ? '0.55' : '1');\n"
	"\tf.rect.setAttribute('x', x.toFixed(2));\n"
	"\tf.rect.setAttribute('width', w.toFixed(2));\n"
	"\tf.text.setAttribute('x', (x + PAD).toFixed(2));\n"
	"\tf.text.textContent = fit(f.name, w);\n"
	"}\n"
	"function Graph(g) {\n"
	"\tvar self = this, list = g.getElementsByClassName('frame'), i;\n"
	"\tthis.frames = [];\n"
	"\tthis.reset = g.getElementsByClassName('reset')[0];\n"
	"\tfor (i = 0; i < list.length; i++)\n"
	"\t\tthis.frames.push(this.frame(list[i]));\n"
	"\tthis.reset.addEventListener('click', function () {\n"
	"\t\tself.zoom(null);\n"
	"\t});\n"
	"}\n"
	"Graph.prototype.frame = function (el) {\n"
	"\tvar self = this, rect = el.getElementsByTagName('rect')[0];\n"
	"\tvar title = el.getElementsByTagName('title')[0].textContent;\n"
	"\tvar f = {\n"
	"\t\tel: el, rect: rect, text: el.getElementsByTagName('text')[0],\n"
	"\t\tx: parseFloat(rect.getAttribute('x')),\n"
	"\t\ty: parseFloat(rect.getAttribute('y')),\n"
	"\t\tw: parseFloat(rect.getAttribute('width')),\n"
	"\t\tname: title.substring(0, title.lastIndexOf(' ('))\n"
	"\t};\n"
	"\tel.setAttribute('cursor', 'pointer');\n"
	"\tel.addEventListener('click', function () {\n"
	"\t\tself.zoom(f);\n"
	"\t});\n"
	"\treturn f;\n"
	"};\n"
	"Graph.prototype.zoom = function (z) {\n"
	"\tvar i, f, k = z ? W / z.w : 1, lo, hi;\n"
	"\tfor (i = 0; i < this.frames.length; i++) {\n"
	"\t\tf = this.frames[i];\n"
	"\t\tif (!z) {\n"
	"\t\t\tshow(f, f.x, f.w, false);\n"
	"\t\t\tcontinue;\n"
	"\t\t}\n"
	"\t\tlo = z.x - EPS;\n"
	"\t\thi = z.x + z.w + EPS;\n"
	"\t\tif (f.y <= z.y && f.x >= lo && f.x + f.w <= hi)\n"
	"\t\t\tshow(f, X0 + (f.x - z.x) * k, f.w * k, false);\n"
	"\t\telse if (f.y > z.y && f.x <= z.x + EPS &&\n"
	"\t\t\t f.x + f.w >= z.x + z.w - EPS)\n"
	"\t\t\tshow(f, X0, W, true);\n"
	"\t\telse\n"
	"\t\t\tf.el.setAttribute('display', 'none');\n"
	"\t}\n"
	"\tthis.reset.setAttribute('visibility', z ? 'visible' : 'hidden');\n"
	"};\n"
	"(function () {\n"
	"\tvar graphs = document.getElementsByClassName('flame'), i;\n"
	"\tfor (i = 0; i < graphs.length; i++)\n"
	"\t\tnew Graph(graphs[i]);\n"
	"})();\n";

static void write_script(FILE *f, double width)
{
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n'use strict';\n",
	      f);
	fprintf(f, "var X0 = %d, W = %.2f, FONT = %d, PAD = %d, EPS = 0.02;\n",
		MARGIN, width - 2 * MARGIN, FONT_SIZE, LABEL_PAD);
	fputs(zoom_script, f);
	fputs("]]></script>\n", f);
}

/* A line of muted text at @y (its baseline), cut to fit. */
static void note_line(FILE *f, double y, double plot, const char *text)
{
	fprintf(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"%d\" fill=\"#%06x\">",
		MARGIN, y, NOTE_SIZE, MUTED_COLOUR);
	svg_escape_fit(f, text, NOTE_SIZE, plot);
	fputs("</text>\n", f);
}

int flamegraph_write(struct flamegraph *fg, FILE *f, const char *title,
		     const struct svg_frame *frame)
{
	double width = frame && frame->width ? frame->width : DEFAULT_WIDTH;
	double plot = width - 2 * MARGIN, min_px = FLAMEGRAPH_MIN_PX;
	double header, height, y;
	size_t i, merged = 0;
	char note[256];

	if (!fg)
		return -ENOMEM;
	if (fg->err)
		return fg->err;
	if (sort_children(fg))
		return -ENOMEM;
	for (i = 0; i < fg->nr_graphs; i++) {
		const struct graph *g = &fg->graphs[i];
		uint64_t ns = fg->nodes[g->root].ns;
		uint64_t scale = g->scale_ns > ns ? g->scale_ns : ns;

		place(fg, g->root, MARGIN, scale ? plot / scale : 0);
	}
	choose_frames(fg);

	for (i = 0; i < fg->nr_graphs; i++) {
		merged += fg->graphs[i].stats.merged;
		if (fg->graphs[i].stats.min_px > min_px)
			min_px = fg->graphs[i].stats.min_px;
	}
	header = svg_header_height(title, frame);
	y = header + NOTE_HEIGHT * (merged ? 2 : 1);
	height = y;
	for (i = 0; i < fg->nr_graphs; i++)
		height += graph_height(&fg->graphs[i]);
	svg_open(f, width, ceil(height), title);
	svg_header_draw(f, title, frame);
	note_line(f, header + NOTE_SIZE, plot,
		  "Warm: on CPU; blue: off CPU; grey: process and thread. Click a frame to zoom in, Reset zoom to zoom out.");
	if (merged) {
		snprintf(note, sizeof(note),
			 "%zu frame%s narrower than %g px%s not drawn: %s time is in %s parent's width.",
			 merged, merged == 1 ? "" : "s", FLAMEGRAPH_MIN_PX,
			 min_px > FLAMEGRAPH_MIN_PX ? " (wider in busy graphs)" :
			 "", merged == 1 ? "its" : "their",
			 merged == 1 ? "its" : "each");
		note_line(f, header + NOTE_HEIGHT + NOTE_SIZE, plot, note);
	}
	for (i = 0; i < fg->nr_graphs; i++) {
		draw_graph(f, fg, &fg->graphs[i], y, width);
		y += graph_height(&fg->graphs[i]);
	}
	write_script(f, width);
	svg_close(f);
	if (fflush(f) == EOF || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

void flamegraph_stats(const struct flamegraph *fg, size_t graph,
		      struct flamegraph_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (fg && graph < fg->nr_graphs)
		*stats = fg->graphs[graph].stats;
}
