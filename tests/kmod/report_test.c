// SPDX-License-Identifier: GPL-2.0
/*
 * The reports end to end, on the demo workload (tests/demo/workload.c):
 * its threads behave in known ways, `schedrec record -C 1` records it while
 * `perf sched record` records the whole machine, and each fact the
 * workload is built to show is read back from `schedrec report ... --csv`
 * (the static /bin/schedrec), one test per fact:
 *
 *   ticker   its longest off-CPU interval is 50 ms +- 10 %, in S (at most
 *            its longest sleep by its own clock, if the machine made that
 *            longer in every recording)
 *   pinned   at least 99 % of its on-CPU time is on CPU 1
 *   hog-a/b  each is switched out runnable (R), and the thread that held
 *            its CPU longest while it waited, and most often took it, is
 *            the other hog
 *   diskio   it is switched out in D
 *   waiter   every wakeup of it comes from locker
 *   perf     for each workload thread, the longest off-CPU interval is the
 *            one `perf sched timehist` saw, within 1 % or 20 us
 *
 * The recording is made in main(), before the tests run (each runs
 * in a child of it and reads the CSV files it left in WORKDIR), set up as
 * `make demo` does it: null_blk gives diskio a disk whose reads take 2 ms,
 * and every kernel thread, interrupt and unbound workqueue that may leave
 * CPU 0 is moved off it while recording (and put back), so that the hogs
 * have CPU 0 to themselves.  perf starts first with its events disabled
 * and is enabled through its control pipe, so it is recording when it
 * acknowledges; it is stopped (SIGINT) after schedrec ends.  Both record
 * again (RECORD_TRIES in all) when the workload measured by its own clock
 * that the emulated machine put the ticker's longest sleep outside the
 * bounds it prints for the ticker's fact (50 ms +- 10 %): then that fact
 * may say nothing of schedrec.  If every recording was disturbed so (an
 * 8-vCPU guest on a 2-core host, often), the last one's longest sleep by
 * the ticker's clock is the fact's upper bound.
 *
 * Every test prints what it measured; a failing one also prints the CSV
 * (or perf lines) it read, so that the guest log shows why.
 *
 * With REPORT_TEST_REUSE set, it records nothing and checks the files an
 * earlier run left in WORKDIR (reports made again, perf's kept).
 *
 * The guest provides: the module at /lib/schedrec.ko, /bin/schedrec
 * (static, $SCHEDREC_BIN), /bin/demo-workload ($DEMO_WORKLOAD), perf in
 * PATH ($PERF) with tracefs mounted, and null_blk as
 * /lib/modules/null_blk.ko with null_blk.deps (tests/vm/lib.sh's
 * stage_kernel_modules), unless it is loaded already.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "srecreader.h"

#define WORKDIR		"/tmp/report_test"
#define TRACE		WORKDIR "/demo.srec"
#define THREADS		WORKDIR "/threads.txt"
#define RECORD_LOG	WORKDIR "/record.log"
#define PERF_DATA	WORKDIR "/perf.data"
#define PERF_LOG	WORKDIR "/perf-record.log"
#define TIMEHIST	WORKDIR "/perf-timehist.txt"
#define TIMEHIST_LOG	WORKDIR "/perf-timehist.log"

#define DEMO_SECONDS	"4"
#define DRAINER_CPU	"1"
#define RING_KB		"4096"
#define DISK		"/dev/nullb0"
#define KMOD_DIR	"/lib/modules"
/* every read of the null_blk disk takes 2 ms, completed by a timer */
#define DISK_PARAMS	"irqmode=2 completion_nsec=2000000"

#define NSEC_PER_MSEC	1000000LL
/*
 * A run is made again, up to this many times in all, when the machine
 * (late timers, or a vCPU held up around the ticker's switches) put the
 * ticker's longest sleep by its own clock outside the bounds the workload
 * gives for its longest time off CPU.  No time off CPU is longer than the
 * sleep it is part of, and none is shorter than 45.5 ms but for the moment
 * between the work's end and the switch-out (see tests/demo/workload.c).
 * A run takes about 12 s, and a busy host can disturb several in a row
 * (once all of five, on 6.12-rt).
 */
#define RECORD_TRIES	8
/* CLOCK_MONOTONIC read by the ticker and by the module's probes */
#define TICKER_CLOCK_SLACK_NS	10000LL
#define PINNED_SHARE	0.99
/* perf and schedrec agree within 1 %, or this for short intervals */
#define PERF_SLACK_NS	20000LL
/*
 * A stamp skewed by less than this is perf's probe time under TCG (seen:
 * 25-70 us, up to a quarter of a thread's stamps on a busy host); by more,
 * a vCPU paused between the two probes (seen: 2-3 ms, under 1 %).
 */
#define PERF_PAUSE_NS	200000LL
/* runs of an exiting thread perf may print without its name */
#define EXIT_RUNS_MAX	3

/* how long each step may take under TCG before it is given up */
#define PERF_START_MS	120000
#define RECORD_MS	300000
#define PERF_STOP_MS	120000
#define REPORT_MS	120000
#define DISK_WAIT_MS	5000

#define PF_KTHREAD	0x00200000

enum demo_thread {
	TICKER, HOG_A, HOG_B, DISKIO, LOCKER, WAITER, PINNED, NR_DEMO
};

static const char *const demo_name[NR_DEMO] = {
	[TICKER] = "ticker", [HOG_A] = "hog-a", [HOG_B] = "hog-b",
	[DISKIO] = "diskio", [LOCKER] = "locker", [WAITER] = "waiter",
	[PINNED] = "pinned",
};

enum report_id {
	OFFCPU, TENANCY, STATES, USURPERS, LATENCY, WAKERS, NR_REPORTS
};

static const struct {
	char *name;	/* of its CSV file in WORKDIR, and its log */
	char *verb;	/* after "report" */
	char *option;	/* after TRACE and --csv, or NULL */
} reports[NR_REPORTS] = {
	[OFFCPU] = { "offcpu", "offcpu" },
	[TENANCY] = { "tenancy", "tenancy" },
	[STATES] = { "states", "states" },
	[USURPERS] = { "states-usurpers", "states", "--usurpers" },
	[LATENCY] = { "latency", "latency" },
	[WAKERS] = { "latency-wakers", "latency", "--wakers" },
};

/* What main() recorded, for the tests (which run in its children). */
static struct {
	char error[512];	/* the recording could not be made: why */
	char disk_note[256];	/* diskio had no null_blk disk: why */
	char perf_error[512];	/* perf could not record or report: why */
	pid_t pid;		/* demo-workload's process */
	pid_t tid[NR_DEMO];
	long long ticker_min_ns;	/* its longest time off CPU: from */
	long long ticker_max_ns;	/* ... to, as the workload says */
	bool ticker_sleep_known;	/* the workload printed the next line */
	long long ticker_sleep_ns;	/* its longest, by its own clock */
	int report_status[NR_REPORTS];	/* exit status, -1 not run */
} run;

#define diag(...)	fprintf(stderr, "# " __VA_ARGS__)

static char *env_or(const char *name, char *fallback)
{
	char *value = getenv(name);

	return value && *value ? value : fallback;
}

static const char *fmt_ms(long long ns, char buf[32])
{
	snprintf(buf, 32, "%.3f ms", ns / 1e6);
	return buf;
}

/* Print a file into the log, each line as a TAP comment. */
static void show_file(const char *title, const char *path)
{
	char line[1024];
	FILE *f;

	f = fopen(path, "r");
	diag("---- %s (%s)%s\n", title, path, f ? "" : ": missing");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		diag("  %s%s", line, strchr(line, '\n') ? "" : "\n");
	fclose(f);
	diag("---- end of %s\n", title);
}

static int read_file(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = 0;
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * Wait for child @pid at most @ms milliseconds, then kill it; its exit
 * status, 128 + the signal that ended it, or -1 (timed out, killed).  It
 * sleeps in waitpid() (an alarm ends it): no wakeups while the workload
 * runs.
 */
static int wait_child(pid_t pid, int ms)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	int status, ret;

	sigaction(SIGALRM, &sa, &old);	/* no SA_RESTART */
	alarm((ms + 999) / 1000);
	ret = waitpid(pid, &status, 0);
	alarm(0);
	sigaction(SIGALRM, &old, NULL);
	if (ret == pid)
		return WIFEXITED(status) ? WEXITSTATUS(status) :
		       128 + WTERMSIG(status);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* Redirect fd @fd of this (child) process to @path, or to /dev/null. */
static void redirect(int fd, const char *path)
{
	int file;

	file = open(path ? path : "/dev/null",
		    path ? O_WRONLY | O_CREAT | O_TRUNC : O_RDWR, 0644);
	if (file >= 0 && file != fd) {
		dup2(file, fd);
		close(file);
	}
}

/*
 * Run @argv with its stdout in @out and stderr in @err, at most @ms
 * milliseconds; its exit status as wait_child() says it.
 */
static int run_cmd(char *const argv[], const char *out, const char *err,
		   int ms)
{
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		redirect(0, NULL);
		redirect(1, out);
		redirect(2, err);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	return wait_child(pid, ms);
}

/* Kernel modules: null_blk and what it needs. */

static char loaded_modules[8][64];
static int nr_loaded_modules;

static int load_kmod(const char *name, const char *params)
{
	char path[256], sys[256];
	int ret;

	snprintf(sys, sizeof(sys), "/sys/module/%s", name);
	if (!access(sys, F_OK))
		return 0;
	snprintf(path, sizeof(path), KMOD_DIR "/%s.ko", name);
	ret = sr_load_ko(path, params);
	if (!ret && nr_loaded_modules < (int)ARRAY_SIZE(loaded_modules))
		snprintf(loaded_modules[nr_loaded_modules++],
			 sizeof(loaded_modules[0]), "%s", name);
	return ret;
}

/* Unload what load_disk() loaded, newest first. */
static void unload_kmods(void)
{
	while (nr_loaded_modules > 0) {
		const char *name = loaded_modules[--nr_loaded_modules];
		int waited;

		for (waited = 0; waited < 2000; waited += 10) {
			if (!syscall(SYS_delete_module, name, O_NONBLOCK) ||
			    (errno != EAGAIN && errno != EBUSY))
				break;
			usleep(10000);
		}
	}
}

/* null_blk (after its dependencies), and /dev/nullb0 made; or why not. */
static void load_disk(void)
{
	char deps[512], *dep, *save;
	int ret, waited;

	if (access("/sys/module/null_blk", F_OK)) {
		ret = read_file(KMOD_DIR "/null_blk.deps", deps, sizeof(deps));
		if (ret) {
			snprintf(run.disk_note, sizeof(run.disk_note),
				 "no " KMOD_DIR "/null_blk.deps: %s",
				 strerror(-ret));
			return;
		}
		for (dep = strtok_r(deps, "\n ", &save); dep;
		     dep = strtok_r(NULL, "\n ", &save)) {
			ret = load_kmod(dep, "");
			if (ret) {
				snprintf(run.disk_note, sizeof(run.disk_note),
					 "cannot load %s, which null_blk needs: %s",
					 dep, strerror(-ret));
				return;
			}
		}
		ret = load_kmod("null_blk", DISK_PARAMS);
		if (ret) {
			snprintf(run.disk_note, sizeof(run.disk_note),
				 "cannot load " KMOD_DIR "/null_blk.ko: %s",
				 strerror(-ret));
			return;
		}
	}
	/* the disk appears a moment after the module is loaded */
	for (waited = 0; access(DISK, R_OK) && waited < DISK_WAIT_MS;
	     waited += 10)
		usleep(10000);
	if (access(DISK, R_OK))
		snprintf(run.disk_note, sizeof(run.disk_note),
			 "null_blk is loaded but there is no " DISK);
}

/*
 * CPU 0 for the hogs alone, as one would for a dedicated core: every
 * kernel thread whose CPU mask may change, every interrupt and the unbound
 * workqueues move to the other CPUs (per-CPU kernel threads refuse, and
 * stay).  Without this, rcu_preempt, woken by the drainer's fences, took
 * CPU 0 from the hogs more often than they took it from each other on
 * 6.1.  What was changed is kept, to be put back.
 */
struct moved_task {
	pid_t tid;
	cpu_set_t mask;
};

struct moved_file {
	char path[300];
	char old[64];
};

static struct {
	struct moved_task *task;
	struct moved_file *file;
	size_t tasks, files;
} moved;

static bool is_kthread(const char *pid)
{
	char path[300], stat[1024], *p;
	unsigned long flags = 0;
	int i;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (read_file(path, stat, sizeof(stat)))
		return false;
	p = strrchr(stat, ')');
	/* state ppid pgrp session tty_nr tpgid flags */
	for (i = 0; p && i < 7; i++)
		p = strchr(p + 1, ' ');
	if (p)
		flags = strtoul(p + 1, NULL, 10);
	return flags & PF_KTHREAD;
}

static void move_task(pid_t tid)
{
	cpu_set_t old, new;
	struct moved_task *more;

	if (sched_getaffinity(tid, sizeof(old), &old) || !CPU_ISSET(0, &old))
		return;
	new = old;
	CPU_CLR(0, &new);
	if (!CPU_COUNT(&new) || sched_setaffinity(tid, sizeof(new), &new))
		return;
	more = realloc(moved.task, (moved.tasks + 1) * sizeof(*more));
	if (!more) {
		sched_setaffinity(tid, sizeof(old), &old);
		return;
	}
	moved.task = more;
	moved.task[moved.tasks].tid = tid;
	moved.task[moved.tasks++].mask = old;
}

/* A CPU mask file (hex, maybe with commas): CPU 0 cleared if possible. */
static void move_mask_file(const char *path)
{
	char old[64], digits[64], value[32];
	struct moved_file *more;
	unsigned long long mask;
	size_t i, n = 0;

	if (read_file(path, old, sizeof(old)))
		return;
	old[strcspn(old, "\n")] = 0;
	for (i = 0; old[i] && n < sizeof(digits) - 1; i++)
		if (old[i] != ',')
			digits[n++] = old[i];
	digits[n] = 0;
	mask = strtoull(digits, NULL, 16);
	if (!(mask & 1) || !(mask & ~1ull))
		return;
	snprintf(value, sizeof(value), "%llx", mask & ~1ull);
	if (sr_write_text(path, value))
		return;
	more = realloc(moved.file, (moved.files + 1) * sizeof(*more));
	if (!more) {
		sr_write_text(path, old);
		return;
	}
	moved.file = more;
	snprintf(moved.file[moved.files].path, sizeof(more->path), "%s", path);
	snprintf(moved.file[moved.files++].old, sizeof(more->old), "%s", old);
}

static void leave_cpu0(void)
{
	struct dirent *entry;
	char path[300];
	DIR *dir;

	dir = opendir("/proc");
	while (dir && (entry = readdir(dir))) {
		if (entry->d_name[0] < '1' || entry->d_name[0] > '9' ||
		    !is_kthread(entry->d_name))
			continue;
		move_task(atoi(entry->d_name));
	}
	if (dir)
		closedir(dir);
	dir = opendir("/proc/irq");
	while (dir && (entry = readdir(dir))) {
		if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity",
			 entry->d_name);
		move_mask_file(path);
	}
	if (dir)
		closedir(dir);
	move_mask_file("/sys/devices/virtual/workqueue/cpumask");
	diag("moved %zu kernel threads and %zu interrupts/workqueue masks off CPU 0\n",
	     moved.tasks, moved.files);
}

static void back_to_cpu0(void)
{
	while (moved.files > 0) {
		moved.files--;
		sr_write_text(moved.file[moved.files].path,
			      moved.file[moved.files].old);
	}
	while (moved.tasks > 0) {
		moved.tasks--;
		sched_setaffinity(moved.task[moved.tasks].tid,
				  sizeof(cpu_set_t), &moved.task[moved.tasks].mask);
	}
	free(moved.task);
	free(moved.file);
	memset(&moved, 0, sizeof(moved));
}

/* perf sched record, system-wide, from before schedrec to after it. */
struct perf_rec {
	pid_t pid;
	int ctl, ack;	/* our ends of its control and acknowledgement pipes */
};

static int perf_fail(struct perf_rec *p, const char *what)
{
	snprintf(run.perf_error, sizeof(run.perf_error),
		 "perf sched record: %s (its log: " PERF_LOG ")", what);
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		p->pid = 0;
	}
	return -1;
}

/*
 * Start perf with its events disabled and enable them through its control
 * pipe: once it acknowledges, every CPU is recording.  It stamps with
 * CLOCK_MONOTONIC (-k mono: ktime_get_mono_fast_ns(), the module's clock),
 * not its default local_clock(): under TCG the guest's TSC is unstable, and
 * local_clock() then moves against the monotonic clock by up to a tick,
 * either way (seen once on 7.2: two stamps of perf's later than ours).
 */
static int perf_start(struct perf_rec *p)
{
	char *perf = env_or("PERF", "perf");
	char control[64], ack[8] = "";
	struct pollfd pfd;
	int ctl[2], ackp[2];
	ssize_t len;

	memset(p, 0, sizeof(*p));
	p->ctl = p->ack = -1;
	if (pipe2(ctl, O_CLOEXEC) || pipe2(ackp, O_CLOEXEC))
		return perf_fail(p, "no pipes");
	snprintf(control, sizeof(control), "--control=fd:%d,%d", ctl[0],
		 ackp[1]);
	p->pid = fork();
	if (!p->pid) {
		char *const argv[] = { perf, "sched", "record", "--delay=-1",
				       control, "-B", "-k", "mono",
				       "-o", PERF_DATA, NULL };

		fcntl(ctl[0], F_SETFD, 0);
		fcntl(ackp[1], F_SETFD, 0);
		redirect(0, NULL);
		redirect(1, PERF_LOG);
		redirect(2, PERF_LOG);
		execvp(perf, argv);
		fprintf(stderr, "cannot run %s: %s\n", perf, strerror(errno));
		_exit(127);
	}
	close(ctl[0]);
	close(ackp[1]);
	p->ctl = ctl[1];
	p->ack = ackp[0];
	if (p->pid < 0)
		return perf_fail(p, "cannot fork");
	if (write(p->ctl, "enable\n", 7) != 7)
		return perf_fail(p, "did not take the enable command");
	pfd.fd = p->ack;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, PERF_START_MS) != 1)
		return perf_fail(p, "no acknowledgement of enable");
	len = read(p->ack, ack, sizeof(ack) - 1);
	if (len <= 0 || strncmp(ack, "ack", 3))
		return perf_fail(p, "exited before it was enabled");
	return 0;
}

static void perf_stop(struct perf_rec *p)
{
	int status;

	if (p->pid > 0) {
		kill(p->pid, SIGINT);
		status = wait_child(p->pid, PERF_STOP_MS);
		/* perf ends itself with the signal, once its file is written */
		if (status && status != 128 + SIGINT)
			snprintf(run.perf_error, sizeof(run.perf_error),
				 "perf sched record ended with status %d after SIGINT (its log: " PERF_LOG ")",
				 status);
	}
	if (p->ctl >= 0)
		close(p->ctl);
	if (p->ack >= 0)
		close(p->ack);
	p->pid = 0;
}

/*
 * demo-workload's "demo-workload PID", "NAME TID", "ticker-min-ns N" and
 * "ticker-max-ns N" lines, and its "ticker-longest-sleep-ns N" at the end.
 */
static int read_threads(void)
{
	char name[64];
	int i, found = 0;
	long long id;
	FILE *f;

	run.ticker_sleep_known = false;
	f = fopen(THREADS, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &id) == 2) {
		if (!strcmp(name, "demo-workload"))
			run.pid = id;
		if (!strcmp(name, "ticker-min-ns"))
			run.ticker_min_ns = id;
		if (!strcmp(name, "ticker-max-ns"))
			run.ticker_max_ns = id;
		if (!strcmp(name, "ticker-longest-sleep-ns")) {
			run.ticker_sleep_ns = id;
			run.ticker_sleep_known = true;
		}
		for (i = 0; i < NR_DEMO; i++) {
			if (!strcmp(name, demo_name[i]) && id > 0) {
				run.tid[i] = id;
				found++;
			}
		}
	}
	fclose(f);
	return run.pid > 0 && found == NR_DEMO && run.ticker_min_ns > 0 &&
	       run.ticker_max_ns > run.ticker_min_ns ? 0 : -1;
}

static void schedrec_record(void)
{
	char *bin = env_or("SCHEDREC_BIN", "/bin/schedrec");
	char *workload = env_or("DEMO_WORKLOAD", "/bin/demo-workload");
	char *disk = run.disk_note[0] ? WORKDIR "/disk" : DISK;
	char *const argv[] = { bin, "record", "-C", DRAINER_CPU, "-m", RING_KB,
			       "-o", TRACE, "--", workload, "-d", disk,
			       DEMO_SECONDS, NULL };
	cpu_set_t all;
	int status, cpu;
	pid_t pid;

	/* the workload needs CPU 0 for the hogs: all CPUs, not ours */
	CPU_ZERO(&all);
	for (cpu = 0; cpu < sr_nr_online_cpus(); cpu++)
		CPU_SET(cpu, &all);
	diag("running %s record -C %s -m %s -o %s -- %s -d %s %s\n", bin,
	     DRAINER_CPU, RING_KB, TRACE, workload, disk, DEMO_SECONDS);
	pid = fork();
	if (!pid) {
		sched_setaffinity(0, sizeof(all), &all);
		if (chdir(WORKDIR))
			_exit(126);
		redirect(0, NULL);
		redirect(1, THREADS);
		redirect(2, RECORD_LOG);
		execv(bin, argv);
		_exit(126);
	}
	status = pid < 0 ? -1 : wait_child(pid, RECORD_MS);
	show_file("schedrec record's messages", RECORD_LOG);
	show_file("the workload's threads", THREADS);
	if (status)
		snprintf(run.error, sizeof(run.error),
			 "schedrec record exited with status %d (1: events lost, -1: timed out; its messages are above)",
			 status);
	else if (read_threads())
		snprintf(run.error, sizeof(run.error),
			 "demo-workload did not name its process and its %d threads in " THREADS,
			 NR_DEMO);
}

static void make_reports(void)
{
	char *bin = env_or("SCHEDREC_BIN", "/bin/schedrec");
	char pid[16], out[128], err[128];
	int i;

	snprintf(pid, sizeof(pid), "%d", run.pid);
	for (i = 0; i < NR_REPORTS; i++) {
		char *const argv[] = { bin, "report", reports[i].verb, TRACE,
				       "--csv", "--pid", pid, reports[i].option,
				       NULL };

		snprintf(out, sizeof(out), WORKDIR "/%s.csv", reports[i].name);
		snprintf(err, sizeof(err), WORKDIR "/%s.log", reports[i].name);
		run.report_status[i] = run_cmd(argv, out, err, REPORT_MS);
	}
}

static void perf_timehist(void)
{
	char *perf = env_or("PERF", "perf");
	char *const argv[] = { perf, "sched", "timehist", "--state", "-i",
			       PERF_DATA, NULL };
	char log[4096] = "";
	int status;

	status = run_cmd(argv, TIMEHIST, TIMEHIST_LOG, REPORT_MS);
	read_file(TIMEHIST_LOG, log, sizeof(log));
	show_file("perf sched record's messages", PERF_LOG);
	show_file("perf sched timehist's messages", TIMEHIST_LOG);
	if (status)
		snprintf(run.perf_error, sizeof(run.perf_error),
			 "perf sched timehist exited with status %d (its messages are above)",
			 status);
	else if (strstr(log, " lost "))
		snprintf(run.perf_error, sizeof(run.perf_error),
			 "perf lost events: its maxima prove nothing (its messages are above)");
}

/*
 * The ticker's fact's upper bound: 50 ms + 10 %, or, when the machine made
 * its longest sleep by its own clock longer than that in every recording
 * (ticker_disturbed()), that sleep: no time off CPU is longer than the
 * sleep it is part of (the same clock, CLOCK_MONOTONIC, within a few us).
 */
static long long ticker_max_bound(void)
{
	if (run.ticker_sleep_known && run.ticker_sleep_ns > run.ticker_max_ns)
		return run.ticker_sleep_ns + TICKER_CLOCK_SLACK_NS;
	return run.ticker_max_ns;
}

/*
 * Did the machine put the ticker's longest sleep, by its own clock,
 * outside the bounds of its fact in recording number @try, which is then
 * made again?
 */
static bool ticker_disturbed(int try)
{
	char a[32], b[32], c[32];

	if (!run.ticker_sleep_known ||
	    (run.ticker_sleep_ns >= run.ticker_min_ns &&
	     run.ticker_sleep_ns <= run.ticker_max_ns))
		return false;
	diag("recording %d of %d: by its own clock the ticker's longest sleep was %s, not %s..%s: the emulated machine (late timers, or its vCPU held up around its switches), not schedrec, broke the fact; %s\n",
	     try, RECORD_TRIES, fmt_ms(run.ticker_sleep_ns, a),
	     fmt_ms(run.ticker_min_ns, b), fmt_ms(run.ticker_max_ns, c),
	     try < RECORD_TRIES ? "recording again" :
	     "keeping this one, the ticker's fact bounded by that sleep");
	return try < RECORD_TRIES;
}

static void record_demo(void)
{
	struct perf_rec perf;
	cpu_set_t mine, others;
	int try;

	/* to look again at the files a run left (e.g. taken out of a VM) */
	if (getenv("REPORT_TEST_REUSE")) {
		if (read_threads())
			snprintf(run.error, sizeof(run.error),
				 "no workload threads in " THREADS);
		else
			make_reports();
		return;
	}

	mkdir(WORKDIR, 0755);
	if (sr_module_ensure() || sr_reset()) {
		snprintf(run.error, sizeof(run.error),
			 "schedrec.ko is not loaded, or will not reset");
		return;
	}
	load_disk();
	if (run.disk_note[0])
		diag("diskio reads a file in " WORKDIR ": %s\n", run.disk_note);
	leave_cpu0();
	/* perf, and this process while it waits, keep off CPU 0 too */
	sched_getaffinity(0, sizeof(mine), &mine);
	others = mine;
	CPU_CLR(0, &others);
	if (CPU_COUNT(&others))
		sched_setaffinity(0, sizeof(others), &others);
	for (try = 1; try <= RECORD_TRIES; try++) {
		run.perf_error[0] = 0;
		perf_start(&perf);
		schedrec_record();
		perf_stop(&perf);
		if (run.error[0] || !ticker_disturbed(try))
			break;
	}
	sched_setaffinity(0, sizeof(mine), &mine);
	back_to_cpu0();
	unload_kmods();
	if (run.error[0]) {
		diag("%s\n", run.error);
		return;
	}
	make_reports();
	if (!run.perf_error[0])
		perf_timehist();
	if (run.perf_error[0])
		diag("%s\n", run.perf_error);
}

/* The CSV tables the reports wrote. */
struct csv {
	char path[128];
	char *text;		/* the file, fields cut out of it in place */
	char **cell;		/* rows * cols, the header first */
	size_t rows, cols;	/* rows: without the header */
};

static void csv_free(struct csv *c)
{
	free(c->text);
	free(c->cell);
	memset(c, 0, sizeof(*c));
}

/* One field from *@pp (quoted or not), cut in place; is it a row's last? */
static char *csv_field(char **pp, bool *last)
{
	char *p = *pp, *start = p, *out = p, delim;

	if (*p == '"') {
		for (p++; *p; p++) {
			if (*p == '"' && p[1] != '"') {
				p++;
				break;
			}
			if (*p == '"')
				p++;
			*out++ = *p;
		}
	}
	while (*p && *p != ',' && *p != '\n')
		*out++ = *p++;
	delim = *p;
	*out = 0;
	*last = delim != ',';
	*pp = delim ? p + 1 : p;
	return start;
}

static int csv_load(struct csv *c, const char *path)
{
	size_t n = 0, cap = 0, col = 0;
	struct stat st;
	char *p;
	bool last;
	int fd;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st))
		c->text = calloc(1, st.st_size + 1);
	if (!c->text || read(fd, c->text, st.st_size) != st.st_size) {
		close(fd);
		return -1;
	}
	close(fd);
	for (p = c->text; *p;) {
		if (n == cap) {
			char **more;

			cap = cap ? 2 * cap : 256;
			more = realloc(c->cell, cap * sizeof(*more));
			if (!more)
				return -1;
			c->cell = more;
		}
		c->cell[n++] = csv_field(&p, &last);
		col++;
		if (last) {
			if (!c->cols)
				c->cols = col;
			else if (col != c->cols)
				return -1;	/* a row of another width */
			col = 0;
		}
	}
	if (!c->cols || col)
		return -1;
	c->rows = n / c->cols - 1;
	return 0;
}

/* Cell @name of row @row (0: the first after the header), or NULL. */
static const char *csv_get(const struct csv *c, size_t row, const char *name)
{
	size_t col;

	for (col = 0; col < c->cols; col++)
		if (!strcmp(c->cell[col], name))
			return c->cell[(row + 1) * c->cols + col];
	return NULL;
}

static long long csv_num(const struct csv *c, size_t row, const char *name)
{
	const char *s = csv_get(c, row, name);

	return s && *s ? strtoll(s, NULL, 10) : -1;
}

static double csv_real(const struct csv *c, size_t row, const char *name)
{
	const char *s = csv_get(c, row, name);

	return s && *s ? strtod(s, NULL) : -1;
}

static bool csv_is(const struct csv *c, size_t row, const char *name,
		   long long value)
{
	return csv_num(c, row, name) == value;
}

/*
 * Report @id's CSV, loaded into @csv[id] (the fixture's, freed by its
 * teardown), or the test fails saying why: no recording, the report
 * failed, or its CSV does not parse.
 */
static struct csv *load_report(struct __test_metadata *_metadata,
			       struct csv *csv, enum report_id id)
{
	char path[128], log[128];
	struct csv *c = &csv[id];

	snprintf(path, sizeof(path), WORKDIR "/%s.csv", reports[id].name);
	snprintf(log, sizeof(log), WORKDIR "/%s.log", reports[id].name);
	ASSERT_EQ(0, run.error[0]) TH_LOG("no recording: %s", run.error);
	if (run.report_status[id]) {
		show_file("its messages", log);
		show_file("its output", path);
	}
	ASSERT_EQ(0, run.report_status[id])
		TH_LOG("schedrec report %s%s%s --csv --pid %d failed",
		       reports[id].verb, reports[id].option ? " " : "",
		       reports[id].option ? reports[id].option : "", run.pid);
	if (csv_load(c, path))
		show_file("the file", path);
	ASSERT_NE(0u, c->cols) TH_LOG("%s is not a CSV table", path);
	return c;
}

/* Say what a test found; if it is not what it should be, show the CSV. */
static void verdict(bool ok, const struct csv *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void verdict(bool ok, const struct csv *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag("%s: %s\n", ok ? "found" : "FAILED", msg);
	if (!ok && c)
		show_file("the report it read", c->path);
}

/*
 * The longest complete off-CPU interval of thread @tid over all its rows
 * (one per name it had), its state, and its censored intervals.
 */
struct offcpu_max {
	long long max_ns;
	char state[8];
	long long censored;
	bool uncertain;
};

static void offcpu_of(const struct csv *c, pid_t tid, struct offcpu_max *m)
{
	size_t r;

	memset(m, 0, sizeof(*m));
	m->max_ns = -1;
	for (r = 0; r < c->rows; r++) {
		if (!csv_is(c, r, "tid", tid))
			continue;
		m->censored += csv_num(c, r, "censored");
		m->uncertain |= csv_num(c, r, "uncertain") > 0;
		if (csv_num(c, r, "max_ns") > m->max_ns) {
			m->max_ns = csv_num(c, r, "max_ns");
			snprintf(m->state, sizeof(m->state), "%s",
				 csv_get(c, r, "max_state"));
		}
	}
}

/* The facts: each test reads the reports it needs. */
FIXTURE(demo) {
	struct csv csv[NR_REPORTS];
};

FIXTURE_SETUP(demo)
{
}

FIXTURE_TEARDOWN(demo)
{
	int i;

	for (i = 0; i < NR_REPORTS; i++)
		csv_free(&self->csv[i]);
}

/*
 * Why the ticker slept long, for the log: late to run once woken (its
 * longest wakeup latency), or woken late (its timer fired late: under TCG
 * the guest's clock runs on while QEMU or the ticker's vCPU waits); and
 * how long it slept by its own clock.
 */
static void ticker_why(struct __test_metadata *_metadata, struct csv *csv)
{
	struct csv *c = load_report(_metadata, csv, LATENCY);
	long long latency = -1;
	char a[32];
	size_t r;

	for (r = 0; r < c->rows; r++)
		if (csv_is(c, r, "tid", run.tid[TICKER]) &&
		    !strcmp(csv_get(c, r, "kind"), "wakeup") &&
		    csv_num(c, r, "max_ns") > latency)
			latency = csv_num(c, r, "max_ns");
	diag("ticker %d: longest wakeup latency %s: at most that much of its longest sleep was waiting to run once woken, the rest was its timer and how late it fired\n",
	     run.tid[TICKER], fmt_ms(latency, a));
	if (run.ticker_sleep_known)
		diag("ticker %d: by the workload's clock, its longest sleep was %s\n",
		     run.tid[TICKER], fmt_ms(run.ticker_sleep_ns, a));
	show_file("the report", c->path);
}

/* ticker: its longest time off CPU is 50 ms +- 10 %, in S. */
TEST_F(demo, ticker_longest_offcpu_is_50ms_in_S)
{
	struct csv *c = load_report(_metadata, self->csv, OFFCPU);
	struct offcpu_max m;
	char a[32], b[32], d[32];
	bool ok;

	offcpu_of(c, run.tid[TICKER], &m);
	ok = m.max_ns >= run.ticker_min_ns && m.max_ns <= ticker_max_bound() &&
	     !strcmp(m.state, "S") && !m.uncertain;
	verdict(ok, c, "ticker %d max off-CPU %s in state %s%s, expected %s..%s in S",
		run.tid[TICKER], fmt_ms(m.max_ns, a), m.state,
		m.uncertain ? " (uncertain: it overlaps lost events)" : "",
		fmt_ms(run.ticker_min_ns, b), fmt_ms(ticker_max_bound(), d));
	if (!ok)
		ticker_why(_metadata, self->csv);
	EXPECT_TRUE(ok);
}

/* pinned: all but 1 % of its time on CPU 1, as the report says it. */
TEST_F(demo, pinned_runs_on_cpu1)
{
	struct csv *c = load_report(_metadata, self->csv, TENANCY);
	long long on1 = 0, total = 0, ns;
	pid_t tid = run.tid[PINNED];
	double share = -1;
	char a[32], b[32];
	size_t r;
	bool ok;

	for (r = 0; r < c->rows; r++) {
		if (!csv_is(c, r, "tid", tid))
			continue;
		ns = csv_num(c, r, "oncpu_ns");
		total += ns;
		if (!csv_is(c, r, "cpu", 1))
			continue;
		on1 += ns;
		if (!strcmp(csv_get(c, r, "comm"), "pinned"))
			share = csv_real(c, r, "thread_share");
	}
	/*
	 * thread_share is the report's, in the row named pinned; the share
	 * over all the thread's rows (its first instants were under the
	 * process's name) must say the same.
	 */
	ok = share >= PINNED_SHARE && total > 0 &&
	     (double)on1 / total >= PINNED_SHARE;
	verdict(ok, c, "pinned %d thread_share on CPU 1 %.4f; over all its names %s of %s on CPU (%.4f); expected >= %.2f",
		tid, share, fmt_ms(on1, a), fmt_ms(total, b),
		total ? (double)on1 / total : 0, PINNED_SHARE);
	EXPECT_TRUE(ok);
}

/*
 * A hog is switched out runnable (R), and the usurper that held its CPU
 * longest while it waited, and took it from it most often, is the other.
 */
static void hog_fact(struct __test_metadata *_metadata, struct csv *csv,
		     enum demo_thread me, enum demo_thread other)
{
	struct csv *states = load_report(_metadata, csv, STATES);
	struct csv *usurpers = load_report(_metadata, csv, USURPERS);
	long long switchouts = 0, held = -1, count = -1, n;
	pid_t by_held = -1, by_count = -1, tid = run.tid[me];
	char a[32];
	size_t r;
	bool ok;

	for (r = 0; r < states->rows; r++)
		if (csv_is(states, r, "tid", tid) &&
		    !strcmp(csv_get(states, r, "state"), "R"))
			switchouts += csv_num(states, r, "switchouts");
	for (r = 0; r < usurpers->rows; r++) {
		if (!csv_is(usurpers, r, "tid", tid))
			continue;
		n = csv_num(usurpers, r, "held_ns");
		if (n > held) {
			held = n;
			by_held = csv_num(usurpers, r, "usurper_tid");
		}
		n = csv_num(usurpers, r, "preemptions");
		if (n > count) {
			count = n;
			by_count = csv_num(usurpers, r, "usurper_tid");
		}
	}
	ok = switchouts > 0;
	verdict(ok, states, "%s %d: %lld R switch-outs, expected some",
		demo_name[me], tid, switchouts);
	EXPECT_TRUE(ok);
	ok = by_held == run.tid[other] && by_count == run.tid[other];
	verdict(ok, usurpers, "%s %d: top usurper by held_ns %d (%s), by preemptions %d (%lld), expected %s %d for both",
		demo_name[me], tid, by_held, fmt_ms(held, a), by_count, count,
		demo_name[other], run.tid[other]);
	EXPECT_TRUE(ok);
}

TEST_F(demo, hog_a_preempted_by_hog_b)
{
	hog_fact(_metadata, self->csv, HOG_A, HOG_B);
}

TEST_F(demo, hog_b_preempted_by_hog_a)
{
	hog_fact(_metadata, self->csv, HOG_B, HOG_A);
}

/* diskio waits for its disk in D. */
TEST_F(demo, diskio_switched_out_in_D)
{
	struct csv *c = load_report(_metadata, self->csv, STATES);
	pid_t tid = run.tid[DISKIO];
	long long d = 0;
	size_t r;
	bool ok;

	for (r = 0; r < c->rows; r++)
		if (csv_is(c, r, "tid", tid) &&
		    !strcmp(csv_get(c, r, "state"), "D"))
			d += csv_num(c, r, "switchouts");
	ok = d > 0 && !run.disk_note[0];
	verdict(ok, c, "diskio %d: %lld switch-outs in D, expected some%s%s",
		tid, d, run.disk_note[0] ? "; no null_blk disk: " : "",
		run.disk_note);
	EXPECT_TRUE(ok);
}

/*
 * Every wakeup of waiter comes from locker.  All the rows of waiter's tid
 * count, whatever their name: locker creates it, so it is born with
 * locker's name until it names itself, and its first wakeup (wakeup_new,
 * by locker) is in a row of that name.
 */
TEST_F(demo, waiter_woken_by_locker)
{
	struct csv *c = load_report(_metadata, self->csv, WAKERS);
	long long by_locker = 0, as_waiter = 0, others = 0, n;
	pid_t tid = run.tid[WAITER], locker = run.tid[LOCKER];
	size_t r;
	bool ok;

	for (r = 0; r < c->rows; r++) {
		if (!csv_is(c, r, "tid", tid))
			continue;
		n = csv_num(c, r, "wakeups");
		if (!strcmp(csv_get(c, r, "comm"), "waiter"))
			as_waiter += n;
		if (csv_is(c, r, "waker_tid", locker))
			by_locker += n;
		else
			others += n;
	}
	ok = as_waiter > 0 && !others;
	verdict(ok, c, "waiter %d: %lld wakeups from locker %d, %lld from others (%lld under the name waiter), expected all from locker",
		tid, by_locker, locker, others, as_waiter);
	EXPECT_TRUE(ok);
}

/*
 * A thread's runs as each tool saw them: run k from its switch-in in[k] to
 * its switch-out out[k], in ns, each in the tool's own clock; its off-CPU
 * intervals go from out[k - 1] to in[k].
 */
struct runs {
	long long *in, *out;
	size_t n, nin, cap;
	char line[512];		/* perf: the line of the longest wait */
	char before[512];	/* and the thread's line before it */
};

static void runs_free(struct runs *r)
{
	free(r->in);
	free(r->out);
	memset(r, 0, sizeof(*r));
}

static int runs_add(struct runs *r, long long in, long long out)
{
	if (r->n == r->cap || r->nin == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		long long *more_in, *more_out;

		more_in = realloc(r->in, cap * sizeof(*more_in));
		if (more_in)
			r->in = more_in;
		more_out = realloc(r->out, cap * sizeof(*more_out));
		if (more_out)
			r->out = more_out;
		if (!more_in || !more_out)
			return -1;
		r->cap = cap;
	}
	if (in >= 0)
		r->in[r->nin++] = in;
	if (out >= 0)
		r->out[r->n++] = out;
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Its longest off-CPU interval: its length, and k of in[k]; or -1. */
static long long runs_longest(const struct runs *r, size_t *at)
{
	long long best = -1;
	size_t k;

	for (k = 1; k < r->n; k++) {
		if (r->in[k] - r->out[k - 1] > best) {
			best = r->in[k] - r->out[k - 1];
			*at = k;
		}
	}
	return best;
}

/* Thread @tid's switches in schedrec's trace itself, in time order. */
static int schedrec_runs(pid_t tid, struct runs *r)
{
	struct srecreader_options opt = { .strict = true };
	struct srec_record rec;
	struct srecreader *sr;
	char err[256];
	int ret;

	memset(r, 0, sizeof(*r));
	sr = srecreader_open(TRACE, &opt, err, sizeof(err));
	if (!sr)
		return -1;
	while ((ret = srecreader_next_batch(sr, &rec, 1)) > 0) {
		const union sr_record *u = (const void *)rec.hdr;

		if (rec.hdr->type != SCHEDREC_EV_SWITCH)
			continue;
		if (u->sw.next_tid == (uint32_t)tid)
			ret = runs_add(r, rec.hdr->ts, -1);
		if (ret >= 0 && u->sw.prev_tid == (uint32_t)tid)
			ret = runs_add(r, -1, rec.hdr->ts);
		if (ret < 0)
			break;
	}
	srecreader_close(sr);
	if (ret < 0 || r->nin != r->n)
		return -1;
	/* the reader merges CPUs by time; sort against equal stamps */
	qsort(r->in, r->n, sizeof(*r->in), cmp_ll);
	qsort(r->out, r->n, sizeof(*r->out), cmp_ll);
	return 0;
}

/* A decimal number of @unit_ns units ("10.948" ms, "4.639667" s), in ns. */
static long long decimal_ns(const char *s, long long unit_ns)
{
	long long ns, scale = unit_ns;
	char *end;

	ns = strtoll(s, &end, 10) * unit_ns;
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9' && scale > 1; end++) {
			scale /= 10;
			ns += (*end - '0') * scale;
		}
	return ns;
}

/*
 * Thread @tid's runs in `perf sched timehist`: a line per switch-out of a
 * thread, "time [cpu] comm[tid/pid] wait delay run state", times in s and
 * ms with microsecond digits.  The run began at time - run; "wait time",
 * from the thread's switch-out before to that switch-in, is its off-CPU
 * interval ("sch delay", wakeup to switch-in, is part of it, not more).
 * perf names no thread at its last switch-out, when it exits: those lines
 * say ":-1[-1/PID]" (and their wait is nonsense, all such lines of a
 * process being one thread to perf); the workload's go to @exits.
 */
static int perf_runs(pid_t tid, struct runs *r, struct runs *exits)
{
	char line[512], prev[512] = "", copy[512], *tok[32], *save, *p;
	long long out, best = -1;
	FILE *f;
	int n;

	memset(r, 0, sizeof(*r));
	memset(exits, 0, sizeof(*exits));
	f = fopen(TIMEHIST, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct runs *to = r;

		line[strcspn(line, "\n")] = 0;
		memcpy(copy, line, sizeof(copy));
		n = 0;
		for (p = strtok_r(copy, " \t", &save); p && n < 32;
		     p = strtok_r(NULL, " \t", &save))
			tok[n++] = p;
		if (n < 7 || tok[1][0] != '[')
			continue;
		p = strrchr(tok[n - 5], '[');
		if (p && !strncmp(p, "[-1/", 4) && atoi(p + 4) == run.pid)
			to = exits;
		else if (!p || atoi(p + 1) != tid)
			continue;
		out = decimal_ns(tok[0], 1000000000LL);
		if (runs_add(to, out - decimal_ns(tok[n - 2], NSEC_PER_MSEC),
			     out)) {
			fclose(f);
			return -1;
		}
		if (to == exits)
			continue;
		if (decimal_ns(tok[n - 4], NSEC_PER_MSEC) > best) {
			best = decimal_ns(tok[n - 4], NSEC_PER_MSEC);
			memcpy(r->line, line, sizeof(r->line));
			memcpy(r->before, prev, sizeof(r->before));
		}
		memcpy(prev, line, sizeof(prev));
	}
	fclose(f);
	return 0;
}

FIXTURE(perf) {
	struct csv csv[NR_REPORTS];
	struct runs ours, perfs, exits;
	long long *skew;	/* per switch: out[0..n), then in[0..n) */
	long long mid;		/* perf's stamps minus ours, median */
};

FIXTURE_VARIANT(perf) {
	enum demo_thread thread;
};

FIXTURE_VARIANT_ADD(perf, ticker) { .thread = TICKER };
FIXTURE_VARIANT_ADD(perf, hog_a) { .thread = HOG_A };
FIXTURE_VARIANT_ADD(perf, hog_b) { .thread = HOG_B };
FIXTURE_VARIANT_ADD(perf, diskio) { .thread = DISKIO };
FIXTURE_VARIANT_ADD(perf, locker) { .thread = LOCKER };
FIXTURE_VARIANT_ADD(perf, waiter) { .thread = WAITER };
FIXTURE_VARIANT_ADD(perf, pinned) { .thread = PINNED };

FIXTURE_SETUP(perf)
{
}

FIXTURE_TEARDOWN(perf)
{
	int i;

	for (i = 0; i < NR_REPORTS; i++)
		csv_free(&self->csv[i]);
	runs_free(&self->ours);
	runs_free(&self->perfs);
	runs_free(&self->exits);
	free(self->skew);
}

/* The median of perf's stamps minus ours, over the first @n runs. */
static long long median_offset(const struct runs *ours,
			       const struct runs *perfs, size_t n,
			       long long *scratch)
{
	size_t k;

	for (k = 0; k < n; k++) {
		scratch[k] = perfs->out[k] - ours->out[k];
		scratch[n + k] = perfs->in[k] - ours->in[k];
	}
	qsort(scratch, 2 * n, sizeof(*scratch), cmp_ll);
	return scratch[n];
}

/*
 * The thread's last runs, which perf printed without its name (once an
 * exiting thread's pid is gone, perf's samples say tid -1; that is its
 * last switch-out, and on PREEMPT_RT one more run or two while it blocks
 * on a lock on its way out): for each, the unnamed line closest to where
 * our stamp of its switch-out, plus the clocks' offset, puts it.  A line
 * taken from another thread would show as a stamp skewed the wrong way.
 */
static int perf_exit_runs(struct runs *perfs, struct runs *exits,
			  const struct runs *ours, long long offset)
{
	long long when, best_gap, gap;
	size_t k, j, best;

	for (k = perfs->n; k < ours->n; k++) {
		when = ours->out[k] + offset;
		best = exits->n;
		best_gap = 0;
		for (j = 0; j < exits->n; j++) {
			if (exits->out[j] < 0)
				continue;	/* taken */
			gap = llabs(exits->out[j] - when);
			if (best == exits->n || gap < best_gap) {
				best = j;
				best_gap = gap;
			}
		}
		if (best == exits->n ||
		    runs_add(perfs, exits->in[best], exits->out[best]))
			return -1;
		exits->out[best] = -1;
	}
	return 0;
}

/* Did the tools stamp both ends of off-CPU interval @k alike? */
static bool stamped_alike(const long long *skew, size_t n, size_t k)
{
	return llabs(skew[k - 1]) <= PERF_SLACK_NS &&
	       llabs(skew[n + k]) <= PERF_SLACK_NS;
}

/*
 * The thread's longest off-CPU interval is the one perf saw: within 1 %,
 * or 20 us (perf prints microseconds, and reads the clock on its own).
 *
 * Both count complete intervals only: schedrec leaves censored ones out of
 * max_ns, and perf prints a wait only once it saw the switch-out before it
 * (a thread's first switch-in shows 0).  perf records from before schedrec
 * starts until after it stops, and the workload's threads are born after
 * schedrec started and exit before it stops, so every interval of theirs
 * is complete in both and the two maxima are over the same intervals.
 * That premise is checked: no censored interval in schedrec's report, and
 * both tools saw the same number of runs of the thread.
 *
 * The two tools stamp each switch from their own probes on the same
 * tracepoint and the same clock, perf's first (it attached first).  Under TCG a vCPU can be
 * paused for milliseconds between the two probes, while the guest's clock
 * runs on, so once in a while (a few switches in a hundred) schedrec's
 * stamp of a switch is later than perf's by that pause.  So each run's
 * switches are matched between the tools (the k-th switch-in and
 * switch-out of the thread in each), and each stamp's skew is its
 * difference from the median difference (the clocks' offset).  A stamp
 * skewed the other way (schedrec's earlier) is a failure: no pause
 * explains it.  If the maxima differ by more than the tolerance, they
 * still agree if the longest interval of either differs between the tools
 * by a skewed stamp, and skewed stamps are rare: pauses (PERF_PAUSE_NS or
 * more) at most 5 % of the thread's stamps, and probe-time skews at most
 * a third.  The first ten skewed stamps are printed.
 */
TEST_F(perf, longest_offcpu_agrees)
{
	struct csv *c = load_report(_metadata, self->csv, OFFCPU);
	struct runs *ours = &self->ours, *perfs = &self->perfs;
	enum demo_thread th = variant->thread;
	long long diff, slack, ours_max, perf_max;
	size_t k, n, named, at_ours = 0, at_perf = 0, skewed = 0, paused = 0;
	size_t wrong_way = 0;
	pid_t tid = run.tid[th];
	const char *name = demo_name[th];
	struct offcpu_max m;
	char a[32], b[32];
	bool ok, alike;

	ASSERT_EQ(0, run.perf_error[0]) TH_LOG("%s", run.perf_error);
	offcpu_of(c, tid, &m);
	ok = !m.censored && !m.uncertain;
	verdict(ok, c, "%s %d: %lld censored intervals in schedrec's report%s, expected none: it lives inside the recording",
		name, tid, m.censored,
		m.uncertain ? ", its longest overlapping lost events" : "");
	EXPECT_TRUE(ok);

	ASSERT_EQ(0, schedrec_runs(tid, ours)) TH_LOG("cannot read " TRACE);
	ASSERT_EQ(0, perf_runs(tid, perfs, &self->exits))
		TH_LOG("cannot read " TIMEHIST);
	n = ours->n;
	self->skew = calloc(2 * n + 2, sizeof(*self->skew));
	ASSERT_NE(NULL, self->skew);
	/* the clocks' offset: the median difference of the stamps */
	named = perfs->n;
	ok = named > 2 && named <= n && n <= named + EXIT_RUNS_MAX;
	if (ok) {
		self->mid = median_offset(ours, perfs, named, self->skew);
		ok = !perf_exit_runs(perfs, &self->exits, ours, self->mid);
	}
	verdict(ok, NULL, "%s %d: %zu runs in schedrec's trace; in perf's, %zu under its name and %zu of its %zu unnamed exit lines, expected the same",
		name, tid, n, named, perfs->n - named, self->exits.n);
	ASSERT_TRUE(ok);

	for (k = 0; k < n; k++) {
		self->skew[k] = perfs->out[k] - ours->out[k] - self->mid;
		self->skew[n + k] = perfs->in[k] - ours->in[k] - self->mid;
	}
	for (k = 0; k < 2 * n; k++) {
		if (llabs(self->skew[k]) <= PERF_SLACK_NS)
			continue;
		if (self->skew[k] > 0)
			wrong_way++;
		if (llabs(self->skew[k]) >= PERF_PAUSE_NS)
			paused++;
		if (++skewed <= 10)
			diag("%s %d: the tools stamped its %s %zu %.3f ms apart from their usual offset\n",
			     name, tid, k < n ? "switch-out" : "switch-in",
			     k % n, self->skew[k] / 1e6);
	}

	ours_max = runs_longest(ours, &at_ours);
	perf_max = runs_longest(perfs, &at_perf);
	ok = ours_max == m.max_ns;
	verdict(ok, c, "%s %d: longest off-CPU %s in schedrec's report, %s in its trace",
		name, tid, fmt_ms(m.max_ns, a), fmt_ms(ours_max, b));
	EXPECT_TRUE(ok);

	diff = llabs(perf_max - m.max_ns);
	slack = m.max_ns / 100 > PERF_SLACK_NS ? m.max_ns / 100 : PERF_SLACK_NS;
	alike = diff <= slack;
	ok = m.max_ns > 0 && perf_max > 0 && !wrong_way &&
	     (alike || (paused * 20 <= 2 * n &&
			(skewed - paused) * 3 <= 2 * n &&
			(!stamped_alike(self->skew, n, at_perf) ||
			 !stamped_alike(self->skew, n, at_ours))));
	verdict(ok, c, "%s %d: longest off-CPU %s (%s) in schedrec, %s in perf sched timehist, %.3f ms apart, expected within %.3f ms%s; %zu of its %zu switch stamps skewed, %zu by a pause (%zu with schedrec's earlier)",
		name, tid, fmt_ms(m.max_ns, a), m.state, fmt_ms(perf_max, b),
		diff / 1e6, slack / 1e6,
		alike ? "" : ", or apart only by skewed stamps of those intervals",
		skewed, 2 * n, paused, wrong_way);
	if (!alike || !ok)
		diag("perf's line with the longest wait, and the thread's line before it:\n#   %s\n#   %s\n",
		     perfs->line, perfs->before);
	EXPECT_TRUE(ok);
}

int main(int argc, char **argv)
{
	uint64_t start = sr_now_ns();

	record_demo();
	diag("recording, perf and the reports took %.1f s\n",
	     (sr_now_ns() - start) / 1e9);
	return test_harness_run(argc, argv);
}
