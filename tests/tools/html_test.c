// SPDX-License-Identifier: GPL-2.0
/*
 * `schedrec report html` on a synthetic 6 s recording (the browser test's:
 * tests/html/trace.awk, compiled by tracegen.h): the directory has every
 * file; index.html is well-formed, has the page's parts, references only
 * files that exist and no network address (tests/tools/html_check.py,
 * with Python's html.parser); its tables hold exactly what `schedrec
 * report NAME --csv` prints, with and without a selection; the files of
 * the reports and of the per-second views are exactly what the reports
 * write on their own (--range S:S+1 for a second); the busiest seconds
 * are the ones pre-rendered, and a second's view of a file cut short says
 * so as its report does; the events recorded, types of a newer module
 * in the event table too; bad input (no -o, a directory that is not
 * empty, one that cannot be written, a pipe) gives its message and exit
 * status.  tests/html/ opens the same page in a real browser.
 *
 * Environment: SCHEDREC_BIN, the schedrec to run (default
 * build/user/schedrec of this tree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "run_util.h"
#include "tracegen.h"

/* The files every page has, beside index.html. */
static const char *const page_files[] = {
	"offcpu.txt", "offcpu.csv", "offcpu.svg",
	"tenancy.txt", "tenancy.csv", "tenancy.svg",
	"states.txt", "states.csv", "states.svg", "states-usurpers.csv",
	"latency.txt", "latency.csv", "latency.svg", "latency-wakers.csv",
	"heatmap.txt", "heatmap.csv", "heatmap.svg",
	"flame.txt", "flame.svg", "index.html",
};

/* The tables of the page: the part, its report and the CSV's options. */
static const char *const tables[][3] = {
	{ "offcpu", "offcpu", "" },
	{ "tenancy", "tenancy", "" },
	{ "states", "states", "" },
	{ "states-usurpers", "states", "--usurpers" },
	{ "latency", "latency", "" },
	{ "latency-wakers", "latency", "--wakers" },
};

FIXTURE(html) {
	struct workdir w;
};

#define RUN(...) workdir_run(&self->w, __VA_ARGS__)

static const char *text_of(const char *s)
{
	return s ? s : "";
}

/* Run a command that must succeed, and say what it printed if not. */
#define RUN_OK(...) do {						\
	int code_ = RUN(__VA_ARGS__);					\
									\
	ASSERT_EQ(0, code_) {						\
		TH_LOG("exit %d: %s\n%s%s", code_, #__VA_ARGS__,	\
		       text_of(self->w.out), text_of(self->w.err));	\
	}								\
} while (0)

/*
 * Commands run in the fixture's directory, stdin /dev/null (unless they
 * pipe), with $S the schedrec binary, $PY the checker and $SRC this
 * directory.
 */
FIXTURE_SETUP(html)
{
	char path[512], msg[512], *text;

	ASSERT_EQ(0, workdir_make(&self->w, "schedrec-html-test"));
	snprintf(path, sizeof(path), "%s %s/html_check.py", python3_bin(),
		 tools_test_dir());
	workdir_var(&self->w, "PY", path);
	workdir_var(&self->w, "SRC", tools_test_dir());
	RUN_OK("awk -f \"$SRC/../html/trace.awk\" >trace.txt");
	snprintf(path, sizeof(path), "%s/trace.txt", self->w.dir);
	text = read_file(path, NULL);
	ASSERT_NE(NULL, text);
	snprintf(path, sizeof(path), "%s/run.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(text, path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	free(text);
}

FIXTURE_TEARDOWN(html)
{
	workdir_remove(&self->w);
}

/* Every file, index.html well-formed and self-contained, the summary. */
TEST_F(html, page)
{
	static const char *const summary[] = {
		"Trace run.srec", "Host tracegen",
		"Kernel 6.12.0-tracegen #1 SMP PREEMPT_DYNAMIC tracegen x86_64",
		"CPUs 2 (online at the start: 0-1)",
		"Started 2023-11-14 22:13:20.000 UTC", "Length 6.000 s",
		"Drainer pinned to CPU 1 ; pid 900",
		"Command line schedrec", "record (tracegen)",
		"642 records read.",
		"WARNING: 3 events lost in this window (CPU 0: 3 between 3.410000 and 3.440000 s)",
		"0 360 3 0 1 282 0 0 the drainer's CPU",
	};
	char name[64];
	size_t i;

	RUN_OK("$S report html run.srec -o out");
	EXPECT_NE(NULL, strstr(self->w.out, "Wrote out/index.html"));
	EXPECT_NE(NULL, strstr(self->w.out, "heat map: 2, 3, 4, 0, 1, 5\n"));
	for (i = 0; i < ARRAY_SIZE(page_files); i++) {
		snprintf(name, sizeof(name), "out/%s", page_files[i]);
		EXPECT_TRUE(workdir_has(&self->w, name)) {
			TH_LOG("no %s", name);
		}
	}
	for (i = 0; i <= 5; i++) {
		snprintf(name, sizeof(name), "out/seconds/timeline-%zu.svg", i);
		EXPECT_TRUE(workdir_has(&self->w, name));
		snprintf(name, sizeof(name), "out/seconds/flame-%zu.txt", i);
		EXPECT_TRUE(workdir_has(&self->w, name));
	}
	RUN_OK("$PY page out --views 6");
	/* the busiest second first, shown when the page opens */
	EXPECT_NE(NULL, strstr(self->w.out, "views 2,3,4,0,1,5\nsecond 2\n"));
	/* the text of the summary, a space between elements */
	RUN_OK("$PY page out | sed -n 's/^summary: //p'");
	for (i = 0; i < ARRAY_SIZE(summary); i++) {
		bool found = strstr(self->w.out, summary[i]);

		EXPECT_TRUE(found) {
			TH_LOG("the summary has no \"%s\": %s", summary[i],
			       text_of(self->w.out));
		}
	}
}

/* The tables are the reports' CSV, cell by cell. */
TEST_F(html, tables_are_the_csv)
{
	size_t i;

	RUN_OK("$S report html run.srec -o out -q");
	RUN_OK("$S report html run.srec -o sel -q --pid 100 --range 1.5:4.5 --cpu 1");
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		RUN_OK("$S report %s run.srec --csv -q %s >t.csv && $PY table out %s t.csv",
		       tables[i][1], tables[i][2], tables[i][0]);
		RUN_OK("$S report %s run.srec --csv -q %s --pid 100 --range 1.5:4.5 --cpu 1 >t.csv && $PY table sel %s t.csv",
		       tables[i][1], tables[i][2], tables[i][0]);
	}
	/* one of them in the page: its first row, durations with a unit */
	RUN_OK("grep -o '<tr><td class=\"n\">100</td><td class=\"n\">100</td><td>app</td><td class=\"n\">140</td><td class=\"n\" data-v=\"[0-9]*\">[^<]*</td>' out/index.html");
	EXPECT_STREQ("<tr><td class=\"n\">100</td><td class=\"n\">100</td><td>app</td><td class=\"n\">140</td><td class=\"n\" data-v=\"4321000000\">4.321 s</td>\n",
		     self->w.out);
}

/* Each file is what its report writes alone, per second with --range. */
TEST_F(html, files_are_the_reports)
{
	static const char *const reports[] = {
		"offcpu", "tenancy", "states", "latency", "heatmap",
	};
	size_t i;

	RUN_OK("$S report html run.srec -o out --seconds 2");
	for (i = 0; i < ARRAY_SIZE(reports); i++) {
		RUN_OK("$S report %s run.srec --svg r.svg >r.txt && cmp r.txt out/%s.txt && cmp r.svg out/%s.svg",
		       reports[i], reports[i], reports[i]);
		RUN_OK("$S report %s run.srec --csv -q >r.csv && cmp r.csv out/%s.csv",
		       reports[i], reports[i]);
	}
	RUN_OK("$S report flame run.srec --svg out/r.svg >/dev/null && cmp out/r.svg out/flame.svg");
	/* the two busiest seconds, 2 and 3, read in one more pass */
	for (i = 2; i <= 3; i++) {
		RUN_OK("$S report timeline run.srec --range %zu:%zu --threads --svg t.svg >t.txt && cmp t.txt out/seconds/timeline-%zu.txt && cmp t.svg out/seconds/timeline-%zu.svg",
		       i, i + 1, i, i);
		RUN_OK("$S report flame run.srec --range %zu:%zu --svg f.svg >/dev/null && cmp f.svg out/seconds/flame-%zu.svg",
		       i, i + 1, i);
	}
	EXPECT_FALSE(workdir_has(&self->w, "out/seconds/timeline-4.svg"));
	/* a selection and a window apply to the seconds too */
	RUN_OK("$S report html run.srec -o sel --pid 100 --range 1.5:4.5");
	EXPECT_NE(NULL, strstr(self->w.out, "heat map: 2, 3, 4, 1\n"));
	RUN_OK("$S report timeline run.srec --pid 100 --range 1.5:2 --threads --svg t.svg >t.txt && cmp t.txt sel/seconds/timeline-1.txt && cmp t.svg sel/seconds/timeline-1.svg");
	RUN_OK("$PY page sel --views 4");
}

/*
 * A file cut short (no trailer; CPU 1's records whole up to 1.5 s): the
 * view of second 1 shows 1.5-2 s of CPU 1 as not known, as the report of
 * that second on its own does, though its pass stops at its end; second
 * 0 ends before the cut and has none of it.
 */
TEST_F(html, cut_short)
{
	static const char trace[] =
		"cpus 2\nnotrailer\npass 2\n"
		"thread 100 100 app\nthread 200 200 bg\n"
		"100ms cpu0 switch 0 R0 100\n100ms cpu1 switch 0 R0 200\n"
		"200ms cpu1 switch 200 S 0\n300ms cpu1 switch 0 R0 200\n"
		"400ms cpu0 switch 100 S 0\n1200ms cpu0 switch 0 R0 100\n"
		"1500ms cpu0 switch 100 S 0\n2200ms cpu0 switch 0 R0 100\n"
		"2500ms cpu0 switch 100 S 0\n";
	char path[512], msg[512];
	int i;

	snprintf(path, sizeof(path), "%s/cut.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(trace, path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	RUN_OK("$S report html cut.srec -o out -q; test $? = 1");
	for (i = 0; i <= 2; i++)
		RUN_OK("$S report timeline cut.srec -q --range %d:%d --threads --svg t.svg >t.txt; test $? = %d && cmp t.txt out/seconds/timeline-%d.txt && cmp t.svg out/seconds/timeline-%d.svg",
		       i, i + 1, i ? 1 : 0, i, i);
	RUN_OK("grep -c 'CPU 1: the file is cut short, its records whole up to 1.500000 s' out/seconds/timeline-1.svg");
	EXPECT_STREQ("1\n", self->w.out);
	RUN_OK("! grep -q 'cut short' out/seconds/timeline-0.svg");
}

/* --seconds 0: no second, no second read; a pipe will do then. */
TEST_F(html, no_seconds)
{
	RUN_OK("cat run.srec | $S report html - -o out --seconds 0");
	RUN_OK("$PY page out --views 0");
	RUN_OK("ls out/seconds | wc -l");
	EXPECT_STREQ("0\n", self->w.out);
	RUN_OK("grep -c 'No second was pre-rendered (--seconds 0)' out/index.html");
}

/*
 * A path is any bytes; the page is UTF-8 all the same (the checker reads
 * it as such), its data the path's bytes as Latin-1 reads them.
 */
TEST_F(html, path_not_utf8)
{
	RUN_OK("cp run.srec \"$(printf 'r\\351n.srec')\"");
	RUN_OK("$S report html \"$(printf 'r\\351n.srec')\" -o out");
	RUN_OK("$PY page out | grep '^trace '");
	EXPECT_STREQ("trace r\xc3\xa9n.srec\n", self->w.out);
}

/*
 * Types of record of a newer module in the event table (ids past the 32
 * bits of the event mask): listed as recorded by the table's own flag.
 */
TEST_F(html, newer_events)
{
	static const char trace[] =
		"cpus 1\n"
		"event 33 32 sched_newer off\n"
		"event 200 16 sched_other\n"
		"thread 100 100 app\n"
		"0ms cpu0 switch 0 R0 100\n"
		"1ms cpu0 switch 100 S 0\n";
	char path[512], msg[512];

	snprintf(path, sizeof(path), "%s/new.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(trace, path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	RUN_OK("$S report html new.srec -o out");
	RUN_OK("grep -o 'Events recorded</dt><dd>[^;]*' out/index.html");
	EXPECT_STREQ("Events recorded</dt><dd>switch, waking, wakeup, wakeup_new, migrate, fork, exec, exit, rename, sched_other\n",
		     self->w.out);
}

TEST_F(html, bad_input)
{
	EXPECT_EQ(2, RUN("$S report html run.srec"));
	EXPECT_NE(NULL, strstr(self->w.err, "give -o DIR"));

	EXPECT_EQ(2, RUN("$S report html run.srec -o"));
	EXPECT_NE(NULL, strstr(self->w.err, "'-o' needs a value"));

	/* a directory with something in it is not written into... */
	EXPECT_EQ(0, RUN("mkdir used && echo mine >used/notes.txt"));
	EXPECT_EQ(2, RUN("$S report html run.srec -o used"));
	EXPECT_NE(NULL, strstr(self->w.err, "-o used: the directory is not empty"));
	EXPECT_FALSE(workdir_has(&self->w, "used/index.html"));
	/* ...unless --force, and what is not the page's is left alone */
	RUN_OK("$S report html run.srec -o used --force --seconds 1");
	EXPECT_TRUE(workdir_has(&self->w, "used/index.html"));
	EXPECT_TRUE(workdir_has(&self->w, "used/notes.txt"));
	/* and a new directory is made, with its parents */
	RUN_OK("$S report html run.srec -o a/b/c --seconds 1");
	EXPECT_TRUE(workdir_has(&self->w, "a/b/c/index.html"));

	EXPECT_EQ(2, RUN("$S report html run.srec -o trace.txt"));
	EXPECT_NE(NULL, strstr(self->w.err, "-o trace.txt: that is not a directory"));

	/* cannot be created: exit 3, before the trace is read */
	EXPECT_EQ(3, RUN("$S report html run.srec -o trace.txt/sub"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot create the directory trace.txt/sub"));
	EXPECT_EQ(3, RUN("$S report html run.srec -o /proc/schedrec-html-test"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot create the directory /proc/schedrec-html-test"));

	/* the trace is read twice: not from a pipe */
	EXPECT_EQ(2, RUN("cat run.srec | $S report html - -o piped"));
	EXPECT_NE(NULL, strstr(self->w.err, "-: html reads the trace twice"));
	EXPECT_NE(NULL, strstr(self->w.err, "--seconds 0"));

	EXPECT_EQ(2, RUN("$S report html run.srec -o x --csv"));
	EXPECT_NE(NULL, strstr(self->w.err, "--csv: html writes every CSV file"));
	EXPECT_EQ(2, RUN("$S report html run.srec -o x --svg a.svg"));
	EXPECT_EQ(2, RUN("$S report html run.srec -o x --seconds 101"));
	EXPECT_NE(NULL, strstr(self->w.err, "bad --seconds '101'"));
	EXPECT_EQ(3, RUN("$S report html missing.srec -o x"));
	EXPECT_NE(NULL, strstr(self->w.err, "missing.srec"));
	EXPECT_EQ(3, RUN("echo not a trace >bad.srec && $S report html bad.srec -o x"));
	EXPECT_FALSE(workdir_has(&self->w, "x"));
	EXPECT_FALSE(workdir_has(&self->w, "piped"));
}

TEST_F(html, help)
{
	RUN_OK("$S report html --help");
	EXPECT_NE(NULL, strstr(self->w.out, "-o, --output DIR"));
	EXPECT_NE(NULL, strstr(self->w.out, "--seconds N"));
	RUN_OK("$S report --help");
	EXPECT_NE(NULL, strstr(self->w.out, "  html "));
	/* its examples run */
	RUN_OK("$S report html run.srec -o run-html >/dev/null && $S report html run.srec --pid 4242 --seconds 30 -o run-html --force");
}

TEST_HARNESS_MAIN
