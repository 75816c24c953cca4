// SPDX-License-Identifier: GPL-2.0
/*
 * demo-workload: threads whose scheduling is known in advance, for `make
 * demo` and for the tests that check schedrec's reports against it.
 *
 *   ticker   works 2 ms, then sleeps 45.5 ms from the end of its work (S):
 *            its longest time off CPU is meant to read as 50 ms +- 10 %,
 *            whatever the machine's timers.  Never less than 45.5 ms but for
 *            the moment between its work's end and its switch-out (its
 *            longest of about 80 would have to lose 0.5 ms there); more by
 *            how late its timer fires and how long it waits to run then, up
 *            to 9.5 ms.  On hardware that is microseconds.  Under QEMU's
 *            single-threaded TCG a wakeup is late by as long as the other
 *            vCPU keeps the host thread: any interrupt, even the ticker's own
 *            timer, hands the thread to the other vCPU until an interrupt
 *            takes it back (the other's 4 ms tick at the latest, when nothing
 *            else comes first); two such waits add up (9-10.5 ms seen).
 *            Waking on a 50 ms grid instead made its longest time off CPU
 *            depend on how its delays differed from one period to the next
 *            and on how far its work overran: on a busy host every one of a
 *            run's was once under 45 ms.  It measures its sleeps by its own
 *            clock, from its work's end to its wakeup, and prints the longest
 *            at the end.  No time off CPU is longer than that, so a run whose
 *            machine put it over 55 ms can be told apart and recorded again.
 *            It runs SCHED_FIFO so that it gets a CPU as soon as it wakes
 *            although every CPU is busy: as a SCHED_OTHER task its wakeups
 *            waited up to 19 ms here (6.12's EEVDF lets the running task
 *            finish its slice, noticed at the next tick), which would make
 *            its longest sleep say more about the others than about it.
 *   hog-a    busy loops, both pinned to CPU 0 at the same nice: the
 *   hog-b    scheduler time-slices them, so each is preempted (R) by the
 *            other
 *   diskio   synchronous O_DIRECT reads: off CPU in D while a read is in
 *            flight
 *   locker   holds a mutex 10 ms of every 20 ms, working while it holds it
 *   waiter   takes the mutex each time locker has it, so it blocks on the
 *            futex and locker's unlock wakes it.  Every wakeup of waiter
 *            comes from locker: locker creates it (wakeup_new), and wakes
 *            it from its semaphore wait right after taking the mutex.
 *   pinned   busy loop pinned to CPU 1 from its birth
 *
 * CPU 0 is the hogs' alone: the process moves off it first, and every
 * other thread may run anywhere but there, so what takes a hog's CPU is
 * the other hog.  Every thread is created with its CPU mask already set
 * (the creating thread narrows its own mask around pthread_create), so a
 * pinned thread never runs anywhere else, not even for its first
 * instructions.  No thread waits for the others to start (a barrier would
 * wake them all from one thread): each starts its work at once, and the
 * main thread polls for their tids.
 *
 * At start it prints "name tid" per thread (and "demo-workload PID") on
 * stdout, and the bounds of the ticker's fact, "ticker-min-ns N" and
 * "ticker-max-ns N" (the one place they are written: the tests and `make
 * demo` read them there), then runs for SECONDS (default 4).  At the end
 * it prints
 * "ticker-longest-sleep-ns N": the ticker's longest sleep by its own
 * clock, from the end of its work to its wakeup.  Its longest time off
 * CPU is that, less the moments its sleep and wakeup take in the kernel,
 * so over 55 ms the machine, not the ticker, may have broken the fact,
 * and the tests record again.  It exits 0, or 1 if a thread failed (the
 * disk could not be read, a CPU is missing).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_USEC		1000ull
#define NSEC_PER_MSEC		1000000ull
#define NSEC_PER_SEC		1000000000ull

#define TICKER_SLEEP_NS		(45500 * NSEC_PER_USEC)
/* what its longest time off CPU is meant to read as: 50 ms +- 10 % */
#define TICKER_MIN_NS		(45 * NSEC_PER_MSEC)
#define TICKER_MAX_NS		(55 * NSEC_PER_MSEC)
#define TICKER_WORK_NS		(2 * NSEC_PER_MSEC)
#define TICKER_FIFO_PRIORITY	10
#define LOCKER_PERIOD_NS	(20 * NSEC_PER_MSEC)
#define LOCKER_HOLD_NS		(10 * NSEC_PER_MSEC)
#define HOG_CPU			0
#define PINNED_CPU		1

#define IO_SIZE			4096
#define IO_SPAN			(1024 * 1024)	/* bytes the reads cycle over */
#define DEFAULT_DEVICE		"/dev/nullb0"
#define DEFAULT_FILE		"demo-workload.io"

static const char usage[] =
	"usage: demo-workload [-d PATH] [SECONDS]\n"
	"\n"
	"Threads with known scheduling behaviour, for 4 seconds by default:\n"
	"  ticker  works 2 ms, sleeps 45.5 ms (S), and again; SCHED_FIFO\n"
	"  hog-a   busy, pinned to CPU 0 with hog-b: they preempt each other\n"
	"  hog-b\n"
	"  diskio  synchronous O_DIRECT reads of PATH (D state)\n"
	"  locker  holds a mutex 10 ms of every 20 ms\n"
	"  waiter  blocks on that mutex; woken by locker\n"
	"  pinned  busy, pinned to CPU 1\n"
	"The others stay off CPU 0.  Needs CPUs 0 and 1.  Prints\n"
	"\"demo-workload PID\", then \"NAME TID\" per thread, then the bounds\n"
	"the ticker's longest time off CPU is meant to be within, as\n"
	"\"ticker-min-ns N\" and \"ticker-max-ns N\", at start;\n"
	"\"ticker-longest-sleep-ns N\" at the end: the ticker's longest sleep\n"
	"by its own clock, from the end of its work to its wakeup.\n"
	"\n"
	"  -d PATH  file or block device for diskio (default " DEFAULT_DEVICE
	"\n"
	"           if it exists, else ./" DEFAULT_FILE ", created)\n"
	"\n"
	"Example:\n"
	"  schedrec record -C 1 -o demo.srec -- demo-workload 4\n";

struct demo_thread {
	const char *name;
	void *(*run)(struct demo_thread *t);
	int cpu;		/* the only CPU it may run on, or -1 */
	bool by_locker;		/* started by locker, not by main */
	pid_t tid;		/* 0 until it runs */
	pthread_t handle;
	bool failed;
};

static uint64_t stop_ns;
static const char *disk_path;
static pthread_mutex_t demo_mutex = PTHREAD_MUTEX_INITIALIZER;
static sem_t mutex_held;
static int locker_done;
static struct demo_thread *waiter_thread;	/* started by locker */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* Burn CPU until CLOCK_MONOTONIC reaches @ns (wall time, not CPU time). */
static void busy_until(uint64_t ns)
{
	while (now_ns() < ns)
		;
}

static void *thread_main(void *arg)
{
	struct demo_thread *t = arg;

	prctl(PR_SET_NAME, t->name, 0, 0, 0);
	__atomic_store_n(&t->tid, syscall(SYS_gettid), __ATOMIC_RELEASE);
	return t->run(t);
}

/*
 * Start @t with its CPU mask already in place: a new thread inherits its
 * creator's mask, so narrow ours around pthread_create and put it back
 * to @all.
 */
static int start_thread(struct demo_thread *t, const cpu_set_t *all)
{
	cpu_set_t one;
	int ret;

	if (t->cpu >= 0) {
		CPU_ZERO(&one);
		CPU_SET(t->cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			fprintf(stderr, "demo-workload: cannot run %s on CPU %d: %s\n",
				t->name, t->cpu, strerror(errno));
			return -1;
		}
	}
	ret = pthread_create(&t->handle, NULL, thread_main, t);
	if (t->cpu >= 0)
		sched_setaffinity(0, sizeof(*all), all);
	if (ret) {
		fprintf(stderr, "demo-workload: cannot start %s: %s\n",
			t->name, strerror(ret));
		return -1;
	}
	return 0;
}

/*
 * The ticker's longest sleep, from the end of its work to its wakeup, on
 * CLOCK_MONOTONIC (the trace's clock): 0 until it slept.
 */
static uint64_t ticker_longest_sleep_ns;

static void *ticker(struct demo_thread *t)
{
	struct sched_param sp = { .sched_priority = TICKER_FIFO_PRIORITY };
	uint64_t worked, woke;

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		fprintf(stderr, "demo-workload: %s stays SCHED_OTHER (%s): its wakeups may wait for the busy threads\n",
			t->name, strerror(errno));
	for (woke = now_ns(); woke < stop_ns;) {
		busy_until(woke + TICKER_WORK_NS);
		worked = now_ns();
		sleep_until(worked + TICKER_SLEEP_NS);
		woke = now_ns();
		if (woke - worked > ticker_longest_sleep_ns)
			ticker_longest_sleep_ns = woke - worked;
	}
	return NULL;
}

static void *hog(struct demo_thread *t)
{
	(void)t;
	busy_until(stop_ns);
	return NULL;
}

/* Make @path at least IO_SPAN bytes long if it is a regular file. */
static int disk_prepare(const char *path)
{
	static char zeros[IO_SIZE];
	struct stat st;
	int fd, i;

	if (!stat(path, &st) &&
	    (!S_ISREG(st.st_mode) || st.st_size >= IO_SPAN))
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (i = 0; i < IO_SPAN / IO_SIZE; i++) {
		if (write(fd, zeros, IO_SIZE) != IO_SIZE) {
			close(fd);
			return -1;
		}
	}
	fsync(fd);
	close(fd);
	return 0;
}

/*
 * Read IO_SIZE bytes at a time with O_DIRECT, so every read waits for the
 * device in D state.  Where O_DIRECT is refused (tmpfs before 6.6), read
 * through the page cache after dropping the file's pages, which still goes
 * to the device each time.
 */
static void *diskio(struct demo_thread *t)
{
	bool direct = true;
	off_t off = 0;
	void *buf;
	int fd;

	if (disk_prepare(disk_path) ||
	    posix_memalign(&buf, IO_SIZE, IO_SIZE)) {
		fprintf(stderr, "demo-workload: cannot prepare %s: %s\n",
			disk_path, strerror(errno));
		t->failed = true;
		return NULL;
	}
	fd = open(disk_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL) {
		direct = false;
		fd = open(disk_path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fprintf(stderr, "demo-workload: cannot open %s: %s\n",
			disk_path, strerror(errno));
		t->failed = true;
		free(buf);
		return NULL;
	}
	while (now_ns() < stop_ns) {
		if (!direct)
			posix_fadvise(fd, off, IO_SIZE, POSIX_FADV_DONTNEED);
		if (pread(fd, buf, IO_SIZE, off) != IO_SIZE) {
			fprintf(stderr, "demo-workload: read of %s failed: %s\n",
				disk_path, strerror(errno));
			t->failed = true;
			break;
		}
		off = (off + IO_SIZE) % IO_SPAN;
	}
	close(fd);
	free(buf);
	return NULL;
}

static void *locker(struct demo_thread *t)
{
	cpu_set_t mask;
	uint64_t next;

	if (sched_getaffinity(0, sizeof(mask), &mask) ||
	    start_thread(waiter_thread, &mask)) {
		t->failed = true;
		waiter_thread->failed = true;
		__atomic_store_n(&waiter_thread->tid, -1, __ATOMIC_RELEASE);
		return NULL;
	}
	for (next = now_ns(); next < stop_ns; next += LOCKER_PERIOD_NS) {
		pthread_mutex_lock(&demo_mutex);
		sem_post(&mutex_held);
		busy_until(now_ns() + LOCKER_HOLD_NS);
		pthread_mutex_unlock(&demo_mutex);
		sleep_until(next + LOCKER_PERIOD_NS);
	}
	__atomic_store_n(&locker_done, 1, __ATOMIC_RELEASE);
	sem_post(&mutex_held);
	pthread_join(waiter_thread->handle, NULL);
	return NULL;
}

static void *waiter(struct demo_thread *t)
{
	(void)t;
	for (;;) {
		while (sem_wait(&mutex_held) && errno == EINTR)
			;
		if (__atomic_load_n(&locker_done, __ATOMIC_ACQUIRE))
			break;
		pthread_mutex_lock(&demo_mutex);
		pthread_mutex_unlock(&demo_mutex);
	}
	return NULL;
}

static struct demo_thread threads[] = {
	{ .name = "ticker", .run = ticker, .cpu = -1 },
	{ .name = "hog-a", .run = hog, .cpu = HOG_CPU },
	{ .name = "hog-b", .run = hog, .cpu = HOG_CPU },
	{ .name = "diskio", .run = diskio, .cpu = -1 },
	{ .name = "locker", .run = locker, .cpu = -1 },
	{ .name = "waiter", .run = waiter, .cpu = -1, .by_locker = true },
	{ .name = "pinned", .run = hog, .cpu = PINNED_CPU },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_THREADS	ARRAY_SIZE(threads)

/* Until every thread has said its tid (or -1 if it could not start). */
static void wait_for_tids(void)
{
	const struct timespec nap = { .tv_nsec = NSEC_PER_MSEC };
	size_t i;

	for (i = 0; i < NR_THREADS; i++)
		while (!__atomic_load_n(&threads[i].tid, __ATOMIC_ACQUIRE))
			nanosleep(&nap, NULL);
}

static int parse_args(int argc, char **argv, double *seconds)
{
	char *end;
	int c;

	while ((c = getopt(argc, argv, "d:h")) != -1) {
		switch (c) {
		case 'd':
			disk_path = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			fputs(usage, stderr);
			return -1;
		}
	}
	if (optind < argc) {
		errno = 0;
		*seconds = strtod(argv[optind], &end);
		if (errno || *end || !(*seconds > 0 && *seconds <= 3600)) {
			fprintf(stderr, "demo-workload: SECONDS must be a number in (0, 3600], not '%s'\n",
				argv[optind]);
			return -1;
		}
		optind++;
	}
	if (optind < argc) {
		fputs(usage, stderr);
		return -1;
	}
	if (!disk_path)
		disk_path = access(DEFAULT_DEVICE, R_OK) ? DEFAULT_FILE :
			    DEFAULT_DEVICE;
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 4;
	cpu_set_t others;
	size_t i;
	int status = 0;

	if (parse_args(argc, argv, &seconds))
		return 2;
	if (sched_getaffinity(0, sizeof(others), &others) ||
	    !CPU_ISSET(HOG_CPU, &others) || !CPU_ISSET(PINNED_CPU, &others)) {
		fprintf(stderr, "demo-workload: needs CPUs %d and %d\n",
			HOG_CPU, PINNED_CPU);
		return 1;
	}
	CPU_CLR(HOG_CPU, &others);
	if (sched_setaffinity(0, sizeof(others), &others)) {
		perror("demo-workload: cannot leave CPU 0 to the hogs");
		return 1;
	}
	if (sem_init(&mutex_held, 0, 0)) {
		perror("demo-workload: sem_init");
		return 1;
	}
	stop_ns = now_ns() + (uint64_t)(seconds * NSEC_PER_SEC);
	for (i = 0; i < NR_THREADS; i++) {
		if (threads[i].by_locker)
			waiter_thread = &threads[i];
	}
	for (i = 0; i < NR_THREADS; i++) {
		if (!threads[i].by_locker && start_thread(&threads[i], &others))
			return 1;
	}
	wait_for_tids();

	printf("demo-workload %d\n", getpid());
	for (i = 0; i < NR_THREADS; i++)
		printf("%s %d\n", threads[i].name, threads[i].tid);
	printf("ticker-min-ns %llu\nticker-max-ns %llu\n", TICKER_MIN_NS,
	       TICKER_MAX_NS);
	fflush(stdout);

	for (i = 0; i < NR_THREADS; i++) {
		if (!threads[i].by_locker)
			pthread_join(threads[i].handle, NULL);
	}
	for (i = 0; i < NR_THREADS; i++)
		status |= threads[i].failed;
	if (ticker_longest_sleep_ns)
		printf("ticker-longest-sleep-ns %llu\n",
		       (unsigned long long)ticker_longest_sleep_ns);
	return status;
}
