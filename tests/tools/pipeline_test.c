// SPDX-License-Identifier: GPL-2.0
/*
 * A report reads its trace in a thread of its own when it has a second
 * CPU (tools/lib/tracepass.c).  Each test runs the same commands with
 * SCHEDREC_THREADS=1 (one thread) and SCHEDREC_THREADS=2 (the reader in
 * its own thread) and asserts that both exit with the same status and
 * print the same stdout and stderr, byte for byte: on a trace of many
 * more records than the pipeline holds at once, with a --range that ends
 * early, from a pipe, in compressed chunks, with stacks, cut short, and
 * with a damaged chunk (after the end of a --range too: the reader must
 * stop where the window ends, as it does in one thread).  A test that reads the whole
 * trace also asserts that the report saw all of it.  While it lasts, the
 * two threads run on CPUs of their own, which together are the caller's,
 * and the caller has them all back after; allowed one CPU, both share it.
 * Records of a mapped file's plain chunks go across in place (lasting),
 * the others copied: they stay as they were until the reader is closed,
 * a file of both kinds of chunks gives the same reports, and the pages
 * of a long file go back while the slots hold records in place.
 *
 * make check runs build/user-tests/schedrec, built with AddressSanitizer
 * and UndefinedBehaviorSanitizer (SCHEDREC_ASAN_BIN); without it, the
 * schedrec of SCHEDREC_BIN.
 */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "run_util.h"
#include "schedmodel.h"
#include "srecreader.h"
#include "tracepass.h"

#define CPUS		3
#define THREADS_PER_CPU	12
#define ROUNDS		2500	/* 4 records per round and CPU: 30000 */

/* The commands each test runs both ways, after "$S " and before TRACE. */
static const char *const reports[] = {
	"report offcpu",
	"report offcpu --by process",
	"report offcpu --interval 20ms",
	"report offcpu --cpu 1 --csv",
	"report tenancy",
	"report states --top 5",
	"report latency --csv --wakers",
	"report heatmap --csv",
	"export csv -o -",
};

/* A stack line of @depth addresses for @tid at @us on @cpu. */
static void put_stack(struct text *t, unsigned long us, unsigned int cpu,
		      unsigned int tid, unsigned int depth)
{
	char line[32 + 20 * SCHEDREC_STACK_MAX_DEPTH];
	unsigned int i;
	int len;

	len = snprintf(line, sizeof(line), "%luus cpu%u stack %u ", us, cpu,
		       tid);
	for (i = 0; i < depth; i++)
		len += snprintf(line + len, sizeof(line) - len, "%s%x",
				i ? "," : "", 0x1000 + 0x10 * ((tid + i) % 7));
	text_add(t, line, len);
	text_add(t, "\n", 1);
}

/*
 * A recording in tracegen's language: on each CPU its own threads take
 * turns, each woken before it runs and leaving in R, S or D; every 97th
 * round a thread of CPU 0 moves to CPU 1 and back, and CPU 2 loses
 * events now and then.  With @stacks, each switch-out has its kernel
 * stack, 1 to SCHEDREC_STACK_MAX_DEPTH addresses deep: records of many
 * sizes.  @rounds rounds of 4 records per CPU.
 */
static char *trace_description(bool stacks, unsigned int rounds)
{
	struct text t = { 0 };
	char line[160];
	unsigned int round, cpu, prev[CPUS] = { 0 };
	static const char *const states[] = { "R", "S", "D", "S" };

	text_add(&t, "cpus 3\n", 7);
	for (cpu = 0; cpu < CPUS; cpu++) {
		unsigned int i;

		for (i = 0; i < THREADS_PER_CPU; i++) {
			unsigned int tid = 100 + cpu * 100 + i;

			snprintf(line, sizeof(line), "thread %u %u w%u-%u\n",
				 tid, 100 + cpu * 100, cpu, i);
			text_add(&t, line, strlen(line));
		}
	}
	for (round = 0; round < rounds; round++) {
		for (cpu = 0; cpu < CPUS; cpu++) {
			unsigned int base = 100 + cpu * 100;
			unsigned int next = base +
					    (round * 7 + cpu) % THREADS_PER_CPU;
			unsigned long us = round * 200 + cpu * 13;

			if (next == prev[cpu])
				next = base + (next - base + 1) % THREADS_PER_CPU;
			snprintf(line, sizeof(line),
				 "%luus cpu%u waking %u\n%luus cpu%u wakeup %u\n",
				 us, cpu, next, us + 1, cpu, next);
			text_add(&t, line, strlen(line));
			if (cpu == 2 && round % 301 == 150)
				snprintf(line, sizeof(line),
					 "%luus cpu2 lost 3 %luus %luus\n",
					 us + 2, us + 2, us + 2);
			else
				snprintf(line, sizeof(line),
					 "%luus cpu%u migrate %u %u %u\n",
					 us + 2, cpu, next, cpu, cpu);
			text_add(&t, line, strlen(line));
			if (stacks && prev[cpu])
				put_stack(&t, us + 5, cpu, prev[cpu],
					  1 + (round * 7 + cpu * 5) %
					  SCHEDREC_STACK_MAX_DEPTH);
			snprintf(line, sizeof(line),
				 "%luus cpu%u switch %u %s %u\n", us + 5, cpu,
				 prev[cpu], prev[cpu] ?
				 states[round % 4] : "R", next);
			text_add(&t, line, strlen(line));
			prev[cpu] = next;
		}
	}
	return t.data;
}

/*
 * Write trace_description(@stacks, @rounds) to @name in @dir, after the
 * lines @head (how the chunks are written); its path in @path.  0 or -1.
 */
static int write_description(const char *dir, const char *name,
			     const char *head, bool stacks,
			     unsigned int rounds, char *path, size_t size)
{
	char *desc = trace_description(stacks, rounds), *text = NULL;
	int ret = -1;

	snprintf(path, size, "%s/%s", dir, name);
	if (desc && asprintf(&text, "%s%s", head, desc) >= 0) {
		ret = write_trace_file(path, text);
		free(text);
	}
	free(desc);
	return ret;
}

/* What a command did in one thread. */
struct one_thread {
	int status;
	char *out, *err;
};

FIXTURE(pipeline) {
	struct workdir w;
	struct one_thread one;
};

FIXTURE_SETUP(pipeline)
{
	const char *asan = getenv("SCHEDREC_ASAN_BIN");
	char path[512];

	ASSERT_EQ(0, workdir_make(&self->w, "schedrec-pipeline-test"));
	if (asan && *asan)
		workdir_var(&self->w, "S", asan);
	ASSERT_EQ(0, write_description(self->w.dir, "trace.srec", "", false,
				       ROUNDS, path, sizeof(path)));
}

FIXTURE_TEARDOWN(pipeline)
{
	free(self->one.out);
	free(self->one.err);
	workdir_remove(&self->w);
}

/*
 * Run @cmd in @w in one thread (into @one), then in two, and assert the
 * same status, stdout and stderr; the status, which both share.
 */
static int run_both(struct __test_metadata *_metadata, struct workdir *w,
		    struct one_thread *one, const char *cmd)
{
	int two_status;

	one->status = workdir_run(w, "SCHEDREC_THREADS=1 %s", cmd);
	free(one->out);
	free(one->err);
	one->out = strdup(w->out ? w->out : "");
	one->err = strdup(w->err ? w->err : "");
	two_status = workdir_run(w, "SCHEDREC_THREADS=2 %s", cmd);
	TH_LOG("%s", cmd);
	EXPECT_EQ(one->status, two_status);
	EXPECT_STREQ(one->out, w->out ? w->out : "");
	EXPECT_STREQ(one->err, w->err ? w->err : "");
	EXPECT_EQ(NULL, strstr(one->err, "Sanitizer"));
	EXPECT_EQ(NULL, strstr(one->err, "runtime error"));
	return two_status;
}

/* Each of reports[] on @args (a file and options) with run_both(). */
static void run_reports(struct __test_metadata *_metadata, struct workdir *w,
			struct one_thread *one, const char *args)
{
	char cmd[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reports); i++) {
		snprintf(cmd, sizeof(cmd), "$S %s %s", reports[i], args);
		EXPECT_EQ(0, run_both(_metadata, w, one, cmd));
	}
}

TEST_F(pipeline, whole_trace)
{
	char cmd[256];

	run_reports(_metadata, &self->w, &self->one, "trace.srec");
	/*
	 * every off-CPU interval is there: one ends at each of the CPUS x
	 * ROUNDS switches (a thread's first is censored), and one is still
	 * going at the end for each thread but the CPUS running then
	 */
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "$S report offcpu --csv trace.srec | awk -F, 'NR > 1 { n += $4 + $12 } END { print n }'"));
	snprintf(cmd, sizeof(cmd), "%u\n",
		 CPUS * ROUNDS + CPUS * THREADS_PER_CPU - CPUS);
	EXPECT_STREQ(cmd, self->one.out);
}

TEST_F(pipeline, range_ends_early)
{
	run_reports(_metadata, &self->w, &self->one,
		    "trace.srec --range 0.05:0.1");
}

TEST_F(pipeline, from_a_pipe)
{
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "cat trace.srec | $S report offcpu -"));
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "cat trace.srec | $S report states - --range 0.2:0.3"));
}

/*
 * The same records in larger chunks, most of them compressed: the reader
 * inflates them into payloads it reuses once their records are handed
 * out, while the model has yet to read the copies.  Both ways, the
 * reports say what they say of the raw file.
 */
TEST_F(pipeline, zlib_chunks)
{
	char path[512];

	ASSERT_EQ(0, write_description(self->w.dir, "packed.srec",
				       "zlib 1\npass 32\n", false, ROUNDS,
				       path, sizeof(path)));
	run_reports(_metadata, &self->w, &self->one, "packed.srec");
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "$S report offcpu --csv trace.srec"));
	EXPECT_EQ(0, workdir_run(&self->w,
				 "SCHEDREC_THREADS=2 $S report offcpu --csv packed.srec"));
	EXPECT_STREQ(self->one.out, self->w.out ? self->w.out : "");
}

/*
 * Every switch-out with its stack: records of 48 to 288 bytes that the
 * pipeline copies in runs, its buffers growing under them.  Both ways,
 * the reports say the same, the stacks' too.
 */
TEST_F(pipeline, stacks)
{
	static const char *const stack_reports[] = {
		"report offcpu", "report folded", "report folded --csv",
		"report states --top 5", "export csv -o -",
	};
	char path[512], cmd[256];
	size_t i;

	ASSERT_EQ(0, write_description(self->w.dir, "stacks.srec", "", true,
				       ROUNDS, path, sizeof(path)));
	for (i = 0; i < ARRAY_SIZE(stack_reports); i++) {
		snprintf(cmd, sizeof(cmd), "$S %s stacks.srec",
			 stack_reports[i]);
		EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one, cmd));
	}
	/* the stacks are there: one folded line for each depth */
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "$S report folded stacks.srec | wc -l"));
	EXPECT_LE(SCHEDREC_STACK_MAX_DEPTH, atoi(self->one.out));
}

TEST_F(pipeline, cut_short)
{
	struct stat st;
	char path[512];

	snprintf(path, sizeof(path), "%s/trace.srec", self->w.dir);
	ASSERT_EQ(0, stat(path, &st));
	ASSERT_EQ(0, truncate(path, st.st_size * 3 / 5));
	/* no trailer: the records are reported, and the exit status is 1 */
	EXPECT_EQ(1, run_both(_metadata, &self->w, &self->one,
			      "$S report offcpu trace.srec"));
	EXPECT_NE(NULL, strstr(self->one.err, "trailer"));
	EXPECT_EQ(1, run_both(_metadata, &self->w, &self->one,
			      "$S report latency trace.srec --range 0.1:5"));
	/* a window that ends before the cut is read as far in both */
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "$S report offcpu trace.srec --range 0:0.2"));
}

TEST_F(pipeline, damaged_chunk)
{
	/* bytes a tenth into the file, about 50 ms in: a checksum fails */
	EXPECT_EQ(0, workdir_run(&self->w,
				 "size=$(stat -c %%s trace.srec) && printf 'XXXXXXXX' | dd of=trace.srec bs=1 seek=$((size / 10)) conv=notrunc 2>/dev/null"));
	run_both(_metadata, &self->w, &self->one,
		 "$S report offcpu trace.srec");
	EXPECT_NE(0, self->one.status);
	EXPECT_NE(NULL, strstr(self->one.err, "corrupt section"));
	run_both(_metadata, &self->w, &self->one,
		 "$S report tenancy trace.srec --strict");
	EXPECT_NE(0, self->one.status);
	/*
	 * a window that ends before it: the reader stops where the window
	 * ends, and finds nothing to say (a reader that went on would)
	 */
	EXPECT_EQ(0, run_both(_metadata, &self->w, &self->one,
			      "$S report offcpu trace.srec --range 0:0.02"));
	EXPECT_STREQ("", self->one.err);
}

/* A report slow at first: the reader's thread gets far ahead of it. */
static void slow_start(void *arg, const struct offcpu_iv *iv)
{
	unsigned int *seen = arg;

	(void)iv;
	if ((*seen)++ < 40)
		usleep(1000);
}

/*
 * trace_pass() over @path with SCHEDREC_THREADS=@threads, a window of its
 * first @window_ns and the handler @h, as a report's pass: the reader,
 * still open, for the caller to look at and close (NULL if it could not
 * be opened); what the pass returned in *@ret (-1 if it did not run).
 */
static struct srecreader *pass_over(const char *path, const char *threads,
				    uint64_t window_ns,
				    const struct sched_handler *h, int *ret)
{
	struct schedmodel_window window = { .end = window_ns };
	struct srecreader_options opt = { 0 };
	struct schedmodel *m;
	struct srecreader *r;
	char err[256];

	*ret = -1;
	setenv("SCHEDREC_THREADS", threads, 1);
	r = srecreader_open(path, &opt, err, sizeof(err));
	m = r ? schedmodel_new(srecreader_info(r), &window) : NULL;
	if (m && !schedmodel_add_handler(m, h))
		*ret = trace_pass(r, m, NULL);
	schedmodel_free(m);
	unsetenv("SCHEDREC_THREADS");
	return r;
}

/*
 * How far trace_pass() read @path with SCHEDREC_THREADS=@threads and a
 * window of its first @window_ns: the reader's offset, and its sections
 * in *@sections.
 */
static uint64_t offset_after_pass(const char *path, const char *threads,
				  uint64_t window_ns, uint64_t *sections)
{
	unsigned int seen = 0;
	struct sched_handler h = { .offcpu = slow_start, .arg = &seen };
	struct srecreader *r;
	uint64_t offset = 0;
	int ret;

	r = pass_over(path, threads, window_ns, &h, &ret);
	if (r && !ret) {
		offset = srecreader_status(r)->offset;
		*sections = srecreader_status(r)->sections;
	}
	srecreader_close(r);
	return offset;
}

/*
 * With the report far behind it, the reader's thread still stops after
 * the records that reach the end of the window: it has read as much of
 * the file as one thread reads, a small part of it.
 */
TEST_F(pipeline, reader_stops_at_window_end)
{
	uint64_t one, two, one_sections = 0, two_sections = 0;
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/trace.srec", self->w.dir);
	ASSERT_EQ(0, stat(path, &st));
	one = offset_after_pass(path, "1", 20000000, &one_sections);
	two = offset_after_pass(path, "2", 20000000, &two_sections);
	ASSERT_NE(0, one);
	EXPECT_EQ(one, two);
	EXPECT_EQ(one_sections, two_sections);
	EXPECT_LT(one, (uint64_t)st.st_size / 10);
}

/* Bytes of a lasting record kept to compare, at most */
#define KEPT_BYTES	64

static size_t kept_len(const struct schedrec_header *hdr)
{
	return hdr->size < KEPT_BYTES ? hdr->size : KEPT_BYTES;
}

/* Records of a file: how many lasting, how many not. */
struct lasting_count {
	unsigned int lasting, copied;
	bool kept;	/* the lasting ones read the same at the end */
};

/*
 * Read @path (standard input if "-") to the end, keeping a copy of each
 * lasting record; before closing, compare each with what its pointer
 * reads then.
 */
static int count_lasting(const char *path, struct lasting_count *n)
{
	struct srecreader_options opt = { 0 };
	const struct schedrec_header **at = NULL;
	unsigned char *copies = NULL;
	struct srec_record rec;
	struct srecreader *r;
	size_t used = 0, room = 0, i, off = 0;
	char err[256];
	int ret;

	memset(n, 0, sizeof(*n));
	r = srecreader_open(path, &opt, err, sizeof(err));
	if (!r)
		return -1;
	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0) {
		if (!rec.lasting) {
			n->copied++;
			continue;
		}
		if (used == room) {
			room = room ? 2 * room : 1024;
			at = realloc(at, room * sizeof(*at));
			copies = realloc(copies, room * KEPT_BYTES);
			if (!at || !copies)
				abort();
		}
		at[used] = rec.hdr;
		memcpy(copies + used * KEPT_BYTES, rec.hdr, kept_len(rec.hdr));
		used++;
		n->lasting++;
	}
	n->kept = true;
	for (i = 0; i < used; i++, off += KEPT_BYTES)
		if (memcmp(copies + off, at[i], kept_len(at[i])))
			n->kept = false;
	srecreader_close(r);
	free(at);
	free(copies);
	return ret;
}

/*
 * The records a report's thread uses in place, not copied: only those of
 * a mapped file's plain chunks, and they stay as they were until the
 * reader is closed.
 */
TEST_F(pipeline, lasting_records)
{
	struct lasting_count n;
	char path[512], cmd[600];
	int saved = dup(0), fd;

	snprintf(path, sizeof(path), "%s/trace.srec", self->w.dir);
	ASSERT_EQ(0, count_lasting(path, &n));
	EXPECT_EQ(4 * CPUS * ROUNDS, n.lasting);
	EXPECT_EQ(0, n.copied);
	EXPECT_TRUE(n.kept);
	/* from a pipe, nothing is mapped */
	snprintf(cmd, sizeof(cmd), "cat %s", path);
	ASSERT_LE(0, saved);
	fd = fileno(popen(cmd, "r"));
	ASSERT_LE(0, fd);
	ASSERT_LE(0, dup2(fd, 0));
	EXPECT_EQ(0, count_lasting("-", &n));
	dup2(saved, 0);
	close(saved);
	EXPECT_EQ(0, n.lasting);
	EXPECT_EQ(4 * CPUS * ROUNDS, n.copied);
}

/*
 * Compressed chunks and plain ones in one file (a chunk too short to
 * compress stays plain): the slots of the pipeline hold records copied
 * and records in place, side by side, and the reports are the same as
 * in one thread.
 */
TEST_F(pipeline, plain_and_compressed_chunks)
{
	struct lasting_count n;
	char path[512];

	ASSERT_EQ(0, write_description(self->w.dir, "mixed.srec",
				       "zlib 1\npass 5\n", true, ROUNDS,
				       path, sizeof(path)));
	ASSERT_EQ(0, count_lasting(path, &n));
	EXPECT_LT(1000, n.lasting);
	EXPECT_LT(1000, n.copied);
	EXPECT_TRUE(n.kept);
	run_reports(_metadata, &self->w, &self->one, "mixed.srec");
}

/* The resident kB of the mapping of a file whose path ends with @name. */
static long mapped_kb(const char *name)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	size_t len = strlen(name), n;
	char line[4200];
	bool in = false;
	long kb = -1, v;

	while (f && fgets(line, sizeof(line), f)) {
		n = strcspn(line, "\n");
		line[n] = 0;
		if (strchr(line, '-') && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' ')) {
			/* a mapping's first line: address range, ..., path */
			in = n >= len && !strcmp(line + n - len, name);
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &v) == 1)
			kb = (kb < 0 ? 0 : kb) + v;
	}
	if (f)
		fclose(f);
	return kb;
}

/*
 * Off-CPU intervals heard of and let go, as in report offcpu's pass, but
 * slowly: the reader's thread is ahead as far as the slots let it be.
 */
static void slow_let_go(void *arg, const struct offcpu_iv *iv)
{
	unsigned int *seen = arg;

	(void)iv;
	if (!(++*seen % 50))
		usleep(300);
}

/*
 * A report that reads lasting records keeps the pages it still reads,
 * and no more: past them, the mapped file's pages go back as without a
 * second thread, however long the file.
 */
TEST_F(pipeline, lasting_pages_go_back)
{
	unsigned int seen = 0;
	struct sched_handler h = { .offcpu = slow_let_go, .arg = &seen };
	struct srecreader *r;
	char path[512];
	struct stat st;
	long kb = -1;
	int ret;

	ASSERT_EQ(0, write_description(self->w.dir, "long.srec", "", false,
				       20 * ROUNDS, path, sizeof(path)));
	ASSERT_EQ(0, stat(path, &st));
	ASSERT_LT(16 << 20, st.st_size);
	r = pass_over(path, "2", UINT64_MAX, &h, &ret);
	ASSERT_NE(NULL, r);
	if (!ret)
		kb = mapped_kb("/long.srec");
	srecreader_close(r);
	/*
	 * what is not given back yet: up to a 2 MiB step, and what the
	 * slots hold (here about 2 MiB of the file); not the half of it
	 * that the model's thread reads again after it was given back
	 */
	TH_LOG("resident: %ld kB of %ld", kb, (long)st.st_size >> 10);
	EXPECT_LE(0, kb);
	EXPECT_GT(8 << 10, kb);
}

/* What the model's thread saw of the CPUs during a pass. */
struct cpus_seen {
	unsigned int intervals;
	bool looked;
	cpu_set_t model;	/* the model's thread's CPUs */
	cpu_set_t reader;	/* the other threads' CPUs, together */
	unsigned int others;	/* other threads */
};

/* At the first interval: the CPUs of this thread and of the others. */
static void look_at_cpus(void *arg, const struct offcpu_iv *iv)
{
	struct cpus_seen *seen = arg;
	pid_t self = gettid();
	struct dirent *d;
	cpu_set_t set;
	DIR *dir;

	(void)iv;
	if (seen->intervals++)
		return;
	seen->looked = !sched_getaffinity(0, sizeof(seen->model),
					  &seen->model);
	dir = opendir("/proc/self/task");
	while (dir && (d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);

		if (tid <= 0 || tid == self)
			continue;
		seen->others++;
		if (sched_getaffinity(tid, sizeof(set), &set))
			seen->looked = false;
		CPU_OR(&seen->reader, &seen->reader, &set);
	}
	if (dir)
		closedir(dir);
	else
		seen->looked = false;
}

/* A pass over @path with SCHEDREC_THREADS=@threads: 0 or what failed. */
static int pass_seeing_cpus(const char *path, const char *threads,
			    struct cpus_seen *seen)
{
	struct sched_handler h = { .offcpu = look_at_cpus, .arg = seen };
	int ret;

	memset(seen, 0, sizeof(*seen));
	srecreader_close(pass_over(path, threads, UINT64_MAX, &h, &ret));
	return ret;
}

/*
 * While the reader has a thread of its own, the two threads run on CPUs
 * of their own, which together are the CPUs the caller had; after the
 * pass, the caller has them all again.
 */
TEST_F(pipeline, threads_on_cpus_of_their_own)
{
	struct cpus_seen one, two;
	cpu_set_t was, after, both, common;
	char path[512];

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(was), &was));
	if (CPU_COUNT(&was) < 2)
		SKIP(return, "one CPU to run on: the reader has no thread");
	snprintf(path, sizeof(path), "%s/trace.srec", self->w.dir);
	ASSERT_EQ(0, pass_seeing_cpus(path, "1", &one));
	ASSERT_EQ(0, pass_seeing_cpus(path, "2", &two));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&was, &after));
	/* the same pass either way */
	EXPECT_LT(1000, one.intervals);
	EXPECT_EQ(one.intervals, two.intervals);
	/* in one thread, nothing changed */
	ASSERT_TRUE(one.looked);
	EXPECT_EQ(0, one.others);
	EXPECT_TRUE(CPU_EQUAL(&was, &one.model));
	/* in two, the CPUs split between them */
	ASSERT_TRUE(two.looked);
	ASSERT_EQ(1, two.others);
	EXPECT_LE(1, CPU_COUNT(&two.model));
	EXPECT_LE(1, CPU_COUNT(&two.reader));
	CPU_AND(&common, &two.model, &two.reader);
	EXPECT_EQ(0, CPU_COUNT(&common));
	CPU_OR(&both, &two.model, &two.reader);
	EXPECT_TRUE(CPU_EQUAL(&was, &both));
}

/* Allowed one CPU, the two threads share it, as before the pass. */
TEST_F(pipeline, one_cpu_allowed)
{
	struct cpus_seen one, two;
	cpu_set_t was, only, after;
	char path[512];
	int cpu = sched_getcpu();

	ASSERT_LE(0, cpu);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(was), &was));
	CPU_ZERO(&only);
	CPU_SET(cpu, &only);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(only), &only));
	snprintf(path, sizeof(path), "%s/trace.srec", self->w.dir);
	EXPECT_EQ(0, pass_seeing_cpus(path, "1", &one));
	EXPECT_EQ(0, pass_seeing_cpus(path, "2", &two));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	sched_setaffinity(0, sizeof(was), &was);
	EXPECT_TRUE(CPU_EQUAL(&only, &after));
	EXPECT_LT(1000, one.intervals);
	EXPECT_EQ(one.intervals, two.intervals);
	ASSERT_TRUE(two.looked);
	EXPECT_EQ(1, two.others);
	EXPECT_TRUE(CPU_EQUAL(&only, &two.model));
	EXPECT_TRUE(CPU_EQUAL(&only, &two.reader));
}

TEST_HARNESS_MAIN
