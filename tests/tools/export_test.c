// SPDX-License-Identifier: GPL-2.0
/*
 * `schedrec export` on a synthetic trace (tracegen.h) whose every record
 * is known: the perfetto JSON parses, every slice has a named thread,
 * slices of a track never overlap and the running time per thread is
 * exactly what `schedrec report tenancy` says (with and without a
 * selection); the schedlog tarball lists its members (tar -tf) and loads
 * with NumPy, columns of equal length and int64, event ids in its table,
 * rows exactly those expected; the CSV has a row per record (counted by
 * srecreader), every row the header's columns, every field exact; the
 * .npz writer's zip64 form loads; the examples of --help run; and bad
 * input (unknown format, no -o, unwritable output, not a trace, a corrupt
 * chunk) gives its message and exit status.
 *
 * The parsers are Python's (tests/tools/export_check.py, with NumPy for
 * the schedlog tests: tests/check.sh installs python3-numpy).
 *
 * Environment: SCHEDREC_BIN, the schedrec to run (default
 * build/user/schedrec of this tree).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "archive.h"
#include "run_util.h"
#include "srecfmt.h"
#include "srecreader.h"
#include "tracegen.h"

#define SKIP_STATUS	77

/*
 * Four CPUs; a process 4242 of three threads (one renamed while running,
 * one renamed to a name CSV and JSON must quote), a kernel thread, a
 * process forked, exec'd and exited, the drainer (900, on CPU 1), a loss.
 */
static const char trace_text[] =
	"cpus 4\n"
	"drainer 900 900 1\n"
	"thread 4242 4242 server\n"
	"thread 4243 4242 worker\n"
	"thread 4244 4242 helper\n"
	"thread 7 7 kworker\n"
	"thread 900 900 schedrec\n"
	"0ms cpu0 switch 0 R0 4242\n"
	"0.1ms cpu1 switch 0 R0 4243\n"
	"0.5ms cpu2 switch 0 R0 7\n"
	"1ms cpu0 waking 4244 target 2\n"
	"1.1ms cpu2 wakeup 4244 waker 4242 target 2\n"
	"1.2ms cpu2 switch 7 I 4244\n"
	"2ms cpu1 switch 4243 S 900\n"
	"2.2ms cpu1 switch 900 S 0\n"
	"2.5ms cpu0 switch 4242 R 4243\n"
	"3ms cpu0 rename 4243 4242 renamed\n"
	"3.4ms cpu2 migrate 4242 0 2\n"
	"3.5ms cpu2 switch 4244 D 4242\n"
	"3.6ms cpu0 rename 4244 4242 x,\"y\n"
	"4ms cpu3 fork 5000 5000 4242 child\n"
	"4.2ms cpu3 wakeup_new 5000 target 3\n"
	"4.5ms cpu3 switch 0 R0 5000\n"
	"5ms cpu3 exec 5000 5000 5000 newprog\n"
	"5.8ms cpu3 exit 5000 5000 newprog\n"
	"6ms cpu3 switch 5000 Z 0\n"
	"6.5ms cpu0 switch 4243 S 0\n"
	"7ms cpu1 lost 2 6.6ms 6.8ms\n"
	"8ms cpu2 switch 4242 S 0\n"
	"end 10ms\n";

#define TRACE_RECORDS	22

/* Every field of every record of trace_text, worked out by hand. */
static const char expected_csv[] =
	"cpu,seq,ts_ns,time_s,type,flags,preempt,irq,gap,prev_tid,prev_state,prev_state_letter,prev_prio,next_tid,next_prio,tid,tgid,other_tid,comm,target_cpu,waker_tid,orig_cpu,dest_cpu,prio,count,first_ts_ns,last_ts_ns\n"
	"0,0,1000000000000,0.000000000,switch,0,0,0,0,0,0,R,120,4242,120,,,,,,,,,,,,\n"
	"1,0,1000000100000,0.000100000,switch,0,0,0,0,0,0,R,120,4243,120,,,,,,,,,,,,\n"
	"2,0,1000000500000,0.000500000,switch,0,0,0,0,0,0,R,120,7,120,,,,,,,,,,,,\n"
	"0,1,1000001000000,0.001000000,waking,0,0,0,0,,,,,,,4244,,,,2,4242,,,120,,,\n"
	"2,1,1000001100000,0.001100000,wakeup,0,0,0,0,,,,,,,4244,,,,2,4242,,,120,,,\n"
	"2,2,1000001200000,0.001200000,switch,0,0,0,0,7,1026,I,120,4244,120,,,,,,,,,,,,\n"
	"1,1,1000002000000,0.002000000,switch,0,0,0,0,4243,1,S,120,900,120,,,,,,,,,,,,\n"
	"1,2,1000002200000,0.002200000,switch,0,0,0,0,900,1,S,120,0,120,,,,,,,,,,,,\n"
	"0,2,1000002500000,0.002500000,switch,1,1,0,0,4242,0,R,120,4243,120,,,,,,,,,,,,\n"
	"0,3,1000003000000,0.003000000,rename,0,0,0,0,,,,,,,4243,4242,0,renamed,,,,,,,,\n"
	"2,3,1000003400000,0.003400000,migrate,0,0,0,0,,,,,,,4242,,,,,,0,2,120,,,\n"
	"2,4,1000003500000,0.003500000,switch,0,0,0,0,4244,2,D,120,4242,120,,,,,,,,,,,,\n"
	"0,4,1000003600000,0.003600000,rename,0,0,0,0,,,,,,,4244,4242,0,\"x,\"\"y\",,,,,,,,\n"
	"3,0,1000004000000,0.004000000,fork,0,0,0,0,,,,,,,5000,5000,4242,child,,,,,,,,\n"
	"3,1,1000004200000,0.004200000,wakeup_new,0,0,0,0,,,,,,,5000,,,,3,0,,,120,,,\n"
	"3,2,1000004500000,0.004500000,switch,0,0,0,0,0,0,R,120,5000,120,,,,,,,,,,,,\n"
	"3,3,1000005000000,0.005000000,exec,0,0,0,0,,,,,,,5000,5000,5000,newprog,,,,,,,,\n"
	"3,4,1000005800000,0.005800000,exit,0,0,0,0,,,,,,,5000,5000,0,newprog,,,,,,,,\n"
	"3,5,1000006000000,0.006000000,switch,0,0,0,0,5000,128,Z,120,0,120,,,,,,,,,,,,\n"
	"0,5,1000006500000,0.006500000,switch,0,0,0,0,4243,1,S,120,0,120,,,,,,,,,,,,\n"
	"1,5,1000007000000,0.007000000,lost,0,0,0,0,,,,,,,,,,,,,,,,2,1000006600000,1000006800000\n"
	"2,5,1000008000000,0.008000000,switch,0,0,0,0,4242,1,S,120,0,120,,,,,,,,,,,,\n";

/*
 * The schedlog rows of trace_text: timestamp pid EVENT cpu arg0 arg1.
 * A sleep is BLOCK (BLOCK_IO in D) then CTX_SWITCH, arg0 the next thread
 * and arg1 the raw state; wakeups on the target CPU, arg0 the CPU they
 * happened on, arg1 the waker; names packed little-endian, bytes 4-7 in
 * arg0 and 0-3 in arg1 ("rena" = 1634624882, "med" = 6579565, "x,\"y" =
 * 2032282744, "newp" = 1886872942, "rog" = 6778738).
 */
static const char expected_rows[] =
	"1000000000000 0 CTX_SWITCH 0 4242 0\n"
	"1000000100000 0 CTX_SWITCH 1 4243 0\n"
	"1000000500000 0 CTX_SWITCH 2 7 0\n"
	"1000001000000 4244 WAKING 2 0 4242\n"
	"1000001100000 4244 WAKEUP 2 2 4242\n"
	"1000001200000 7 BLOCK 2 1026 0\n"
	"1000001200000 7 CTX_SWITCH 2 4244 1026\n"
	"1000002000000 4243 BLOCK 1 1 0\n"
	"1000002000000 4243 CTX_SWITCH 1 900 1\n"
	"1000002200000 900 BLOCK 1 1 0\n"
	"1000002200000 900 CTX_SWITCH 1 0 1\n"
	"1000002500000 4242 CTX_SWITCH 0 4243 0\n"
	"1000003000000 4243 RENAME 0 6579565 1634624882\n"
	"1000003400000 4242 MIGRATE 2 0 2\n"
	"1000003500000 4244 BLOCK_IO 2 2 0\n"
	"1000003500000 4244 CTX_SWITCH 2 4242 2\n"
	"1000003600000 4244 RENAME 0 0 2032282744\n"
	"1000004000000 5000 FORK 3 4242 5000\n"
	"1000004200000 5000 WAKEUP_NEW 3 3 0\n"
	"1000004500000 0 CTX_SWITCH 3 5000 0\n"
	"1000005000000 5000 EXEC 3 6778738 1886872942\n"
	"1000005800000 5000 EXIT 3 0 5000\n"
	"1000006000000 5000 CTX_SWITCH 3 0 128\n"
	"1000006500000 4243 BLOCK 0 1 0\n"
	"1000006500000 4243 CTX_SWITCH 0 0 1\n"
	"1000007000000 0 LOST 1 2 1000006600000\n"
	"1000008000000 4242 BLOCK 2 1 0\n"
	"1000008000000 4242 CTX_SWITCH 2 0 1\n";

/* ------------------------------------------------------------------ */

/* $PY: the checker, run by the python3 python3-numpy installs for. */
static void checker(char *buf, size_t size)
{
	snprintf(buf, size, "%s %s/export_check.py", python3_bin(),
		 tools_test_dir());
}

FIXTURE(export) {
	struct workdir w;
	char path[512];		/* the trace, then a scratch path */
};

/* $S runs schedrec, $PY the checker, in the fixture's directory. */
FIXTURE_SETUP(export)
{
	char msg[512], py[2048];

	ASSERT_EQ(0, workdir_make(&self->w, "schedrec-export-test"));
	checker(py, sizeof(py));
	workdir_var(&self->w, "PY", py);
	snprintf(self->path, sizeof(self->path), "%s/run.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(trace_text, self->path, msg,
					 sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
}

FIXTURE_TEARDOWN(export)
{
	workdir_remove(&self->w);
}

#define RUN(...) workdir_run(&self->w, __VA_ARGS__)

/* Run export_check.py: it must say ok (77: NumPy is missing). */
static __attribute__((format(printf, 3, 4)))
void run_checker(struct __test_metadata *_metadata, struct workdir *w,
		 const char *fmt, ...)
{
	char args[4096];
	va_list ap;
	int code;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	code = workdir_run(w, "$PY %s", args);
	ASSERT_EQ(0, code) {
		TH_LOG("%s: %s%s%s", args, w->out, w->err,
		       code == SKIP_STATUS ?
		       "(tests/check.sh installs python3-numpy)" : "");
	}
}

#define CHECK(...) run_checker(_metadata, &self->w, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* perfetto */

TEST_F(export, perfetto_matches_tenancy)
{
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o run.json"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q >ten.csv"));
	/*
	 * every thread but the drainer has a track, named by its latest
	 * name; its running slices carry the names it had
	 */
	CHECK("perfetto run.json ten.csv --exclude-pid 900 --thread 4242 4243 renamed --comms 4242 4243 worker,renamed --thread 4242 4244 'x,\"y' --thread 5000 5000 newprog --comms 5000 5000 child,newprog --thread 7 7 kworker --thread 900 900 schedrec");
	/* the drainer has a track too, as every export keeps it */
	ASSERT_EQ(0, RUN("grep -c '\"pid\":900,\"tid\":900,\"cat\":\"oncpu\"' run.json || true"));
	EXPECT_STREQ("1\n", self->w.out);
	/* with a selection, only if it names it */
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o p.json --pid 4242 && grep -c '\"pid\":900,\"tid\":900,\"cat\":\"oncpu\"' p.json || true"));
	EXPECT_STREQ("0\n", self->w.out);
}

TEST_F(export, perfetto_selections)
{
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o r.json --range 0.003:0.007 --cpu 0,2"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q --range 0.003:0.007 --cpu 0,2 >t.csv"));
	CHECK("perfetto r.json t.csv --exclude-pid 900");

	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o p.json --pid 4242"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q --pid 4242 >p.csv"));
	CHECK("perfetto p.json p.csv --threads-selected");

	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o c.json --comm '^(kworker|child)$'"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q --comm '^(kworker|child)$' >c.csv"));
	CHECK("perfetto c.json c.csv --threads-selected");
}

TEST_F(export, perfetto_pipes)
{
	/* from standard input to standard output */
	ASSERT_EQ(0, RUN("cat run.srec | $S export perfetto - --format json -o - >s.json"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q >ten.csv"));
	CHECK("perfetto s.json ten.csv --exclude-pid 900");
}

/* ------------------------------------------------------------------ */
/* perfetto, protobuf */

/* The names of trace_text's threads at the start, for perfetto_check.py */
#define PROTO_NAMES \
	"--release 6.12.0-tracegen --process 4242 server " \
	"--thread 4242 server --thread 4243 worker --thread 4244 helper " \
	"--thread 7 kworker --thread 900 schedrec"

/*
 * Export run.srec as protobuf with @args, decode it with protoc against
 * tests/tools/perfetto.proto, and check it with perfetto_check.py
 * (@check_args) against the CSV export of the same selection.
 */
static void check_proto(struct __test_metadata *_metadata, struct workdir *w,
			const char *args, const char *check_args)
{
	ASSERT_EQ(0, workdir_run(w, "$S export perfetto run.srec -o p.pftrace %s",
				 args)) {
		TH_LOG("export %s: %s", args, w->err);
	}
	ASSERT_EQ(0, workdir_run(w, "$S export csv run.srec -o p.csv %s", args));
	ASSERT_EQ(0, workdir_run(w, "protoc --decode=Trace -I $TD $TD/perfetto.proto <p.pftrace >p.txt")) {
		TH_LOG("protoc (tests/check.sh installs protobuf-compiler): %s",
		       w->err);
	}
	ASSERT_EQ(0, workdir_run(w, "%s $TD/perfetto_check.py p.txt p.csv %s",
				 python3_bin(), check_args)) {
		TH_LOG("perfetto_check.py %s: %s%s", check_args, w->out,
		       w->err);
	}
}

#define CHECK_PROTO(args, check_args) \
	check_proto(_metadata, &self->w, args, check_args)

TEST_F(export, perfetto_proto_has_every_record)
{
	workdir_var(&self->w, "TD", tools_test_dir());
	CHECK_PROTO("", PROTO_NAMES " --cpus 4");
	/* the default: not JSON */
	ASSERT_EQ(0, RUN("head -c 1 p.pftrace | od -An -tx1"));
	EXPECT_STREQ(" 0a\n", self->w.out);	/* field 1, length-delimited */
	/* and the same on standard output, from standard input */
	ASSERT_EQ(0, RUN("cat run.srec | $S export perfetto - -o - | cmp - p.pftrace"));
}

/* Every kind of record and field, losses in the middle, a gap */
TEST_F(export, perfetto_proto_every_kind)
{
	static const char text[] =
		"cpus 3\n"
		"thread 10 10 main\n"
		"thread 11 10 pool\n"
		"thread 20 20 rt\n"
		"0ms cpu0 switch 0 R0 10\n"
		"0.1ms cpu1 switch 0 R0 11\n"
		"0.2ms cpu2 switch 0 R0 20 prio 120 -1\n"
		"0.3ms cpu0 waking 11 target 1\n"
		"0.4ms cpu0 waking 20 irq target 2 prio -1\n"
		"0.5ms cpu1 switch 11 R 10\n"
		"0.6ms cpu1 migrate 11 1 2\n"
		"0.7ms cpu2 stack 20 ffffffff81000010,ffffffff81000020\n"
		"0.7ms cpu2 switch 20 D 11 prio -1 120\n"
		"0.8ms cpu0 fork 12 10 10 main\n"
		"0.8ms cpu0 fork 30 30 10 main\n"
		"0.9ms cpu0 wakeup_new 30 target 0\n"
		"1ms cpu0 switch 10 I 30\n"
		"1.1ms cpu0 exec 30 30 30 tool\n"
		"1.2ms cpu0 rename 12 10 worker\n"
		"1.3ms cpu1 lost 5 1.25ms 1.29ms\n"
		"1.4ms cpu1 waking 20 target 2\n"
		"1.5ms cpu1 switch 10 S 0\n"
		"1.6ms cpu1 waking 10 target 1\n"
		"1.7ms cpu1 switch 0 R0 10\n"
		"1.8ms cpu2 gap 3\n"
		"1.9ms cpu2 switch 11 T 20 prio 120 -1\n"
		"2ms cpu0 exit 30 30 tool\n"
		"2ms cpu0 switch 30 X 0\n"
		"2.1ms cpu2 switch 20 P 0 prio -1 120\n"
		"2.2ms cpu2 wakeup 20 waker 0 target 2 prio -1\n";
	char msg[256];

	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	workdir_var(&self->w, "TD", tools_test_dir());
	CHECK_PROTO("", "--cpus 3 --process 10 main --process 20 rt --thread 10 main --thread 11 pool --thread 20 rt");
	/* two lost bundles on CPUs 1 and 2, the rest whole events */
	ASSERT_EQ(0, RUN("grep -c 'lost_events: true' p.txt"));
	EXPECT_STREQ("2\n", self->w.out);
	ASSERT_EQ(0, RUN("grep -c 'sched_switch {' p.txt"));
	EXPECT_STREQ("5\n", self->w.out);	/* 3 first ones, 2 after loss */
	ASSERT_EQ(0, RUN("grep -c 'waking_common_flags: 8' p.txt"));
	EXPECT_STREQ("1\n", self->w.out);
}

/* A trace of `record --pid`: nothing compact, and gaps are no loss */
TEST_F(export, perfetto_proto_filtered)
{
	static const char text[] =
		"filtered\n"
		"thread 10 10 main\n"
		"0ms cpu0 switch 0 R0 10\n"
		"1ms cpu0 filter 4\n"
		"2ms cpu0 switch 10 S 0\n"
		"2.5ms cpu0 waking 10\n"
		"3ms cpu0 switch 0 R0 10\n";
	char msg[256];

	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	workdir_var(&self->w, "TD", tools_test_dir());
	CHECK_PROTO("", "--filtered --thread 10 main");
	ASSERT_EQ(0, RUN("grep -c 'compact_sched\\|lost_events' p.txt || true"));
	EXPECT_STREQ("0\n", self->w.out);
	/* without --filtered the checker wants the compact form */
	EXPECT_NE(0, RUN("%s $TD/perfetto_check.py p.txt p.csv --thread 10 main",
			 python3_bin()));
}

/* Perfetto refuses a trace with a CPU past 1023: those are left out */
TEST_F(export, perfetto_proto_cpus_past_1023)
{
	static const char text[] =
		"cpus 1100\n"
		"thread 10 10 main\n"
		"0ms cpu0 switch 0 R0 10\n"
		"0ms cpu1050 switch 0 R0 11\n"
		"1ms cpu0 switch 10 S 0\n"
		"1ms cpu1050 switch 11 S 0\n";
	char msg[256];

	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	workdir_var(&self->w, "TD", tools_test_dir());
	CHECK_PROTO("--cpu 0-1023", "--thread 10 main --cpus 1100");
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o all.pftrace"));
	EXPECT_NE(NULL, strstr(self->w.err, "2 records of CPUs 1024 and above left out"));
	EXPECT_EQ(0, RUN("cmp all.pftrace p.pftrace"));
}

/* sched_wakeup is written when no waking was recorded, else left out */
TEST_F(export, perfetto_proto_wakeup)
{
	static const char text[] =
		"noevent waking\n"
		"thread 10 10 main\n"
		"thread 11 11 other\n"
		"0ms cpu0 switch 0 R0 10\n"
		"1ms cpu0 switch 10 S 11\n"
		"2ms cpu0 wakeup 10 irq\n"
		"3ms cpu0 switch 11 S 10\n";
	char msg[256];

	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	workdir_var(&self->w, "TD", tools_test_dir());
	CHECK_PROTO("", "--no-waking --thread 10 main --thread 11 other");
	ASSERT_EQ(0, RUN("grep -c 'sched_wakeup {' p.txt"));
	EXPECT_STREQ("1\n", self->w.out);
	ASSERT_EQ(0, RUN("grep -A1 'pid: 11$' p.txt | grep -c 'common_flags: 8'"));
	EXPECT_STREQ("1\n", self->w.out);
	/* the checker sees the difference */
	EXPECT_NE(0, RUN("%s $TD/perfetto_check.py p.txt p.csv --thread 10 main --thread 11 other",
			 python3_bin()));
}

TEST_F(export, perfetto_proto_selections)
{
	workdir_var(&self->w, "TD", tools_test_dir());
	CHECK_PROTO("--range 0.003:0.007", PROTO_NAMES);
	CHECK_PROTO("--cpu 0,2", PROTO_NAMES);
	ASSERT_EQ(0, RUN("grep -c '^    cpu: [13]$' p.txt || true"));
	EXPECT_STREQ("0\n", self->w.out);
	/* a selection of threads: JSON's, said so; no file left */
	EXPECT_EQ(2, RUN("$S export perfetto run.srec -o t.pftrace --pid 4242"));
	EXPECT_NE(NULL, strstr(self->w.err, "--pid, --tid and --comm choose the tracks of --format json"));
	EXPECT_FALSE(workdir_has(&self->w, "t.pftrace"));
	EXPECT_EQ(2, RUN("$S export perfetto run.srec -o t.json --format yaml"));
	EXPECT_NE(NULL, strstr(self->w.err, "bad --format 'yaml': proto or json"));
	/* --format json wins over the name, and the other way round */
	ASSERT_EQ(0, RUN("$S export perfetto run.srec --format json -o j.pb && head -c 15 j.pb"));
	EXPECT_STREQ("{\"traceEvents\":", self->w.out);
	ASSERT_EQ(0, RUN("$S export perfetto run.srec --format proto -o p.json && $S export perfetto run.srec -o q.pftrace && cmp p.json q.pftrace"));
}

/* -o FILE.gz: the same bytes, gzipped (the Perfetto UI opens both) */
TEST_F(export, perfetto_gzip)
{
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o a.json && $S export perfetto run.srec -o a.json.gz && gzip -dc a.json.gz | cmp - a.json"));
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o a.pftrace && $S export perfetto run.srec -o a.pftrace.gz && gzip -t a.pftrace.gz && gzip -dc a.pftrace.gz | cmp - a.pftrace"));
	/* any export */
	ASSERT_EQ(0, RUN("$S export csv run.srec -o a.csv && $S export csv run.srec -o a.csv.gz && gzip -dc a.csv.gz | cmp - a.csv"));
	/* what cannot be written is said, and no file is left */
	EXPECT_EQ(3, RUN("$S export perfetto run.srec -o nodir/a.json.gz"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot write nodir/a.json.gz"));
	EXPECT_EQ(2, RUN("$S export perfetto run.srec -o b.json.gz --range 1000:"));
	EXPECT_FALSE(workdir_has(&self->w, "b.json.gz"));
}

/*
 * The encoding itself, worked out by hand from Perfetto's .proto files:
 * the first packet (the clocks) and the last (CPU 0's bundle).
 */
TEST_F(export, perfetto_proto_bytes)
{
	static const char text[] =
		"cpus 1\n"
		"0.001ms cpu0 switch 0 R0 5\n"
		"0.002ms cpu0 switch 5 S 0\n";
	/*
	 * packet { timestamp (8): 1000 s; clock_snapshot (6) { clocks (1)
	 * { clock_id 6, timestamp 1000 s }, { 3, 1000 s }, { 1 (REALTIME),
	 * tracegen's 1700000000 s }, primary_trace_clock (2): 6 } }
	 */
	static const char clocks[] =
		" 0a 2f 40 80 a0 94 a5 8d 1d 32 26 0a 09 08 06 10 80 a0 94 a5"
		" 8d 1d 0a 09 08 03 10 80 a0 94 a5 8d 1d 0a 0c 08 01 10 80 80"
		" a8 b1 e3 9f e7 cb 17 10 06";
	/*
	 * packet { ftrace_events (1) { cpu (1): 0; compact_sched (4) {
	 * intern_table (5): "swapper/0"; switch_timestamp (1): [1000 s +
	 * 2 us]; prev_state (2): [1, S]; next_pid (3): [0]; next_prio (4):
	 * [120]; next_comm_index (6): [0] }; event (2) { timestamp (1):
	 * 1000 s + 1 us; pid (2): 0; sched_switch (4) { prev_comm "swapper/0",
	 * prev_pid 0, prev_prio 120, prev_state 0, next_comm "" (5 has no
	 * name), next_pid 5, next_prio 120 } } } }
	 */
	static const char bundle[] =
		" 0a 49 0a 47 08 00 22 1f 2a 09 73 77 61 70 70 65 72 2f 30 0a"
		" 06 d0 af 94 a5 8d 1d 12 01 01 1a 01 00 22 01 78 32 01 00 12"
		" 22 08 e8 a7 94 a5 8d 1d 10 00 22 17 0a 09 73 77 61 70 70 65"
		" 72 2f 30 10 00 18 78 20 00 2a 00 30 05 38 78";
	char msg[256];
	size_t len;

	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o - | od -An -tx1 -v | tr -d '\\n'"));
	len = strlen(self->w.out);
	ASSERT_LT(sizeof(clocks) + sizeof(bundle), len);
	EXPECT_EQ(0, strncmp(self->w.out, clocks, sizeof(clocks) - 1)) {
		TH_LOG("begins %.*s", (int)sizeof(clocks), self->w.out);
	}
	EXPECT_STREQ(bundle, self->w.out + len - (sizeof(bundle) - 1));
}

/* Names are any bytes: JSON gets them escaped, and valid UTF-8. */
TEST_F(export, perfetto_escapes)
{
	static const char text[] =
		"thread 10 10 \xff\x01\"q\\\n"
		"thread 11 10 \xc3\xa9t\xc3\xa9\n"
		"0ms cpu0 switch 0 R0 10\n"
		"1ms cpu1 switch 0 R0 11\n"
		"2ms cpu0 switch 10 S 0\n";
	char msg[256];

	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg)));
	ASSERT_EQ(0, RUN("$S export perfetto run.srec -o run.json"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q >ten.csv"));
	CHECK("perfetto run.json ten.csv --thread 10 11 \xc3\xa9t\xc3\xa9");
	ASSERT_EQ(0, RUN("grep -c '\"name\":\"\\\\u00ff\\\\u0001\\\\\"q\\\\\\\\\"' run.json"));
	EXPECT_STREQ("2\n", self->w.out);
}

/* ------------------------------------------------------------------ */
/* schedlog */

TEST_F(export, schedlog_tarball)
{
	char path[512];

	ASSERT_EQ(0, RUN("$S export schedlog run.srec -o run.tar"));
	ASSERT_EQ(0, RUN("tar -tf run.tar"));
	EXPECT_STREQ("sched_log_traced_events.start\ntimestamp.npz\npid.npz\n"
		     "event.npz\ncpu.npz\narg0.npz\narg1.npz\n", self->w.out);
	snprintf(path, sizeof(path), "%s/rows.txt", self->w.dir);
	write_file(path, expected_rows);
	CHECK("schedlog run.tar rows.txt");

	/* the same through a pipe */
	ASSERT_EQ(0, RUN("cat run.srec | $S export schedlog - -o - | cat >p.tar"));
	CHECK("schedlog p.tar rows.txt");
	ASSERT_EQ(0, RUN("cmp run.tar p.tar"));
}

TEST_F(export, schedlog_selections)
{
	/* the rows of CPU 2: wakeups count on their target CPU */
	ASSERT_EQ(0, RUN("$S export schedlog run.srec -o c.tar --cpu 2"));
	CHECK("schedlog c.tar");
	EXPECT_NE(NULL, strstr(self->w.out, "rows 10\n"));

	/* a thread: its rows, the switch to it, the loss */
	ASSERT_EQ(0, RUN("$S export schedlog run.srec -o t.tar --tid 5000"));
	CHECK("schedlog t.tar");
	EXPECT_NE(NULL, strstr(self->w.out, "rows 7\n"));

	/* an empty window: empty columns */
	ASSERT_EQ(0, RUN("$S export schedlog run.srec -o e.tar --range 0.0085:"));
	CHECK("schedlog e.tar /dev/null");
	EXPECT_NE(NULL, strstr(self->w.out, "rows 0\n"));
}

/* Write @count items of @values to a new file @path, open at its start. */
static int data_file(const char *path, const int64_t *values, size_t count)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, values, count * sizeof(*values)) !=
	    (ssize_t)(count * sizeof(*values)) || lseek(fd, 0, SEEK_SET)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* npz_write, plain and in the zip64 form only members of 4 GiB need. */
TEST(npz_archive)
{
	static const int64_t values[] = { -1, 0, 1, 1ll << 40, INT64_MAX };
	char dir[] = "/tmp/schedrec-npz-test-XXXXXX", data_path[128];
	char npz_path[128], cmd[4096], py[2048];
	struct npz_array a = {
		.name = "timestamp", .descr = "<i8",
		.item_size = sizeof(int64_t), .count = ARRAY_SIZE(values),
		.mtime = 1700000000,
	};
	int data, out, force, status;
	uint64_t size;
	struct stat st;

	checker(py, sizeof(py));
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(data_path, sizeof(data_path), "%s/data", dir);
	snprintf(npz_path, sizeof(npz_path), "%s/t.npz", dir);
	for (force = 0; force < 2; force++) {
		/* fewer items than said: an error */
		data = data_file(data_path, values, ARRAY_SIZE(values) - 1);
		out = open(npz_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		ASSERT_LE(0, data);
		ASSERT_LE(0, out);
		a.force_zip64 = force;
		EXPECT_EQ(-EIO, npz_write(out, &a, data, NULL));
		close(data);
		ASSERT_EQ(0, ftruncate(out, 0));
		/* at the start of an empty file only */
		data = data_file(data_path, values, ARRAY_SIZE(values));
		ASSERT_LE(0, data);
		EXPECT_EQ(-EINVAL, npz_write(out, &a, data, NULL));
		close(data);
		ASSERT_EQ(0, lseek(out, 0, SEEK_SET));

		data = data_file(data_path, values, ARRAY_SIZE(values));
		ASSERT_LE(0, data);
		ASSERT_EQ(0, npz_write(out, &a, data, &size));
		ASSERT_EQ(0, fstat(out, &st));
		EXPECT_EQ(st.st_size, size);
		close(data);
		close(out);
		snprintf(cmd, sizeof(cmd),
			 "%s npz %s timestamp '<i8' -1,0,1,1099511627776,9223372036854775807 %s",
			 py, npz_path,
			 force ? "--zip64" : "");
		status = system(cmd);
		EXPECT_EQ(0, status) {
			TH_LOG("%s: exit %d%s", cmd, WEXITSTATUS(status),
			       WEXITSTATUS(status) == SKIP_STATUS ?
			       ": no NumPy (apt-get install python3-numpy)" :
			       "");
		}
	}
	unlink(data_path);
	unlink(npz_path);
	rmdir(dir);
}

/* ------------------------------------------------------------------ */
/* csv */

static uint64_t records_in(const char *path)
{
	struct srecreader_options opt = { 0 };
	struct srec_record rec;
	uint64_t n = 0;
	unsigned int cpu;
	char err[256];
	struct srecreader *r = srecreader_open(path, &opt, err, sizeof(err));

	if (!r)
		return 0;
	while (srecreader_next_batch(r, &rec, 1) > 0)
		;
	for (cpu = 0; cpu < srecreader_info(r)->file.nr_cpus; cpu++)
		n += srecreader_cpu(r, cpu)->records;
	srecreader_close(r);
	return n;
}

TEST_F(export, csv_every_record)
{
	uint64_t records = records_in(self->path);
	char *csv;

	ASSERT_EQ(TRACE_RECORDS, records);
	ASSERT_EQ(0, RUN("$S export csv run.srec -o run.csv"));
	CHECK("csv run.csv %llu", (unsigned long long)records);
	snprintf(self->path, sizeof(self->path), "%s/run.csv", self->w.dir);
	csv = read_file(self->path, NULL);
	ASSERT_NE(NULL, csv);
	EXPECT_STREQ(expected_csv, csv);
	free(csv);
}

TEST_F(export, csv_selections)
{
	/* records about 4244 (woken, switched in and out, renamed), LOST */
	ASSERT_EQ(0, RUN("$S export csv run.srec -o - --tid 4244"));
	EXPECT_EQ(1 + 6, count_lines(self->w.out));
	/* renamed: it is x,"y after 3.6 ms, helper before */
	ASSERT_EQ(0, RUN("$S export csv run.srec -o - --comm '^x'"));
	EXPECT_EQ(1 + 2, count_lines(self->w.out));
	/* records written on CPU 3 */
	ASSERT_EQ(0, RUN("$S export csv run.srec -o - --cpu 3"));
	EXPECT_EQ(1 + 6, count_lines(self->w.out));
	/* [5 ms, 6.5 ms) */
	ASSERT_EQ(0, RUN("$S export csv run.srec -o - --range 0.005:0.0065"));
	EXPECT_EQ(1 + 3, count_lines(self->w.out));
	/* the drainer is exported unless a selection leaves it out */
	ASSERT_EQ(0, RUN("$S export csv run.srec -o - --pid 900"));
	EXPECT_EQ(1 + 3, count_lines(self->w.out));
}

/* ------------------------------------------------------------------ */
/* the front */

TEST_F(export, help_examples_run)
{
	char *help, *line, *save = NULL, msg[512];
	static char text[sizeof(trace_text) + 16];
	int examples = 0;

	/* the examples' windows (up to 20 s) must be in the recording */
	snprintf(text, sizeof(text), "%.*send 30s\n",
		 (int)(strstr(trace_text, "end 10ms\n") - trace_text),
		 trace_text);
	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg))) {
		TH_LOG("tracegen: %s", msg);
	}
	ASSERT_EQ(0, RUN("$S export --help"));
	help = strdup(self->w.out);
	ASSERT_NE(NULL, help);
	for (line = strtok_r(help, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  schedrec export ", 18))
			continue;
		examples++;
		/* run.srec is there; 4242 and CPUs 2, 3 are in it */
		EXPECT_EQ(0, RUN("$S%s >out.any", line + 10)) {
			TH_LOG("%s: %s", line, self->w.err);
		}
		EXPECT_STREQ("", self->w.err);
	}
	free(help);
	EXPECT_LE(6, examples);
	EXPECT_TRUE(workdir_has(&self->w, "run.perfetto-trace"));
	EXPECT_TRUE(workdir_has(&self->w, "run.json.gz"));
	EXPECT_TRUE(workdir_has(&self->w, "run.tar"));
	EXPECT_TRUE(workdir_has(&self->w, "run.csv"));
	ASSERT_EQ(0, RUN("$S export csv --help && $S export schedlog --help && $S export perfetto --help"));
	EXPECT_NE(NULL, strstr(self->w.out, "  -o, --output FILE"));
}

TEST_F(export, bad_input)
{
	struct stat st;
	int fd;

	/* usage errors: 2, a message, no output */
	EXPECT_EQ(2, RUN("$S export nosuch run.srec -o x"));
	EXPECT_NE(NULL, strstr(self->w.err, "unknown format 'nosuch'"));
	EXPECT_NE(NULL, strstr(self->w.err, "perfetto schedlog csv"));
	EXPECT_EQ(2, RUN("$S export perfetto run.srec"));
	EXPECT_NE(NULL, strstr(self->w.err, "-o FILE"));
	EXPECT_EQ(2, RUN("$S export csv run.srec -o x --cpu 4"));
	EXPECT_NE(NULL, strstr(self->w.err, "--cpu 4"));
	EXPECT_EQ(2, RUN("$S export csv run.srec -o x --range 2:1"));
	/* a window after the end is found after the pass: no file either */
	EXPECT_EQ(2, RUN("$S export perfetto run.srec -o x --range 1000:"));
	EXPECT_NE(NULL, strstr(self->w.err, "--range starts at 1000.000000 s, but the recording ends at"));
	/* nor anything on standard output: not the CSV's header */
	EXPECT_EQ(2, RUN("$S export csv run.srec -o - --range 1000: >o.csv"));
	EXPECT_EQ(0, RUN("test ! -s o.csv"));
	EXPECT_EQ(2, RUN("$S export csv run.srec -o x --bogus"));
	EXPECT_NE(NULL, strstr(self->w.err, "--bogus"));
	EXPECT_EQ(2, RUN("$S export csv -o x"));
	EXPECT_EQ(2, RUN("$S export"));
	/* the list says which format needs no -o */
	EXPECT_NE(NULL, strstr(self->w.err, "TRACE... [-o FILE] [OPTIONS]"));
	EXPECT_NE(NULL, strstr(self->w.err, "Every format needs -o FILE but openmetrics, which writes to standard output"));
	EXPECT_FALSE(workdir_has(&self->w, "x"));

	/* the output cannot be written: 3, the reason, no file */
	EXPECT_EQ(3, RUN("$S export perfetto run.srec -o nodir/x.json"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot write nodir/x.json: No such file or directory"));
	EXPECT_EQ(3, RUN("mkdir adir && $S export schedlog run.srec -o adir"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot write adir"));
	if (!stat("/dev/full", &st) && S_ISCHR(st.st_mode)) {
		EXPECT_EQ(3, RUN("$S export csv run.srec -o /dev/full"));
		EXPECT_NE(NULL, strstr(self->w.err, "No space left on device"));
		/* and it is not removed: it is no file of ours */
		EXPECT_EQ(0, stat("/dev/full", &st));
		EXPECT_TRUE(S_ISCHR(st.st_mode));
	}

	EXPECT_EQ(3, RUN("TMPDIR=nowhere $S export schedlog run.srec -o t.tar"));
	EXPECT_NE(NULL, strstr(self->w.err, "temporary file in nowhere"));
	EXPECT_EQ(NULL, strstr(self->w.err, "cannot write t.tar"));
	EXPECT_FALSE(workdir_has(&self->w, "t.tar"));

	/* the trace cannot be read: 3, the reason, no output */
	EXPECT_EQ(3, RUN("echo not a trace >bad.srec && $S export csv bad.srec -o bad.csv"));
	EXPECT_NE(NULL, strstr(self->w.err, "bad.srec: not a schedrec trace"));
	EXPECT_FALSE(workdir_has(&self->w, "bad.csv"));
	EXPECT_EQ(3, RUN("$S export perfetto missing.srec -o m.json"));
	EXPECT_NE(NULL, strstr(self->w.err, "missing.srec"));
	EXPECT_FALSE(workdir_has(&self->w, "m.json"));

	/* an empty file is not a trace either */
	fd = open(self->path, O_WRONLY | O_TRUNC);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_EQ(3, RUN("$S export csv run.srec -o - "));
}

/* Flip a byte in the data of chunk @which (0: the first) of @path. */
static bool damage_chunk(const char *path, int which)
{
	struct srec_frame frame;
	uint64_t off = 0;
	unsigned char byte;
	bool done = false;
	int fd = open(path, O_RDWR);

	while (fd >= 0 && pread(fd, &frame, sizeof(frame), off) ==
	       sizeof(frame) && frame.magic == SREC_MAGIC) {
		if (frame.type == SREC_SEC_CHUNK && !which--) {
			off += sizeof(frame) + frame.head_len +
			       frame.data_len / 2;
			done = pread(fd, &byte, 1, off) == 1;
			byte ^= 0x5a;
			done = done && pwrite(fd, &byte, 1, off) == 1;
			break;
		}
		off += sizeof(frame) + frame.head_len + frame.data_len;
		off = (off + 7) & ~7ull;
	}
	if (fd >= 0)
		close(fd);
	return done;
}

TEST_F(export, corrupt_chunk)
{
	ASSERT_TRUE(damage_chunk(self->path, 3));
	/* skipped with a warning: what is left is exported, exit status 1 */
	EXPECT_EQ(1, RUN("$S export csv run.srec -o run.csv"));
	EXPECT_NE(NULL, strstr(self->w.err, "warning"));
	EXPECT_TRUE(workdir_has(&self->w, "run.csv"));
	ASSERT_EQ(0, RUN("grep -c . run.csv"));
	EXPECT_GT(1 + TRACE_RECORDS, atoi(self->w.out));
	EXPECT_LT(1, atoi(self->w.out));
	EXPECT_EQ(1, RUN("$S export csv run.srec -o q.csv -q"));
	EXPECT_STREQ("", self->w.err);
	/* --strict: it stops there, says why, and exports what came before */
	EXPECT_EQ(1, RUN("$S export perfetto run.srec -o s.json --strict"));
	EXPECT_NE(NULL, strstr(self->w.err, "exporting what was read before"));
	EXPECT_TRUE(workdir_has(&self->w, "s.json"));
	ASSERT_EQ(0, RUN("$S report tenancy run.srec --csv -q --strict >t.csv; test -s t.csv"));
	CHECK("perfetto s.json t.csv --exclude-pid 900");
}

/*
 * A trace cut short (inside its trailer, or before it): report and export
 * give what they read, with exit status 1.
 */
TEST_F(export, cut_short_exits_1)
{
	char text[sizeof(trace_text) + 16], msg[512];

	ASSERT_EQ(0, RUN("head -c $(($(stat -c %%s run.srec) - 100)) run.srec >cut.srec"));
	EXPECT_EQ(1, RUN("$S report offcpu cut.srec -q --csv >o.csv"));
	EXPECT_EQ(0, RUN("grep -q '^4242,4242,server,' o.csv"));
	EXPECT_EQ(1, RUN("$S export csv cut.srec -q -o c.csv"));
	EXPECT_TRUE(workdir_has(&self->w, "c.csv"));

	snprintf(text, sizeof(text), "%snotrailer\n", trace_text);
	snprintf(self->path, sizeof(self->path), "%s/open.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg)))
		TH_LOG("tracegen: %s", msg);
	EXPECT_EQ(1, RUN("$S report states open.srec >/dev/null"));
	EXPECT_NE(NULL, strstr(self->w.err, "no trailer"));
	EXPECT_EQ(1, RUN("$S export perfetto open.srec -q -o p.json"));

	/* its header only: no records, and no usage error without --range */
	snprintf(self->path, sizeof(self->path), "%s/empty.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file("cpus 2\nthread 100 100 app\nnotrailer\n",
					 self->path, msg, sizeof(msg)))
		TH_LOG("tracegen: %s", msg);
	EXPECT_EQ(1, RUN("$S report offcpu empty.srec"));
	EXPECT_EQ(NULL, strstr(self->w.err, "--range")) TH_LOG("%s", self->w.err);
	EXPECT_EQ(2, RUN("$S report offcpu empty.srec --range 0.001:"));
	EXPECT_NE(NULL, strstr(self->w.err, "--range")) TH_LOG("%s", self->w.err);
}

/*
 * Two recordings in one file (cat a.srec b.srec): the second, after the
 * first's trailer, is not read, and that is said, with exit status 1.
 */
TEST_F(export, data_after_trailer_exits_1)
{
	ASSERT_EQ(0, RUN("cat run.srec run.srec >two.srec"));
	EXPECT_EQ(1, RUN("$S report offcpu two.srec --csv >o.csv"));
	EXPECT_NE(NULL, strstr(self->w.err, "data after the trailer"))
		TH_LOG("%s", self->w.err);
	EXPECT_EQ(0, RUN("$S report offcpu run.srec --csv | cmp - o.csv"));
	EXPECT_EQ(1, RUN("$S export csv two.srec -q -o c.csv"));
	EXPECT_TRUE(workdir_has(&self->w, "c.csv"));
	EXPECT_EQ(1, RUN("$S report offcpu two.srec --strict -q >/dev/null"));
}

/*
 * With --range, the reading may stop before an error past the window, but
 * one it met (the next TRACE, standard input here, is empty) was said, and
 * the status says it too; the message names that TRACE.
 */
TEST_F(export, error_met_past_the_window_exits_1)
{
	static const char small[] =
		"cpus 2\n"
		"thread 100 100 app\n"
		"0ms cpu0 switch 0 R0 100\n"
		"1ms cpu1 switch 0 R0 200\n"
		"2ms cpu0 switch 100 S 0\n"
		"4ms cpu1 switch 200 S 0\n";
	char msg[512];

	snprintf(self->path, sizeof(self->path), "%s/small.srec", self->w.dir);
	ASSERT_EQ(0, tracegen_write_file(small, self->path, msg, sizeof(msg)))
		TH_LOG("tracegen: %s", msg);
	EXPECT_EQ(1, RUN("$S report offcpu small.srec - --range :0.001 >/dev/null"));
	EXPECT_NE(NULL, strstr(self->w.err, "small.srec: -: not a schedrec trace (empty input)"))
		TH_LOG("%s", self->w.err);
	EXPECT_EQ(1, RUN("$S export csv small.srec - --range :0.001 -o /dev/null"));
}

/* A selection that matches no thread: a warning, not a silent empty output. */
TEST_F(export, unmatched_selection_warns)
{
	EXPECT_EQ(0, RUN("$S report offcpu run.srec --pid 4241 >/dev/null"));
	EXPECT_NE(NULL, strstr(self->w.err, "no thread in the window matches"));
	EXPECT_EQ(0, RUN("$S export csv run.srec -o u.csv --comm '^nosuch$'"));
	EXPECT_NE(NULL, strstr(self->w.err, "no thread in the window matches"));
	EXPECT_EQ(0, RUN("$S report offcpu run.srec --pid 4242 >/dev/null"));
	EXPECT_EQ(NULL, strstr(self->w.err, "no thread")) TH_LOG("%s", self->w.err);
	EXPECT_EQ(0, RUN("$S report offcpu run.srec --pid 4241 -q >/dev/null"));
	EXPECT_STREQ("", self->w.err);
}

/*
 * Outputs: one named like the trace is refused before anything is written
 * (the trace stays whole); one that cannot be opened is said before any
 * table; a full disk is said as such, not as an I/O error.
 */
TEST_F(export, outputs_checked_first)
{
	EXPECT_EQ(0, RUN("cp run.srec keep.srec && ln -s run.srec link.srec"));
	EXPECT_EQ(2, RUN("$S export perfetto run.srec -o run.srec"));
	EXPECT_NE(NULL, strstr(self->w.err, "-o run.srec is the trace being read"))
		TH_LOG("%s", self->w.err);
	EXPECT_EQ(2, RUN("$S export csv run.srec -o link.srec"));
	EXPECT_EQ(2, RUN("$S report offcpu run.srec --svg ./run.srec >o.txt"));
	EXPECT_NE(NULL, strstr(self->w.err, "--svg ./run.srec is the trace being read"))
		TH_LOG("%s", self->w.err);
	EXPECT_EQ(0, RUN("cmp run.srec keep.srec"));

	EXPECT_EQ(3, RUN("$S report offcpu run.srec --svg no/such/dir.svg >o.txt"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot write the chart no/such/dir.svg: No such file"))
		TH_LOG("%s", self->w.err);
	EXPECT_EQ(0, RUN("test ! -s o.txt"));
	EXPECT_EQ(3, RUN("$S report offcpu run.srec --svg /dev/full >o.txt"));
	EXPECT_NE(NULL, strstr(self->w.err, "No space left on device"));
	EXPECT_EQ(NULL, strstr(self->w.err, "cannot write the report"))
		TH_LOG("said twice: %s", self->w.err);
	EXPECT_EQ(3, RUN("$S export perfetto run.srec -o /dev/full"));
	EXPECT_NE(NULL, strstr(self->w.err, "No space left on device"))
		TH_LOG("%s", self->w.err);
	/* a report refused after the file was opened leaves no empty chart */
	EXPECT_EQ(2, RUN("$S report offcpu run.srec --svg c.svg --range 99:"));
	EXPECT_FALSE(workdir_has(&self->w, "c.svg"));
	/* but what is no file of ours stays: a FIFO (or /dev/null) */
	EXPECT_EQ(2, RUN("mkfifo p && { cat p >/dev/null & "
			 "$S report offcpu run.srec --svg p --range 99:; "
			 "s=$?; wait; exit $s; }"));
	EXPECT_EQ(0, RUN("test -p p"));
	/* nor a chart cut short: files of 1 KiB at most (EFBIG) */
	EXPECT_EQ(3, RUN("trap '' XFSZ; ulimit -f 2; "
			 "$S report offcpu run.srec --svg cut.svg >/dev/null"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot write the chart cut.svg: File too large"))
		TH_LOG("%s", self->w.err);
	EXPECT_FALSE(workdir_has(&self->w, "cut.svg"));
}

/*
 * A table longer than stdio's buffer fails while it is written, not at the
 * flush after it: the reason is said all the same, in CSV and in text.
 */
TEST_F(export, full_disk_said_of_long_tables)
{
	char text[64 * 1024], msg[256];
	size_t len = 0;
	int tid, fields;

	for (tid = 100; tid <= 400; tid++)
		len += snprintf(text + len, sizeof(text) - len,
				"thread %d %d worker-%d\n", tid, tid, tid);
	for (tid = 100; tid < 400; tid++)
		len += snprintf(text + len, sizeof(text) - len,
				"%dus cpu0 switch %d S %d\n", 10 * tid, tid,
				tid + 1);
	ASSERT_GT(sizeof(text) - 1, len);
	ASSERT_EQ(0, tracegen_write_file(text, self->path, msg, sizeof(msg)))
		TH_LOG("tracegen: %s", msg);
	/* a row for each of threads 100 to 400: some 12 KB, past BUFSIZ */
	ASSERT_EQ(0, RUN("$S report offcpu run.srec --csv | wc -l -c"));
	fields = sscanf(self->w.out, "%d %zu", &tid, &len);
	ASSERT_EQ(2, fields);
	EXPECT_EQ(302, tid);
	EXPECT_LT(BUFSIZ, len);
	if (access("/dev/full", W_OK))
		return;
	EXPECT_EQ(3, RUN("$S report offcpu run.srec --csv >/dev/full"));
	EXPECT_NE(NULL, strstr(self->w.err, "cannot write the report: No space left on device"))
		TH_LOG("%s", self->w.err);
	EXPECT_EQ(3, RUN("$S report tenancy run.srec --top 0 >/dev/full"));
	EXPECT_NE(NULL, strstr(self->w.err, "No space left on device"))
		TH_LOG("%s", self->w.err);
}

TEST_HARNESS_MAIN
