// SPDX-License-Identifier: GPL-2.0
/*
 * Every event type is recorded, with the right fields.
 *
 * The fixture records everything while a child we control goes through a
 * known life: fork (fork, wakeup_new), pin to CPU 0 then CPU 1 (migrate
 * 0 -> 1), a timer sleep (waking from interrupt context), a block on a pipe
 * that we end by writing to it (switch out in S, waking by us, wakeup,
 * switch in), exec of this very binary (exec, and the rename exec does),
 * a rename with prctl(PR_SET_NAME) (rename), and exit.  Each test then
 * looks for its records by the child's tid and checks their fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"
#include "taskstate.h"

#define CHILD_ENV	"SCHEDREC_EVENTS_TEST_CHILD"
#define CHILD_NAME	"srec-renamed"

static const unsigned int record_sizes[] = SCHEDREC_RECORD_SIZES;

/*
 * The child after exec: the same binary, told by its environment to rename
 * itself and exit before the test harness starts.
 */
static void __attribute__((constructor)) events_test_exec_child(void)
{
	if (!getenv(CHILD_ENV))
		return;
	_exit(prctl(PR_SET_NAME, CHILD_NAME) ? 10 : 0);
}

FIXTURE(scenario) {
	pid_t parent, child;
	char parent_comm[SCHEDREC_COMM_LEN + 1];
	char exe_comm[SCHEDREC_COMM_LEN + 1];
	char exe[PATH_MAX];
	bool two_cpus;		/* the child moved from CPU 0 to CPU 1 */
	uint64_t start, end;	/* around the whole recording */
	uint64_t blocked;	/* the child was seen asleep on the pipe */
	uint64_t go_before, go_after;	/* around our write that woke it */
	int nr_cpus;
	struct ringreader_seq *seqs;
	struct sr_log log;
};

/* The child before exec: pins itself to CPU 0 then 1 if it can. */
static void scenario_child(char *exe, bool two_cpus, int ready, int go)
{
	struct timespec nap = { .tv_nsec = 2000000 };
	char child_env[] = CHILD_ENV "=1";
	char *argv[2], *envp[2];
	char byte = 'r';

	argv[0] = exe;
	argv[1] = NULL;
	envp[0] = child_env;
	envp[1] = NULL;
	if (two_cpus && (sr_pin_self(0) || sr_pin_self(1)))
		_exit(21);
	if (nanosleep(&nap, NULL))
		_exit(22);
	if (write(ready, &byte, 1) != 1 || read(go, &byte, 1) != 1)
		_exit(23);
	execve(exe, argv, envp);
	_exit(24);
}

/* The child's last switch-out, the one with a dead prev_state, is logged. */
static bool dead_switch_logged(const struct sr_log *log, pid_t child)
{
	size_t i;

	for (i = 0; i < log->n; i++)
		if (log->ev[i].r.hdr.type == SCHEDREC_EV_SWITCH &&
		    log->ev[i].r.sw.prev_tid == (uint32_t)child &&
		    taskstate_is_dead(log->ev[i].r.sw.prev_state))
			return true;
	return false;
}

/* Drain the rings into @log until it holds that switch of @child. */
static int drain_until_dead_switch(struct sr_log *log,
				   struct ringreader_seq *seqs, int nr_cpus,
				   pid_t child, int timeout_ms)
{
	int waited, ret;

	for (waited = 0; waited < timeout_ms; waited++) {
		ret = sr_drain_all(log, seqs, nr_cpus);
		if (ret)
			return ret;
		if (dead_switch_logged(log, child))
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

FIXTURE_SETUP(scenario)
{
	int ready[2], go[2], cpu;
	struct procfile_stats stats;
	char byte = 'g';

	self->parent = getpid();
	ASSERT_EQ(self->parent, gettid());
	ASSERT_EQ(0, prctl(PR_GET_NAME, self->parent_comm));
	ASSERT_EQ(0, sr_self_exe(self->exe, sizeof(self->exe)));
	snprintf(self->exe_comm, sizeof(self->exe_comm), "%.15s",
		 strrchr(self->exe, '/') + 1);
	self->two_cpus = sr_nr_online_cpus() >= 2;

	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	self->nr_cpus = sr_nr_cpus();
	ASSERT_LT(0, self->nr_cpus);
	self->seqs = calloc(self->nr_cpus, sizeof(*self->seqs));
	ASSERT_NE(NULL, self->seqs);
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ringreader_seq_init(&self->seqs[cpu], 0);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));

	self->start = sr_now_ns();
	ASSERT_EQ(0, sr_enable(true));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child)
		scenario_child(self->exe, self->two_cpus, ready[1], go[0]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	/* the child's only sleep from now on is the read of go */
	ASSERT_EQ(0, sr_wait_task_state(self->child, 'S', 10000));
	self->blocked = sr_now_ns();
	self->go_before = sr_now_ns();
	ASSERT_EQ(1, write(go[1], &byte, 1));
	self->go_after = sr_now_ns();
	ASSERT_EQ(0, sr_wait_child_ok(self->child));
	/*
	 * A child is reaped once it has exited, which can be before its
	 * CPU switches away from it for the last time: drain until that
	 * switch is in the log.
	 */
	ASSERT_EQ(0, drain_until_dead_switch(&self->log, self->seqs,
					     self->nr_cpus, self->child,
					     10000));
	ASSERT_EQ(0, sr_enable(false));
	self->end = sr_now_ns();

	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	ASSERT_EQ(0, sr_drain_all(&self->log, self->seqs, self->nr_cpus));
	ASSERT_EQ(0, procfile_stats_read(&stats));
	for (cpu = 0; cpu < (int)stats.nr_cpus; cpu++)
		EXPECT_EQ(0u, stats.cpu[cpu].lost) TH_LOG("cpu%d", cpu);
	procfile_stats_free(&stats);
}

FIXTURE_TEARDOWN(scenario)
{
	sr_log_free(&self->log);
	free(self->seqs);
	sr_reset();
}

/* The @nth (from 0) record of @type about @tid, in the order of the log. */
static const struct sr_event *find_nth(const struct sr_log *log,
				       unsigned int type, pid_t tid,
				       unsigned int nth)
{
	size_t i;

	for (i = 0; i < log->n; i++)
		if (log->ev[i].r.hdr.type == type &&
		    sr_record_tid(&log->ev[i].r) == (uint32_t)tid && !nth--)
			return &log->ev[i];
	return NULL;
}

static const struct sr_event *find(const struct sr_log *log,
				   unsigned int type, pid_t tid)
{
	return find_nth(log, type, tid, 0);
}

static bool comm_is(const char *comm, const char *expected)
{
	char copy[SCHEDREC_COMM_LEN + 1];

	sr_comm(copy, comm);
	return !strcmp(copy, expected);
}

/* Every record is well formed, in time, and no sequence number is missing. */
TEST_F(scenario, records_valid)
{
	unsigned int seen[SCHEDREC_REC_MAX + 1] = { 0 };
	uint64_t *last_ts;
	size_t i;
	int cpu;

	last_ts = calloc(self->nr_cpus, sizeof(*last_ts));
	ASSERT_NE(NULL, last_ts);
	ASSERT_LT(0u, self->log.n);
	for (i = 0; i < self->log.n; i++) {
		const struct sr_event *ev = &self->log.ev[i];
		const struct schedrec_header *hdr = &ev->r.hdr;

		ASSERT_TRUE(SCHEDREC_EV_IS_EVENT(hdr->type))
			TH_LOG("record of type %u", hdr->type);
		seen[hdr->type]++;
		EXPECT_EQ(record_sizes[hdr->type], hdr->size);
		EXPECT_EQ(0, hdr->flags & ~(SCHEDREC_F_PREEMPT |
					    SCHEDREC_F_IRQ));
		if (hdr->type != SCHEDREC_EV_SWITCH)
			EXPECT_EQ(0, hdr->flags & SCHEDREC_F_PREEMPT);
		EXPECT_LE(self->start, hdr->ts);
		EXPECT_GE(self->end, hdr->ts);
		EXPECT_LE(last_ts[ev->cpu], hdr->ts)
			TH_LOG("cpu%u seq %llu goes back in time", ev->cpu,
			       (unsigned long long)ev->seq);
		last_ts[ev->cpu] = hdr->ts;
	}
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(0u, self->seqs[cpu].missing) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(0u, self->seqs[cpu].lost) TH_LOG("cpu%d", cpu);
	}
	/* every event of "all"; not stack, which "all" leaves out */
	for (i = SCHEDREC_EV_FIRST; i <= SCHEDREC_EV_LAST; i++) {
		if (SCHEDREC_EV_ALL_MASK & (1u << i)) {
			EXPECT_LT(0u, seen[i]) TH_LOG("no record of type %zu",
						      i);
		} else {
			EXPECT_EQ(0u, seen[i]) TH_LOG("%u records of type %zu",
						      seen[i], i);
		}
	}
	free(last_ts);
}

TEST_F(scenario, fork)
{
	const struct sr_event *ev;

	ev = find(&self->log, SCHEDREC_EV_FORK, self->child);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ((uint32_t)self->child, ev->r.task.tgid);
	EXPECT_EQ((uint32_t)self->parent, ev->r.task.other_tid);
	EXPECT_TRUE(comm_is(ev->r.task.comm, self->parent_comm));
	/* exactly one */
	EXPECT_EQ(NULL, find_nth(&self->log, SCHEDREC_EV_FORK, self->child,
				 1));
}

TEST_F(scenario, wakeup_new)
{
	const struct sr_event *fork, *ev;

	fork = find(&self->log, SCHEDREC_EV_FORK, self->child);
	ev = find(&self->log, SCHEDREC_EV_WAKEUP_NEW, self->child);
	ASSERT_NE(NULL, fork);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ((uint32_t)self->parent, ev->r.wake.waker_tid);
	EXPECT_EQ(0, ev->r.hdr.flags & SCHEDREC_F_IRQ);
	EXPECT_GT((uint32_t)self->nr_cpus, ev->r.wake.target_cpu);
	EXPECT_LE(fork->r.hdr.ts, ev->r.hdr.ts);
}

TEST_F(scenario, migrate)
{
	const struct sr_event *ev;
	unsigned int nth;
	bool found = false;

	if (!self->two_cpus)
		SKIP(return, "one CPU online: no migration to force");
	for (nth = 0; !found; nth++) {
		ev = find_nth(&self->log, SCHEDREC_EV_MIGRATE, self->child,
			      nth);
		if (!ev)
			break;
		EXPECT_NE(ev->r.migrate.orig_cpu, ev->r.migrate.dest_cpu);
		found = ev->r.migrate.orig_cpu == 0 &&
			ev->r.migrate.dest_cpu == 1;
	}
	EXPECT_TRUE(found) TH_LOG("no migration of %d from CPU 0 to 1 in %u",
				  self->child, nth);
}

/* Our write to the pipe woke the child: we are its waker. */
TEST_F(scenario, waking_by_pipe)
{
	const struct sr_event *ev;
	unsigned int nth;
	bool found = false;

	for (nth = 0; !found; nth++) {
		ev = find_nth(&self->log, SCHEDREC_EV_WAKING, self->child, nth);
		if (!ev)
			break;
		found = ev->r.hdr.ts >= self->go_before &&
			ev->r.hdr.ts <= self->go_after;
	}
	ASSERT_TRUE(found) TH_LOG("no waking of %d during our write",
				  self->child);
	EXPECT_EQ((uint32_t)self->parent, ev->r.wake.waker_tid);
	EXPECT_EQ(0, ev->r.hdr.flags & SCHEDREC_F_IRQ);
	if (self->two_cpus)
		EXPECT_EQ(1u, ev->r.wake.target_cpu);
}

/* sched_wakeup follows the waking, where the child will run. */
TEST_F(scenario, wakeup)
{
	const struct sr_event *ev;
	unsigned int nth;
	bool found = false;

	for (nth = 0; !found; nth++) {
		ev = find_nth(&self->log, SCHEDREC_EV_WAKEUP, self->child, nth);
		if (!ev)
			break;
		found = ev->r.hdr.ts >= self->go_before;
	}
	ASSERT_TRUE(found) TH_LOG("no wakeup of %d after our write",
				  self->child);
	if (self->two_cpus)
		EXPECT_EQ(1u, ev->r.wake.target_cpu);
}

/* The 2 ms nanosleep ends in the timer interrupt: the IRQ flag says so. */
TEST_F(scenario, waking_from_timer)
{
	const struct sr_event *ev;
	unsigned int nth;
	bool found = false;

	for (nth = 0; !found; nth++) {
		ev = find_nth(&self->log, SCHEDREC_EV_WAKING, self->child, nth);
		if (!ev)
			break;
		found = ev->r.hdr.ts < self->blocked &&
			(ev->r.hdr.flags & SCHEDREC_F_IRQ);
	}
	EXPECT_TRUE(found) TH_LOG("no waking of %d from interrupt context",
				  self->child);
}

/* The child switched out asleep on the pipe, and back in after our write. */
TEST_F(scenario, switch_out_and_in)
{
	const struct sr_event *ev, *out = NULL, *in = NULL;
	size_t i;

	for (i = 0; i < self->log.n; i++) {
		ev = &self->log.ev[i];
		if (ev->r.hdr.type != SCHEDREC_EV_SWITCH ||
		    ev->r.hdr.ts > self->go_before)
			continue;
		if (ev->r.sw.prev_tid == (uint32_t)self->child)
			out = ev;	/* the last one before the write */
	}
	ASSERT_NE(NULL, out) TH_LOG("%d never switched out", self->child);
	EXPECT_EQ('S', taskstate_letter(out->r.sw.prev_state,
					out->r.hdr.flags & SCHEDREC_F_PREEMPT))
		TH_LOG("prev_state 0x%x flags 0x%x", out->r.sw.prev_state,
		       out->r.hdr.flags);
	EXPECT_EQ(0, out->r.hdr.flags & SCHEDREC_F_PREEMPT);
	EXPECT_NE(out->r.sw.prev_tid, out->r.sw.next_tid);
	if (self->two_cpus)
		EXPECT_EQ(1u, out->cpu);

	for (i = 0; i < self->log.n && !in; i++) {
		ev = &self->log.ev[i];
		if (ev->r.hdr.type == SCHEDREC_EV_SWITCH &&
		    ev->r.sw.next_tid == (uint32_t)self->child &&
		    ev->r.hdr.ts >= self->go_before)
			in = ev;
	}
	ASSERT_NE(NULL, in) TH_LOG("%d never switched back in", self->child);
	if (self->two_cpus)
		EXPECT_EQ(1u, in->cpu);
}

/* The very last switch of the child is that of a dead task. */
TEST_F(scenario, switch_out_dead)
{
	const struct sr_event *ev, *last = NULL;
	const struct sr_event *exit_ev;
	char letter;
	size_t i;

	for (i = 0; i < self->log.n; i++) {
		ev = &self->log.ev[i];
		if (ev->r.hdr.type == SCHEDREC_EV_SWITCH &&
		    ev->r.sw.prev_tid == (uint32_t)self->child &&
		    (!last || ev->r.hdr.ts > last->r.hdr.ts))
			last = ev;
	}
	exit_ev = find(&self->log, SCHEDREC_EV_EXIT, self->child);
	ASSERT_NE(NULL, last);
	ASSERT_NE(NULL, exit_ev);
	EXPECT_TRUE(taskstate_is_dead(last->r.sw.prev_state))
		TH_LOG("last prev_state 0x%x", last->r.sw.prev_state);
	/* Z, or X if we reaped it before its last switch (as ftrace says) */
	letter = taskstate_letter(last->r.sw.prev_state, false);
	EXPECT_TRUE(letter == 'Z' || letter == 'X') TH_LOG("%c", letter);
	EXPECT_LE(exit_ev->r.hdr.ts, last->r.hdr.ts);
}

TEST_F(scenario, exec)
{
	const struct sr_event *ev, *wakeup;
	char comm[SCHEDREC_COMM_LEN + 1];

	ev = find(&self->log, SCHEDREC_EV_EXEC, self->child);
	wakeup = find(&self->log, SCHEDREC_EV_WAKEUP_NEW, self->child);
	ASSERT_NE(NULL, ev);
	ASSERT_NE(NULL, wakeup);
	EXPECT_EQ((uint32_t)self->child, ev->r.task.tgid);
	EXPECT_EQ((uint32_t)self->child, ev->r.task.other_tid);
	sr_comm(comm, ev->r.task.comm);
	EXPECT_STREQ(self->exe_comm, comm);
	EXPECT_LE(self->go_before, ev->r.hdr.ts);
	EXPECT_LE(wakeup->r.hdr.ts, ev->r.hdr.ts);
	if (self->two_cpus)
		EXPECT_EQ(1u, ev->cpu);
}

/* prctl(PR_SET_NAME) after exec; exec itself renames too, first. */
TEST_F(scenario, rename)
{
	const struct sr_event *ev, *exec, *by_exec = NULL;
	unsigned int nth;

	exec = find(&self->log, SCHEDREC_EV_EXEC, self->child);
	ASSERT_NE(NULL, exec);
	for (nth = 0; (ev = find_nth(&self->log, SCHEDREC_EV_RENAME,
				     self->child, nth)); nth++) {
		if (comm_is(ev->r.task.comm, self->exe_comm))
			by_exec = ev;
		if (comm_is(ev->r.task.comm, CHILD_NAME))
			break;
	}
	ASSERT_NE(NULL, ev) TH_LOG("no rename of %d to " CHILD_NAME,
				   self->child);
	EXPECT_EQ((uint32_t)self->child, ev->r.task.tgid);
	EXPECT_EQ(0u, ev->r.task.other_tid);
	EXPECT_LE(exec->r.hdr.ts, ev->r.hdr.ts);
	ASSERT_NE(NULL, by_exec) TH_LOG("exec did not rename %d", self->child);
	EXPECT_LE(by_exec->r.hdr.ts, exec->r.hdr.ts);
}

TEST_F(scenario, exit)
{
	const struct sr_event *ev, *rename;
	unsigned int nth;

	ev = find(&self->log, SCHEDREC_EV_EXIT, self->child);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ((uint32_t)self->child, ev->r.task.tgid);
	EXPECT_EQ(0u, ev->r.task.other_tid);
	EXPECT_TRUE(comm_is(ev->r.task.comm, CHILD_NAME));
	for (nth = 0; (rename = find_nth(&self->log, SCHEDREC_EV_RENAME,
					 self->child, nth)); nth++)
		EXPECT_LE(rename->r.hdr.ts, ev->r.hdr.ts);
	EXPECT_EQ(NULL, find_nth(&self->log, SCHEDREC_EV_EXIT, self->child,
				 1));
}

FIXTURE(recorder) {
	struct sr_log log;
};

FIXTURE_SETUP(recorder)
{
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
}

FIXTURE_TEARDOWN(recorder)
{
	sr_log_free(&self->log);
	sr_reset();
}

/* Only the events of the mask are recorded. */
TEST_F(recorder, mask_filters_records)
{
	size_t i, forks = 0, others = 0;

	ASSERT_EQ(0, procfile_write("events", "fork exit"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(20, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, sr_drain_all(&self->log, NULL, sr_nr_cpus()));
	for (i = 0; i < self->log.n; i++) {
		if (self->log.ev[i].r.hdr.type == SCHEDREC_EV_FORK)
			forks++;
		else if (self->log.ev[i].r.hdr.type != SCHEDREC_EV_EXIT)
			others++;
	}
	EXPECT_LE(1u, forks);
	EXPECT_EQ(0u, others);
}

TEST_HARNESS_MAIN
