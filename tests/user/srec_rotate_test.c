// SPDX-License-Identifier: GPL-2.0
/*
 * The writer's rotation and its ending after a failure.
 *
 * Rotation: the file after srecwriter_next_file() says CONTINUED (never
 * FROM_START), reads alone with no gap, no warning and its own trailer,
 * and carries every CPU's true 64-bit numbers on from the previous file;
 * numbers missing between the files are in the recording's totals.
 *
 * Failure: a write cut short (RLIMIT_FSIZE), through the page cache or
 * with O_DIRECT, is cut back to the last complete section and the
 * trailer follows if there is room; with the
 * reserve option on a full tmpfs, the section that does not fit is refused
 * before any of it is written and the trailer still fits.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srec_util.h"

/* Switches numbered @first.. (low 32 bits), appended to @cpu. */
static int append_switches(struct srecwriter *w, unsigned int cpu,
			   uint32_t first, unsigned int count, uint64_t ts)
{
	struct bytes recs = { 0 };
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++)
		put_switch_record(&recs, first + i, ts + i);
	ret = srecwriter_append(w, cpu, recs.data, recs.len);
	bytes_free(&recs);
	return ret;
}

static int write_header(struct srecwriter *w, uint32_t flags)
{
	struct srecwriter_header hdr;

	test_header(&hdr);
	hdr.flags = flags;
	return srecwriter_write_header(w, &hdr);
}

/* Open @file strictly, read it all; diagnostics into @log. */
static struct srecreader *read_file(struct __test_metadata *_metadata,
				    const struct bytes *file,
				    struct diag_log *log,
				    struct expected_list *records)
{
	struct srecreader_options opt = {
		.strict = true, .diag = diag_collect, .diag_arg = log,
	};
	struct srecreader *r;
	char err[256];

	r = open_bytes(file->data, file->len, &opt, err, sizeof(err));
	if (!r) {
		TH_LOG("%s", err);
		return NULL;
	}
	EXPECT_EQ(0, read_all(r, records)) TH_LOG("%s", srecreader_error(r));
	return r;
}

/*
 * Two files: cpu 0 goes on with a LOST record that explains the first
 * numbers of the second file, cpu 1 after two records the filter left
 * out.  The second file alone reads clean, and its numbers go on.
 */
TEST(second_file_continues)
{
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_options wopt = { .nr_cpus = 2 };
	const struct srec_cpu_total *totals, *all;
	const struct srecreader_info *info;
	struct expected_list records = { 0 };
	struct bytes recs = { 0 }, file = { 0 };
	struct diag_log log = { 0 };
	struct srecwriter *w;
	struct srecreader *r;
	int fd1, fd2;

	fd1 = memfd_create("first", 0);
	fd2 = memfd_create("second", 0);
	ASSERT_LE(0, fd1);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, srecwriter_open(&w, fd1, &wopt));
	/* only after a trailer */
	EXPECT_EQ(-EINVAL, srecwriter_next_file(w, fd2));
	ASSERT_EQ(0, write_header(w, SREC_FILE_F_FROM_START));
	EXPECT_EQ(-EINVAL, srecwriter_next_file(w, fd2));
	ASSERT_EQ(0, append_switches(w, 0, 0, 10, 100));
	ASSERT_EQ(0, append_switches(w, 1, 0, 5, 105));
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));

	ASSERT_EQ(0, srecwriter_next_file(w, fd2));
	EXPECT_EQ(0, srecwriter_bytes(w));
	/* FROM_START is not true of a continued file, whatever is asked */
	ASSERT_EQ(0, write_header(w, SREC_FILE_F_FROM_START |
				  SREC_FILE_F_FILTERED));
	put_lost_record(&recs, 13, 200, 3);
	put_switch_record(&recs, 14, 201);
	put_switch_record(&recs, 15, 202);
	ASSERT_EQ(0, srecwriter_append(w, 0, recs.data, recs.len));
	srecwriter_filtered(w, 1, 2);
	ASSERT_EQ(0, append_switches(w, 1, 7, 3, 210));
	totals = srecwriter_totals(w, 0);
	EXPECT_EQ(3, totals->records);
	EXPECT_EQ(3, totals->lost);
	EXPECT_EQ(0, totals->gaps);
	all = srecwriter_recording_totals(w, 0);
	EXPECT_EQ(13, all->records);
	EXPECT_EQ(3, all->lost);
	EXPECT_EQ(0, all->gaps);
	/* the filtered numbers 5 and 6 fall between the files */
	all = srecwriter_recording_totals(w, 1);
	EXPECT_EQ(8, all->records);
	EXPECT_EQ(2, all->gaps);
	EXPECT_EQ(2, all->filtered);
	EXPECT_EQ(0, srecwriter_totals(w, 1)->gaps);
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	srecwriter_close(w);

	bytes_from_fd(fd2, &file);
	r = read_file(_metadata, &file, &log, &records);
	ASSERT_NE(NULL, r);
	info = srecreader_info(r);
	EXPECT_EQ(SREC_FILE_F_CONTINUED | SREC_FILE_F_FILTERED,
		  info->file.flags);
	ASSERT_EQ(6, records.count);
	/* in time order: cpu 0's three, then cpu 1's */
	EXPECT_EQ(0, records.records[0].cpu);
	EXPECT_EQ(13, records.records[0].seq);
	EXPECT_EQ(15, records.records[2].seq);
	EXPECT_EQ(1, records.records[3].cpu);
	EXPECT_EQ(7, records.records[3].seq);
	EXPECT_EQ(0, srecreader_cpu(r, 0)->gaps);
	EXPECT_EQ(3, srecreader_cpu(r, 0)->lost);
	EXPECT_EQ(0, srecreader_cpu(r, 1)->gaps);
	EXPECT_EQ(0, srecreader_cpu(r, 1)->missing);
	EXPECT_EQ(2, srecreader_cpu(r, 1)->filtered);
	ASSERT_NE(NULL, srecreader_trailer(r, &totals));
	EXPECT_EQ(3, totals[0].records);
	EXPECT_EQ(3, totals[1].records);
	EXPECT_EQ(0, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);

	/* the first file is untouched and complete too */
	bytes_from_fd(fd1, &file);
	expected_free(&records);
	memset(&log, 0, sizeof(log));
	r = read_file(_metadata, &file, &log, &records);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(SREC_FILE_F_FROM_START, srecreader_info(r)->file.flags);
	EXPECT_EQ(15, records.count);
	EXPECT_EQ(0, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&records);
	bytes_free(&recs);
	bytes_free(&file);
	close(fd1);
	close(fd2);
}

/* A CPU's numbers past 2^32 stay 64-bit in the next file. */
TEST(numbers_stay_64bit)
{
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_options wopt = { .nr_cpus = 1 };
	struct expected_list records = { 0 };
	struct diag_log log = { 0 };
	struct bytes file = { 0 };
	struct srecwriter *w;
	struct srecreader *r;
	int fd1, fd2;

	fd1 = memfd_create("first", 0);
	fd2 = memfd_create("second", 0);
	ASSERT_EQ(0, srecwriter_open(&w, fd1, &wopt));
	ASSERT_EQ(0, write_header(w, 0));
	ASSERT_EQ(0, append_switches(w, 0, 0xfffffffeu, 4, 100));
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	ASSERT_EQ(0, srecwriter_next_file(w, fd2));
	ASSERT_EQ(0, write_header(w, 0));
	ASSERT_EQ(0, append_switches(w, 0, 2, 2, 200));
	ASSERT_EQ(0, srecwriter_write_trailer(w, &trailer));
	EXPECT_EQ(6, srecwriter_recording_totals(w, 0)->records);
	EXPECT_EQ(0, srecwriter_recording_totals(w, 0)->gaps);
	srecwriter_close(w);

	bytes_from_fd(fd2, &file);
	r = read_file(_metadata, &file, &log, &records);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(2, records.count);
	EXPECT_EQ(0x100000002ull, records.records[0].seq);
	EXPECT_EQ(0x100000003ull, records.records[1].seq);
	EXPECT_EQ(0, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&records);
	bytes_free(&file);
	close(fd1);
	close(fd2);
}

/* A header and two chunks on @fd; returns the writer. */
static struct srecwriter *begin_file(int fd, bool reserve, bool direct)
{
	struct srecwriter_options wopt = {
		.nr_cpus = 2, .reserve = reserve, .direct = direct,
	};
	struct srecwriter *w;

	if (srecwriter_open(&w, fd, &wopt) || write_header(w, 0) ||
	    append_switches(w, 0, 0, 100, 1000) ||
	    append_switches(w, 1, 0, 100, 2000))
		abort();
	return w;
}

/* Writes past @bytes of a file fail with EFBIG (no SIGXFSZ). */
static int limit_file_size(uint64_t bytes)
{
	struct rlimit lim = { .rlim_cur = bytes, .rlim_max = RLIM_INFINITY };

	signal(SIGXFSZ, SIG_IGN);
	return setrlimit(RLIMIT_FSIZE, &lim);
}

/* What is left of @fd reads with no damage: @records records. */
static void expect_clean_end(struct __test_metadata *_metadata, int fd,
			     size_t records, bool trailer)
{
	struct expected_list got = { 0 };
	const struct srec_cpu_total *totals;
	const struct srecreader_status *st;
	struct diag_log log = { 0 };
	struct bytes file = { 0 };
	struct srecreader *r;

	bytes_from_fd(fd, &file);
	r = read_file(_metadata, &file, &log, &got);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(records, got.count);
	st = srecreader_status(r);
	EXPECT_FALSE(st->truncated);
	EXPECT_EQ(0, st->corrupt);
	EXPECT_EQ(trailer, st->trailer);
	if (trailer) {
		EXPECT_EQ(0, log.warnings) TH_LOG("%s", log.text);
		ASSERT_NE(NULL, srecreader_trailer(r, &totals));
		EXPECT_EQ(records, totals[0].records + totals[1].records);
	} else {
		EXPECT_EQ(1, log.warnings) TH_LOG("%s", log.text);
		EXPECT_TRUE(diag_says(&log, "no trailer"));
	}
	srecreader_close(r);
	expected_free(&got);
	bytes_free(&file);
}

/*
 * A write cut short by the file size limit: the writer says so, the error
 * sticks, and salvage cuts the partial chunk off and writes the trailer
 * in the room the partial chunk had taken.
 */
TEST(salvage_after_short_write)
{
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter *w;
	uint64_t good;
	struct stat st;
	int fd;

	fd = memfd_create("short", 0);
	ASSERT_LE(0, fd);
	w = begin_file(fd, false, false);
	good = srecwriter_bytes(w);
	ASSERT_EQ(0, limit_file_size(good + 4096));
	EXPECT_EQ(-EFBIG, append_switches(w, 0, 100, 1000, 3000));
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "File too large"));
	EXPECT_EQ(-EFBIG, append_switches(w, 1, 100, 1, 9000));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(good + 4096, st.st_size);

	EXPECT_EQ(0, srecwriter_salvage(w, &trailer));
	/* the first error is still the one to tell */
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "File too large"));
	EXPECT_EQ(0, srecwriter_salvage(w, &trailer));
	srecwriter_close(w);
	expect_clean_end(_metadata, fd, 200, true);
	close(fd);
}

/*
 * The same with O_DIRECT: the write that fails is one of whole blocks
 * from the start of the file, the header and the first chunks among them,
 * cut short at the limit in the middle of the next chunk.  Salvage cuts
 * that chunk off and writes the trailer after the chunks before it.
 */
TEST(salvage_after_short_direct_write)
{
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter *w;
	uint64_t good, limit;
	struct stat st;
	int fd;

	fd = disk_tmpfile();
	ASSERT_LE(0, fd);
	w = begin_file(fd, false, true);
	ASSERT_TRUE(srecwriter_direct(w));
	good = srecwriter_bytes(w);
	/* nothing written yet: all of it is staged */
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, st.st_size);
	limit = (good / 4096 + 2) * 4096;
	ASSERT_EQ(0, limit_file_size(limit));
	/* 40000 records: a chunk of 1 MiB, which fills a block to write */
	EXPECT_EQ(-EFBIG, append_switches(w, 0, 100, 40000, 3000));
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "File too large"))
		TH_LOG("%s", srecwriter_error(w));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(limit, st.st_size);

	EXPECT_EQ(0, srecwriter_salvage(w, &trailer));
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "File too large"));
	srecwriter_close(w);
	expect_clean_end(_metadata, fd, 200, true);
	close(fd);
}

/* No room for the trailer: the file still ends at a section boundary. */
TEST(salvage_without_room)
{
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter *w;
	uint64_t good;
	struct stat st;
	int fd;

	fd = memfd_create("short", 0);
	ASSERT_LE(0, fd);
	w = begin_file(fd, false, false);
	good = srecwriter_bytes(w);
	ASSERT_EQ(0, limit_file_size(good + 16));
	EXPECT_EQ(-EFBIG, append_switches(w, 0, 100, 10, 3000));
	EXPECT_EQ(-EFBIG, srecwriter_salvage(w, &trailer));
	srecwriter_close(w);
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(good, st.st_size);
	expect_clean_end(_metadata, fd, 200, false);
	close(fd);
}

/*
 * The reserve option on a full tmpfs (mounted in a mount namespace of this
 * test's own): the chunk that does not fit is refused with ENOSPC before
 * any of it is written, the trailer goes into the room kept for it, and
 * the blocks allocated ahead are given back.
 */
TEST(reserve_on_full_disk)
{
	struct srecwriter_trailer trailer = { 0 };
	char dir[] = "/tmp/srec_rotate_test.XXXXXX";
	char path[64];
	struct srecwriter *w;
	uint64_t good;
	struct stat st;
	unsigned int i;
	int fd, ret = 0;

	ASSERT_NE(NULL, mkdtemp(dir));
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("srec", dir, "tmpfs", 0, "size=128k")) {
		rmdir(dir);
		SKIP(return, "cannot mount a tmpfs (needs root): %s",
		     strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/full.srec", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	w = begin_file(fd, true, false);
	for (i = 0; i < 1000 && !ret; i++) {
		good = srecwriter_bytes(w);
		ret = append_switches(w, i % 2, 100 + i * 100, 100,
				      3000 + i * 1000);
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "No space left"));
	/* nothing of the refused chunk was written */
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(good, st.st_size);
	EXPECT_EQ(good, srecwriter_bytes(w));
	EXPECT_EQ(0, srecwriter_salvage(w, &trailer));
	srecwriter_close(w);
	ASSERT_EQ(0, fstat(fd, &st));
	/* the blocks past the end are given back */
	EXPECT_GE(st.st_size + 4095, st.st_blocks * 512);
	expect_clean_end(_metadata, fd, 200 + (i - 1) * 100, true);
	close(fd);
	umount(dir);
	rmdir(dir);
}

TEST_HARNESS_MAIN
