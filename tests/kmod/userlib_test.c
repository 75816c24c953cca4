// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace library on its own, no module needed: ringreader against a
 * fake ring in memory (good records, PAD, wrap, and every kind of bad
 * header, which must be an error and never a read out of bounds), the
 * sequence helpers, and the task state decoder against the letters ftrace
 * prints.  Runs in the guest with the others, and anywhere else too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "ringreader.h"
#include "taskstate.h"

/* A ring in plain memory, written by the test as the kernel would. */
struct fake_ring {
	struct schedrec_ring_ctrl *ctrl;
	unsigned char *data;
	uint64_t size;
	uint32_t seq;
};

FIXTURE(fake) {
	struct fake_ring ring;
	struct schedrec_ring_ctrl *ctrl;	/* ring.ctrl */
	unsigned char *data;			/* ring.data */
	uint64_t size;				/* ring.size */
	struct ringreader rr;
};

FIXTURE_SETUP(fake)
{
	self->size = sysconf(_SC_PAGESIZE);
	self->ctrl = calloc(1, self->size);
	/* a page more, so an out-of-bounds read would not even fault */
	self->data = calloc(1, 2 * self->size);
	ASSERT_NE(NULL, self->ctrl);
	ASSERT_NE(NULL, self->data);
	self->ctrl->abi_version = SCHEDREC_ABI_VERSION;
	self->ctrl->page_size = self->size;
	self->ctrl->data_size = self->size;
	self->ctrl->cpu = 3;
	self->ring.ctrl = self->ctrl;
	self->ring.data = self->data;
	self->ring.size = self->size;
	ASSERT_EQ(0, ringreader_attach(&self->rr, self->ctrl, self->data));
	EXPECT_EQ(3u, self->rr.cpu);
}

FIXTURE_TEARDOWN(fake)
{
	ringreader_close(&self->rr);
	free(self->ctrl);
	free(self->data);
}

/* Write a record at position @pos (free-running) and return its end. */
static uint64_t put(struct fake_ring *ring, uint64_t pos, uint8_t type,
		    uint16_t size)
{
	struct schedrec_header *hdr;

	hdr = (void *)(ring->data + (pos & (ring->size - 1)));
	memset(hdr, 0xa5, size);
	hdr->ts = 1000 + pos;
	hdr->seq = type == SCHEDREC_REC_PAD ? 0 : ring->seq++;
	hdr->size = size;
	hdr->type = type;
	hdr->flags = 0;
	return pos + size;
}

static void publish(struct fake_ring *ring, uint64_t tail, uint64_t head)
{
	ring->ctrl->tail = tail;
	ring->ctrl->head = head;
}

TEST_F(fake, empty)
{
	const struct schedrec_header *rec;

	publish(&self->ring, 4096 * 5, 4096 * 5);
	EXPECT_EQ(0, ringreader_begin(&self->rr));
	EXPECT_EQ(0, ringreader_next(&self->rr, &rec));
}

/* Records are returned in order, PAD skipped, across the end of the data. */
TEST_F(fake, records_pad_and_wrap)
{
	const struct schedrec_header *rec;
	uint64_t start = 7 * self->size - 64, pos;

	pos = put(&self->ring, start, SCHEDREC_EV_SWITCH, 32);
	pos = put(&self->ring, pos, SCHEDREC_REC_PAD, 32);
	pos = put(&self->ring, pos, SCHEDREC_EV_EXEC, 48);
	pos = put(&self->ring, pos, SCHEDREC_REC_LOST, 48);
	publish(&self->ring, start, pos);

	ASSERT_EQ(160, ringreader_begin(&self->rr));
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(SCHEDREC_EV_SWITCH, rec->type);
	EXPECT_EQ(0u, rec->seq);
	EXPECT_EQ(1000 + start, rec->ts);
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(SCHEDREC_EV_EXEC, rec->type);
	EXPECT_EQ(48, rec->size);
	EXPECT_EQ(1u, rec->seq);
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(SCHEDREC_REC_LOST, rec->type);
	EXPECT_EQ(0, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(3u, self->rr.records);
	/* nothing is given back until consume */
	EXPECT_EQ(start, self->ctrl->tail);
	ringreader_consume(&self->rr);
	EXPECT_EQ(pos, self->ctrl->tail);
}

/* The copy handed out does not change when the ring does. */
TEST_F(fake, records_are_copies)
{
	const struct schedrec_header *rec;
	uint64_t pos = put(&self->ring, 0, SCHEDREC_EV_SWITCH, 32);

	publish(&self->ring, 0, pos);
	ASSERT_EQ(32, ringreader_begin(&self->rr));
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	memset(self->data, 0, 32);
	EXPECT_EQ(32, rec->size);
	EXPECT_EQ(SCHEDREC_EV_SWITCH, rec->type);
	EXPECT_EQ(1000u, rec->ts);
}

struct bad_header {
	const char *what;
	uint64_t at;		/* offset in the data */
	uint64_t avail;		/* head - tail */
	uint8_t type;
	uint16_t size;
};

/* Every header that breaks the protocol is refused where it stands. */
TEST_F(fake, bad_headers)
{
	const struct bad_header bad[] = {
		{ "size 0", 0, 64, SCHEDREC_EV_SWITCH, 0 },
		{ "size below a header", 0, 64, SCHEDREC_EV_SWITCH, 8 },
		{ "size not aligned", 0, 64, SCHEDREC_EV_SWITCH, 40 },
		{ "past head", 0, 32, SCHEDREC_EV_EXEC, 48 },
		{ "past the end of the data", self->size - 32, 64,
		  SCHEDREC_REC_PAD, 64 },
		{ "type 0", 0, 64, 0, 32 },
		{ "switch of 48 bytes", 0, 64, SCHEDREC_EV_SWITCH, 48 },
		{ "lost of 32 bytes", 0, 64, SCHEDREC_REC_LOST, 32 },
		{ "huge", 0, 64, SCHEDREC_EV_SWITCH, 0xfff0 },
		{ "stack too short for its count", 0, 64, SCHEDREC_EV_STACK,
		  16 },
		{ "stack whose count does not fill it", 0, 64,
		  SCHEDREC_EV_STACK, 64 },
	};
	const struct schedrec_header *rec;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		uint64_t tail = 3 * self->size + bad[i].at;

		memset(self->data, 0, self->size);
		put(&self->ring, tail, bad[i].type, 16);
		((struct schedrec_header *)(self->data + bad[i].at))->size =
			bad[i].size;
		publish(&self->ring, tail, tail + bad[i].avail);
		ASSERT_LE(0, ringreader_begin(&self->rr));
		EXPECT_EQ(-EIO, ringreader_next(&self->rr, &rec))
			TH_LOG("%s accepted", bad[i].what);
		/* and it stays put */
		EXPECT_EQ(tail, self->rr.pos);
		EXPECT_EQ(-EIO, ringreader_next(&self->rr, &rec));
	}
}

/* A STACK record comes back whole: every address of its count. */
TEST_F(fake, stack_record)
{
	const struct schedrec_stack *st;
	const struct schedrec_header *rec;
	struct schedrec_stack *w;
	uint64_t pos;
	unsigned int i;

	pos = put(&self->ring, 0, SCHEDREC_EV_STACK,
		  SCHEDREC_STACK_MAX_SIZE);
	w = (void *)self->data;
	w->tid = 42;
	w->nr = SCHEDREC_STACK_MAX_DEPTH;
	for (i = 0; i < w->nr; i++)
		w->ips[i] = 0xffffffff81000000ull + i;
	pos = put(&self->ring, pos, SCHEDREC_EV_SWITCH, 32);
	publish(&self->ring, 0, pos);
	ASSERT_LE(0, ringreader_begin(&self->rr));
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	ASSERT_EQ(SCHEDREC_EV_STACK, rec->type);
	st = (const void *)rec;
	EXPECT_EQ(42u, st->tid);
	ASSERT_EQ(SCHEDREC_STACK_MAX_DEPTH, st->nr);
	EXPECT_EQ(0xffffffff81000000ull + SCHEDREC_STACK_MAX_DEPTH - 1,
		  st->ips[SCHEDREC_STACK_MAX_DEPTH - 1]);
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(SCHEDREC_EV_SWITCH, rec->type);
	EXPECT_EQ(0u, self->rr.skipped);
}

/* Unknown types come back to be skipped; those too long to copy are. */
TEST_F(fake, unknown_types)
{
	const struct schedrec_header *rec;
	uint64_t pos;

	pos = put(&self->ring, 0, 200, 64);
	pos = put(&self->ring, pos, 201, RINGREADER_RECORD_MAX + 16);
	pos = put(&self->ring, pos, SCHEDREC_EV_MIGRATE, 32);
	publish(&self->ring, 0, pos);
	ASSERT_LE(0, ringreader_begin(&self->rr));
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(200, rec->type);
	EXPECT_EQ(64, rec->size);
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(SCHEDREC_EV_MIGRATE, rec->type);
	EXPECT_EQ(1u, self->rr.skipped);
	EXPECT_EQ(0, ringreader_next(&self->rr, &rec));
}

/* Positions that make no sense are refused before any record is read. */
TEST_F(fake, bad_positions)
{
	publish(&self->ring, 4096 + 32, 4096);
	EXPECT_EQ(-EIO, ringreader_begin(&self->rr));
	publish(&self->ring, 0, self->size + 16);
	EXPECT_EQ(-EIO, ringreader_begin(&self->rr));
	publish(&self->ring, 8, 64);
	EXPECT_EQ(-EIO, ringreader_begin(&self->rr));
	/* a full ring is fine */
	publish(&self->ring, 0, self->size);
	EXPECT_EQ((int64_t)self->size, ringreader_begin(&self->rr));
}

/* Overwrite mode starts at the oldest record kept if tail is behind it. */
TEST_F(fake, overwrite_starts_at_oldest)
{
	const struct schedrec_header *rec;
	uint64_t pos;

	pos = put(&self->ring, 64, SCHEDREC_EV_SWITCH, 32);
	pos = put(&self->ring, pos, SCHEDREC_EV_SWITCH, 32);
	self->ctrl->mode = SCHEDREC_MODE_OVERWRITE;
	self->ctrl->oldest = 96;
	publish(&self->ring, 0, pos);
	ASSERT_EQ(32, ringreader_begin(&self->rr));
	ASSERT_EQ(1, ringreader_next(&self->rr, &rec));
	EXPECT_EQ(1u, rec->seq);
	EXPECT_EQ(0, ringreader_next(&self->rr, &rec));
	/* a tail past oldest wins */
	publish(&self->ring, 128, pos);
	EXPECT_EQ(0, ringreader_begin(&self->rr));
}

static int refuse_second(const struct schedrec_header *rec, void *arg)
{
	int *calls = arg;

	(void)rec;
	return ++*calls == 2 ? 1 : 0;
}

/* drain consumes what the callback took, and not the one it refused. */
TEST_F(fake, drain_stops_where_told)
{
	uint64_t pos;
	int calls = 0;

	pos = put(&self->ring, 0, SCHEDREC_EV_SWITCH, 32);
	pos = put(&self->ring, pos, SCHEDREC_EV_FORK, 48);
	pos = put(&self->ring, pos, SCHEDREC_EV_SWITCH, 32);
	publish(&self->ring, 0, pos);
	EXPECT_EQ(1, ringreader_drain(&self->rr, refuse_second, &calls));
	EXPECT_EQ(32u, self->ctrl->tail);
	calls = 2;
	EXPECT_EQ(2, ringreader_drain(&self->rr, refuse_second, &calls));
	EXPECT_EQ(pos, self->ctrl->tail);
}

FIXTURE(lib) {
	int unused;
};

FIXTURE_SETUP(lib)
{
}

FIXTURE_TEARDOWN(lib)
{
}

TEST_F(lib, attach_checks_the_ring)
{
	long page = sysconf(_SC_PAGESIZE);
	struct schedrec_ring_ctrl ctrl = {
		.abi_version = SCHEDREC_ABI_VERSION + 1,
		.page_size = page,
		.data_size = page,
	};
	struct ringreader rr;

	EXPECT_EQ(-EPROTO, ringreader_attach(&rr, &ctrl, NULL));
	ctrl.abi_version = SCHEDREC_ABI_VERSION;
	ctrl.data_size = 3 * page;
	EXPECT_EQ(-EPROTO, ringreader_attach(&rr, &ctrl, NULL));
	ctrl.data_size = 4 * page;
	EXPECT_EQ(0, ringreader_attach(&rr, &ctrl, NULL));
	ringreader_close(&rr);
}

TEST_F(lib, seq_extend)
{
	EXPECT_EQ(5u, ringreader_seq_extend(0, 5));
	EXPECT_EQ(0x100000005ull, ringreader_seq_extend(0xfffffff0ull, 5));
	EXPECT_EQ(0x1fffffff0ull, ringreader_seq_extend(0x1fffffff0ull,
							0xfffffff0u));
	EXPECT_EQ(0x200000000ull, ringreader_seq_extend(0x1ffffffffull, 0));
}

/* Build a header (a LOST record if @count) for the sequence tests. */
static const struct schedrec_header *seq_record(union sr_record *r,
						uint32_t seq, uint64_t count)
{
	memset(r, 0, sizeof(*r));
	r->hdr.seq = seq;
	r->hdr.type = count ? SCHEDREC_REC_LOST : SCHEDREC_EV_SWITCH;
	r->hdr.size = count ? 48 : 32;
	r->lost.count = count;
	return &r->hdr;
}

TEST_F(lib, seq_account)
{
	struct ringreader_seq seq;
	union sr_record r;
	uint64_t seq64;

	ringreader_seq_init(&seq, 0);
	EXPECT_EQ(0u, ringreader_seq_account(&seq, seq_record(&r, 0, 0),
					     &seq64));
	EXPECT_EQ(0u, seq64);
	EXPECT_EQ(0u, ringreader_seq_account(&seq, seq_record(&r, 1, 0),
					     &seq64));
	/* 2, 3, 4 dropped: the LOST record takes 5 */
	EXPECT_EQ(0u, ringreader_seq_account(&seq, seq_record(&r, 5, 3),
					     &seq64));
	EXPECT_EQ(5u, seq64);
	EXPECT_EQ(3u, seq.lost);
	/* 6 missing, nothing says why */
	EXPECT_EQ(1u, ringreader_seq_account(&seq, seq_record(&r, 7, 0),
					     &seq64));
	EXPECT_EQ(1u, seq.missing);
	EXPECT_EQ(1u, seq.breaks);
	EXPECT_EQ(4u, seq.records);
	EXPECT_EQ(8u, seq.next);

	/* a LOST count beyond 2^32 is followed exactly */
	ringreader_seq_init(&seq, 0xfffffff0ull);
	EXPECT_EQ(0u, ringreader_seq_account(&seq,
		seq_record(&r, 0xfffffff7u, 0x100000007ull), &seq64));
	EXPECT_EQ(0x1fffffff7ull, seq64);

	/* starting anywhere */
	ringreader_seq_init(&seq, RINGREADER_SEQ_ANY);
	EXPECT_EQ(0u, ringreader_seq_account(&seq, seq_record(&r, 1234, 0),
					     &seq64));
	EXPECT_EQ(1234u, seq64);
	EXPECT_EQ(0u, ringreader_seq_account(&seq, seq_record(&r, 1235, 0),
					     NULL));
}

struct state_case {
	uint32_t state;
	bool preempt;
	uint32_t exit_state;
	const char *ftrace;
};

TEST_F(lib, taskstate_letters)
{
	static const struct state_case cases[] = {
		{ 0x0000, false, 0, "R" },
		{ 0x0000, true, 0, "R+" },
		{ 0x0001, true, 0, "R+" },	/* preempted while going to sleep */
		{ 0x0402, true, 0, "R+" },
		{ 0x0001, false, 0, "S" },	/* TASK_INTERRUPTIBLE */
		{ 0x2001, false, 0, "S" },	/* ... | TASK_FREEZABLE */
		{ 0x0002, false, 0, "D" },	/* TASK_UNINTERRUPTIBLE */
		{ 0x0102, false, 0, "D" },	/* TASK_KILLABLE */
		{ 0x0402, false, 0, "I" },	/* TASK_IDLE */
		{ 0x0104, false, 0, "T" },	/* TASK_STOPPED */
		{ 0x0008, false, 0, "t" },	/* TASK_TRACED */
		{ 0x0040, false, 0, "P" },	/* TASK_PARKED */
		{ 0x0080, false, 0x20, "Z" },	/* TASK_DEAD, EXIT_ZOMBIE */
		{ 0x0080, false, 0x10, "X" },	/* TASK_DEAD, EXIT_DEAD */
		{ 0x0080, false, TASKSTATE_EXIT_UNKNOWN, "Z" },
		{ 0x1000, false, 0, "D" },	/* TASK_RTLOCK_WAIT */
		{ 0x8000, false, 0, "D" },	/* TASK_FROZEN */
		{ 0x0400, false, 0, "R" },	/* TASK_NOLOAD alone */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct state_case *c = &cases[i];

		EXPECT_STREQ(c->ftrace, taskstate_ftrace(c->state, c->preempt,
							 c->exit_state))
			TH_LOG("state 0x%x preempt %d exit 0x%x", c->state,
			       c->preempt, c->exit_state);
	}
	/* the prev_state field ftrace records: a bit per letter */
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		static const char letters[] = "RSDTtXZPI";
		const struct state_case *c = &cases[i];
		uint32_t state = c->state, want;

		if (c->exit_state != TASKSTATE_EXIT_UNKNOWN)
			state |= c->exit_state;
		want = strchr(letters, c->ftrace[0]) - letters;
		want = c->preempt ? 0x100 : want ? 1u << (want - 1) : 0;
		EXPECT_EQ(want, taskstate_ftrace_value(state, c->preempt))
			TH_LOG("state 0x%x preempt %d: %s", state, c->preempt,
			       c->ftrace);
	}
	EXPECT_EQ(0x80u, taskstate_ftrace_value(0x402, false));
	EXPECT_EQ(0x20u, taskstate_ftrace_value(0x80, false));
	EXPECT_EQ('S', taskstate_letter(0x1, false));
	EXPECT_EQ('R', taskstate_letter(0x1, true));
	EXPECT_EQ('I', taskstate_letter(0x402, false));
	EXPECT_TRUE(taskstate_is_dead(0x80));
	EXPECT_FALSE(taskstate_is_dead(0x1));
}

TEST_HARNESS_MAIN
