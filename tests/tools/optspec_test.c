// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables (tools/lib/optspec.h): getopt_long()'s table and short
 * options made from them parse what the table says, options another
 * table parses (key 0) are listed but not parsed twice, and --help lists
 * every option once, its help in one column, wrapped before column 79,
 * continuations hanging where they should; a word ("-h", "--help")
 * finds its entry; and every --help of the schedrec binary keeps its
 * option lines that narrow.
 *
 * Environment: SCHEDREC_BIN, the schedrec to run (default
 * build/user/schedrec of this tree).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "optspec.h"
#include "run_util.h"

enum { OPT_TID = 0x100, OPT_WAIT, OPT_DIRECT };

static const struct optspec first[] = {
	{ "output", 'o', required_argument, "FILE", "where it goes\n" },
	{ "tid", OPT_TID, required_argument, "TID",
	  "only this thread, a help long enough to be wrapped at least "
	  "once, maybe twice, before column seventy-nine is reached by "
	  "the words of this one line\n" },
	{ "compress", 'z', optional_argument, "[=N]", "level N\n" },
	{ 0 },
};

static const struct optspec second[] = {
	{ "wait", OPT_WAIT, required_argument, "=MODE",
	  "how to wait:\n"
	  "poll   sleep in poll() until a ring is a quarter full, which "
	  "is the default and what most users want\n"
	  "spin   never sleep\n" },
	{ "cpu", 0, required_argument, "CPU", "parsed by another table\n" },
	{ "a-very-long-option-name", OPT_DIRECT, no_argument, NULL,
	  "too wide for the column\n" },
	{ "help", 'h', no_argument, NULL, NULL },
	{ 0 },
};

static const struct optspec *const both[] = { first, second, NULL };

/* What optspec_help() prints for @tables, malloc()ed. */
static char *help_of(const struct optspec *const *tables)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	optspec_help(f, tables);
	fclose(f);
	return buf;
}

/* The line of @text that starts with @start, NULL if none. */
static const char *line_starting(const char *text, const char *start)
{
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, start, strlen(start)))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The length of the line at @p. */
static size_t line_len(const char *p)
{
	return strchrnul(p, '\n') - p;
}

TEST(getopt_table_and_short_options)
{
	char shortopts[16], *argv[] = {
		"prog", "-o", "out", "--tid", "5", "-z3", "--compress=2",
		"--wait=spin", "-z", "--a-very-long-option-name", "--cpu",
		"1", "rest", NULL,
	};
	int argc = 13, key, seen[8] = { 0 }, n = 0;
	const char *z_args[3] = { NULL };
	struct option *opts;

	opts = optspec_getopt(both, "+:", shortopts, sizeof(shortopts));
	ASSERT_NE(NULL, opts);
	EXPECT_STREQ("+:o:z::h", shortopts);
	/* key 0 (--cpu) is not in getopt's table */
	for (n = 0; opts[n].name; n++)
		EXPECT_STRNE("cpu", opts[n].name);
	EXPECT_EQ(6, n);
	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (key) {
		case 'o':
			EXPECT_STREQ("out", optarg);
			seen[0]++;
			break;
		case OPT_TID:
			EXPECT_STREQ("5", optarg);
			seen[1]++;
			break;
		case 'z':
			/* -z3, --compress=2, then -z without a level */
			if (seen[2] < 3)
				z_args[seen[2]] = optarg;
			seen[2]++;
			break;
		case OPT_WAIT:
			EXPECT_STREQ("spin", optarg);
			seen[3]++;
			break;
		case OPT_DIRECT:
			seen[4]++;
			break;
		case '?':
			/* --cpu: another table's, unknown to this one */
			EXPECT_STREQ("--cpu", argv[optind - 1]);
			seen[5]++;
			break;
		default:
			TH_LOG("unexpected key %d", key);
			EXPECT_TRUE(false);
		}
	}
	EXPECT_EQ(1, seen[0]);
	EXPECT_EQ(1, seen[1]);
	EXPECT_EQ(3, seen[2]);
	EXPECT_STREQ("3", z_args[0] ? z_args[0] : "(null)");
	EXPECT_STREQ("2", z_args[1] ? z_args[1] : "(null)");
	EXPECT_EQ(NULL, z_args[2]);
	/* "+": the first word that is no option's stops the parse */
	EXPECT_EQ(11, optind);
	EXPECT_EQ(1, seen[3]);
	EXPECT_EQ(1, seen[4]);
	EXPECT_EQ(1, seen[5]);
	free(opts);

	/* a buffer too small for the short options */
	errno = 0;
	EXPECT_EQ(NULL, optspec_getopt(both, "+:", shortopts, 6));
	EXPECT_EQ(EINVAL, errno);
}

TEST(help_lists_each_option_in_one_column)
{
	char *help = help_of(both);
	const char *p, *names[] = {
		"  -o, --output FILE  ", "      --tid TID      ",
		"  -z, --compress[=N] ", "      --wait=MODE    ",
		"      --cpu CPU      ", "  -h, --help",
	};
	size_t i, column;

	ASSERT_NE(NULL, help);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		p = line_starting(help, names[i]);
		EXPECT_NE(NULL, p) {
			TH_LOG("no line '%s' in:\n%s", names[i], help);
		}
	}
	EXPECT_NE(NULL, line_starting(help,
				      "  -o, --output FILE   where it goes\n"));
	/* too wide: its help three spaces after it, on its line */
	EXPECT_NE(NULL, line_starting(help,
		"      --a-very-long-option-name   too wide for the column\n"));
	/* no help: the option alone, no trailing space */
	EXPECT_NE(NULL, line_starting(help, "  -h, --help\n"));
	/* every line narrower than 80, none ending in a space */
	for (p = help; *p; p += line_len(p) + 1) {
		EXPECT_GT(80, line_len(p));
		if (line_len(p))
			EXPECT_NE(' ', p[line_len(p) - 1]);
	}
	/* the wrapped --tid goes on under its column */
	p = line_starting(help, "      --tid TID");
	ASSERT_NE(NULL, p);
	p += line_len(p) + 1;
	/* two spaces after the widest, "  -z, --compress[=N]" */
	column = strlen("  -z, --compress[=N]  ");
	EXPECT_EQ(column, strspn(p, " "));
	/* --wait's lines: the first as it is, the others hang after "poll   " */
	p = line_starting(help, "      --wait=MODE");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, strncmp(p + column, "how to wait:\n", 13));
	p += line_len(p) + 1;
	EXPECT_EQ(column, strspn(p, " "));
	EXPECT_EQ(0, strncmp(p + column, "poll   sleep", 12));
	p += line_len(p) + 1;
	EXPECT_EQ(column + 7, strspn(p, " "));
	free(help);
}

/* Without short options, long ones are not indented for them. */
TEST(help_without_short_options)
{
	static const struct optspec only_long[] = {
		{ "range", 1, required_argument, "START:END", "a window\n" },
		{ "csv", 2, no_argument, NULL, "CSV\n" },
		{ 0 },
	};
	const struct optspec *const tables[] = { only_long, NULL };
	char *help = help_of(tables);

	ASSERT_NE(NULL, help);
	EXPECT_STREQ("  --range START:END  a window\n"
		     "  --csv              CSV\n", help);
	free(help);
}

/* A word names an entry by its short or its long form, nothing else. */
TEST(word_names_an_entry)
{
	EXPECT_EQ(&first[0], optspec_word(first, "-o"));
	EXPECT_EQ(&first[0], optspec_word(first, "--output"));
	EXPECT_EQ(&first[1], optspec_word(first, "--tid"));
	EXPECT_EQ(&second[3], optspec_word(second, "-h"));
	EXPECT_EQ(&first[1], optspec_find(first, "tid"));
	EXPECT_EQ(NULL, optspec_word(first, "-oo"));
	EXPECT_EQ(NULL, optspec_word(first, "--out"));
	EXPECT_EQ(NULL, optspec_word(first, "output"));
	EXPECT_EQ(NULL, optspec_word(first, "-"));
	EXPECT_EQ(NULL, optspec_word(first, "--"));
	EXPECT_EQ(NULL, optspec_find(first, "cpu"));
}

/* Every --help of the binary: option lines narrower than 80 columns. */
TEST(binary_help_fits)
{
	static const char *const helps[] = {
		"--help", "record --help", "status --help", "report --help",
		"report offcpu --help", "report tenancy --help",
		"report states --help", "report latency --help",
		"report heatmap --help", "report timeline --help",
		"report folded --help", "report flame --help",
		"report html --help", "export --help",
		"export perfetto --help", "export schedlog --help",
		"export csv --help", "export openmetrics --help",
	};
	char cmd[512], line[4096];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(helps); i++) {
		FILE *f;
		bool in_options = false;

		snprintf(cmd, sizeof(cmd), "%s %s", schedrec_bin(), helps[i]);
		f = popen(cmd, "r");
		ASSERT_NE(NULL, f);
		n = 0;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "Options", 7))
				in_options = true;
			else if (line[0] == '\n')
				in_options = false;
			else if (in_options) {
				n++;
				EXPECT_GT(80, strcspn(line, "\n")) {
					TH_LOG("schedrec %s: %s", helps[i],
					       line);
				}
			}
		}
		EXPECT_EQ(0, pclose(f));
		EXPECT_LT(0, n) {
			TH_LOG("schedrec %s lists no options", helps[i]);
		}
	}
}

TEST_HARNESS_MAIN
