// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace is the oracle: during a hackbench run, record sched_switch with
 * ftrace and with schedrec at the same time, and require that on every CPU
 * the sequence of (prev tid, next tid, prev_state letter) schedrec saw is
 * exactly the one ftrace saw over the same window, when neither lost
 * anything.
 *
 * ftrace runs with trace_clock "mono", the clock schedrec stamps records
 * with, so that the two can be aligned.  ftrace starts first and stops
 * last, so schedrec's sequence of a CPU is one unbroken stretch of
 * ftrace's; it is found by the first schedrec switch, matched with ftrace's
 * of the same tids and state near the same time (ftrace prints
 * microseconds and reads the clock itself, a little apart from us).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"
#include "taskstate.h"

#define TRACEFS		"/sys/kernel/tracing"
#define FTRACE_BUF_KB	"8192"
/* 16 MiB of schedrec ring per CPU: half a million switches */
#define SCHEDREC_BUF_KB	16384
/* how far from our first switch to look for it in ftrace's */
#define ALIGN_SLACK_NS	100000000ull
/*
 * The two tracers read the clock one after the other: a few microseconds
 * apart, or milliseconds when the emulator stalls a vCPU in between (seen
 * under TCG).  More than this is worth a look in the log.
 */
#define SKEW_REPORT_NS	20000000ull

struct switch_event {
	uint64_t ts;		/* ns; ftrace: microseconds * 1000 */
	uint32_t prev_tid, next_tid;
	char state[4];		/* as ftrace prints it: "S", "R+", ... */
};

struct switch_list {
	struct switch_event *ev;
	size_t n, cap;
};

static int switch_add(struct switch_list *list, const struct switch_event *ev)
{
	if (list->n == list->cap) {
		size_t cap = list->cap ? 2 * list->cap : 4096;
		struct switch_event *more;

		more = realloc(list->ev, cap * sizeof(*more));
		if (!more)
			return -ENOMEM;
		list->ev = more;
		list->cap = cap;
	}
	list->ev[list->n++] = *ev;
	return 0;
}

FIXTURE(oracle) {
	int nr_cpus;
	char no_tracefs[128];	/* why there is no tracefs, if there is none */
	char saved_clock[32];
	char saved_buffer_kb[32];
	char saved_tracing_on[8];
	bool tracing;		/* we changed tracefs */
	struct switch_list *ours, *theirs;	/* per CPU */
};

FIXTURE_VARIANT(oracle) {
	const char *const *hackbench;
};

static const char *const hackbench_processes[] = {
	"hackbench", "-g", "2", "-l", "100", "-s", "64", NULL,
};

static const char *const hackbench_threads[] = {
	"hackbench", "-T", "-g", "2", "-f", "10", "-l", "200", "-s", "64",
	NULL,
};

FIXTURE_VARIANT_ADD(oracle, processes) {
	.hackbench = hackbench_processes,
};

FIXTURE_VARIANT_ADD(oracle, threads) {
	.hackbench = hackbench_threads,
};

/* The current choice of a tracefs list file such as "a [b] c". */
static int tracefs_current(const char *file, char *out, size_t size)
{
	char buf[512], *open, *close;

	if (procfile_read(file, buf, sizeof(buf)) < 0)
		return -EIO;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return -EINVAL;
	snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

static int tracefs_mount(void)
{
	struct stat st;

	if (!stat(TRACEFS "/trace", &st))
		return 0;
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL))
		return -errno;
	return stat(TRACEFS "/trace", &st) ? -errno : 0;
}

/* Empty the ftrace buffers: what "echo > trace" does. */
static int ftrace_clear(void)
{
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * Before 5.18 sched_switch passed no prev_state: ftrace and schedrec each
 * read it from the task, one probe after the other, and a wakeup racing
 * in made it TASK_WAKING.  ftrace printed that "R"; schedrec says S or D,
 * from sched_contributes_to_load (see kmod/compat.h), which cannot tell
 * TASK_IDLE ("I", ftrace's when it read before the wakeup) from S.  Such
 * pairs are counted, and must stay rare.
 */
static bool ftrace_reads_state;

/*
 * On every kernel both probes read a dying task's exit_state themselves:
 * a zombie ftrace read as Z, its parent can reap (X) before our read.
 * Counted with the pairs above.
 */
static bool reaped_between(const struct switch_event *ours,
			   const struct switch_event *theirs)
{
	return !strcmp(theirs->state, "Z") && !strcmp(ours->state, "X");
}

static bool racy_state(const struct switch_event *ours,
		       const struct switch_event *theirs)
{
	if (!strcmp(theirs->state, "I"))
		return !strcmp(ours->state, "S");
	return !strcmp(theirs->state, "R") &&
	       (!strcmp(ours->state, "S") || !strcmp(ours->state, "D"));
}

static bool kernel_before(unsigned int major, unsigned int minor)
{
	struct utsname u;
	unsigned int a, b;

	return !uname(&u) && sscanf(u.release, "%u.%u", &a, &b) == 2 &&
	       (a < major || (a == major && b < minor));
}

FIXTURE_SETUP(oracle)
{
	int ret;

	ret = tracefs_mount();
	if (ret) {
		/* this harness runs the test after a SKIP in setup */
		snprintf(self->no_tracefs, sizeof(self->no_tracefs),
			 "no tracefs at " TRACEFS ": %s", strerror(-ret));
		return;
	}
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(SCHEDREC_BUF_KB));
	ASSERT_EQ(0, procfile_write("events", "switch"));
	ftrace_reads_state = kernel_before(5, 18);
	self->nr_cpus = sr_nr_cpus();
	ASSERT_LT(0, self->nr_cpus);
	self->ours = calloc(self->nr_cpus, sizeof(*self->ours));
	self->theirs = calloc(self->nr_cpus, sizeof(*self->theirs));
	ASSERT_NE(NULL, self->ours);
	ASSERT_NE(NULL, self->theirs);

	ASSERT_EQ(0, tracefs_current(TRACEFS "/trace_clock", self->saved_clock,
				     sizeof(self->saved_clock)));
	ASSERT_LT(0, procfile_read(TRACEFS "/buffer_size_kb",
				   self->saved_buffer_kb,
				   sizeof(self->saved_buffer_kb)));
	ASSERT_LT(0, procfile_read(TRACEFS "/tracing_on",
				   self->saved_tracing_on,
				   sizeof(self->saved_tracing_on)));
	self->tracing = true;
	ASSERT_EQ(0, procfile_write(TRACEFS "/tracing_on", "0"));
	ASSERT_EQ(0, procfile_write(TRACEFS "/current_tracer", "nop"));
	ASSERT_EQ(0, procfile_write(TRACEFS "/events/enable", "0"));
	ASSERT_EQ(0, procfile_write(TRACEFS "/trace_clock", "mono"))
		TH_LOG("trace_clock mono refused");
	ASSERT_EQ(0, procfile_write(TRACEFS "/buffer_size_kb", FTRACE_BUF_KB));
	ASSERT_EQ(0, procfile_write(TRACEFS "/events/sched/sched_switch/enable",
				    "1"));
	ASSERT_EQ(0, ftrace_clear());
}

FIXTURE_TEARDOWN(oracle)
{
	int cpu;

	if (self->tracing) {
		procfile_write(TRACEFS "/tracing_on", "0");
		procfile_write(TRACEFS "/events/sched/sched_switch/enable",
			       "0");
		ftrace_clear();
		procfile_write(TRACEFS "/trace_clock", self->saved_clock);
		procfile_write(TRACEFS "/buffer_size_kb",
			       self->saved_buffer_kb);
		procfile_write(TRACEFS "/tracing_on", self->saved_tracing_on);
	}
	for (cpu = 0; self->ours && cpu < self->nr_cpus; cpu++) {
		free(self->ours[cpu].ev);
		free(self->theirs[cpu].ev);
	}
	free(self->ours);
	free(self->theirs);
	sr_reset();
	sr_set_buf_kb(1024);
}

static bool in_path(const char *name)
{
	char path[512], *dirs, *dir, *save;
	const char *env = getenv("PATH");
	bool found = false;

	dirs = strdup(env ? env : "/bin:/usr/bin");
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		found = !access(path, X_OK);
	}
	free(dirs);
	return found;
}

/* Run hackbench with its output thrown away; 0 if it succeeded. */
static int run_hackbench(const char *const *argv)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return -errno;
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return sr_wait_child_ok(pid);
}

/* schedrec's switches of every CPU, through mmap, decoded. */
static int collect_ours(struct switch_list *ours, int nr_cpus)
{
	const struct schedrec_header *rec;
	const struct schedrec_switch *sw;
	struct switch_event ev;
	struct ringreader rr;
	int cpu, ret;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		ret = ringreader_open(&rr, cpu);
		if (ret)
			return ret;
		ret = ringreader_begin(&rr) < 0 ? -EIO : 0;
		while (!ret && (ret = ringreader_next(&rr, &rec)) > 0) {
			ret = 0;
			if (rec->type != SCHEDREC_EV_SWITCH)
				continue;
			sw = (const void *)rec;
			memset(&ev, 0, sizeof(ev));
			ev.ts = rec->ts;
			ev.prev_tid = sw->prev_tid;
			ev.next_tid = sw->next_tid;
			snprintf(ev.state, sizeof(ev.state), "%s",
				 taskstate_ftrace(sw->prev_state,
						  rec->flags &
						  SCHEDREC_F_PREEMPT,
						  TASKSTATE_EXIT_UNKNOWN));
			ret = switch_add(&ours[cpu], &ev);
		}
		ringreader_consume(&rr);
		ringreader_close(&rr);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * One line of a per-CPU trace file:
 *   <comm>-<pid> [001] d..2.  12.345678: sched_switch: prev_comm=...
 *   prev_pid=N prev_prio=N prev_state=S ==> next_comm=... next_pid=N ...
 * Names may hold spaces, so fields are found by their keys.
 */
static bool parse_ftrace_line(const char *line, struct switch_event *ev)
{
	const char *event = strstr(line, ": sched_switch: prev_comm=");
	const char *ts, *prev, *state, *next;
	unsigned long sec, usec;

	if (!event)
		return false;
	for (ts = event; ts > line && ts[-1] != ' '; ts--)
		;
	prev = strstr(event, " prev_pid=");
	state = prev ? strstr(prev, " prev_state=") : NULL;
	next = state ? strstr(state, " ==> next_comm=") : NULL;
	next = next ? strstr(next, " next_pid=") : NULL;
	memset(ev, 0, sizeof(*ev));
	if (!next || sscanf(ts, "%lu.%6lu:", &sec, &usec) != 2 ||
	    sscanf(prev, " prev_pid=%u", &ev->prev_tid) != 1 ||
	    sscanf(state, " prev_state=%3[^ ]", ev->state) != 1 ||
	    sscanf(next, " next_pid=%u", &ev->next_tid) != 1)
		return false;
	ev->ts = (sec * 1000000 + usec) * 1000;
	return true;
}

/* ftrace's switches of every CPU, from its per-CPU trace files. */
static int collect_theirs(struct switch_list *theirs, int nr_cpus)
{
	struct switch_event ev;
	char path[128], *line = NULL;
	size_t size = 0;
	int cpu, ret = 0;
	FILE *file;

	for (cpu = 0; cpu < nr_cpus && !ret; cpu++) {
		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace",
			 cpu);
		file = fopen(path, "r");
		if (!file)
			return -errno;
		while (!ret && getline(&line, &size, file) > 0) {
			if (line[0] == '#' || !strstr(line, "sched_switch"))
				continue;
			if (!parse_ftrace_line(line, &ev)) {
				fprintf(stderr, "# unparsed: %s", line);
				ret = -EINVAL;
			} else {
				ret = switch_add(&theirs[cpu], &ev);
			}
		}
		fclose(file);
	}
	free(line);
	return ret;
}

/* A value of a per-CPU ftrace stats line ("overrun: 0"), or -1. */
static long long ftrace_stat(int cpu, const char *key)
{
	char path[128], buf[1024], *at;
	long long value;

	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
	if (procfile_read(path, buf, sizeof(buf)) < 0)
		return -1;
	at = strstr(buf, key);
	if (!at || sscanf(at + strlen(key), ": %lld", &value) != 1)
		return -1;
	return value;
}

static bool same_switch(const struct switch_event *ours,
			const struct switch_event *theirs)
{
	if (ours->prev_tid != theirs->prev_tid ||
	    ours->next_tid != theirs->next_tid)
		return false;
	if (!strcmp(ours->state, theirs->state))
		return true;
	if (reaped_between(ours, theirs))
		return true;
	return ftrace_reads_state && racy_state(ours, theirs);
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* How many of ours match theirs from @at on. */
static size_t matching_run(const struct switch_list *ours,
			   const struct switch_list *theirs, size_t at)
{
	size_t i;

	for (i = 0; i < ours->n && at + i < theirs->n; i++)
		if (!same_switch(&ours->ev[i], &theirs->ev[at + i]))
			break;
	return i;
}

/*
 * Where ours starts in theirs: of the candidates near our first switch in
 * time, the one with the longest matching run, and of those the nearest.
 * Returns that run's length.
 */
static size_t align(const struct switch_list *ours,
		    const struct switch_list *theirs, size_t *at)
{
	uint64_t dt, best_dt = UINT64_MAX;
	size_t j, best = 0, run;

	*at = 0;
	for (j = 0; j < theirs->n && ours->n; j++) {
		dt = distance(theirs->ev[j].ts, ours->ev[0].ts);
		if (dt > ALIGN_SLACK_NS)
			continue;
		run = matching_run(ours, theirs, j);
		if (run > best || (run == best && run && dt < best_dt)) {
			best = run;
			best_dt = dt;
			*at = j;
		}
	}
	return best;
}

/*
 * The largest difference between the two tracers' timestamps of the same
 * switch, and where it is.
 */
static uint64_t largest_skew(const struct switch_list *ours,
			     const struct switch_list *theirs, size_t at,
			     size_t run, size_t *where)
{
	uint64_t skew = 0, dt;
	size_t i;

	*where = 0;
	for (i = 0; i < run; i++) {
		/* ftrace truncates to microseconds */
		dt = distance(ours->ev[i].ts / 1000 * 1000,
			      theirs->ev[at + i].ts);
		if (dt > skew) {
			skew = dt;
			*where = i;
		}
	}
	return skew;
}

static void log_switch(struct __test_metadata *_metadata, const char *who,
		       int cpu, size_t index, const struct switch_list *list)
{
	const struct switch_event *ev;

	if (index >= list->n) {
		TH_LOG("cpu%d %s #%zu: past the end (%zu)", cpu, who, index,
		       list->n);
		return;
	}
	ev = &list->ev[index];
	TH_LOG("cpu%d %s #%zu: %llu.%09llu %u -> %u prev_state %s", cpu, who,
	       index, (unsigned long long)(ev->ts / 1000000000),
	       (unsigned long long)(ev->ts % 1000000000), ev->prev_tid,
	       ev->next_tid, ev->state);
}

/* Where they part, and what ftrace saw around our first switch. */
static void log_mismatch(struct __test_metadata *_metadata, int cpu,
			 const struct switch_list *ours,
			 const struct switch_list *theirs, size_t at,
			 size_t run)
{
	size_t i, nearest = 0;

	for (i = 0; i < 3; i++) {
		log_switch(_metadata, "schedrec", cpu, run + i, ours);
		log_switch(_metadata, "ftrace", cpu, at + run + i, theirs);
	}
	if (run)
		return;
	for (i = 0; i < theirs->n; i++)
		if (distance(theirs->ev[i].ts, ours->ev[0].ts) <
		    distance(theirs->ev[nearest].ts, ours->ev[0].ts))
			nearest = i;
	for (i = nearest > 3 ? nearest - 3 : 0; i < nearest + 4; i++)
		log_switch(_metadata, "ftrace near", cpu, i, theirs);
}

static void log_skew(struct __test_metadata *_metadata, int cpu,
		     const struct switch_list *ours,
		     const struct switch_list *theirs, size_t at, size_t where)
{
	size_t i;

	for (i = where > 2 ? where - 2 : 0; i < where + 3; i++) {
		log_switch(_metadata, "schedrec", cpu, i, ours);
		log_switch(_metadata, "ftrace", cpu, at + i, theirs);
	}
}

TEST_F_TIMEOUT(oracle, same_switches_as_ftrace, 300)
{
	struct procfile_stats stats;
	size_t total = 0, racy = 0, dying = 0, at, run, where, i;
	uint64_t skew;
	int cpu;

	if (self->no_tracefs[0])
		SKIP(return, "%s", self->no_tracefs);
	if (!in_path(variant->hackbench[0]))
		SKIP(return, "%s is not in PATH", variant->hackbench[0]);
	ASSERT_EQ(0, procfile_write(TRACEFS "/tracing_on", "1"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, run_hackbench(variant->hackbench));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, procfile_write(TRACEFS "/tracing_on", "0"));

	ASSERT_EQ(0, procfile_stats_read(&stats));
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		EXPECT_EQ(0u, stats.cpu[cpu].lost) TH_LOG("schedrec cpu%d", cpu);
	procfile_stats_free(&stats);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(0, ftrace_stat(cpu, "overrun"))
			TH_LOG("ftrace cpu%d", cpu);
		EXPECT_EQ(0, ftrace_stat(cpu, "commit overrun"));
		EXPECT_EQ(0, ftrace_stat(cpu, "dropped events"));
	}
	ASSERT_EQ(0, collect_ours(self->ours, self->nr_cpus));
	ASSERT_EQ(0, collect_theirs(self->theirs, self->nr_cpus));

	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		const struct switch_list *ours = &self->ours[cpu];
		const struct switch_list *theirs = &self->theirs[cpu];

		total += ours->n;
		if (!ours->n)
			continue;
		/* ftrace ran longer, so it saw at least as much */
		EXPECT_LE(ours->n, theirs->n) TH_LOG("cpu%d", cpu);
		run = align(ours, theirs, &at);
		EXPECT_EQ(ours->n, run)
			TH_LOG("cpu%d: %zu of %zu switches match ftrace's from its #%zu",
			       cpu, run, ours->n, at);
		if (run != ours->n)
			log_mismatch(_metadata, cpu, ours, theirs, at, run);
		for (i = 0; i < run; i++) {
			if (strcmp(ours->ev[i].state, theirs->ev[at + i].state))
				racy++;
			if (strchr("XZ", ours->ev[i].state[0]))
				dying++;
		}
		skew = largest_skew(ours, theirs, at, run, &where);
		TH_LOG("cpu%d: %zu switches, ftrace %zu from #%zu, timestamps %llu ns apart at most (#%zu)",
		       cpu, ours->n, theirs->n, at,
		       (unsigned long long)skew, where);
		if (skew > SKEW_REPORT_NS)
			log_skew(_metadata, cpu, ours, theirs, at, where);
	}
	/* hackbench switches a lot: a thousand at the very least */
	EXPECT_LE(1000u, total);
	/* a race of a few instructions: far fewer than 1 switch in 100 */
	TH_LOG("%zu switches whose state changed between ftrace's read and ours (a wakeup before 5.18, a reaping)",
	       racy);
	EXPECT_GE(total / 100, racy);
	/* hackbench's processes or threads exit: their last switches agree */
	TH_LOG("%zu last switches of dying tasks (X or Z), as ftrace's", dying);
	EXPECT_LT(0u, dying);
}

TEST_HARNESS_MAIN
