// SPDX-License-Identifier: GPL-2.0
/*
 * One hand-made bad section between two good chunks, checksums correct so
 * that only the reader's own checks catch it: impossible counts and sizes,
 * records that break the rules, sequence numbers and timestamps that
 * disagree with the chunk head, zlib data that lies, damaged frames,
 * garbage, a bad SYNC or trailer.  Each is named by its offset and
 * skipped, the good chunks around it read (strict mode: an error naming
 * the offset); a length past the end of the file reads as truncation.
 * And a sound trailer whose totals the sound records do not match.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kselftest_harness.h"

#include "srec_util.h"

/*
 * One bad section between two good chunks.  @bad appends it; @truncates:
 * it is the end of the readable file (a length past the end).
 */
FIXTURE(bad) {
	struct bytes file;
	uint64_t bad_offset;
};

FIXTURE_VARIANT(bad) {
	void (*put)(struct bytes *b);
	const char *says;
	bool truncates;
};

FIXTURE_SETUP(bad)
{
	memset(self, 0, sizeof(*self));
	put_header(&self->file, 2, SREC_FILE_F_FROM_START);
	put_switches(&self->file, 0, 0, 4, 1000);
	self->bad_offset = self->file.len;
	variant->put(&self->file);
	if (!variant->truncates)
		put_switches(&self->file, 1, 0, 4, 2000);
}

FIXTURE_TEARDOWN(bad)
{
	bytes_free(&self->file);
}

TEST_F(bad, skipped)
{
	struct srecreader_options opt = { .diag = diag_collect };
	const struct srecreader_status *status;
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct srecreader *r;
	char err[256];

	opt.diag_arg = &log;
	r = open_bytes(self->file.data, self->file.len, &opt, err,
		       sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_all(r, &got));
	status = srecreader_status(r);
	ASSERT_EQ(variant->truncates ? 4 : 8, got.count);
	EXPECT_EQ(0, got.records[0].cpu);
	EXPECT_EQ(variant->truncates ? 0 : 1, got.records[got.count - 1].cpu);
	EXPECT_TRUE(diag_has_offset(&log, self->bad_offset)) TH_LOG("%s",
								     log.text);
	EXPECT_TRUE(diag_says(&log, variant->says)) TH_LOG("%s", log.text);
	if (variant->truncates) {
		EXPECT_TRUE(status->truncated);
		EXPECT_EQ(0, status->corrupt);
	} else {
		EXPECT_EQ(1, status->corrupt);
		EXPECT_FALSE(status->truncated);
	}
	srecreader_close(r);
	expected_free(&got);
}

TEST_F(bad, strict)
{
	struct srecreader_options opt = { .strict = true };
	struct expected_list got = { 0 };
	struct srecreader *r;
	char err[256], where[64];

	r = open_bytes(self->file.data, self->file.len, &opt, err,
		       sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	if (variant->truncates) {
		/* a cut file is not a corrupt one: strict reads it too */
		ASSERT_EQ(0, read_all(r, &got));
		EXPECT_TRUE(srecreader_status(r)->truncated);
	} else {
		ASSERT_EQ(-EBADMSG, read_all(r, &got));
		snprintf(where, sizeof(where), "offset %llu",
			 (unsigned long long)self->bad_offset);
		EXPECT_NE(NULL, strstr(srecreader_error(r), where))
			TH_LOG("%s", srecreader_error(r));
	}
	srecreader_close(r);
	expected_free(&got);
}

/* The bad sections: a good chunk of cpu 0 (seq 4.., ts 1500..) spoilt. */
#define BAD_CHUNK(name, tweak)						\
static void put_##name(struct bytes *b)					\
{									\
	struct chunk_spec c;						\
									\
	chunk_spec_init(&c, 0, 4, 4, 1500);				\
	tweak;								\
	chunk_spec_put(b, &c);						\
}

BAD_CHUNK(count_zero, c.head.count = 0)
BAD_CHUNK(count_huge, c.head.count = 0xffffffffu)
BAD_CHUNK(count_wrong, c.head.count = 3)
BAD_CHUNK(raw_len_zero, c.head.raw_len = 0; c.data_len = 0)
BAD_CHUNK(raw_len_huge, c.head.raw_len = 0xfffffff0u)
BAD_CHUNK(raw_len_past_chunk_max, c.head.raw_len = SREC_CHUNK_MIN + 16)
BAD_CHUNK(raw_len_odd, c.head.raw_len = 120; c.data_len = 120)
BAD_CHUNK(cpu_out_of_range, c.head.cpu = 2)
BAD_CHUNK(cpu_huge, c.head.cpu = 0xffffffffu)
BAD_CHUNK(head_too_short, c.head_len = 8)
BAD_CHUNK(unknown_flags, c.head.flags = 0x80)
BAD_CHUNK(data_len_mismatch, c.data_len = 96)
BAD_CHUNK(record_size_zero, ((struct schedrec_header *)c.payload)->size = 0)
BAD_CHUNK(record_size_past_end,
	  ((struct schedrec_header *)(c.payload + 96))->size = 48)
BAD_CHUNK(record_size_odd,
	  ((struct schedrec_header *)(c.payload + 32))->size = 24)
BAD_CHUNK(record_type_unknown,
	  ((struct schedrec_header *)(c.payload + 32))->type = 77)
BAD_CHUNK(record_type_zero,
	  ((struct schedrec_header *)(c.payload + 32))->type = 0)
BAD_CHUNK(record_wrong_size_for_type,
	  ((struct schedrec_header *)(c.payload + 32))->type =
	  SCHEDREC_EV_FORK)
BAD_CHUNK(first_seq_mismatch, c.head.first_seq = 3)
BAD_CHUNK(last_seq_mismatch, c.head.last_seq = 9)
BAD_CHUNK(seq_inverted, c.head.first_seq = 7; c.head.last_seq = 4)
BAD_CHUNK(first_ts_mismatch, c.head.first_ts = 1)
BAD_CHUNK(last_ts_mismatch, c.head.last_ts = 0xffffffffffffffffull)
BAD_CHUNK(lost_mismatch, c.head.lost = 12)
/* first and last agree with the head, a record between them does not */
BAD_CHUNK(record_ts_before_first,
	  ((struct schedrec_header *)(c.payload + 32))->ts = 1)
BAD_CHUNK(record_ts_wild,
	  ((struct schedrec_header *)(c.payload + 64))->ts =
	  0x8000000000000000ull)
/* the third numbered as the first: not one past the one before it */
BAD_CHUNK(record_seq_back,
	  ((struct schedrec_header *)(c.payload + 64))->seq = 4)

/* A chunk of cpu 0 numbered as the one before it. */
static void put_seq_goes_back(struct bytes *b)
{
	struct chunk_spec c;

	chunk_spec_init(&c, 0, 0, 4, 1500);
	chunk_spec_put(b, &c);
}

/* LOST records whose counts overflow the running total. */
static void put_lost_overflow(struct bytes *b)
{
	struct chunk_spec c;
	struct schedrec_lost *lost;
	unsigned int i;

	chunk_spec_init(&c, 0, 4, 1, 1500);
	for (i = 0; i < 2; i++) {
		lost = (void *)(c.payload + 32 + 48 * i);
		memset(lost, 0, sizeof(*lost));
		lost->hdr.ts = 1600 + i;
		lost->hdr.size = sizeof(*lost);
		lost->hdr.type = SCHEDREC_REC_LOST;
		lost->count = 0x8000000000000000ull;
	}
	c.head.count = 3;
	c.head.last_seq = 100;
	c.head.last_ts = 1601;
	c.head.raw_len = c.data_len = 32 + 96;
	chunk_spec_put(b, &c);
}

/* zlib data that is not zlib. */
static void put_zlib_garbage(struct bytes *b)
{
	struct chunk_spec c;

	chunk_spec_init(&c, 0, 4, 4, 1500);
	c.head.flags = SREC_CHUNK_ZLIB;
	memset(c.payload, 0x5a, c.data_len);
	chunk_spec_put(b, &c);
}

/* zlib data that inflates to far more than the head says (a bomb). */
static void put_zlib_bomb(struct bytes *b)
{
	static unsigned char big[1 << 20], packed[1 << 14];
	uLongf packed_len = sizeof(packed);
	struct chunk_spec c;

	chunk_spec_init(&c, 0, 4, 4, 1500);
	memcpy(big, c.payload, c.head.raw_len);
	if (compress(packed, &packed_len, big, sizeof(big)) != Z_OK)
		abort();
	c.head.flags = SREC_CHUNK_ZLIB;
	c.data = packed;
	c.data_len = packed_len;
	chunk_spec_put(b, &c);
}

/* zlib data that inflates to less than the head says. */
static void put_zlib_short(struct bytes *b)
{
	static unsigned char packed[512];
	uLongf packed_len = sizeof(packed);
	struct chunk_spec c;

	chunk_spec_init(&c, 0, 4, 4, 1500);
	if (compress(packed, &packed_len, c.payload, 96) != Z_OK)
		abort();
	c.head.flags = SREC_CHUNK_ZLIB;
	c.data = packed;
	c.data_len = packed_len;
	chunk_spec_put(b, &c);
}

/* A frame claiming more data than any section may hold. */
static void put_data_len_huge(struct bytes *b)
{
	size_t at = b->len;
	struct srec_frame *frame;
	struct chunk_spec c;
	uLong crc;

	chunk_spec_init(&c, 0, 4, 4, 1500);
	chunk_spec_put(b, &c);
	frame = (void *)(b->data + at);
	frame->data_len = 0xfffffff0u;
	crc = crc32(0, (const Bytef *)frame, SREC_FRAME_CRC_LEN);
	frame->head_crc = crc32(crc, (const Bytef *)(frame + 1),
				frame->head_len);
}

/* A sound frame whose data runs past the end of the file. */
static void put_data_past_end(struct bytes *b)
{
	size_t at = b->len;
	struct srec_frame *frame;
	struct chunk_spec c;
	uLong crc;

	chunk_spec_init(&c, 0, 4, 4, 1500);
	chunk_spec_put(b, &c);
	frame = (void *)(b->data + at);
	frame->data_len = 1 << 20;
	crc = crc32(0, (const Bytef *)frame, SREC_FRAME_CRC_LEN);
	frame->head_crc = crc32(crc, (const Bytef *)(frame + 1),
				frame->head_len);
}

static void put_garbage(struct bytes *b)
{
	static const char junk[200] = "this is not a section";

	bytes_add(b, junk, sizeof(junk));
}

/* A SYNC with data (a newer minor's?) whose padding is not zeros. */
static void put_nonzero_padding(struct bytes *b)
{
	struct srec_sync_head sync = { .horizon_ns = 1 };

	put_section(b, SREC_SEC_SYNC, &sync, sizeof(sync), "abc", 3);
	b->data[b->len - 1] = 0xff;
}

static void put_header_section(struct bytes *b)
{
	struct srec_file_head file = good_file_head();

	put_section(b, SREC_SEC_FILE, &file, sizeof(file), NULL, 0);
}

static void put_sync_too_short(struct bytes *b)
{
	put_section(b, SREC_SEC_SYNC, NULL, 0, NULL, 0);
}

static void put_trailer_huge(struct bytes *b)
{
	struct srec_trailer_head t = {
		.count = 0xffffffffu,
		.entry_size = sizeof(struct srec_cpu_total),
	};

	put_section(b, SREC_SEC_TRAILER, &t, sizeof(t), NULL, 0);
}

static void put_trailer_bad_cpu(struct bytes *b)
{
	struct srec_trailer_head t = {
		.count = 1,
		.entry_size = sizeof(struct srec_cpu_total),
	};
	struct srec_cpu_total total = { .cpu = 9 };

	put_section(b, SREC_SEC_TRAILER, &t, sizeof(t), &total,
		    sizeof(total));
}

FIXTURE_VARIANT_ADD(bad, count_zero) {
	.put = put_count_zero,
	.says = "0 records in 128 bytes",
};

FIXTURE_VARIANT_ADD(bad, count_huge) {
	.put = put_count_huge,
	.says = "4294967295 records in 128 bytes",
};

FIXTURE_VARIANT_ADD(bad, count_wrong) {
	.put = put_count_wrong,
	.says = "4 records, the head says 3",
};

FIXTURE_VARIANT_ADD(bad, raw_len_zero) {
	.put = put_raw_len_zero,
	.says = "chunk payload of 0 bytes",
};

FIXTURE_VARIANT_ADD(bad, raw_len_huge) {
	.put = put_raw_len_huge,
	.says = "chunk payload of 4294967280 bytes",
};

FIXTURE_VARIANT_ADD(bad, raw_len_past_chunk_max) {
	.put = put_raw_len_past_chunk_max,
	.says = "chunk payload of 65552 bytes",
};

FIXTURE_VARIANT_ADD(bad, raw_len_odd) {
	.put = put_raw_len_odd,
	.says = "chunk payload of 120 bytes",
};

FIXTURE_VARIANT_ADD(bad, cpu_out_of_range) {
	.put = put_cpu_out_of_range,
	.says = "chunk of cpu 2, the file has 2",
};

FIXTURE_VARIANT_ADD(bad, cpu_huge) {
	.put = put_cpu_huge,
	.says = "chunk of cpu 4294967295",
};

FIXTURE_VARIANT_ADD(bad, head_too_short) {
	.put = put_head_too_short,
	.says = "chunk head of 8 bytes",
};

FIXTURE_VARIANT_ADD(bad, unknown_flags) {
	.put = put_unknown_flags,
	.says = "unknown chunk flags 0x80",
};

FIXTURE_VARIANT_ADD(bad, data_len_mismatch) {
	.put = put_data_len_mismatch,
	.says = "96 bytes of data for a payload of 128",
};

FIXTURE_VARIANT_ADD(bad, record_size_zero) {
	.put = put_record_size_zero,
	.says = "record at payload byte 0 has size 0",
};

FIXTURE_VARIANT_ADD(bad, record_size_past_end) {
	.put = put_record_size_past_end,
	.says = "record at payload byte 96 has size 48",
};

FIXTURE_VARIANT_ADD(bad, record_size_odd) {
	.put = put_record_size_odd,
	.says = "record at payload byte 32 has size 24",
};

FIXTURE_VARIANT_ADD(bad, record_type_unknown) {
	.put = put_record_type_unknown,
	.says = "type 77, not in the event table",
};

FIXTURE_VARIANT_ADD(bad, record_type_zero) {
	.put = put_record_type_zero,
	.says = "type 0, not in the event table",
};

FIXTURE_VARIANT_ADD(bad, record_wrong_size_for_type) {
	.put = put_record_wrong_size_for_type,
	.says = "of type 6 has size 32, not 48",
};

FIXTURE_VARIANT_ADD(bad, first_seq_mismatch) {
	.put = put_first_seq_mismatch,
	.says = "sequence numbers 4..7, the head says 3..7",
};

FIXTURE_VARIANT_ADD(bad, last_seq_mismatch) {
	.put = put_last_seq_mismatch,
	.says = "sequence numbers 4..7, the head says 4..9",
};

FIXTURE_VARIANT_ADD(bad, seq_goes_back) {
	.put = put_seq_goes_back,
	.says = "sequence numbers go back to 0 after 3",
};

FIXTURE_VARIANT_ADD(bad, seq_inverted) {
	.put = put_seq_inverted,
	.says = "4 records numbered 7..4",
};

FIXTURE_VARIANT_ADD(bad, first_ts_mismatch) {
	.put = put_first_ts_mismatch,
	.says = "timestamps 1500..1530, the head says 1..1530",
};

FIXTURE_VARIANT_ADD(bad, last_ts_mismatch) {
	.put = put_last_ts_mismatch,
	.says = "the head says 1500..18446744073709551615",
};

FIXTURE_VARIANT_ADD(bad, record_ts_before_first) {
	.put = put_record_ts_before_first,
	.says = "record at payload byte 32 has timestamp 1, outside the head's 1500..1530",
};

FIXTURE_VARIANT_ADD(bad, record_ts_wild) {
	.put = put_record_ts_wild,
	.says = "record at payload byte 64 has timestamp 9223372036854775808, outside the head's 1500..1530",
};

FIXTURE_VARIANT_ADD(bad, record_seq_back) {
	.put = put_record_seq_back,
	.says = "sequence numbers 4..4294967303, the head says 4..7",
};

FIXTURE_VARIANT_ADD(bad, lost_mismatch) {
	.put = put_lost_mismatch,
	.says = "LOST records count 0, the head says 12",
};

FIXTURE_VARIANT_ADD(bad, lost_overflow) {
	.put = put_lost_overflow,
	.says = "LOST counts overflow",
};

FIXTURE_VARIANT_ADD(bad, zlib_garbage) {
	.put = put_zlib_garbage,
	.says = "zlib data that is not 128 bytes",
};

FIXTURE_VARIANT_ADD(bad, zlib_bomb) {
	.put = put_zlib_bomb,
	.says = "zlib data that is not 128 bytes",
};

FIXTURE_VARIANT_ADD(bad, zlib_short) {
	.put = put_zlib_short,
	.says = "zlib data that is not 128 bytes",
};

FIXTURE_VARIANT_ADD(bad, data_len_huge) {
	.put = put_data_len_huge,
	.says = "impossible lengths",
};

FIXTURE_VARIANT_ADD(bad, garbage) {
	.put = put_garbage,
	.says = "no section magic",
};

FIXTURE_VARIANT_ADD(bad, nonzero_padding) {
	.put = put_nonzero_padding,
	.says = "padding is not zeros",
};

FIXTURE_VARIANT_ADD(bad, header_section) {
	.put = put_header_section,
	.says = "a header section after the header",
};

FIXTURE_VARIANT_ADD(bad, sync_too_short) {
	.put = put_sync_too_short,
	.says = "SYNC head too short",
};

FIXTURE_VARIANT_ADD(bad, trailer_huge) {
	.put = put_trailer_huge,
	.says = "trailer of impossible size",
};

FIXTURE_VARIANT_ADD(bad, trailer_bad_cpu) {
	.put = put_trailer_bad_cpu,
	.says = "trailer entry for cpu 9",
};

FIXTURE_VARIANT_ADD(bad, data_past_end) {
	.put = put_data_past_end,
	.says = "the file is truncated",
	.truncates = true,
};

/*
 * Sound sections whose trailer counts @cpu1_records records of cpu 1
 * (4 were written): read whole, and the status says whether they agree.
 */
static void read_with_trailer(struct __test_metadata *_metadata,
			      uint64_t cpu1_records, bool disagrees)
{
	struct srecreader_options opt = { .diag = diag_collect };
	struct srec_trailer_head t = {
		.count = 2, .entry_size = sizeof(struct srec_cpu_total),
	};
	struct srec_cpu_total totals[2] = {
		{ .cpu = 0, .chunks = 1, .records = 4 },
		{ .cpu = 1, .chunks = 1, .records = cpu1_records },
	};
	const struct srecreader_status *status;
	struct expected_list got = { 0 };
	struct diag_log log = { 0 };
	struct bytes file = { 0 };
	struct srecreader *r;
	char err[256];

	put_header(&file, 2, SREC_FILE_F_FROM_START);
	put_switches(&file, 0, 0, 4, 1000);
	put_switches(&file, 1, 0, 4, 2000);
	put_section(&file, SREC_SEC_TRAILER, &t, sizeof(t), totals,
		    sizeof(totals));
	opt.diag_arg = &log;
	r = open_bytes(file.data, file.len, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_all(r, &got));
	status = srecreader_status(r);
	EXPECT_EQ(8, got.count);
	EXPECT_TRUE(status->trailer);
	EXPECT_EQ(0, status->corrupt);
	EXPECT_EQ(disagrees, status->disagrees);
	EXPECT_EQ(disagrees, diag_says(&log, "cpu 1: the trailer counts 5 records"))
		TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&got);
	bytes_free(&file);
}

/* A trailer the records do not match: every record read, and it is said. */
TEST(trailer_disagrees)
{
	read_with_trailer(_metadata, 5, true);
	read_with_trailer(_metadata, 4, false);
}

TEST_HARNESS_MAIN
