// SPDX-License-Identifier: GPL-2.0
/*
 * srecchunk_check()'s answer on sound chunks: plain or not, against a
 * record-by-record reference of what plain means.  Random chunks of 32-
 * and 48-byte records, LOST ones among them, numbers that wrap past 32
 * bits, with at most one flaw that makes a chunk sound but not plain (a
 * number skipped, a record older than the one before, a LOST record) at
 * every place: where the check goes four records at a time and where it
 * goes one by one.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "srecchunk.h"

#define RECORDS_MAX	160
#define CASES		20000

enum flaw { FLAW_NONE, FLAW_GAP, FLAW_OLDER, FLAW_LOST, FLAWS };

struct chunk {
	struct srec_chunk_head head;
	unsigned char payload[RECORDS_MAX * 48];
	struct srec_type_sizes types;
};

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* The event table of the ABI. */
static void types_of_abi(struct srec_type_sizes *types)
{
	static const unsigned int sizes[] = SCHEDREC_RECORD_SIZES;
	unsigned int id;

	srecchunk_types_init(types);
	for (id = 1; id <= SCHEDREC_REC_MAX; id++)
		srecchunk_types_set(types, id, sizes[id]);
}

/*
 * A sound chunk of @n records (of 32 bytes only if @only32) with @flaw
 * at record @at (> 0) into @c,
 * its head made to match; whether it is plain, by the reference: every
 * record after the first of its type's plain size, numbered one past the
 * one before, no older than it.
 */
static bool make_chunk(struct chunk *c, unsigned int n, bool only32,
		       enum flaw flaw, unsigned int at)
{
	uint64_t seq = rnd() % 4 ? rnd() : UINT32_MAX - rnd() % 200;
	uint64_t ts = 1000000 + rnd() % 1000, prev_ts = 0, lost = 0;
	uint32_t pos = 0, prev_seq = 0;
	bool plain = true;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	types_of_abi(&c->types);
	c->head.first_seq = seq;
	c->head.first_ts = ts;
	for (i = 0; i < n; i++) {
		struct schedrec_header *hdr = (void *)(c->payload + pos);
		uint8_t type = only32 || rnd() % 8 ?
			       SCHEDREC_EV_SWITCH + rnd() % 3 :
			       SCHEDREC_EV_FORK;

		if (flaw == FLAW_LOST && i == at)
			type = SCHEDREC_REC_LOST;
		if (i) {
			seq++;
			ts += rnd() % 4;
		}
		if (flaw == FLAW_GAP && i == at)
			seq += 1 + rnd() % 5;
		if (type == SCHEDREC_REC_LOST) {
			struct schedrec_lost *l = (void *)hdr;

			l->count = 1 + rnd() % 3;
			lost += l->count;
			/* numbered past the events it counts */
			seq += l->count;
		}
		hdr->type = type;
		hdr->size = c->types.size[type];
		hdr->seq = seq;
		hdr->ts = ts;
		/* older than the one before, not than the chunk's first */
		if (flaw == FLAW_OLDER && i == at && prev_ts > c->head.first_ts)
			hdr->ts = prev_ts - 1;
		if (i && (hdr->size != c->types.plain[type] ||
			  hdr->seq != (uint32_t)(prev_seq + 1) ||
			  hdr->ts < prev_ts))
			plain = false;
		prev_seq = hdr->seq;
		prev_ts = hdr->ts;
		pos += hdr->size;
	}
	c->head.count = n;
	c->head.last_seq = seq;
	c->head.last_ts = prev_ts;
	c->head.lost = lost;
	c->head.raw_len = pos;
	return plain;
}

TEST(plain_as_record_by_record)
{
	static struct chunk c;
	unsigned int i, n, at, seen[2] = { 0 };
	enum flaw flaw;
	char why[256];
	bool plain;
	int ret;

	for (i = 0; i < CASES; i++) {
		n = 1 + rnd() % RECORDS_MAX;
		flaw = n > 2 ? rnd() % FLAWS : FLAW_NONE;
		at = n > 2 ? 1 + rnd() % (n - 2) : 0;
		plain = make_chunk(&c, n, rnd() % 2, flaw, at);
		ret = srecchunk_check(&c.head, c.payload, &c.types, why,
				      sizeof(why));
		ASSERT_EQ(plain ? SRECCHUNK_PLAIN : 0, ret) {
			TH_LOG("case %u: %u records, flaw %d at %u: %s", i, n,
			       flaw, at, ret < 0 ? why : "");
		}
		seen[plain]++;
	}
	/* both answers, many times each */
	EXPECT_LT(CASES / 10, seen[0]);
	EXPECT_LT(CASES / 10, seen[1]);
}

/* A long run of 32-byte records, one flawed record at each place. */
TEST(every_place_of_a_flaw)
{
	static struct chunk c;
	unsigned int at, f;
	char why[256];
	bool plain;

	for (f = FLAW_GAP; f < FLAWS; f++)
		for (at = 1; at < RECORDS_MAX - 1; at++) {
			plain = make_chunk(&c, RECORDS_MAX, true, f, at);
			ASSERT_EQ(plain ? SRECCHUNK_PLAIN : 0,
				  srecchunk_check(&c.head, c.payload, &c.types,
						  why, sizeof(why))) {
				TH_LOG("flaw %u at %u", f, at);
			}
		}
}

TEST_HARNESS_MAIN
