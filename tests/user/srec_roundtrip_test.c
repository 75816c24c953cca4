// SPDX-License-Identifier: GPL-2.0
/*
 * The .srec writer and reader together: synthetic recordings of several
 * CPUs with records of every type, written raw and with zlib, to a file
 * and through a pipe, read back merged by time and compared record by
 * record, also in batches; the header's fields; the merge's memory bound
 * with and without SYNC, its order among equal times and in runs of one
 * CPU's records; chunk splitting; a mapped file cut short or written over
 * while it is read.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srec_util.h"

FIXTURE(trip) {
	struct synth synth;
	struct bytes file;
	struct expected_list got;
	struct diag_log log;
	struct srecreader_options opt;
	struct srecreader *r;
	char err[512];
};

FIXTURE_VARIANT(trip) {
	int zlib_level;
	unsigned int nr_cpus;
};

FIXTURE_VARIANT_ADD(trip, raw) {
	.zlib_level = 0,
	.nr_cpus = 4,
};

FIXTURE_VARIANT_ADD(trip, zlib) {
	.zlib_level = 6,
	.nr_cpus = 4,
};

/* more CPUs than the reader scans: it merges them with a heap */
FIXTURE_VARIANT_ADD(trip, many_cpus) {
	.zlib_level = 0,
	.nr_cpus = 12,
};

FIXTURE_SETUP(trip)
{
	memset(self, 0, sizeof(*self));
	synth_init(&self->synth, variant->nr_cpus, 7);
	self->opt.diag = diag_collect;
	self->opt.diag_arg = &self->log;
}

FIXTURE_TEARDOWN(trip)
{
	srecreader_close(self->r);
	expected_free(&self->got);
	bytes_free(&self->file);
	synth_free(&self->synth);
}

/* Every section is where the format says, chunks compressed as asked. */
static void count_chunks(const struct bytes *file, unsigned int *raw,
			 unsigned int *zlib)
{
	static struct section sections[4096];
	size_t i, n = walk_sections(file->data, file->len, sections, 4096);

	*raw = *zlib = 0;
	for (i = 0; i < n; i++) {
		if (sections[i].type != SREC_SEC_CHUNK)
			continue;
		if (sections[i].chunk_flags & SREC_CHUNK_ZLIB)
			(*zlib)++;
		else
			(*raw)++;
	}
}

TEST_F(trip, file)
{
	const struct srecreader_status *status;
	const struct srec_cpu_total *totals;
	uint64_t lost = 0, records = 0;
	unsigned int raw, zlib, cpu;
	size_t i;

	ASSERT_EQ(0u, synth_to_bytes(&self->synth, &self->file,
				    variant->zlib_level, 40, 500));
	count_chunks(&self->file, &raw, &zlib);
	/* zlib chunks if and only if asked for */
	EXPECT_EQ(variant->zlib_level != 0, zlib != 0);
	EXPECT_LT(100u, raw + zlib);

	self->r = open_bytes(self->file.data, self->file.len, &self->opt,
			     self->err, sizeof(self->err));
	ASSERT_NE(NULL, self->r) TH_LOG("%s", self->err);
	ASSERT_EQ(0u, read_all(self->r, &self->got));
	ASSERT_EQ(self->synth.expected.count, self->got.count);
	ASSERT_TRUE(same_records(&self->synth.expected, &self->got));
	for (i = 1; i < self->got.count; i++) {
		const struct expected_record *recs = self->got.records;
		const struct schedrec_header *a = (void *)recs[i - 1].rec;
		const struct schedrec_header *b = (void *)recs[i].rec;

		ASSERT_LT(a->ts, b->ts);
	}
	EXPECT_EQ(0u, self->log.warnings) TH_LOG("%s", self->log.text);

	status = srecreader_status(self->r);
	EXPECT_TRUE(status->trailer);
	EXPECT_FALSE(status->truncated);
	EXPECT_EQ(0u, status->corrupt);
	EXPECT_EQ(raw + zlib, status->chunks);
	EXPECT_EQ(self->file.len, status->offset);
	ASSERT_NE(NULL, srecreader_trailer(self->r, &totals));
	for (cpu = 0; cpu < variant->nr_cpus; cpu++) {
		const struct srecreader_cpu *s = srecreader_cpu(self->r, cpu);

		EXPECT_EQ(totals[cpu].records, s->records);
		EXPECT_EQ(totals[cpu].lost, s->lost);
		EXPECT_EQ(0u, s->gaps);
		EXPECT_EQ(0u, s->late);
		EXPECT_EQ(self->synth.cpu[cpu].seq, totals[cpu].kernel_written);
		EXPECT_EQ(self->synth.cpu[cpu].seq, s->records + s->lost);
		records += s->records;
		lost += s->lost;
	}
	EXPECT_EQ(self->got.count, records);
	EXPECT_LT(0u, lost);
	EXPECT_EQ(NULL, srecreader_cpu(self->r, variant->nr_cpus));
}

/*
 * Records read in batches are the same, each batch's records still intact
 * when the call has returned, and batches do hold several records.
 */
TEST_F(trip, batches)
{
	static const unsigned int sizes[] = { 1, 2, 7, READ_BATCH_MAX };
	unsigned int s, calls;
	size_t i;

	ASSERT_EQ(0u, synth_to_bytes(&self->synth, &self->file,
				    variant->zlib_level, 40, 500));
	/* one at a time, for where each record came from */
	self->r = open_bytes(self->file.data, self->file.len, &self->opt,
			     self->err, sizeof(self->err));
	ASSERT_NE(NULL, self->r) TH_LOG("%s", self->err);
	ASSERT_EQ(0, read_all(self->r, &self->got));
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		struct expected_list got = { 0 };
		struct srecreader *r;

		r = open_bytes(self->file.data, self->file.len, &self->opt,
			       self->err, sizeof(self->err));
		ASSERT_NE(NULL, r) TH_LOG("%s", self->err);
		EXPECT_EQ(0, read_batches(r, &got, sizes[s], &calls));
		srecreader_close(r);
		EXPECT_TRUE(same_records(&self->synth.expected, &got))
			TH_LOG("batches of %u", sizes[s]);
		ASSERT_EQ(self->got.count, got.count);
		for (i = 0; i < got.count; i++)
			ASSERT_EQ(self->got.records[i].chunk_offset,
				  got.records[i].chunk_offset);
		/* batches end at a chunk's end, not much sooner */
		if (sizes[s] == READ_BATCH_MAX)
			EXPECT_GT(got.count / 8, calls)
				TH_LOG("%u calls for %zu records", calls,
				       got.count);
		expected_free(&got);
	}
	EXPECT_EQ(0u, self->log.warnings) TH_LOG("%s", self->log.text);
}

/* The writer on one end of a pipe, the reader on the other: no seeking. */
TEST_F(trip, pipe)
{
	struct synth twin;
	int fds[2], status;
	pid_t child;

	/* the child writes what this twin generator predicts */
	synth_init(&twin, variant->nr_cpus, 7);
	ASSERT_EQ(0u, synth_to_bytes(&twin, &self->file, variant->zlib_level,
				    30, 400));
	ASSERT_LT(65536u, self->file.len);
	ASSERT_EQ(0u, pipe(fds));
	child = fork();
	ASSERT_LE(0u, child);
	if (!child) {
		close(fds[0]);
		_exit(synth_write(&self->synth, fds[1], variant->zlib_level,
				  30, 400) ? 1 : 0);
	}
	close(fds[1]);
	self->r = srecreader_open_fd(fds[0], &self->opt, self->err,
				     sizeof(self->err));
	ASSERT_NE(NULL, self->r) TH_LOG("%s", self->err);
	EXPECT_EQ(0u, read_all(self->r, &self->got));
	close(fds[0]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0u, status);
	EXPECT_TRUE(same_records(&twin.expected, &self->got));
	EXPECT_EQ(0u, self->log.warnings) TH_LOG("%s", self->log.text);
	EXPECT_EQ(self->file.len, srecreader_status(self->r)->offset);
	synth_free(&twin);
}

/* "-" reads standard input. */
TEST_F(trip, stdin)
{
	int fds[2];

	ASSERT_EQ(0u, synth_to_bytes(&self->synth, &self->file,
				    variant->zlib_level, 5, 100));
	ASSERT_LT(self->file.len, 65536);
	ASSERT_EQ(0u, pipe(fds));
	ASSERT_EQ((ssize_t)self->file.len,
		  write(fds[1], self->file.data, self->file.len));
	close(fds[1]);
	ASSERT_EQ(0u, dup2(fds[0], STDIN_FILENO));
	close(fds[0]);
	self->r = srecreader_open("-", &self->opt, self->err,
				  sizeof(self->err));
	ASSERT_NE(NULL, self->r) TH_LOG("%s", self->err);
	EXPECT_EQ(0u, read_all(self->r, &self->got));
	EXPECT_TRUE(same_records(&self->synth.expected, &self->got));
}

/*
 * With SYNC, the reader holds a few rounds of data, not the file: here
 * 200 rounds of about 10 KiB, and never more than 4 rounds' worth held.
 */
TEST_F(trip, memory_bound)
{
	const struct srecreader_status *status;
	const unsigned int per_round = 300;

	ASSERT_EQ(0u, synth_to_bytes(&self->synth, &self->file,
				    variant->zlib_level, 200, per_round));
	self->r = open_bytes(self->file.data, self->file.len, &self->opt,
			     self->err, sizeof(self->err));
	ASSERT_NE(NULL, self->r) TH_LOG("%s", self->err);
	ASSERT_EQ(0u, read_all(self->r, &self->got));
	ASSERT_TRUE(same_records(&self->synth.expected, &self->got));
	status = srecreader_status(self->r);
	EXPECT_LT(0u, status->buffered_peak);
	EXPECT_GE(4 * per_round * 48, status->buffered_peak);
}

TEST(header_fields)
{
	const struct srecreader_info *info;
	const struct srec_thread *thread;
	const struct srec_event *ev;
	struct srecreader *r;
	struct synth synth;
	struct bytes file = { 0 };
	char err[256];

	synth_init(&synth, 4, 3);
	ASSERT_EQ(0u, synth_to_bytes(&synth, &file, 0, 1, 10));
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	info = srecreader_info(r);
	EXPECT_EQ(SREC_FORMAT_MAJOR, info->file.major);
	EXPECT_EQ(SREC_FORMAT_MINOR, info->file.minor);
	EXPECT_EQ(SCHEDREC_ABI_VERSION, info->file.abi_version);
	EXPECT_EQ(4u, info->file.nr_cpus);
	EXPECT_EQ(1u, info->file.clock_id);
	EXPECT_EQ(999000000ull, info->file.start_mono_ns);
	EXPECT_EQ(1700000000000000000ull, info->file.start_real_ns);
	EXPECT_EQ(SRECWRITER_CHUNK_DEFAULT, info->file.chunk_max);
	EXPECT_EQ(1u, info->file.drainer_cpu);
	EXPECT_EQ(4242u, info->file.drainer_pid);
	EXPECT_EQ(4243u, info->file.drainer_tid);
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK, info->file.event_mask);
	EXPECT_EQ(512u, info->file.buf_kb);
	EXPECT_EQ(SREC_FILE_F_FROM_START, info->file.flags);
	EXPECT_STREQ("6.1.0-test-amd64", info->release);
	EXPECT_STREQ("#1 SMP PREEMPT_DYNAMIC Debian", info->version);
	EXPECT_STREQ("x86_64", info->machine);
	EXPECT_STREQ("testhost", info->hostname);
	EXPECT_STREQ("0-3", info->online);
	EXPECT_STREQ("schedrec record -C 1 -o test.srec", info->cmdline);
	EXPECT_STREQ("", info->filter);
	EXPECT_TRUE(srecreader_cpu_online(r, 3));
	EXPECT_FALSE(srecreader_cpu_online(r, 4));

	/* the event table is the ABI's */
	EXPECT_EQ(SCHEDREC_REC_MAX, info->nr_events);
	ev = srecreader_event(r, SCHEDREC_EV_SWITCH);
	ASSERT_NE(NULL, ev);
	EXPECT_STREQ("switch", ev->name);
	EXPECT_STREQ("sched_switch", ev->tracepoint);
	EXPECT_EQ(sizeof(struct schedrec_switch), ev->size);
	EXPECT_EQ(SREC_EVENT_F_ENABLED, ev->flags);
	ev = srecreader_event(r, SCHEDREC_REC_LOST);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(sizeof(struct schedrec_lost), ev->size);
	EXPECT_EQ(0u, ev->flags);
	ev = srecreader_event(r, SCHEDREC_REC_PAD);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(0u, ev->size);
	EXPECT_EQ(NULL, srecreader_event(r, 0));
	EXPECT_EQ(NULL, srecreader_event(r, 200));

	EXPECT_EQ(3u, info->nr_threads);
	thread = srecreader_thread(r, 43);
	ASSERT_NE(NULL, thread);
	EXPECT_EQ(42u, thread->tgid);
	EXPECT_STREQ("server-worker", thread->comm);
	EXPECT_EQ(NULL, srecreader_thread(r, 44));
	srecreader_close(r);
	bytes_free(&file);
	synth_free(&synth);
}

/*
 * Appends longer than chunk_max become several chunks, each within it,
 * and read back whole.
 */
TEST(chunk_split)
{
	struct srecwriter_options opt = {
		.nr_cpus = 2,
		.chunk_max = SREC_CHUNK_MIN,
	};
	struct srecwriter_trailer trailer = { 0 };
	struct expected_list got = { 0 };
	static struct section sections[64];
	struct srecwriter_header hdr;
	struct bytes file = { 0 };
	struct srecwriter *w;
	struct srecreader *r;
	struct synth synth;
	unsigned int chunks = 0;
	char err[256];
	size_t i, n;
	int fd;

	synth_init(&synth, 2, 11);
	synth_events(&synth, 20000);
	ASSERT_LT(4 * SREC_CHUNK_MIN, synth.cpu[0].pending.len);
	fd = memfd_create("srec", 0);
	ASSERT_LE(0u, fd);
	ASSERT_EQ(0u, srecwriter_open(&w, fd, &opt));
	test_header(&hdr);
	ASSERT_EQ(0u, srecwriter_write_header(w, &hdr));
	ASSERT_EQ(0u, synth_flush(&synth, w));
	ASSERT_EQ(0u, srecwriter_write_trailer(w, &trailer));
	srecwriter_close(w);
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		unsigned char buf[4096];
		ssize_t done = read(fd, buf, sizeof(buf));

		if (done <= 0)
			break;
		bytes_add(&file, buf, done);
	}
	close(fd);
	n = walk_sections(file.data, file.len, sections, 64);
	for (i = 0; i < n; i++) {
		struct srec_chunk_head head;

		if (sections[i].type != SREC_SEC_CHUNK)
			continue;
		memcpy(&head, file.data + sections[i].offset +
		       sizeof(struct srec_frame), sizeof(head));
		EXPECT_GE(SREC_CHUNK_MIN, head.raw_len);
		chunks++;
	}
	EXPECT_LE(10u, chunks);
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(0u, read_all(r, &got));
	EXPECT_TRUE(same_records(&synth.expected, &got));
	EXPECT_EQ(0u, srecreader_status(r)->warnings);
	srecreader_close(r);
	expected_free(&got);
	bytes_free(&file);
	synth_free(&synth);
}

/*
 * Without SYNC the reader holds everything up to its limit: with the
 * default it still merges a whole small file exactly; with a limit
 * smaller than one CPU's data it hands records out early, counts the
 * late ones and says so, and loses none.
 */
static void write_cpu_by_cpu(struct synth *synth, struct bytes *file)
{
	struct srecwriter_options opt = {
		.nr_cpus = 2,
		.chunk_max = SREC_CHUNK_MIN,
	};
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_header hdr;
	struct srecwriter *w;
	unsigned int cpu;
	int fd = memfd_create("srec", 0);

	if (fd < 0 || srecwriter_open(&w, fd, &opt))
		abort();
	test_header(&hdr);
	srecwriter_write_header(w, &hdr);
	synth_events(synth, 20000);
	for (cpu = 0; cpu < 2; cpu++)
		srecwriter_append(w, cpu, synth->cpu[cpu].pending.data,
				  synth->cpu[cpu].pending.len);
	if (srecwriter_write_trailer(w, &trailer))
		abort();
	srecwriter_close(w);
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		unsigned char buf[4096];
		ssize_t done = read(fd, buf, sizeof(buf));

		if (done <= 0)
			break;
		bytes_add(file, buf, done);
	}
	close(fd);
}

TEST(merge_without_sync)
{
	struct srecreader_options opt = { .diag = diag_collect };
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct bytes file = { 0 };
	const struct srecreader_cpu *c0, *c1;
	struct srecreader *r;
	struct synth synth;
	char err[256];

	synth_init(&synth, 2, 5);
	write_cpu_by_cpu(&synth, &file);
	opt.diag_arg = &log;
	r = open_bytes(file.data, file.len, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(0u, read_all(r, &got));
	EXPECT_TRUE(same_records(&synth.expected, &got));
	EXPECT_EQ(0u, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&got);

	opt.max_buffered = 1;	/* raised to two chunks */
	r = open_bytes(file.data, file.len, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(0u, read_all(r, &got));
	EXPECT_EQ(synth.expected.count, got.count);
	c0 = srecreader_cpu(r, 0);
	c1 = srecreader_cpu(r, 1);
	EXPECT_LT(0u, c0->late + c1->late);
	EXPECT_EQ(synth.expected.count, c0->records + c1->records);
	EXPECT_GE(2 * SREC_CHUNK_MIN + SREC_CHUNK_MIN,
		  srecreader_status(r)->buffered_peak);
	EXPECT_TRUE(diag_says(&log, "out of time order")) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&got);
	bytes_free(&file);
	synth_free(&synth);
}

/*
 * Records of the same time go out CPU by CPU, first CPU first, with few
 * CPUs (scanned) and many (a heap); also at the greatest time there is,
 * which the scan also gives the CPUs that have no record.
 */
TEST(merge_ties)
{
	static const unsigned int cpu_counts[] = { 2, 3, 4, 7, 8, 12 };
	unsigned int k, cpu, i;

	for (k = 0; k < ARRAY_SIZE(cpu_counts); k++) {
		unsigned int nr = cpu_counts[k];
		struct srecreader_options opt = { .diag = diag_collect };
		struct expected_list got = { 0 };
		struct diag_log log = { 0 };
		struct bytes file = { 0 };
		struct srecreader *r;
		char err[256];

		opt.diag_arg = &log;
		put_header(&file, nr, 0);
		/* the file has them last CPU first */
		for (cpu = nr; cpu-- > 0;)
			put_switches(&file, cpu, 0, 1, 5000);
		put_switches(&file, nr - 1, 1, 1, UINT64_MAX);
		put_switches(&file, nr - 2, 1, 1, UINT64_MAX);
		r = open_bytes(file.data, file.len, &opt, err, sizeof(err));
		ASSERT_NE(NULL, r) TH_LOG("%s", err);
		EXPECT_EQ(0, read_all(r, &got));
		ASSERT_EQ(nr + 2, got.count);
		for (i = 0; i < nr; i++)
			EXPECT_EQ(i, got.records[i].cpu) TH_LOG("%u CPUs", nr);
		EXPECT_EQ(nr - 2, got.records[nr].cpu) TH_LOG("%u CPUs", nr);
		EXPECT_EQ(nr - 1, got.records[nr + 1].cpu) TH_LOG("%u CPUs", nr);
		for (cpu = 0; cpu < nr; cpu++)
			EXPECT_EQ(0u, srecreader_cpu(r, cpu)->late);
		srecreader_close(r);
		expected_free(&got);
		bytes_free(&file);
	}
}

/*
 * Runs of one CPU's records, read in batches: each CPU's chunk of 32
 * records, their times drawn close together so that CPUs tie often and a
 * CPU repeats a time, go out as a plain merge by (time, CPU) gives them,
 * with 2 CPUs up to 12.  With one record older than the one before it on
 * its CPU, that record goes out when its CPU's turn comes, counted late.
 */
#define RUN_RECORDS	32
#define RUN_CPUS_MAX	12

/* The plain merge of @ts (RUN_RECORDS a CPU): CPU, then index, into @order. */
static unsigned int merge_by_hand(uint64_t ts[][RUN_RECORDS], unsigned int nr,
				  unsigned int order[][2])
{
	unsigned int next[RUN_CPUS_MAX] = { 0 }, n, cpu, best, late = 0;
	uint64_t newest = 0;

	for (n = 0; n < nr * RUN_RECORDS; n++) {
		best = nr;
		for (cpu = 0; cpu < nr; cpu++)
			if (next[cpu] < RUN_RECORDS &&
			    (best == nr ||
			     ts[cpu][next[cpu]] < ts[best][next[best]]))
				best = cpu;
		order[n][0] = best;
		order[n][1] = next[best]++;
		if (ts[best][order[n][1]] < newest)
			late++;
		else
			newest = ts[best][order[n][1]];
	}
	return late;
}

TEST(merge_runs)
{
	static const unsigned int cpu_counts[] = { 2, 3, 5, RUN_CPUS_MAX };
	static unsigned int order[RUN_CPUS_MAX * RUN_RECORDS][2];
	uint64_t ts[RUN_CPUS_MAX][RUN_RECORDS];
	unsigned int k, cpu, i, late, calls;
	uint32_t rng = 7;

	/* each count of CPUs twice: in order, then with a record late */
	for (k = 0; k < 2 * ARRAY_SIZE(cpu_counts); k++) {
		unsigned int nr = cpu_counts[k / 2], variant = k % 2;
		unsigned int got_late = 0;
		struct expected_list got = { 0 };
		struct bytes file = { 0 };
		struct chunk_spec c;
		struct srecreader *r;
		char err[256];

		put_header(&file, nr, 0);
		for (cpu = 0; cpu < nr; cpu++) {
			chunk_spec_init(&c, cpu, 0, RUN_RECORDS, 1000);
			for (i = 0; i < RUN_RECORDS; i++) {
				struct schedrec_switch *sw =
					(void *)(c.payload + 32 * i);

				rng = rng * 1103515245 + 12345;
				/* steps of 0 to 3 ns: ties, repeats */
				ts[cpu][i] = i ? ts[cpu][i - 1] + (rng >> 16) % 4 :
					     1000;
				sw->hdr.ts = ts[cpu][i];
			}
			if (variant && cpu == 1) {
				ASSERT_LT(1005, ts[cpu][19]);
				ts[cpu][20] = ts[cpu][19] - 5;
				((struct schedrec_switch *)(c.payload + 32 * 20))
					->hdr.ts = ts[cpu][20];
			}
			c.head.last_ts = ts[cpu][RUN_RECORDS - 1];
			chunk_spec_put(&file, &c);
		}
		late = merge_by_hand(ts, nr, order);
		/* and those after it that are older than the newest too */
		EXPECT_EQ(variant, !!late);
		r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
		ASSERT_NE(NULL, r) TH_LOG("%s", err);
		EXPECT_EQ(0, read_batches(r, &got, READ_BATCH_MAX, &calls));
		ASSERT_EQ(nr * RUN_RECORDS, got.count);
		for (i = 0; i < got.count; i++) {
			const struct schedrec_header *hdr =
				(const void *)got.records[i].rec;

			EXPECT_EQ(order[i][0], got.records[i].cpu)
				TH_LOG("%u CPUs, record %u", nr, i);
			EXPECT_EQ(order[i][1], got.records[i].seq);
			EXPECT_EQ(ts[order[i][0]][order[i][1]], hdr->ts);
		}
		for (cpu = 0; cpu < nr; cpu++) {
			EXPECT_EQ(RUN_RECORDS, srecreader_cpu(r, cpu)->records);
			EXPECT_EQ(RUN_RECORDS * 32, srecreader_cpu(r, cpu)->bytes);
			got_late += srecreader_cpu(r, cpu)->late;
		}
		EXPECT_EQ(late, got_late);
		srecreader_close(r);
		expected_free(&got);
		bytes_free(&file);
	}
}

/* Whether @hdr is whole and of its type's size, as the file declares. */
static bool record_fits(const struct srecreader_info *info,
			const struct schedrec_header *hdr)
{
	uint32_t i;

	if (hdr->size < sizeof(*hdr) || hdr->size % SCHEDREC_RECORD_ALIGN)
		return false;
	for (i = 0; i < info->nr_events; i++)
		if (info->events[i].id == hdr->type)
			return !info->events[i].size ||
			       info->events[i].size == hdr->size;
	return false;
}

/*
 * A mapped file cut to half, or written over by another recording (as
 * `schedrec record -o` over it does), after the first records were read:
 * the reader hands out only whole records of their types' sizes, the
 * first ones those of the recording, and it stops; cut, with an error
 * that says why.
 */
TEST(changed_while_read)
{
	struct srec_record recs[READ_BATCH_MAX];
	unsigned int written_over, calls;
	int n, i;

	for (written_over = 0; written_over < 2; written_over++) {
		struct srecreader_options opt = { .diag = diag_collect };
		struct bytes file = { 0 }, other = { 0 };
		struct diag_log log = { 0 };
		struct synth a, b;
		struct srecreader *r;
		char err[256];
		size_t got = 0;
		int fd;

		opt.diag_arg = &log;
		synth_init(&a, 4, 7);
		synth_init(&b, 4, 8);
		ASSERT_EQ(0u, synth_to_bytes(&a, &file, 0, 40, 500));
		ASSERT_EQ(0u, synth_to_bytes(&b, &other, 0, 40, 500));
		r = open_bytes_fd(file.data, file.len, &opt, err, sizeof(err),
				  &fd);
		ASSERT_NE(NULL, r) TH_LOG("%s", err);
		n = srecreader_next_batch(r, recs, READ_BATCH_MAX);
		ASSERT_LT(0, n);
		for (i = 0; i < n; i++) {
			const struct schedrec_header *want =
				(const void *)a.expected.records[i].rec;

			ASSERT_EQ(0, memcmp(want, recs[i].hdr, want->size));
		}
		got = n;

		ASSERT_EQ(0, ftruncate(fd, written_over ? 0 : file.len / 2));
		if (written_over)
			ASSERT_EQ((ssize_t)other.len,
				  pwrite(fd, other.data, other.len, 0));
		for (calls = 0; calls < 1000000; calls++) {
			n = srecreader_next_batch(r, recs, READ_BATCH_MAX);
			if (n <= 0)
				break;
			for (i = 0; i < n; i++)
				ASSERT_TRUE(record_fits(srecreader_info(r),
							recs[i].hdr));
			got += n;
		}
		ASSERT_GT(1000000u, calls);
		if (!written_over) {
			EXPECT_GT(0, n);
			EXPECT_LT(got, a.expected.count);
			EXPECT_TRUE(diag_says(&log, "changed while it was read"))
				TH_LOG("%s", log.text);
			EXPECT_NE(NULL, strstr(srecreader_error(r),
					       "changed while it was read"));
		}
		srecreader_close(r);
		close(fd);
		bytes_free(&file);
		bytes_free(&other);
		synth_free(&a);
		synth_free(&b);
	}
}

TEST_HARNESS_MAIN
