// SPDX-License-Identifier: GPL-2.0
/*
 * tracegen, the trace compiler of the golden tests: descriptions compile
 * to files that srecreader reads back with exactly the records described
 * (fields, flags, times, CPUs, sequence numbers after lost events and
 * gaps), merged by time across CPUs with SYNC sections that keep their
 * promise; the header and trailer fields come back; STACK records come
 * right before their switch and the kallsyms snapshot as written; every
 * malformed line is refused with its line number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ksyms.h"
#include "srecreader.h"
#include "tracegen.h"
#include "uapi/schedrec.h"

#define MS	1000000ull
#define US	1000ull

union any_record {
	struct schedrec_header hdr;
	struct schedrec_switch sw;
	struct schedrec_wakeup wakeup;
	struct schedrec_migrate migrate;
	struct schedrec_task task;
	struct schedrec_lost lost;
	unsigned char stack[SCHEDREC_STACK_MAX_SIZE];
};

struct got_record {
	unsigned int cpu;
	uint64_t seq;
	uint64_t gap;
	union any_record rec;
};

/* A compiled description, read back whole. */
struct loaded {
	int fd;
	struct srecreader *r;
	struct got_record *recs;
	size_t count;
	char err[512];
	char diag[4096];
};

static void keep_diag(void *arg, enum srec_diag_level level, uint64_t offset,
		      const char *msg)
{
	struct loaded *t = arg;
	size_t len = strlen(t->diag);

	snprintf(t->diag + len, sizeof(t->diag) - len, "%s\n", msg);
}

/* @text compiled into a memfd; -1 with @err set if tracegen refuses it. */
static int compile(const char *text, char *err, size_t err_size)
{
	int fd = memfd_create("tracegen", MFD_CLOEXEC);

	if (fd < 0) {
		snprintf(err, err_size, "memfd_create failed");
		return -1;
	}
	if (tracegen_write(text, fd, err, err_size) ||
	    lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Compile @text and read every record of it; 0, or -1 with t->err. */
static int load(struct loaded *t, const char *text)
{
	struct srecreader_options opt = {
		.strict = true,
		.diag = keep_diag,
		.diag_arg = t,
	};
	struct srec_record rec;
	size_t cap = 0;
	int ret;

	t->fd = compile(text, t->err, sizeof(t->err));
	if (t->fd < 0)
		return -1;
	t->r = srecreader_open_fd(t->fd, &opt, t->err, sizeof(t->err));
	if (!t->r)
		return -1;
	while ((ret = srecreader_next_batch(t->r, &rec, 1)) > 0) {
		struct got_record *got;

		if (t->count == cap) {
			cap = cap ? 2 * cap : 64;
			t->recs = realloc(t->recs, cap * sizeof(*t->recs));
			if (!t->recs)
				abort();
		}
		got = &t->recs[t->count++];
		memset(got, 0, sizeof(*got));
		got->cpu = rec.cpu;
		got->seq = rec.seq;
		got->gap = rec.gap;
		memcpy(&got->rec, rec.hdr, rec.hdr->size < sizeof(got->rec) ?
		       rec.hdr->size : sizeof(got->rec));
	}
	if (ret < 0) {
		snprintf(t->err, sizeof(t->err), "%s",
			 srecreader_error(t->r));
		return -1;
	}
	return 0;
}

static void unload(struct loaded *t)
{
	srecreader_close(t->r);
	if (t->fd >= 0)
		close(t->fd);
	free(t->recs);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

FIXTURE(trace) {
	struct loaded t;
};

FIXTURE_SETUP(trace)
{
	memset(&self->t, 0, sizeof(self->t));
	self->t.fd = -1;
}

FIXTURE_TEARDOWN(trace)
{
	unload(&self->t);
}

#define LOAD(text) do {							\
	int _ret = load(&self->t, text);				\
									\
	ASSERT_EQ(0, _ret) TH_LOG("%s", self->t.err);			\
} while (0)

/* Every record type, CPUs described out of time order. */
TEST_F(trace, every_record)
{
	static const char text[] =
		"cpus 3\n"
		"start 50s\n"
		"# cpu2's lines first: the file merges by time, not by line\n"
		"0.5ms cpu2 migrate 103 0 2 prio 100\n"
		"4ms cpu2 rename 103 103 newname\n"
		"0ms cpu0 switch 0 R0 100 prio 120 110\n"
		"1ms cpu0 waking 101 target 1\n"
		"3ms cpu0 switch 100 R 0\n"
		"3ms cpu0 exit 104 104 gone\n"
		"1.5ms cpu1 wakeup 101 waker 7 irq prio 99\n"
		"2ms cpu1 wakeup_new 102 target 0   # a comment\n"
		"2.000001ms cpu1 fork 105 100 100 fifteen_chars_x\n"
		"2.5ms cpu1 exec 105 105 100 newprog\n";
	static const struct {
		unsigned int cpu;
		uint64_t ts;
		uint8_t type;
		uint8_t flags;
		uint64_t seq;
	} want[] = {
		{ 0, 0, SCHEDREC_EV_SWITCH, 0, 0 },
		{ 2, 500 * US, SCHEDREC_EV_MIGRATE, 0, 0 },
		{ 0, 1 * MS, SCHEDREC_EV_WAKING, 0, 1 },
		{ 1, 1500 * US, SCHEDREC_EV_WAKEUP, SCHEDREC_F_IRQ, 0 },
		{ 1, 2 * MS, SCHEDREC_EV_WAKEUP_NEW, 0, 1 },
		{ 1, 2 * MS + 1, SCHEDREC_EV_FORK, 0, 2 },
		{ 1, 2500 * US, SCHEDREC_EV_EXEC, 0, 3 },
		{ 0, 3 * MS, SCHEDREC_EV_SWITCH, SCHEDREC_F_PREEMPT, 2 },
		{ 0, 3 * MS, SCHEDREC_EV_EXIT, 0, 3 },
		{ 2, 4 * MS, SCHEDREC_EV_RENAME, 0, 1 },
	};
	const uint64_t start = 50000 * MS;
	const union any_record *r;
	size_t i;

	LOAD(text);
	ASSERT_EQ(ARRAY_SIZE(want), self->t.count);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct got_record *got = &self->t.recs[i];
		static const unsigned int sizes[] = SCHEDREC_RECORD_SIZES;

		EXPECT_EQ(want[i].cpu, got->cpu) TH_LOG("record %zu", i);
		EXPECT_EQ(start + want[i].ts, got->rec.hdr.ts);
		EXPECT_EQ(want[i].type, got->rec.hdr.type);
		EXPECT_EQ(want[i].flags, got->rec.hdr.flags);
		EXPECT_EQ(want[i].seq, got->seq);
		EXPECT_EQ(want[i].seq, got->rec.hdr.seq);
		EXPECT_EQ(0, got->gap);
		EXPECT_EQ(sizes[want[i].type], got->rec.hdr.size);
	}
	r = &self->t.recs[0].rec;
	EXPECT_EQ(0, r->sw.prev_tid);
	EXPECT_EQ(100, r->sw.next_tid);
	EXPECT_EQ(0, r->sw.prev_state);
	EXPECT_EQ(120, r->sw.prev_prio);
	EXPECT_EQ(110, r->sw.next_prio);
	r = &self->t.recs[1].rec;
	EXPECT_EQ(103, r->migrate.tid);
	EXPECT_EQ(0, r->migrate.orig_cpu);
	EXPECT_EQ(2, r->migrate.dest_cpu);
	EXPECT_EQ(100, r->migrate.prio);
	/* the waker defaults to the task cpu0 switched in */
	r = &self->t.recs[2].rec;
	EXPECT_EQ(101, r->wakeup.tid);
	EXPECT_EQ(1, r->wakeup.target_cpu);
	EXPECT_EQ(100, r->wakeup.waker_tid);
	EXPECT_EQ(120, r->wakeup.prio);
	r = &self->t.recs[3].rec;
	EXPECT_EQ(101, r->wakeup.tid);
	EXPECT_EQ(1, r->wakeup.target_cpu);
	EXPECT_EQ(7, r->wakeup.waker_tid);
	EXPECT_EQ(99, r->wakeup.prio);
	r = &self->t.recs[4].rec;
	EXPECT_EQ(102, r->wakeup.tid);
	EXPECT_EQ(0, r->wakeup.target_cpu);
	EXPECT_EQ(0, r->wakeup.waker_tid);
	r = &self->t.recs[5].rec;
	EXPECT_EQ(105, r->task.tid);
	EXPECT_EQ(100, r->task.tgid);
	EXPECT_EQ(100, r->task.other_tid);
	EXPECT_EQ(0, memcmp(r->task.comm, "fifteen_chars_x", 16));
	r = &self->t.recs[6].rec;
	EXPECT_EQ(105, r->task.tid);
	EXPECT_EQ(105, r->task.tgid);
	EXPECT_EQ(100, r->task.other_tid);
	EXPECT_STREQ("newprog", r->task.comm);
	r = &self->t.recs[7].rec;
	EXPECT_EQ(100, r->sw.prev_tid);
	EXPECT_EQ(0, r->sw.next_tid);
	EXPECT_EQ(0, r->sw.prev_state);
	r = &self->t.recs[8].rec;
	EXPECT_EQ(104, r->task.tid);
	EXPECT_EQ(0, r->task.other_tid);
	EXPECT_STREQ("gone", r->task.comm);
	r = &self->t.recs[9].rec;
	EXPECT_EQ(103, r->task.tid);
	EXPECT_STREQ("newname", r->task.comm);
	EXPECT_EQ(0, srecreader_status(self->t.r)->warnings)
		TH_LOG("%s", self->t.diag);
}

TEST_F(trace, states)
{
	static const char text[] =
		"cpus 1\n"
		"1ms cpu0 switch 1 R 2\n"
		"2ms cpu0 switch 2 R0 3\n"
		"3ms cpu0 switch 3 S 4\n"
		"4ms cpu0 switch 4 D 5\n"
		"5ms cpu0 switch 5 I 6\n"
		"6ms cpu0 switch 6 T 7\n"
		"7ms cpu0 switch 7 t 8\n"
		"8ms cpu0 switch 8 P 9\n"
		"9ms cpu0 switch 9 Z 10\n"
		"10ms cpu0 switch 10 X 11\n"
		"11ms cpu0 switch 11 0x1234 12\n";
	static const struct {
		uint32_t state;
		uint8_t flags;
	} want[] = {
		{ 0, SCHEDREC_F_PREEMPT }, { 0, 0 }, { 0x1, 0 }, { 0x2, 0 },
		{ 0x402, 0 }, { 0x4, 0 }, { 0x8, 0 }, { 0x40, 0 },
		{ 0x80, 0 }, { 0x80, 0 }, { 0x1234, 0 },
	};
	size_t i;

	LOAD(text);
	ASSERT_EQ(ARRAY_SIZE(want), self->t.count);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct got_record *got = &self->t.recs[i];

		EXPECT_EQ(want[i].state, got->rec.sw.prev_state)
			TH_LOG("switch %zu", i);
		EXPECT_EQ(want[i].flags, got->rec.hdr.flags);
		EXPECT_EQ(i + 1, got->rec.sw.prev_tid);
		EXPECT_EQ(i + 2, got->rec.sw.next_tid);
	}
}

TEST_F(trace, time_units)
{
	static const char text[] =
		"cpus 1\n"
		"start 0.5s\n"
		"1ns cpu0 switch 0 R0 1\n"
		"1.5us cpu0 switch 0 R0 2\n"
		"1.10ms cpu0 switch 0 R0 3\n"
		"12.5ms cpu0 switch 0 R0 4\n"
		"2s cpu0 switch 0 R0 5\n"
		"2.000000001s cpu0 switch 0 R0 6\n"
		"2.0000000010s cpu0 switch 0 R0 7\n"
		"3000ms cpu0 switch 0 R0 8\n";
	static const uint64_t want[] = {
		1, 1500, 1100000, 12500000, 2000000000, 2000000001,
		2000000001, 3000000000,
	};
	size_t i;

	LOAD(text);
	ASSERT_EQ(ARRAY_SIZE(want), self->t.count);
	EXPECT_EQ(500000000, srecreader_info(self->t.r)->file.start_mono_ns);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT_EQ(500000000 + want[i], self->t.recs[i].rec.hdr.ts)
			TH_LOG("record %zu", i);
}

TEST_F(trace, lost_and_gaps)
{
	static const char text[] =
		"cpus 1\n"
		"1ms cpu0 switch 0 R0 1\n"
		"2ms cpu0 lost 5 1.2ms 1.8ms\n"
		"3ms cpu0 gap 3\n"
		"4ms cpu0 switch 1 S 0\n"
		"5ms cpu0 lost 2 4.5ms 4.5ms\n"
		"6ms cpu0 lost 4294967296 5ms 6ms\n"
		"7ms cpu0 gap 7\n"
		"8ms cpu0 switch 0 R0 1\n";
	static const struct {
		uint64_t seq;
		uint64_t gap;
		uint8_t type;
	} want[] = {
		{ 0, 0, SCHEDREC_EV_SWITCH },
		{ 6, 0, SCHEDREC_REC_LOST },
		{ 10, 3, SCHEDREC_EV_SWITCH },
		{ 13, 0, SCHEDREC_REC_LOST },
		{ 13 + 4294967296ull + 1, 0, SCHEDREC_REC_LOST },
		{ 13 + 4294967296ull + 1 + 8, 7, SCHEDREC_EV_SWITCH },
	};
	const uint64_t start = 1000000 * MS;
	const struct srec_cpu_total *totals;
	const struct srecreader_cpu *cpu;
	const struct schedrec_lost *lost;
	size_t i;

	LOAD(text);
	ASSERT_EQ(ARRAY_SIZE(want), self->t.count);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct got_record *got = &self->t.recs[i];

		EXPECT_EQ(want[i].seq, got->seq) TH_LOG("record %zu", i);
		EXPECT_EQ((uint32_t)want[i].seq, got->rec.hdr.seq);
		EXPECT_EQ(want[i].gap, got->gap);
		EXPECT_EQ(want[i].type, got->rec.hdr.type);
	}
	lost = &self->t.recs[1].rec.lost;
	EXPECT_EQ(5, lost->count);
	EXPECT_EQ(start + 1200 * US, lost->first_ts);
	EXPECT_EQ(start + 1800 * US, lost->last_ts);
	EXPECT_EQ(start + 2 * MS, lost->hdr.ts);
	lost = &self->t.recs[3].rec.lost;
	EXPECT_EQ(2, lost->count);
	EXPECT_EQ(lost->first_ts, lost->last_ts);
	cpu = srecreader_cpu(self->t.r, 0);
	ASSERT_NE(NULL, cpu);
	EXPECT_EQ(7 + 4294967296ull, cpu->lost);
	EXPECT_EQ(3, cpu->lost_records);
	EXPECT_EQ(10, cpu->gaps);
	EXPECT_EQ(2, cpu->gap_count);
	EXPECT_EQ(10, cpu->missing);
	ASSERT_NE(NULL, srecreader_trailer(self->t.r, &totals));
	EXPECT_EQ(6, totals[0].records);
	EXPECT_EQ(7 + 4294967296ull, totals[0].lost);
	EXPECT_EQ(10, totals[0].gaps);
	EXPECT_EQ(SREC_COUNT_UNKNOWN, totals[0].kernel_written);
	EXPECT_EQ(0, srecreader_status(self->t.r)->warnings)
		TH_LOG("%s", self->t.diag);
}

TEST_F(trace, filter)
{
	static const char text[] =
		"filtered\n"
		"1ms cpu1 switch 0 R0 1\n"
		"2ms cpu1 filter 4\n"
		"3ms cpu1 switch 1 S 0\n"
		"4ms cpu1 filter 2\n";
	const struct srec_cpu_total *totals;
	const struct srecreader_cpu *cpu;

	LOAD(text);
	ASSERT_EQ(2, self->t.count);
	EXPECT_EQ(5, self->t.recs[1].seq);
	EXPECT_EQ(4, self->t.recs[1].gap);
	cpu = srecreader_cpu(self->t.r, 1);
	EXPECT_EQ(4, cpu->gaps);
	EXPECT_EQ(4, cpu->filtered);
	EXPECT_EQ(0, cpu->missing);
	ASSERT_NE(NULL, srecreader_trailer(self->t.r, &totals));
	EXPECT_EQ(6, totals[1].filtered);
	EXPECT_EQ(4, totals[1].gaps);
	EXPECT_EQ(SREC_FILE_F_FILTERED | SREC_FILE_F_FROM_START,
		  srecreader_info(self->t.r)->file.flags);
}

TEST_F(trace, header)
{
	static const char text[] =
		"# the header's statements, in any order\n"
		"thread 300 300 third\n"
		"end 2s\n"
		"cpus 4\n"
		"drainer 4242 4243 3\n"
		"filtered\n"
		"thread 100 100 app\n"
		"thread 101 100 app-worker\n"
		"start 7s\n"
		"1ms cpu3 switch 0 R0 4243\n";
	const struct srecreader_info *info;
	const struct srec_trailer_head *trailer;
	const struct srec_cpu_total *totals;

	LOAD(text);
	info = srecreader_info(self->t.r);
	EXPECT_EQ(4, info->file.nr_cpus);
	EXPECT_EQ(7000 * MS, info->file.start_mono_ns);
	EXPECT_EQ(TRACEGEN_REALTIME_NS, info->file.start_real_ns);
	EXPECT_EQ(3, info->file.drainer_cpu);
	EXPECT_EQ(4242, info->file.drainer_pid);
	EXPECT_EQ(4243, info->file.drainer_tid);
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK, info->file.event_mask);
	EXPECT_EQ(SCHEDREC_MODE_STREAM, info->file.mode);
	EXPECT_EQ(SREC_FILE_F_FROM_START | SREC_FILE_F_FILTERED,
		  info->file.flags);
	EXPECT_STREQ("0-3", info->online);
	EXPECT_TRUE(srecreader_cpu_online(self->t.r, 3));
	EXPECT_FALSE(srecreader_cpu_online(self->t.r, 4));
	ASSERT_EQ(3, info->nr_threads);
	EXPECT_EQ(100, info->threads[0].tid);
	EXPECT_EQ(100, info->threads[0].tgid);
	EXPECT_STREQ("app", info->threads[0].comm);
	EXPECT_EQ(101, info->threads[1].tid);
	EXPECT_EQ(100, info->threads[1].tgid);
	EXPECT_STREQ("app-worker", info->threads[1].comm);
	EXPECT_EQ(300, info->threads[2].tid);
	EXPECT_STREQ("third", info->threads[2].comm);
	ASSERT_EQ(1, self->t.count);
	EXPECT_EQ(3, self->t.recs[0].cpu);
	trailer = srecreader_trailer(self->t.r, &totals);
	ASSERT_NE(NULL, trailer);
	EXPECT_EQ(9000 * MS, trailer->end_mono_ns);
	EXPECT_EQ(TRACEGEN_REALTIME_NS + 2000 * MS, trailer->end_real_ns);
	EXPECT_EQ(1, trailer->chunks);
	EXPECT_EQ(1, totals[3].records);
	EXPECT_TRUE(srecreader_status(self->t.r)->trailer);
}

/* event lines: types of a newer module in the table, after ours. */
TEST_F(trace, newer_events)
{
	static const char text[] =
		"event 200 16 later off\n"
		"event 40 48 sched_newer\n"
		"0ms cpu0 switch 0 R0 1\n";
	const struct srecreader_info *info;

	LOAD(text);
	info = srecreader_info(self->t.r);
	ASSERT_EQ(SCHEDREC_REC_MAX + 2, info->nr_events);
	EXPECT_EQ(40, info->events[SCHEDREC_REC_MAX].id);
	EXPECT_EQ(48, info->events[SCHEDREC_REC_MAX].size);
	EXPECT_EQ(SREC_EVENT_F_ENABLED, info->events[SCHEDREC_REC_MAX].flags);
	EXPECT_STREQ("sched_newer", info->events[SCHEDREC_REC_MAX].name);
	EXPECT_EQ(200, info->events[SCHEDREC_REC_MAX + 1].id);
	EXPECT_EQ(0, info->events[SCHEDREC_REC_MAX + 1].flags);
	EXPECT_EQ(1, self->t.count);
}

TEST_F(trace, defaults)
{
	static const char text[] =
		"0ms cpu0 switch 0 R0 1\n"
		"2.5ms cpu1 switch 0 R0 2\n"
		"1ms cpu0 switch 1 S 0\n";
	const struct srecreader_info *info;
	const struct srec_trailer_head *trailer;

	LOAD(text);
	info = srecreader_info(self->t.r);
	EXPECT_EQ(2, info->file.nr_cpus);
	EXPECT_STREQ("0-1", info->online);
	EXPECT_EQ(1000000 * MS, info->file.start_mono_ns);
	EXPECT_EQ(UINT32_MAX, info->file.drainer_cpu);
	EXPECT_EQ(0, info->file.drainer_pid);
	EXPECT_EQ(0, info->file.drainer_tid);
	EXPECT_EQ(SREC_FILE_F_FROM_START, info->file.flags);
	EXPECT_EQ(0, info->nr_threads);
	/* the end is the last event */
	trailer = srecreader_trailer(self->t.r, NULL);
	ASSERT_NE(NULL, trailer);
	EXPECT_EQ(1000000 * MS + 2500 * US, trailer->end_mono_ns);
}

TEST_F(trace, empty)
{
	LOAD("cpus 1\n");
	EXPECT_EQ(0, self->t.count);
	EXPECT_STREQ("0", srecreader_info(self->t.r)->online);
	ASSERT_NE(NULL, srecreader_trailer(self->t.r, NULL));
	EXPECT_EQ(1000000 * MS,
		  srecreader_trailer(self->t.r, NULL)->end_mono_ns);
}

TEST_F(trace, notrailer)
{
	LOAD("notrailer\n0ms cpu0 switch 0 R0 1\n1ms cpu1 switch 0 R0 2\n");
	EXPECT_EQ(2, self->t.count);
	EXPECT_EQ(NULL, srecreader_trailer(self->t.r, NULL));
	EXPECT_FALSE(srecreader_status(self->t.r)->trailer);
	EXPECT_FALSE(srecreader_status(self->t.r)->truncated);
	EXPECT_NE(NULL, strstr(self->t.diag, "no trailer"))
		TH_LOG("%s", self->t.diag);
}

/* STACK records right before their switch, and the kallsyms snapshot. */
TEST_F(trace, stacks)
{
	static const char text[] =
		"cpus 2\n"
		"ksym ffffffff81000000 T _stext\n"
		"ksym 0xffffffff81100000 t do_nanosleep\n"
		"ksym ffffffffc0001000 t ext4_read\t[ext4]\n"
		"0ms cpu0 switch 0 R0 100\n"
		"1ms cpu0 stack 100 ffffffff81100010,0xFFFFFFFF81000020,1\n"
		"1ms cpu0 switch 100 S 0\n"
		"1ms cpu1 stack 101 -\n"
		"1ms cpu1 switch 101 D 0\n"
		"2ms cpu0 switch 0 R0 100\n";
	static const char kallsyms[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81100000 t do_nanosleep\n"
		"ffffffffc0001000 t ext4_read\t[ext4]\n";
	const struct srecreader_info *info;
	const struct schedrec_stack *st;
	struct ksyms *ks;
	struct ksym sym;

	LOAD(text);
	info = srecreader_info(self->t.r);
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK | 1u << SCHEDREC_EV_STACK,
		  info->file.event_mask);
	ASSERT_EQ(strlen(kallsyms), info->kallsyms_len);
	EXPECT_EQ(0, memcmp(kallsyms, info->kallsyms, info->kallsyms_len));
	EXPECT_EQ(0, info->kallsyms_flags);
	ks = ksyms_parse(info->kallsyms, info->kallsyms_len);
	ASSERT_NE(NULL, ks);
	EXPECT_EQ(3, ksyms_count(ks));
	ASSERT_TRUE(ksyms_lookup(ks, 0xffffffffc0001004ull, &sym, NULL));
	EXPECT_STREQ("ext4_read", sym.name);
	EXPECT_STREQ("ext4", sym.module);
	ksyms_free(ks);

	ASSERT_EQ(6, self->t.count);
	/* cpu0's stack, then its switch; cpu1's (empty) then its switch */
	EXPECT_EQ(SCHEDREC_EV_STACK, self->t.recs[1].rec.hdr.type);
	EXPECT_EQ(0, self->t.recs[1].cpu);
	EXPECT_EQ(1, self->t.recs[1].seq);
	EXPECT_EQ(SCHEDREC_STACK_SIZE(3), self->t.recs[1].rec.hdr.size);
	st = (const void *)self->t.recs[1].rec.stack;
	EXPECT_EQ(100, st->tid);
	ASSERT_EQ(3, st->nr);
	EXPECT_EQ(0xffffffff81100010ull, st->ips[0]);
	EXPECT_EQ(0xffffffff81000020ull, st->ips[1]);
	EXPECT_EQ(1, st->ips[2]);
	EXPECT_EQ(SCHEDREC_EV_SWITCH, self->t.recs[2].rec.hdr.type);
	EXPECT_EQ(self->t.recs[1].rec.hdr.ts, self->t.recs[2].rec.hdr.ts);
	EXPECT_EQ(2, self->t.recs[2].seq);
	EXPECT_EQ(SCHEDREC_EV_STACK, self->t.recs[3].rec.hdr.type);
	EXPECT_EQ(1, self->t.recs[3].cpu);
	EXPECT_EQ(SCHEDREC_STACK_SIZE(0), self->t.recs[3].rec.hdr.size);
	st = (const void *)self->t.recs[3].rec.stack;
	EXPECT_EQ(101, st->tid);
	EXPECT_EQ(0, st->nr);
	EXPECT_EQ(SCHEDREC_EV_SWITCH, self->t.recs[4].rec.hdr.type);
	EXPECT_EQ(0, srecreader_status(self->t.r)->warnings)
		TH_LOG("%s", self->t.diag);
}

/* A full stack, and a snapshot whose addresses are all 0 (hidden). */
TEST_F(trace, stack_depth_and_hidden_ksyms)
{
	char text[1024];
	const struct srecreader_info *info;
	const struct schedrec_stack *st;
	size_t len;
	int i;

	len = snprintf(text, sizeof(text),
		       "ksym 0 T _stext\nksym 0000000000000000 t f\n"
		       "5ms cpu1 stack 7 ");
	for (i = 0; i < SCHEDREC_STACK_MAX_DEPTH; i++)
		len += snprintf(text + len, sizeof(text) - len, "%s%x",
				i ? "," : "", 0x1000 + i);
	snprintf(text + len, sizeof(text) - len, "\n5ms cpu1 switch 7 S 0\n");
	LOAD(text);
	info = srecreader_info(self->t.r);
	EXPECT_EQ(SREC_KSYMS_F_HIDDEN, info->kallsyms_flags);
	ASSERT_EQ(2, self->t.count);
	EXPECT_EQ(SCHEDREC_STACK_MAX_SIZE, self->t.recs[0].rec.hdr.size);
	st = (const void *)self->t.recs[0].rec.stack;
	ASSERT_EQ(SCHEDREC_STACK_MAX_DEPTH, st->nr);
	EXPECT_EQ(0x1000, st->ips[0]);
	EXPECT_EQ(0x1000 + SCHEDREC_STACK_MAX_DEPTH - 1,
		  st->ips[SCHEDREC_STACK_MAX_DEPTH - 1]);
}

/* Without stack or ksym lines, the header is as it always was. */
TEST_F(trace, no_stacks)
{
	LOAD("0ms cpu0 switch 0 R0 1\n1ms cpu0 switch 1 S 0\n");
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK,
		  srecreader_info(self->t.r)->file.event_mask);
	EXPECT_EQ(0, srecreader_info(self->t.r)->kallsyms_len);
}

/* The same description always gives the same bytes. */
TEST(deterministic)
{
	static const char text[] =
		"thread 1 1 a\n0ms cpu0 switch 0 R0 1\n5ms cpu1 waking 1\n";
	char err[256], a[4096], b[4096];
	ssize_t len_a, len_b;
	int fd_a, fd_b;

	fd_a = compile(text, err, sizeof(err));
	ASSERT_LE(0, fd_a) TH_LOG("%s", err);
	fd_b = compile(text, err, sizeof(err));
	ASSERT_LE(0, fd_b) TH_LOG("%s", err);
	len_a = read(fd_a, a, sizeof(a));
	len_b = read(fd_b, b, sizeof(b));
	close(fd_a);
	close(fd_b);
	ASSERT_LT(0, len_a);
	ASSERT_EQ(len_a, len_b);
	EXPECT_EQ(0, memcmp(a, b, len_a));
}

/* A long description of 4 CPUs, its lines in no particular order. */
static char *long_description(unsigned int nr_cpus, unsigned int per_cpu)
{
	size_t size = 0;
	char *text = NULL;
	FILE *out = open_memstream(&text, &size);
	unsigned int cpu, i;

	if (!out)
		abort();
	fprintf(out, "cpus %u\n", nr_cpus);
	/* a CPU at a time, the last first: only times order the file */
	for (cpu = nr_cpus; cpu-- > 0; ) {
		uint64_t t = cpu * 3;

		for (i = 0; i < per_cpu; i++) {
			/* steps of 1 to 13 us, and ties across CPUs */
			t += ((i * 7 + cpu * 5) % 13) * 1000 + (i % 3 ? 0 : 1);
			if (i % 10 == 0)
				t = (t / 10000 + 1) * 10000;
			fprintf(out, "%lluns cpu%u switch %u R %u\n",
				(unsigned long long)t, cpu, i, i + 1);
			if (i % 9 == 4)
				fprintf(out, "%lluns cpu%u waking %u\n",
					(unsigned long long)t, cpu, i);
		}
	}
	fclose(out);
	return text;
}

struct walked {
	unsigned int syncs;
	unsigned int chunks;
	unsigned int zlib;	/* chunks compressed */
	unsigned int broken;	/* chunks older than a SYNC before them */
	uint64_t payload;
};

/* Walk the sections of @fd's file: the SYNC promise, and the chunks. */
static int walk_file(int fd, struct walked *w)
{
	uint64_t horizon = 0;
	unsigned char *data;
	struct stat st;
	size_t pos = 0;

	memset(w, 0, sizeof(*w));
	if (fstat(fd, &st))
		return -1;
	data = malloc(st.st_size);
	if (!data || pread(fd, data, st.st_size, 0) != st.st_size) {
		free(data);
		return -1;
	}
	while (pos + sizeof(struct srec_frame) <= (size_t)st.st_size) {
		struct srec_frame f;
		const unsigned char *head = data + pos + sizeof(f);

		memcpy(&f, data + pos, sizeof(f));
		if (f.type == SREC_SEC_SYNC) {
			struct srec_sync_head s;

			memcpy(&s, head, sizeof(s));
			horizon = s.horizon_ns;
			w->syncs++;
		} else if (f.type == SREC_SEC_CHUNK) {
			struct srec_chunk_head c;

			memcpy(&c, head, sizeof(c));
			w->chunks++;
			w->zlib += !!(c.flags & SREC_CHUNK_ZLIB);
			w->payload += c.raw_len;
			/* a CPU's records are in time order */
			if (c.first_ts < horizon)
				w->broken++;
		}
		pos += sizeof(f) + f.head_len + (f.data_len + 7) / 8 * 8;
	}
	free(data);
	return pos == (size_t)st.st_size ? 0 : -1;
}

TEST_F(trace, merged_by_time)
{
	const unsigned int nr_cpus = 4, per_cpu = 300;
	const unsigned int wakings = (per_cpu + 4) / 9;	/* i % 9 == 4 */
	const struct srecreader_status *status;
	uint64_t next_seq[4] = { 0 };
	char *text = long_description(nr_cpus, per_cpu);
	unsigned int cpu, ties = 0;
	struct walked w;
	size_t i;

	LOAD(text);
	free(text);
	ASSERT_EQ(nr_cpus * (per_cpu + wakings), self->t.count);
	for (i = 0; i < self->t.count; i++) {
		const struct got_record *got = &self->t.recs[i];

		if (i) {
			const struct got_record *prev = got - 1;

			ASSERT_LE(prev->rec.hdr.ts, got->rec.hdr.ts)
				TH_LOG("record %zu", i);
			if (prev->rec.hdr.ts == got->rec.hdr.ts &&
			    prev->cpu != got->cpu) {
				ASSERT_LT(prev->cpu, got->cpu);
				ties++;
			}
		}
		ASSERT_EQ(next_seq[got->cpu], got->seq);
		next_seq[got->cpu]++;
	}
	EXPECT_LT(0, ties);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		EXPECT_EQ(per_cpu + wakings, next_seq[cpu]);
		EXPECT_EQ(0, srecreader_cpu(self->t.r, cpu)->late);
	}
	/* SYNC sections came, kept their promise, and bounded the reader */
	ASSERT_EQ(0, walk_file(self->t.fd, &w));
	EXPECT_LT(10, w.syncs);
	EXPECT_EQ(0, w.broken);
	EXPECT_LT(nr_cpus, w.chunks);
	status = srecreader_status(self->t.r);
	EXPECT_GT(w.payload / 8, status->buffered_peak)
		TH_LOG("held %llu of %llu bytes",
		       (unsigned long long)status->buffered_peak,
		       (unsigned long long)w.payload);
	EXPECT_EQ(0, status->warnings) TH_LOG("%s", self->t.diag);
}

/*
 * zlib and pass: the same records, in fewer chunks, most of them
 * compressed and those too small to be still raw, as schedrec record -z
 * writes them.
 */
TEST_F(trace, zlib_and_pass)
{
	const unsigned int nr_cpus = 4, per_cpu = 300;
	char *text = long_description(nr_cpus, per_cpu), *packed;
	struct got_record *plain;
	struct walked w, wp;
	size_t count;

	LOAD(text);
	ASSERT_EQ(0, walk_file(self->t.fd, &w));
	EXPECT_EQ(0, w.zlib);
	count = self->t.count;
	plain = self->t.recs;
	self->t.recs = NULL;
	unload(&self->t);
	ASSERT_LE(0, asprintf(&packed, "zlib 1\npass 32\n%s", text));
	free(text);
	LOAD(packed);
	free(packed);
	ASSERT_EQ(count, self->t.count);
	EXPECT_EQ(0, memcmp(plain, self->t.recs, count * sizeof(*plain)));
	ASSERT_EQ(0, walk_file(self->t.fd, &wp));
	EXPECT_GT(w.chunks / 4, wp.chunks);
	EXPECT_LT(0, wp.zlib);
	EXPECT_GT(wp.chunks, wp.zlib);
	EXPECT_EQ(0, srecreader_status(self->t.r)->warnings)
		TH_LOG("%s", self->t.diag);
	free(plain);
}

/* Records of one CPU at one time keep the order of their lines. */
TEST_F(trace, same_time)
{
	LOAD("5ms cpu1 switch 0 R0 1\n5ms cpu1 switch 1 S 2\n"
	     "5ms cpu0 switch 0 R0 3\n5ms cpu1 switch 2 S 0\n"
	     "5ms cpu0 exit 3 3 x\n");
	ASSERT_EQ(5, self->t.count);
	EXPECT_EQ(0, self->t.recs[0].cpu);
	EXPECT_EQ(SCHEDREC_EV_SWITCH, self->t.recs[0].rec.hdr.type);
	EXPECT_EQ(0, self->t.recs[1].cpu);
	EXPECT_EQ(SCHEDREC_EV_EXIT, self->t.recs[1].rec.hdr.type);
	EXPECT_EQ(1, self->t.recs[2].rec.sw.next_tid);
	EXPECT_EQ(2, self->t.recs[3].rec.sw.next_tid);
	EXPECT_EQ(0, self->t.recs[4].rec.sw.next_tid);
}

static const struct {
	const char *text;
	unsigned int line;
	const char *says;
} bad[] = {
	{ "cpus 2\n0ms cpu0 frobnicate 1\n", 2, "unknown event 'frobnicate'" },
	{ "0ms cpu0 switch 0 R0 1\n1xs cpu0 switch 1 S 0\n", 2,
	  "bad time '1xs'" },
	{ "5 cpu0 switch 0 R0 1\n", 1, "bad time '5'" },
	{ "1.5ns cpu0 switch 0 R0 1\n", 1, "bad time '1.5ns'" },
	{ "1.ms cpu0 switch 0 R0 1\n", 1, "bad time '1.ms'" },
	{ "start 10\n", 1, "bad time '10'" },
	{ "end 1h\n", 1, "bad time '1h'" },
	{ "0ms cpu0 lost 3 1ms 2\n", 1, "bad time '2'" },
	{ "2ms cpu0 switch 0 R0 1\n1ms cpu1 switch 0 R0 2\n"
	  "1ms cpu0 switch 1 S 0\n", 3, "time goes back on cpu0" },
	{ "2ms cpu0 switch 0 R0 1\n1ms cpu0 gap 2\n", 2,
	  "time goes back on cpu0" },
	{ "cpus 2\n\n0ms cpu2 switch 0 R0 1\n", 3, "cpu2 out of range" },
	{ "0ms core0 switch 0 R0 1\n", 1, "bad CPU 'core0'" },
	{ "0ms cpu-1 switch 0 R0 1\n", 1, "bad CPU 'cpu-1'" },
	{ "0ms cpu0 migrate 5 0 7\n", 1, "CPU 7 out of range" },
	{ "0ms cpu0 waking 5 target 9\n", 1, "CPU 9 out of range" },
	{ "drainer 1 1 2\n", 1, "CPU 2 out of range" },
	{ "cpus 0\n", 1, "cpus 0" },
	{ "0ms cpu0 switch 0 R0\n", 1, "wrong arguments" },
	{ "0ms cpu0 switch 0 R0 1 prio 3\n", 1, "wrong arguments" },
	{ "0ms cpu0 fork 5 5 app\n", 1, "wrong arguments" },
	{ "0ms cpu0 exit 5 app\n", 1, "wrong arguments" },
	{ "0ms cpu0 migrate 5 0\n", 1, "wrong arguments" },
	{ "0ms cpu0 lost 5 1ms\n", 1, "wrong arguments" },
	{ "0ms cpu0 gap\n", 1, "wrong arguments" },
	{ "0ms cpu0 waking\n", 1, "wrong arguments" },
	{ "0ms cpu0 waking 5 waker\n", 1, "unexpected 'waker'" },
	{ "0ms cpu0 waking 5 by 3\n", 1, "unexpected 'by'" },
	{ "0ms cpu0\n", 1, "an event line is" },
	{ "thread 5 5\n", 1, "wrong arguments" },
	{ "drainer 5\n", 1, "wrong arguments" },
	{ "0ms cpu0 exec 5 5 5 abcdefghijklmnop\n", 1, "longer than 15" },
	{ "# x\nthread 5 5 abcdefghijklmnop\n", 2, "longer than 15" },
	{ "0ms cpu0 switch 0 Q 1\n", 1, "bad STATE 'Q'" },
	{ "0ms cpu0 switch 0 0x 1\n", 1, "bad STATE '0x'" },
	{ "0ms cpu0 switch x R0 1\n", 1, "bad PREV 'x'" },
	{ "0ms cpu0 switch 0 R0 4294967296\n", 1, "bad NEXT" },
	{ "0ms cpu0 switch 0 R0 1 prio 1 x\n", 1, "bad priority 'x'" },
	{ "frob 1\n", 1, "unknown statement 'frob'" },
	{ "notrailer 1\n", 1, "takes no argument" },
	{ "zlib\n", 1, "wrong arguments" },
	{ "zlib 0\n", 1, "want a level of 1 to 9" },
	{ "zlib 10\n", 1, "want a level of 1 to 9" },
	{ "pass 0\n", 1, "want 1 to 65536 records" },
	{ "pass x\n", 1, "bad pass 'x'" },
	{ "0ms cpu0 switch 0 R0 1\ncpus 4\n", 2,
	  "cpus must come before line 1" },
	{ "cpus 4\ncpus 4\n", 2, "cpus given twice" },
	{ "5ms cpu0 lost 3 4ms 2ms\n", 1, "FIRST <= LAST" },
	{ "5ms cpu0 lost 3 4ms 6ms\n", 1, "FIRST <= LAST <= TIME" },
	{ "5ms cpu0 lost 0 4ms 4ms\n", 1, "bad COUNT '0'" },
	{ "5ms cpu0 gap -1\n", 1, "bad COUNT '-1'" },
	{ "0ms cpu0 gap 4294967296\n", 1, "2^32" },
	{ "0ms cpu0 gap 4294967295\n0ms cpu0 filter 1\n", 2, "2^32" },
	{ "0ms cpu0 switch 0 R0 1\nend 1ms\n5ms cpu0 switch 1 S 0\n", 2,
	  "end (1000000 ns) is before the event on line 3" },
	{ "thread 5 5 a\nthread 5 5 b\n", 2, "already in the snapshot" },
	{ "0ms cpu0 switch 0 R0 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n", 1,
	  "more than 16 words" },
	{ "0ms cpu0 stack 5\n", 1, "wrong arguments" },
	{ "0ms cpu0 stack 0 ffff\n", 1, "idle task" },
	{ "0ms cpu0 stack 5 ffff,xyz\n", 1, "bad ADDR 'xyz'" },
	{ "0ms cpu0 stack 5 ffff,,1\n", 1, "bad ADDR ''" },
	{ "0ms cpu0 stack 5 12345678901234567\n", 1, "bad ADDR" },
	{ "0ms cpu0 stack 5 1,2,3,4,5,6,7,8,9,a,b,c,d,e,f,10,11,12,13,14,15,16,17,18,19,1a,1b,1c,1d,1e,1f,20,21\n",
	  1, "more than 32 addresses" },
	{ "0ms cpu0 stack 5 1\n", 1, "must be followed on cpu0" },
	{ "0ms cpu0 stack 5 1\n0ms cpu0 waking 3\n", 2,
	  "must be followed on cpu0 by the switch of tid 5" },
	{ "0ms cpu0 stack 5 1\n1ms cpu0 switch 5 S 0\n", 2,
	  "at the same time" },
	{ "0ms cpu0 stack 5 1\n0ms cpu0 switch 6 S 0\n", 2,
	  "the switch of tid 5" },
	{ "0ms cpu0 stack 5 1\n0ms cpu0 gap 2\n", 2, "must be followed" },
	{ "ksym ffff t\n", 1, "wrong arguments" },
	{ "ksym zz t f\n", 1, "bad ADDR 'zz'" },
	{ "ksym ffff tt f\n", 1, "bad TYPE 'tt'" },
	{ "ksym ffff t f ext4\n", 1, "bad MODULE 'ext4'" },
	{ "event 40 32\n", 1, "event ID SIZE NAME [off]" },
	{ "event 40 32 x on\n", 1, "event ID SIZE NAME [off]" },
	{ "event 1 32 x\n", 1, "want one this ABI does not have" },
	{ "event 65536 32 x\n", 1, "want one this ABI does not have" },
	{ "event 40 20 x\n", 1, "want a multiple of 16" },
	{ "event 40 0 x\n", 1, "want a multiple of 16" },
	{ "event 40 16 a\nevent 41 16 b\nevent 42 16 c\nevent 43 16 d\n"
	  "event 44 16 e\nevent 45 16 f\nevent 46 16 g\nevent 47 16 h\n"
	  "event 48 16 i\n", 9, "at most 8 event lines" },
};

TEST(refused)
{
	char err[512], prefix[32];
	size_t i;
	int fd;

	fd = memfd_create("refused", MFD_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		EXPECT_EQ(-1, tracegen_write(bad[i].text, fd, err,
					     sizeof(err)))
			TH_LOG("accepted: %s", bad[i].text);
		snprintf(prefix, sizeof(prefix), "line %u: ", bad[i].line);
		EXPECT_EQ(0, strncmp(err, prefix, strlen(prefix)))
			TH_LOG("%s: '%s' is not on %s", bad[i].text, err,
			       prefix);
		EXPECT_NE(NULL, strstr(err, bad[i].says))
			TH_LOG("%s: '%s' does not say '%s'", bad[i].text, err,
			       bad[i].says);
	}
	close(fd);
}

/* What looks odd but is fine. */
TEST(accepted)
{
	static const char * const good[] = {
		"",
		"# nothing\n\n\t\n",
		"0ms cpu0 switch 0 R0 1 # trailing comment\n",
		"0ms cpu0 switch 0 R0 1",	/* no newline at the end */
		"0ms\tcpu0\tswitch 0 R0 1\r\n",
		"cpus 1\ndrainer 1 1 0\n",
		"0ms cpu0 gap 4294967295\n0ms cpu0 switch 0 R0 1\n",
		"0ms cpu0 switch 0 R0 1 prio -1 139\n",
		"end 0ns\n",
	};
	char err[512];
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		fd = compile(good[i], err, sizeof(err));
		EXPECT_LE(0, fd) TH_LOG("'%s': %s", good[i], err);
		if (fd >= 0)
			close(fd);
	}
}

TEST(write_file)
{
	char path[] = "/tmp/tracegen_test.XXXXXX";
	char err[512];
	struct stat st;
	int fd;

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_EQ(0, tracegen_write_file("0ms cpu0 switch 0 R0 1\n", path,
					 err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, stat(path, &st));
	EXPECT_LT(0, st.st_size);
	/* a refused description leaves no file behind */
	EXPECT_EQ(-1, tracegen_write_file("0ms cpu9 switch 0 R0 1\n", path,
					  err, sizeof(err)));
	EXPECT_NE(0, stat(path, &st));
	unlink(path);
}

TEST_HARNESS_MAIN
