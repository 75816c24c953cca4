// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a rotation (schedrec record --rotate) as one recording: the
 * files of a series, given to srecreader_add_file() in order, read back
 * every record of the recording once, in time order across the files'
 * boundaries, with no gap, no late record and no warning; a file that does
 * not continue the series is an error that names it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srecchunk.h"
#include "srec_util.h"
#include "util.h"

#define MAX_FILES	8

struct series {
	int fds[MAX_FILES];
	char paths[MAX_FILES][64];
	unsigned int count;
};

static int new_file(struct series *s)
{
	int fd = memfd_create("series", 0);

	if (fd < 0 || s->count == MAX_FILES)
		return -1;
	s->fds[s->count] = fd;
	snprintf(s->paths[s->count], sizeof(s->paths[0]), "/proc/self/fd/%d",
		 fd);
	s->count++;
	return fd;
}

static void series_close(struct series *s)
{
	unsigned int i;

	for (i = 0; i < s->count; i++)
		close(s->fds[i]);
	s->count = 0;
}

/*
 * The synthetic recording of @synth, @rounds rounds of @per_round events,
 * as a new file every @per_file rounds; 0 or the writer's error.
 */
static int write_series_types(struct synth *synth, struct series *s,
			      unsigned int rounds, unsigned int per_round,
			      unsigned int per_file, int zlib_level,
			      const struct srec_event *later_events,
			      unsigned int nr_later_events)
{
	struct srecwriter_options opt = {
		.nr_cpus = synth->nr_cpus, .zlib_level = zlib_level,
	};
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_header hdr;
	struct srecwriter *w;
	unsigned int i;
	int ret, fd = new_file(s);

	if (fd < 0)
		return -EMFILE;
	ret = srecwriter_open(&w, fd, &opt);
	if (ret)
		return ret;
	test_header(&hdr);
	ret = srecwriter_write_header(w, &hdr);
	for (i = 0; !ret && i < rounds; i++) {
		if (i && !(i % per_file)) {
			/* as the drainer does: an end, then a later start */
			trailer.end_mono_ns = synth->now + 1;
			trailer.end_real_ns = synth->now + 1;
			ret = srecwriter_write_trailer(w, &trailer);
			fd = ret ? -1 : new_file(s);
			if (fd < 0)
				break;
			ret = srecwriter_next_file(w, fd);
			hdr.start_mono_ns = synth->now + 2;
			hdr.start_real_ns = synth->now + 2;
			if (later_events) {
				hdr.events = later_events;
				hdr.nr_events = nr_later_events;
			}
			if (!ret)
				ret = srecwriter_write_header(w, &hdr);
		}
		synth_events(synth, per_round);
		if (!ret)
			ret = srecwriter_round(w, synth->now + 1);
		if (!ret)
			ret = synth_flush(synth, w);
	}
	trailer.end_mono_ns = synth->now + 1;
	trailer.end_real_ns = synth->now + 1;
	if (!ret)
		ret = srecwriter_write_trailer(w, &trailer);
	srecwriter_close(w);
	return fd < 0 ? -EMFILE : ret;
}

/*
 * The synthetic recording of @synth, @rounds rounds of @per_round events,
 * as a new file every @per_file rounds; 0 or the writer's error.
 */
static int write_series(struct synth *synth, struct series *s,
			unsigned int rounds, unsigned int per_round,
			unsigned int per_file, int zlib_level)
{
	return write_series_types(synth, s, rounds, per_round, per_file,
				  zlib_level, NULL, 0);
}

static struct srecreader *open_series(const struct series *s,
				      const unsigned int *order,
				      struct diag_log *log, char *err,
				      size_t err_size)
{
	struct srecreader_options opt = {
		.diag = diag_collect, .diag_arg = log,
	};
	struct srecreader *r;
	unsigned int i;

	r = srecreader_open(s->paths[order ? order[0] : 0], &opt, err,
			    err_size);
	for (i = 1; r && i < s->count; i++)
		if (srecreader_add_file(r, s->paths[order ? order[i] : i])) {
			srecreader_close(r);
			return NULL;
		}
	return r;
}

static void check_series(struct __test_metadata *_metadata, int zlib_level)
{
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct series s = { 0 };
	struct srecreader *r;
	struct synth synth;
	unsigned int cpu;
	char err[256];

	synth_init(&synth, 4, 77);
	ASSERT_EQ(0, write_series(&synth, &s, 40, 300, 7, zlib_level));
	ASSERT_EQ(6u, s.count);
	r = open_series(&s, NULL, &log, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(0, read_all(r, &got)) TH_LOG("%s", srecreader_error(r));
	EXPECT_EQ(synth.expected.count, got.count);
	EXPECT_TRUE(same_records(&synth.expected, &got));
	EXPECT_EQ(0u, log.warnings) TH_LOG("%s", log.text);
	EXPECT_EQ(5u, srecreader_status(r)->file);
	for (cpu = 0; cpu < synth.nr_cpus; cpu++) {
		const struct srecreader_cpu *c = srecreader_cpu(r, cpu);

		EXPECT_EQ(0u, c->late);
		EXPECT_EQ(0u, c->missing);
		EXPECT_EQ(synth.cpu[cpu].seq, c->records + c->lost);
	}
	srecreader_close(r);
	expected_free(&got);
	series_close(&s);
	synth_free(&synth);
}

TEST(series_reads_as_one)
{
	check_series(_metadata, 0);
}

TEST(series_compressed)
{
	check_series(_metadata, 1);
}

/* The second file alone reads too: it says CONTINUED, not FROM_START. */
TEST(second_file_alone)
{
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct series s = { 0 };
	struct srecreader *r;
	struct synth synth;
	char err[256];

	synth_init(&synth, 2, 3);
	ASSERT_EQ(0, write_series(&synth, &s, 10, 100, 5, 0));
	ASSERT_EQ(2u, s.count);
	r = srecreader_open(s.paths[1], &(struct srecreader_options){
		.diag = diag_collect, .diag_arg = &log }, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_TRUE(srecreader_info(r)->file.flags & SREC_FILE_F_CONTINUED);
	EXPECT_EQ(0, read_all(r, &got));
	EXPECT_LT(0u, got.count);
	EXPECT_GT(synth.expected.count, got.count);
	EXPECT_EQ(0u, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&got);
	series_close(&s);
	synth_free(&synth);
}

/* Files out of order, or one of another recording: an error naming it. */
TEST(wrong_files_refused)
{
	static const unsigned int swapped[] = { 0, 2, 1 };
	static const unsigned int restart[] = { 0, 0 };
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct series s = { 0 };
	struct srecreader *r;
	struct synth synth;
	char err[256];
	int ret;

	synth_init(&synth, 2, 9);
	ASSERT_EQ(0, write_series(&synth, &s, 9, 100, 3, 0));
	ASSERT_EQ(3u, s.count);

	r = open_series(&s, swapped, &log, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ret = read_all(r, &got);
	EXPECT_EQ(-EPROTO, ret);
	EXPECT_NE(NULL, strstr(srecreader_error(r), s.paths[1]))
		TH_LOG("%s", srecreader_error(r));
	EXPECT_NE(NULL, strstr(srecreader_error(r), "order they were written"))
		TH_LOG("%s", srecreader_error(r));
	srecreader_close(r);
	expected_free(&got);

	/* the first file again: a recording's start, not its continuation */
	s.count = 2;
	r = open_series(&s, restart, &log, err, sizeof(err));
	s.count = 3;
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(-EPROTO, read_all(r, &got));
	EXPECT_NE(NULL, strstr(srecreader_error(r), "does not continue"))
		TH_LOG("%s", srecreader_error(r));
	srecreader_close(r);
	expected_free(&got);

	/*
	 * A file that is not there: an error naming it, after every record
	 * of the files before it, those the merge still held included.
	 */
	r = open_series(&s, NULL, &log, err, sizeof(err));
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, srecreader_add_file(r, "/nonexistent/run.0009.srec"));
	EXPECT_EQ(-ENOENT, read_all(r, &got));
	EXPECT_NE(NULL, strstr(srecreader_error(r), "/nonexistent/run.0009.srec"))
		TH_LOG("%s", srecreader_error(r));
	EXPECT_EQ(synth.expected.count, got.count);
	EXPECT_TRUE(same_records(&synth.expected, &got));
	EXPECT_EQ(-ENOENT, srecreader_next_batch(r, &(struct srec_record){ 0 }, 1));
	srecreader_close(r);
	expected_free(&got);

	/* the same, said before reading by srecreader_check_file() */
	r = open_series(&s, NULL, &log, err, sizeof(err));
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, srecreader_check_file(r, s.paths[1], err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(-ENOENT, srecreader_check_file(r, "/nonexistent/run.0009.srec",
						 err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "/nonexistent/run.0009.srec")) TH_LOG("%s", err);
	EXPECT_EQ(-EPROTO, srecreader_check_file(r, s.paths[0], err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "first file of a recording")) TH_LOG("%s", err);
	srecreader_close(r);
	series_close(&s);
	synth_free(&synth);
}

/*
 * Files after the first that declare another event table (one type more,
 * a newer module's) are not of the recording: refused, before reading and
 * when reached, after every record of the first file.  (Taken, their
 * table checked the first file's chunks still queued, and a size of
 * theirs that differed stopped the reading with "the file changed".)
 */
TEST(other_types_refused)
{
	struct srec_event events[SCHEDREC_REC_MAX + 1];
	struct expected_list got = { 0 }, first = { 0 };
	struct diag_log log = { 0 };
	struct series s = { 0 };
	struct srecreader *r;
	struct synth synth;
	unsigned int n;
	char err[256];

	n = srecchunk_abi_events(events, SCHEDREC_EV_ALL_MASK);
	events[n++] = (struct srec_event){ .id = 40, .size = 48 };
	synth_init(&synth, 2, 5);
	ASSERT_EQ(0, write_series_types(&synth, &s, 6, 100, 3, 0, events, n));
	ASSERT_EQ(2u, s.count);
	r = open_series(&s, NULL, &log, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(-EPROTO, srecreader_check_file(r, s.paths[1], err,
						 sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "other record types or sizes"))
		TH_LOG("%s", err);
	EXPECT_EQ(-EPROTO, read_all(r, &got));
	EXPECT_NE(NULL, strstr(srecreader_error(r), "other record types or sizes"))
		TH_LOG("%s", srecreader_error(r));
	srecreader_close(r);
	/* the first file's records, whole: as many as it alone gives */
	s.count = 1;
	r = open_series(&s, NULL, &log, err, sizeof(err));
	s.count = 2;
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(0, read_all(r, &first));
	EXPECT_LT(250u, first.count);
	EXPECT_EQ(first.count, got.count);
	EXPECT_TRUE(same_records(&first, &got));
	srecreader_close(r);
	expected_free(&first);
	expected_free(&got);
	series_close(&s);
	synth_free(&synth);
}

/* stdout of the schedrec binary (SCHEDREC_BIN) run with @args, in @out. */
static int run_schedrec(const char *args, char *out, size_t size)
{
	const char *bin = getenv("SCHEDREC_BIN");
	char cmd[4096];
	size_t len = 0, n;
	FILE *p;

	if (!bin)
		return -ENOENT;
	snprintf(cmd, sizeof(cmd), "%s %s", bin, args);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	while (len + 1 < size && (n = fread(out + len, 1, size - 1 - len, p)))
		len += n;
	out[len] = '\0';
	return pclose(p);
}

/*
 * `schedrec report` given the files of a series prints what it prints for
 * the same recording written as one file.
 */
TEST(report_reads_a_series)
{
	static const char *const reports[] = {
		"offcpu --csv", "tenancy --csv", "states --csv",
		"latency --csv",
	};
	struct series one = { 0 }, many = { 0 };
	struct synth a, b;
	char args[2048], *want = malloc(1 << 20), *got = malloc(1 << 20);
	size_t i, len;
	unsigned int f;

	ASSERT_NE(NULL, getenv("SCHEDREC_BIN"))
		TH_LOG("run it with SCHEDREC_BIN=<the schedrec binary>");
	ASSERT_TRUE(want && got);
	synth_init(&a, 3, 21);
	synth_init(&b, 3, 21);
	ASSERT_EQ(0, write_series(&a, &one, 30, 200, 30, 0));
	ASSERT_EQ(0, write_series(&b, &many, 30, 200, 4, 0));
	ASSERT_EQ(1u, one.count);
	ASSERT_EQ(8u, many.count);
	for (i = 0; i < ARRAY_SIZE(reports); i++) {
		snprintf(args, sizeof(args), "report %s -q %s", reports[i],
			 one.paths[0]);
		ASSERT_EQ(0, run_schedrec(args, want, 1 << 20));
		len = snprintf(args, sizeof(args), "report %s -q",
			       reports[i]);
		for (f = 0; f < many.count; f++)
			len += snprintf(args + len, sizeof(args) - len, " %s",
					many.paths[f]);
		ASSERT_EQ(0, run_schedrec(args, got, 1 << 20));
		EXPECT_LT(100u, strlen(want));
		EXPECT_STREQ(want, got);
	}
	/* a wrong file among them: refused before any output (exit 3) */
	snprintf(args, sizeof(args),
		 "report offcpu %s %s %s 2>/dev/null", many.paths[0],
		 many.paths[1], one.paths[0]);
	EXPECT_EQ(3, WEXITSTATUS(run_schedrec(args, got, 1 << 20)));
	EXPECT_STREQ("", got);
	free(want);
	free(got);
	series_close(&one);
	series_close(&many);
	synth_free(&a);
	synth_free(&b);
}

TEST_HARNESS_MAIN
