// SPDX-License-Identifier: GPL-2.0
/*
 * Records a report has no use for: a pass without hooks (trace_pass())
 * asks the model which record types change nothing its handlers hear of
 * (schedmodel_unneeded(): wakeups for offcpu and tenancy, migrations
 * where nobody counts usurpers) and the reader does not hand them out
 * where nothing could tell (srecreader_skip()).
 *
 * The reader: on one CPU, exactly which records are stepped over (not
 * one followed by a gap, a LOST record or the end of its chunk, not one
 * at the end of the window) and that its accounting is what it is when
 * every record goes; not one whose follower is past the SYNC horizon.
 * The reports: on a trace of three CPUs with gaps, losses, renames, forks
 * and wakeups of threads that never run, every interval offcpu and
 * tenancy hear of, the losses and the reader's accounting are the same
 * with skipping as without, in one or two threads: whole, with a window
 * that ends early, with few records per SYNC or many, in compressed
 * chunks, with a small merge buffer, and with records out of time order
 * (late).  A lean model makes no thread of a wakeup it has no use for.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "run_util.h"
#include "schedmodel.h"
#include "sreccrc.h"
#include "srecfmt.h"
#include "srecreader.h"
#include "tracepass.h"

#define START_NS	1000000000000ull	/* tracegen's start, 1000 s */
#define MS		1000000ull

/* Wakeups and migrations: what offcpu and tenancy need not get. */
#define UNNEEDED	(1ull << SCHEDREC_EV_WAKING | \
			 1ull << SCHEDREC_EV_WAKEUP | \
			 1ull << SCHEDREC_EV_MIGRATE)

/*
 * @path, holding at most @max_buffered payload bytes to merge (0: the
 * default): with little, records go before the horizon says they may,
 * and some come after newer ones (late).
 */
static struct srecreader *open_held(const char *path, size_t max_buffered)
{
	struct srecreader_options opt = { .max_buffered = max_buffered };
	char err[256];
	struct srecreader *r = srecreader_open(path, &opt, err, sizeof(err));

	if (!r)
		fprintf(stderr, "%s: %s\n", path, err);
	return r;
}

static struct srecreader *open_trace(const char *path)
{
	return open_held(path, 0);
}

/* Bytes of the section whose frame is at @frame, padding included. */
static size_t section_len(const unsigned char *frame)
{
	struct srec_frame f;

	memcpy(&f, frame, sizeof(f));
	return sizeof(f) + f.head_len +
	       (f.data_len + SREC_ALIGN - 1) / SREC_ALIGN * SREC_ALIGN;
}

/* A section of a file: where, how long, and what of it disorder() needs. */
struct section {
	size_t off, len;
	uint16_t type;
	uint64_t ts;		/* CHUNK: its first record's; SYNC: horizon */
};

/*
 * Move every other SYNC back to before the last chunk that holds records
 * older than its horizon: those come after the horizon that says none
 * older would, after newer ones (late).
 */
static int disorder(const char *path)
{
	size_t len, off, n = 0, i, j, k, syncs = 0;
	unsigned char *b = (unsigned char *)read_file(path, &len);
	struct section *sec = calloc(len / sizeof(struct srec_frame) + 1,
				     sizeof(*sec)), sync;
	struct srec_chunk_head h;
	struct srec_sync_head sh;
	struct srec_frame f;
	FILE *out;
	int ret = 0;

	if (!b || !sec)
		abort();
	for (off = 0; off + sizeof(f) <= len; off += sec[n++].len) {
		memcpy(&f, b + off, sizeof(f));
		sec[n] = (struct section){
			.off = off, .type = f.type, .len = section_len(b + off),
		};
		if (f.type == SREC_SEC_CHUNK) {
			memcpy(&h, b + off + sizeof(f), sizeof(h));
			sec[n].ts = h.first_ts;
		} else if (f.type == SREC_SEC_SYNC) {
			memcpy(&sh, b + off + sizeof(f), sizeof(sh));
			sec[n].ts = sh.horizon_ns;
		}
	}
	for (i = 0; i < n; i++) {
		if (sec[i].type != SREC_SEC_SYNC)
			continue;
		j = i;
		for (k = syncs++ % 2 ? i : 0; k > 0; k--) {
			if (sec[k - 1].type == SREC_SEC_CHUNK &&
			    sec[k - 1].ts < sec[i].ts) {
				j = k - 1;
				break;
			}
		}
		sync = sec[i];
		memmove(&sec[j + 1], &sec[j], (i - j) * sizeof(*sec));
		sec[j] = sync;
	}
	out = fopen(path, "w");
	for (i = 0; out && i < n; i++)
		if (fwrite(b + sec[i].off, 1, sec[i].len, out) != sec[i].len)
			break;
	if (!out || i < n)
		ret = -1;
	if (out && fclose(out))
		ret = -1;
	free(sec);
	free(b);
	return ret;
}

/* A scratch file of the description @desc: its path in @path. */
static int trace_of(char *path, size_t size, const char *name,
		    const char *desc)
{
	snprintf(path, size, "/tmp/schedrec-skip-test-%d-%s.srec",
		 (int)getpid(), name);
	return write_trace_file(path, desc);
}

/*
 * One CPU's records, by number: 1, 2 and 13 are stepped over (nothing
 * tells); 4 is not (a gap follows it), nor 8 (a LOST record follows),
 * nor 15 (it is at the window's end, 11 ms), nor 17 (the last of its
 * chunk).
 */
static const char one_cpu[] =
	"cpus 1\n"
	"pass 100\n"
	"thread 10 10 ten\n"
	"thread 11 11 eleven\n"
	"1ms cpu0 switch 0 R 10\n"		/* 0 */
	"2ms cpu0 waking 11\n"			/* 1: skipped */
	"3ms cpu0 wakeup 11\n"			/* 2: skipped */
	"4ms cpu0 switch 10 S 11\n"		/* 3 */
	"5ms cpu0 waking 10\n"			/* 4: a gap follows */
	"5ms cpu0 gap 2\n"
	"6ms cpu0 switch 11 S 10\n"		/* 7 */
	"7ms cpu0 migrate 11 0 0\n"		/* 8: LOST follows */
	"8ms cpu0 lost 3 7500us 7600us\n"	/* 12 */
	"9ms cpu0 wakeup 11\n"			/* 13: skipped */
	"10ms cpu0 switch 10 S 11\n"		/* 14 */
	"11ms cpu0 waking 10\n"			/* 15: window's end */
	"12ms cpu0 switch 11 S 10\n"		/* 16 */
	"13ms cpu0 waking 11\n";		/* 17: the chunk's last */

/* Read @path to the end (skipping @types before @before); records out. */
static int read_all(const char *path, uint64_t types, uint64_t before,
		    uint64_t *seqs, uint64_t *gaps, int max,
		    struct srecreader_cpu *stats)
{
	struct srecreader *r = open_trace(path);
	struct srec_record rec;
	int n = 0, ret;

	if (!r)
		return -1;
	if (types)
		srecreader_skip(r, types, before);
	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0) {
		if (n < max) {
			seqs[n] = rec.seq;
			gaps[n] = rec.gap;
		}
		n++;
	}
	*stats = *srecreader_cpu(r, 0);
	srecreader_close(r);
	return ret ? ret : n;
}

TEST(reader_steps_over_only_where_nothing_tells)
{
	static const uint64_t want[] = { 0, 3, 4, 7, 8, 12, 14, 15, 16, 17 };
	uint64_t seqs[32], gaps[32], all_seqs[32], all_gaps[32];
	struct srecreader_cpu skipping, every;
	char path[256];
	int n, all;
	size_t i;

	ASSERT_EQ(0, trace_of(path, sizeof(path), "one", one_cpu));
	n = read_all(path, UNNEEDED, START_NS + 11 * MS, seqs, gaps, 32,
		     &skipping);
	all = read_all(path, 0, UINT64_MAX, all_seqs, all_gaps, 32, &every);
	remove(path);
	ASSERT_EQ(ARRAY_SIZE(want), n);
	ASSERT_EQ(13, all);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT_EQ(want[i], seqs[i]) TH_LOG("record %zu", i);
	/* the gap is still where it was, on the record after it */
	EXPECT_EQ(2, gaps[3]);
	EXPECT_EQ(2, all_gaps[5]);
	/* counted as if handed out */
	EXPECT_EQ(0, memcmp(&every, &skipping, sizeof(every)));
	EXPECT_EQ(13, skipping.records);
	EXPECT_EQ(3, skipping.lost);
	EXPECT_EQ(2, skipping.gaps);
	EXPECT_EQ(START_NS + 13 * MS, skipping.last_ts);
}

/*
 * A SYNC of @horizon_ns into the file @path, before the first chunk of
 * @cpu: the records of that chunk older than it come late.
 */
static int sync_before(const char *path, uint32_t cpu, uint64_t horizon_ns)
{
	unsigned char sync[sizeof(struct srec_frame) +
			   sizeof(struct srec_sync_head)];
	struct srec_frame f = {
		.magic = SREC_MAGIC, .type = SREC_SEC_SYNC,
		.head_len = sizeof(struct srec_sync_head),
		.data_crc = srec_crc32(0, NULL, 0),
	};
	size_t len, off;
	unsigned char *b = (unsigned char *)read_file(path, &len);
	struct srec_chunk_head h;
	struct srec_frame at;
	FILE *out;
	int ret = -1;

	memcpy(sync + sizeof(f), &horizon_ns, sizeof(horizon_ns));
	memcpy(sync, &f, sizeof(f));
	f.head_crc = srec_crc32(srec_crc32(0, sync, SREC_FRAME_CRC_LEN),
				sync + sizeof(f), f.head_len);
	memcpy(sync, &f, sizeof(f));
	for (off = 0; b && off + sizeof(at) <= len; off += section_len(b + off)) {
		memcpy(&at, b + off, sizeof(at));
		if (at.type != SREC_SEC_CHUNK)
			continue;
		memcpy(&h, b + off + sizeof(at), sizeof(h));
		if (h.cpu != cpu)
			continue;
		out = fopen(path, "w");
		if (out && fwrite(b, 1, off, out) == off &&
		    fwrite(sync, 1, sizeof(sync), out) == sizeof(sync) &&
		    fwrite(b + off, 1, len - off, out) == len - off)
			ret = 0;
		if (out && fclose(out))
			ret = -1;
		break;
	}
	free(b);
	return ret;
}

/*
 * A record is stepped over only if the record after it is older than the
 * horizon too: here the wakeup at 5 ms (followed at 9 ms, past the SYNC's
 * 7 ms) is handed out before CPU 1's late chunk is read, whose record at
 * 3 ms is then late, as it is when every record goes.
 */
TEST(reader_waits_for_the_horizon)
{
	static const char desc[] =
		"cpus 2\n"
		"pass 100\n"
		"thread 10 10 ten\n"
		"thread 11 11 eleven\n"
		"1ms cpu0 switch 0 R 10\n"
		"3ms cpu1 switch 0 R 11\n"
		"5ms cpu0 waking 11\n"
		"9ms cpu0 switch 10 S 0\n";
	uint64_t types[] = { 0, UNNEEDED };
	struct srecreader_cpu stats[2][2];
	struct srec_record rec;
	struct srecreader *r;
	char path[256];
	unsigned int i, cpu;
	int n[2] = { 0 };

	ASSERT_EQ(0, trace_of(path, sizeof(path), "horizon", desc));
	ASSERT_EQ(0, sync_before(path, 1, START_NS + 7 * MS));
	for (i = 0; i < 2; i++) {
		r = open_trace(path);
		ASSERT_NE(NULL, r);
		srecreader_skip(r, types[i], UINT64_MAX);
		while (srecreader_next_batch(r, &rec, 1) > 0)
			n[i]++;
		for (cpu = 0; cpu < 2; cpu++)
			stats[i][cpu] = *srecreader_cpu(r, cpu);
		srecreader_close(r);
	}
	remove(path);
	EXPECT_EQ(4, n[0]);
	EXPECT_EQ(4, n[1]);
	EXPECT_EQ(1, stats[0][1].late);
	EXPECT_EQ(0, memcmp(stats[0], stats[1], sizeof(stats[0])));
}

/* Without srecreader_skip(), or after it with no types, every record goes. */
TEST(reader_hands_out_all_by_default)
{
	struct srecreader *r;
	struct srec_record rec;
	char path[256];
	int n = 0;

	ASSERT_EQ(0, trace_of(path, sizeof(path), "all", one_cpu));
	r = open_trace(path);
	remove(path);
	ASSERT_NE(NULL, r);
	srecreader_skip(r, UNNEEDED, UINT64_MAX);
	srecreader_skip(r, 0, UINT64_MAX);
	while (srecreader_next_batch(r, &rec, 1) > 0)
		n++;
	srecreader_close(r);
	EXPECT_EQ(13, n);
}

/*
 * Three CPUs, a pool of threads each; every round each CPU wakes a
 * thread (sometimes one of another CPU's, or one that never runs),
 * migrates it, and switches to it; now and then a gap after a wakeup, a
 * LOST record, a rename, a fork, an exit.
 */
static char *busy_trace(const char *extra)
{
	struct text t = { 0 };
	unsigned int round, cpu, prev[3] = { 0 }, rnd = 12345;
	static const char *const states[] = { "R", "S", "D", "S", "I" };

	text_printf(&t, "cpus 3\n%s", extra);
	for (cpu = 0; cpu < 3; cpu++) {
		unsigned int i;

		for (i = 0; i < 8; i++)
			text_printf(&t, "thread %u %u w%u-%u\n",
				    100 + cpu * 100 + i, 100 + cpu * 100, cpu,
				    i);
	}
	for (round = 0; round < 1500; round++) {
		for (cpu = 0; cpu < 3; cpu++) {
			unsigned int base = 100 + cpu * 100, next, woken;
			unsigned long us = round * 100 + cpu * 7;

			rnd = rnd * 1103515245 + 12345;
			next = base + (rnd >> 8) % 8;
			if (next == prev[cpu])
				next = base + (next - base + 1) % 8;
			woken = (rnd >> 16) % 5 ? next :
				(rnd >> 20) % 2 ? 999 :
				100 + ((cpu + 1) % 3) * 100 + (rnd >> 12) % 8;
			text_printf(&t, "%luus cpu%u waking %u\n", us, cpu,
				    woken);
			text_printf(&t, "%luus cpu%u wakeup %u\n", us + 1, cpu,
				    woken);
			if ((rnd >> 4) % 13 == 0)
				text_printf(&t, "%luus cpu%u gap 1\n", us + 1,
					    cpu);
			if ((rnd >> 6) % 17 == 0)
				text_printf(&t, "%luus cpu%u lost 2 %luus %luus\n",
					    us + 2, cpu, us + 2, us + 2);
			else
				text_printf(&t, "%luus cpu%u migrate %u %u %u\n",
					    us + 2, cpu, next, cpu, cpu);
			if ((rnd >> 10) % 29 == 0)
				text_printf(&t, "%luus cpu%u rename %u %u r%u\n",
					    us + 3, cpu, next, base, round);
			if (round % 500 == 250 && cpu == 1)
				text_printf(&t, "%luus cpu1 fork 900 900 %u kid\n%luus cpu1 wakeup_new 900\n%luus cpu1 exit 900 900 kid\n",
					    us + 3, next, us + 3, us + 4);
			text_printf(&t, "%luus cpu%u switch %u %s %u\n",
				    us + 5, cpu, prev[cpu],
				    prev[cpu] ? states[round % 5] : "R", next);
			prev[cpu] = next;
		}
	}
	return t.data;
}

/* Every interval a handler hears of, as a line of text. */
static void log_offcpu(void *arg, const struct offcpu_iv *iv)
{
	text_printf(arg, "off %u %u %s %" PRIu64 " %" PRIu64 " %c %u %u %u\n",
		    iv->task->tid, iv->task->tgid, iv->task->comm, iv->start,
		    iv->end, iv->state, iv->out_cpu, iv->in_cpu, iv->flags);
}

static void log_oncpu(void *arg, const struct oncpu_iv *iv)
{
	text_printf(arg, "on %u %u %s %" PRIu64 " %" PRIu64 " %u\n",
		    iv->task ? iv->task->tid : 0, iv->cpu,
		    iv->task ? iv->task->comm : "-", iv->start, iv->end,
		    iv->flags);
}

static void log_latency(void *arg, const struct latency_ev *ev)
{
	(void)arg;
	(void)ev;
}

static int no_hook(void *arg, const struct srec_record *rec)
{
	(void)arg;
	(void)rec;
	return 0;
}

/*
 * A pass over @path (open_held() @max_buffered) in @threads threads,
 * with a window ending @end_ns
 * after the origin (0: open), by @h: into @log what the handler heard,
 * the losses and the reader's accounting.  @skip: as reports run (no
 * hooks); else a hook that sees every record, the model lean all the
 * same.  What trace_pass() returned.
 */
static int pass(const char *path, size_t max_buffered, const char *threads,
		uint64_t end_ns, struct sched_handler h, bool skip,
		struct text *log)
{
	struct schedmodel_window window = {
		.end = end_ns ? end_ns : UINT64_MAX,
	};
	struct trace_pass_hooks hooks = { .before = no_hook };
	const struct sched_loss *losses;
	struct task *const *tasks;
	struct srecreader *r = open_held(path, max_buffered);
	const struct srecreader_cpu *c;
	struct schedmodel *m;
	unsigned int cpu;
	size_t n, i;
	int ret = -1;

	if (!r)
		return -1;
	setenv("SCHEDREC_THREADS", threads, 1);
	h.arg = log;
	m = schedmodel_new(srecreader_info(r), &window);
	if (m && !schedmodel_add_handler(m, &h)) {
		if (!skip)
			schedmodel_unneeded(m);
		ret = trace_pass(r, m, skip ? NULL : &hooks);
		n = schedmodel_losses(m, &losses);
		for (i = 0; i < n; i++)
			text_printf(log, "loss %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %d\n",
				    losses[i].cpu, losses[i].count,
				    losses[i].first, losses[i].last,
				    losses[i].unexplained);
		text_printf(log, "end %" PRIu64 " tasks %zu\n",
			    schedmodel_end(m),
			    schedmodel_tasks(m, &tasks));
	}
	for (cpu = 0; (c = srecreader_cpu(r, cpu)); cpu++)
		text_printf(log, "cpu %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			    cpu, c->records, c->bytes, c->lost, c->gaps,
			    c->gap_count, c->late, c->first_ts, c->last_ts,
			    c->chunks);
	text_printf(log, "status %" PRIu64 " %" PRIu64 " %d %d\n",
		    srecreader_status(r)->offset,
		    srecreader_status(r)->sections,
		    srecreader_status(r)->trailer,
		    srecreader_status(r)->disagrees);
	schedmodel_free(m);
	srecreader_close(r);
	unsetenv("SCHEDREC_THREADS");
	return ret;
}

FIXTURE(reports) {
	char path[256];
};

FIXTURE_VARIANT(reports) {
	const char *extra;	/* header lines of the description */
	uint64_t end_ns;	/* the window's end, 0: open */
	size_t max_buffered;	/* for the reader, 0: the default */
	bool disorder;		/* chunks after their SYNC: disorder() */
	bool chunks_hold_many;	/* so most wakeups can go */
};

FIXTURE_VARIANT_ADD(reports, sync_every_few) {
	.extra = "",
};

FIXTURE_VARIANT_ADD(reports, sync_rarely) {
	.extra = "pass 200\n",
	.chunks_hold_many = true,
};

FIXTURE_VARIANT_ADD(reports, zlib) {
	.extra = "pass 64\nzlib 6\n",
	.chunks_hold_many = true,
};

FIXTURE_VARIANT_ADD(reports, window_ends_early) {
	.extra = "pass 64\n",
	.end_ns = 40 * MS + 3000,
	.chunks_hold_many = true,
};

FIXTURE_VARIANT_ADD(reports, held_short) {
	.extra = "pass 64\n",
	.max_buffered = 1,
	.chunks_hold_many = true,
};

FIXTURE_VARIANT_ADD(reports, late_chunks) {
	.extra = "pass 64\n",
	.disorder = true,
	.chunks_hold_many = true,
};

FIXTURE_VARIANT_ADD(reports, late_chunks_held_short) {
	.extra = "pass 64\n",
	.max_buffered = 1,
	.disorder = true,
	.chunks_hold_many = true,
};

FIXTURE_SETUP(reports)
{
	char *desc = busy_trace(variant->extra);

	ASSERT_EQ(0, trace_of(self->path, sizeof(self->path), "busy", desc));
	free(desc);
	if (variant->disorder)
		ASSERT_EQ(0, disorder(self->path));
}

FIXTURE_TEARDOWN(reports)
{
	remove(self->path);
}

/* @h's pass with skipping and without, in one thread and in two. */
static void same_both_ways(struct __test_metadata *_metadata,
			   const char *path, size_t max_buffered,
			   uint64_t end_ns, struct sched_handler h)
{
	static const char *const threads[] = { "1", "2" };
	struct text with, without;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		with = (struct text){ 0 };
		without = (struct text){ 0 };
		EXPECT_EQ(0, pass(path, max_buffered, threads[i], end_ns, h,
				  true, &with));
		EXPECT_EQ(0, pass(path, max_buffered, threads[i], end_ns, h,
				  false, &without));
		ASSERT_NE(NULL, with.data);
		ASSERT_NE(NULL, without.data);
		EXPECT_LT(1000, count_lines(with.data));
		EXPECT_STREQ(without.data, with.data)
			TH_LOG("threads %s", threads[i]);
		text_free(&with);
		text_free(&without);
	}
}

TEST_F(reports, offcpu_same)
{
	same_both_ways(_metadata, self->path, variant->max_buffered,
		       variant->end_ns,
		       (struct sched_handler){ .offcpu = log_offcpu });
}

TEST_F(reports, tenancy_same)
{
	same_both_ways(_metadata, self->path, variant->max_buffered,
		       variant->end_ns,
		       (struct sched_handler){ .oncpu = log_oncpu });
}

/*
 * And records were in fact stepped over: most wakeups and migrations
 * where a chunk holds many of a CPU's records; a few where it holds one
 * or two (a chunk's last record always goes).
 */
TEST_F(reports, wakeups_stepped_over)
{
	struct srecreader *r = open_held(self->path, variant->max_buffered);
	struct srec_record recs[64];
	uint64_t out = 0, total = 0, late = 0;
	unsigned int cpu;
	int n;

	ASSERT_NE(NULL, r);
	srecreader_skip(r, UNNEEDED, UINT64_MAX);
	while ((n = srecreader_next_batch(r, recs, 64)) > 0)
		out += n;
	EXPECT_EQ(0, n);
	for (cpu = 0; cpu < 3; cpu++) {
		total += srecreader_cpu(r, cpu)->records;
		late += srecreader_cpu(r, cpu)->late;
	}
	srecreader_close(r);
	/* 4 to 8 records a round and CPU; 3 of them wakeups, migrations */
	TH_LOG("%" PRIu64 " of %" PRIu64 " records handed out", out, total);
	if (variant->chunks_hold_many)
		EXPECT_LT(out, total / 2);
	EXPECT_LT(out, total);
	EXPECT_LT(total / 4, out);
	/* the disorder is there to see */
	EXPECT_EQ(variant->disorder, late > 0) TH_LOG("%" PRIu64 " late", late);
}

/* A thread seen only woken is no task of a lean model. */
TEST(lean_model_makes_no_thread_of_a_wakeup)
{
	static struct srecreader_info info;
	struct schedmodel_window window = { .end = UINT64_MAX };
	struct schedrec_wakeup wk = {
		.hdr = { .ts = 5000, .size = sizeof(wk),
			 .type = SCHEDREC_EV_WAKEUP },
		.tid = 55,
	};
	struct srec_record rec = { .hdr = &wk.hdr };
	struct sched_handler off = { .offcpu = log_offcpu };
	struct sched_handler lat = { .latency = log_latency };
	struct schedmodel *m;
	int lean;

	info.file.nr_cpus = 1;
	for (lean = 0; lean < 2; lean++) {
		m = schedmodel_new(&info, &window);
		ASSERT_NE(NULL, m);
		ASSERT_EQ(0, schedmodel_add_handler(m, &off));
		if (lean)
			EXPECT_EQ(UNNEEDED, schedmodel_unneeded(m));
		ASSERT_EQ(1, schedmodel_record(m, &rec));
		EXPECT_EQ(!lean, schedmodel_task_of(m, 55) != NULL);
		schedmodel_free(m);
	}
	/* latencies need the wakeup: it is not unneeded, and makes one */
	m = schedmodel_new(&info, &window);
	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, schedmodel_add_handler(m, &lat));
	EXPECT_EQ(1ull << SCHEDREC_EV_MIGRATE, schedmodel_unneeded(m));
	ASSERT_EQ(1, schedmodel_record(m, &rec));
	EXPECT_NE(NULL, schedmodel_task_of(m, 55));
	schedmodel_free(m);
}

TEST_HARNESS_MAIN
