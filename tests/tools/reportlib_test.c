// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers every report shares (tools/lib): durations and ranges as
 * users write them, percentiles exact and approximate, tables as text and
 * CSV, the id map, and the selection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "durstats.h"
#include "idmap.h"
#include "json.h"
#include "pairs.h"
#include "schedmodel.h"
#include "select.h"
#include "table.h"
#include "taskstate.h"
#include "timefmt.h"
#include "utf8.h"
#include "util.h"

TEST(parse_durations)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} good[] = {
		{ "0", 0 }, { "1ns", 1 }, { "20us", 20000 },
		{ "500ms", 500000000 }, { "1.5s", 1500000000 },
		{ "0.000000001s", 1 }, { "12.5ms", 12500000 },
		{ "2m", 120000000000ull }, { "1.5h", 5400000000000ull },
	};
	static const char *const bad[] = {
		"", "5", "1.5", "ms", "-1ms", "1 ms", "1mm", "1.5.2s", "1sx",
		"99999999999999999999s", "6000000000h",
	};
	uint64_t ns;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ns = UINT64_MAX;
		if (parse_duration(good[i].text, &ns) || ns != good[i].ns)
			TH_LOG("'%s' refused or misread", good[i].text);
		EXPECT_EQ(good[i].ns, ns);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (parse_duration(bad[i], &ns) != -EINVAL)
			TH_LOG("'%s' accepted", bad[i]);
		EXPECT_EQ(-EINVAL, parse_duration(bad[i], &ns));
	}
}

TEST(parse_ranges)
{
	uint64_t start, end;
	bool has_start, has_end;

	ASSERT_EQ(0, parse_range("12.5:13", &start, &has_start, &end,
				 &has_end));
	EXPECT_TRUE(has_start && has_end);
	EXPECT_EQ(12500000000ull, start);
	EXPECT_EQ(13000000000ull, end);
	ASSERT_EQ(0, parse_range(":5", &start, &has_start, &end, &has_end));
	EXPECT_FALSE(has_start);
	EXPECT_EQ(5000000000ull, end);
	ASSERT_EQ(0, parse_range("3:", &start, &has_start, &end, &has_end));
	EXPECT_FALSE(has_end);
	EXPECT_EQ(UINT64_MAX, end);
	EXPECT_EQ(-EINVAL, parse_range("5:3", &start, &has_start, &end,
				       &has_end));
	EXPECT_EQ(-EINVAL, parse_range("3:3", &start, &has_start, &end,
				       &has_end));
	EXPECT_EQ(-EINVAL, parse_range("3", &start, &has_start, &end,
				       &has_end));
	EXPECT_EQ(-EINVAL, parse_range("a:b", &start, &has_start, &end,
				       &has_end));
	EXPECT_EQ(-EINVAL, parse_range("1:2:3", &start, &has_start, &end,
				       &has_end));
}

struct collected {
	struct id_range ranges[16];
	size_t count;
};

static void collect(void *arg, uint32_t first, uint32_t last)
{
	struct collected *c = arg;

	if (c->count < 16)
		c->ranges[c->count] = (struct id_range){ first, last };
	c->count++;
}

TEST(parse_lists)
{
	struct collected c = { 0 };

	ASSERT_EQ(0, parse_list("0-2,8", 15, collect, &c));
	ASSERT_EQ(2, c.count);
	EXPECT_EQ(0, c.ranges[0].first);
	EXPECT_EQ(2, c.ranges[0].last);
	EXPECT_EQ(8, c.ranges[1].first);
	EXPECT_EQ(8, c.ranges[1].last);
	/* a range is one call, however many numbers it holds */
	c.count = 0;
	ASSERT_EQ(0, parse_list("1-4294967295", UINT32_MAX, collect, &c));
	ASSERT_EQ(1, c.count);
	EXPECT_EQ(UINT32_MAX, c.ranges[0].last);
	c.count = 0;
	EXPECT_EQ(-EINVAL, parse_list("3-1", 15, collect, &c));
	EXPECT_EQ(-EINVAL, parse_list("16", 15, collect, &c));
	EXPECT_EQ(-EINVAL, parse_list("1,", 16, collect, &c));
	EXPECT_EQ(-EINVAL, parse_list("x", 16, collect, &c));
	EXPECT_EQ(-EINVAL, parse_list("", 16, collect, &c));
}

TEST(format_durations_and_seconds)
{
	char buf[DURATION_LEN], secs[SECONDS_LEN];

	EXPECT_STREQ("950 ns", format_duration(buf, 950));
	EXPECT_STREQ("1.000 us", format_duration(buf, 1000));
	EXPECT_STREQ("12.346 us", format_duration(buf, 12345.6 + 0.5));
	EXPECT_STREQ("48.120 ms", format_duration(buf, 48120000));
	/* rounding that reaches the next unit takes it */
	EXPECT_STREQ("1.000 ms", format_duration(buf, 999999));
	EXPECT_STREQ("1.000 s", format_duration(buf, 999999999));
	EXPECT_STREQ("2.000 s", format_duration(buf, 2000000000));
	EXPECT_STREQ("12.345678", format_seconds(secs, 12345678000ll, 6));
	EXPECT_STREQ("-0.000012", format_seconds(secs, -12000, 6));
	EXPECT_STREQ("0.000000001", format_seconds(secs, 1, 9));
	EXPECT_STREQ("1", format_seconds(secs, 600000000, 0));
}

TEST(percentiles_exact)
{
	struct durstats d = { 0 };
	uint64_t i;

	EXPECT_EQ(0, durstats_percentile(&d, 50));
	durstats_add(&d, 20);
	durstats_add(&d, 10);
	/* nearest rank: p50 of two values is the lower */
	EXPECT_EQ(10, durstats_percentile(&d, 50));
	EXPECT_EQ(20, durstats_percentile(&d, 99));
	durstats_free(&d);
	for (i = 100; i >= 1; i--)
		durstats_add(&d, i);
	EXPECT_EQ(50, durstats_percentile(&d, 50));
	EXPECT_EQ(90, durstats_percentile(&d, 90));
	EXPECT_EQ(99, durstats_percentile(&d, 99));
	EXPECT_EQ(100, durstats_percentile(&d, 100));
	EXPECT_EQ(5050, d.total);
	EXPECT_EQ(1, d.min);
	EXPECT_EQ(100, d.max);
	durstats_free(&d);
	/* room for values grows with them: exact up to DURSTATS_EXACT */
	for (i = DURSTATS_EXACT; i >= 1; i--)
		durstats_add(&d, i);
	ASSERT_NE(NULL, d.values);
	EXPECT_EQ(DURSTATS_EXACT, d.cap);
	EXPECT_EQ(DURSTATS_EXACT / 2, durstats_percentile(&d, 50));
	EXPECT_EQ(DURSTATS_EXACT - 10, durstats_percentile(&d, 99.0234375));
	durstats_add(&d, 0);
	EXPECT_EQ(NULL, d.values);
	EXPECT_NE(NULL, d.buckets);
	EXPECT_EQ(0, d.min);
	durstats_free(&d);
}

/*
 * The histogram's buckets count in 8 bits and carry past them: a bucket
 * that wraps, even many times, still counts every value.
 */
TEST(percentiles_buckets_carry)
{
	struct durstats d = { 0 };
	uint64_t i;

	for (i = 0; i < 200000; i++)
		durstats_add(&d, 1000);
	for (i = 0; i < 100000; i++)
		durstats_add(&d, 5000);
	ASSERT_NE(NULL, d.buckets);
	ASSERT_NE(NULL, d.carries);
	EXPECT_EQ(300000, d.count);
	/* ranks 198000 and 201000: the 1000s end at 200000 */
	EXPECT_LE(1000, durstats_percentile(&d, 66));
	EXPECT_GE(1008, durstats_percentile(&d, 66));
	EXPECT_LE(5000 - 40, durstats_percentile(&d, 67));
	EXPECT_GE(5000 + 40, durstats_percentile(&d, 67));
	durstats_free(&d);
}

/*
 * The exact values go into the histogram past DURSTATS_EXACT: more than
 * a bucket holds of one value carry there too.
 */
TEST(percentiles_buckets_carry_from_exact)
{
	struct durstats d = { 0 };
	uint64_t i;

	for (i = 0; i < DURSTATS_EXACT; i++)
		durstats_add(&d, 1000);
	ASSERT_EQ(NULL, d.buckets);
	durstats_add(&d, 5000);
	ASSERT_NE(NULL, d.buckets);
	ASSERT_NE(NULL, d.carries);
	/* rank DURSTATS_EXACT is the last 1000, the next one the 5000 */
	EXPECT_LE(1000, durstats_percentile(&d, 99.9));
	EXPECT_GE(1008, durstats_percentile(&d, 99.9));
	EXPECT_EQ(5000, durstats_percentile(&d, 100));
	durstats_free(&d);
}

/*
 * Values are kept in 32 bits while they fit: one of 4.29 s or more widens
 * those before it, first or later, and percentiles stay exact either way,
 * as does the histogram made of them.
 */
TEST(percentiles_exact_past_32_bits)
{
	const uint64_t big = 5000000000ull;	/* past UINT32_MAX */
	struct durstats d = { 0 };
	uint64_t i;

	for (i = 1; i <= 40; i++)
		durstats_add(&d, i * 100000000ull);	/* 0.1 .. 4.0 s */
	EXPECT_FALSE(d.wide);
	durstats_add(&d, big);
	EXPECT_TRUE(d.wide);
	for (i = 41; i <= 99; i++)
		durstats_add(&d, i * 100000000ull);	/* .. 9.9 s */
	EXPECT_EQ(100, d.count);
	EXPECT_EQ(big, d.values ? ((uint64_t *)d.values)[40] : 0);
	/* 0.1 .. 4.9 s, 5 s twice, 5.1 .. 9.9 s */
	EXPECT_EQ(4900000000ull, durstats_percentile(&d, 49));
	EXPECT_EQ(big, durstats_percentile(&d, 50));
	EXPECT_EQ(big, durstats_percentile(&d, 51));
	EXPECT_EQ(5100000000ull, durstats_percentile(&d, 52));
	EXPECT_EQ(9900000000ull, durstats_percentile(&d, 100));
	EXPECT_EQ(100000000ull, durstats_percentile(&d, 1));
	durstats_free(&d);
	/* the first value too big: no room yet to widen */
	durstats_add(&d, UINT32_MAX + 1ull);
	durstats_add(&d, 3);
	EXPECT_TRUE(d.wide);
	EXPECT_EQ(3, durstats_percentile(&d, 50));
	EXPECT_EQ(UINT32_MAX + 1ull, durstats_percentile(&d, 100));
	durstats_free(&d);
	/* narrow values widened for sorting, then more added */
	durstats_add(&d, UINT32_MAX);
	durstats_add(&d, 7);
	EXPECT_FALSE(d.wide);
	EXPECT_EQ(UINT32_MAX, durstats_percentile(&d, 100));
	durstats_add(&d, 8);
	EXPECT_EQ(8, durstats_percentile(&d, 60));
	durstats_free(&d);
	/* into the histogram from wide values: every value counted */
	for (i = 0; i < DURSTATS_EXACT; i++)
		durstats_add(&d, i % 2 ? big : 1000);
	durstats_add(&d, 1000);
	ASSERT_NE(NULL, d.buckets);
	EXPECT_LE(1000, durstats_percentile(&d, 50));
	EXPECT_GE(1008, durstats_percentile(&d, 50));
	EXPECT_LE(big - big / 100, durstats_percentile(&d, 100));
	EXPECT_GE(big + big / 100, durstats_percentile(&d, 100));
	durstats_free(&d);
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Value @i of @n in pattern @pattern: see percentiles_exact_any_order. */
static uint64_t pattern_value(unsigned int pattern, uint64_t i, uint64_t n,
			      uint32_t *rng)
{
	*rng = *rng * 1103515245 + 12345;
	switch (pattern) {
	case 0:
		return i;			/* ascending */
	case 1:
		return n - i;			/* descending */
	case 2:
		return 7;			/* all equal */
	case 3:
		return *rng >> 29;		/* few distinct */
	case 4:
		return i % 2 ? i : n - i;	/* organ pipe */
	default:
		return (uint64_t)*rng << 12;	/* random */
	}
}

/*
 * Every percentile of up to DURSTATS_EXACT values is the exact
 * nearest-rank value, whatever order the values came in: each rank
 * checked against a copy sorted by qsort().
 */
TEST(percentiles_exact_any_order)
{
	static const uint64_t sizes[] = { 1, 2, 3, 15, 16, 17, 18, 100, 999,
					  DURSTATS_EXACT };
	uint64_t all[DURSTATS_EXACT], i, n, rank;
	unsigned int pattern, bad;
	uint32_t rng = 99;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		for (pattern = 0; pattern < 6; pattern++) {
			struct durstats d = { 0 };

			n = sizes[k];
			for (i = 0; i < n; i++) {
				all[i] = pattern_value(pattern, i, n, &rng);
				durstats_add(&d, all[i]);
			}
			ASSERT_NE(NULL, d.values);
			qsort(all, n, sizeof(*all), compare_u64);
			/* a percentile halfway into each rank's share */
			bad = 0;
			for (rank = 1; rank <= n; rank++)
				bad += durstats_percentile(&d, 100.0 *
							   (rank - 0.5) / n) !=
				       all[rank - 1];
			EXPECT_EQ(0, bad) {
				TH_LOG("%llu values, pattern %u",
				       (unsigned long long)n, pattern);
			}
			durstats_free(&d);
		}
	}
}

/*
 * Past DURSTATS_EXACT values, percentiles stay within 1 % of the exact
 * nearest-rank value (checked against a sorted copy) and inside
 * [min, max].
 */
TEST(percentiles_approximate)
{
	static const double pcts[] = { 1, 25, 50, 90, 99, 99.9, 100 };
	const uint64_t n = 100000;
	struct durstats d = { 0 };
	uint64_t *all = malloc(n * sizeof(*all)), i, rank, got, exact;
	uint32_t rng = 12345;
	size_t k;

	ASSERT_NE(NULL, all);
	for (i = 0; i < n; i++) {
		rng = rng * 1103515245 + 12345;
		/* 1 us to about 1 s, across many powers of two */
		all[i] = 1000 + ((uint64_t)rng << 10) % 1000000000;
		durstats_add(&d, all[i]);
	}
	ASSERT_FALSE(d.failed);
	ASSERT_EQ(n, d.count);
	qsort(all, n, sizeof(*all), compare_u64);
	EXPECT_EQ(all[0], d.min);
	EXPECT_EQ(all[n - 1], d.max);
	for (k = 0; k < ARRAY_SIZE(pcts); k++) {
		rank = (uint64_t)(pcts[k] / 100 * n);
		if ((double)rank < pcts[k] / 100 * n)
			rank++;
		exact = all[rank - 1];
		got = durstats_percentile(&d, pcts[k]);
		EXPECT_TRUE(got * 100 >= exact * 99 && got * 100 <= exact * 101) {
			TH_LOG("p%g: %llu, exact %llu", pcts[k],
			       (unsigned long long)got,
			       (unsigned long long)exact);
		}
		EXPECT_TRUE(got >= d.min && got <= d.max);
	}
	free(all);
	durstats_free(&d);
}

/* What table_print() writes of @t (NULL if it failed); free() it. */
static char *printed(const struct table *t, bool csv)
{
	char *text = NULL;
	size_t size;
	FILE *f = open_memstream(&text, &size);
	int ret;

	if (!f)
		return NULL;
	ret = table_print(t, f, csv);
	fclose(f);
	if (ret) {
		free(text);
		return NULL;
	}
	return text;
}

TEST(table_text_and_csv)
{
	struct table *t = table_new();
	char *text;

	ASSERT_NE(NULL, t);
	table_column(t, "TID", "tid", TABLE_RIGHT);
	table_column(t, "COMM", "comm", TABLE_LEFT);
	table_column(t, "MAX", "max_ns", TABLE_RIGHT);
	table_column(t, "~", "uncertain", TABLE_CSV_ONLY);
	table_row(t);
	table_u64(t, 42);
	table_str(t, "a,\"b\"");
	table_duration(t, 48120000);
	table_cell(t, "", "0");
	table_row(t);
	table_u64(t, 7);
	table_str(t, "x");
	table_none(t);
	table_cell(t, "~", "1");
	EXPECT_EQ(2, table_rows(t));

	text = printed(t, false);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("TID  COMM         MAX\n"
		     " 42  a,\"b\"  48.120 ms\n"
		     "  7  x              -\n", text);
	free(text);

	text = printed(t, true);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("tid,comm,max_ns,uncertain\n"
		     "42,\"a,\"\"b\"\"\",48120000,0\n"
		     "7,x,,1\n", text);
	free(text);
	table_free(t);
}

/* A name with control bytes: escaped in text, as it is (quoted) in CSV. */
TEST(table_control_bytes)
{
	struct table *t = table_new();
	char *text;

	ASSERT_NE(NULL, t);
	table_column(t, "COMM", "comm", TABLE_LEFT);
	table_column(t, "TID", "tid", TABLE_RIGHT);
	table_row(t);
	table_str(t, "a\nb\tc\x7f");
	table_u64(t, 1);
	table_row(t);
	table_str(t, "plain");
	table_u64(t, 2);

	text = printed(t, false);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("COMM             TID\n"
		     "a\\x0ab\\x09c\\x7f    1\n"
		     "plain              2\n", text);
	free(text);

	text = printed(t, true);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("comm,tid\n\"a\nb\tc\x7f\",1\nplain,2\n", text);
	free(text);
	table_free(t);
}

/*
 * Names in UTF-8 take the columns a terminal gives them, not their bytes
 * (two for CJK, none for a combining accent), and bytes that are no UTF-8
 * are escaped in text as control bytes are, kept in CSV.
 */
TEST(table_utf8_columns)
{
	struct table *t = table_new();
	char *text;

	ASSERT_NE(NULL, t);
	table_column(t, "COMM", "comm", TABLE_LEFT);
	table_column(t, "TID", "tid", TABLE_RIGHT);
	table_column(t, "NAME", "name", TABLE_RIGHT);
	table_row(t);
	/* é twice (2 bytes each), then 日本 (3 bytes, 2 columns each) */
	table_str(t, "\xc3\xa9t\xc3\xa9-\xe6\x97\xa5\xe6\x9c\xac");
	table_u64(t, 1);
	table_str(t, "e\xcc\x81");	/* e, and a combining acute accent */
	table_row(t);
	table_str(t, "\xff\xfe-bad");
	table_u64(t, 2);
	table_str(t, "\xe6\x97");	/* a character cut short */
	table_row(t);
	table_str(t, "plain");
	table_u64(t, 3);
	table_str(t, "x");

	text = printed(t, false);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("COMM          TID      NAME\n"
		     "\xc3\xa9t\xc3\xa9-\xe6\x97\xa5\xe6\x9c\xac        1         e\xcc\x81\n"
		     "\\xff\\xfe-bad    2  \\xe6\\x97\n"
		     "plain           3         x\n", text);
	free(text);

	text = printed(t, true);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("comm,tid,name\n"
		     "\xc3\xa9t\xc3\xa9-\xe6\x97\xa5\xe6\x9c\xac,1,e\xcc\x81\n"
		     "\xff\xfe-bad,2,\xe6\x97\n"
		     "plain,3,x\n", text);
	free(text);
	table_free(t);
}

/* Which bytes make a UTF-8 character, at each edge of RFC 3629's table. */
TEST(utf8_lengths)
{
	static const struct {
		const char *bytes;
		size_t len;		/* of the character, 0: not one */
	} cases[] = {
		{ "a", 1 }, { "\x7f", 1 },
		{ "\xc2\x80", 2 }, { "\xdf\xbf", 2 },
		{ "\xe0\xa0\x80", 3 }, { "\xed\x9f\xbf", 3 },
		{ "\xee\x80\x80", 3 }, { "\xef\xbf\xbf", 3 },
		{ "\xf0\x90\x80\x80", 4 }, { "\xf4\x8f\xbf\xbf", 4 },
		/* a continuation byte alone, bytes that never start one */
		{ "\x80", 0 }, { "\xbf", 0 }, { "\xf5\x80\x80\x80", 0 },
		{ "\xff", 0 },
		/* overlong forms */
		{ "\xc0\x80", 0 }, { "\xc1\xbf", 0 }, { "\xe0\x9f\xbf", 0 },
		{ "\xf0\x8f\xbf\xbf", 0 },
		/* surrogates, and past U+10FFFF */
		{ "\xed\xa0\x80", 0 }, { "\xed\xbf\xbf", 0 },
		{ "\xf4\x90\x80\x80", 0 },
		/* a continuation missing, or not one */
		{ "\xc3", 0 }, { "\xe2\x82", 0 }, { "\xe2\x28\xa1", 0 },
		{ "\xf0\x9f\x98", 0 }, { "\xc3\xc3", 0 },
	};
	const unsigned char *s;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		s = (const unsigned char *)cases[i].bytes;
		n = strlen(cases[i].bytes);
		EXPECT_EQ(cases[i].len, utf8_len(s, n))
			TH_LOG("case %zu", i);
		/* cut one byte short, a character is not one */
		if (cases[i].len > 1)
			EXPECT_EQ(0, utf8_len(s, n - 1))
				TH_LOG("case %zu cut short", i);
	}
	EXPECT_EQ(0, utf8_len((const unsigned char *)"a", 0));
}

/*
 * JSON strings of any bytes: what is escaped, what stays, and what a byte
 * that is not UTF-8 becomes; all of it valid UTF-8, safe in a <script>.
 */
TEST(json_strings)
{
	static const struct {
		const char *in;
		const char *out;
	} cases[] = {
		{ "", "" },
		{ "sim-1 kworker/0:1", "sim-1 kworker/0:1" },
		{ "a\"b\\c", "a\\\"b\\\\c" },
		{ "\t\n\x1f\x7f", "\\u0009\\u000a\\u001f\x7f" },
		{ "</script>&", "\\u003c/script\\u003e\\u0026" },
		/* UTF-8 stays as it is */
		{ "caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80" },
		/* a byte that is not: its Latin-1 code point */
		{ "r\xe9n", "r\\u00e9n" },
		{ "\xff\x80", "\\u00ff\\u0080" },
		/* a character cut short, a surrogate: byte by byte */
		{ "\xe2\x82", "\\u00e2\\u0082" },
		{ "\xed\xa0\x80", "\\u00ed\\u00a0\\u0080" },
	};
	char buf[256], ctl[40], *text;
	size_t i, n, size;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = json_escape(buf, cases[i].in, strlen(cases[i].in));
		ASSERT_GT(sizeof(buf), n);
		buf[n] = '\0';
		EXPECT_STREQ(cases[i].out, buf)
			TH_LOG("case %zu", i);
	}
	/* the worst case fills the room promised: 6 bytes a byte */
	memset(ctl, 0x01, sizeof(ctl));
	EXPECT_EQ(6 * sizeof(ctl), json_escape(buf, ctl, sizeof(ctl)));

	f = open_memstream(&text, &size);
	ASSERT_NE(NULL, f);
	json_put_string(f, "r\xe9n \"x\"");
	ASSERT_EQ(0, fclose(f));
	EXPECT_STREQ("\"r\\u00e9n \\\"x\\\"\"", text);
	free(text);
}

TEST(table_write_error)
{
	struct table *t = table_new();
	FILE *f = fopen("/dev/full", "w");

	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, f);
	setvbuf(f, NULL, _IONBF, 0);
	table_column(t, "A", "a", TABLE_LEFT);
	table_row(t);
	table_str(t, "x");
	/* the error of the write, not only that there was one */
	EXPECT_EQ(-ENOSPC, table_print(t, f, true));
	EXPECT_EQ(-ENOSPC, stream_error(f));
	fclose(f);
	table_free(t);
}

TEST(idmap_dense_and_stable)
{
	struct idmap map = { 0 };
	uint64_t id;

	for (id = 0; id < 10000; id++)
		ASSERT_EQ((long)id, idmap_get(&map, id * 7919 + (id << 40)));
	for (id = 0; id < 10000; id++)
		ASSERT_EQ((long)id, idmap_get(&map, id * 7919 + (id << 40)));
	EXPECT_EQ(10000, map.count);
	EXPECT_NE(idmap_pair(1, 2), idmap_pair(2, 1));
	idmap_free(&map);
}

/* Does @a come before @b of the same task, as task_pairs_sorted() says? */
static bool pair_before(const struct task_pair *a, const struct task_pair *b)
{
	uint32_t ta = a->other ? a->other->tid : 0;
	uint32_t tb = b->other ? b->other->tid : 0;

	if (a->ns != b->ns)
		return a->ns > b->ns;
	if (a->count != b->count)
		return a->count > b->count;
	if (ta != tb)
		return ta < tb;
	return a->other && b->other && a->other->id < b->other->id;
}

/*
 * Pairs of threads: every (task, other) its own pair however many are
 * added, in any order, tables grown many times over (400 others, up to
 * 300 tasks each); sorted grouped by task, then most time, most count,
 * lowest other tid, then the other made first (two tasks of one tid);
 * and a task's pairs found among them.
 */
TEST(task_pairs_many_and_sorted)
{
	enum { NR_TASKS = 400 };
	struct task *tasks = calloc(NR_TASKS, sizeof(*tasks));
	struct task_pairs pairs = { 0 };
	const struct task_pair **v;
	size_t i, j, k, n = 0;

	ASSERT_NE(NULL, tasks);
	for (i = 0; i < NR_TASKS; i++) {
		tasks[i].id = i;
		/* tasks 398 and 399 are one tid's two lives */
		tasks[i].tid = i < NR_TASKS - 1 ? 1000 + i : 1000 + i - 1;
	}
	/*
	 * Pair (i, j) for j < i % 300 (other j, or idle for 0): i * 7 + j % 3
	 * ns and (i + j) % 5 + 1 counts, each added in two goes.
	 */
	for (k = 0; k < 2; k++)
		for (j = 0; j < 300; j++)
			for (i = NR_TASKS; i-- > 0;) {
				if (j >= i % 300)
					continue;
				ASSERT_EQ(0, task_pair_add(&pairs, &tasks[i],
							   j ? &tasks[j] : NULL,
							   k ? (i + j) % 5 : 1,
							   k ? i * 7 : j % 3));
				n += !k;
			}
	EXPECT_EQ(n, pairs.count);
	/* two others of one tid, alike in time and count */
	ASSERT_EQ(0, task_pair_add(&pairs, &tasks[0], &tasks[NR_TASKS - 1],
				   0, 5));
	ASSERT_EQ(0, task_pair_add(&pairs, &tasks[0], &tasks[NR_TASKS - 2],
				   0, 5));
	n += 2;

	v = task_pairs_sorted(&pairs);
	ASSERT_NE(NULL, v);
	ASSERT_EQ(n, pairs.count);
	EXPECT_EQ(NULL, v[n]);
	EXPECT_EQ(&tasks[NR_TASKS - 2], v[0]->other);
	EXPECT_EQ(&tasks[NR_TASKS - 1], v[1]->other);
	for (k = 2; k < n; k++) {
		i = v[k]->task->id;
		j = v[k]->other ? v[k]->other->id : 0;
		ASSERT_LT(j, i % 300) TH_LOG("pair %zu", k);
		ASSERT_EQ(j ? &tasks[j] : NULL, v[k]->other);
		ASSERT_EQ(i * 7 + j % 3, v[k]->ns) TH_LOG("pair %zu", k);
		ASSERT_EQ((i + j) % 5 + 1, v[k]->count) TH_LOG("pair %zu", k);
		ASSERT_LE(v[k - 1]->task->id, i);
		if (v[k - 1]->task == v[k]->task)
			ASSERT_TRUE(pair_before(v[k - 1], v[k]))
				TH_LOG("pair %zu", k);
	}
	/* each task's own, by looking them up: none for 300 */
	for (i = 0; i < NR_TASKS; i++) {
		const struct task_pair **mine;

		mine = task_pairs_of(v, n, &tasks[i], &k);
		ASSERT_EQ(i ? i % 300 : 2, k) TH_LOG("task %zu", i);
		for (j = 0; j < k; j++)
			ASSERT_EQ(&tasks[i], mine[j]->task);
	}
	free(v);
	task_pairs_free(&pairs);
	EXPECT_EQ(0, pairs.count);
	free(tasks);
}

TEST(selection)
{
	struct selection sel = { 0 };
	struct task a = { .tid = 10, .tgid = 10, .comm = "dw-1",
			  .selected = -1 };
	struct task b = { .tid = 11, .tgid = 10, .comm = "other",
			  .selected = -1 };
	struct task drainer = { .tid = 99, .tgid = 99, .comm = "schedrec",
				.drainer = true, .selected = -1 };
	char err[256];

	EXPECT_TRUE(select_task(&sel, &a));
	EXPECT_FALSE(select_task(&sel, &drainer));
	a.selected = -1;
	ASSERT_EQ(0, select_parse(&sel, "comm", "^dw-", err, sizeof(err)));
	EXPECT_TRUE(select_task(&sel, &a));
	EXPECT_FALSE(select_task(&sel, &b));
	EXPECT_EQ(-EINVAL, select_parse(&sel, "comm", "(", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "bad --comm"));
	ASSERT_EQ(0, select_parse(&sel, "cpu", "1,3-4", err, sizeof(err)));
	EXPECT_FALSE(select_cpu(&sel, 0));
	EXPECT_TRUE(select_cpu(&sel, 1));
	EXPECT_TRUE(select_cpu(&sel, 4));
	EXPECT_FALSE(select_cpu(&sel, 5));
	EXPECT_EQ(-EINVAL, select_check_cpus(&sel, 4, err, sizeof(err)));
	EXPECT_STREQ("--cpu 4: the trace has CPUs 0 to 3 only", err);
	EXPECT_EQ(-EINVAL, select_check_cpus(&sel, 1, err, sizeof(err)));
	EXPECT_STREQ("--cpu 4: the trace has CPU 0 only", err);
	EXPECT_EQ(0, select_check_cpus(&sel, 5, err, sizeof(err)));
	ASSERT_EQ(0, select_parse(&sel, "tid", "99", err, sizeof(err)));
	drainer.selected = -1;
	a.selected = -1;
	/* named, the drainer is shown; comm still applies to it */
	EXPECT_FALSE(select_task(&sel, &drainer));
	select_free(&sel);
	ASSERT_EQ(0, select_parse(&sel, "tid", "99", err, sizeof(err)));
	drainer.selected = -1;
	EXPECT_TRUE(select_task(&sel, &drainer));
	EXPECT_FALSE(select_task(&sel, &a));
	EXPECT_EQ(-EINVAL, select_parse(&sel, "range", "5:3", err,
					sizeof(err)));
	EXPECT_EQ(-EINVAL, select_parse(&sel, "pid", "1,,2", err,
					sizeof(err)));
	select_free(&sel);
}

/* --pid and --tid keep ranges, joined where they meet, not their ids. */
TEST(id_ranges)
{
	static const uint32_t in[] = { 5, 20, 30, 41, UINT32_MAX };
	static const uint32_t out[] = { 4, 6, 19, 42, UINT32_MAX - 1 };
	struct selection sel = { 0 };
	struct task t = { .comm = "x" };
	char err[256], text[128];
	unsigned int i;

	ASSERT_EQ(0, select_parse(&sel, "tid", "20-30,5,25-40", err,
				  sizeof(err)));
	ASSERT_EQ(0, select_parse(&sel, "tid", "41,4294967295", err,
				  sizeof(err)));
	EXPECT_EQ(3, sel.nr_tids);
	select_describe(&sel, text, sizeof(text));
	EXPECT_STREQ("tid 5,20-41,4294967295", text);
	for (i = 0; i < ARRAY_SIZE(in); i++) {
		t.tid = in[i];
		t.selected = -1;
		EXPECT_TRUE(select_task(&sel, &t));
		t.tid = out[i];
		t.selected = -1;
		EXPECT_FALSE(select_task(&sel, &t));
	}
	select_free(&sel);
	/* every pid there can be: one range, at once */
	ASSERT_EQ(0, select_parse(&sel, "pid", "1-4294967295", err,
				  sizeof(err)));
	EXPECT_EQ(1, sel.nr_pids);
	select_free(&sel);
}

/* CPU @cpu's switch at @ts from @prev (in @state) to @next. */
static int switch_at(struct schedmodel *m, uint32_t cpu, uint64_t ts,
		     uint32_t prev, uint32_t state, uint32_t next)
{
	struct schedrec_switch sw = {
		.hdr = { .ts = ts, .size = sizeof(sw),
			 .type = SCHEDREC_EV_SWITCH },
		.prev_tid = prev, .prev_state = state, .next_tid = next,
	};
	struct srec_record rec = { .hdr = &sw.hdr, .cpu = cpu };

	return schedmodel_record(m, &rec);
}

/*
 * A model of @nr_cpus CPUs whose origin is @origin, the start of its
 * recording; @info lives as long as it.
 */
static struct schedmodel *model_of(struct srecreader_info *info,
				   uint64_t origin, uint32_t nr_cpus)
{
	struct schedmodel_window all = { .end = UINT64_MAX };
	struct schedmodel *m;

	memset(info, 0, sizeof(*info));
	info->file.start_mono_ns = origin;
	info->file.nr_cpus = nr_cpus;
	m = schedmodel_new(info, &all);
	if (m && switch_at(m, 0, origin, 0, 0, 0) != 1) {
		schedmodel_free(m);
		return NULL;
	}
	return m;
}

/* A model of one CPU whose origin is @origin. */
static struct schedmodel *model_at(uint64_t origin)
{
	static struct srecreader_info info;

	return model_of(&info, origin, 1);
}

/* Relative times saturate at the ends of int64_t, never wrap. */
TEST(relative_times)
{
	struct schedmodel *early = model_at(1000), *late = model_at(1ull << 63);

	ASSERT_NE(NULL, early);
	ASSERT_NE(NULL, late);
	EXPECT_EQ(1000, schedmodel_origin(early));
	EXPECT_EQ(0, schedmodel_rel(early, 1000));
	EXPECT_EQ(-1000, schedmodel_rel(early, 0));
	EXPECT_EQ(INT64_MAX, schedmodel_rel(early, 1000 + (uint64_t)INT64_MAX));
	EXPECT_EQ(INT64_MAX, schedmodel_rel(early, UINT64_MAX));
	EXPECT_EQ(-1, schedmodel_rel(late, (1ull << 63) - 1));
	EXPECT_EQ(INT64_MIN + 1, schedmodel_rel(late, 1));
	EXPECT_EQ(INT64_MIN, schedmodel_rel(late, 0));
	schedmodel_free(early);
	schedmodel_free(late);
}

/* CPU 0's LOST record at @ts, of events at @first..@last. */
static int lost_at(struct schedmodel *m, uint64_t ts, uint64_t first,
		   uint64_t last)
{
	struct schedrec_lost l = {
		.hdr = { .ts = ts, .size = sizeof(l),
			 .type = SCHEDREC_REC_LOST },
		.count = 3, .first_ts = first, .last_ts = last,
	};
	struct srec_record rec = { .hdr = &l.hdr };

	return schedmodel_record(m, &rec);
}

/* A LOST record's window is taken as it says, but never after the record. */
TEST(loss_window_before_its_record)
{
	struct schedmodel *m = model_at(1000);
	const struct sched_loss *losses;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(1, lost_at(m, 7000, 6000, 6500));
	ASSERT_EQ(1, lost_at(m, 8000, 9000, 99999));
	ASSERT_EQ(1, lost_at(m, 9000, 8800, 99999));
	ASSERT_EQ(3u, schedmodel_losses(m, &losses));
	EXPECT_EQ(6000, losses[0].first);
	EXPECT_EQ(6500, losses[0].last);
	EXPECT_EQ(8000, losses[1].first);
	EXPECT_EQ(8000, losses[1].last);
	EXPECT_EQ(8800, losses[2].first);
	EXPECT_EQ(9000, losses[2].last);
	EXPECT_FALSE(schedmodel_overlaps_loss(m, 9001, 20000));
	schedmodel_free(m);
}

/* The on-CPU intervals a model reported. */
struct oncpu_log {
	struct oncpu_iv iv[16];
	unsigned int n;
};

static void log_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct oncpu_log *log = arg;

	if (log->n < ARRAY_SIZE(log->iv))
		log->iv[log->n++] = *iv;
}

/*
 * The kernel never switches a task to itself.  Such a record (a damaged
 * file) changes nothing, and a dead state in it frees nothing still used
 * (ASan checks it here).
 */
TEST(switch_to_itself_ignored)
{
	struct oncpu_log log = { .n = 0 };
	struct sched_handler h = { .oncpu = log_oncpu, .arg = &log };
	struct schedmodel *m = model_at(1000);

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, schedmodel_add_handler(m, &h));
	ASSERT_EQ(1, switch_at(m, 0, 2000, 0, 0, 100));
	ASSERT_EQ(1, switch_at(m, 0, 3000, 100, TASKSTATE_DEAD, 100));
	ASSERT_EQ(1, switch_at(m, 0, 4000, 100, TASKSTATE_INTERRUPTIBLE, 0));
	EXPECT_EQ(1, schedmodel_anomalies(m)->desyncs);
	ASSERT_EQ(2u, log.n);
	ASSERT_NE(NULL, log.iv[1].task);
	EXPECT_EQ(100u, log.iv[1].task->tid);
	EXPECT_EQ(2000, log.iv[1].start);
	EXPECT_EQ(4000, log.iv[1].end);
	schedmodel_free(m);
}

/*
 * A thread seen switching out on CPU 1 while CPU 0 ran it (a switch the
 * trace does not hold) no longer runs on CPU 0: CPU 0's time after it is
 * not known, rather than the thread's.  Its tid taken by a fork then
 * leaves nothing pointing at the old thread (ASan checks it here).
 */
TEST(thread_left_no_cpu_holding_it)
{
	struct oncpu_log log = { .n = 0 };
	struct sched_handler h = { .oncpu = log_oncpu, .arg = &log };
	struct schedrec_task fork = {
		.hdr = { .ts = 4000, .size = sizeof(fork),
			 .type = SCHEDREC_EV_FORK },
		.tid = 100, .tgid = 100, .other_tid = 1, .comm = "new",
	};
	struct srec_record rec = { .hdr = &fork.hdr, .cpu = 1 };
	struct srecreader_info info;
	struct schedmodel *m = model_of(&info, 1000, 2);
	unsigned int i;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, schedmodel_add_handler(m, &h));
	ASSERT_EQ(1, switch_at(m, 0, 2000, 0, 0, 100));
	ASSERT_EQ(1, switch_at(m, 1, 2500, 0, 0, 200));
	ASSERT_EQ(1, switch_at(m, 1, 3000, 100, TASKSTATE_INTERRUPTIBLE, 0));
	ASSERT_EQ(1, schedmodel_record(m, &rec));
	ASSERT_EQ(1, switch_at(m, 0, 5000, 100, TASKSTATE_INTERRUPTIBLE, 0));
	schedmodel_finish(m, 6000);
	for (i = 0; i < log.n; i++) {
		if (log.iv[i].cpu != 0 || !log.iv[i].task)
			continue;
		EXPECT_EQ(100u, log.iv[i].task->tid);
		EXPECT_EQ(2000, log.iv[i].start);
		EXPECT_GE(3000, log.iv[i].end);
	}
	EXPECT_EQ(2, schedmodel_anomalies(m)->desyncs);
	schedmodel_free(m);
}

/* Off-CPU intervals as a handler heard them, with its task's process then */
struct offcpu_log {
	struct offcpu_iv iv[16];
	uint32_t tgid[16];		/* iv[i].task->tgid at the call */
	bool batched[16];		/* by offcpus */
	unsigned int n, batches;
};

static void log_offcpu_one(struct offcpu_log *log, const struct offcpu_iv *iv,
			   bool batched)
{
	if (log->n < ARRAY_SIZE(log->iv)) {
		log->iv[log->n] = *iv;
		log->tgid[log->n] = iv->task->tgid;
		log->batched[log->n++] = batched;
	}
}

static void log_offcpu(void *arg, const struct offcpu_iv *iv)
{
	log_offcpu_one(arg, iv, false);
}

static void log_offcpus(void *arg, const struct offcpu_iv *iv, unsigned int n)
{
	struct offcpu_log *log = arg;
	unsigned int i;

	log->batches++;
	for (i = 0; i < n; i++)
		log_offcpu_one(log, &iv[i], true);
}

/*
 * A handler that takes off-CPU intervals in batches (offcpus) hears them
 * in order, and each as it was when it ended: those queued before a fork
 * that tells their thread's process before the fork changes the task.
 */
TEST(offcpu_batches)
{
	struct offcpu_log log = { .n = 0 };
	struct sched_handler h = {
		.offcpu = log_offcpu, .offcpus = log_offcpus, .arg = &log,
	};
	static const uint32_t sw[][4] = {	/* ts, prev, state, next */
		{ 2000, 0, 0, 100 },
		{ 3000, 100, TASKSTATE_INTERRUPTIBLE, 0 },
		{ 4000, 0, 0, 100 },
		{ 0 },				/* the fork */
		{ 6000, 100, TASKSTATE_INTERRUPTIBLE, 101 },
		{ 7000, 101, TASKSTATE_INTERRUPTIBLE, 100 },
	};
	struct schedrec_switch sws[ARRAY_SIZE(sw)];
	struct schedrec_task fork = {
		.hdr = { .ts = 5000, .size = sizeof(fork),
			 .type = SCHEDREC_EV_FORK },
		.tid = 101, .tgid = 100, .other_tid = 100, .comm = "child",
	};
	struct srec_record recs[ARRAY_SIZE(sw)];
	static const uint64_t start[] = { 1000, 3000, 6000 };
	static const uint32_t tgid[] = { 0, 0, 100 };
	struct schedmodel *m = model_at(1000);
	unsigned int i, fed;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, schedmodel_add_handler(m, &h));
	for (i = 0; i < ARRAY_SIZE(sw); i++) {
		sws[i] = (struct schedrec_switch){
			.hdr = { .ts = sw[i][0], .size = sizeof(sws[i]),
				 .type = SCHEDREC_EV_SWITCH },
			.prev_tid = sw[i][1], .prev_state = sw[i][2],
			.next_tid = sw[i][3],
		};
		recs[i] = (struct srec_record){
			.hdr = sw[i][0] ? &sws[i].hdr : &fork.hdr,
		};
	}
	ASSERT_EQ(1, schedmodel_records(m, recs, ARRAY_SIZE(recs), &fed));
	EXPECT_EQ(ARRAY_SIZE(recs), fed);
	EXPECT_LE(1, log.batches);
	ASSERT_EQ(ARRAY_SIZE(start), log.n);
	for (i = 0; i < log.n; i++) {
		EXPECT_EQ(100, log.iv[i].task->tid) TH_LOG("interval %u", i);
		EXPECT_EQ(start[i], log.iv[i].start) TH_LOG("interval %u", i);
		EXPECT_EQ(start[i] + 1000, log.iv[i].end)
			TH_LOG("interval %u", i);
		EXPECT_EQ(tgid[i], log.tgid[i]) TH_LOG("interval %u", i);
	}
	/* the first record goes alone; the others in batches */
	EXPECT_TRUE(log.batched[1]);
	EXPECT_TRUE(log.batched[2]);
	schedmodel_free(m);
}

/*
 * Tids past the kernel's PID_MAX_LIMIT (a hostile file) go to a hash
 * table; growing it, many times over, loses none of the others: thread
 * 100's interval spans the 1000 threads of high tids and ends whole (not
 * a new thread 100 seen switching in, censored from the origin), and no
 * page of the direct table leaks (ASan checks it here).
 */
static void log_offcpu_100(void *arg, const struct offcpu_iv *iv)
{
	if (iv->task->tid == 100)
		log_offcpu_one(arg, iv, false);
}

TEST(high_tids_keep_the_others)
{
	struct offcpu_log log = { .n = 0 };
	struct sched_handler h = { .offcpu = log_offcpu_100, .arg = &log };
	struct srecreader_info info;
	struct schedmodel *m = model_of(&info, 1000, 2);
	uint64_t ts = 4000;
	uint32_t i;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, schedmodel_add_handler(m, &h));
	ASSERT_EQ(1, switch_at(m, 0, 2000, 0, 0, 100));
	ASSERT_EQ(1, switch_at(m, 0, 3000, 100, TASKSTATE_INTERRUPTIBLE, 0));
	ASSERT_EQ(1, switch_at(m, 1, ts, 0, 0, 0));
	for (i = 0; i < 1000; i++, ts += 2) {
		ASSERT_EQ(1, switch_at(m, 1, ts, 0, 0, 5000000 + i));
		ASSERT_EQ(1, switch_at(m, 1, ts + 1, 5000000 + i,
				       TASKSTATE_INTERRUPTIBLE, 0));
	}
	ASSERT_EQ(1, switch_at(m, 0, ts, 0, 0, 100));
	/* the first: '?' from the origin to its first switch-in */
	ASSERT_EQ(2u, log.n);
	EXPECT_EQ(IV_CUT_START, log.iv[0].flags);
	EXPECT_EQ(3000, log.iv[1].start);
	EXPECT_EQ(ts, log.iv[1].end);
	EXPECT_EQ(0, log.iv[1].flags);
	schedmodel_free(m);
}

TEST_HARNESS_MAIN
