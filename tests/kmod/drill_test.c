// SPDX-License-Identifier: GPL-2.0
/*
 * Fault drills: what a user's machine does to the module that a clean run
 * never does.  Here, a CPU taken offline while its ring has a reader and
 * load: stopping the recording and unloading the module must return, on
 * PREEMPT_RT too (where the reader's wakeup runs from a per-CPU thread
 * that an offline CPU never runs).  A write that does not return within
 * DRILL_HANG_S is a hang, and the test gives the CPU back to free it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define DRILL_TRIES	10
/* a hang: a stop or unload takes milliseconds, even under TCG */
#define DRILL_HANG_S	20
/* s, a test: DRILL_TRIES tries and at most one hang */
#define DRILL_TEST_S	150

FIXTURE(drill) {
	pid_t load, reader;
};

static void cpu1_online(bool on)
{
	uint64_t online;

	if (!procfile_read_u64(CPU1_ONLINE, &online) && online != on)
		sr_write_text(CPU1_ONLINE, on ? "1" : "0");
}

/* Kill @pid's process group (each child leads its own), reap @pid. */
static void stop_child(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(-*pid, SIGKILL);
	waitpid(*pid, NULL, 0);
	*pid = 0;
}

FIXTURE_SETUP(drill)
{
	self->load = 0;
	self->reader = 0;
	cpu1_online(true);	/* a test killed on its time-out left it off */
	if (sr_nr_online_cpus() < 2)
		SKIP(return, "needs 2 online CPUs");
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
}

FIXTURE_TEARDOWN(drill)
{
	stop_child(&self->load);
	stop_child(&self->reader);
	cpu1_online(true);
	sr_module_ensure();
	sr_reset();
	sr_set_buf_kb(1024);
}

/*
 * Switches on CPU 1 until killed: two processes of a pipe, both there
 * (and on CPU 0 once CPU 1 is gone).
 */
static pid_t start_load(void)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	setpgid(0, 0);
	if (sr_pin_self(1))
		_exit(2);
	for (;;)
		sr_pingpong(1000000, -1, -1);
}

/* Reads CPU 1's ring as fast as it fills, from CPU 0, until it ends. */
static pid_t start_reader(void)
{
	static char buf[65536];
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	setpgid(0, 0);
	if (sr_pin_self(0))
		_exit(2);
	fd = open(SCHEDREC_PROC_DIR "/cpu/1", O_RDONLY);
	if (fd < 0)
		_exit(3);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	_exit(0);
}

/*
 * Wait for child *@pid at most DRILL_HANG_S seconds: its exit status (and
 * *@pid 0), or -ETIMEDOUT (still to be freed and reaped).
 */
static int wait_bounded(pid_t *pid)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int status, i;

	for (i = 0; i < DRILL_HANG_S * 100; i++) {
		if (waitpid(*pid, &status, WNOHANG) == *pid) {
			*pid = 0;
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		}
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

/* @fn(@arg) in child *@pid, waited for as wait_bounded() does. */
static int bounded(int (*fn)(const void *), const void *arg, pid_t *pid)
{
	*pid = fork();
	if (*pid < 0)
		return -errno;
	if (!*pid)
		_exit(fn(arg) ? 1 : 0);
	return wait_bounded(pid);
}

static int write_enable(const void *text)
{
	return procfile_write("enable", text);
}

static int unload(const void *unused)
{
	(void)unused;
	return sr_module_unload_wait();
}

/* A hung child: CPU 1 back, so that it can finish; then reaped. */
static void free_hung(pid_t pid)
{
	cpu1_online(true);
	waitpid(pid, NULL, 0);
}

/* Records written on CPU 1 so far, or 0. */
static uint64_t cpu1_written(void)
{
	struct procfile_stats st;
	uint64_t n = 0;

	if (!procfile_stats_read(&st)) {
		if (st.nr_cpus > 1)
			n = st.cpu[1].written;
		procfile_stats_free(&st);
	}
	return n;
}

/* Until CPU 1's 4 KiB ring has filled and been read many times over. */
static int fill_cpu1(void)
{
	int i;

	for (i = 0; i < 1000 && cpu1_written() < 2000; i++)
		if (sr_pingpong(10, 0, 1))
			return -1;
	return cpu1_written() < 2000 ? -1 : 0;
}

/*
 * The drill: a 4 KiB ring (a reader wakeup every few dozen records), CPU
 * 1 busy and read, then taken offline; the stop must return, and the
 * reader see the end.  DRILL_TRIES times, each from a fresh start.
 */
TEST_F_TIMEOUT(drill, stop_with_cpu_offline_returns, DRILL_TEST_S)
{
	unsigned int try;
	pid_t hung;
	int ret;

	for (try = 0; try < DRILL_TRIES; try++) {
		ASSERT_EQ(0, sr_set_buf_kb(4));
		ASSERT_EQ(0, procfile_write("events", "all"));
		ASSERT_EQ(0, sr_enable(true));
		self->reader = start_reader();
		self->load = start_load();
		ASSERT_LT(0, self->reader);
		ASSERT_LT(0, self->load);
		ASSERT_EQ(0, fill_cpu1());
		ASSERT_EQ(0, sr_write_text(CPU1_ONLINE, "0"));
		ret = bounded(write_enable, "0", &hung);
		if (ret == -ETIMEDOUT)
			free_hung(hung);
		ASSERT_EQ(0, ret)
			TH_LOG("try %u: enable 0 with CPU 1 offline %s", try,
			       ret == -ETIMEDOUT ? "hung" : "failed");
		/* the stop woke the reader: it drains and sees the end */
		ret = wait_bounded(&self->reader);
		EXPECT_EQ(0, ret)
			TH_LOG("try %u: the reader of CPU 1 %s", try,
			       ret == -ETIMEDOUT ? "never saw the end" :
			       "failed");
		stop_child(&self->reader);
		stop_child(&self->load);
		ASSERT_EQ(0, sr_write_text(CPU1_ONLINE, "1"));
	}
}

/* Unloading with a CPU offline, right after recording there, returns. */
TEST_F_TIMEOUT(drill, unload_with_cpu_offline_returns, DRILL_TEST_S)
{
	unsigned int try;
	pid_t hung;
	int ret;

	for (try = 0; try < DRILL_TRIES; try++) {
		ASSERT_EQ(0, sr_module_ensure());
		ASSERT_EQ(0, sr_set_buf_kb(4));
		ASSERT_EQ(0, procfile_write("events", "all"));
		ASSERT_EQ(0, sr_enable(true));
		self->reader = start_reader();
		self->load = start_load();
		ASSERT_LT(0, self->reader);
		ASSERT_LT(0, self->load);
		ASSERT_EQ(0, fill_cpu1());
		ASSERT_EQ(0, sr_write_text(CPU1_ONLINE, "0"));
		/* the reader holds the module: it goes first */
		stop_child(&self->reader);
		stop_child(&self->load);
		ret = bounded(unload, NULL, &hung);
		if (ret == -ETIMEDOUT)
			free_hung(hung);
		ASSERT_EQ(0, ret)
			TH_LOG("try %u: rmmod with CPU 1 offline %s", try,
			       ret == -ETIMEDOUT ? "hung" : "failed");
		EXPECT_FALSE(sr_module_loaded());
		ASSERT_EQ(0, sr_write_text(CPU1_ONLINE, "1"));
	}
}

TEST_HARNESS_MAIN
