// SPDX-License-Identifier: GPL-2.0
/*
 * htmlpage: the pieces of `schedrec report html`'s page (htmlpage.h): the
 * reports' tables as HTML tables, SVG files inlined or sized, and the
 * page's style sheet and script.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "htmlpage.h"
#include "svg.h"
#include "table.h"
#include "timefmt.h"

/* The first bytes of an SVG file hold its root element. */
#define SVG_HEAD_MAX	4096

/* ------------------------------------------------------------------ */
/* Text */

void html_escape(FILE *f, const char *s)
{
	const char *nl;
	char *line;

	/* svg_escape() drops control bytes: new lines go between pieces */
	while ((nl = strchr(s, '\n'))) {
		line = strndup(s, nl - s);
		if (line)
			svg_escape(f, line);
		free(line);
		fputc('\n', f);
		s = nl + 1;
	}
	svg_escape(f, s);
}

/* How a CSV column's values are shown, from its name. */
enum cell_kind {
	CELL_TEXT,
	CELL_DURATION,		/* *_ns */
	CELL_SHARE,		/* *_share: 0..1 */
	CELL_SECONDS,		/* *_s: seconds, 9 decimals */
};

static enum cell_kind kind_of(const char *column)
{
	if (str_ends_with(column, "_ns"))
		return CELL_DURATION;
	if (str_ends_with(column, "_share"))
		return CELL_SHARE;
	if (str_ends_with(column, "_s"))
		return CELL_SECONDS;
	return CELL_TEXT;
}

/* A number as CSV writes them: digits, a point, a sign. */
static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

/* "max_start_s" is headed "max start (s)", "total_ns" "total". */
static void put_heading(FILE *out, const char *column)
{
	enum cell_kind kind = kind_of(column);
	size_t len = strlen(column), i;

	if (kind == CELL_DURATION)
		len -= 3;
	else if (kind == CELL_SECONDS)
		len -= 2;
	fprintf(out, "<th%s data-col=\"", kind == CELL_TEXT ? "" :
		" class=\"n\"");
	svg_escape(out, column);
	fputs("\" title=\"CSV column ", out);
	svg_escape(out, column);
	fputs("\">", out);
	for (i = 0; i < len; i++) {
		if (column[i] == '_')
			fputc(' ', out);
		else if (strchr("&<>\"'", column[i]))
			fprintf(out, "&#%d;", column[i]);
		else
			fputc(column[i], out);
	}
	if (kind == CELL_SECONDS)
		fputs(" (s)", out);
	fputs("</th>", out);
}

static void put_cell(FILE *out, enum cell_kind kind, const char *v)
{
	char text[DURATION_LEN + SECONDS_LEN];

	if (kind == CELL_TEXT || !is_number(v)) {
		fputs(is_number(v) ? "<td class=\"n\">" : "<td>", out);
		svg_escape(out, v);
		fputs("</td>", out);
		return;
	}
	switch (kind) {
	case CELL_DURATION:
		format_duration(text, strtoull(v, NULL, 10));
		break;
	case CELL_SHARE:
		snprintf(text, sizeof(text), "%.1f %%", strtod(v, NULL) * 100);
		break;
	default:
		snprintf(text, sizeof(text), "%.6f", strtod(v, NULL));
		break;
	}
	fprintf(out, "<td class=\"n\" data-v=\"%s\">%s</td>", v, text);
}

size_t html_table(FILE *out, const struct table *tab, const char *id,
		  size_t max_rows)
{
	size_t rows = table_rows(tab), cols = table_nr_columns(tab), row, col;

	fprintf(out, "<table class=\"data sortable\" id=\"%s\">\n<thead><tr>",
		id);
	for (col = 0; col < cols; col++)
		put_heading(out, table_column_name(tab, col));
	fputs("</tr></thead>\n<tbody>\n", out);
	for (row = 0; row < rows && (!max_rows || row < max_rows); row++) {
		fputs("<tr>", out);
		for (col = 0; col < cols; col++)
			put_cell(out, kind_of(table_column_name(tab, col)),
				 table_csv_cell(tab, row, col));
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	return rows;
}

/* ------------------------------------------------------------------ */
/* SVG */

/* The file's first bytes, NUL-terminated; -errno. */
static int svg_head(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* The value of attribute @name in the tag at @tag, 0 if none. */
static unsigned int tag_number(const char *tag, const char *name)
{
	char key[32];
	const char *end = strchr(tag, '>'), *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	if (!p || (end && p > end))
		return 0;
	return strtoul(p + strlen(key), NULL, 10);
}

int html_svg_size(const char *path, unsigned int *width,
		  unsigned int *height)
{
	char head[SVG_HEAD_MAX];
	unsigned int w, h;
	const char *svg;
	int ret = svg_head(path, head, sizeof(head));

	if (ret)
		return ret;
	svg = strstr(head, "<svg");
	if (!svg)
		return -EPROTO;
	w = tag_number(svg, "width");
	h = tag_number(svg, "height");
	if (!w || !h)
		return -EPROTO;
	*width = w;
	*height = h;
	return 0;
}

int html_inline_svg(FILE *out, const char *path, const char *id,
		    const char *cls)
{
	static const char xmlns[] = " xmlns=\"http://www.w3.org/2000/svg\"";
	char chunk[65536], *svg, *ns;
	bool root = false;
	size_t n;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk) - 1, f)) > 0) {
		chunk[n] = '\0';
		svg = chunk;
		if (!root) {
			/* the root comes first, in the first chunk */
			svg = strstr(chunk, "<svg");
			if (!svg)
				break;
			root = true;
			fprintf(out, "<svg id=\"%s\" class=\"%s\"", id, cls);
			svg += 4;
			ns = strstr(svg, xmlns);
			if (ns && ns < strchr(svg, '>')) {
				fwrite(svg, 1, ns - svg, out);
				svg = ns + strlen(xmlns);
			}
		}
		fwrite(svg, 1, n - (svg - chunk), out);
	}
	ret = !root ? -EPROTO : ferror(f) || ferror(out) ? -EIO : 0;
	fclose(f);
	return ret;
}

void html_svg_object(FILE *out, const char *src, const char *path,
		     const char *id)
{
	unsigned int w = 1200, h = 600;

	html_svg_size(path, &w, &h);
	fputs("<object class=\"chart\" type=\"image/svg+xml\"", out);
	if (id)
		fprintf(out, " id=\"%s\"", id);
	fprintf(out, " data=\"%s\" width=\"%u\" height=\"%u\" style=\"aspect-ratio: %u / %u\"><a href=\"%s\">%s</a></object>\n",
		src, w, h, w, h, src, src);
}

/* ------------------------------------------------------------------ */
/* The page's style sheet and script (see tools/html.c for the page) */

const char html_page_style[] =
	"/* schedrec report html: one page, no network, no font of its own */\n"
	"body {\n"
	"\tmargin: 0;\n"
	"\tfont: 14px/1.45 sans-serif;\n"
	"\tcolor: #222;\n"
	"\tbackground: #f4f5f7;\n"
	"}\n"
	"nav {\n"
	"\tposition: sticky;\n"
	"\ttop: 0;\n"
	"\tz-index: 2;\n"
	"\tpadding: 7px 20px;\n"
	"\tbackground: #263238;\n"
	"}\n"
	"nav a {\n"
	"\tmargin-right: 16px;\n"
	"\tcolor: #eceff1;\n"
	"\ttext-decoration: none;\n"
	"}\n"
	"nav a:hover {\n"
	"\ttext-decoration: underline;\n"
	"}\n"
	"main {\n"
	"\tmax-width: 1240px;\n"
	"\tmargin: 0 auto;\n"
	"\tpadding: 0 16px 40px;\n"
	"}\n"
	"h1 {\n"
	"\tmargin: 18px 0 2px;\n"
	"\tfont-size: 22px;\n"
	"}\n"
	"h2 {\n"
	"\tmargin: 0 0 8px;\n"
	"\tfont-size: 18px;\n"
	"}\n"
	"h3 {\n"
	"\tmargin: 14px 0 6px;\n"
	"\tfont-size: 15px;\n"
	"}\n"
	"section {\n"
	"\tmargin: 16px 0;\n"
	"\tpadding: 12px 16px;\n"
	"\tbackground: #fff;\n"
	"\tborder: 1px solid #dde1e6;\n"
	"\tborder-radius: 4px;\n"
	"\t/* under the sticky nav when a link scrolls here */\n"
	"\tscroll-margin-top: 44px;\n"
	"}\n"
	".sub {\n"
	"\tmargin: 0 0 8px;\n"
	"\tcolor: #555;\n"
	"}\n"
	".warning {\n"
	"\tmargin: 8px 0;\n"
	"\tpadding: 6px 10px;\n"
	"\tcolor: #8e0000;\n"
	"\tbackground: #fdecea;\n"
	"\tborder-left: 4px solid #c62828;\n"
	"}\n"
	".ok {\n"
	"\tcolor: #2e7d32;\n"
	"}\n"
	"dl.meta {\n"
	"\tdisplay: grid;\n"
	"\tgrid-template-columns: max-content 1fr;\n"
	"\tgap: 2px 18px;\n"
	"\tmargin: 0 0 10px;\n"
	"}\n"
	"dl.meta dt {\n"
	"\tcolor: #555;\n"
	"}\n"
	"dl.meta dd {\n"
	"\tmargin: 0;\n"
	"}\n"
	"code {\n"
	"\tfont-size: 13px;\n"
	"\tbackground: #f1f3f4;\n"
	"\tpadding: 0 3px;\n"
	"}\n"
	".scroll {\n"
	"\twidth: fit-content;\n"
	"\tmax-width: 100%;\n"
	"\tmax-height: 440px;\n"
	"\toverflow: auto;\n"
	"\tborder: 1px solid #e5e7ea;\n"
	"}\n"
	"table.data {\n"
	"\tborder-collapse: collapse;\n"
	"\tfont-size: 13px;\n"
	"}\n"
	"table.data th,\n"
	"table.data td {\n"
	"\tpadding: 2px 9px;\n"
	"\tborder-bottom: 1px solid #eef0f2;\n"
	"\ttext-align: left;\n"
	"\twhite-space: nowrap;\n"
	"}\n"
	"table.data th {\n"
	"\tposition: sticky;\n"
	"\ttop: 0;\n"
	"\tbackground: #e8ecef;\n"
	"\tcursor: pointer;\n"
	"\tuser-select: none;\n"
	"}\n"
	"table.data th[aria-sort=descending]::after {\n"
	"\tcontent: \" \\25BC\";\n"
	"}\n"
	"table.data th[aria-sort=ascending]::after {\n"
	"\tcontent: \" \\25B2\";\n"
	"}\n"
	"table.data td.n,\n"
	"table.data th.n {\n"
	"\ttext-align: right;\n"
	"\tfont-variant-numeric: tabular-nums;\n"
	"}\n"
	"table.data tbody tr:hover {\n"
	"\tbackground: #f5f9ff;\n"
	"}\n"
	".files {\n"
	"\tmargin: 6px 0;\n"
	"\tcolor: #555;\n"
	"\tfont-size: 13px;\n"
	"}\n"
	".files a {\n"
	"\tmargin-right: 10px;\n"
	"}\n"
	"svg.heatmap {\n"
	"\tdisplay: block;\n"
	"\tmax-width: 100%;\n"
	"\theight: auto;\n"
	"\tcursor: pointer;\n"
	"}\n"
	".heat-mark {\n"
	"\tfill: none;\n"
	"\tstroke: #1f5fbf;\n"
	"\tstroke-width: 3;\n"
	"\tpointer-events: none;\n"
	"}\n"
	".heat-done {\n"
	"\tfill: #1f5fbf;\n"
	"}\n"
	"object.chart {\n"
	"\tdisplay: block;\n"
	"\tmax-width: 100%;\n"
	"\theight: auto;\n"
	"\tborder: 1px solid #eef0f2;\n"
	"}\n"
	".second-list a {\n"
	"\tdisplay: inline-block;\n"
	"\tmargin: 2px 4px 2px 0;\n"
	"\tpadding: 1px 8px;\n"
	"\tcolor: #1f5fbf;\n"
	"\tborder: 1px solid #b8c7e0;\n"
	"\tborder-radius: 3px;\n"
	"\ttext-decoration: none;\n"
	"}\n"
	".second-list a.current {\n"
	"\tcolor: #fff;\n"
	"\tbackground: #1f5fbf;\n"
	"}\n"
	"details {\n"
	"\tmargin: 8px 0;\n"
	"}\n"
	"details pre {\n"
	"\tfont-size: 12px;\n"
	"\twhite-space: pre-wrap;\n"
	"}\n"
	"[hidden] {\n"
	"\tdisplay: none !important;\n"
	"}\n";

const char html_page_script[] =
	"'use strict';\n"
	"/*\n"
	" * A click on a heat-map cell shows that second below it: its timeline and\n"
	" * flame graph, SVG files of the page's directory loaded into <object>s\n"
	" * (fetch() of a file:// page's files is refused, <object> is not).  A\n"
	" * click on a table's heading sorts the table by that column.\n"
	" */\n"
	"(function () {\n"
	"\tvar data = JSON.parse(document.getElementById('views-data').textContent);\n"
	"\tvar heat = document.getElementById('heat');\n"
	"\tvar views = {};\t\t/* second -> its pre-rendered files */\n"
	"\tvar columns = {};\t/* second -> the box of its heat-map cells */\n"
	"\tvar mark = null;\t/* the outline of the column shown */\n"
	"\n"
	"\tdata.views.forEach(function (v) {\n"
	"\t\tviews[v.second] = v;\n"
	"\t});\n"
	"\n"
	"\t/* The text of @el's own <title>, '' if none. */\n"
	"\tfunction titleOf(el) {\n"
	"\t\tvar c;\n"
	"\n"
	"\t\tfor (c = el.firstElementChild; c; c = c.nextElementSibling)\n"
	"\t\t\tif (c.tagName === 'title')\n"
	"\t\t\t\treturn c.textContent;\n"
	"\t\treturn '';\n"
	"\t}\n"
	"\n"
	"\t/* A cell's tooltip says 'second N, offset ...': N, or null. */\n"
	"\tfunction secondOf(el) {\n"
	"\t\tvar m;\n"
	"\n"
	"\t\tfor (; el && el !== heat && el.nodeType === 1; el = el.parentNode) {\n"
	"\t\t\tm = /^second (\\d+),/.exec(titleOf(el));\n"
	"\t\t\tif (m)\n"
	"\t\t\t\treturn Number(m[1]);\n"
	"\t\t}\n"
	"\t\treturn null;\n"
	"\t}\n"
	"\n"
	"\tfunction svgRect(box, cls, title) {\n"
	"\t\tvar r = document.createElementNS(heat.namespaceURI, 'rect');\n"
	"\t\tvar t;\n"
	"\n"
	"\t\tr.setAttribute('x', box.x0);\n"
	"\t\tr.setAttribute('y', box.y0);\n"
	"\t\tr.setAttribute('width', box.x1 - box.x0);\n"
	"\t\tr.setAttribute('height', box.y1 - box.y0);\n"
	"\t\tr.setAttribute('class', cls);\n"
	"\t\tif (title) {\n"
	"\t\t\tt = document.createElementNS(heat.namespaceURI, 'title');\n"
	"\t\t\tt.textContent = title;\n"
	"\t\t\tr.appendChild(t);\n"
	"\t\t}\n"
	"\t\theat.appendChild(r);\n"
	"\t\treturn r;\n"
	"\t}\n"
	"\n"
	"\t/* The box of each column, from its cells; a tick over those done. */\n"
	"\tfunction measure() {\n"
	"\t\tvar rects = heat.getElementsByTagName('rect');\n"
	"\t\tvar i, s, r, b, x, y;\n"
	"\n"
	"\t\tfor (i = 0; i < rects.length; i++) {\n"
	"\t\t\tr = rects[i];\n"
	"\t\t\ts = secondOf(r);\n"
	"\t\t\tif (s === null)\n"
	"\t\t\t\tcontinue;\n"
	"\t\t\tx = Number(r.getAttribute('x'));\n"
	"\t\t\ty = Number(r.getAttribute('y'));\n"
	"\t\t\tb = columns[s];\n"
	"\t\t\tif (!b)\n"
	"\t\t\t\tb = columns[s] = { x0: x, y0: y, x1: x, y1: y };\n"
	"\t\t\tb.x0 = Math.min(b.x0, x);\n"
	"\t\t\tb.y0 = Math.min(b.y0, y);\n"
	"\t\t\tb.x1 = Math.max(b.x1, x + Number(r.getAttribute('width')));\n"
	"\t\t\tb.y1 = Math.max(b.y1, y + Number(r.getAttribute('height')));\n"
	"\t\t}\n"
	"\t\tdata.views.forEach(function (v) {\n"
	"\t\t\tb = columns[v.second];\n"
	"\t\t\tif (b)\n"
	"\t\t\t\tsvgRect({ x0: b.x0 + 1, x1: b.x1 - 1, y0: b.y0 - 7,\n"
	"\t\t\t\t\t  y1: b.y0 - 2 }, 'heat-done',\n"
	"\t\t\t\t\t'second ' + v.second +\n"
	"\t\t\t\t\t', pre-rendered: click to show it');\n"
	"\t\t});\n"
	"\t}\n"
	"\n"
	"\t/* Load @spec ({src, text, w, h}) into the view @box, once. */\n"
	"\tfunction load(box, spec) {\n"
	"\t\tvar slot = box.querySelector('.slot');\n"
	"\t\tvar obj = slot.querySelector('object');\n"
	"\t\tvar links = box.querySelectorAll('a[data-kind]');\n"
	"\t\tvar i;\n"
	"\n"
	"\t\tfor (i = 0; i < links.length; i++)\n"
	"\t\t\tlinks[i].setAttribute('href',\n"
	"\t\t\t\tspec[links[i].getAttribute('data-kind')]);\n"
	"\t\tif (obj && obj.getAttribute('data') === spec.src)\n"
	"\t\t\treturn;\n"
	"\t\tobj = document.createElement('object');\n"
	"\t\tobj.className = 'chart';\n"
	"\t\tobj.type = 'image/svg+xml';\n"
	"\t\tobj.width = spec.w;\n"
	"\t\tobj.height = spec.h;\n"
	"\t\tobj.style.aspectRatio = spec.w + ' / ' + spec.h;\n"
	"\t\tobj.addEventListener('load', function () {\n"
	"\t\t\tobj.setAttribute('data-loaded', 'yes');\n"
	"\t\t});\n"
	"\t\tobj.setAttribute('data', spec.src);\n"
	"\t\tslot.replaceChildren(obj);\n"
	"\t}\n"
	"\n"
	"\t/* Show second @s in the view under the heat map. */\n"
	"\tfunction show(s, scroll) {\n"
	"\t\tvar v = views[s];\n"
	"\t\tvar section = document.getElementById('second');\n"
	"\t\tvar note = document.getElementById('second-note');\n"
	"\t\tvar links = document.querySelectorAll('a.second-link');\n"
	"\t\tvar i;\n"
	"\n"
	"\t\tsection.setAttribute('data-second', s);\n"
	"\t\tdocument.getElementById('second-title').textContent =\n"
	"\t\t\t'Second ' + s + ': from ' + s + ' to ' + (s + 1) +\n"
	"\t\t\t' s since the start';\n"
	"\t\tnote.hidden = !!v;\n"
	"\t\tif (!v)\n"
	"\t\t\tnote.textContent = 'Second ' + s + ' was not pre-rendered: ' +\n"
	"\t\t\t\tdata.why + ' To see it: schedrec report timeline ' +\n"
	"\t\t\t\tdata.trace + ' --range ' + s + ':' + (s + 1) +\n"
	"\t\t\t\t' --threads --svg timeline.svg' + data.selection +\n"
	"\t\t\t\t' (and schedrec report flame, the same way).';\n"
	"\t\t['timeline', 'flame'].forEach(function (kind) {\n"
	"\t\t\tvar box = document.getElementById('second-' + kind);\n"
	"\n"
	"\t\t\tbox.hidden = !v;\n"
	"\t\t\tif (v)\n"
	"\t\t\t\tload(box, v[kind]);\n"
	"\t\t});\n"
	"\t\tfor (i = 0; i < links.length; i++)\n"
	"\t\t\tlinks[i].classList.toggle('current',\n"
	"\t\t\t\tNumber(links[i].getAttribute('data-second')) === s);\n"
	"\t\tif (mark)\n"
	"\t\t\tmark.remove();\n"
	"\t\tmark = columns[s] ? svgRect(columns[s], 'heat-mark') : null;\n"
	"\t\ttry {\n"
	"\t\t\thistory.replaceState(null, '', '#second-' + s);\n"
	"\t\t} catch (e) {\n"
	"\t\t\t/* a page that cannot say so in its address: no matter */\n"
	"\t\t}\n"
	"\t\tif (scroll)\n"
	"\t\t\tsection.scrollIntoView();\n"
	"\t}\n"
	"\n"
	"\t/* Sort @table's rows by column @col; again: the other way. */\n"
	"\tfunction sortBy(table, th, col) {\n"
	"\t\tvar body = table.tBodies[0];\n"
	"\t\tvar rows = Array.prototype.slice.call(body.rows);\n"
	"\t\tvar down = th.getAttribute('aria-sort') !== 'descending';\n"
	"\t\tvar heads = table.tHead.rows[0].cells;\n"
	"\t\tvar i;\n"
	"\n"
	"\t\tfunction key(row) {\n"
	"\t\t\tvar td = row.cells[col];\n"
	"\t\t\tvar v = td.hasAttribute('data-v') ?\n"
	"\t\t\t\ttd.getAttribute('data-v') : td.textContent;\n"
	"\t\t\tvar n = Number(v);\n"
	"\n"
	"\t\t\treturn v !== '' && !isNaN(n) ? n : v;\n"
	"\t\t}\n"
	"\t\trows.sort(function (a, b) {\n"
	"\t\t\tvar x = key(a), y = key(b), order;\n"
	"\n"
	"\t\t\tif (typeof x !== typeof y)\n"
	"\t\t\t\torder = typeof x === 'number' ? -1 : 1;\n"
	"\t\t\telse\n"
	"\t\t\t\torder = x < y ? -1 : x > y ? 1 : 0;\n"
	"\t\t\treturn down ? -order : order;\n"
	"\t\t});\n"
	"\t\trows.forEach(function (row) {\n"
	"\t\t\tbody.appendChild(row);\n"
	"\t\t});\n"
	"\t\tfor (i = 0; i < heads.length; i++)\n"
	"\t\t\theads[i].removeAttribute('aria-sort');\n"
	"\t\tth.setAttribute('aria-sort', down ? 'descending' : 'ascending');\n"
	"\t}\n"
	"\n"
	"\tdocument.querySelectorAll('table.sortable').forEach(function (table) {\n"
	"\t\tvar heads = table.tHead.rows[0].cells;\n"
	"\t\tvar i;\n"
	"\n"
	"\t\tfor (i = 0; i < heads.length; i++)\n"
	"\t\t\theads[i].addEventListener('click', sortBy.bind(null,\n"
	"\t\t\t\ttable, heads[i], i));\n"
	"\t});\n"
	"\n"
	"\tdocument.querySelectorAll('a.second-link').forEach(function (a) {\n"
	"\t\ta.addEventListener('click', function (e) {\n"
	"\t\t\te.preventDefault();\n"
	"\t\t\tshow(Number(a.getAttribute('data-second')), false);\n"
	"\t\t});\n"
	"\t});\n"
	"\n"
	"\tif (heat) {\n"
	"\t\tmeasure();\n"
	"\t\theat.addEventListener('click', function (e) {\n"
	"\t\t\tvar s = secondOf(e.target);\n"
	"\n"
	"\t\t\tif (s !== null)\n"
	"\t\t\t\tshow(s, true);\n"
	"\t\t});\n"
	"\t}\n"
	"\n"
	"\t(function first() {\n"
	"\t\tvar m = /^#second-(\\d+)$/.exec(location.hash);\n"
	"\n"
	"\t\tif (m)\n"
	"\t\t\tshow(Number(m[1]), true);\n"
	"\t\telse if (data.views.length)\n"
	"\t\t\tshow(data.views[0].second, false);\n"
	"\t})();\n"
	"})();\n";
