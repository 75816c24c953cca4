// SPDX-License-Identifier: GPL-2.0
/*
 * The rings: reading through mmap while recording, with every sequence
 * number accounted for; the read() path; a full ring's LOST records; and
 * overwrite mode keeping the newest records.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

static const unsigned int record_sizes[] = SCHEDREC_RECORD_SIZES;

FIXTURE(ring) {
	int nr_cpus;
	int fd;
	struct procfile_stats stats;
	struct sr_log log;
};

FIXTURE_SETUP(ring)
{
	self->fd = -1;
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	self->nr_cpus = sr_nr_cpus();
	ASSERT_LT(0, self->nr_cpus);
}

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

FIXTURE_TEARDOWN(ring)
{
	uint64_t online;

	/* a test that took CPU 1 offline and failed gives it back */
	if (!procfile_read_u64(CPU1_ONLINE, &online) && !online)
		procfile_write(CPU1_ONLINE, "1");
	if (self->fd >= 0)
		close(self->fd);
	procfile_stats_free(&self->stats);
	sr_log_free(&self->log);
	sr_reset();
	sr_set_buf_kb(1024);
}

/* One reader thread per CPU, draining its ring through mmap. */
struct reader {
	pthread_t thread;
	struct ringreader rr;
	struct ringreader_seq seq;
	struct sr_log log;
	int error;
	bool *stop;		/* set once recording has stopped */
};

static int reader_drain(struct reader *r)
{
	const struct schedrec_header *rec;
	uint64_t seq64;
	int64_t ret;

	ret = ringreader_begin(&r->rr);
	while (ret >= 0 && (ret = ringreader_next(&r->rr, &rec)) > 0) {
		ringreader_seq_account(&r->seq, rec, &seq64);
		ret = sr_log_add(&r->log, r->rr.cpu, seq64, rec);
	}
	ringreader_consume(&r->rr);
	return ret;
}

static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = { .fd = r->rr.fd, .events = POLLIN };
	bool last = false;

	/* after stop, one more pass sees all that was recorded */
	while (!r->error && !last) {
		last = __atomic_load_n(r->stop, __ATOMIC_ACQUIRE);
		poll(&pfd, 1, 10);
		r->error = reader_drain(r);
	}
	return NULL;
}

/* The per-CPU checks of a recording read from the start. */
static void check_cpu_records(struct __test_metadata *_metadata,
			      const struct sr_log *log, unsigned int cpu,
			      uint64_t start, uint64_t end)
{
	uint64_t last_ts = start, next_seq = 0;
	size_t i;

	for (i = 0; i < log->n; i++) {
		const struct sr_event *ev = &log->ev[i];
		const struct schedrec_header *hdr = &ev->r.hdr;

		if (ev->cpu != cpu)
			continue;
		/* events only: no LOST, and "all" has no stack */
		ASSERT_TRUE(SCHEDREC_EV_IS_EVENT(hdr->type) &&
			    hdr->type != SCHEDREC_EV_STACK)
			TH_LOG("cpu%u seq %llu: type %u", cpu,
			       (unsigned long long)ev->seq, hdr->type);
		EXPECT_EQ(record_sizes[hdr->type], hdr->size);
		EXPECT_EQ(next_seq, ev->seq) TH_LOG("cpu%u", cpu);
		next_seq = ev->seq + 1;
		EXPECT_LE(last_ts, hdr->ts)
			TH_LOG("cpu%u seq %llu goes back in time", cpu,
			       (unsigned long long)ev->seq);
		last_ts = hdr->ts;
		EXPECT_GE(end, hdr->ts);
	}
}

/*
 * A reader thread per CPU drains through mmap while a workload runs: the
 * rings are big enough, so nothing is lost and every sequence number shows
 * up once, in order, with timestamps in order and inside the recording.
 */
TEST_F(ring, mmap_stream_continuity)
{
	struct reader *readers;
	bool stop = false;
	uint64_t start, end, total = 0;
	int cpu, online = sr_nr_online_cpus();

	readers = calloc(self->nr_cpus, sizeof(*readers));
	ASSERT_NE(NULL, readers);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		ASSERT_EQ(0, ringreader_open(&readers[cpu].rr, cpu));
		ringreader_seq_init(&readers[cpu].seq, 0);
		readers[cpu].stop = &stop;
	}
	start = sr_now_ns();
	ASSERT_EQ(0, sr_enable(true));
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ASSERT_EQ(0, pthread_create(&readers[cpu].thread, NULL,
					    reader_thread, &readers[cpu]));
	ASSERT_EQ(0, sr_pingpong(300, 0, online > 1 ? 1 : 0));
	ASSERT_EQ(0, sr_pingpong(300, 0, 0));
	ASSERT_EQ(0, sr_enable(false));
	end = sr_now_ns();
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ASSERT_EQ(0, pthread_join(readers[cpu].thread, NULL));

	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		struct reader *r = &readers[cpu];

		EXPECT_EQ(0, r->error) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(0u, self->stats.cpu[cpu].lost) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(0u, r->seq.missing) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(0u, r->seq.lost) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(self->stats.cpu[cpu].written, r->log.n)
			TH_LOG("cpu%d", cpu);
		/* everything was consumed */
		EXPECT_EQ(self->stats.cpu[cpu].head,
			  self->stats.cpu[cpu].tail);
		check_cpu_records(_metadata, &r->log, cpu, start, end);
		total += r->log.n;
	}
	/* two switches and two wakeups per round at least */
	EXPECT_LE(600u * 4, total);
	TH_LOG("%llu records read while recording",
	       (unsigned long long)total);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		sr_log_free(&readers[cpu].log);
		ringreader_close(&readers[cpu].rr);
	}
	free(readers);
}

/* Enabling starts again from zero: positions, numbers, counters. */
TEST_F(ring, enable_resets_rings)
{
	struct ringreader_seq *seqs;
	uint64_t second;
	size_t i;
	int cpu;

	seqs = calloc(self->nr_cpus, sizeof(*seqs));
	ASSERT_NE(NULL, seqs);
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ringreader_seq_init(&seqs[cpu], 0);
	ASSERT_EQ(0, procfile_write("events", "switch"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(50, 0, 0));
	ASSERT_EQ(0, sr_enable(false));
	/* not drained: the second recording must not see any of it */
	second = sr_now_ns();
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(5, 0, 0));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, sr_drain_all(&self->log, seqs, self->nr_cpus));
	ASSERT_LT(0u, self->log.n);
	for (i = 0; i < self->log.n; i++)
		EXPECT_LE(second, self->log.ev[i].r.hdr.ts);
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(0u, seqs[cpu].missing);
		EXPECT_EQ(self->stats.cpu[cpu].written, seqs[cpu].records);
	}
	free(seqs);
}

/* Parse a read() buffer: whole records, numbered in order from *next. */
static void check_read_buffer(struct __test_metadata *_metadata,
			      const unsigned char *buf, ssize_t len,
			      uint64_t *next, uint64_t *records)
{
	ssize_t off = 0;

	while (off < len) {
		const struct schedrec_header *hdr = (const void *)(buf + off);

		ASSERT_LE((ssize_t)sizeof(*hdr), len - off);
		ASSERT_TRUE(SCHEDREC_EV_IS_EVENT(hdr->type) &&
			    hdr->type != SCHEDREC_EV_STACK);
		ASSERT_EQ(record_sizes[hdr->type], hdr->size);
		ASSERT_LE(hdr->size, len - off) TH_LOG("a record split by read");
		EXPECT_EQ((uint32_t)*next, hdr->seq);
		*next = ringreader_seq_extend(*next, hdr->seq) + 1;
		(*records)++;
		off += hdr->size;
	}
}

/*
 * read() returns whole records only, in order, whatever the size of a
 * buffer that holds the largest (48 bytes: no STACK here); after disable
 * it drains what is left, then returns 0 for good.  Which record comes
 * next is the scheduler's choice: a buffer too small for some records is
 * read_small_buffer's case, with a record size it knows.
 */
TEST_F(ring, read_whole_records)
{
	static const size_t sizes[] = { 1000, 49, 48, 63, 4096, 100 };
	unsigned char buf[4096];
	uint64_t next = 0, records = 0;
	unsigned int i;
	ssize_t len;

	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(100, 0, 0));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		len = read(self->fd, buf, sizes[i]);
		ASSERT_LT(0, len) TH_LOG("read of %zu: %s", sizes[i],
					 strerror(errno));
		ASSERT_GE((ssize_t)sizes[i], len);
		/* filled up to less than a record's room */
		EXPECT_LT((ssize_t)sizes[i] - 48, len);
		check_read_buffer(_metadata, buf, len, &next, &records);
	}
	ASSERT_EQ(0, sr_enable(false));
	while ((len = read(self->fd, buf, sizeof(buf))) > 0)
		check_read_buffer(_metadata, buf, len, &next, &records);
	EXPECT_EQ(0, len) TH_LOG("read after disable: %s", strerror(errno));
	/* the end stays the end, blocking or not */
	EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, 0));
	EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	EXPECT_EQ(0u, self->stats.cpu[0].lost);
	EXPECT_EQ(self->stats.cpu[0].written, records);
	EXPECT_LE(200u, records);
}

/* A buffer smaller than the next record gets EINVAL and consumes nothing. */
TEST_F(ring, read_small_buffer)
{
	const union sr_record *rec;
	unsigned char buf[64];
	char comm[SCHEDREC_COMM_LEN + 1];
	bool found = false;
	ssize_t len;

	ASSERT_EQ(0, sr_pin_self(0));
	ASSERT_EQ(0, procfile_write("events", "rename"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "srec-small"));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(-1, read(self->fd, buf, 8));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, read(self->fd, buf, 47));
	EXPECT_EQ(EINVAL, errno);
	/* ours is there, maybe after a kernel thread's rename */
	while (!found && (len = read(self->fd, buf, 48)) > 0) {
		rec = (const void *)buf;
		ASSERT_EQ(48, len);
		ASSERT_EQ(SCHEDREC_EV_RENAME, rec->hdr.type);
		sr_comm(comm, rec->task.comm);
		found = rec->task.tid == (uint32_t)gettid() &&
			!strcmp(comm, "srec-small");
	}
	EXPECT_TRUE(found);
}

/*
 * Nothing to read: O_NONBLOCK gets EAGAIN and poll() says nothing; once
 * recording stops it is the end of the file.
 */
TEST_F(ring, read_empty)
{
	struct pollfd pfd = { .events = POLLIN };
	char buf[64];

	ASSERT_EQ(0, procfile_write("events", "none"));
	ASSERT_EQ(0, sr_enable(true));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EAGAIN, errno);
	pfd.fd = self->fd;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, sr_enable(false));
	EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLHUP, pfd.revents);
}

struct blocked_read {
	int fd;
	pid_t tid;
	ssize_t ret;
	int error;
	bool done;
};

static void *blocked_read_thread(void *arg)
{
	struct blocked_read *b = arg;
	char buf[64];

	__atomic_store_n(&b->tid, gettid(), __ATOMIC_RELEASE);
	b->ret = read(b->fd, buf, sizeof(buf));
	b->error = errno;
	__atomic_store_n(&b->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* A read() blocked on an empty ring returns 0 when recording stops. */
TEST_F(ring, blocked_read_woken_by_disable)
{
	struct blocked_read b = { .ret = -2 };
	pthread_t thread;
	int waited;

	ASSERT_EQ(0, procfile_write("events", "none"));
	ASSERT_EQ(0, sr_enable(true));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);
	ASSERT_LE(0, self->fd);
	b.fd = self->fd;
	ASSERT_EQ(0, pthread_create(&thread, NULL, blocked_read_thread, &b));
	for (waited = 0; !__atomic_load_n(&b.tid, __ATOMIC_ACQUIRE) &&
	     waited < 5000; waited++)
		usleep(1000);
	ASSERT_EQ(0, sr_wait_task_state(b.tid, 'S', 10000));
	EXPECT_FALSE(__atomic_load_n(&b.done, __ATOMIC_ACQUIRE));
	ASSERT_EQ(0, sr_enable(false));
	for (waited = 0; !__atomic_load_n(&b.done, __ATOMIC_ACQUIRE) &&
	     waited < 10000; waited++)
		usleep(1000);
	ASSERT_TRUE(__atomic_load_n(&b.done, __ATOMIC_ACQUIRE))
		TH_LOG("read() still blocked after disable");
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(0, b.ret) TH_LOG("read: %s", strerror(b.error));
}

struct poller {
	int fd;
	int ret;
	short revents;
};

static void *poll_thread(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };

	p->ret = poll(&pfd, 1, 20000);
	p->revents = pfd.revents;
	return NULL;
}

/* poll() wakes up once a ring is a quarter full, without any disable. */
TEST_F(ring, poll_quarter_full)
{
	struct poller p = { .ret = -2 };
	pthread_t thread;

	ASSERT_EQ(0, sr_set_buf_kb(4));
	ASSERT_EQ(0, procfile_write("events", "switch"));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);
	ASSERT_LE(0, self->fd);
	p.fd = self->fd;
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, pthread_create(&thread, NULL, poll_thread, &p));
	/* 4 switches a round on CPU 0: 1 KiB is 32 records */
	ASSERT_EQ(0, sr_pingpong(100, 0, 0));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(1, p.ret);
	EXPECT_TRUE(p.revents & POLLIN);
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	EXPECT_TRUE(self->stats.enabled);
	EXPECT_LE(1024u, self->stats.cpu[0].head - self->stats.cpu[0].tail);
}

/*
 * A CPU that goes offline keeps its ring, readable and whole; once back
 * online it records again.
 */
TEST_F(ring, offline_cpu_keeps_its_ring)
{
	struct ringreader_seq *seqs;
	uint64_t online, on_cpu1 = 0;
	size_t i;
	int cpu;

	if (sr_nr_online_cpus() < 2 || sr_nr_cpus() < 2)
		SKIP(return, "needs two CPUs");
	if (procfile_read_u64(CPU1_ONLINE, &online) || !online)
		SKIP(return, "no " CPU1_ONLINE " to take CPU 1 offline");
	seqs = calloc(self->nr_cpus, sizeof(*seqs));
	ASSERT_NE(NULL, seqs);
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ringreader_seq_init(&seqs[cpu], 0);
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(50, 1, 1));
	ASSERT_EQ(0, procfile_write(CPU1_ONLINE, "0"));
	ASSERT_EQ(0, sr_pingpong(20, 0, 0));
	ASSERT_EQ(0, sr_enable(false));

	ASSERT_EQ(0, sr_drain_all(&self->log, seqs, self->nr_cpus));
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(0u, seqs[cpu].missing) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(0u, self->stats.cpu[cpu].lost) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(self->stats.cpu[cpu].written, seqs[cpu].records)
			TH_LOG("cpu%d", cpu);
	}
	EXPECT_LE(200u, self->stats.cpu[1].written);

	/* back online, it records again */
	ASSERT_EQ(0, procfile_write(CPU1_ONLINE, "1"));
	sr_log_free(&self->log);
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(10, 1, 1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, sr_drain_all(&self->log, NULL, self->nr_cpus));
	for (i = 0; i < self->log.n; i++)
		on_cpu1 += self->log.ev[i].cpu == 1;
	EXPECT_LE(40u, on_cpu1);
	free(seqs);
}

/* Make every online CPU run a little: a few switches on each. */
static void visit_cpus(int online)
{
	int cpu, i;

	for (cpu = 0; cpu < online; cpu++) {
		if (sr_pin_self(cpu))
			continue;
		for (i = 0; i < 4; i++)
			usleep(100);
	}
}

/*
 * The smallest ring and no reader: events are dropped and counted, and as
 * soon as there is room a LOST record says how many, covering exactly the
 * gap in the sequence before it.  After the end, the LOST counts add up to
 * the lost counter of stats.
 */
TEST_F(ring, overflow_lost_records)
{
	struct ringreader *readers;
	struct ringreader_seq *seqs;
	uint64_t lost_total = 0, lost_records = 0, seq64;
	const struct sr_event **last;
	int cpu, pass, online = sr_nr_online_cpus();
	size_t i;

	ASSERT_EQ(0, sr_module_reload("buf_kb=4"));
	ASSERT_EQ(0, procfile_write("events", "switch"));
	readers = calloc(self->nr_cpus, sizeof(*readers));
	seqs = calloc(self->nr_cpus, sizeof(*seqs));
	last = calloc(self->nr_cpus, sizeof(*last));
	ASSERT_NE(NULL, readers);
	ASSERT_NE(NULL, seqs);
	ASSERT_NE(NULL, last);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		ASSERT_EQ(0, ringreader_open(&readers[cpu], cpu));
		EXPECT_EQ(4096u, readers[cpu].data_size);
		ringreader_seq_init(&seqs[cpu], 0);
	}
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(300, 0, online > 1 ? 1 : 0));
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		lost_total += self->stats.cpu[cpu].lost;
	procfile_stats_free(&self->stats);
	ASSERT_LT(0u, lost_total) TH_LOG("a 4 KiB ring did not overflow");

	/*
	 * Drain, let every CPU run so that it writes the LOST record it owes,
	 * drain again, stop, drain the rest.
	 */
	for (pass = 0; pass < 3; pass++) {
		if (pass == 1)
			visit_cpus(online);
		if (pass == 2)
			ASSERT_EQ(0, sr_enable(false));
		for (cpu = 0; cpu < self->nr_cpus; cpu++) {
			const struct schedrec_header *rec;
			int64_t ret = ringreader_begin(&readers[cpu]);

			ASSERT_LE(0, ret);
			while ((ret = ringreader_next(&readers[cpu], &rec)) > 0) {
				ringreader_seq_account(&seqs[cpu], rec, &seq64);
				ASSERT_EQ(0, sr_log_add(&self->log, cpu, seq64,
							rec));
			}
			ASSERT_EQ(0, ret);
			ringreader_consume(&readers[cpu]);
		}
	}

	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		const struct procfile_cpu_stats *st = &self->stats.cpu[cpu];

		/* every gap is explained by the LOST record after it */
		EXPECT_EQ(0u, seqs[cpu].missing) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(st->lost, seqs[cpu].lost) TH_LOG("cpu%d", cpu);
		/* every number was taken by an event or a LOST record */
		EXPECT_EQ(seqs[cpu].next, st->written + st->lost +
			  (seqs[cpu].records - st->written))
			TH_LOG("cpu%d", cpu);
		EXPECT_EQ(st->head, st->tail);
	}
	for (i = 0; i < self->log.n; i++) {
		const struct sr_event *ev = &self->log.ev[i];
		const struct sr_event *prev = last[ev->cpu];

		last[ev->cpu] = ev;
		if (ev->r.hdr.type != SCHEDREC_REC_LOST)
			continue;
		lost_records++;
		EXPECT_LT(0u, ev->r.lost.count);
		EXPECT_EQ(ev->r.lost.count, ev->seq - (prev ? prev->seq + 1 : 0))
			TH_LOG("cpu%u LOST seq %llu", ev->cpu,
			       (unsigned long long)ev->seq);
		EXPECT_LE(prev ? prev->r.hdr.ts : 0, ev->r.lost.first_ts);
		EXPECT_LE(ev->r.lost.first_ts, ev->r.lost.last_ts);
		EXPECT_LE(ev->r.lost.last_ts, ev->r.hdr.ts);
	}
	EXPECT_LT(0u, lost_records);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		TH_LOG("cpu%d: %llu records, %llu lost, %llu LOST records",
		       cpu, (unsigned long long)seqs[cpu].records,
		       (unsigned long long)seqs[cpu].lost,
		       (unsigned long long)(seqs[cpu].records -
					    self->stats.cpu[cpu].written));
		ringreader_close(&readers[cpu]);
	}
	free(readers);
	free(seqs);
	free(last);
}

/*
 * Overwrite mode keeps the newest records: after a workload much bigger
 * than the ring, what is left is the end of the sequence, complete.
 * read() refuses while recording (the data moves) and works after.
 */
/*
 * Drain every ring through @readers: the events LOST records count are
 * added to @lost[cpu]; returns the records read, or -1.
 */
static int64_t drain_counting_lost(struct ringreader *readers, int nr_cpus,
				   uint64_t *lost)
{
	const struct schedrec_header *rec;
	int64_t ret, records = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (ringreader_begin(&readers[cpu]) < 0)
			return -1;
		while ((ret = ringreader_next(&readers[cpu], &rec)) > 0) {
			if (rec->type == SCHEDREC_REC_LOST)
				lost[cpu] += ((const struct schedrec_lost *)
					      rec)->count;
			records++;
		}
		if (ret < 0)
			return -1;
		ringreader_consume(&readers[cpu]);
	}
	return records;
}

/*
 * A ring still full when recording stops has no room for the LOST record
 * it owes: once a reader has emptied it, writing 0 to enable again writes
 * it, and then every lost event is counted by a LOST record; a third 0
 * writes nothing more.
 */
TEST_F(ring, owed_lost_written_by_second_stop)
{
	struct ringreader *readers;
	uint64_t *lost, kernel_lost = 0, counted = 0, after_first = 0;
	int cpu, online = sr_nr_online_cpus();

	ASSERT_EQ(0, sr_module_reload("buf_kb=4"));
	ASSERT_EQ(0, procfile_write("events", "switch"));
	readers = calloc(self->nr_cpus, sizeof(*readers));
	lost = calloc(self->nr_cpus, sizeof(*lost));
	ASSERT_NE(NULL, readers);
	ASSERT_NE(NULL, lost);
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ASSERT_EQ(0, ringreader_open(&readers[cpu], cpu));
	ASSERT_EQ(0, sr_enable(true));
	/* nobody reads: the rings fill and stay full until the stop */
	ASSERT_EQ(0, sr_pingpong(300, 0, online > 1 ? 1 : 0));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		kernel_lost += self->stats.cpu[cpu].lost;
	ASSERT_LT(0u, kernel_lost) TH_LOG("a 4 KiB ring did not overflow");

	ASSERT_LE(0, drain_counting_lost(readers, self->nr_cpus, lost));
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		after_first += lost[cpu];
	EXPECT_GT(kernel_lost, after_first)
		TH_LOG("no LOST record was owed at the stop");

	ASSERT_EQ(0, procfile_write("enable", "0"));
	EXPECT_LT(0, drain_counting_lost(readers, self->nr_cpus, lost));
	ASSERT_EQ(0, procfile_write("enable", "0"));
	EXPECT_EQ(0, drain_counting_lost(readers, self->nr_cpus, lost));

	procfile_stats_free(&self->stats);
	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(self->stats.cpu[cpu].lost, lost[cpu])
			TH_LOG("cpu%d", cpu);
		counted += lost[cpu];
		ringreader_close(&readers[cpu]);
	}
	EXPECT_EQ(kernel_lost, counted);
	free(readers);
	free(lost);
}

TEST_F(ring, overwrite_keeps_newest)
{
	const struct schedrec_header *rec;
	struct ringreader rr;
	struct ringreader_seq seq;
	uint64_t first = 0, last = 0, seq64, kept = 0;
	unsigned char buf[64];
	const struct procfile_cpu_stats *st;
	ssize_t len;

	ASSERT_EQ(0, sr_set_buf_kb(4));
	ASSERT_EQ(0, procfile_write("mode", "overwrite"));
	ASSERT_EQ(0, procfile_write("events", "switch"));
	ASSERT_EQ(0, sr_enable(true));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, sr_pingpong(300, 0, 0));
	ASSERT_EQ(0, sr_enable(false));
	close(self->fd);
	self->fd = -1;

	ASSERT_EQ(0, procfile_stats_read(&self->stats));
	st = &self->stats.cpu[0];
	ASSERT_LT(128u, st->written) TH_LOG("too few switches on CPU 0");
	EXPECT_LT(0u, st->overwritten);
	EXPECT_EQ(0u, st->lost);

	ASSERT_EQ(0, ringreader_open(&rr, 0));
	ASSERT_LE(0, ringreader_begin(&rr));
	EXPECT_GE(4096u, rr.head - rr.pos);
	ringreader_seq_init(&seq, RINGREADER_SEQ_ANY);
	while (ringreader_next(&rr, &rec) > 0) {
		EXPECT_EQ(SCHEDREC_EV_SWITCH, rec->type);
		ringreader_seq_account(&seq, rec, &seq64);
		if (!kept++)
			first = seq64;
		last = seq64;
	}
	EXPECT_EQ(rr.pos, rr.head);
	EXPECT_EQ(0u, seq.missing);
	EXPECT_LT(0u, first);
	EXPECT_EQ(st->written - 1, last);
	EXPECT_EQ(st->written - st->overwritten, kept);
	/* the 4 KiB hold 128 switch records, less one for the PAD */
	EXPECT_LE(127u, kept);
	TH_LOG("cpu0: kept seq %llu..%llu of %llu written",
	       (unsigned long long)first, (unsigned long long)last,
	       (unsigned long long)st->written);
	ringreader_close(&rr);

	/* read() starts at the oldest record kept, too */
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	len = read(self->fd, buf, sizeof(struct schedrec_switch));
	ASSERT_EQ(32, len) TH_LOG("read: %s", strerror(errno));
	EXPECT_EQ((uint32_t)first, ((struct schedrec_header *)buf)->seq);
}

TEST_HARNESS_MAIN
