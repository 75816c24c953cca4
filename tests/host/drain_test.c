// SPDX-License-Identifier: GPL-2.0
/*
 * The drainer on the host (drainrig: kmod/ring.c fed by a real producer
 * thread on one core, drained on the other by the code of `schedrec
 * record` writing to /dev/null, or with O_DIRECT to a file in /var/tmp).
 * Every sequence number must be accounted for in the writer's totals, the
 * drainer's and the ring's own counters: delivered + lost = produced, no
 * gap.
 *
 * SCHEDREC_DRAIN_TEST_RECORDS sets how many events each case produces,
 * but for the one that writes to disk (2 M, 64 MB).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "drainrig.h"

/* 100 M records take about a minute under ThreadSanitizer */
#define TIMEOUT	600

static void run_case(struct __test_metadata *_metadata, uint64_t size,
		     unsigned int sink_delay, bool direct, struct drainrig *rig)
{
	const char *env = getenv("SCHEDREC_DRAIN_TEST_RECORDS");
	char path[] = "/var/tmp/drain_test.XXXXXX";
	uint64_t events;
	struct stat st;

	memset(rig, 0, sizeof(*rig));
	rig->ring_size = size;
	rig->records = env && !direct ? strtoull(env, NULL, 0) : 2000000;
	rig->sink_delay = sink_delay;
	rig->direct = direct;
	rig->fd = direct ? mkstemp(path) : open("/dev/null", O_WRONLY);
	ASSERT_LE(0, rig->fd);
	if (direct)
		unlink(path);
	ASSERT_EQ(0, drainrig_run(rig));
	/* the writer counts LOST records among the records it wrote */
	events = rig->total.records - rig->lost_records;
	if (direct) {
		/* every byte the writer wrote is in the file */
		ASSERT_EQ(0, fstat(rig->fd, &st));
		EXPECT_EQ(rig->file_bytes, (uint64_t)st.st_size);
		EXPECT_LT(events * 32, rig->file_bytes);
	}
	close(rig->fd);

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
	run_case(_metadata, 4 << 20, 0, false, &self->rig);
}

/* The same, written with O_DIRECT to a file on disk. */
TEST_F_TIMEOUT(drain, direct_to_disk, TIMEOUT)
{
	run_case(_metadata, 4 << 20, 0, true, &self->rig);
}

/* A 4 KiB ring and a slow disk must lose, and say so exactly. */
TEST_F_TIMEOUT(drain, slow_sink_overflows, TIMEOUT)
{
	run_case(_metadata, 4096, 20, false, &self->rig);
	EXPECT_LT(0ull, self->rig.total.lost);
	EXPECT_LT(0ull, self->rig.total.records);
}

TEST_HARNESS_MAIN
