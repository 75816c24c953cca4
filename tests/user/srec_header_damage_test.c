// SPDX-License-Identifier: GPL-2.0
/*
 * A damaged header, section by section, in a file as srecwriter writes it
 * (FILE, EVENTS, THREADS, KSYMS, HEADER_END, chunks, trailer).  What the
 * records can do without (the threads alive at the start, FILE's strings,
 * the kallsyms snapshot, the header's end) is skipped with one warning that
 * says what is lost, and every record is read; in strict mode the open
 * fails.  So is the event table, for which the reader's own stands in,
 * but only for a file of the reader's module ABI.  What the records cannot
 * do without otherwise (FILE's head, the event table) fails the open with
 * a message that says which and why.  A file cut short in its header
 * names the section and the file's length; a damaged trailer is not taken
 * for a cut file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <zlib.h>

#include "kselftest_harness.h"

#include "srec_util.h"

#define MAX_SECTIONS	64

static const char ksyms_text[] = "ffffffff81000000 T _stext\n";

/* The fixture's state, in a struct of its own for the helpers. */
struct header_case {
	struct bytes file;
	struct expected_list intact;
	struct section sections[MAX_SECTIONS];
	size_t nr_sections;
	unsigned char *copy;
	struct diag_log log;
	char err[512];
};

FIXTURE(header) {
	struct header_case c;
};

/* The writer's file, with a kallsyms snapshot: 2 CPUs, 3 start threads. */
static int write_file(struct synth *s, int fd)
{
	struct srecwriter_options opt = { .nr_cpus = s->nr_cpus };
	unsigned char packed[128];
	uLongf packed_len = sizeof(packed);
	struct srecwriter_header hdr;
	struct srecwriter *w;
	int ret;

	if (compress(packed, &packed_len, (const Bytef *)ksyms_text,
		     strlen(ksyms_text)) != Z_OK)
		return -EINVAL;
	ret = srecwriter_open(&w, fd, &opt);
	if (ret)
		return ret;
	test_header(&hdr);
	hdr.ksyms = packed;
	hdr.ksyms_len = packed_len;
	hdr.ksyms_raw_len = strlen(ksyms_text);
	ret = srecwriter_write_header(w, &hdr);
	if (!ret)
		ret = synth_rounds(s, w, 4, 6);
	if (ret) {
		srecwriter_close(w);
		return ret;
	}
	return synth_end(s, w);
}

FIXTURE_SETUP(header)
{
	struct header_case *c = &self->c;
	struct synth synth;
	struct srecreader *r;
	int fd;

	memset(self, 0, sizeof(*self));
	synth_init(&synth, 2, 5);
	fd = memfd_create("srec", 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_file(&synth, fd));
	bytes_from_fd(fd, &c->file);
	close(fd);
	c->nr_sections = walk_sections(c->file.data, c->file.len,
					  c->sections, MAX_SECTIONS);
	/* the header this test damages, in the writer's order */
	ASSERT_LT(6u, c->nr_sections);
	ASSERT_EQ(SREC_SEC_FILE, c->sections[0].type);
	ASSERT_EQ(SREC_SEC_EVENTS, c->sections[1].type);
	ASSERT_EQ(SREC_SEC_THREADS, c->sections[2].type);
	ASSERT_EQ(SREC_SEC_KSYMS, c->sections[3].type);
	ASSERT_EQ(SREC_SEC_HEADER_END, c->sections[4].type);
	ASSERT_EQ(SREC_SEC_TRAILER,
		  c->sections[c->nr_sections - 1].type);
	r = open_bytes(c->file.data, c->file.len, NULL, c->err,
		       sizeof(c->err));
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	ASSERT_EQ(0, read_all(r, &c->intact));
	ASSERT_TRUE(same_records(&synth.expected, &c->intact));
	ASSERT_EQ(3, srecreader_info(r)->nr_threads);
	ASSERT_NE(NULL, srecreader_info(r)->kallsyms);
	srecreader_close(r);
	synth_free(&synth);
	c->copy = malloc(c->file.len);
	ASSERT_NE(NULL, c->copy);
	memcpy(c->copy, c->file.data, c->file.len);
}

FIXTURE_TEARDOWN(header)
{
	struct header_case *c = &self->c;

	free(c->copy);
	expected_free(&c->intact);
	bytes_free(&c->file);
}

/* Where in section @i to flip a byte: its frame's checksum, or its data. */
enum spot { FRAME, DATA };

static uint64_t spot_at(const unsigned char *file, const struct section *s,
			enum spot spot)
{
	struct srec_frame frame;

	memcpy(&frame, file + s->offset, sizeof(frame));
	if (spot == FRAME)
		return s->offset + SREC_OFFSET(srec_frame, head_crc);
	return s->offset + sizeof(frame) + frame.head_len;
}

/* Open the damaged copy, collecting the diagnostics. */
static struct srecreader *open_copy(struct header_case *c, bool strict)
{
	struct srecreader_options opt = {
		.strict = strict,
		.diag = diag_collect,
		.diag_arg = &c->log,
	};

	memset(&c->log, 0, sizeof(c->log));
	return open_bytes(c->copy, c->file.len, &opt, c->err,
			  sizeof(c->err));
}

/* Flip a byte of section @i at @spot. */
static void damage(struct header_case *c, unsigned int i,
		   enum spot spot)
{
	c->copy[spot_at(c->file.data, &c->sections[i], spot)] ^= 0x5a;
}

/* Every record is read, and nothing else went wrong. */
static bool reads_every_record(struct header_case *c,
			       struct srecreader *r)
{
	struct expected_list got = { 0 };
	bool same;

	same = !read_all(r, &got) && same_records(&c->intact, &got);
	expected_free(&got);
	return same && !srecreader_status(r)->truncated &&
	       srecreader_status(r)->trailer;
}

/* The thread table's data: the start threads are lost, nothing else. */
TEST_F(header, thread_table_data)
{
	struct header_case *c = &self->c;
	const struct srecreader_status *status;
	struct srecreader *r;
	char want[256];

	damage(c, 2, DATA);
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	snprintf(want, sizeof(want),
		 "corrupt header section skipped: the thread table at offset %llu fails its checksum: names and processes of threads from before the recording are not known\n",
		 (unsigned long long)c->sections[2].offset);
	EXPECT_STREQ(want, c->log.text);
	EXPECT_EQ(1, c->log.warnings);
	EXPECT_TRUE(diag_has_offset(&c->log, c->sections[2].offset));
	EXPECT_EQ(0, srecreader_info(r)->nr_threads);
	EXPECT_EQ(NULL, srecreader_thread(r, 42));
	/* the rest of the header is whole */
	EXPECT_STREQ("testhost", srecreader_info(r)->hostname);
	EXPECT_NE(NULL, srecreader_info(r)->kallsyms);
	EXPECT_TRUE(reads_every_record(c, r));
	status = srecreader_status(r);
	EXPECT_EQ(SRECREADER_LOST_THREADS, status->header_lost);
	EXPECT_EQ(1, status->corrupt);
	EXPECT_EQ(1, status->warnings);
	srecreader_close(r);

	r = open_copy(c, true);
	ASSERT_EQ(NULL, r);
	EXPECT_EQ(EBADMSG, errno);
	snprintf(want, sizeof(want),
		 "corrupt header: the thread table at offset %llu fails its checksum",
		 (unsigned long long)c->sections[2].offset);
	EXPECT_STREQ(want, c->err);
}

/*
 * The thread table's frame: its lengths cannot be trusted, so the reader
 * looks for the next sound frame, and says what the section seems to be.
 */
TEST_F(header, thread_table_frame)
{
	struct header_case *c = &self->c;
	struct srecreader *r;
	char want[512];

	damage(c, 2, FRAME);
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	snprintf(want, sizeof(want),
		 "corrupt header section skipped: the section at offset %llu is damaged (frame checksum mismatch); skipped %llu bytes, to the section at offset %llu; by its type, it was the thread table: names and processes of threads from before the recording are not known\n",
		 (unsigned long long)c->sections[2].offset,
		 (unsigned long long)(c->sections[3].offset -
				      c->sections[2].offset),
		 (unsigned long long)c->sections[3].offset);
	EXPECT_STREQ(want, c->log.text);
	EXPECT_EQ(0, srecreader_info(r)->nr_threads);
	EXPECT_NE(NULL, srecreader_info(r)->kallsyms);
	EXPECT_TRUE(reads_every_record(c, r));
	EXPECT_EQ(SRECREADER_LOST_THREADS,
		  srecreader_status(r)->header_lost);
	EXPECT_EQ(1, srecreader_status(r)->resyncs);
	srecreader_close(r);

	r = open_copy(c, true);
	ASSERT_EQ(NULL, r);
	snprintf(want, sizeof(want),
		 "corrupt header: the section at offset %llu is damaged (frame checksum mismatch)",
		 (unsigned long long)c->sections[2].offset);
	EXPECT_STREQ(want, c->err);
}

/* FILE's strings: "?" for the uname fields, every CPU online. */
TEST_F(header, file_strings)
{
	struct header_case *c = &self->c;
	const struct srecreader_info *info;
	struct srecreader *r;

	damage(c, 0, DATA);
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	EXPECT_STREQ("corrupt header section skipped: the FILE section at offset 0 fails its checksum: the host name, kernel, online CPUs, command line and filter of the recording are not known\n",
		     c->log.text);
	info = srecreader_info(r);
	EXPECT_STREQ("?", info->hostname);
	EXPECT_STREQ("?", info->release);
	EXPECT_STREQ("", info->online);
	EXPECT_STREQ("", info->cmdline);
	EXPECT_TRUE(srecreader_cpu_online(r, 1));
	/* the head is whole: the drainer, the threads */
	EXPECT_EQ(4243, info->file.drainer_tid);
	EXPECT_EQ(3, info->nr_threads);
	EXPECT_TRUE(reads_every_record(c, r));
	EXPECT_EQ(SRECREADER_LOST_STRINGS,
		  srecreader_status(r)->header_lost);
	srecreader_close(r);

	ASSERT_EQ(NULL, open_copy(c, true));
	EXPECT_STREQ("corrupt header: the FILE section at offset 0 fails its checksum",
		     c->err);
}

/* The kallsyms snapshot: stacks cannot be named, the records are read. */
TEST_F(header, kallsyms_data)
{
	struct header_case *c = &self->c;
	struct srecreader *r;
	char want[256];

	damage(c, 3, DATA);
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	snprintf(want, sizeof(want),
		 "corrupt header section skipped: the kallsyms snapshot at offset %llu fails its checksum: kernel stacks cannot be named\n",
		 (unsigned long long)c->sections[3].offset);
	EXPECT_STREQ(want, c->log.text);
	EXPECT_EQ(NULL, srecreader_info(r)->kallsyms);
	EXPECT_EQ(0, srecreader_info(r)->kallsyms_len);
	EXPECT_EQ(3, srecreader_info(r)->nr_threads);
	EXPECT_TRUE(reads_every_record(c, r));
	EXPECT_EQ(SRECREADER_LOST_KSYMS, srecreader_status(r)->header_lost);
	srecreader_close(r);
	ASSERT_EQ(NULL, open_copy(c, true));
}

/* The header's end: found missing at the first chunk, nothing lost. */
TEST_F(header, header_end_frame)
{
	struct header_case *c = &self->c;
	struct srecreader *r;

	damage(c, 4, FRAME);
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	EXPECT_TRUE(diag_says(&c->log, "by its type, it was the header end: it only marks the end of the header: nothing is lost"))
		TH_LOG("%s", c->log.text);
	EXPECT_EQ(1, c->log.warnings);
	EXPECT_TRUE(reads_every_record(c, r));
	EXPECT_EQ(0, srecreader_status(r)->header_lost);
	EXPECT_EQ(1, srecreader_status(r)->corrupt);
	srecreader_close(r);
}

/*
 * The event table: every record's size.  The file was recorded with this
 * reader's module ABI, and its table has as many types: the reader's own
 * table stands in for it, and every record is read.
 */
TEST_F(header, event_table_data)
{
	struct header_case *c = &self->c;
	struct srecreader *r;
	char want[512];

	damage(c, 1, DATA);
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	snprintf(want, sizeof(want),
		 "corrupt header section replaced: the event table at offset %llu fails its checksum: this reader's own, of module ABI version %u as the file's, with %u types as the file's, stands in for it\n",
		 (unsigned long long)c->sections[1].offset,
		 SCHEDREC_ABI_VERSION, SCHEDREC_REC_MAX);
	EXPECT_STREQ(want, c->log.text);
	EXPECT_EQ(SCHEDREC_REC_MAX, srecreader_info(r)->nr_events);
	EXPECT_STREQ("switch", srecreader_event(r, SCHEDREC_EV_SWITCH)->name);
	EXPECT_TRUE(reads_every_record(c, r));
	EXPECT_EQ(SRECREADER_LOST_EVENTS, srecreader_status(r)->header_lost);
	srecreader_close(r);

	ASSERT_EQ(NULL, open_copy(c, true));
	snprintf(want, sizeof(want),
		 "corrupt header: the event table at offset %llu fails its checksum",
		 (unsigned long long)c->sections[1].offset);
	EXPECT_STREQ(want, c->err);
}

/* Another module ABI: its layouts may differ, so the open fails. */
TEST_F(header, event_table_other_abi)
{
	struct header_case *c = &self->c;
	struct srec_file_head *file = (void *)(c->copy +
					       sizeof(struct srec_frame));
	struct srec_frame *frame = (void *)c->copy;
	char want[512];
	uLong crc;

	file->abi_version = SCHEDREC_ABI_VERSION + 1;
	crc = crc32(0, c->copy, SREC_FRAME_CRC_LEN);
	frame->head_crc = crc32(crc, (const Bytef *)file, frame->head_len);
	damage(c, 1, DATA);
	ASSERT_EQ(NULL, open_copy(c, false));
	EXPECT_EQ(EBADMSG, errno);
	snprintf(want, sizeof(want),
		 "corrupt header: the event table at offset %llu fails its checksum: it gives the size of every type of record, and the records cannot be decoded without it (this reader's own, of module ABI version %u with %u types, cannot stand in for one of version %u with %u)",
		 (unsigned long long)c->sections[1].offset,
		 SCHEDREC_ABI_VERSION, SCHEDREC_REC_MAX,
		 SCHEDREC_ABI_VERSION + 1, SCHEDREC_REC_MAX);
	EXPECT_STREQ(want, c->err);
}

/* The event table's frame: skipped as any, then missed; its size unknown. */
TEST_F(header, event_table_frame)
{
	struct header_case *c = &self->c;
	char want[512];

	damage(c, 1, FRAME);
	ASSERT_EQ(NULL, open_copy(c, false));
	EXPECT_EQ(EBADMSG, errno);
	snprintf(want, sizeof(want),
		 "corrupt header: no event table, which the damaged section at offset %llu may have been: it gives the size of every type of record, and the records cannot be decoded without it",
		 (unsigned long long)c->sections[1].offset);
	EXPECT_STREQ(want, c->err);
}

/* FILE's frame or head: the CPUs and the clock; refused, saying so. */
TEST_F(header, file_head)
{
	struct header_case *c = &self->c;

	c->copy[sizeof(struct srec_frame) +
		   SREC_OFFSET(srec_file_head, nr_cpus)] ^= 1;
	ASSERT_EQ(NULL, open_copy(c, false));
	EXPECT_EQ(EBADMSG, errno);
	EXPECT_STREQ("corrupt header: the FILE section at offset 0 is damaged (frame checksum mismatch): it gives the CPUs, the clock and the options of the recording, and the records cannot be read without it",
		     c->err);
}

/* Cut short in the header: which section, where, and the file's length. */
TEST_F(header, cut_in_header)
{
	struct header_case *c = &self->c;
	uint64_t events = c->sections[1].offset;
	struct {
		uint64_t len;
		char says[256];
	} cuts[5];
	unsigned int i;

	cuts[0].len = 16;
	snprintf(cuts[0].says, sizeof(cuts[0].says),
		 "the file ends inside its header: the FILE section at offset 0 is cut short (the file is 16 bytes long)");
	cuts[1].len = events - 8;
	snprintf(cuts[1].says, sizeof(cuts[1].says),
		 "the file ends inside its header: the FILE section at offset 0 is cut short (the file is %llu bytes long)",
		 (unsigned long long)events - 8);
	cuts[2].len = events;
	snprintf(cuts[2].says, sizeof(cuts[2].says),
		 "the file ends inside its header, after the FILE section: the sections that follow and the header's end are missing (the file is %llu bytes long)",
		 (unsigned long long)events);
	/* the type of the frame is not there yet */
	cuts[3].len = events + 4;
	snprintf(cuts[3].says, sizeof(cuts[3].says),
		 "the file ends inside its header: the section at offset %llu is cut short (the file is %llu bytes long)",
		 (unsigned long long)events,
		 (unsigned long long)events + 4);
	cuts[4].len = events + 100;
	snprintf(cuts[4].says, sizeof(cuts[4].says),
		 "the file ends inside its header: the event table at offset %llu is cut short (the file is %llu bytes long)",
		 (unsigned long long)events,
		 (unsigned long long)events + 100);
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		struct srecreader *r = open_bytes(c->file.data, cuts[i].len,
						  NULL, c->err,
						  sizeof(c->err));

		ASSERT_EQ(NULL, r);
		EXPECT_EQ(EBADMSG, errno);
		EXPECT_STREQ(cuts[i].says, c->err) TH_LOG("cut %u", i);
	}
}

/*
 * A damaged trailer, whole: the records are read, and the trailer is said
 * to be damaged, not the file cut short.
 */
TEST_F(header, trailer_frame)
{
	struct header_case *c = &self->c;
	const struct section *t = &c->sections[c->nr_sections - 1];
	struct expected_list got = { 0 };
	struct srecreader *r;
	char want[256];

	c->copy[spot_at(c->file.data, t, FRAME)] ^= 0x5a;
	r = open_copy(c, false);
	ASSERT_NE(NULL, r) TH_LOG("%s", c->err);
	EXPECT_EQ(0, read_all(r, &got));
	EXPECT_TRUE(same_records(&c->intact, &got));
	snprintf(want, sizeof(want),
		 "corrupt section at offset %llu skipped: damaged trailer frame (frame checksum mismatch)\n",
		 (unsigned long long)t->offset);
	EXPECT_TRUE(diag_says(&c->log, want)) TH_LOG("%s", c->log.text);
	EXPECT_TRUE(diag_says(&c->log, "the trailer is damaged"));
	EXPECT_FALSE(diag_says(&c->log, "truncated"));
	EXPECT_FALSE(srecreader_status(r)->truncated);
	EXPECT_FALSE(srecreader_status(r)->trailer);
	srecreader_close(r);
	expected_free(&got);
}

TEST_HARNESS_MAIN
