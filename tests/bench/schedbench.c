// SPDX-License-Identifier: GPL-2.0
/*
 * schedbench: the in-guest half of `make bench`.
 *
 * For a number of rounds, runs each switch-heavy workload three times in a
 * rotating order: with nothing traced, with ftrace's sched_switch and
 * sched_waking events enabled, and with schedrec recording the same two
 * events; with -s, a fourth time with schedrec recording them and the
 * stack event too (the kernel stack at every switch-out), at a position
 * that rotates too.  Both tracers have one reader per CPU draining their buffers while
 * the workload runs, so both pay for a consumer.  Every run prints one line
 * on stdout, "@@bench run key=value ...", which tests/bench/report.c turns
 * into the summary; nothing is computed here beyond raw counts.
 *
 * Events are counted from each tracer's own statistics just before and just
 * after the timed window, so the cost per event divides the time the
 * workload lost by the events recorded while it ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "schedrec.h"

#define TRACEFS			"/sys/kernel/tracing"
#define SCHEDREC_DIR		SCHEDREC_PROC_DIR
#define READ_BUF_SIZE		(1 << 20)
#define MAX_CPUS		64
#define STATS_BUF_SIZE		(64 << 10)

/*
 * ftrace's ring-buffer page as trace_pipe_raw hands it out: a 64-bit time
 * stamp, then the number of data bytes in a 64-bit word whose bits 30 and
 * 31 flag missed events, then the events, each with a 32-bit header whose
 * low 5 bits are the type/length.
 */
#define FTRACE_PAGE_HEADER	16
#define FTRACE_COMMIT_MASK	((1ULL << 30) - 1)
#define FTRACE_MISSED_EVENTS	(1ULL << 31)
#define FTRACE_TYPE_DATA_MAX	28
#define FTRACE_TYPE_PADDING	29

enum bench_mode {
	MODE_BASE,
	MODE_FTRACE,
	MODE_SCHEDREC,
	MODE_SCHEDREC_STACK,	/* only with -s */
	MODE_COUNT,
};

static const char *const mode_names[MODE_COUNT] = {
	[MODE_BASE] = "base",
	[MODE_FTRACE] = "ftrace",
	[MODE_SCHEDREC] = "schedrec",
	[MODE_SCHEDREC_STACK] = "schedrec+stack",
};

/*
 * The six orders of the first three modes; round r uses order r % 6, and
 * with -s runs schedrec+stack at position r % 4 of it.
 */
static const enum bench_mode mode_orders[6][MODE_SCHEDREC_STACK] = {
	{ MODE_BASE, MODE_FTRACE, MODE_SCHEDREC },
	{ MODE_FTRACE, MODE_SCHEDREC, MODE_BASE },
	{ MODE_SCHEDREC, MODE_BASE, MODE_FTRACE },
	{ MODE_BASE, MODE_SCHEDREC, MODE_FTRACE },
	{ MODE_SCHEDREC, MODE_FTRACE, MODE_BASE },
	{ MODE_FTRACE, MODE_BASE, MODE_SCHEDREC },
};

struct options {
	int rounds;
	int warmup;
	unsigned int buf_kb;
	unsigned int hackbench_groups;
	unsigned int hackbench_loops;
	unsigned int pipe_loops;
	bool stack;		/* -s: the schedrec+stack mode too */
};

#define WORKLOAD_ARGS	12

struct workload {
	const char *name;
	char *argv[WORKLOAD_ARGS];
	char arg_buf[2][16];
};

/* Counts summed over every CPU. */
struct counters {
	uint64_t events;	/* every event the tracer saw, kept or not */
	uint64_t lost;		/* dropped or overwritten */
	uint64_t bytes;		/* schedrec: ring bytes used, PAD included */
};

struct reader {
	pthread_t thread;
	int cpu;
	int fd;
	int stop_fd;		/* ftrace: readable once the run is over */
	int error;		/* errno of a failed read, or 0 */
	uint64_t records;	/* event records read */
	uint64_t bytes;		/* bytes those records took in the buffer */
	uint64_t other;		/* padding, time extends, LOST records */
	uint64_t stacks;	/* schedrec: of the records, STACK ones */
	uint64_t missed;	/* ftrace pages flagged with missed events */
	uint64_t bad;		/* reads or records that did not parse */
};

struct run_result {
	uint64_t ns;
	uint64_t switches;	/* context switches while the workload ran */
	struct counters window;	/* while the workload ran */
	struct counters total;	/* from enable to disable */
	struct reader sum;	/* the readers, summed */
};

struct tracer {
	int (*start)(void);
	int (*stop)(void);
	int (*count)(struct counters *c);
	void *(*reader_main)(void *arg);
	const char *reader_path;	/* printf format taking the CPU */
	int reader_flags;
};

static int nr_cpus;
static struct reader readers[MAX_CPUS];
static int stop_pipe[2] = { -1, -1 };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
	} else {
		if (write(fd, text, len) != (ssize_t)len)
			ret = -errno;
		close(fd);
	}
	if (ret)
		printf("@@bench error write %s '%s': %s\n", path, text,
		       strerror(-ret));
	return ret;
}

static int write_uint(const char *path, unsigned int val)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", val);
	return write_file(path, text);
}

/* Read a whole small file into @buf, NUL-terminated. */
static int read_text(const char *path, char *buf, size_t size)
{
	size_t done = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	while (done < size - 1) {
		n = read(fd, buf + done, size - 1 - done);
		if (n < 0) {
			close(fd);
			goto fail;
		}
		if (!n)
			break;
		done += n;
	}
	close(fd);
	buf[done] = '\0';
	return 0;
fail:
	printf("@@bench error read %s: %s\n", path, strerror(errno));
	return -1;
}

/* The number after @key in @text, or 0 when @key is absent. */
static uint64_t field_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/*
 * Context switches so far, all CPUs: "ctxt" of /proc/stat, counted by the
 * scheduler whether anything traces or not, so base runs have it too.
 */
static uint64_t context_switches(void)
{
	static char text[STATS_BUF_SIZE];

	if (read_text("/proc/stat", text, sizeof(text)))
		return 0;
	return field_value(text, "\nctxt ");
}

/* ---- ftrace ---------------------------------------------------------- */

static int ftrace_events_enable(bool on)
{
	const char *val = on ? "1" : "0";

	if (write_file(TRACEFS "/events/sched/sched_switch/enable", val) ||
	    write_file(TRACEFS "/events/sched/sched_waking/enable", val))
		return -1;
	return 0;
}

static int ftrace_setup(unsigned int buf_kb)
{
	if (write_file(TRACEFS "/tracing_on", "0") ||
	    write_file(TRACEFS "/events/enable", "0") ||
	    write_file(TRACEFS "/current_tracer", "nop") ||
	    write_uint(TRACEFS "/buffer_size_kb", buf_kb) ||
	    /* wake the reader at a quarter full, as schedrec does */
	    write_file(TRACEFS "/buffer_percent", "25") ||
	    write_file(TRACEFS "/trace", "") ||
	    write_file(TRACEFS "/tracing_on", "1"))
		return -1;
	return 0;
}

static int ftrace_start(void)
{
	/* opening "trace" for writing with O_TRUNC empties every buffer */
	if (write_file(TRACEFS "/trace", ""))
		return -1;
	return ftrace_events_enable(true);
}

static int ftrace_stop(void)
{
	return ftrace_events_enable(false);
}

/*
 * per_cpu/cpuN/stats: "entries" is what is still unread, "read events"
 * what readers consumed, "overrun" what was overwritten and "dropped
 * events" what never got in; together they are every event.
 */
static int ftrace_count(struct counters *c)
{
	char path[128], text[1024];
	int cpu;

	memset(c, 0, sizeof(*c));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t overrun, dropped;

		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats",
			 cpu);
		if (read_text(path, text, sizeof(text)))
			return -1;
		overrun = field_value(text, "\noverrun: ");
		dropped = field_value(text, "dropped events: ");
		c->events += field_value(text, "entries: ") +
			     field_value(text, "read events: ") + overrun +
			     dropped;
		c->lost += overrun + dropped;
	}
	return 0;
}

/* Walk the events of one page read from trace_pipe_raw. */
static void ftrace_page_account(struct reader *r, const unsigned char *page,
				size_t len)
{
	uint64_t commit;
	size_t pos, end;

	if (len < FTRACE_PAGE_HEADER) {
		r->bad++;
		return;
	}
	memcpy(&commit, page + 8, sizeof(commit));
	if (commit & FTRACE_MISSED_EVENTS)
		r->missed++;
	commit &= FTRACE_COMMIT_MASK;
	if (commit > len - FTRACE_PAGE_HEADER) {
		r->bad++;
		return;
	}
	end = FTRACE_PAGE_HEADER + commit;
	for (pos = FTRACE_PAGE_HEADER; pos + 4 <= end;) {
		uint32_t header, type_len, array0 = 0, size;

		memcpy(&header, page + pos, sizeof(header));
		type_len = header & 0x1f;
		if (pos + 8 <= end)
			memcpy(&array0, page + pos + 4, sizeof(array0));
		if (type_len == FTRACE_TYPE_PADDING && !(header >> 5))
			break;	/* null padding: the rest is unused */
		if (type_len > FTRACE_TYPE_PADDING)
			size = 8;	/* time extend or time stamp */
		else if (type_len == FTRACE_TYPE_PADDING || !type_len)
			size = 4 + array0;
		else
			size = 4 + 4 * type_len;
		if (size < 4 || size > end - pos) {
			r->bad++;
			break;
		}
		if (type_len <= FTRACE_TYPE_DATA_MAX)
			r->records++;
		else
			r->other++;
		pos += size;
	}
	r->bytes += commit;
}

/*
 * Non-blocking reads, waiting in poll() for the buffer to be a quarter full
 * (buffer_percent) or for the end of the run; after the end, read until
 * the buffer is empty.
 */
static void *ftrace_reader_main(void *arg)
{
	struct reader *r = arg;
	unsigned char *buf = malloc(READ_BUF_SIZE);
	struct pollfd fds[2] = {
		{ .fd = r->fd, .events = POLLIN },
		{ .fd = r->stop_fd, .events = POLLIN },
	};
	bool stopping = false;
	ssize_t n;

	if (!buf) {
		r->error = ENOMEM;
		return NULL;
	}
	for (;;) {
		n = read(r->fd, buf, READ_BUF_SIZE);
		if (n > 0) {
			ftrace_page_account(r, buf, n);
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			r->error = errno;
			break;
		}
		if (stopping)
			break;
		if (poll(fds, 2, -1) < 0 && errno != EINTR) {
			r->error = errno;
			break;
		}
		/*
		 * The events were disabled before the stop pipe became
		 * readable: what the next reads find is all there is.
		 */
		if (fds[1].revents)
			stopping = true;
	}
	free(buf);
	return NULL;
}

/* ---- schedrec -------------------------------------------------------- */

static int schedrec_setup(unsigned int buf_kb)
{
	if (write_file(SCHEDREC_DIR "/enable", "0") ||
	    write_file(SCHEDREC_DIR "/mode", "stream") ||
	    write_uint(SCHEDREC_DIR "/buf_kb", buf_kb) ||
	    write_file(SCHEDREC_DIR "/events", "switch waking"))
		return -1;
	return 0;
}

static int schedrec_start(void)
{
	if (write_file(SCHEDREC_DIR "/events", "switch waking"))
		return -1;
	return write_file(SCHEDREC_DIR "/enable", "1");
}

/* The same events, and the stack of every task switched out. */
static int schedrec_stack_start(void)
{
	if (write_file(SCHEDREC_DIR "/events", "switch waking stack"))
		return -1;
	return write_file(SCHEDREC_DIR "/enable", "1");
}

static int schedrec_stop(void)
{
	return write_file(SCHEDREC_DIR "/enable", "0");
}

static int schedrec_count(struct counters *c)
{
	static char text[STATS_BUF_SIZE];
	const char *line;

	memset(c, 0, sizeof(*c));
	if (read_text(SCHEDREC_DIR "/stats", text, sizeof(text)))
		return -1;
	for (line = strstr(text, "\ncpu"); line;
	     line = strstr(line + 1, "\ncpu")) {
		const char *eol = strchr(line + 1, '\n');
		char one[512];
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (len >= sizeof(one))
			len = sizeof(one) - 1;
		memcpy(one, line, len);
		one[len] = '\0';
		c->events += field_value(one, " written=") +
			     field_value(one, " lost=");
		c->lost += field_value(one, " lost=");
		c->bytes += field_value(one, " bytes=");
	}
	return 0;
}

/* Blocking reads of whole records until end of file (recording off). */
static void *schedrec_reader_main(void *arg)
{
	struct reader *r = arg;
	unsigned char *buf = malloc(READ_BUF_SIZE);
	ssize_t n, pos;

	if (!buf) {
		r->error = ENOMEM;
		return NULL;
	}
	for (;;) {
		n = read(r->fd, buf, READ_BUF_SIZE);
		if (!n)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r->error = errno;
			break;
		}
		for (pos = 0; pos + (ssize_t)sizeof(struct schedrec_header) <=
			      n;) {
			struct schedrec_header hdr;

			memcpy(&hdr, buf + pos, sizeof(hdr));
			if (hdr.size < sizeof(hdr) || hdr.size > n - pos) {
				r->bad++;
				break;
			}
			if (SCHEDREC_EV_IS_EVENT(hdr.type)) {
				r->records++;
				r->bytes += hdr.size;
				r->stacks += hdr.type == SCHEDREC_EV_STACK;
			} else {
				r->other++;
			}
			pos += hdr.size;
		}
	}
	free(buf);
	return NULL;
}

/* ---- runs ------------------------------------------------------------ */

static const struct tracer tracers[MODE_COUNT] = {
	[MODE_FTRACE] = {
		.start = ftrace_start,
		.stop = ftrace_stop,
		.count = ftrace_count,
		.reader_main = ftrace_reader_main,
		.reader_path = TRACEFS "/per_cpu/cpu%d/trace_pipe_raw",
		.reader_flags = O_RDONLY | O_NONBLOCK,
	},
	[MODE_SCHEDREC] = {
		.start = schedrec_start,
		.stop = schedrec_stop,
		.count = schedrec_count,
		.reader_main = schedrec_reader_main,
		.reader_path = SCHEDREC_DIR "/cpu/%d",
		.reader_flags = O_RDONLY,
	},
	[MODE_SCHEDREC_STACK] = {
		.start = schedrec_stack_start,
		.stop = schedrec_stop,
		.count = schedrec_count,
		.reader_main = schedrec_reader_main,
		.reader_path = SCHEDREC_DIR "/cpu/%d",
		.reader_flags = O_RDONLY,
	},
};

static int readers_start(const struct tracer *t)
{
	char path[128];
	int cpu, ret;

	/* readers_join() skips the readers that never started */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		memset(&readers[cpu], 0, sizeof(readers[cpu]));
		readers[cpu].fd = -1;
	}
	if (pipe2(stop_pipe, O_CLOEXEC))
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct reader *r = &readers[cpu];

		r->cpu = cpu;
		r->stop_fd = stop_pipe[0];
		snprintf(path, sizeof(path), t->reader_path, cpu);
		r->fd = open(path, t->reader_flags | O_CLOEXEC);
		if (r->fd < 0) {
			printf("@@bench error open %s: %s\n", path,
			       strerror(errno));
			return -1;
		}
		ret = pthread_create(&r->thread, NULL, t->reader_main, r);
		if (ret) {
			printf("@@bench error pthread_create: %s\n",
			       strerror(ret));
			close(r->fd);
			r->fd = -1;
			return -1;
		}
	}
	return 0;
}

/* Tell the readers the run is over, wait for them to drain, sum them up. */
static int readers_join(struct reader *sum)
{
	int cpu, ret = 0;

	memset(sum, 0, sizeof(*sum));
	if (write(stop_pipe[1], "x", 1) != 1)
		ret = -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct reader *r = &readers[cpu];

		if (r->fd < 0)
			continue;
		pthread_join(r->thread, NULL);
		close(r->fd);
		r->fd = -1;
		if (r->error) {
			printf("@@bench error reading cpu %d: %s\n", cpu,
			       strerror(r->error));
			ret = -1;
		}
		sum->records += r->records;
		sum->bytes += r->bytes;
		sum->other += r->other;
		sum->stacks += r->stacks;
		sum->missed += r->missed;
		sum->bad += r->bad;
	}
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	return ret;
}

/* Run the workload to completion; its stdout goes to /dev/null. */
static int workload_run(const struct workload *wl)
{
	int status, devnull;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		execv(wl->argv[0], wl->argv);
		fprintf(stderr, "schedbench: exec %s: %s\n", wl->argv[0],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("@@bench error %s: status 0x%x\n", wl->name, status);
		return -1;
	}
	return 0;
}

static void counters_sub(struct counters *a, const struct counters *b)
{
	a->events -= b->events;
	a->lost -= b->lost;
	a->bytes -= b->bytes;
}

static int run_one(enum bench_mode mode, const struct workload *wl,
		   struct run_result *res)
{
	const struct tracer *t = &tracers[mode];
	struct counters before;
	uint64_t start;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (mode == MODE_BASE) {
		res->switches = context_switches();
		start = now_ns();
		ret = workload_run(wl);
		res->ns = now_ns() - start;
		res->switches = context_switches() - res->switches;
		return ret;
	}
	if (t->start())
		return -1;
	if (readers_start(t) || t->count(&before)) {
		t->stop();
		readers_join(&res->sum);
		return -1;
	}
	res->switches = context_switches();
	start = now_ns();
	ret = workload_run(wl);
	res->ns = now_ns() - start;
	res->switches = context_switches() - res->switches;
	ret |= t->count(&res->window);
	ret |= t->stop();
	ret |= readers_join(&res->sum);
	ret |= t->count(&res->total);
	counters_sub(&res->window, &before);
	return ret;
}

static void run_print(int round, int pos, enum bench_mode mode,
		      const struct workload *wl, const struct run_result *res)
{
	printf("@@bench run round=%d workload=%s mode=%s pos=%d ns=%llu "
	       "switches=%llu "
	       "events=%llu lost=%llu total_events=%llu total_lost=%llu "
	       "stat_bytes=%llu read_records=%llu read_bytes=%llu "
	       "read_other=%llu read_missed=%llu read_bad=%llu "
	       "read_stacks=%llu\n",
	       round, wl->name, mode_names[mode], pos,
	       (unsigned long long)res->ns,
	       (unsigned long long)res->switches,
	       (unsigned long long)res->window.events,
	       (unsigned long long)res->window.lost,
	       (unsigned long long)res->total.events,
	       (unsigned long long)res->total.lost,
	       (unsigned long long)res->total.bytes,
	       (unsigned long long)res->sum.records,
	       (unsigned long long)res->sum.bytes,
	       (unsigned long long)res->sum.other,
	       (unsigned long long)res->sum.missed,
	       (unsigned long long)res->sum.bad,
	       (unsigned long long)res->sum.stacks);
	fflush(stdout);
}

#define NR_WORKLOADS	3

/*
 * hackbench, perf bench sched pipe, and the same pipe benchmark with both
 * tasks pinned to CPU 0: it makes the same switches whatever the tracer
 * does, so its cost per event needs no correction for the number of
 * switches, and it checks the correction applied to the other two.
 */
static void workloads_init(struct workload wl[NR_WORKLOADS],
			   const struct options *o)
{
	snprintf(wl[0].arg_buf[0], sizeof(wl[0].arg_buf[0]), "%u",
		 o->hackbench_groups);
	snprintf(wl[0].arg_buf[1], sizeof(wl[0].arg_buf[1]), "%u",
		 o->hackbench_loops);
	wl[0].name = "hackbench";
	wl[0].argv[0] = "/bin/hackbench";
	wl[0].argv[1] = "-g";
	wl[0].argv[2] = wl[0].arg_buf[0];
	wl[0].argv[3] = "-l";
	wl[0].argv[4] = wl[0].arg_buf[1];
	wl[0].argv[5] = NULL;

	snprintf(wl[1].arg_buf[0], sizeof(wl[1].arg_buf[0]), "%u",
		 o->pipe_loops);
	wl[1].name = "perf-sched-pipe";
	wl[1].argv[0] = "/bin/perf";
	wl[1].argv[1] = "bench";
	wl[1].argv[2] = "sched";
	wl[1].argv[3] = "pipe";
	wl[1].argv[4] = "-l";
	wl[1].argv[5] = wl[1].arg_buf[0];
	wl[1].argv[6] = NULL;

	snprintf(wl[2].arg_buf[0], sizeof(wl[2].arg_buf[0]), "%u",
		 o->pipe_loops);
	wl[2].name = "perf-sched-pipe-cpu0";
	wl[2].argv[0] = "/bin/taskset";
	wl[2].argv[1] = "-c";
	wl[2].argv[2] = "0";
	wl[2].argv[3] = "/bin/perf";
	wl[2].argv[4] = "bench";
	wl[2].argv[5] = "sched";
	wl[2].argv[6] = "pipe";
	wl[2].argv[7] = "-l";
	wl[2].argv[8] = wl[2].arg_buf[0];
	wl[2].argv[9] = NULL;
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: schedbench [-r ROUNDS] [-w WARMUP] [-k BUF_KB] [-g GROUPS] [-l LOOPS] [-p PIPE_LOOPS] [-s]\n"
		"  -r  measured rounds (default 20)\n"
		"  -w  warm-up rounds, printed with a negative round (default 1)\n"
		"  -k  per-CPU buffer of both tracers in KiB (default 4096)\n"
		"  -g  hackbench -g (default 2)\n"
		"  -l  hackbench -l (default 200)\n"
		"  -p  perf bench sched pipe -l, unpinned and pinned to CPU 0 (default 20000)\n"
		"  -s  also schedrec with the stack event (mode schedrec+stack)\n"
		"example: schedbench -r 2 -w 0 -l 50 -p 5000\n");
}

static int parse_uint(const char *arg, unsigned int *val)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || v > 1000000000UL)
		return -1;
	*val = v;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	unsigned int val;
	int opt;

	*o = (struct options){
		.rounds = 20, .warmup = 1, .buf_kb = 4096,
		.hackbench_groups = 2, .hackbench_loops = 200,
		.pipe_loops = 20000,
	};
	while ((opt = getopt(argc, argv, "r:w:k:g:l:p:sh")) != -1) {
		if (opt == 'h') {
			print_usage(stdout);
			exit(0);
		}
		if (opt == 's') {
			o->stack = true;
			continue;
		}
		if (!optarg || parse_uint(optarg, &val)) {
			print_usage(stderr);
			return -1;
		}
		switch (opt) {
		case 'r':
			o->rounds = val;
			break;
		case 'w':
			o->warmup = val;
			break;
		case 'k':
			o->buf_kb = val;
			break;
		case 'g':
			o->hackbench_groups = val;
			break;
		case 'l':
			o->hackbench_loops = val;
			break;
		case 'p':
			o->pipe_loops = val;
			break;
		default:
			print_usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		print_usage(stderr);
		return -1;
	}
	return 0;
}

/* The modes of @round in the order they run; returns how many. */
static int round_order(int round, bool stack, enum bench_mode *order)
{
	const enum bench_mode *three = mode_orders[(round % 6 + 6) % 6];
	int insert = stack ? (round % 4 + 4) % 4 : -1, i, n = 0;

	for (i = 0; i <= MODE_SCHEDREC_STACK; i++) {
		if (i == insert)
			order[n++] = MODE_SCHEDREC_STACK;
		if (i < MODE_SCHEDREC_STACK)
			order[n++] = three[i];
	}
	return n;
}

int main(int argc, char **argv)
{
	struct workload wl[NR_WORKLOADS] = { 0 };
	struct run_result res;
	struct options o;
	struct utsname uts;
	int round, w, pos;

	if (parse_options(argc, argv, &o))
		return 2;
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus < 1 || nr_cpus > MAX_CPUS) {
		printf("@@bench error %d CPUs online\n", nr_cpus);
		return 1;
	}
	uname(&uts);
	printf("@@bench info kernel=%s cpus=%d rounds=%d warmup=%d buf_kb=%u hackbench=-g%u,-l%u pipe_loops=%u%s\n",
	       uts.release, nr_cpus, o.rounds, o.warmup, o.buf_kb,
	       o.hackbench_groups, o.hackbench_loops, o.pipe_loops,
	       o.stack ? " stack=on" : "");
	workloads_init(wl, &o);
	if (ftrace_setup(o.buf_kb) || schedrec_setup(o.buf_kb))
		return 1;
	for (round = -o.warmup; round < o.rounds; round++) {
		enum bench_mode order[MODE_COUNT];
		int modes = round_order(round, o.stack, order);

		for (w = 0; w < NR_WORKLOADS; w++) {
			for (pos = 0; pos < modes; pos++) {
				if (run_one(order[pos], &wl[w], &res)) {
					printf("@@bench error round %d %s %s failed\n",
					       round, wl[w].name,
					       mode_names[order[pos]]);
					return 1;
				}
				run_print(round, pos, order[pos], &wl[w], &res);
			}
		}
	}
	printf("@@bench done\n");
	return 0;
}
