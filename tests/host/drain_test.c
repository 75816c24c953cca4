// SPDX-License-Identifier: GPL-2.0
/*
 * The drainer on the host (drainrig: kmod/ring.c fed by a real producer
 * thread on one core, drained on the other by the code of `schedrec
 * record` writing to /dev/null).  Every sequence number must be accounted
 * for in the writer's totals, the drainer's and the ring's own counters:
 * delivered + lost = produced, no gap.
 *
 * SCHEDREC_DRAIN_TEST_RECORDS sets how many events each case produces.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "drainrig.h"

/* 100 M records take about a minute under ThreadSanitizer */
#define TIMEOUT	600

static void run_case(struct __test_metadata *_metadata, uint64_t size,
		     unsigned int sink_delay, struct drainrig *rig)
{
	const char *env = getenv("SCHEDREC_DRAIN_TEST_RECORDS");
	uint64_t events;

	memset(rig, 0, sizeof(*rig));
	rig->ring_size = size;
	rig->records = env ? strtoull(env, NULL, 0) : 2000000;
	rig->sink_delay = sink_delay;
	rig->fd = open("/dev/null", O_WRONLY);
	ASSERT_LE(0, rig->fd);
	ASSERT_EQ(0, drainrig_run(rig));
	close(rig->fd);

	/* the writer counts LOST records among the records it wrote */
	events = rig->total.records - rig->lost_records;
	EXPECT_EQ(rig->produced, events + rig->total.lost);
	EXPECT_EQ(0ull, rig->total.gaps);
	/* agreeing with the ring's counters and the drainer's */
	EXPECT_EQ(rig->kernel_written, events);
	EXPECT_EQ(rig->kernel_lost, rig->total.lost);
	EXPECT_EQ(rig->kernel_lost, rig->drainer_lost);
	TH_LOG("produced %llu delivered %llu lost %llu in %llu chunks",
	       (unsigned long long)rig->produced,
	       (unsigned long long)events,
	       (unsigned long long)rig->total.lost,
	       (unsigned long long)rig->chunks);
}

FIXTURE(drain) {
	struct drainrig rig;
};

FIXTURE_SETUP(drain)
{
}

FIXTURE_TEARDOWN(drain)
{
}

TEST_F_TIMEOUT(drain, fast_producer, TIMEOUT)
{
	run_case(_metadata, 4 << 20, 0, &self->rig);
}

/* A 4 KiB ring and a slow disk must lose, and say so exactly. */
TEST_F_TIMEOUT(drain, slow_sink_overflows, TIMEOUT)
{
	run_case(_metadata, 4096, 20, &self->rig);
	EXPECT_LT(0ull, self->rig.total.lost);
	EXPECT_LT(0ull, self->rig.total.records);
}

TEST_HARNESS_MAIN
