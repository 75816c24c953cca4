// SPDX-License-Identifier: GPL-2.0
/*
 * `schedrec record` end to end: the real binary (/bin/schedrec, or
 * $SCHEDREC_BIN) records a workload into a .srec file, which the reader
 * library reads back and compares with the module's own counters.
 *
 * The workload is this binary again, run by the recorder with SRT_ROLE set:
 * "workload" runs hackbench (which forks, and whose processes exit) and
 * execs a child that renames itself; "starve" starves the drainer's CPU
 * with a SCHED_FIFO spinner while another CPU switches, so a tiny ring
 * must overflow.  With --direct, the same file, written with O_DIRECT
 * where /tmp's tmpfs takes it (Linux 6.6 on), and after a warning
 * through the page cache where it does not.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"
#include "procfile.h"
#include "srecreader.h"

#define TRACE		"/tmp/record_test.srec"
#define CHILD_COMM	"srt-child"
#define GO_FIFO		"/tmp/record_test.go"
#define DONE_FIFO	"/tmp/record_test.done"
#define STDERR_FILE	"/tmp/record_test.stderr"

/* Run schedrec with @argv (NULL-terminated, argv[0] ignored); its status. */
static int run_schedrec(char *const argv[], const char *role)
{
	return sr_run_schedrec(argv, role, NULL, NULL, 0);
}

/* SRT_ROLE=workload: hackbench, then a child that renames itself. */
static int role_workload(const char *self)
{
	int status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		execlp("hackbench", "hackbench", "-g", "2", "-l", "20", NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return 1;
	pid = fork();
	if (!pid) {
		setenv("SRT_ROLE", "child", 1);
		execl(self, self, NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return 1;
	return 0;
}

/* SRT_ROLE=starve: CPU 0 spins at SCHED_FIFO while CPU 1 switches. */
static int role_starve(void)
{
	struct sched_param sp = { .sched_priority = 50 };
	uint64_t end;
	pid_t pid;
	int status;

	pid = fork();
	if (!pid)
		_exit(sr_pingpong(3000, 1, 1) ? 1 : 0);
	if (pid < 0 || sr_pin_self(0) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp))
		return 1;
	end = sr_now_ns() + 300000000ull;
	while (sr_now_ns() < end && waitpid(pid, &status, WNOHANG) == 0)
		;
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	return waitpid(pid, &status, 0) == pid && !status ? 0 : 1;
}

/* What a file holds, as the reader saw it. */
struct file_counts {
	struct sr_srec_counts c;
	int exec_named;		/* exec records of hackbench */
	int exits;
	int renames;		/* to CHILD_COMM */
};

static void count_record(void *arg, const struct srec_record *rec)
{
	const union sr_record *u = (const void *)rec->hdr;
	struct file_counts *fc = arg;

	switch (rec->hdr->type) {
	case SCHEDREC_EV_EXEC:
		if (!strncmp(u->task.comm, "hackbench", 16))
			fc->exec_named++;
		break;
	case SCHEDREC_EV_EXIT:
		fc->exits++;
		break;
	case SCHEDREC_EV_RENAME:
		if (!strncmp(u->task.comm, CHILD_COMM, 16))
			fc->renames++;
		break;
	}
}

/* TRACE read to its end into @fc; the reader, still open, in *@rp. */
static int read_trace(struct file_counts *fc, struct srecreader **rp)
{
	memset(fc, 0, sizeof(*fc));
	return sr_read_srec_each(TRACE, &fc->c, count_record, fc, rp);
}

FIXTURE(record) {
	struct procfile_stats before;
	int nr_cpus;
};

FIXTURE_SETUP(record)
{
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	ASSERT_EQ(0, procfile_write("events", "switch waking exec exit"));
	ASSERT_EQ(0, procfile_stats_read(&self->before));
	self->nr_cpus = sr_nr_cpus();
	ASSERT_LE(1, self->nr_cpus);
	ASSERT_GE(64, self->nr_cpus);
	unlink(TRACE);
}

FIXTURE_TEARDOWN(record)
{
	procfile_stats_free(&self->before);
	sr_enable(false);
	unlink(TRACE);
}

/*
 * schedrec record (@direct: --direct), stderr into STDERR_FILE, on the
 * workload: every record the module wrote is in the file, in the right
 * CPU, with no gap; the header names the workload's threads; exec, rename
 * and exit are there; the module's settings come back.
 */
static void record_workload(struct __test_metadata *_metadata,
			    const struct procfile_stats *before, int nr_cpus,
			    bool direct)
{
	char self_path[256];
	/* without --direct, -q once more */
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q",
			       direct ? "--direct" : "-q", "-o", TRACE, "-e",
			       "switch,waking,exec,exit,rename,fork", "--",
			       self_path, NULL };
	const struct srecreader_info *info;
	const struct srec_thread *me;
	const struct srec_cpu_total *totals;
	struct procfile_stats st;
	struct file_counts fc;
	struct srecreader *r;
	int cpu;

	ASSERT_EQ(0, sr_self_exe(self_path, sizeof(self_path)));
	ASSERT_EQ(0, sr_run_schedrec(argv, "workload", STDERR_FILE, NULL, 0));
	EXPECT_STREQ("", sr_settings_changed(before));

	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	EXPECT_EQ(0ull, fc.c.all_gaps);
	info = srecreader_info(r);
	EXPECT_EQ(0u, info->file.drainer_cpu);
	EXPECT_NE(0u, info->file.drainer_tid);
	/* this process was alive at start */
	me = srecreader_thread(r, getpid());
	ASSERT_NE(NULL, me);
	EXPECT_EQ((uint32_t)getpid(), me->tgid);
	EXPECT_LT(0, fc.exec_named);
	EXPECT_LT(0, fc.renames);
	EXPECT_LT(2, fc.exits);

	/* the ring size did not change: the module still has its counts */
	ASSERT_EQ(0, procfile_stats_read(&st));
	ASSERT_NE(NULL, srecreader_trailer(r, &totals));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		EXPECT_EQ(st.cpu[cpu].written, fc.c.records[cpu])
			TH_LOG("cpu %d", cpu);
		EXPECT_EQ(st.cpu[cpu].written, totals[cpu].kernel_written);
		EXPECT_EQ(0ull, st.cpu[cpu].lost);
		EXPECT_EQ(0ull, fc.c.lost[cpu]);
	}
	procfile_stats_free(&st);
	srecreader_close(r);
}

/* a debug kernel (KASAN, lockdep) under TCG takes its time */
TEST_F_TIMEOUT(record, workload_complete, 120)
{
	record_workload(_metadata, &self->before, self->nr_cpus, false);
}

/* Whether /tmp takes O_DIRECT. */
static bool tmp_takes_o_direct(void)
{
	int fd = open("/tmp/record_test.probe",
		      O_WRONLY | O_CREAT | O_DIRECT, 0600);

	unlink("/tmp/record_test.probe");
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

TEST_F_TIMEOUT(record, direct_complete, 120)
{
	bool takes = tmp_takes_o_direct();
	char err[1024];

	record_workload(_metadata, &self->before, self->nr_cpus, true);
	sr_read_text(STDERR_FILE, err, sizeof(err));
	unlink(STDERR_FILE);
	if (takes) {
		EXPECT_EQ(NULL, strstr(err, "--direct")) TH_LOG("%s", err);
	} else {
		EXPECT_NE(NULL, strstr(err, "warning: --direct: " TRACE))
			TH_LOG("stderr: %s", err);
	}
}

/* SIGINT mid-run: a complete, readable file and the settings restored. */
TEST_F(record, sigint_leaves_readable_file)
{
	struct file_counts fc;
	struct srecreader *r;
	struct stat sb;
	int status, waited;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execl(sr_schedrec_bin(), "schedrec", "record", "-C", "0", "-q",
		      "-o", TRACE, NULL);
		_exit(126);
	}
	/* recording has begun once the header is written and data follow */
	for (waited = 0; waited < 10000; waited++) {
		if (!stat(TRACE, &sb) && sb.st_size > 4096)
			break;
		sr_pingpong(20, -1, -1);
	}
	ASSERT_LT(4096, sb.st_size);
	ASSERT_EQ(0, kill(pid, SIGINT));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_STREQ("", sr_settings_changed(&self->before));
	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	srecreader_close(r);
}

/*
 * A 4 KiB ring on a CPU whose drainer is starved overflows: the recorder
 * exits 1, and the loss in the file equals the module's counters, per CPU,
 * as the trailer recorded them before the ring size was put back.
 */
TEST_F(record, overflow_loss_matches_module)
{
	char self_path[256];
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q", "-m",
			       "4", "-o", TRACE, "-e", "switch,waking", "--",
			       self_path, NULL };
	const struct srec_cpu_total *totals;
	struct file_counts fc;
	struct srecreader *r;
	uint64_t lost = 0;
	int cpu;

	if (sr_nr_online_cpus() < 2)
		SKIP(return, "needs 2 online CPUs");
	ASSERT_EQ(0, sr_self_exe(self_path, sizeof(self_path)));
	ASSERT_EQ(1, run_schedrec(argv, "starve"));
	EXPECT_STREQ("", sr_settings_changed(&self->before));

	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	ASSERT_NE(NULL, srecreader_trailer(r, &totals));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(totals[cpu].kernel_lost, fc.c.lost[cpu])
			TH_LOG("cpu %d", cpu);
		EXPECT_EQ(totals[cpu].kernel_written, fc.c.records[cpu])
			TH_LOG("cpu %d", cpu);
		lost += totals[cpu].kernel_lost;
	}
	EXPECT_LT(0ull, lost);
	srecreader_close(r);
}

/* The sysfs file that takes CPU @cpu offline and back. */
static void cpu_online_path(char *path, size_t size, int cpu)
{
	snprintf(path, size, "/sys/devices/system/cpu/cpu%d/online", cpu);
}

/*
 * SRT_ROLE=online: bring CPU $SRT_CPU online (the test took it offline
 * before recording began), run switches there, and come back.
 */
static int role_online(void)
{
	const char *cpu_text = getenv("SRT_CPU");
	char path[64];
	int cpu;

	if (!cpu_text)
		return 1;
	cpu = atoi(cpu_text);
	cpu_online_path(path, sizeof(path), cpu);
	if (sr_write_text(path, "1"))
		return 1;
	return sr_pingpong(200, cpu, cpu) ? 1 : 0;
}

/*
 * A CPU brought online while recording (one ring per possible CPU, so it
 * has one already): its records are in the file, with no gap, and every
 * CPU's count equals the module's.  The newest online CPU goes offline
 * before the recording, and the workload brings it back.
 */
TEST_F(record, cpu_onlined_while_recording)
{
	char self_path[256], cpu_text[16], path[64];
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q", "-q",
			       "-o", TRACE, "-e", "switch,waking", "--",
			       self_path, NULL };
	const struct srec_cpu_total *totals;
	struct file_counts fc;
	struct srecreader *r;
	uint64_t online = 0;
	int cpu, late;

	late = sr_nr_online_cpus() - 1;
	if (late < 1)
		SKIP(return, "needs 2 online CPUs");
	cpu_online_path(path, sizeof(path), late);
	ASSERT_EQ(0, sr_write_text(path, "0"));
	snprintf(cpu_text, sizeof(cpu_text), "%d", late);
	setenv("SRT_CPU", cpu_text, 1);
	ASSERT_EQ(0, sr_self_exe(self_path, sizeof(self_path)));
	EXPECT_EQ(0, run_schedrec(argv, "online"));
	ASSERT_EQ(0, procfile_read_u64(path, &online));
	if (!online)
		sr_write_text(path, "1");
	ASSERT_EQ(1ull, online) TH_LOG("the workload did not bring CPU %d online",
				       late);

	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	EXPECT_EQ(0ull, fc.c.all_gaps);
	/* 200 round trips on it: 400 switches at least */
	EXPECT_LE(400ull, fc.c.records[late]) TH_LOG("cpu %d", late);
	ASSERT_NE(NULL, srecreader_trailer(r, &totals));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(totals[cpu].kernel_written, fc.c.records[cpu])
			TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0ull, fc.c.lost[cpu]) TH_LOG("cpu %d", cpu);
	}
	srecreader_close(r);
	EXPECT_STREQ("", sr_settings_changed(&self->before));
}

/*
 * --dump: the flight recorder (overwrite mode, recording) is saved oldest
 * first, continuous from there on every CPU, and recording goes on.
 */
TEST_F(record, dump_flight_recorder)
{
	char *const argv[] = { "schedrec", "record", "--dump", "-q", "-o",
			       TRACE, NULL };
	struct procfile_stats now;
	struct file_counts fc;
	struct srecreader *r;
	uint64_t total = 0;
	int cpu;

	ASSERT_EQ(0, procfile_write("mode", "overwrite"));
	ASSERT_EQ(0, sr_set_buf_kb(16));
	ASSERT_EQ(0, sr_enable(true));
	/* far more than 16 KiB of switches: the rings wrap */
	ASSERT_EQ(0, sr_pingpong(2000, 0, 1));
	ASSERT_EQ(0, run_schedrec(argv, NULL));
	ASSERT_EQ(0, procfile_stats_read(&now));
	EXPECT_TRUE(now.enabled);
	EXPECT_TRUE(now.overwrite);
	procfile_stats_free(&now);

	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	EXPECT_EQ(0ull, fc.c.all_gaps);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		/* a 16 KiB ring holds at most 512 records */
		EXPECT_GE(512ull, fc.c.records[cpu]);
		total += fc.c.records[cpu];
	}
	EXPECT_LT(200ull, total);
	srecreader_close(r);
	sr_enable(false);
	procfile_write("mode", "stream");
}

/*
 * --dump of a flight recorder that was stopped before: the recording ended
 * with its newest record, not when the dump ran.
 */
TEST_F(record, dump_of_stopped_recorder_ends_at_newest_record)
{
	char *const argv[] = { "schedrec", "record", "--dump", "-q", "-o",
			       TRACE, NULL };
	const struct srec_trailer_head *tr;
	struct file_counts fc;
	struct srecreader *r;

	ASSERT_EQ(0, procfile_write("mode", "overwrite"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(200, 0, 1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, run_schedrec(argv, NULL));

	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	tr = srecreader_trailer(r, NULL);
	ASSERT_NE(NULL, tr);
	ASSERT_LT(0ull, fc.c.newest_ts);
	EXPECT_EQ(fc.c.newest_ts, tr->end_mono_ns);
	srecreader_close(r);
	procfile_write("mode", "stream");
}

/*
 * Watch /proc/schedrec/enable from the moment GO_FIFO says recording is
 * on until it reads 0; exit with the time that was seen put in
 * /tmp/record_test.off (0: not within a minute).
 */
static void watch_for_off(int cpu)
{
	uint64_t deadline, seen = 0;
	char byte, buf[8], line[32];
	int fd;

	sr_pin_self(cpu);
	fd = open(GO_FIFO, O_RDONLY);
	if (fd < 0 || read(fd, &byte, 1) != 1)
		_exit(1);
	close(fd);
	deadline = sr_now_ns() + 60000000000ull;
	while (!seen && sr_now_ns() < deadline)
		if (procfile_read("enable", buf, sizeof(buf)) > 0 &&
		    buf[0] == '0')
			seen = sr_now_ns();
	fd = open("/tmp/record_test.off", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	snprintf(line, sizeof(line), "%llu\n", (unsigned long long)seen);
	_exit(fd >= 0 && write(fd, line, strlen(line)) > 0 && seen ? 0 : 1);
}

/*
 * The recording ends when schedrec record turns it off, not after it has
 * drained the rings and finished the file, when nothing is recorded: a
 * process that sees /proc/schedrec/enable go to 0 sees it no earlier than
 * the trailer's end.
 */
TEST_F(record, ends_when_recording_is_turned_off)
{
	char self_path[256], buf[32] = "";
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q", "-o",
			       TRACE, "--", self_path, NULL };
	const struct srec_trailer_head *tr;
	struct file_counts fc;
	struct srecreader *r;
	uint64_t off;
	pid_t watcher;
	int status;

	ASSERT_EQ(0, sr_self_exe(self_path, sizeof(self_path)));
	unlink(GO_FIFO);
	ASSERT_EQ(0, mkfifo(GO_FIFO, 0600));
	watcher = fork();
	ASSERT_LE(0, watcher);
	if (!watcher)
		watch_for_off(self->nr_cpus - 1);
	status = run_schedrec(argv, "go");
	if (status)
		kill(watcher, SIGKILL);
	ASSERT_EQ(0, status);
	ASSERT_EQ(watcher, waitpid(watcher, &status, 0));
	ASSERT_EQ(0, status);
	sr_read_text("/tmp/record_test.off", buf, sizeof(buf));
	off = strtoull(buf, NULL, 10);
	ASSERT_LT(0ull, off) TH_LOG("/tmp/record_test.off: '%s'", buf);

	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	tr = srecreader_trailer(r, NULL);
	ASSERT_NE(NULL, tr);
	EXPECT_LE(tr->end_mono_ns, off)
		TH_LOG("recording seen off at %llu ns, the trailer ends at %llu",
		       (unsigned long long)off,
		       (unsigned long long)tr->end_mono_ns);
	EXPECT_LE(srecreader_info(r)->file.start_mono_ns, tr->end_mono_ns);
	srecreader_close(r);
	unlink(GO_FIFO);
	unlink("/tmp/record_test.off");
}

/* -o -: a stream on stdout, through a pipe, reads back whole. */
TEST_F(record, stdout_through_a_pipe)
{
	char cmd[512];
	struct file_counts fc;
	struct srecreader *r;
	const struct srec_trailer_head *tr;
	const struct srec_cpu_total *totals;

	snprintf(cmd, sizeof(cmd),
		 "%s record -q -C 0 -o - -- hackbench -g 1 -l 10 | cat > %s",
		 sr_schedrec_bin(), TRACE);
	ASSERT_EQ(0, system(cmd));
	EXPECT_STREQ("", sr_settings_changed(&self->before));
	ASSERT_EQ(0, read_trace(&fc, &r));
	EXPECT_EQ(0, fc.c.warnings);
	tr = srecreader_trailer(r, &totals);
	ASSERT_NE(NULL, tr);
	EXPECT_LT(0ull, fc.c.records[0] + fc.c.records[1]);
	srecreader_close(r);
}

/* status: what the module is doing, in words. */
TEST_F(record, status_reports_the_module)
{
	char out[4096] = "";
	FILE *p;
	size_t n;

	p = popen("/bin/schedrec status", "r");
	ASSERT_NE(NULL, p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	EXPECT_EQ(0, pclose(p));
	EXPECT_NE(NULL, strstr(out, "module:    loaded, ABI 1")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "recording: off, stream mode, 1024 KiB"));
	EXPECT_NE(NULL, strstr(out, "events:    switch waking exec exit"));
	EXPECT_NE(NULL, strstr(out, "   0 "));
}

/* Wrong usage is refused, and the module is left as it was. */
TEST_F(record, bad_options_refused)
{
	char *const cases[][8] = {
		{ "schedrec", "record", "-C", "999", "-o", TRACE, NULL },
		{ "schedrec", "record", "-e", "nosuch", "-o", TRACE, NULL },
		{ "schedrec", "record", "-m", "3", "-o", TRACE, NULL },
		{ "schedrec", "record", "-d", "-1", "-o", TRACE, NULL },
		{ "schedrec", "record", "--dump", "-o", TRACE, NULL },
	};
	int expect[] = { 3, 2, 2, 2, 3 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(expect[i], run_schedrec(cases[i], NULL))
			TH_LOG("case %u (%s %s)", i, cases[i][2], cases[i][3]);
		EXPECT_STREQ("", sr_settings_changed(&self->before));
	}
}

/* The filtered process: two threads (one born while recording) ping-pong. */
struct pingpong_thread {
	int to[2], from[2];
	pid_t tid;
};

static void *pong(void *arg)
{
	struct pingpong_thread *t = arg;
	char byte;

	__atomic_store_n(&t->tid, gettid(), __ATOMIC_RELEASE);
	while (read(t->to[0], &byte, 1) == 1 && byte == 'p')
		if (write(t->from[1], "q", 1) != 1)
			break;
	return NULL;
}

/*
 * Wait for GO_FIFO, ping-pong, write the new thread's tid to DONE_FIFO.
 * Each ping finds the thread asleep in its read: 200 switch-outs.
 */
static int filtered_target(void)
{
	struct pingpong_thread t;
	pthread_t thread;
	char byte, buf[32];
	int fd, i;

	fd = open(GO_FIFO, O_RDONLY);
	if (fd < 0 || read(fd, &byte, 1) != 1)
		_exit(1);
	close(fd);
	t.tid = 0;
	if (pipe(t.to) || pipe(t.from) ||
	    pthread_create(&thread, NULL, pong, &t))
		_exit(1);
	while (!__atomic_load_n(&t.tid, __ATOMIC_ACQUIRE))
		sched_yield();
	for (i = 0; i < 200; i++) {
		/* asleep in its read: this write will wake it */
		if (sr_wait_task_state(t.tid, 'S', 10000) ||
		    write(t.to[1], "p", 1) != 1 || read(t.from[0], &byte, 1) != 1)
			_exit(1);
	}
	if (write(t.to[1], "x", 1) != 1 || pthread_join(thread, NULL))
		_exit(1);
	fd = open(DONE_FIFO, O_WRONLY);
	snprintf(buf, sizeof(buf), "%d\n", t.tid);
	if (fd < 0 || write(fd, buf, strlen(buf)) <= 0)
		_exit(1);
	_exit(0);
}

/* SRT_ROLE=go: say on GO_FIFO that this runs, so recording is on. */
static int role_go(void)
{
	int fd = open(GO_FIFO, O_WRONLY);

	return fd >= 0 && write(fd, "g", 1) == 1 ? 0 : 1;
}

/* SRT_ROLE=poke: start the target, wait until it is done, print its tid. */
static int role_poke(void)
{
	char buf[32] = "";
	int fd;

	fd = open(GO_FIFO, O_WRONLY);
	if (fd < 0 || write(fd, "g", 1) != 1)
		return 1;
	close(fd);
	fd = open(DONE_FIFO, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return 1;
	/* the tid goes to the test through a file */
	fd = open("/tmp/record_test.tid", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	return fd >= 0 && write(fd, buf, strlen(buf)) > 0 ? 0 : 1;
}

/*
 * -p PID: only the records of that process's threads, including a thread
 * born while recording, and the switches and wakeups involving them; the
 * records left out are not reported as missing.
 */
TEST_F(record, pid_filter)
{
	char pid_arg[16], self_path[256], buf[32] = "";
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q", "-o",
			       TRACE, "-p", pid_arg, "--", self_path, NULL };
	const struct srecreader_info *info;
	const struct srecreader_cpu *c;
	struct srecreader_options opt = { .strict = true };
	struct srec_record rec;
	struct srecreader *r;
	int kept = 0, strangers = 0, newborn = 0, cpu, status;
	pid_t target, tid;
	char err[256];

	ASSERT_EQ(0, sr_self_exe(self_path, sizeof(self_path)));
	unlink(GO_FIFO);
	unlink(DONE_FIFO);
	ASSERT_EQ(0, mkfifo(GO_FIFO, 0600));
	ASSERT_EQ(0, mkfifo(DONE_FIFO, 0600));
	target = fork();
	ASSERT_LE(0, target);
	if (!target)
		filtered_target();
	snprintf(pid_arg, sizeof(pid_arg), "%d", target);
	ASSERT_EQ(0, run_schedrec(argv, "poke"));
	ASSERT_EQ(target, waitpid(target, &status, 0));
	ASSERT_EQ(0, status);
	sr_read_text("/tmp/record_test.tid", buf, sizeof(buf));
	tid = atoi(buf);
	ASSERT_LT(0, tid) TH_LOG("/tmp/record_test.tid: '%s'", buf);

	r = srecreader_open(TRACE, &opt, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	info = srecreader_info(r);
	EXPECT_EQ((uint32_t)SREC_FILE_F_FILTERED,
		  info->file.flags & SREC_FILE_F_FILTERED);
	while (srecreader_next_batch(r, &rec, 1) > 0) {
		const union sr_record *u = (const void *)rec.hdr;
		bool ours;

		if (rec.hdr->type != SCHEDREC_EV_SWITCH)
			continue;
		ours = u->sw.prev_tid == (uint32_t)target ||
		       u->sw.next_tid == (uint32_t)target ||
		       u->sw.prev_tid == (uint32_t)tid ||
		       u->sw.next_tid == (uint32_t)tid;
		kept++;
		strangers += !ours;
		newborn += u->sw.prev_tid == (uint32_t)tid;
	}
	EXPECT_STREQ("", srecreader_error(r));
	EXPECT_EQ(0, strangers);
	/* 200 round trips: the new thread slept on the pipe each time */
	EXPECT_LE(200, newborn);
	EXPECT_LE(400, kept);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		c = srecreader_cpu(r, cpu);
		ASSERT_NE(NULL, c);
		EXPECT_EQ(0ull, c->missing) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0ull, c->lost);
	}
	srecreader_close(r);
	unlink(GO_FIFO);
	unlink(DONE_FIFO);
	unlink("/tmp/record_test.tid");
	EXPECT_STREQ("", sr_settings_changed(&self->before));
}

int main(int argc, char **argv)
{
	const char *role = getenv("SRT_ROLE");

	if (role && !strcmp(role, "workload"))
		return role_workload(argv[0]);
	if (role && !strcmp(role, "starve"))
		return role_starve();
	if (role && !strcmp(role, "poke"))
		return role_poke();
	if (role && !strcmp(role, "go"))
		return role_go();
	if (role && !strcmp(role, "online"))
		return role_online();
	if (role && !strcmp(role, "child")) {
		prctl(PR_SET_NAME, CHILD_COMM);
		return 0;
	}
	return test_harness_run(argc, argv);
}
