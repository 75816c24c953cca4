// SPDX-License-Identifier: GPL-2.0
/*
 * srecreader_open_mem(): a trace in memory reads as the same bytes in a
 * file do (the fuzz harnesses of tests/fuzz read their inputs so): the
 * same records, status, trailer and warnings, whole, cut short at every
 * kind of place and damaged, raw and compressed; an empty input and one
 * that is not a trace fail as such files do; the bytes are left as they
 * were.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "srec_util.h"

/* What one read gave: to compare a read of memory with one of a file. */
struct outcome {
	bool opened;
	int err;			/* errno of a failed open */
	char message[512];
	int last;			/* the last next_batch() value */
	struct expected_list records;
	struct srecreader_status status;
	bool trailer;
	struct diag_log log;
};

static void read_outcome(const void *data, size_t len, bool memory,
			 struct outcome *o)
{
	struct srecreader_options opt = {
		.diag = diag_collect, .diag_arg = &o->log,
	};
	struct srecreader *r;

	memset(o, 0, sizeof(*o));
	errno = 0;
	if (memory)
		r = srecreader_open_mem(data, len, &opt, o->message,
					sizeof(o->message));
	else
		r = open_bytes(data, len, &opt, o->message,
			       sizeof(o->message));
	o->opened = r;
	o->err = r ? 0 : errno;
	if (!r)
		return;
	o->last = read_all(r, &o->records);
	o->status = *srecreader_status(r);
	o->trailer = srecreader_trailer(r, NULL);
	srecreader_close(r);
}

static void outcome_free(struct outcome *o)
{
	expected_free(&o->records);
}

/* Whether reads of @len bytes of @data as a file and in memory agree. */
static bool same_outcome(struct __test_metadata *_metadata,
			 const unsigned char *data, size_t len)
{
	struct outcome file, mem;
	bool same;

	read_outcome(data, len, false, &file);
	read_outcome(data, len, true, &mem);
	same = file.opened == mem.opened && file.err == mem.err &&
	       !strcmp(file.message, mem.message) && file.last == mem.last &&
	       same_records(&file.records, &mem.records) &&
	       file.status.offset == mem.status.offset &&
	       file.status.sections == mem.status.sections &&
	       file.status.chunks == mem.status.chunks &&
	       file.status.corrupt == mem.status.corrupt &&
	       file.status.truncated == mem.status.truncated &&
	       file.status.trailer == mem.status.trailer &&
	       file.status.eof == mem.status.eof &&
	       file.status.over == mem.status.over &&
	       file.trailer == mem.trailer &&
	       file.log.warnings == mem.log.warnings &&
	       file.log.errors == mem.log.errors &&
	       !strcmp(file.log.text, mem.log.text);
	if (!same)
		TH_LOG("%zu bytes: file %s (%d, %zu records), memory %s (%d, %zu records)\nfile says:\n%s\nmemory says:\n%s",
		       len, file.opened ? "opened" : file.message, file.last,
		       file.records.count,
		       mem.opened ? "opened" : mem.message, mem.last,
		       mem.records.count, file.log.text, mem.log.text);
	outcome_free(&file);
	outcome_free(&mem);
	return same;
}

static void synth_bytes(struct __test_metadata *_metadata, int zlib_level,
			struct bytes *out)
{
	struct synth s;

	synth_init(&s, 3, 5);
	ASSERT_EQ(0, synth_to_bytes(&s, out, zlib_level, 6, 300));
	synth_free(&s);
}

TEST(whole_as_a_file)
{
	struct bytes file = { 0 };
	struct outcome mem;
	int level;

	for (level = 0; level <= 6; level += 6) {
		synth_bytes(_metadata, level, &file);
		EXPECT_TRUE(same_outcome(_metadata, file.data, file.len));
		read_outcome(file.data, file.len, true, &mem);
		EXPECT_TRUE(mem.opened);
		EXPECT_EQ(0, mem.last);
		EXPECT_TRUE(mem.trailer);
		EXPECT_EQ(0, mem.log.warnings);
		EXPECT_EQ(file.len, mem.status.offset);
		outcome_free(&mem);
		bytes_free(&file);
	}
}

/* Cut at each section's end, inside each section, and past the header. */
TEST(cut_short_as_a_file)
{
	struct section sect[512];
	struct bytes file = { 0 };
	unsigned char *copy;
	size_t n, i, cuts = 0;
	int level;

	for (level = 0; level <= 6; level += 6) {
		synth_bytes(_metadata, level, &file);
		n = walk_sections(file.data, file.len, sect, ARRAY_SIZE(sect));
		ASSERT_LT(10, n);
		ASSERT_GT(ARRAY_SIZE(sect), n);
		for (i = 0; i < n; i++) {
			/* a copy of the exact length: ASan sees past it */
			copy = malloc(sect[i].end);
			ASSERT_NE(NULL, copy);
			memcpy(copy, file.data, sect[i].end);
			EXPECT_TRUE(same_outcome(_metadata, copy,
						 sect[i].end));
			EXPECT_TRUE(same_outcome(_metadata, copy,
						 sect[i].offset + 20));
			EXPECT_TRUE(same_outcome(_metadata, copy,
						 (sect[i].offset +
						  sect[i].end) / 2));
			free(copy);
			cuts += 3;
		}
		bytes_free(&file);
	}
	EXPECT_LT(60, cuts);
}

/* A flipped byte in every section: skipped or refused, as in a file. */
TEST(damaged_as_a_file)
{
	struct section sect[512];
	struct bytes file = { 0 };
	size_t n, i, at;

	synth_bytes(_metadata, 6, &file);
	n = walk_sections(file.data, file.len, sect, ARRAY_SIZE(sect));
	ASSERT_LT(10, n);
	for (i = 0; i < n; i++) {
		at = sect[i].end - 9;
		file.data[at] ^= 0x40;
		EXPECT_TRUE(same_outcome(_metadata, file.data, file.len));
		file.data[at] ^= 0x40;
	}
	bytes_free(&file);
}

TEST(not_a_trace)
{
	static const unsigned char text[16] = "hello, world\n";
	char err[256];
	struct srecreader *r;

	EXPECT_TRUE(same_outcome(_metadata, NULL, 0));
	EXPECT_TRUE(same_outcome(_metadata, text, sizeof(text)));
	errno = 0;
	r = srecreader_open_mem(text, sizeof(text), NULL, err, sizeof(err));
	EXPECT_EQ(NULL, r);
	EXPECT_EQ(EPROTO, errno);
	errno = 0;
	r = srecreader_open_mem(NULL, 0, NULL, err, sizeof(err));
	EXPECT_EQ(NULL, r);
	EXPECT_NE(0, errno);
}

/* The reader hands its records out of the bytes and leaves them be. */
TEST(bytes_untouched)
{
	struct bytes file = { 0 };
	struct outcome mem;
	unsigned char *copy;

	synth_bytes(_metadata, 0, &file);
	copy = malloc(file.len);
	ASSERT_NE(NULL, copy);
	memcpy(copy, file.data, file.len);
	read_outcome(copy, file.len, true, &mem);
	EXPECT_TRUE(mem.opened);
	EXPECT_LT(1000, mem.records.count);
	EXPECT_EQ(0, memcmp(copy, file.data, file.len));
	outcome_free(&mem);
	free(copy);
	bytes_free(&file);
}

TEST_HARNESS_MAIN
