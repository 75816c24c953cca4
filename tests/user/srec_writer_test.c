// SPDX-License-Identifier: GPL-2.0
/*
 * The .srec writer's contract: loss and gaps accounted where they happen
 * and in the trailer, with the reader agreeing record by record; 32-bit
 * sequence numbers extended across their wrap; malformed records refused
 * before anything is written; misuse refused; write errors (ENOSPC, EPIPE)
 * reported and sticky; a non-blocking pipe drained; and no allocation
 * after srecwriter_open(), all of it through the caller's allocator.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srec_util.h"

/* A writer on a memfd with the test header, @flags in it. */
static struct srecwriter *writer_on_memfd(int *fd, unsigned int nr_cpus,
					  uint32_t flags)
{
	struct srecwriter_options opt = { .nr_cpus = nr_cpus };
	struct srecwriter_header hdr;
	struct srecwriter *w;

	*fd = memfd_create("srec", 0);
	if (*fd < 0 || srecwriter_open(&w, *fd, &opt))
		abort();
	test_header(&hdr);
	hdr.flags = flags;
	if (srecwriter_write_header(w, &hdr))
		abort();
	return w;
}

/*
 * cpu 0 from the start of a recording: numbers 0 and 1 missing, a LOST
 * record that explains 4..8, 11..13 missing, 4 records filtered, then a
 * second chunk after 15..19 missing.
 */
TEST(loss_accounting)
{
	static const uint64_t seqs[] = { 2, 3, 9, 10, 14, 20, 21 };
	static const uint64_t gaps[] = { 2, 0, 0, 0, 3, 5, 0 };
	struct srecwriter_trailer trailer = { 0 };
	struct srecreader_options opt = { .diag = diag_collect };
	const struct srec_cpu_total *wt, *totals;
	const struct srecreader_cpu *c;
	struct bytes recs = { 0 }, file = { 0 };
	struct diag_log log = { 0 };
	struct srec_record rec;
	struct srecwriter *w;
	struct srecreader *r;
	unsigned int i;
	char err[256];
	int fd;

	w = writer_on_memfd(&fd, 2, SREC_FILE_F_FROM_START |
			    SREC_FILE_F_FILTERED);
	put_switch_record(&recs, 2, 100);
	put_switch_record(&recs, 3, 110);
	put_lost_record(&recs, 9, 120, 5);
	put_switch_record(&recs, 10, 130);
	put_switch_record(&recs, 14, 140);
	ASSERT_EQ(0, srecwriter_append(w, 0, recs.data, recs.len));
	srecwriter_filtered(w, 0, 4);
	recs.len = 0;
	put_switch_record(&recs, 20, 150);
	put_switch_record(&recs, 21, 160);
	ASSERT_EQ(0, srecwriter_append(w, 0, recs.data, recs.len));
	wt = srecwriter_totals(w, 0);
	ASSERT_NE(NULL, wt);
	EXPECT_EQ(2, wt->chunks);
	EXPECT_EQ(7, wt->records);
	EXPECT_EQ(5, wt->lost);
	EXPECT_EQ(10, wt->gaps);
	EXPECT_EQ(4, wt->filtered);
	EXPECT_EQ(NULL, srecwriter_totals(w, 2));
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	srecwriter_close(w);
	bytes_from_fd(fd, &file);
	close(fd);

	opt.diag_arg = &log;
	r = open_bytes(file.data, file.len, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	for (i = 0; i < 7; i++) {
		ASSERT_EQ(1, srecreader_next_batch(r, &rec, 1));
		EXPECT_EQ(0, rec.cpu);
		EXPECT_EQ(seqs[i], rec.seq);
		EXPECT_EQ(gaps[i], rec.gap) TH_LOG("record %u", i);
	}
	ASSERT_EQ(0, srecreader_next_batch(r, &rec, 1));
	c = srecreader_cpu(r, 0);
	EXPECT_EQ(2, c->chunks);
	EXPECT_EQ(7, c->records);
	EXPECT_EQ(5, c->lost);
	EXPECT_EQ(1, c->lost_records);
	EXPECT_EQ(10, c->gaps);
	EXPECT_EQ(3, c->gap_count);
	EXPECT_EQ(4, c->filtered);
	EXPECT_EQ(6, c->missing);
	EXPECT_EQ(100, c->first_ts);
	EXPECT_EQ(160, c->last_ts);
	ASSERT_NE(NULL, srecreader_trailer(r, &totals));
	EXPECT_EQ(7, totals[0].records);
	EXPECT_EQ(5, totals[0].lost);
	EXPECT_EQ(10, totals[0].gaps);
	EXPECT_EQ(4, totals[0].filtered);
	EXPECT_EQ(SREC_COUNT_UNKNOWN, totals[0].kernel_written);
	EXPECT_EQ(0, totals[1].records);
	/* the trailer agrees with the file: nothing to warn about */
	EXPECT_EQ(0, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	bytes_free(&recs);
	bytes_free(&file);
}

/* Without FROM_START the first number is not a gap; 2^32 wraps. */
TEST(sequence_wrap)
{
	static const uint32_t seqs[] = { 0xfffffffeu, 0xffffffffu, 0, 1 };
	struct srecwriter_trailer trailer = { 0 };
	struct bytes recs = { 0 }, file = { 0 };
	struct srec_record rec;
	struct srecwriter *w;
	struct srecreader *r;
	unsigned int i;
	char err[256];
	int fd;

	w = writer_on_memfd(&fd, 1, 0);
	for (i = 0; i < 4; i++) {
		put_switch_record(&recs, seqs[i], 100 + i);
		ASSERT_EQ(0, srecwriter_append(w, 0, recs.data, recs.len));
		recs.len = 0;
	}
	ASSERT_EQ(0, srecwriter_totals(w, 0)->gaps);
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	srecwriter_close(w);
	bytes_from_fd(fd, &file);
	close(fd);
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(1, srecreader_next_batch(r, &rec, 1));
		EXPECT_EQ(0xfffffffeull + i, rec.seq);
		EXPECT_EQ(0, rec.gap);
	}
	EXPECT_EQ(0, srecreader_next_batch(r, &rec, 1));
	EXPECT_EQ(0, srecreader_cpu(r, 0)->gaps);
	srecreader_close(r);
	bytes_free(&recs);
	bytes_free(&file);
}

/* The SYNC horizons a sequence of rounds and chunks leaves in the file. */
static size_t sync_horizons(int fd, uint64_t *horizons, size_t max)
{
	struct section sections[64];
	struct bytes file = { 0 };
	size_t i, n, count = 0;

	bytes_from_fd(fd, &file);
	n = walk_sections(file.data, file.len, sections, 64);
	for (i = 0; i < n && count < max; i++) {
		if (sections[i].type != SREC_SEC_SYNC)
			continue;
		memcpy(&horizons[count++], file.data + sections[i].offset +
		       sizeof(struct srec_frame), sizeof(uint64_t));
	}
	bytes_free(&file);
	return count;
}

/*
 * Round N says that records older than the start of round N - 2 are all
 * written; SYNC goes out only while chunks come (three rounds after the
 * last one), and only when the horizon moves.
 */
TEST(sync_sections)
{
	struct bytes recs = { 0 };
	struct srecwriter *w;
	uint64_t horizons[8];
	int fd;

	w = writer_on_memfd(&fd, 1, 0);
	put_switch_record(&recs, 0, 50);
	ASSERT_EQ(0, srecwriter_round(w, 100));
	ASSERT_EQ(0, srecwriter_append(w, 0, recs.data, recs.len));
	ASSERT_EQ(0, srecwriter_round(w, 200));
	ASSERT_EQ(0, srecwriter_round(w, 300));	/* SYNC 100 */
	ASSERT_EQ(0, srecwriter_round(w, 300));	/* no time passed */
	ASSERT_EQ(0, srecwriter_round(w, 250));	/* nor here */
	ASSERT_EQ(0, srecwriter_round(w, 400));	/* SYNC 200 */
	ASSERT_EQ(0, srecwriter_round(w, 500));	/* idle: nothing */
	ASSERT_EQ(0, srecwriter_round(w, 600));
	ASSERT_EQ(2, sync_horizons(fd, horizons, 8));
	EXPECT_EQ(100, horizons[0]);
	EXPECT_EQ(200, horizons[1]);
	recs.len = 0;
	put_switch_record(&recs, 1, 650);
	ASSERT_EQ(0, srecwriter_append(w, 0, recs.data, recs.len));
	ASSERT_EQ(0, srecwriter_round(w, 700));	/* SYNC 500 */
	ASSERT_EQ(3, sync_horizons(fd, horizons, 8));
	EXPECT_EQ(500, horizons[2]);
	srecwriter_close(w);
	close(fd);
	bytes_free(&recs);
}

/* Malformed records: nothing written, and the writer goes on. */
TEST(bad_records_refused)
{
	struct srecwriter *w;
	struct bytes recs = { 0 };
	struct schedrec_header *hdr;
	uint64_t before;
	unsigned int i;
	int fd;

	w = writer_on_memfd(&fd, 2, 0);
	before = srecwriter_bytes(w);
	EXPECT_LT(0, before);
	for (i = 0; i < 7; i++) {
		recs.len = 0;
		put_switch_record(&recs, 0, 100);
		put_switch_record(&recs, 1, 110);
		hdr = (void *)(recs.data + 32);
		switch (i) {
		case 0:
			hdr->size = 0;
			break;
		case 1:
			hdr->size = 20;
			break;
		case 2:
			hdr->size = 48;		/* past the end */
			break;
		case 3:
			hdr->type = 0;
			break;
		case 4:
			hdr->type = 77;
			break;
		case 5:
			hdr->type = SCHEDREC_EV_EXIT;	/* 48 bytes */
			break;
		case 6:
			recs.len = 40;		/* half a record */
			break;
		}
		EXPECT_EQ(-EBADMSG, srecwriter_append(w, 1, recs.data,
						       recs.len)) TH_LOG("case %u", i);
		EXPECT_NE(0, strlen(srecwriter_error(w)));
		EXPECT_EQ(before, srecwriter_bytes(w));
	}
	recs.len = 0;
	put_switch_record(&recs, 0, 100);
	EXPECT_EQ(0, srecwriter_append(w, 1, recs.data, recs.len));
	EXPECT_LT(before, srecwriter_bytes(w));
	/* empty and PAD-only appends write nothing */
	before = srecwriter_bytes(w);
	EXPECT_EQ(0, srecwriter_append(w, 1, NULL, 0));
	recs.len = 0;
	put_switch_record(&recs, 0, 120);
	((struct schedrec_header *)recs.data)->type = SCHEDREC_REC_PAD;
	EXPECT_EQ(0, srecwriter_append(w, 1, recs.data, recs.len));
	EXPECT_EQ(before, srecwriter_bytes(w));
	srecwriter_close(w);
	close(fd);
	bytes_free(&recs);
}

TEST(misuse)
{
	struct srecwriter_options opt = { .nr_cpus = 2 };
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_header hdr;
	struct srec_event bad_events[2] = {
		{ .id = 1, .size = 32 },
		{ .id = 1, .size = 32 },
	};
	struct bytes recs = { 0 };
	struct srecwriter *w;
	int fd = memfd_create("srec", 0);

	ASSERT_LE(0, fd);
	opt.nr_cpus = 0;
	EXPECT_EQ(-EINVAL, srecwriter_open(&w, fd, &opt));
	EXPECT_EQ(NULL, w);
	opt.nr_cpus = SREC_CPUS_MAX + 1;
	EXPECT_EQ(-EINVAL, srecwriter_open(&w, fd, &opt));
	opt.nr_cpus = 2;
	opt.chunk_max = 4096;
	EXPECT_EQ(-EINVAL, srecwriter_open(&w, fd, &opt));
	opt.chunk_max = SREC_CHUNK_LIMIT + 16;
	EXPECT_EQ(-EINVAL, srecwriter_open(&w, fd, &opt));
	opt.chunk_max = 0;
	opt.zlib_level = 10;
	EXPECT_EQ(-EINVAL, srecwriter_open(&w, fd, &opt));
	opt.zlib_level = -1;
	EXPECT_EQ(-EINVAL, srecwriter_open(&w, fd, &opt));
	opt.zlib_level = 1;
	ASSERT_EQ(0, srecwriter_open(&w, fd, &opt));

	put_switch_record(&recs, 0, 100);
	EXPECT_EQ(-EINVAL, srecwriter_append(w, 0, recs.data, recs.len));
	EXPECT_EQ(-EINVAL, srecwriter_round(w, 5));
	EXPECT_EQ(-EINVAL, srecwriter_write_trailer(w, &trailer));
	test_header(&hdr);
	hdr.events = bad_events;
	hdr.nr_events = 2;
	EXPECT_EQ(-EINVAL, srecwriter_write_header(w, &hdr));
	EXPECT_EQ(0, srecwriter_bytes(w));
	test_header(&hdr);
	ASSERT_EQ(0, srecwriter_write_header(w, &hdr));
	EXPECT_EQ(-EINVAL, srecwriter_write_header(w, &hdr));
	EXPECT_EQ(-EINVAL, srecwriter_append(w, 2, recs.data, recs.len));
	EXPECT_EQ(0, srecwriter_append(w, 1, recs.data, recs.len));
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	EXPECT_EQ(-EINVAL, srecwriter_append(w, 1, recs.data, recs.len));
	EXPECT_EQ(-EINVAL, srecwriter_write_trailer(w, &trailer));
	srecwriter_close(w);
	srecwriter_close(NULL);
	close(fd);
	bytes_free(&recs);
}

/* A full disk: -ENOSPC, said in words, and every later call says it too. */
TEST(enospc)
{
	struct srecwriter_options opt = { .nr_cpus = 1 };
	struct srecwriter_header hdr;
	struct bytes recs = { 0 };
	struct srecwriter *w;
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		SKIP(return, "no /dev/full");
	ASSERT_EQ(0, srecwriter_open(&w, fd, &opt));
	test_header(&hdr);
	EXPECT_EQ(-ENOSPC, srecwriter_write_header(w, &hdr));
	EXPECT_NE(NULL, strstr(srecwriter_error(w), strerror(ENOSPC)))
		TH_LOG("%s", srecwriter_error(w));
	put_switch_record(&recs, 0, 100);
	EXPECT_EQ(-ENOSPC, srecwriter_append(w, 0, recs.data, recs.len));
	EXPECT_EQ(-ENOSPC, srecwriter_round(w, 10));
	srecwriter_close(w);
	close(fd);
	bytes_free(&recs);
}

/* A reader that went away: -EPIPE once SIGPIPE is ignored. */
TEST(epipe)
{
	struct srecwriter_options opt = { .nr_cpus = 1 };
	struct srecwriter_header hdr;
	struct srecwriter *w;
	int fds[2];

	signal(SIGPIPE, SIG_IGN);
	ASSERT_EQ(0, pipe(fds));
	close(fds[0]);
	ASSERT_EQ(0, srecwriter_open(&w, fds[1], &opt));
	test_header(&hdr);
	EXPECT_EQ(-EPIPE, srecwriter_write_header(w, &hdr));
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "write failed after 0 bytes"))
		TH_LOG("%s", srecwriter_error(w));
	srecwriter_close(w);
	close(fds[1]);
}

/*
 * A non-blocking pipe to a slow reader: the writer waits instead of
 * failing with EAGAIN, and the reader gets the whole trace.
 */
TEST(nonblocking_pipe)
{
	struct synth synth, twin;
	struct bytes file = { 0 };
	int fds[2], status;
	pid_t child;

	synth_init(&synth, 2, 21);
	synth_init(&twin, 2, 21);
	ASSERT_EQ(0, synth_to_bytes(&twin, &file, 0, 20, 500));
	ASSERT_LT(4 * 65536, file.len);
	ASSERT_EQ(0, pipe(fds));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct expected_list got = { 0 };
		struct srecreader *r;
		char err[256];

		close(fds[1]);
		usleep(100000);
		r = srecreader_open_fd(fds[0], NULL, err, sizeof(err));
		if (!r || read_all(r, &got) ||
		    !same_records(&twin.expected, &got))
			_exit(1);
		_exit(0);
	}
	close(fds[0]);
	ASSERT_EQ(0, fcntl(fds[1], F_SETFL, O_NONBLOCK));
	EXPECT_EQ(0, synth_write(&synth, fds[1], 0, 20, 500));
	close(fds[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	synth_free(&synth);
	synth_free(&twin);
	bytes_free(&file);
}

/* An allocator that counts, to see what the writer allocates and when. */
struct counting {
	unsigned int allocs;
	unsigned int frees;
	size_t live;
};

static void *counting_alloc(size_t size, void *arg)
{
	struct counting *c = arg;
	size_t *block = malloc(size + 16);

	if (!block)
		return NULL;
	*block = size;
	c->allocs++;
	c->live += size;
	return (unsigned char *)block + 16;
}

static void counting_free(void *ptr, size_t size, void *arg)
{
	struct counting *c = arg;
	size_t *block = (void *)((unsigned char *)ptr - 16);

	if (*block != size)
		abort();	/* the writer must give the size back right */
	c->frees++;
	c->live -= size;
	free(block);
}

TEST(no_allocation_after_open)
{
	struct counting count = { 0 };
	struct srec_allocator allocator = {
		.alloc = counting_alloc,
		.free = counting_free,
		.arg = &count,
	};
	struct srecwriter_options opt = {
		.nr_cpus = 4,
		.zlib_level = 6,
		.allocator = &allocator,
	};
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_header hdr;
	struct srecwriter *w;
	struct synth synth;
	unsigned int i, after_open;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	synth_init(&synth, 4, 13);
	ASSERT_EQ(0, srecwriter_open(&w, fd, &opt));
	after_open = count.allocs;
	/* the writer, its tables, the zlib state and output buffer */
	EXPECT_LE(5, after_open);
	test_header(&hdr);
	ASSERT_EQ(0, srecwriter_write_header(w, &hdr));
	for (i = 0; i < 50; i++) {
		synth_events(&synth, 1000);
		ASSERT_EQ(0, srecwriter_round(w, synth.now + 1));
		ASSERT_EQ(0, synth_flush(&synth, w));
	}
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	EXPECT_EQ(after_open, count.allocs);
	EXPECT_EQ(0, count.frees);
	srecwriter_close(w);
	EXPECT_EQ(count.allocs, count.frees);
	EXPECT_EQ(0, count.live);
	close(fd);
	synth_free(&synth);
}

TEST_HARNESS_MAIN
