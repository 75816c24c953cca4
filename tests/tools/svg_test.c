// SPDX-License-Identifier: GPL-2.0
/*
 * The chart writer's contract, read off the SVG text: well-formed XML
 * (checked here, and by python3's parser when there is one), bar widths
 * and heights proportional to the values, tooltips that carry the given
 * titles escaped, labels shortened with an ellipsis and kept whole in a
 * tooltip, a legend of only the keys drawn, the warning in red at the top,
 * 1-2-5 axis ticks, at most 2 decimals in attributes, nothing external,
 * "no data" for empty charts, and errors (write, misuse) returned.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "run_util.h"
#include "svg.h"

#define ELLIPSIS	"\xe2\x80\xa6"
#define WARNING_FILL	"fill=\"#c00000\""

/* An in-memory FILE and what was written to it. */
struct memout {
	FILE *f;
	char *buf;
	size_t len;
};

static FILE *mem_open(struct memout *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

static char *mem_close(struct memout *m)
{
	fclose(m->f);
	return m->buf;
}

/* The length of the UTF-8 character at @s, 0 if it is not one. */
static size_t utf8_char(const unsigned char *s)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* shortest form only, no surrogates, no U+FFFE/U+FFFF, Unicode */
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
	    (len == 4 && c < 0x10000) || (c >= 0xd800 && c <= 0xdfff) ||
	    c == 0xfffe || c == 0xffff || c > 0x10ffff)
		return 0;
	return len;
}

/* Characters (not bytes) of @s. */
static size_t utf8_chars(const char *s, size_t len)
{
	size_t n = 0, i = 0, l;

	while (i < len) {
		l = utf8_char((const unsigned char *)s + i);
		i += l ? l : 1;
		n++;
	}
	return n;
}

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c == ':';
}

static size_t name_len(const char *p)
{
	size_t n = 0;

	if (!is_name_start(*p))
		return 0;
	while (is_name_start(p[n]) || (p[n] >= '0' && p[n] <= '9') ||
	       p[n] == '-' || p[n] == '.')
		n++;
	return n;
}

/* The length of the entity reference at @p, 0 if it is not one. */
static size_t entity_len(const char *p)
{
	static const char *const named[] = {
		"&lt;", "&gt;", "&amp;", "&quot;", "&apos;",
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (!strncmp(p, named[i], strlen(named[i])))
			return strlen(named[i]);
	if (strncmp(p, "&#", 2))
		return 0;
	n = 2;
	if (p[n] == 'x')
		n++;
	while (strchr("0123456789abcdefABCDEF", p[n]) && p[n])
		n++;
	return p[n] == ';' && n > 2 ? n + 1 : 0;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* Parse the attributes of a start tag from @p; NULL if one is bad. */
static const char *xml_attributes(const char *p, const char **why)
{
	const char *names[32], *ws;
	size_t lens[32], nr = 0, n, i;
	char quote;

	for (;;) {
		ws = p;
		p = skip_space(p);
		if (*p == '>' || (*p == '/' && p[1] == '>'))
			return p;
		n = name_len(p);
		if (p == ws || !n) {
			*why = "bad attribute";
			return NULL;
		}
		for (i = 0; i < nr; i++) {
			if (lens[i] == n && !strncmp(names[i], p, n)) {
				*why = "attribute given twice";
				return NULL;
			}
		}
		if (nr < ARRAY_SIZE(names)) {
			names[nr] = p;
			lens[nr++] = n;
		}
		p += n;
		quote = p[1];
		if (*p != '=' || (quote != '"' && quote != '\'')) {
			*why = "attribute without a quoted value";
			return NULL;
		}
		for (p += 2; *p != quote; p += *p == '&' ? entity_len(p) : 1) {
			if (!*p || *p == '<' || (*p == '&' && !entity_len(p))) {
				*why = "bad attribute value";
				return NULL;
			}
		}
		p++;
	}
}

/*
 * NULL if @doc is well-formed XML (UTF-8, one root element, tags nested
 * and closed, attributes quoted and unique, entities known), else why not.
 */
static const char *xml_problem(const char *doc)
{
	const char *open[64], *p = doc, *why = NULL;
	size_t open_len[64], depth = 0, n;
	bool root = false;

	for (p = doc; *p; p += n) {
		n = utf8_char((const unsigned char *)p);
		if (!n)
			return "not UTF-8";
		if ((unsigned char)*p < 0x20 && !strchr("\t\n\r", *p))
			return "a control character";
	}
	p = doc;
	if (!strncmp(p, "<?xml ", 6)) {
		p = strstr(p, "?>");
		if (!p)
			return "unclosed XML declaration";
		p += 2;
	}
	while (*p) {
		if (*p == '&') {
			n = entity_len(p);
			if (!n)
				return "bad entity";
			p += n;
		} else if (*p != '<') {
			if (!depth && !strchr(" \t\r\n", *p))
				return "text outside the root element";
			p++;
		} else if (p[1] == '/') {
			p += 2;
			n = name_len(p);
			if (!depth || n != open_len[depth - 1] ||
			    strncmp(p, open[depth - 1], n))
				return "end tag does not match";
			depth--;
			p = skip_space(p + n);
			if (*p++ != '>')
				return "bad end tag";
		} else {
			n = name_len(++p);
			if (!n)
				return "bad tag name";
			if (!depth && root)
				return "a second root element";
			root = true;
			if (depth == ARRAY_SIZE(open))
				return "too deep";
			open[depth] = p;
			open_len[depth] = n;
			p = xml_attributes(p + n, &why);
			if (!p)
				return why;
			if (*p == '>')
				depth++;
			p += *p == '>' ? 1 : 2;
		}
	}
	if (depth)
		return "unclosed element";
	return root ? NULL : "no root element";
}

/* 1 if python3's XML parser takes @doc, 0 if not, -1 without python3. */
static int python_parses(const char *doc)
{
	FILE *p;
	int status;

	/* a parser that gives up early closes the pipe: not our death */
	signal(SIGPIPE, SIG_IGN);
	p = popen("command -v python3 >/dev/null 2>&1 || exit 127; "
		  "exec python3 -c 'import sys, xml.dom.minidom; "
		  "xml.dom.minidom.parse(sys.stdin.buffer)' 2>/dev/null", "w");
	if (!p)
		return -1;
	fputs(doc, p);
	status = pclose(p);
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status) == 0;
}

#define ASSERT_WELL_FORMED(doc) do {					\
	const char *why_ = xml_problem(doc);				\
									\
	ASSERT_EQ(NULL, why_) TH_LOG("%s:\n%s", why_, doc);		\
	ASSERT_NE(0, python_parses(doc)) TH_LOG("python3:\n%s", doc);	\
} while (0)

TEST(the_xml_checker_rejects_what_is_not_xml)
{
	static const char *const bad[] = {
		"<a><b></a></b>", "<a>&nbsp;</a>", "<a x=1/>", "<a x='1' x='2'/>",
		"<a>x<y</a>", "<a/><b/>", "<a>", "text<a/>", "<a>\xc3</a>",
		"<a>\x01</a>", "<a x=\"<\"/>", "<a><!-- open </a>",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_NE(NULL, xml_problem(bad[i])) TH_LOG("%zu", i);
		EXPECT_NE(1, python_parses(bad[i])) TH_LOG("%zu", i);
	}
	EXPECT_EQ(NULL, xml_problem("<?xml version=\"1.0\"?>\n<a x='&lt;'>"
				    "<b/>&#x41;\xc3\xa9</a>\n"));
}

/* The start tag of the element whose first child is <title>@title. */
static const char *titled(const char *doc, const char *title)
{
	const char *t, *tag;
	char *needle;

	if (asprintf(&needle, "><title>%s</title>", title) < 0)
		return NULL;
	t = strstr(doc, needle);
	free(needle);
	if (!t)
		return NULL;
	for (tag = t; tag > doc && *tag != '<'; tag--)
		;
	return tag;
}

/* The number in the attribute @name of the tag at @tag, or NAN. */
static double attr(const char *tag, const char *name)
{
	const char *end, *a;
	char key[64];

	if (!tag)
		return NAN;
	end = strchr(tag, '>');
	snprintf(key, sizeof(key), " %s=\"", name);
	a = strstr(tag, key);
	if (!a || a > end)
		return NAN;
	return strtod(a + strlen(key), NULL);
}

/* Equal but for the rounding to 2 decimals of the numbers drawn. */
static bool near(double a, double b)
{
	return fabs(a - b) <= 0.05;
}

/* The tag of the first <text> whose content is @text. */
static const char *text_tag(const char *doc, const char *text)
{
	const char *t, *tag;
	char *needle;

	if (asprintf(&needle, ">%s</text>", text) < 0)
		return NULL;
	t = strstr(doc, needle);
	free(needle);
	if (!t)
		return NULL;
	for (tag = t; tag > doc && strncmp(tag, "<text", 5); tag--)
		;
	return tag;
}

/* The values of the tick labels, in the order drawn. */
static size_t ticks(const char *doc, double *values, size_t max)
{
	const char *p = doc;
	size_t n = 0;

	while (n < max && (p = strstr(p, "class=\"tick\">"))) {
		p += strlen("class=\"tick\">");
		values[n++] = strtod(p, NULL);
	}
	return n;
}

/* NULL if @v are 0, step, 2 step, ... up to @max with a 1-2-5 step. */
static const char *ticks_problem(const double *v, size_t n, double max)
{
	double step, mantissa;
	size_t i;

	if (n < 3)
		return "fewer than 3 ticks";
	if (v[0] != 0)
		return "not from 0";
	step = v[1] - v[0];
	for (i = 2; i < n; i++)
		if (fabs(v[i] - v[i - 1] - step) > step * 1e-6)
			return "uneven steps";
	mantissa = step / pow(10, floor(log10(step) + 1e-9));
	if (fabs(mantissa - 1) > 1e-6 && fabs(mantissa - 2) > 1e-6 &&
	    fabs(mantissa - 5) > 1e-6)
		return "not a 1-2-5 step";
	if (v[n - 1] > max * (1 + 1e-9) || v[n - 1] + step <= max)
		return "the ticks do not span the values";
	return NULL;
}

/* A bar chart of one row per value, keyed 'S', rendered; not of times. */
static char *bars_of(const double *values, size_t n, double max,
		     const struct svg_frame *frame)
{
	struct svg_bars *b = svg_bars_new("values", "n");
	struct memout m;
	char label[32];
	size_t i, row;
	int err;

	for (i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "row %zu", i);
		row = svg_bars_row(b, label);
		svg_bars_add(b, row, 'S', values[i] * max, NULL);
	}
	if (!mem_open(&m))
		return NULL;
	err = svg_bars_write(b, m.f, frame);
	svg_bars_free(b);
	mem_close(&m);
	if (err) {
		free(m.buf);
		return NULL;
	}
	return m.buf;
}

TEST(bar_widths_follow_the_values)
{
	struct svg_bars *b = svg_bars_new("Off-CPU", "ms");
	const char *r1, *s1, *s2;
	struct memout m;
	size_t first, second;

	svg_bars_key(b, 'R', "R runnable", SVG_RED);
	svg_bars_key(b, 'S', "S sleeping", SVG_GREEN);
	first = svg_bars_row(b, "first");
	second = svg_bars_row(b, "second");
	ASSERT_EQ(0, first);
	ASSERT_EQ(1, second);
	/* added S first: drawn R first all the same, in the keys' order */
	svg_bars_add(b, first, 'S', 4, "first S");
	svg_bars_add(b, first, 'R', 6, "first R");
	svg_bars_add(b, second, 'S', 5, "second S");
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	r1 = titled(m.buf, "first R");
	s1 = titled(m.buf, "first S");
	s2 = titled(m.buf, "second S");
	ASSERT_NE(NULL, r1);
	ASSERT_NE(NULL, s1);
	ASSERT_NE(NULL, s2);
	ASSERT_TRUE(!strncmp(r1, "<rect", 5) && !strncmp(s2, "<rect", 5));
	EXPECT_TRUE(strstr(r1, "fill=\"#d62728\"") < strchr(r1, '>'));
	EXPECT_TRUE(strstr(s1, "fill=\"#2ca02c\"") < strchr(s1, '>'));
	/* 6 : 4, and the second row's 5 is half the first row's 10 */
	EXPECT_TRUE(near(attr(r1, "width") * 4, attr(s1, "width") * 6));
	EXPECT_TRUE(near(2 * attr(s2, "width"),
			 attr(r1, "width") + attr(s1, "width")))
		TH_LOG("%g + %g vs 2 x %g", attr(r1, "width"),
		       attr(s1, "width"), attr(s2, "width"));
	/* R then S, end to end, both rows from the same x */
	EXPECT_TRUE(near(attr(s1, "x"), attr(r1, "x") + attr(r1, "width")));
	EXPECT_TRUE(near(attr(s2, "x"), attr(r1, "x")));
	EXPECT_TRUE(near(attr(r1, "y"), attr(s1, "y")));
	EXPECT_LE(18, attr(s2, "y") - attr(s1, "y"));
	EXPECT_GE(22, attr(s2, "y") - attr(s1, "y"));
	/* the largest total fills the plot: most of 1200 px */
	EXPECT_LT(600, attr(r1, "width") + attr(s1, "width"));
	EXPECT_GT(1200, attr(s1, "x") + attr(s1, "width"));
	free(m.buf);
}

/* The text after the bar of the row labelled @row, or NULL. */
static const char *row_total(const char *doc, const char *row)
{
	char *needle;
	const char *t;

	if (asprintf(&needle, ">%s</text>", row) < 0)
		return NULL;
	t = strstr(doc, needle);
	free(needle);
	t = t ? strstr(t, "</rect>\n<text") : NULL;
	return t ? t + strlen("</rect>\n") : NULL;
}

TEST(times_are_written_in_a_unit_that_suits_them)
{
	/* the longest off-CPU interval of a hackbench thread, and a short one */
	struct svg_bars *b = svg_bars_new("Longest", "ms");
	const char *longest, *shortest, *end;
	double v[64], right;
	struct memout m;
	size_t n;

	svg_bars_add(b, svg_bars_row(b, "long 1"), 'S', 20531.799, NULL);
	svg_bars_add(b, svg_bars_row(b, "short 2"), 'S', 0.0425, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	/* as the text tables write them, whole: no ellipsis */
	longest = row_total(m.buf, "long 1");
	shortest = row_total(m.buf, "short 2");
	ASSERT_NE(NULL, longest);
	ASSERT_NE(NULL, shortest);
	EXPECT_EQ(longest, text_tag(m.buf, "20.532 s")) TH_LOG("%.80s", longest);
	EXPECT_EQ(shortest, text_tag(m.buf, "42.500 us"));
	EXPECT_EQ(NULL, strstr(m.buf, ELLIPSIS));
	/* the longest bar's total ends within the chart: 8 characters */
	right = attr(longest, "x") + 8 * 0.6 * attr(longest, "font-size");
	EXPECT_GE(1200 - 10, right) TH_LOG("ends at %g px", right);
	/* the axis in s: 0, 2, ... 20, captioned s; the tooltips keep ms */
	n = ticks(m.buf, v, ARRAY_SIZE(v));
	EXPECT_EQ(NULL, ticks_problem(v, n, 20.531799));
	end = strstr(m.buf, " class=\"tick\">");
	ASSERT_NE(NULL, end);
	EXPECT_NE(NULL, strstr(end, "text-anchor=\"middle\" fill=\"#555555\">s</text>"));
	EXPECT_NE(NULL, titled(m.buf, "long 1: S: 20531.799 ms"));
	free(m.buf);
}

TEST(bar_values_of_a_key_add_up)
{
	struct svg_bars *b = svg_bars_new("Sum", "us");
	const char *twice, *once;
	struct memout m;
	size_t row;

	row = svg_bars_row(b, "twice");
	svg_bars_add(b, row, 'S', 3, "old title");
	svg_bars_add(b, row, 'S', 2, "twice S");
	/* nothing to draw: no segment, no error */
	svg_bars_add(b, row, 'S', -1, "negative");
	svg_bars_add(b, row, 'S', NAN, "nan");
	row = svg_bars_row(b, "once");
	svg_bars_add(b, row, 'S', 5, "once S");
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	twice = titled(m.buf, "twice S");
	once = titled(m.buf, "once S");
	ASSERT_NE(NULL, twice);
	ASSERT_NE(NULL, once);
	EXPECT_TRUE(near(attr(twice, "width"), attr(once, "width")));
	EXPECT_EQ(NULL, strstr(m.buf, "old title"));
	EXPECT_EQ(NULL, strstr(m.buf, "negative"));
	EXPECT_EQ(NULL, strstr(m.buf, "nan"));
	/* one segment */
	EXPECT_EQ(1, count_matches(m.buf, "twice S"));
	free(m.buf);
}

TEST(default_tooltips_tell_the_value)
{
	struct svg_bars *b = svg_bars_new("Default", "ms");
	struct memout m;
	size_t row;

	svg_bars_key(b, 'D', "D disk", SVG_YELLOW);
	row = svg_bars_row(b, "app 7");
	svg_bars_add(b, row, 'D', 12.5, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);
	EXPECT_NE(NULL, titled(m.buf, "app 7: D disk: 12.5 ms"))
		TH_LOG("%s", m.buf);
	/* the row's own tooltip, for its label and its total, as after it */
	EXPECT_NE(NULL, strstr(m.buf, "<g><title>app 7: total: 12.500 ms</title>"));
	EXPECT_NE(NULL, strstr(m.buf, ">12.500 ms</text>"));
	EXPECT_NE(NULL, titled(m.buf, "D disk: total: 12.5 ms"));
	free(m.buf);
}

/*
 * Rows of one maximum each (offcpu's): the tooltips of the rows and of the
 * legend say max, the legend's the largest, not the sum; a row that may
 * rest on lost events has "~" before its value.
 */
TEST(bars_of_maxima)
{
	struct svg_bars *b = svg_bars_new("Longest", "ms");
	struct memout m;
	size_t row;

	svg_bars_key(b, 'S', "S", SVG_GREEN);
	svg_bars_maxima(b);
	row = svg_bars_row(b, "app 7");
	svg_bars_add(b, row, 'S', 12.5, "app 7: longest ~12.500 ms");
	svg_bars_mark(b, row);
	row = svg_bars_row(b, "bg 8");
	svg_bars_add(b, row, 'S', 2, NULL);
	svg_bars_mark(b, 99);	/* no such row: nothing */
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);
	EXPECT_NE(NULL, strstr(m.buf, "<g><title>app 7: max: ~12.500 ms</title>"))
		TH_LOG("%s", m.buf);
	EXPECT_NE(NULL, strstr(m.buf, ">~12.500 ms</text>"));
	EXPECT_NE(NULL, strstr(m.buf, "<g><title>bg 8: max: 2.000 ms</title>"));
	EXPECT_NE(NULL, strstr(m.buf, ">2.000 ms</text>"));
	EXPECT_NE(NULL, titled(m.buf, "S: max: 12.5 ms"));
	EXPECT_EQ(NULL, strstr(m.buf, "total"));
	free(m.buf);
}

TEST(titles_and_labels_are_escaped)
{
	struct svg_bars *b = svg_bars_new("a<b&c", "m\"s'");
	struct memout m;
	size_t row;

	row = svg_bars_row(b, "a<b&c");
	svg_bars_add(b, row, 'S', 1, "a<b&c \"q\" 'x' >");
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, &(struct svg_frame){
		.subtitle = "sub<&>", .warning = "warn<&>" }));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);
	EXPECT_NE(NULL, titled(m.buf,
			       "a&lt;b&amp;c &quot;q&quot; &apos;x&apos; &gt;"));
	EXPECT_NE(NULL, text_tag(m.buf, "a&lt;b&amp;c"));
	EXPECT_NE(NULL, text_tag(m.buf, "sub&lt;&amp;&gt;"));
	EXPECT_EQ(NULL, strstr(m.buf, "a<b&c"));
	EXPECT_NE(NULL, strstr(m.buf, "m&quot;s&apos;"));
	free(m.buf);
}

TEST(escape_drops_controls_and_repairs_utf8)
{
	struct memout m;

	ASSERT_NE(NULL, mem_open(&m));
	svg_escape(m.f, "a<b>&\"'\x01\n\tz\x7f");
	svg_escape(m.f, "|caf\xc3|\xff|\xe2\x80\xa6|\xc3\xa9|\xc0\xaf|");
	svg_escape(m.f, NULL);
	mem_close(&m);
	EXPECT_STREQ("a&lt;b&gt;&amp;&quot;&apos;z"
		     "|caf\xef\xbf\xbd|\xef\xbf\xbd|\xe2\x80\xa6|\xc3\xa9|"
		     "\xef\xbf\xbd\xef\xbf\xbd|", m.buf);
	free(m.buf);
}

TEST(long_labels_are_shortened_and_kept_whole_in_a_title)
{
	struct svg_bars *b = svg_bars_new("Long", "ms");
	const char *tag, *shown, *end;
	char label[256], *title;
	struct memout m;
	size_t row, chars;

	memset(label, 'x', sizeof(label));
	memcpy(label, "thread-", 7);
	strcpy(label + 200, " 4242");
	row = svg_bars_row(b, label);
	svg_bars_add(b, row, 'S', 1, NULL);
	row = svg_bars_row(b, "short 1");
	svg_bars_add(b, row, 'S', 1, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	ASSERT_LT(0, asprintf(&title, "<title>%s</title>", label));
	shown = strstr(m.buf, title);
	ASSERT_NE(NULL, shown) TH_LOG("no title with the whole label");
	/* the title of a <text> */
	for (tag = shown - 1; tag > m.buf && *tag != '<'; tag--)
		;
	ASSERT_EQ(0, strncmp(tag, "<text ", 6));
	shown += strlen(title);
	end = strstr(shown, "</text>");
	ASSERT_NE(NULL, end);
	chars = utf8_chars(shown, end - shown);
	/* a prefix, then the ellipsis; within a third of 1200 px */
	EXPECT_EQ(0, strncmp(shown, label, end - shown - strlen(ELLIPSIS)));
	EXPECT_EQ(0, strncmp(end - strlen(ELLIPSIS), ELLIPSIS,
			     strlen(ELLIPSIS)));
	EXPECT_LT(10, chars);
	EXPECT_GE(400, chars * 0.6 * 12);
	/* short labels stay whole, with no ellipsis */
	EXPECT_NE(NULL, text_tag(m.buf, "short 1"));
	EXPECT_EQ(1, count_matches(m.buf, ELLIPSIS));
	free(title);
	free(m.buf);
}

TEST(legend_lists_the_keys_drawn)
{
	struct svg_bars *b = svg_bars_new("Legend", "ms");
	const char *r, *s;
	struct memout m;
	size_t row;

	svg_bars_key(b, 'R', "R runnable", SVG_RED);
	svg_bars_key(b, 'S', "S sleeping", SVG_GREEN);
	svg_bars_key(b, 'D', "D disk wait", SVG_YELLOW);
	svg_bars_key(b, 'I', "I idle", SVG_LIGHTGREY);
	row = svg_bars_row(b, "app 1");
	svg_bars_add(b, row, 'S', 2, NULL);
	svg_bars_add(b, row, 'D', 0, NULL);
	row = svg_bars_row(b, "app 2");
	svg_bars_add(b, row, 'R', 1, NULL);
	/* not declared: named after itself, in a colour of its own */
	svg_bars_add(b, row, 'T', 1, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_bars_write(b, m.f, NULL));
	svg_bars_free(b);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	r = text_tag(m.buf, "R runnable");
	s = text_tag(m.buf, "S sleeping");
	EXPECT_NE(NULL, r);
	EXPECT_NE(NULL, s);
	EXPECT_TRUE(r < s);
	EXPECT_NE(NULL, text_tag(m.buf, "T"));
	EXPECT_EQ(NULL, strstr(m.buf, "D disk wait"));
	EXPECT_EQ(NULL, strstr(m.buf, "I idle"));
	EXPECT_EQ(0, count_matches(m.buf, "fill=\"#e8c31a\""));
	/* each swatch tells its key's total */
	EXPECT_NE(NULL, titled(m.buf, "S sleeping: total: 2 ms"));
	free(m.buf);
}

TEST(warning_is_red_and_on_top)
{
	static const double values[] = { 1, 0.5 };
	const struct svg_frame frame = {
		.subtitle = "run.srec 0-30 s",
		.warning = "lost 12 events on CPU 3",
	};
	char *svg = bars_of(values, 2, 10, &frame);
	const char *warning, *row;

	ASSERT_NE(NULL, svg);
	ASSERT_WELL_FORMED(svg);
	warning = text_tag(svg, "lost 12 events on CPU 3");
	ASSERT_NE(NULL, warning);
	EXPECT_TRUE(strstr(warning, WARNING_FILL) < strchr(warning, '>'));
	EXPECT_EQ(1, count_matches(svg, WARNING_FILL));
	EXPECT_NE(NULL, text_tag(svg, "run.srec 0-30 s"));
	EXPECT_NE(NULL, text_tag(svg, "values"));
	row = titled(svg, "row 0: S: 10 n");
	ASSERT_NE(NULL, row);
	EXPECT_GT(attr(row, "y"), attr(warning, "y"));
	free(svg);

	/* and none without one */
	svg = bars_of(values, 2, 10, NULL);
	ASSERT_NE(NULL, svg);
	EXPECT_EQ(0, count_matches(svg, WARNING_FILL));
	free(svg);
}

TEST(long_warning_wraps_within_the_width)
{
	static const double values[] = { 1 };
	char warning[2048] = "", *svg;
	const char *p, *end;
	size_t i, lines = 0, chars = 0;
	struct svg_frame frame = { .warning = warning };

	/* 416 characters: 3 lines */
	for (i = 0; i < 25; i++)
		strcat(warning, i ? " lost 1234 events" : "warning:");
	svg = bars_of(values, 1, 1, &frame);
	ASSERT_NE(NULL, svg);
	ASSERT_WELL_FORMED(svg);
	for (p = strstr(svg, WARNING_FILL); p; p = strstr(p, WARNING_FILL)) {
		p = strstr(p, "</title>");
		ASSERT_NE(NULL, p);
		p += strlen("</title>");
		end = strstr(p, "</text>");
		ASSERT_NE(NULL, end);
		EXPECT_GE(1180, utf8_chars(p, end - p) * 0.6 * 13);
		chars += utf8_chars(p, end - p);
		lines++;
	}
	EXPECT_LE(2, lines);
	/* every word shown, a space lost at each break */
	EXPECT_EQ(strlen(warning), chars + lines - 1);
	EXPECT_EQ(0, count_matches(svg, ELLIPSIS));
	free(svg);

	/* 1776: too many lines, the last one cut */
	for (i = 0; i < 80; i++)
		strcat(warning, " lost 1234 events");
	svg = bars_of(values, 1, 1, &frame);
	ASSERT_NE(NULL, svg);
	ASSERT_WELL_FORMED(svg);
	lines = count_matches(svg, WARNING_FILL);
	EXPECT_LE(2, lines);
	EXPECT_GE(6, lines);
	EXPECT_EQ(1, count_matches(svg, ELLIPSIS "</text>"));
	EXPECT_EQ(lines, count_matches(svg, warning));
	free(svg);
}

TEST(empty_charts_say_no_data)
{
	const struct svg_frame frame = { .warning = "nothing recorded" };
	struct svg_series *s = svg_series_new("Series", "ms");
	struct svg_bars *b = svg_bars_new("Bars", "ms");
	struct svg_hist *h = svg_hist_new("Hist", "n");
	struct svg_hist *no_series = svg_hist_new("Hist", "n");
	struct memout m;
	int i;

	svg_hist_bucket(no_series, "1-2 ms");
	svg_series_line(s, "line", SVG_BLUE);
	for (i = 0; i < 4; i++) {
		ASSERT_NE(NULL, mem_open(&m));
		if (i == 0)
			ASSERT_EQ(0, svg_bars_write(b, m.f, &frame));
		if (i == 1)
			ASSERT_EQ(0, svg_hist_write(h, m.f, &frame));
		if (i == 2)
			ASSERT_EQ(0, svg_series_write(s, m.f, &frame));
		if (i == 3)
			ASSERT_EQ(0, svg_hist_write(no_series, m.f, &frame));
		mem_close(&m);
		ASSERT_WELL_FORMED(m.buf);
		EXPECT_NE(NULL, text_tag(m.buf, "no data"));
		EXPECT_NE(NULL, text_tag(m.buf, "nothing recorded"));
		EXPECT_NE(NULL, strstr(m.buf, " width=\"1200\""));
		free(m.buf);
	}
	svg_bars_free(b);
	svg_hist_free(h);
	svg_hist_free(no_series);
	svg_series_free(s);
}

TEST(state_colours)
{
	static const char others[] = "TtPXZ?x ";
	size_t i;

	EXPECT_EQ(SVG_RED, svg_state_colour('R'));
	EXPECT_EQ(SVG_GREEN, svg_state_colour('S'));
	EXPECT_EQ(SVG_YELLOW, svg_state_colour('D'));
	EXPECT_EQ(SVG_LIGHTGREY, svg_state_colour('I'));
	for (i = 0; i < strlen(others); i++)
		EXPECT_EQ(SVG_GREY, svg_state_colour(others[i]));
	/* and none of them on-CPU blue */
	EXPECT_NE(SVG_BLUE, svg_state_colour('R'));
	EXPECT_NE(SVG_BLUE, svg_state_colour('?'));
}

TEST(hash_colours_are_stable_and_spread)
{
	uint32_t seen[256], c;
	size_t i, j, distinct = 0;

	for (i = 0; i < ARRAY_SIZE(seen); i++) {
		c = svg_hash_colour(i * 4096 + 7);
		ASSERT_EQ(c, svg_hash_colour(i * 4096 + 7));
		ASSERT_GE(0xffffff, c);
		for (j = 0; j < distinct && seen[j] != c; j++)
			;
		if (j == distinct)
			seen[distinct++] = c;
	}
	EXPECT_LT(200, distinct);
	EXPECT_NE(svg_hash_colour(1), svg_hash_colour(2));
	EXPECT_EQ(svg_hash_colour(UINT64_MAX), svg_hash_colour(UINT64_MAX));
}

TEST(palette_colours_are_distinct)
{
	uint32_t c[64];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		c[i] = svg_palette(i);
		ASSERT_GE(0xffffff, c[i]);
		for (j = 0; j < i; j++)
			EXPECT_NE(c[j], c[i]) TH_LOG("%zu and %zu", j, i);
	}
	EXPECT_EQ(c[3], svg_palette(3));
}

TEST(write_errors_are_returned)
{
	struct svg_series *s = svg_series_new("Series", "ms");
	struct svg_bars *b = svg_bars_new("Bars", "ms");
	struct svg_hist *h = svg_hist_new("Hist", "n");
	struct svg_bars *empty = svg_bars_new("Empty", "ms");
	size_t line, row;
	FILE *full;

	row = svg_bars_row(b, "app 1");
	svg_bars_add(b, row, 'S', 1, NULL);
	svg_hist_set(h, svg_hist_series(h, "wakeup", SVG_BLUE),
		     svg_hist_bucket(h, "1-2 ms"), 3, NULL);
	line = svg_series_line(s, "max", SVG_GREEN);
	svg_series_point(s, line, 0, 1, 2, NULL);

	/* /dev/full takes a buffer's worth, then fails the flush */
	full = fopen("/dev/full", "w");
	ASSERT_NE(NULL, full);
	EXPECT_EQ(-ENOSPC, svg_bars_write(b, full, NULL));
	clearerr(full);
	EXPECT_EQ(-ENOSPC, svg_hist_write(h, full, NULL));
	clearerr(full);
	EXPECT_EQ(-ENOSPC, svg_series_write(s, full, NULL));
	clearerr(full);
	EXPECT_EQ(-ENOSPC, svg_bars_write(empty, full, NULL));
	clearerr(full);
	fclose(full);
	svg_bars_free(b);
	svg_bars_free(empty);
	svg_hist_free(h);
	svg_series_free(s);
}

TEST(misuse_is_returned_and_nothing_written)
{
	struct svg_bars *b = svg_bars_new("Bars", "ms");
	struct svg_hist *h = svg_hist_new("Hist", "n");
	struct svg_series *s = svg_series_new("Series", "ms");
	struct memout m;

	svg_bars_row(b, "app 1");
	svg_bars_add(b, 1, 'S', 1, NULL);
	/* what a failed svg_hist_bucket() returns: does nothing */
	svg_hist_set(h, svg_hist_series(h, "wakeup", SVG_BLUE), SVG_NONE,
		     1, NULL);
	svg_series_point(s, 0, 0, 1, 1, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	EXPECT_EQ(-EINVAL, svg_bars_write(b, m.f, NULL));
	EXPECT_EQ(-EINVAL, svg_hist_write(h, m.f, NULL));
	EXPECT_EQ(-EINVAL, svg_series_write(s, m.f, NULL));
	/* a chart that could not be made */
	EXPECT_EQ(-ENOMEM, svg_bars_write(NULL, m.f, NULL));
	EXPECT_EQ(-ENOMEM, svg_hist_write(NULL, m.f, NULL));
	EXPECT_EQ(-ENOMEM, svg_series_write(NULL, m.f, NULL));
	EXPECT_EQ(SVG_NONE, svg_bars_row(NULL, "x"));
	EXPECT_EQ(SVG_NONE, svg_hist_bucket(NULL, "x"));
	EXPECT_EQ(SVG_NONE, svg_series_line(NULL, "x", 0));
	mem_close(&m);
	EXPECT_EQ(0, m.len);
	free(m.buf);
	svg_bars_free(b);
	svg_hist_free(h);
	svg_series_free(s);
	svg_bars_free(NULL);
	svg_hist_free(NULL);
	svg_series_free(NULL);
}

TEST(x_ticks_are_1_2_5_steps)
{
	static const double maxima[] = { 37, 0.037, 3.7e9, 1, 999, 7 };
	static const double values[] = { 1, 0.25 };
	double v[64];
	const char *why;
	size_t i, n;
	char *svg;

	for (i = 0; i < ARRAY_SIZE(maxima); i++) {
		svg = bars_of(values, 2, maxima[i], NULL);
		ASSERT_NE(NULL, svg);
		n = ticks(svg, v, ARRAY_SIZE(v));
		why = ticks_problem(v, n, maxima[i]);
		EXPECT_EQ(NULL, why) TH_LOG("%s for %g", why, maxima[i]);
		/* no more than fit at 80 px */
		EXPECT_GE(15, n);
		free(svg);
	}
}

TEST(numbers_in_attributes_have_at_most_2_decimals)
{
	static const double values[] = { 1, 1.0 / 3, 2.0 / 7, 1e-9 };
	struct svg_hist *h = svg_hist_new("Hist", "n");
	const char *p, *end;
	char *svgs[2], *token, *copy, *save;
	struct memout m;
	size_t i, b, n = 0;

	svgs[0] = bars_of(values, ARRAY_SIZE(values), 1.0 / 3, NULL);
	ASSERT_NE(NULL, svgs[0]);
	/* slanted labels: numbers inside transform="rotate(...)" too */
	svg_hist_series(h, "wakeup", SVG_BLUE);
	for (b = 0; b < 40; b++)
		svg_hist_set(h, 0, svg_hist_bucket(h, "512-1024 us"),
			     b / 3.0, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_hist_write(h, m.f, NULL));
	svg_hist_free(h);
	svgs[1] = mem_close(&m);
	ASSERT_NE(NULL, strstr(svgs[1], "rotate(-45 "));

	for (i = 0; i < 2; i++) {
		for (p = strstr(svgs[i], "=\""); p; p = strstr(end, "=\"")) {
			p += 2;
			end = strchr(p, '"');
			ASSERT_NE(NULL, end);
			copy = strndup(p, end - p);
			ASSERT_NE(NULL, copy);
			for (token = strtok_r(copy, " ()", &save); token;
			     token = strtok_r(NULL, " ()", &save)) {
				if (!strchr("-0123456789", token[0]))
					continue;
				n++;
				EXPECT_GE(2, strchr(token, '.') ?
					  strlen(strchr(token, '.') + 1) : 0)
					TH_LOG("%s", token);
			}
			free(copy);
		}
		free(svgs[i]);
	}
	EXPECT_LT(100, n);
}

TEST(height_follows_the_rows)
{
	static const double values[20] = { 1, 2, 3 };
	const struct svg_frame narrow = { .width = 800 };
	char *ten, *twenty;
	double per_row;

	ten = bars_of(values, 10, 1, NULL);
	twenty = bars_of(values, 20, 1, NULL);
	ASSERT_NE(NULL, ten);
	ASSERT_NE(NULL, twenty);
	per_row = (attr(strstr(twenty, "<svg"), "height") -
		   attr(strstr(ten, "<svg"), "height")) / 10;
	EXPECT_LE(18, per_row);
	EXPECT_GE(22, per_row);
	EXPECT_EQ(1200, attr(strstr(ten, "<svg"), "width"));
	free(ten);
	free(twenty);

	ten = bars_of(values, 10, 1, &narrow);
	ASSERT_NE(NULL, ten);
	EXPECT_EQ(800, attr(strstr(ten, "<svg"), "width"));
	free(ten);
}

TEST(charts_are_self_contained)
{
	static const double values[] = { 1, 2 };
	static const char *const external[] = {
		"<script", "<style", "href", "url(", "@import", "<image",
		"<foreignObject", "onload", "onclick",
	};
	char *svg = bars_of(values, 2, 1, NULL);
	size_t i;

	ASSERT_NE(NULL, svg);
	for (i = 0; i < ARRAY_SIZE(external); i++)
		EXPECT_EQ(0, count_matches(svg, external[i])) TH_LOG("%zu", i);
	EXPECT_NE(NULL, strstr(svg, " font-family=\"sans-serif\""));
	EXPECT_EQ(1, count_matches(svg, "http"));	/* the namespace, no more */
	EXPECT_EQ(0, strncmp(svg, "<?xml ", 6));
	free(svg);
}

TEST(histogram_bars)
{
	struct svg_hist *h = svg_hist_new("Latency", "samples");
	const char *w0, *w1, *r1;
	size_t wakeup, runq, b0, b1;
	struct memout m;

	wakeup = svg_hist_series(h, "wakeup", SVG_BLUE);
	runq = svg_hist_series(h, "runqueue", SVG_RED);
	svg_hist_series(h, "never set", SVG_GREEN);
	b0 = svg_hist_bucket(h, "1-2 ms");
	b1 = svg_hist_bucket(h, "2-4 ms");
	svg_hist_bucket(h, "4-8 ms");
	svg_hist_set(h, wakeup, b0, 10, "w0");
	svg_hist_set(h, wakeup, b1, 5, "w1");
	svg_hist_set(h, runq, b1, 20, "r1 old");
	/* set, not add: 10 in the end */
	svg_hist_set(h, runq, b1, 10, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_hist_write(h, m.f, NULL));
	svg_hist_free(h);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	w0 = titled(m.buf, "w0");
	w1 = titled(m.buf, "w1");
	r1 = titled(m.buf, "runqueue: 2-4 ms: 10 samples");
	ASSERT_NE(NULL, w0);
	ASSERT_NE(NULL, w1);
	ASSERT_NE(NULL, r1) TH_LOG("%s", m.buf);
	EXPECT_EQ(NULL, strstr(m.buf, "r1 old"));
	EXPECT_TRUE(near(attr(w0, "height"), 2 * attr(w1, "height")));
	EXPECT_TRUE(near(attr(r1, "height"), attr(w0, "height")));
	EXPECT_LT(100, attr(w0, "height"));
	/* standing on one axis, side by side in their bucket */
	EXPECT_TRUE(near(attr(w0, "y") + attr(w0, "height"),
			 attr(r1, "y") + attr(r1, "height")));
	EXPECT_TRUE(near(attr(r1, "x"), attr(w1, "x") + attr(w1, "width")));
	EXPECT_LT(attr(w0, "x"), attr(w1, "x"));
	EXPECT_NE(NULL, text_tag(m.buf, "1-2 ms"));
	EXPECT_NE(NULL, text_tag(m.buf, "4-8 ms"));
	EXPECT_NE(NULL, text_tag(m.buf, "wakeup"));
	EXPECT_NE(NULL, text_tag(m.buf, "runqueue"));
	EXPECT_EQ(NULL, strstr(m.buf, "never set"));
	EXPECT_NE(NULL, text_tag(m.buf, "samples"));
	free(m.buf);
}

TEST(histogram_labels_slant_when_crowded)
{
	struct svg_hist *h = svg_hist_new("Latency", "samples");
	char long_label[201], *title;
	struct memout m;
	size_t b;

	memset(long_label, 'y', 200);
	long_label[200] = '\0';
	svg_hist_series(h, "wakeup", SVG_BLUE);
	for (b = 0; b < 40; b++)
		svg_hist_set(h, 0, svg_hist_bucket(h, b ? "512-1024 us" :
						    long_label), 1 + b, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_hist_write(h, m.f, NULL));
	svg_hist_free(h);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);
	EXPECT_LT(10, count_matches(m.buf, "rotate(-45 "));
	EXPECT_LT(10, count_matches(m.buf, "512-1024 us</text>"));
	ASSERT_LT(0, asprintf(&title, "<title>%s</title>", long_label));
	EXPECT_LE(2, count_matches(m.buf, title));
	EXPECT_EQ(1, count_matches(m.buf, ELLIPSIS "</text>"));
	free(title);
	free(m.buf);
}

TEST(time_series_bars)
{
	struct svg_series *s = svg_series_new("Longest off-CPU", "ms");
	const char *p0, *p5, *q0;
	size_t line, other;
	struct memout m;
	char title[32];
	int i;

	line = svg_series_line(s, "max", SVG_GREEN);
	other = svg_series_line(s, "other", SVG_RED);
	svg_series_line(s, "empty", SVG_BLUE);
	for (i = 0; i < 10; i++) {
		snprintf(title, sizeof(title), "p%d", i);
		svg_series_point(s, line, 10 + i, 1, i + 1, title);
	}
	svg_series_point(s, other, 10, 1, 4, NULL);
	ASSERT_NE(NULL, mem_open(&m));
	ASSERT_EQ(0, svg_series_write(s, m.f, NULL));
	svg_series_free(s);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);

	p0 = titled(m.buf, "p0");
	p5 = titled(m.buf, "p5");
	q0 = titled(m.buf, "other: 10-11 s: 4 ms");
	ASSERT_NE(NULL, p0);
	ASSERT_NE(NULL, p5);
	ASSERT_NE(NULL, q0) TH_LOG("%s", m.buf);
	/* two lines: each half of its second, side by side */
	EXPECT_TRUE(near(attr(p5, "x") - attr(p0, "x"),
			 10 * attr(p0, "width")));
	EXPECT_TRUE(near(attr(q0, "x"), attr(p0, "x") + attr(p0, "width")));
	EXPECT_TRUE(near(attr(p5, "height"), 6 * attr(p0, "height")));
	EXPECT_TRUE(near(attr(q0, "height"), 4 * attr(p0, "height")));
	EXPECT_NE(NULL, text_tag(m.buf, "max"));
	EXPECT_NE(NULL, text_tag(m.buf, "other"));
	EXPECT_EQ(NULL, text_tag(m.buf, "empty"));
	EXPECT_NE(NULL, text_tag(m.buf, "time (s)"));
	free(m.buf);
}

TEST(elements)
{
	struct memout m;

	ASSERT_NE(NULL, mem_open(&m));
	svg_open(m.f, 300, 100, "a&b");
	svg_rect(m.f, 1, 2, 3.14159, 4, 0x0a0b0c, "r<1>");
	svg_rect(m.f, 1, 2, 3, 4, SVG_BLUE, NULL);
	svg_text(m.f, 5, 6, 12, "end\" onload=\"x", "t&t", NULL);
	svg_text_fit(m.f, 0, 20, 10, "middle", "abcdefghij", 30, NULL);
	svg_text_fit(m.f, 0, 40, 10, "start", "klmnopqrst", 60, "tip");
	svg_text_fit(m.f, 0, 60, 10, "start", "uvwxyz", 5, NULL);
	svg_close(m.f);
	mem_close(&m);
	ASSERT_WELL_FORMED(m.buf);
	EXPECT_NE(NULL, strstr(m.buf, "<title>a&amp;b</title>"));
	EXPECT_NE(NULL, strstr(m.buf, "width=\"3.14\" height=\"4\" "
			       "fill=\"#0a0b0c\"><title>r&lt;1&gt;</title>"));
	EXPECT_EQ(NULL, strstr(m.buf, "onload"));
	EXPECT_NE(NULL, text_tag(m.buf, "t&amp;t"));
	/* 30 px of 6 px characters: 4 and the ellipsis, whole in a title */
	EXPECT_NE(NULL, strstr(m.buf, "<title>abcdefghij</title>abcd" ELLIPSIS
			       "</text>"));
	EXPECT_NE(NULL, strstr(m.buf, "><title>tip</title>klmnopqrst<"));
	EXPECT_EQ(NULL, strstr(m.buf, "uvw"));
	free(m.buf);
}

TEST_HARNESS_MAIN
