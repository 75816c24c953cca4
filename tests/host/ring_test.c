// SPDX-License-Identifier: GPL-2.0
/*
 * The ring protocol on the host: kmod/ring.c, compiled against a thin
 * kernel shim, driven by a real producer thread while a real consumer
 * thread drains it through the ABI alone (control page + data area).
 * Every sequence number must be accounted for: delivered + lost = produced.
 *
 * SCHEDREC_RING_TEST_RECORDS sets how many events each case produces.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "ring.h"

static u64 records_per_case(void)
{
	const char *env = getenv("SCHEDREC_RING_TEST_RECORDS");

	return env ? strtoull(env, NULL, 0) : 2000000;
}

struct run {
	struct schedrec_ring *ring;
	u64 produced;
	int done;		/* producer finished and stopped the ring */
	unsigned int consumer_delay;	/* spin this much per record */
	bool hostile_tail;	/* consumer also stores garbage tails */
	bool consumer_running;

	/* consumer results */
	u64 delivered;
	u64 lost_in_records;
	u64 lost_records;
	u64 bad;
	u64 next_seq;
};

/* Event types and sizes the producer cycles through. */
static const u8 types[] = {
	SCHEDREC_EV_SWITCH, SCHEDREC_EV_WAKING, SCHEDREC_EV_FORK,
	SCHEDREC_EV_SWITCH, SCHEDREC_EV_MIGRATE, SCHEDREC_EV_EXIT,
};

static const unsigned int record_sizes[] = SCHEDREC_RECORD_SIZES;

static void *producer(void *arg)
{
	struct run *run = arg;
	u64 i;

	for (i = 0; i < run->produced; i++) {
		u8 type = types[i % sizeof(types)];
		struct schedrec_switch *rec;

		rec = schedrec_ring_reserve(run->ring, type,
					    record_sizes[type], 0);
		if (!rec)
			continue;
		/* a payload the consumer can check against the seq */
		rec->prev_tid = rec->hdr.seq;
		rec->next_tid = ~rec->hdr.seq;
		schedrec_ring_commit(run->ring);
	}
	/* like disabling: once drained, the LOST record still owed fits */
	while (run->consumer_running &&
	       READ_ONCE(run->ring->ctrl->tail) != run->ring->head)
		sched_yield();
	schedrec_rings_stop();
	__atomic_store_n(&run->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Extend a 32-bit seq to 64 bits next to the one we expected. */
static u64 seq_extend(u64 expected, u32 seq)
{
	return expected + (s64)(int32_t)(seq - (u32)expected);
}

static void check_record(struct run *run, const struct schedrec_header *hdr)
{
	const struct schedrec_switch *rec = (const void *)hdr;
	const struct schedrec_lost *lost = (const void *)hdr;
	u64 seq = seq_extend(run->next_seq, hdr->seq);

	if (hdr->type == SCHEDREC_REC_PAD)
		return;
	if (hdr->type > SCHEDREC_REC_LOST ||
	    hdr->size != record_sizes[hdr->type] || seq < run->next_seq) {
		run->bad++;
		return;
	}
	if (hdr->type == SCHEDREC_REC_LOST) {
		/* the gap just before a LOST record is exactly its count */
		if (seq - run->next_seq != lost->count)
			run->bad++;
		run->lost_in_records += lost->count;
		run->lost_records++;
	} else {
		/* a gap not announced by a LOST record is a protocol error */
		if (seq != run->next_seq)
			run->bad++;
		if (rec->prev_tid != hdr->seq || rec->next_tid != ~hdr->seq)
			run->bad++;
		run->delivered++;
	}
	run->next_seq = seq + 1;
}

static void *consumer(void *arg)
{
	struct run *run = arg;
	struct schedrec_ring_ctrl *ctrl = run->ring->ctrl;
	const char *data = run->ring->data;
	u64 mask = ctrl->data_size - 1;
	u64 tail = 0, n = 0;

	for (;;) {
		int done = __atomic_load_n(&run->done, __ATOMIC_ACQUIRE);
		/* pairs with the producer's release: records are complete */
		u64 head = smp_load_acquire(&ctrl->head);

		while (tail != head) {
			const struct schedrec_header *hdr =
				(const void *)(data + (tail & mask));
			unsigned int spin;

			if (hdr->size < sizeof(*hdr) || head - tail < hdr->size) {
				run->bad++;
				return NULL;
			}
			check_record(run, hdr);
			tail += hdr->size;
			/* a slow reader; the barrier keeps the loop */
			for (spin = 0; spin < run->consumer_delay; spin++)
				__asm__ __volatile__("" ::: "memory");
			if (run->hostile_tail && (++n % 4096) == 0) {
				/* garbage the kernel must clamp, then the truth */
				WRITE_ONCE(ctrl->tail, tail + 12345);
				WRITE_ONCE(ctrl->tail, ~0ull);
				WRITE_ONCE(ctrl->tail, 7);
			}
			/* our reads of the records are done */
			smp_store_release(&ctrl->tail, tail);
		}
		/* done was set after the last publish: this head is final */
		if (done && tail == READ_ONCE(ctrl->head))
			return NULL;
		sched_yield();
	}
}

static void run_case(struct __test_metadata *_metadata, u64 size,
		     unsigned int delay, bool hostile, struct run *run)
{
	pthread_t prod, cons;

	memset(run, 0, sizeof(*run));
	ASSERT_EQ(0, schedrec_rings_alloc(size));
	schedrec_rings_reset(SCHEDREC_MODE_STREAM);
	run->ring = schedrec_ring(0);
	run->produced = records_per_case();
	run->consumer_delay = delay;
	run->hostile_tail = hostile;
	run->consumer_running = true;
	ASSERT_EQ(0, pthread_create(&cons, NULL, consumer, run));
	ASSERT_EQ(0, pthread_create(&prod, NULL, producer, run));
	pthread_join(prod, NULL);
	pthread_join(cons, NULL);

	EXPECT_EQ(0ull, run->bad);
	/* every sequence number accounted for, in the records themselves */
	EXPECT_EQ(run->produced, run->delivered + run->lost_in_records);
	EXPECT_EQ(run->produced + run->lost_records, run->next_seq);
	/* and in the kernel's own counters */
	EXPECT_EQ(run->delivered, run->ring->written);
	EXPECT_EQ(run->lost_in_records, run->ring->lost);
	EXPECT_EQ(run->ring->lost, run->ring->ctrl->lost);
	EXPECT_EQ(0ull, run->ring->pending_lost);
	schedrec_rings_free();
}

TEST(stream_fast_consumer)
{
	struct run run;

	run_case(_metadata, 1 << 20, 0, false, &run);
	TH_LOG("produced %llu delivered %llu lost %llu",
	       (unsigned long long)run.produced,
	       (unsigned long long)run.delivered,
	       (unsigned long long)run.lost_in_records);
}

TEST(stream_overflow_slow_consumer)
{
	struct run run;

	run_case(_metadata, 4096, 200, false, &run);
	/* a 4 KiB ring and a slow reader must lose, and say so */
	EXPECT_LT(0ull, run.lost_in_records);
	EXPECT_LT(0ull, run.delivered);
}

TEST(stream_hostile_tail)
{
	struct run run;

	run_case(_metadata, 8192, 0, true, &run);
}

TEST(overwrite_keeps_newest)
{
	struct run run = { 0 };
	struct schedrec_ring *ring;
	u64 pos, first = 0, last = 0, kept = 0, n;
	bool any = false;

	ASSERT_EQ(0, schedrec_rings_alloc(4096));
	schedrec_rings_reset(SCHEDREC_MODE_OVERWRITE);
	ring = schedrec_ring(0);
	run.ring = ring;
	run.produced = 100000;
	producer(&run);

	for (pos = ring->ctrl->oldest; pos != ring->ctrl->head; pos += n) {
		const struct schedrec_header *hdr =
			(const void *)((char *)ring->data + (pos & ring->mask));

		n = hdr->size;
		ASSERT_LE((u64)sizeof(*hdr), n);
		if (hdr->type == SCHEDREC_REC_PAD)
			continue;
		if (any)
			ASSERT_EQ((u32)(last + 1), (u32)hdr->seq);
		if (!any)
			first = hdr->seq;
		last = hdr->seq;
		any = true;
		kept++;
	}
	ASSERT_TRUE(any);
	EXPECT_EQ(run.produced - 1, last);
	EXPECT_LT(0ull, first);
	EXPECT_EQ(run.produced, kept + ring->overwritten);
	EXPECT_EQ(0ull, ring->lost);
	schedrec_rings_free();
}

TEST_HARNESS_MAIN
