// SPDX-License-Identifier: GPL-2.0
/*
 * Stack records and the kallsyms snapshot through the .srec writer and
 * reader: STACK records of odd and even depth between switch records, and
 * a KSYMS section made by srecsys_kallsyms() from a synthetic text, read
 * back as written; a snapshot whose addresses are all 0 is flagged hidden.
 * Hostile STACK records (a count larger than the record holds, a size
 * that is not the count's, a count above the maximum, a record too short
 * to hold a count, at the very end of the payload) are refused by the
 * writer and skipped as corrupt by the reader's chunk checks, never read
 * out of bounds (this runs under ASan).  A KSYMS section that lies about
 * its length, or a second one, makes the header corrupt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "kselftest_harness.h"

#include "srec_util.h"
#include "srecsys.h"

static const char kallsyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81100000 t do_nanosleep\n"
	"ffffffff81100200 T hrtimer_nanosleep\n"
	"ffffffff81200000 D jiffies\n"
	"ffffffffc0001000 t ext4_file_read_iter\t[ext4]\n";

static const char hidden_text[] =
	"0000000000000000 T _stext\n"
	"0000000000000000 t do_nanosleep\n";

/* A temporary file holding @text; its path in @path. */
static void temp_file(const char *text, char *path, size_t size)
{
	int fd;

	snprintf(path, size, "/tmp/srec_stack_test.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
}

/* A STACK record of @nr addresses at @buf, the ips made up from @seq. */
static size_t put_stack(unsigned char *buf, uint64_t ts, uint32_t seq,
			unsigned int nr)
{
	struct schedrec_stack *st = (void *)buf;
	unsigned int i;

	memset(buf, 0, SCHEDREC_STACK_SIZE(nr));
	st->hdr.ts = ts;
	st->hdr.seq = seq;
	st->hdr.size = SCHEDREC_STACK_SIZE(nr);
	st->hdr.type = SCHEDREC_EV_STACK;
	st->tid = 4242;
	st->nr = nr;
	for (i = 0; i < nr; i++)
		st->ips[i] = 0xffffffff81100000ull + 0x10 * i + seq;
	return st->hdr.size;
}

static size_t put_switch(unsigned char *buf, uint64_t ts, uint32_t seq)
{
	struct schedrec_switch *sw = (void *)buf;

	memset(sw, 0, sizeof(*sw));
	sw->hdr.ts = ts;
	sw->hdr.seq = seq;
	sw->hdr.size = sizeof(*sw);
	sw->hdr.type = SCHEDREC_EV_SWITCH;
	sw->prev_tid = 4242;
	sw->next_tid = 0;
	sw->prev_state = 1;
	return sw->hdr.size;
}

/* Write a file: header with @ksyms (or none), then @len bytes of CPU 0. */
static void write_file(struct bytes *out, const struct srecsys_ksyms *ksyms,
		       const void *records, size_t len, int zlib_level)
{
	struct srecwriter_options opt = { .nr_cpus = 1,
					  .zlib_level = zlib_level };
	struct srecwriter_trailer trailer = { 0 };
	struct srecwriter_header hdr;
	struct srecwriter *w;
	unsigned char buf[65536];
	int fd = memfd_create("srec", 0);
	ssize_t done;

	if (fd < 0 || srecwriter_open(&w, fd, &opt))
		abort();
	test_header(&hdr);
	hdr.event_mask |= 1u << SCHEDREC_EV_STACK;
	hdr.online = "0";
	if (ksyms)
		srecsys_fill_ksyms(ksyms, &hdr);
	if (srecwriter_write_header(w, &hdr) ||
	    srecwriter_append(w, 0, records, len) ||
	    srecwriter_write_trailer(w, &trailer))
		abort();
	srecwriter_close(w);
	lseek(fd, 0, SEEK_SET);
	while ((done = read(fd, buf, sizeof(buf))) > 0)
		bytes_add(out, buf, done);
	close(fd);
}

FIXTURE(stack) {
	unsigned char records[2048];
	size_t len;
	struct srecsys_ksyms ksyms;
	char path[64];
};

FIXTURE_VARIANT(stack) {
	int zlib_level;
};

FIXTURE_VARIANT_ADD(stack, raw) {
	.zlib_level = 0,
};

FIXTURE_VARIANT_ADD(stack, zlib) {
	.zlib_level = 6,
};

/* stack(3) switch stack(4) switch stack(0) switch stack(32) switch */
FIXTURE_SETUP(stack)
{
	static const unsigned int depths[] = { 3, 4, 0, 32 };
	unsigned int i;

	memset(self, 0, sizeof(*self));
	for (i = 0; i < ARRAY_SIZE(depths); i++) {
		uint64_t ts = 1000000 + 1000 * i;

		self->len += put_stack(self->records + self->len, ts, 2 * i,
				       depths[i]);
		self->len += put_switch(self->records + self->len, ts,
					2 * i + 1);
	}
	temp_file(kallsyms_text, self->path, sizeof(self->path));
	ASSERT_EQ(0, srecsys_kallsyms(&self->ksyms, self->path));
}

FIXTURE_TEARDOWN(stack)
{
	srecsys_kallsyms_free(&self->ksyms);
	unlink(self->path);
}

TEST_F(stack, round_trip)
{
	const struct srecreader_info *info;
	struct diag_log log = { 0 };
	struct srecreader_options opt = { .diag = diag_collect,
					  .diag_arg = &log };
	const struct srec_event *ev;
	struct bytes file = { 0 };
	struct srec_record rec;
	struct srecreader *r;
	size_t pos = 0;
	char err[256];
	int ret;

	EXPECT_EQ(strlen(kallsyms_text), self->ksyms.raw_len);
	EXPECT_EQ(0u, self->ksyms.flags);
	EXPECT_EQ(5u, self->ksyms.lines);
	write_file(&file, &self->ksyms, self->records, self->len,
		   variant->zlib_level);
	r = open_bytes(file.data, file.len, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	info = srecreader_info(r);
	EXPECT_EQ(1, info->file.minor);
	ASSERT_NE(NULL, info->kallsyms);
	EXPECT_EQ(strlen(kallsyms_text), info->kallsyms_len);
	EXPECT_STREQ(kallsyms_text, info->kallsyms);
	EXPECT_EQ(0u, info->kallsyms_flags);
	ev = srecreader_event(r, SCHEDREC_EV_STACK);
	ASSERT_NE(NULL, ev);
	EXPECT_STREQ("stack", ev->name);
	EXPECT_STREQ("sched_switch", ev->tracepoint);
	EXPECT_EQ(0u, ev->size);
	EXPECT_EQ(SREC_EVENT_F_ENABLED, ev->flags);
	/* the records come back byte for byte, in order */
	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0) {
		ASSERT_GE(self->len - pos, rec.hdr->size);
		EXPECT_EQ(0, memcmp(self->records + pos, rec.hdr,
				    rec.hdr->size))
			TH_LOG("record at byte %zu", pos);
		pos += rec.hdr->size;
	}
	EXPECT_EQ(0, ret);
	EXPECT_EQ(self->len, pos);
	EXPECT_EQ(0u, log.warnings) TH_LOG("%s", log.text);
	srecreader_close(r);
	bytes_free(&file);
}

/* A file without a snapshot says so: NULL, 0. */
TEST_F(stack, no_snapshot)
{
	struct bytes file = { 0 };
	struct srecreader *r;
	char err[256];

	write_file(&file, NULL, self->records, self->len,
		   variant->zlib_level);
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(NULL, srecreader_info(r)->kallsyms);
	EXPECT_EQ(0u, srecreader_info(r)->kallsyms_len);
	srecreader_close(r);
	bytes_free(&file);
}

/* Addresses that kptr_restrict hid: recorded all the same, and flagged. */
TEST(hidden_snapshot)
{
	struct srecsys_ksyms ksyms;
	char path[64];

	temp_file(hidden_text, path, sizeof(path));
	ASSERT_EQ(0, srecsys_kallsyms(&ksyms, path));
	unlink(path);
	EXPECT_EQ(SREC_KSYMS_F_HIDDEN, ksyms.flags);
	EXPECT_EQ(2u, ksyms.lines);
	EXPECT_EQ(strlen(hidden_text), ksyms.raw_len);
	srecsys_kallsyms_free(&ksyms);
	EXPECT_EQ(-ENOENT, srecsys_kallsyms(&ksyms, "/nonexistent/kallsyms"));
}

/* How a hostile STACK record is made from a good one of 4 addresses. */
enum spoil {
	NR_TOO_BIG,		/* nr 6 in the 64 bytes of nr 4 (or 5) */
	NR_TOO_SMALL,		/* nr 1 in the 64 bytes of nr 4 */
	NR_ABOVE_MAX,		/* nr 33 in the 288 bytes it would take */
	TOO_SHORT,		/* 16 bytes: no room for nr at all */
};

/*
 * A chunk of CPU 0: switch, the spoilt stack last (so that any read past
 * it is past the payload), checksums and head all correct.
 */
static void put_hostile_chunk(struct bytes *b, enum spoil how)
{
	struct chunk_spec c;
	struct schedrec_stack *st;
	uint32_t size;

	chunk_spec_init(&c, 0, 0, 1, 1000);
	st = (void *)(c.payload + 32);
	put_stack((void *)st, 1010, 1, 4);
	switch (how) {
	case NR_TOO_BIG:
		st->nr = 6;
		break;
	case NR_TOO_SMALL:
		st->nr = 1;
		break;
	case NR_ABOVE_MAX:
		st->nr = SCHEDREC_STACK_MAX_DEPTH + 1;
		st->hdr.size = SCHEDREC_STACK_SIZE(st->nr);
		break;
	case TOO_SHORT:
		st->hdr.size = sizeof(struct schedrec_header);
		break;
	}
	size = st->hdr.size;
	c.head.count = 2;
	c.head.last_seq = 1;
	c.head.last_ts = 1010;
	c.head.raw_len = c.data_len = 32 + size;
	chunk_spec_put(b, &c);
}

FIXTURE(hostile) {
	struct bytes file;
	uint64_t bad_offset;
	unsigned char record[SCHEDREC_STACK_MAX_SIZE + 64];
};

FIXTURE_VARIANT(hostile) {
	enum spoil how;
	const char *says;
};

FIXTURE_VARIANT_ADD(hostile, nr_too_big) {
	.how = NR_TOO_BIG, .says = "do not hold the 6 addresses",
};

FIXTURE_VARIANT_ADD(hostile, nr_too_small) {
	.how = NR_TOO_SMALL, .says = "do not hold the 1 addresses",
};

FIXTURE_VARIANT_ADD(hostile, nr_above_max) {
	.how = NR_ABOVE_MAX, .says = "do not hold the 33 addresses",
};

FIXTURE_VARIANT_ADD(hostile, too_short) {
	.how = TOO_SHORT, .says = "16 bytes do not hold",
};

/* Between two good chunks of CPU 1. */
FIXTURE_SETUP(hostile)
{
	memset(self, 0, sizeof(*self));
	put_header(&self->file, 2, SREC_FILE_F_FROM_START);
	put_switches(&self->file, 1, 0, 4, 500);
	self->bad_offset = self->file.len;
	put_hostile_chunk(&self->file, variant->how);
	put_switches(&self->file, 1, 4, 4, 2000);
}

FIXTURE_TEARDOWN(hostile)
{
	bytes_free(&self->file);
}

TEST_F(hostile, reader_skips_the_chunk)
{
	struct diag_log log = { 0 };
	struct srecreader_options opt = { .diag = diag_collect,
					  .diag_arg = &log };
	struct expected_list got = { 0 };
	struct srecreader *r;
	char err[256];

	r = open_bytes(self->file.data, self->file.len, &opt, err,
		       sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(0, read_all(r, &got));
	EXPECT_EQ(8u, got.count);
	EXPECT_EQ(1u, srecreader_status(r)->corrupt);
	EXPECT_TRUE(diag_has_offset(&log, self->bad_offset))
		TH_LOG("%s", log.text);
	EXPECT_TRUE(diag_says(&log, variant->says)) TH_LOG("%s", log.text);
	srecreader_close(r);
	expected_free(&got);

	opt.strict = true;
	r = open_bytes(self->file.data, self->file.len, &opt, err,
		       sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_EQ(-EBADMSG, read_all(r, &got));
	srecreader_close(r);
	expected_free(&got);
}

/* The writer refuses the same record, and writes nothing of it. */
TEST_F(hostile, writer_refuses)
{
	struct srecwriter_options opt = { .nr_cpus = 1 };
	struct srecwriter_header hdr;
	struct srecwriter *w;
	struct schedrec_stack *st = (void *)self->record;
	uint64_t before;
	int fd = memfd_create("srec", 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, srecwriter_open(&w, fd, &opt));
	test_header(&hdr);
	ASSERT_EQ(0, srecwriter_write_header(w, &hdr));
	put_stack(self->record, 1000, 0, 4);
	switch (variant->how) {
	case NR_TOO_BIG:
		st->nr = 6;
		break;
	case NR_TOO_SMALL:
		st->nr = 1;
		break;
	case NR_ABOVE_MAX:
		st->nr = SCHEDREC_STACK_MAX_DEPTH + 1;
		st->hdr.size = SCHEDREC_STACK_SIZE(st->nr);
		break;
	case TOO_SHORT:
		st->hdr.size = sizeof(struct schedrec_header);
		break;
	}
	before = srecwriter_bytes(w);
	EXPECT_EQ(-EBADMSG, srecwriter_append(w, 0, st, st->hdr.size));
	EXPECT_EQ(before, srecwriter_bytes(w));
	EXPECT_NE(NULL, strstr(srecwriter_error(w), "STACK"))
		TH_LOG("%s", srecwriter_error(w));
	srecwriter_close(w);
	close(fd);
}

/* A header with a KSYMS section made by hand: @raw_len, @data. */
static void put_ksyms_header(struct bytes *b, uint32_t raw_len,
			     const void *data, uint32_t data_len, bool twice)
{
	struct srec_ksyms_head head = { .raw_len = raw_len };
	struct srec_file_head file = good_file_head();

	put_section(b, SREC_SEC_FILE, &file, sizeof(file), NULL, 0);
	put_section(b, SREC_SEC_KSYMS, &head, sizeof(head), data, data_len);
	if (twice)
		put_section(b, SREC_SEC_KSYMS, &head, sizeof(head), data,
			    data_len);
	put_tables(b);
}

TEST(ksyms_section_checked)
{
	unsigned char packed[512];
	uLongf packed_len = sizeof(packed);
	uint32_t len = strlen(kallsyms_text);
	struct srecreader *r;
	struct bytes b = { 0 };
	char err[256];

	ASSERT_EQ(Z_OK, compress2(packed, &packed_len,
				  (const Bytef *)kallsyms_text, len, 6));
	/* as it should be */
	put_ksyms_header(&b, len, packed, packed_len, false);
	r = open_bytes(b.data, b.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	EXPECT_STREQ(kallsyms_text, srecreader_info(r)->kallsyms);
	srecreader_close(r);
	bytes_free(&b);

	/* shorter or longer than it says */
	put_ksyms_header(&b, len - 1, packed, packed_len, false);
	EXPECT_EQ(NULL, open_bytes(b.data, b.len, NULL, err, sizeof(err)));
	EXPECT_EQ(EBADMSG, errno);
	EXPECT_NE(NULL, strstr(err, "does not inflate")) TH_LOG("%s", err);
	bytes_free(&b);
	put_ksyms_header(&b, len + 1, packed, packed_len, false);
	EXPECT_EQ(NULL, open_bytes(b.data, b.len, NULL, err, sizeof(err)));
	bytes_free(&b);

	/* not zlib */
	put_ksyms_header(&b, len, kallsyms_text, len, false);
	EXPECT_EQ(NULL, open_bytes(b.data, b.len, NULL, err, sizeof(err)));
	bytes_free(&b);

	/* over the limit, refused before anything is allocated */
	put_ksyms_header(&b, SREC_KSYMS_MAX + 1, packed, packed_len, false);
	EXPECT_EQ(NULL, open_bytes(b.data, b.len, NULL, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "kallsyms")) TH_LOG("%s", err);
	bytes_free(&b);

	/* twice */
	put_ksyms_header(&b, len, packed, packed_len, true);
	EXPECT_EQ(NULL, open_bytes(b.data, b.len, NULL, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "a second")) TH_LOG("%s", err);
	bytes_free(&b);
}

TEST_HARNESS_MAIN
