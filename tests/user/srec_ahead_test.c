// SPDX-License-Identifier: GPL-2.0
/*
 * srecreader_help(): chunks checked ahead of the reader change nothing it
 * hands out or says.  In turn with the reader (help until there is none,
 * then a batch), every chunk of the mapped file is checked ahead and
 * taken; with every bit of the chunks flipped, the records, warnings and
 * counts are those of a reader without help; from a thread of its own,
 * beside the reader, the records are the same; and with no one mapped
 * file to look at, there is nothing to help with.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srec_util.h"

#define MAX_SECTIONS	256

/* Every record of @r through batches of @max, helped before each. */
static int read_helped(struct srecreader *r, struct expected_list *out,
		       unsigned int max)
{
	struct srec_record recs[READ_BATCH_MAX];
	int n, i;

	for (;;) {
		while (srecreader_help(r))
			;
		n = srecreader_next_batch(r, recs, max);
		if (n <= 0)
			return n;
		for (i = 0; i < n; i++) {
			struct expected_record e = {
				.cpu = recs[i].cpu, .seq = recs[i].seq,
			};

			memcpy(e.rec, recs[i].hdr, recs[i].hdr->size);
			expected_add(out, &e);
		}
	}
}

/* A trace of raw chunks (no zlib: they are in place in the mapped file). */
static void make_trace(struct bytes *file, unsigned int cpus,
		       unsigned int rounds, unsigned int per_round)
{
	struct synth synth;

	synth_init(&synth, cpus, 17);
	synth_lost(&synth, 0, 3);
	synth_pad(&synth, 1, 32);
	synth_skip(&synth, cpus - 1, 2);
	if (synth_to_bytes(&synth, file, 0, rounds, per_round))
		abort();
	synth_free(&synth);
}

TEST(in_turn)
{
	struct expected_list plain = { 0 }, helped = { 0 };
	struct bytes file = { 0 };
	struct srecreader *r;
	unsigned int calls;
	char err[256];

	make_trace(&file, 4, 40, 300);
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_batches(r, &plain, 64, &calls));
	EXPECT_EQ(0, srecreader_status(r)->checked_ahead);
	srecreader_close(r);

	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_helped(r, &helped, 64));
	ASSERT_TRUE(same_records(&plain, &helped))
		TH_LOG("%zu records helped, %zu without", helped.count,
		       plain.count);
	/* each chunk was checked ahead, and the reader took every answer */
	EXPECT_LT(40, srecreader_status(r)->chunks);
	EXPECT_EQ(srecreader_status(r)->chunks,
		  srecreader_status(r)->checked_ahead);
	EXPECT_FALSE(srecreader_help(r));
	srecreader_close(r);
	expected_free(&plain);
	expected_free(&helped);
	bytes_free(&file);
}

/*
 * Every bit of every chunk flipped: checked ahead or not, the same
 * records, the same warnings (a wrong answer of the helper is checked
 * again by the reader, for its words) and the same counts.
 */
TEST(damage_as_without)
{
	struct section sections[MAX_SECTIONS];
	struct bytes file = { 0 };
	unsigned char *copy;
	size_t nr, i, checked = 0;
	unsigned int calls;
	uint64_t pos, bit;

	make_trace(&file, 2, 6, 12);
	copy = malloc(file.len);
	ASSERT_NE(NULL, copy);
	nr = walk_sections(file.data, file.len, sections, MAX_SECTIONS);
	for (i = 0; i < nr; i++) {
		if (sections[i].type != SREC_SEC_CHUNK)
			continue;
		for (pos = sections[i].offset; pos < sections[i].end; pos++)
			for (bit = 0; bit < 8; bit++) {
				struct expected_list a = { 0 }, b = { 0 };
				struct diag_log la = { 0 }, lb = { 0 };
				struct srecreader_options oa = {
					.diag = diag_collect, .diag_arg = &la,
				}, ob = oa;
				struct srecreader *ra, *rb;
				char err[256];

				ob.diag_arg = &lb;
				memcpy(copy, file.data, file.len);
				copy[pos] ^= 1u << bit;
				ra = open_bytes(copy, file.len, &oa, err,
						sizeof(err));
				rb = open_bytes(copy, file.len, &ob, err,
						sizeof(err));
				ASSERT_NE(NULL, ra);
				ASSERT_NE(NULL, rb);
				ASSERT_EQ(read_batches(ra, &a, 64, &calls),
					  read_helped(rb, &b, 64));
				ASSERT_TRUE(same_records(&a, &b))
					TH_LOG("byte %llu bit %llu",
					       (unsigned long long)pos,
					       (unsigned long long)bit);
				ASSERT_STREQ(la.text, lb.text);
				ASSERT_EQ(srecreader_status(ra)->corrupt,
					  srecreader_status(rb)->corrupt);
				ASSERT_EQ(srecreader_status(ra)->chunks,
					  srecreader_status(rb)->chunks);
				checked += srecreader_status(rb)->checked_ahead;
				srecreader_close(ra);
				srecreader_close(rb);
				expected_free(&a);
				expected_free(&b);
			}
	}
	/* the helper did check (and was right about) chunks meanwhile */
	EXPECT_LT(1000, checked);
	free(copy);
	bytes_free(&file);
}

struct helper {
	struct srecreader *r;
	bool stop;
	unsigned long helped;
};

static void *help_loop(void *arg)
{
	struct helper *h = arg;

	while (!__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE))
		if (srecreader_help(h->r))
			h->helped++;
	return NULL;
}

/* From a thread of its own, while the reader reads: the same records. */
TEST(beside_the_reader)
{
	struct expected_list plain = { 0 };
	struct bytes file = { 0 };
	struct srecreader *r;
	unsigned int calls, round;
	char err[256];

	make_trace(&file, 4, 60, 400);
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_batches(r, &plain, 64, &calls));
	srecreader_close(r);
	for (round = 0; round < 20; round++) {
		struct expected_list got = { 0 };
		struct helper h = { 0 };
		pthread_t thread;

		h.r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
		ASSERT_NE(NULL, h.r) TH_LOG("%s", err);
		ASSERT_EQ(0, pthread_create(&thread, NULL, help_loop, &h));
		ASSERT_EQ(0, read_batches(h.r, &got, 64, &calls));
		__atomic_store_n(&h.stop, true, __ATOMIC_RELEASE);
		ASSERT_EQ(0, pthread_join(thread, NULL));
		ASSERT_TRUE(same_records(&plain, &got))
			TH_LOG("round %u: %zu records, %zu expected", round,
			       got.count, plain.count);
		/* what it took, it had checked */
		ASSERT_LE(srecreader_status(h.r)->checked_ahead, h.helped);
		srecreader_close(h.r);
		expected_free(&got);
	}
	expected_free(&plain);
	bytes_free(&file);
}

/* A series of files, or compressed chunks: nothing to help with. */
TEST(nothing_to_help)
{
	struct expected_list got = { 0 };
	struct bytes file = { 0 };
	struct synth synth;
	struct srecreader *r;
	char err[256];
	int fd;

	make_trace(&file, 2, 4, 50);
	r = open_bytes_fd(file.data, file.len, NULL, err, sizeof(err), &fd);
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	/* the helper knows one file's mapping */
	ASSERT_EQ(0, srecreader_add_file(r, "/nonexistent.srec"));
	EXPECT_FALSE(srecreader_help(r));
	srecreader_close(r);
	close(fd);
	bytes_free(&file);

	synth_init(&synth, 2, 5);
	ASSERT_EQ(0, synth_to_bytes(&synth, &file, 6, 4, 50));
	synth_free(&synth);
	r = open_bytes(file.data, file.len, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	ASSERT_EQ(0, read_helped(r, &got, 64));
	EXPECT_LT(0, got.count);
	EXPECT_EQ(0, srecreader_status(r)->checked_ahead);
	srecreader_close(r);
	expected_free(&got);
	bytes_free(&file);
}

TEST_HARNESS_MAIN
