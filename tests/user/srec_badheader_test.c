// SPDX-License-Identifier: GPL-2.0
/*
 * Hand-made headers, with correct checksums so that only the reader's own
 * checks stand between them and a crash: wrong magic, versions old and
 * new, impossible counts, sizes and offsets.  Each fails open with errno
 * and a message that say what is wrong; a newer minor version's additions
 * are skipped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "srec_util.h"

/* Open @b; NULL expected, with @errno_expected and @words in the message. */
static bool open_fails(const struct bytes *b, int errno_expected,
		       const char *words, char *err, size_t err_size)
{
	struct srecreader *r = open_bytes(b->data, b->len, NULL, err,
					  err_size);

	if (r) {
		srecreader_close(r);
		snprintf(err, err_size, "opened");
		return false;
	}
	return errno == errno_expected && strstr(err, words);
}

TEST(empty_input)
{
	struct bytes b = { 0 };
	char err[256];

	ASSERT_TRUE(open_fails(&b, EPROTO, "not a schedrec trace (empty",
			       err, sizeof(err))) TH_LOG("%s", err);
}

TEST(wrong_magic)
{
	struct bytes b = { 0 };
	char err[256];

	bytes_add(&b, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16);
	bytes_add(&b, "more bytes that are not a trace at all", 38);
	ASSERT_TRUE(open_fails(&b, EPROTO, "no SREC magic at offset 0", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);
	bytes_add(&b, "SRE", 3);
	ASSERT_TRUE(open_fails(&b, EPROTO, "not a schedrec trace", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);
}

/* A compressed trace: said, with the command that reads it. */
TEST(compressed)
{
	static const struct {
		const char *bytes;
		size_t len;
		const char *says;
	} kinds[] = {
		{ "\x1f\x8b\x08\x00", 4, "gzip-compressed, not a schedrec trace as it is: decompress it (zcat FILE" },
		{ "\xfd\x37\x7a\x58\x5a\x00", 6, "xz-compressed" },
		{ "\x28\xb5\x2f\xfd", 4, "zstd-compressed" },
		{ "BZh9", 4, "bzip2-compressed" },
	};
	struct bytes b = { 0 };
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		bytes_add(&b, kinds[i].bytes, kinds[i].len);
		bytes_add(&b, "and what it compressed", 22);
		EXPECT_TRUE(open_fails(&b, EPROTO, kinds[i].says, err,
				       sizeof(err))) TH_LOG("%s", err);
		bytes_free(&b);
	}
}

TEST(first_section_not_file)
{
	struct srec_table_head table = { 0 };
	struct bytes b = { 0 };
	char err[256];

	put_section(&b, SREC_SEC_EVENTS, &table, sizeof(table), NULL, 0);
	ASSERT_TRUE(open_fails(&b, EBADMSG, "not FILE", err, sizeof(err)))
		TH_LOG("%s", err);
	bytes_free(&b);
}

/* A newer major version is refused, naming both versions. */
TEST(newer_major_version)
{
	struct srec_file_head file = good_file_head();
	struct bytes b = { 0 };
	char err[256], ours[32];

	file.major = 2;
	file.minor = 3;
	/* a newer version may lay its FILE head out differently */
	put_file_head(&b, &file, 256, "whatever", 8);
	ASSERT_TRUE(open_fails(&b, EPROTONOSUPPORT, "version 2.3 is newer",
			       err, sizeof(err))) TH_LOG("%s", err);
	snprintf(ours, sizeof(ours), "reader's %u.%u", SREC_FORMAT_MAJOR,
		 SREC_FORMAT_MINOR);
	ASSERT_NE(NULL, strstr(err, ours)) TH_LOG("%s", err);
	bytes_free(&b);
}

TEST(major_version_zero)
{
	struct srec_file_head file = good_file_head();
	struct bytes b = { 0 };
	char err[256];

	file.major = 0;
	file.minor = 0;
	put_file_head(&b, &file, sizeof(file), NULL, 0);
	ASSERT_TRUE(open_fails(&b, EBADMSG, "format version 0.0", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);
}

/* Impossible FILE fields, each refused, naming the field and its range. */
TEST(file_head_counts)
{
	static const struct {
		uint32_t nr_cpus;
		uint32_t chunk_max;
		const char *says;
	} cases[] = {
		{ 0, SREC_CHUNK_MIN, "a count of 0 CPUs, not 1 to 65536" },
		{ 0xffffffffu, SREC_CHUNK_MIN, "4294967295 CPUs, not 1 to" },
		{ SREC_CPUS_MAX + 1, SREC_CHUNK_MIN, "65537 CPUs, not 1 to" },
		{ 1, 0, "chunks of up to 0 bytes, not 65536 to 16777216" },
		{ 2, SREC_CHUNK_LIMIT + 1, "up to 16777217 bytes, not" },
		{ 2, 0xffffffffu, "up to 4294967295 bytes, not" },
	};
	unsigned int i;
	char err[256];

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct srec_file_head file = good_file_head();
		struct bytes b = { 0 };

		file.nr_cpus = cases[i].nr_cpus;
		file.chunk_max = cases[i].chunk_max;
		put_file_head(&b, &file, sizeof(file), NULL, 0);
		put_tables(&b);
		EXPECT_TRUE(open_fails(&b, EBADMSG, cases[i].says, err,
				       sizeof(err)))
			TH_LOG("case %u: %s", i, err);
		EXPECT_NE(NULL, strstr(err, "corrupt header")) TH_LOG("%s", err);
		bytes_free(&b);
	}
}

TEST(file_head_too_short)
{
	struct srec_file_head file = good_file_head();
	struct bytes b = { 0 };
	char err[256];

	put_file_head(&b, &file, 64, NULL, 0);
	ASSERT_TRUE(open_fails(&b, EBADMSG, "FILE head of 64 bytes", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);
}

TEST(file_strings)
{
	struct srec_file_head file = good_file_head();
	static const char text[] = "0123456789abcdef";
	struct srecreader *r;
	struct bytes b = { 0 };
	char err[256];

	/* past the data */
	file.hostname.off = 10;
	file.hostname.len = 10;
	put_file_head(&b, &file, sizeof(file), text, 16);
	ASSERT_TRUE(open_fails(&b, EBADMSG, "outside the 16 bytes", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);

	/* huge offset, and a length that would wrap */
	file.hostname.off = 0xfffffff0u;
	file.hostname.len = 0x20;
	put_file_head(&b, &file, sizeof(file), text, 16);
	ASSERT_TRUE(open_fails(&b, EBADMSG, "outside", err, sizeof(err)));
	bytes_free(&b);

	/* every string is all of the data: allowed, and each is whole */
	file.release = (struct srec_string){ 0, 16 };
	file.version = file.release;
	file.machine = file.release;
	file.hostname = file.release;
	file.online = (struct srec_string){ 0, 0 };
	file.cmdline = file.release;
	file.filter = file.release;
	put_file_head(&b, &file, sizeof(file), text, 16);
	put_tables(&b);
	r = open_bytes(b.data, b.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_STREQ(text, srecreader_info(r)->hostname);
	EXPECT_STREQ(text, srecreader_info(r)->filter);
	EXPECT_STREQ("", srecreader_info(r)->online);
	srecreader_close(r);
	bytes_free(&b);
}

/* Tables whose counts and sizes disagree with their data. */
TEST(table_sizes)
{
	static const struct {
		uint16_t type;
		uint32_t count;
		uint32_t entry_size;
		uint32_t data_len;
	} cases[] = {
		{ SREC_SEC_EVENTS, 0xffffffffu, 64, 64 },
		{ SREC_SEC_EVENTS, 2, 0, 0 },
		{ SREC_SEC_EVENTS, 0, 0xfffffff0u, 0 },
		{ SREC_SEC_EVENTS, 1, 32, 32 },
		{ SREC_SEC_EVENTS, 0x80000000u, 64, 0 },
		{ SREC_SEC_THREADS, 0xffffffffu, 24, 48 },
		{ SREC_SEC_THREADS, SREC_THREADS_PER_SECTION + 1, 24, 0 },
		{ SREC_SEC_THREADS, 2, 8, 16 },
	};
	static unsigned char zeros[256];
	struct srec_file_head file = good_file_head();
	unsigned int i;
	char err[256];

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct srec_table_head table = {
			.count = cases[i].count,
			.entry_size = cases[i].entry_size,
		};
		struct bytes b = { 0 };

		put_file_head(&b, &file, sizeof(file), NULL, 0);
		put_section(&b, cases[i].type, &table, sizeof(table), zeros,
			    cases[i].data_len);
		put_section(&b, SREC_SEC_HEADER_END, NULL, 0, NULL, 0);
		EXPECT_TRUE(open_fails(&b, EBADMSG, "corrupt header", err,
				       sizeof(err)))
			TH_LOG("case %u: %s", i, err);
		bytes_free(&b);
	}
}

/* A header whose event table is @events (2): its open fails, saying @words. */
static bool events_refused(const struct srec_event *events, const char *words,
			   char *err, size_t err_size)
{
	struct srec_file_head file = good_file_head();
	struct srec_table_head table = { .count = 2, .entry_size = 64 };
	struct bytes b = { 0 };
	bool refused;

	put_file_head(&b, &file, sizeof(file), NULL, 0);
	put_section(&b, SREC_SEC_EVENTS, &table, sizeof(table), events,
		    2 * sizeof(*events));
	put_section(&b, SREC_SEC_HEADER_END, NULL, 0, NULL, 0);
	refused = open_fails(&b, EBADMSG, words, err, err_size);
	bytes_free(&b);
	return refused;
}

TEST(event_table_entries)
{
	struct srec_event events[2] = {
		{ .id = 1, .size = 32 },
		{ .id = 1, .size = 32 },
	};
	char err[256];

	EXPECT_TRUE(events_refused(events, "event table entry 1", err,
				   sizeof(err))) TH_LOG("%s", err);
	events[1].id = 0;
	EXPECT_TRUE(events_refused(events, "event table entry 1", err,
				   sizeof(err))) TH_LOG("%s", err);
	events[1].id = 2;
	events[1].size = 20;
	EXPECT_TRUE(events_refused(events, "event table entry 1", err,
				   sizeof(err))) TH_LOG("%s", err);
	/*
	 * A type of this ABI smaller than its struct (or of any size, 0):
	 * its records would be read past their end.  Larger is a newer
	 * layout's, which keeps ours first.
	 */
	events[1].size = 16;
	EXPECT_TRUE(events_refused(events, "(id 2, size 16): records of that type have 32 bytes",
				   err, sizeof(err))) TH_LOG("%s", err);
	events[1].size = 0;
	EXPECT_TRUE(events_refused(events, "(id 2, size 0): records of that type have 32 bytes",
				   err, sizeof(err))) TH_LOG("%s", err);
	events[1].size = 48;
	EXPECT_FALSE(events_refused(events, "event table", err, sizeof(err)))
		TH_LOG("%s", err);
}

TEST(header_structure)
{
	struct srec_file_head file = good_file_head();
	struct srec_chunk_head chunk = { 0 };
	struct bytes b = { 0 };
	char err[256];

	/* no event table */
	put_file_head(&b, &file, sizeof(file), NULL, 0);
	put_section(&b, SREC_SEC_HEADER_END, NULL, 0, NULL, 0);
	EXPECT_TRUE(open_fails(&b, EBADMSG, "no event table", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);

	/* a chunk before the header ends */
	put_file_head(&b, &file, sizeof(file), NULL, 0);
	put_section(&b, SREC_SEC_CHUNK, &chunk, sizeof(chunk), NULL, 0);
	EXPECT_TRUE(open_fails(&b, EBADMSG, "before the end of the header",
			       err, sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);

	/* the header never ends */
	put_file_head(&b, &file, sizeof(file), NULL, 0);
	EXPECT_TRUE(open_fails(&b, EBADMSG, "ends inside its header", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);
}

/* Frames whose lengths are out of bounds, checksums and all. */
TEST(header_frame_lengths)
{
	struct srec_file_head file = good_file_head();
	struct srec_frame *frame;
	struct bytes b = { 0 };
	char err[256];

	put_file_head(&b, &file, sizeof(file), NULL, 0);
	put_tables(&b);
	frame = (void *)b.data;
	frame->head_len = 0xfffffff8u;
	EXPECT_TRUE(open_fails(&b, EBADMSG, "impossible lengths", err,
			       sizeof(err))) TH_LOG("%s", err);
	frame->head_len = sizeof(file);
	frame->data_len = SREC_DATA_MAX + 1;
	EXPECT_TRUE(open_fails(&b, EBADMSG, "impossible lengths", err,
			       sizeof(err))) TH_LOG("%s", err);
	frame->data_len = 0;
	frame->head_len = 4;
	EXPECT_TRUE(open_fails(&b, EBADMSG, "impossible lengths", err,
			       sizeof(err))) TH_LOG("%s", err);
	bytes_free(&b);
}

/*
 * A newer minor version: a longer FILE head, and section types this
 * reader does not know, in the header and among the chunks.  They are
 * skipped without a fuss.
 */
TEST(newer_minor_version)
{
	struct srec_file_head file = good_file_head();
	struct srecreader_options opt = { .diag = diag_collect };
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct bytes b = { 0 };
	unsigned char future[48] = { 1, 2, 3 };
	struct srecreader *r;
	char err[256];

	file.minor = 7;
	put_file_head(&b, &file, sizeof(file) + 16, NULL, 0);
	put_section(&b, 200, future, sizeof(future), "data", 4);
	put_tables(&b);
	put_switches(&b, 0, 0, 3, 1000);
	put_section(&b, 201, future, sizeof(future), NULL, 0);
	put_section(&b, 0, NULL, 0, "zero type", 9);
	put_switches(&b, 1, 0, 3, 2000);
	opt.diag_arg = &log;
	r = open_bytes(b.data, b.len, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(7, srecreader_info(r)->file.minor);
	EXPECT_EQ(0, read_all(r, &got));
	EXPECT_EQ(6, got.count);
	EXPECT_EQ(3, srecreader_status(r)->unknown);
	EXPECT_EQ(0, srecreader_status(r)->corrupt);
	/* the only warning: this hand-made file has no trailer */
	EXPECT_EQ(1, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&got);
	bytes_free(&b);
}

TEST_HARNESS_MAIN
