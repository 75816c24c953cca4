// SPDX-License-Identifier: GPL-2.0
/*
 * A small trace (two CPUs, raw and zlib chunks, LOST and PAD records, SYNC
 * sections, a trailer) damaged in every way a byte can be: cut at every
 * offset, and every bit flipped.  Each case must read what is intact and
 * name what is not by its offset, or fail with a clear message; never
 * crash, hang or read out of bounds (the library is built with ASan and
 * UBSan here).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "srec_util.h"

#define MAX_SECTIONS	64

FIXTURE(small) {
	struct bytes file;
	struct expected_list intact;	/* what the undamaged file holds */
	struct section sections[MAX_SECTIONS];
	size_t nr_sections;
	uint64_t header_end;		/* end of HEADER_END */
	unsigned char *copy;
};

FIXTURE_SETUP(small)
{
	struct synth synth;
	unsigned int i, raw = 0, zlib = 0, sync = 0;
	struct srecreader *r;
	char err[256];

	memset(self, 0, sizeof(*self));
	synth_init(&synth, 2, 9);
	synth_lost(&synth, 0, 3);
	synth_pad(&synth, 1, 32);
	for (i = 0; i < 20; i++)
		synth_event(&synth, 1, SCHEDREC_EV_SWITCH);
	ASSERT_EQ(0, synth_to_bytes(&synth, &self->file, 6, 6, 2));
	self->nr_sections = walk_sections(self->file.data, self->file.len,
					  self->sections, MAX_SECTIONS);
	for (i = 0; i < self->nr_sections; i++) {
		const struct section *s = &self->sections[i];

		if (s->type == SREC_SEC_HEADER_END)
			self->header_end = s->end;
		if (s->type == SREC_SEC_SYNC)
			sync++;
		if (s->type != SREC_SEC_CHUNK)
			continue;
		if (s->chunk_flags & SREC_CHUNK_ZLIB)
			zlib++;
		else
			raw++;
	}
	/* the trace has what it must to be a good target */
	ASSERT_LT(0u, raw);
	ASSERT_LT(0u, zlib);
	ASSERT_LT(0u, sync);
	ASSERT_EQ(SREC_SEC_TRAILER,
		  self->sections[self->nr_sections - 1].type);
	ASSERT_EQ(self->file.len, self->sections[self->nr_sections - 1].end);
	ASSERT_GT(8192u, self->file.len);

	r = open_bytes(self->file.data, self->file.len, NULL, err,
		       sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_all(r, &self->intact));
	ASSERT_TRUE(same_records(&synth.expected, &self->intact));
	srecreader_close(r);
	synth_free(&synth);
	self->copy = malloc(self->file.len);
	ASSERT_NE(NULL, self->copy);
}

FIXTURE_TEARDOWN(small)
{
	free(self->copy);
	expected_free(&self->intact);
	bytes_free(&self->file);
}

static const struct section *section_at(const struct section *sections,
					size_t count, uint64_t offset)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (offset >= sections[i].offset && offset < sections[i].end)
			return &sections[i];
	return NULL;
}

static uint64_t section_end(const struct section *sections, size_t count,
			    uint64_t offset)
{
	const struct section *s = section_at(sections, count, offset);

	return s ? s->end : UINT64_MAX;
}

/* The intact records, less those of chunks that @keep refuses. */
static void intact_except(const struct expected_list *intact,
			  struct expected_list *out,
			  bool (*keep)(const struct expected_record *, void *),
			  void *arg)
{
	size_t i;

	for (i = 0; i < intact->count; i++)
		if (keep(&intact->records[i], arg))
			expected_add(out, &intact->records[i]);
}

/*
 * A damaged head_len that makes the last section's head reach past the end
 * of the file cannot be told from a file cut inside that head (the
 * checksum that would tell is over the missing bytes, and no sound frame
 * follows): it reads as truncation.
 */
static bool head_len_past_end(const unsigned char *copy, uint64_t len,
			      const struct section *sec, uint64_t pos)
{
	uint64_t field = sec->offset + SREC_OFFSET(srec_frame, head_len);
	uint32_t head_len;

	if (pos < field || pos >= field + sizeof(head_len) ||
	    sec->end != len)
		return false;
	memcpy(&head_len, copy + field, sizeof(head_len));
	return head_len % SREC_ALIGN == 0 && head_len <= SREC_HEAD_MAX &&
	       sec->offset + sizeof(struct srec_frame) + head_len > len;
}

struct cut {
	const struct section *sections;
	size_t count;
	uint64_t len;
};

static bool chunk_complete(const struct expected_record *rec, void *arg)
{
	const struct cut *cut = arg;

	return section_end(cut->sections, cut->count, rec->chunk_offset) <=
	       cut->len;
}

static bool chunk_elsewhere(const struct expected_record *rec, void *arg)
{
	return rec->chunk_offset != *(uint64_t *)arg;
}

/*
 * Cut at every offset: inside the header, open fails and says why; after
 * it, every complete chunk reads back, and a warning says what is missing.
 */
TEST_F(small, cut_everywhere)
{
	struct cut cut = {
		.sections = self->sections,
		.count = self->nr_sections,
	};
	uint64_t len;

	for (len = 0; len <= self->file.len; len++) {
		struct srecreader_options opt = { .diag = diag_collect };
		const struct srecreader_status *status;
		struct expected_list got = { 0 }, want = { 0 };
		struct diag_log log = { 0 };
		struct srecreader *r;
		char err[512] = "";

		opt.diag_arg = &log;
		r = open_bytes(self->file.data, len, &opt, err, sizeof(err));
		if (len < self->header_end) {
			/* under 4 bytes, not even the magic is there */
			const char *says = len < 4 ? "not a schedrec trace" :
					   "ends inside its header";

			ASSERT_EQ(NULL, r) TH_LOG("cut at %llu opened",
						  (unsigned long long)len);
			ASSERT_TRUE(errno == EPROTO || errno == EBADMSG);
			ASSERT_NE(NULL, strstr(err, says))
				TH_LOG("cut at %llu: %s",
				       (unsigned long long)len, err);
			continue;
		}
		ASSERT_NE(NULL, r) TH_LOG("cut at %llu: %s",
					  (unsigned long long)len, err);
		ASSERT_EQ(0, read_all(r, &got));
		cut.len = len;
		intact_except(&self->intact, &want, chunk_complete, &cut);
		ASSERT_TRUE(same_records(&want, &got))
			TH_LOG("cut at %llu: %zu records, %zu expected",
			       (unsigned long long)len, got.count, want.count);
		status = srecreader_status(r);
		if (len == self->file.len) {
			ASSERT_EQ(0, log.warnings) TH_LOG("%s", log.text);
			ASSERT_TRUE(status->trailer);
		} else {
			ASSERT_FALSE(status->trailer);
			ASSERT_TRUE(diag_says(&log, "no trailer"));
			const struct section *at = section_at(self->sections,
							      self->nr_sections,
							      len - 1);
			char same[96];

			/* a cut inside a section's head names one offset */
			snprintf(same, sizeof(same),
				 "offset %llu is incomplete at offset %llu",
				 (unsigned long long)at->offset,
				 (unsigned long long)at->offset);
			if (at->end != len) {
				ASSERT_TRUE(status->truncated);
				ASSERT_TRUE(diag_says(&log, "truncated"));
				ASSERT_FALSE(diag_says(&log, same))
					TH_LOG("%s", log.text);
			} else {
				ASSERT_FALSE(status->truncated);
			}
		}
		srecreader_close(r);
		expected_free(&got);
		expected_free(&want);
	}
}

/*
 * Whether the records can be read with the byte at @pos of the header
 * section @sec damaged: not in FILE's frame and head (the CPUs, the clock,
 * the options), nor in the event table's frame and head (the size of every
 * type of record: the reader's own table stands in for its data, of the
 * same ABI and as many types, but only its head tells how many).
 */
static bool header_can_do_without(const struct section *sec, uint64_t pos)
{
	if (sec->type == SREC_SEC_EVENTS)
		return pos >= sec->offset + sizeof(struct srec_frame) +
			      sizeof(struct srec_table_head);
	return sec->type != SREC_SEC_FILE ||
	       pos >= sizeof(struct srec_frame) + sizeof(struct srec_file_head);
}

/*
 * Flip every bit: in the frame or head of FILE or the event table, open
 * fails; anywhere else the damaged section is named by its offset and
 * skipped (or replaced), and the records of every other chunk are read
 * back in order.
 */
TEST_F(small, flip_every_bit)
{
	uint64_t flip;

	for (flip = 0; flip < 8 * self->file.len; flip++) {
		struct srecreader_options opt = { .diag = diag_collect };
		struct expected_list got = { 0 }, want = { 0 };
		uint64_t pos = flip / 8, len = self->file.len;
		const struct section *sec;
		struct diag_log log = { 0 };
		unsigned int bit = flip % 8;
		struct srecreader *r;
		char err[512] = "";

		sec = section_at(self->sections, self->nr_sections, pos);
		memcpy(self->copy, self->file.data, len);
		self->copy[pos] ^= 1u << bit;
		opt.diag_arg = &log;
		r = open_bytes(self->copy, len, &opt, err, sizeof(err));
		if (pos < self->header_end &&
		    !header_can_do_without(sec, pos)) {
			ASSERT_EQ(NULL, r) TH_LOG("byte %llu bit %u: opened",
						  (unsigned long long)pos, bit);
			/* or the magic or the version is what it hit */
			ASSERT_TRUE(strstr(err, "corrupt header") ||
				    strstr(err, "not a schedrec trace") ||
				    strstr(err, "version"))
				TH_LOG("byte %llu bit %u: %s",
				       (unsigned long long)pos, bit, err);
			continue;
		}
		ASSERT_NE(NULL, r) TH_LOG("byte %llu bit %u: %s",
					  (unsigned long long)pos, bit, err);
		ASSERT_EQ(0, read_all(r, &got));
		ASSERT_TRUE(diag_has_offset(&log, sec->offset))
			TH_LOG("byte %llu bit %u, section at %llu: %s",
			       (unsigned long long)pos, bit,
			       (unsigned long long)sec->offset, log.text);
		if (head_len_past_end(self->copy, len, sec, pos)) {
			ASSERT_TRUE(srecreader_status(r)->truncated);
		} else {
			ASSERT_LE(1, srecreader_status(r)->corrupt)
				TH_LOG("byte %llu bit %u: %s",
				       (unsigned long long)pos, bit, log.text);
		}
		/*
		 * the trailer: it was there, but damaged (unless its type
		 * no longer says so, or its head seems to run past the end)
		 */
		if (sec->type == SREC_SEC_TRAILER &&
		    !head_len_past_end(self->copy, len, sec, pos) &&
		    (pos < sec->offset + SREC_OFFSET(srec_frame, type) ||
		     pos >= sec->offset + SREC_OFFSET(srec_frame, flags)))
			ASSERT_TRUE(diag_says(&log, "the trailer is damaged"))
				TH_LOG("byte %llu bit %u: %s",
				       (unsigned long long)pos, bit, log.text);
		intact_except(&self->intact, &want, chunk_elsewhere,
			      (void *)&sec->offset);
		ASSERT_TRUE(same_records(&want, &got))
			TH_LOG("byte %llu bit %u: %zu records, %zu expected",
			       (unsigned long long)pos, bit, got.count,
			       want.count);
		srecreader_close(r);
		expected_free(&got);
		expected_free(&want);
	}
}

/* Strict mode: the same damage is an error naming the offset. */
TEST_F(small, flip_strict)
{
	struct srecreader_options opt = { .strict = true };
	uint64_t pos;

	for (pos = self->header_end; pos < self->file.len; pos++) {
		const struct section *sec = section_at(self->sections,
						       self->nr_sections, pos);
		struct expected_list got = { 0 };
		struct srecreader *r;
		char err[512], where[64];

		memcpy(self->copy, self->file.data, self->file.len);
		self->copy[pos] ^= 1u << (pos % 8);
		r = open_bytes(self->copy, self->file.len, &opt, err,
			       sizeof(err));
		ASSERT_NE(NULL, r) TH_LOG("%s", err);
		if (head_len_past_end(self->copy, self->file.len, sec, pos)) {
			ASSERT_EQ(0, read_all(r, &got));
			ASSERT_TRUE(srecreader_status(r)->truncated);
			srecreader_close(r);
			expected_free(&got);
			continue;
		}
		ASSERT_EQ(-EBADMSG, read_all(r, &got));
		snprintf(where, sizeof(where), "offset %llu",
			 (unsigned long long)sec->offset);
		ASSERT_NE(NULL, strstr(srecreader_error(r), where))
			TH_LOG("byte %llu: %s", (unsigned long long)pos,
			       srecreader_error(r));
		/* the error sticks */
		ASSERT_EQ(-EBADMSG, read_all(r, &got));
		srecreader_close(r);
		expected_free(&got);
	}
}

TEST_HARNESS_MAIN
