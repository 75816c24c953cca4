// SPDX-License-Identifier: GPL-2.0
/*
 * The control files of /proc/schedrec (doc/procfs.md): what each write
 * accepts, what it refuses with EINVAL or EBUSY, and that a refused write
 * changes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

static const char *const event_names[] = SCHEDREC_EVENT_NAMES;
static const char *const event_tracepoints[] = SCHEDREC_EVENT_TRACEPOINTS;

FIXTURE(control) {
	int fd;		/* a CPU file some tests keep open */
};

FIXTURE_SETUP(control)
{
	self->fd = -1;
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
}

FIXTURE_TEARDOWN(control)
{
	if (self->fd >= 0)
		close(self->fd);
	sr_reset();
	sr_set_buf_kb(1024);
}

static uint32_t events_mask(void)
{
	uint32_t mask;

	return procfile_events_mask(&mask) ? UINT32_MAX : mask;
}

/*
 * Every "id name tracepoint on|off" line of the events file agrees with
 * @mask; returns the number of lines that do.
 */
static unsigned int events_lines_agree(uint32_t mask)
{
	char buf[4096], name[32], tracepoint[32], state[8], *line, *save;
	unsigned int id, agree = 0;

	if (procfile_read("events", buf, sizeof(buf)) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%u %31s %31s %7s", &id, name, tracepoint,
			   state) != 4)
			continue;
		if (!SCHEDREC_EV_IS_EVENT(id))
			continue;
		if (!strcmp(name, event_names[id]) &&
		    !strcmp(tracepoint, event_tracepoints[id]) &&
		    !strcmp(state, mask & (1u << id) ? "on" : "off"))
			agree++;
	}
	return agree;
}

struct events_case {
	const char *before;	/* written first */
	const char *input;
	uint32_t mask;		/* the mask after input */
};

static const struct events_case good_events[] = {
	{ "all", "switch waking", 0x6 },
	{ "0x6", "+exit", 0x106 },
	{ "0x106", "-switch", 0x104 },
	{ "none", "all", SCHEDREC_EV_ALL_MASK },
	{ "all", "none", 0 },
	{ "all", "0x6", 0x6 },
	{ "all", "0x206", 0x206 },
	{ "all", "sched_switch", 0x2 },
	{ "none", "switch,waking", 0x6 },
	{ "none", "switch,sched_waking wakeup_new\n", 0x16 },
	{ "0x6", "+sched_process_fork", 0x46 },
	{ "all", "-switch -waking", SCHEDREC_EV_ALL_MASK & ~0x6u },
	{ "all", "none +rename", 0x200 },
	{ "all", "migrate +exec", 0xa0 },
	{ "0x6", "switch -switch", 0 },
	{ "all", "exit\n", 0x100 },
	{ "none", "+switch,+switch", 0x2 },
	{ "none", "sched_wakeup wakeup task_rename", 0x208 },
	{ "none", "0x3fe", SCHEDREC_EV_ALL_MASK },
	/* stack: only by name or bit, never by "all" */
	{ "none", "stack", 0x1000 },
	{ "switch", "+stack", 0x1002 },
	{ "0x1002", "all", SCHEDREC_EV_ALL_MASK },
	{ "none", "all +stack", 0x13fe },
	{ "0x13fe", "-stack", SCHEDREC_EV_ALL_MASK },
	{ "none", "0x13fe", 0x13fe },
	{ "none", "switch stack", 0x1002 },
};

/* Lines of the events file: one per event, LOST and PAD are not events. */
static unsigned int nr_events(void)
{
	return __builtin_popcount(SCHEDREC_EV_VALID_MASK);
}

TEST_F(control, events_good_inputs)
{
	unsigned int i;

	EXPECT_EQ(0x3feu, (unsigned int)SCHEDREC_EV_ALL_MASK);
	EXPECT_EQ(0x13feu, (unsigned int)SCHEDREC_EV_VALID_MASK);
	EXPECT_EQ(10u, nr_events());
	for (i = 0; i < ARRAY_SIZE(good_events); i++) {
		const struct events_case *c = &good_events[i];

		ASSERT_EQ(0, procfile_write("events", c->before));
		EXPECT_EQ(0, procfile_write("events", c->input))
			TH_LOG("events '%s' refused", c->input);
		EXPECT_EQ(c->mask, events_mask())
			TH_LOG("after '%s' then '%s'", c->before, c->input);
		EXPECT_EQ(nr_events(), events_lines_agree(c->mask));
	}
}

TEST_F(control, events_bad_inputs)
{
	static const char *const bad[] = {
		"bogus", "+", "-", "0x1", "0xffffffff", "", "\n", " ",
		"switch bogus", "0x", "0xg", "+bogus", "-bogus", "Switch",
		"switch,,bogus", "0x400", "0x800", "lost", "pad", "+lost",
		"all bogus", "0x2000", "0x1c00", "sched_stack", "stacks",
	};
	unsigned int i;

	ASSERT_EQ(0, procfile_write("events", "0x106"));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, procfile_write("events", bad[i]))
			TH_LOG("events '%s'", bad[i]);
		EXPECT_EQ(0x106u, events_mask())
			TH_LOG("mask changed by '%s'", bad[i]);
	}
	EXPECT_EQ(nr_events(), events_lines_agree(0x106));
}

/* The mask may change while recording; probes follow at once. */
TEST_F(control, events_change_while_recording)
{
	struct sr_log log = { 0 };
	bool *waking_seen;
	size_t i, switches = 0, wakings = 0, others = 0, late = 0;
	int nr_cpus = sr_nr_cpus();

	ASSERT_LT(0, nr_cpus);
	waking_seen = calloc(nr_cpus, sizeof(*waking_seen));
	ASSERT_NE(NULL, waking_seen);
	ASSERT_EQ(0, procfile_write("events", "switch"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(50, -1, -1));
	ASSERT_EQ(0, procfile_write("events", "waking"));
	EXPECT_EQ(0x4u, events_mask());
	ASSERT_EQ(0, sr_pingpong(50, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, sr_drain_all(&log, NULL, nr_cpus));
	for (i = 0; i < log.n; i++) {
		const struct sr_event *ev = &log.ev[i];

		switch (ev->r.hdr.type) {
		case SCHEDREC_EV_SWITCH:
			switches++;
			/* once a CPU recorded a waking, the switch probe is gone */
			if (waking_seen[ev->cpu])
				late++;
			break;
		case SCHEDREC_EV_WAKING:
			wakings++;
			waking_seen[ev->cpu] = true;
			break;
		default:
			others++;
		}
	}
	EXPECT_LT(0u, switches);
	EXPECT_LT(0u, wakings);
	EXPECT_EQ(0u, others);
	EXPECT_EQ(0u, late);
	sr_log_free(&log);
	free(waking_seen);
}

static uint64_t enabled(void)
{
	uint64_t value;

	return procfile_read_u64("enable", &value) ? UINT64_MAX : value;
}

TEST_F(control, enable_parsing)
{
	static const char *const bad[] = { "2", "x", "", "-1", "1x", "on" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, procfile_write("enable", bad[i]))
			TH_LOG("enable '%s'", bad[i]);
		EXPECT_EQ(0u, enabled());
	}
	ASSERT_EQ(0, procfile_write("enable", "1\n"));
	EXPECT_EQ(1u, enabled());
	/* writing the current value does nothing, and succeeds */
	EXPECT_EQ(0, procfile_write("enable", "1"));
	EXPECT_EQ(1u, enabled());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, procfile_write("enable", bad[i]));
		EXPECT_EQ(1u, enabled());
	}
	ASSERT_EQ(0, procfile_write("enable", "0"));
	EXPECT_EQ(0u, enabled());
	EXPECT_EQ(0, procfile_write("enable", "0\n"));
	EXPECT_EQ(0u, enabled());
}

static bool mode_is(const char *expected)
{
	char buf[32];

	return procfile_read("mode", buf, sizeof(buf)) > 0 &&
	       !strcmp(buf, expected);
}

TEST_F(control, mode_parsing)
{
	static const char *const bad[] = {
		"fast", "", "streams", "over", "overwrite stream", "0",
	};
	unsigned int i;

	EXPECT_TRUE(mode_is("stream\n"));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, procfile_write("mode", bad[i]))
			TH_LOG("mode '%s'", bad[i]);
		EXPECT_TRUE(mode_is("stream\n"));
	}
	EXPECT_EQ(0, procfile_write("mode", "overwrite"));
	EXPECT_TRUE(mode_is("overwrite\n"));
	EXPECT_EQ(0, procfile_write("mode", "stream\n"));
	EXPECT_TRUE(mode_is("stream\n"));
	EXPECT_EQ(0, procfile_write("mode", "overwrite\n"));
	EXPECT_TRUE(mode_is("overwrite\n"));

	/* fixed while recording */
	ASSERT_EQ(0, procfile_write("events", "none"));
	ASSERT_EQ(0, sr_enable(true));
	EXPECT_EQ(-EBUSY, procfile_write("mode", "stream"));
	EXPECT_TRUE(mode_is("overwrite\n"));
	EXPECT_EQ(-EINVAL, procfile_write("mode", "fast"));
	ASSERT_EQ(0, sr_enable(false));
	EXPECT_EQ(0, procfile_write("mode", "stream"));
	EXPECT_TRUE(mode_is("stream\n"));
}

static uint64_t buf_kb(void)
{
	uint64_t value;

	return procfile_read_u64("buf_kb", &value) ? UINT64_MAX : value;
}

TEST_F(control, buf_kb_parsing)
{
	static const char *const bad[] = {
		"3", "0", "1048576", "524288", "2", "6", "x", "", "-4",
		"4096k", "1023",
	};
	long page = sysconf(_SC_PAGESIZE);
	struct schedrec_ring_ctrl *ctrl;
	unsigned int i;

	ASSERT_EQ(1024u, buf_kb());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, procfile_write("buf_kb", bad[i]))
			TH_LOG("buf_kb '%s'", bad[i]);
		EXPECT_EQ(1024u, buf_kb());
	}
	ASSERT_EQ(0, procfile_write("buf_kb", "8\n"));
	EXPECT_EQ(8u, buf_kb());

	/* the rings really have the new size */
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	ctrl = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	EXPECT_EQ(8192u, ctrl->data_size);
	EXPECT_EQ(0u, ctrl->cpu);
	munmap(ctrl, page);
	close(self->fd);
	self->fd = -1;

	/* the smallest */
	EXPECT_EQ(0, procfile_write("buf_kb", "4"));
	EXPECT_EQ(4u, buf_kb());
	EXPECT_EQ(0, procfile_write("buf_kb", "1024"));
	EXPECT_EQ(1024u, buf_kb());
}

/* Write @len bytes of @data to control file @name in one write(): 0 or -errno. */
static int write_bytes(const char *name, const void *data, size_t len)
{
	char path[128];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	err = n < 0 ? -errno : n == (ssize_t)len ? 0 : -EIO;
	close(fd);
	return err;
}

struct hostile_write {
	const char *file;
	const char *data;
	size_t len;
};

/* @data is a literal: its bytes, embedded NULs too */
#define HOSTILE(file, data)	{ file, data, sizeof(data) - 1 }

/* Each would change a setting if its first bytes were all that was read. */
static const struct hostile_write hostile_writes[] = {
	HOSTILE("enable", "1\0junk"),
	HOSTILE("enable", "1\0"),
	HOSTILE("enable", "1 junk"),
	HOSTILE("enable", "1\n\n"),
	HOSTILE("events", "switch\0junk"),
	HOSTILE("events", "all\0"),
	HOSTILE("mode", "overwrite\0x"),
	HOSTILE("mode", "overwrite\nx"),
	HOSTILE("buf_kb", "8\0junk"),
	HOSTILE("buf_kb", "010"),
	HOSTILE("buf_kb", "0x10"),
	HOSTILE("buf_kb", " 8"),
	HOSTILE("sync", "1\0junk"),
};

/*
 * A write is understood as a whole or refused: an embedded NUL, junk after
 * a number, a number in another base, a valid value followed by 1 MiB:
 * each EINVAL, and nothing changes.
 */
TEST_F(control, hostile_writes_refused_whole)
{
	static const char *const files[] = { "enable", "events", "mode",
					     "buf_kb", "sync" };
	static const char *const values[] = { "1", "switch", "overwrite",
					      "8", "1" };
	size_t big = 1 << 20, i;
	struct procfile_stats before;
	char *buf = malloc(big);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, procfile_write("events", "none"));
	ASSERT_EQ(0, procfile_stats_read(&before));
	for (i = 0; i < ARRAY_SIZE(hostile_writes); i++) {
		const struct hostile_write *w = &hostile_writes[i];
		size_t len = w->len;

		EXPECT_EQ(-EINVAL, write_bytes(w->file, w->data, len))
			TH_LOG("%s: write %zu bytes \"%s\"...", w->file, len,
			       w->data);
		EXPECT_STREQ("", sr_settings_changed(&before))
			TH_LOG("%s: changed by \"%s\"...", w->file, w->data);
	}
	memset(buf, 'x', big);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		memcpy(buf, values[i], strlen(values[i]));
		buf[strlen(values[i])] = '\n';
		EXPECT_EQ(-EINVAL, write_bytes(files[i], buf, big))
			TH_LOG("%s: \"%s\" then 1 MiB", files[i], values[i]);
		EXPECT_STREQ("", sr_settings_changed(&before))
			TH_LOG("%s: changed by \"%s\" then 1 MiB", files[i],
			       values[i]);
		/* all junk again for the next */
		memset(buf, 'x', strlen(values[i]) + 1);
	}
	EXPECT_EQ(0, write_bytes("buf_kb", "8\n", 2));
	EXPECT_EQ(8u, buf_kb());
	procfile_stats_free(&before);
	free(buf);
}

TEST_F(control, buf_kb_busy_while_recording)
{
	ASSERT_EQ(0, procfile_write("events", "none"));
	ASSERT_EQ(0, sr_enable(true));
	EXPECT_EQ(-EBUSY, procfile_write("buf_kb", "16"));
	EXPECT_EQ(1024u, buf_kb());
	/* a bad value is still a bad value */
	EXPECT_EQ(-EINVAL, procfile_write("buf_kb", "3"));
	ASSERT_EQ(0, sr_enable(false));
	EXPECT_EQ(0, procfile_write("buf_kb", "16"));
	EXPECT_EQ(16u, buf_kb());
}

TEST_F(control, buf_kb_busy_while_cpu_file_open)
{
	long page = sysconf(_SC_PAGESIZE);
	void *data;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(-EBUSY, procfile_write("buf_kb", "16"));
	EXPECT_EQ(1024u, buf_kb());

	/* a mapping of a closed file still counts */
	data = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, page);
	ASSERT_NE(MAP_FAILED, data);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-EBUSY, procfile_write("buf_kb", "16"));
	EXPECT_EQ(1024u, buf_kb());
	munmap(data, page);

	EXPECT_EQ(0, procfile_write("buf_kb", "16"));
	EXPECT_EQ(16u, buf_kb());
}

TEST_F(control, stats_format)
{
	static const char expected[] =
		"enabled=0 mode=stream buf_kb=32 events=0x206\n";
	struct procfile_stats stats;
	char first[128];

	ASSERT_EQ(0, procfile_write("events", "0x206"));
	ASSERT_EQ(0, procfile_write("buf_kb", "32"));
	ASSERT_LT(0, procfile_read("stats", first, sizeof(first)));
	EXPECT_EQ(0, strncmp(first, expected, strlen(expected)))
		TH_LOG("stats starts with '%s'", first);
	ASSERT_EQ(0, procfile_stats_read(&stats));
	EXPECT_EQ((unsigned int)sr_nr_cpus(), stats.nr_cpus);
	EXPECT_EQ(32u, stats.buf_kb);
	EXPECT_EQ(0x206u, stats.events);
	procfile_stats_free(&stats);

	ASSERT_EQ(0, procfile_write("mode", "overwrite"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, procfile_stats_read(&stats));
	EXPECT_TRUE(stats.enabled);
	EXPECT_TRUE(stats.overwrite);
	procfile_stats_free(&stats);
}

TEST_F(control, sync_parsing)
{
	static const char *const bad[] = { "0", "2", "x", "-1", "1x", "11" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, procfile_write("sync", bad[i]))
			TH_LOG("sync case %u", i);
	EXPECT_EQ(0, procfile_write("sync", "1\n"));
	ASSERT_EQ(0, sr_enable(true));
	EXPECT_EQ(0, procfile_write("sync", "1"));
	ASSERT_EQ(0, sr_enable(false));
}

/*
 * What sync promises: read the clock, write sync, load the head: every
 * record stamped before that clock reading is below that head.  So every
 * record of a later batch is stamped at or after the clock reading that
 * preceded the earlier batch.  A CPU switching constantly has records in
 * flight now and then when a sync begins; under QEMU's round-robin TCG a
 * vCPU stopped inside a probe makes the window wide.  A sync that did not
 * wait was caught by about one run in three (one grace period per sync
 * bounds the number of tries).
 */
TEST_F(control, sync_makes_older_records_visible)
{
	const struct schedrec_header *rec;
	struct ringreader rr;
	uint64_t fenced = 0, late = 0, seen = 0, t, end;
	int i, status;
	pid_t busy;

	if (sr_nr_online_cpus() < 2)
		SKIP(return, "needs 2 online CPUs");
	ASSERT_EQ(0, procfile_write("events", "switch waking wakeup"));
	/* before the ring is opened: the busy processes must not hold it */
	busy = fork();
	ASSERT_LE(0, busy);
	if (!busy) {
		setpgid(0, 0);
		for (;;)
			sr_pingpong(100, 1, 1);
	}
	ASSERT_EQ(0, ringreader_open(&rr, 1));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pin_self(0));
	/* each sync is a grace period: bounded by count and by time */
	end = sr_now_ns() + 8000000000ull;
	for (i = 0; i < 1000 && sr_now_ns() < end; i++) {
		t = sr_now_ns();
		ASSERT_EQ(0, procfile_write("sync", "1"));
		ASSERT_LE(0, ringreader_begin(&rr));
		while (ringreader_next(&rr, &rec) > 0) {
			late += rec->ts < fenced;
			seen++;
		}
		ringreader_consume(&rr);
		fenced = t;
	}
	kill(-busy, SIGKILL);
	kill(busy, SIGKILL);
	waitpid(busy, &status, 0);
	sr_enable(false);
	ringreader_close(&rr);
	EXPECT_LT(1000ull, seen);
	EXPECT_EQ(0ull, late);
}

TEST_HARNESS_MAIN
