// SPDX-License-Identifier: GPL-2.0
/*
 * The optional stack event: with it on, every switch of a task other than
 * the idle task comes right after a STACK record of the same CPU, with the
 * same timestamp and the task going off-CPU, no deeper than stack_depth,
 * whose frames name kernel functions: a child sleeping in nanosleep shows
 * hrtimer_nanosleep or do_nanosleep below the scheduler, one blocked in a
 * pipe read shows pipe_read, once ksyms_stack_names() has trimmed the
 * scheduler's frames (and the raw stack does hold __schedule).  The names
 * come from /proc/kallsyms read here, and in the file `schedrec record -e
 * switch,exec,stack` writes, from the snapshot in its header.
 *
 * Off by default, and not in "all"; stack without switch writes stacks
 * alone; turning it on and off while recording loses no switch; the
 * stack_depth parameter bounds every record and refuses 0 and 33.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "ksyms.h"
#include "procfile.h"
#include "srecreader.h"
#include "taskstate.h"

#define DEPTH_PARAM	"/sys/module/schedrec/parameters/stack_depth"
#define DEPTH_DEFAULT	24
#define ROLE_ENV	"SCHEDREC_STACK_TEST_ROLE"
#define TRACE		"/tmp/stack_test.srec"

/*
 * Run by `schedrec record` in record_file_names_frames: sleep in
 * nanosleep a few times, then exit before the harness starts.
 */
static void __attribute__((constructor)) stack_test_role(void)
{
	struct timespec nap = { .tv_nsec = 3000000 };
	int i;

	if (!getenv(ROLE_ENV))
		return;
	for (i = 0; i < 5; i++)
		nanosleep(&nap, NULL);
	_exit(0);
}

/* One record as the ring held it, and where. */
struct srec_copy {
	unsigned int cpu;
	union {
		struct schedrec_header hdr;
		struct schedrec_switch sw;
		struct schedrec_task task;
		struct schedrec_stack st;
		unsigned char bytes[SCHEDREC_STACK_MAX_SIZE];
	} r;
};

struct stack_log {
	struct srec_copy *recs;
	size_t n, cap;
	uint64_t missing;	/* sequence numbers gone, or lost */
};

static int log_add(struct stack_log *log, unsigned int cpu,
		   const struct schedrec_header *hdr)
{
	struct srec_copy *c;

	if (log->n == log->cap) {
		size_t cap = log->cap ? 2 * log->cap : 4096;

		c = realloc(log->recs, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		log->recs = c;
		log->cap = cap;
	}
	c = &log->recs[log->n++];
	c->cpu = cpu;
	memcpy(c->r.bytes, hdr, hdr->size < sizeof(c->r) ? hdr->size :
							    sizeof(c->r));
	return 0;
}

/* Every CPU's ring, CPU after CPU, each in ring order. */
static int drain(struct stack_log *log)
{
	int nr_cpus = sr_nr_cpus(), cpu, ret = 0;

	for (cpu = 0; !ret && cpu < nr_cpus; cpu++) {
		const struct schedrec_header *rec;
		struct ringreader_seq seq;
		struct ringreader rr;

		ringreader_seq_init(&seq, 0);
		ret = ringreader_open(&rr, cpu);
		if (ret)
			return ret;
		ret = ringreader_begin(&rr) < 0 ? -EIO : 0;
		while (!ret && (ret = ringreader_next(&rr, &rec)) > 0) {
			ringreader_seq_account(&seq, rec, NULL);
			ret = log_add(log, cpu, rec);
		}
		ringreader_consume(&rr);
		ringreader_close(&rr);
		log->missing += seq.missing + seq.lost;
	}
	return ret;
}

/* The whole of a file such as /proc/kallsyms; NULL on failure. */
static char *slurp(const char *path, size_t *len)
{
	size_t size = 1 << 20, used = 0;
	char *buf = malloc(size), *bigger;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && buf) {
		if (size - used < 65536) {
			bigger = realloc(buf, 2 * size);
			if (!bigger)
				break;
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + used, size - used);
		if (n < 0)
			break;
		if (!n) {
			close(fd);
			*len = used;
			return buf;
		}
		used += n;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int write_depth(unsigned int depth)
{
	char value[16];

	snprintf(value, sizeof(value), "%u", depth);
	return procfile_write(DEPTH_PARAM, value);
}

static bool is_stack(const struct srec_copy *c)
{
	return c->r.hdr.type == SCHEDREC_EV_STACK;
}

/* The trimmed frame names of @st joined by ';', innermost first. */
static void join_names(const struct ksyms *ks,
		       const struct schedrec_stack *st, char *out, size_t size)
{
	const char *names[SCHEDREC_STACK_MAX_DEPTH];
	size_t i, n, used = 0;

	n = ksyms_stack_names(ks, st, names, ARRAY_SIZE(names));
	out[0] = '\0';
	for (i = 0; i < n && used < size; i++)
		used += snprintf(out + used, size - used, "%s%s",
				 i ? ";" : "", names[i]);
}

/* Whether the frame names of @st, trimmed, include @name. */
static bool has_frame(const struct ksyms *ks, const struct schedrec_stack *st,
		      const char *name)
{
	const char *names[SCHEDREC_STACK_MAX_DEPTH];
	size_t i, n;

	n = ksyms_stack_names(ks, st, names, ARRAY_SIZE(names));
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Whether the raw @st, untrimmed, has a frame in @name. */
static bool has_raw_frame(const struct ksyms *ks,
			  const struct schedrec_stack *st, const char *name)
{
	char buf[256];
	unsigned int i;

	for (i = 0; i < st->nr; i++) {
		ksyms_format(ks, st->ips[i], KSYMS_F_RETURN, buf, sizeof(buf));
		if (!strcmp(buf, name))
			return true;
	}
	return false;
}

/* Every frame of @st names a kernel function. */
static bool all_named(const struct ksyms *ks, const struct schedrec_stack *st)
{
	struct ksym sym;
	unsigned int i;

	for (i = 0; i < st->nr; i++)
		if (!ksyms_lookup(ks, st->ips[i] - 1, &sym, NULL))
			return false;
	return true;
}

FIXTURE(stack) {
	struct stack_log log;
	struct ksyms *ks;
	char *kallsyms;
	pid_t sleeper, reader;
	uint64_t wrote;		/* when we woke the reader */
};

static pid_t start_sleeper(void)
{
	struct timespec nap = { .tv_nsec = 3000000 };
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	for (i = 0; i < 5; i++)
		nanosleep(&nap, NULL);
	_exit(0);
}

static pid_t start_reader(int from)
{
	pid_t pid = fork();
	char byte;

	if (pid)
		return pid;
	_exit(read(from, &byte, 1) == 1 ? 0 : 1);
}

/*
 * @tid's switch-out asleep in S (its STACK record comes before it) is in
 * some ring; the rings are read, not drained.
 */
static bool sleep_in_rings(pid_t tid)
{
	int nr_cpus = sr_nr_cpus(), cpu;
	bool found = false;

	for (cpu = 0; !found && cpu < nr_cpus; cpu++) {
		const struct schedrec_header *rec;
		const struct schedrec_switch *sw;
		struct ringreader rr;

		if (ringreader_open(&rr, cpu))
			continue;
		if (ringreader_begin(&rr) >= 0)
			while (!found && ringreader_next(&rr, &rec) > 0) {
				sw = (const void *)rec;
				found = rec->type == SCHEDREC_EV_SWITCH &&
					sw->prev_tid == (uint32_t)tid &&
					!(rec->flags & SCHEDREC_F_PREEMPT) &&
					taskstate_letter(sw->prev_state,
							 false) == 'S';
			}
		ringreader_close(&rr);
	}
	return found;
}

/* Wait until @tid has been switched out asleep, as the rings say. */
static int wait_sleep_recorded(pid_t tid, int timeout_ms)
{
	int waited;

	for (waited = 0; waited < timeout_ms; waited++) {
		if (sleep_in_rings(tid))
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

FIXTURE_SETUP(stack)
{
	size_t len = 0;
	int go[2];

	memset(self, 0, sizeof(*self));
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(4096));
	ASSERT_EQ(0, write_depth(DEPTH_DEFAULT));
	self->kallsyms = slurp("/proc/kallsyms", &len);
	ASSERT_NE(NULL, self->kallsyms);
	self->ks = ksyms_parse(self->kallsyms, len);
	ASSERT_NE(NULL, self->ks);
	ASSERT_FALSE(ksyms_hidden(self->ks)) TH_LOG("kptr_restrict hides addresses");
	ASSERT_LT(1000u, ksyms_count(self->ks));

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, procfile_write("events", "switch waking stack"));
	ASSERT_EQ(0, sr_enable(true));
	self->sleeper = start_sleeper();
	ASSERT_LT(0, self->sleeper);
	self->reader = start_reader(go[0]);
	ASSERT_LT(0, self->reader);
	ASSERT_EQ(0, sr_wait_task_state(self->reader, 'S', 10000));
	/*
	 * /proc shows S from set_current_state(), before schedule() has
	 * switched the reader out: wait for the switch itself.
	 */
	ASSERT_EQ(0, wait_sleep_recorded(self->reader, 10000));
	self->wrote = sr_now_ns();
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, sr_wait_child_ok(self->reader));
	ASSERT_EQ(0, sr_wait_child_ok(self->sleeper));
	ASSERT_EQ(0, sr_enable(false));
	close(go[0]);
	close(go[1]);
	ASSERT_EQ(0, drain(&self->log));
}

FIXTURE_TEARDOWN(stack)
{
	free(self->log.recs);
	ksyms_free(self->ks);
	free(self->kallsyms);
	write_depth(DEPTH_DEFAULT);
	sr_reset();
}

/*
 * Each STACK record is whole, of a task that is not idle, no deeper than
 * stack_depth, and followed on its CPU by the switch of that task at the
 * same time; each switch of a task that is not idle has its stack.
 */
TEST_F(stack, records_before_their_switch)
{
	const struct stack_log *log = &self->log;
	size_t i, stacks = 0, switches = 0;

	EXPECT_EQ(0u, log->missing);
	for (i = 0; i < log->n; i++) {
		const struct srec_copy *c = &log->recs[i];
		const struct srec_copy *next = i + 1 < log->n ? c + 1 : NULL;
		const struct srec_copy *prev = i ? c - 1 : NULL;

		if (is_stack(c)) {
			const struct schedrec_stack *st = &c->r.st;

			stacks++;
			EXPECT_NE(0u, st->tid);
			EXPECT_GE(DEPTH_DEFAULT, st->nr);
			EXPECT_EQ(SCHEDREC_STACK_SIZE(st->nr), st->hdr.size);
			EXPECT_EQ(0, st->hdr.flags);
			EXPECT_EQ(0, st->__pad);
			if (!(st->nr & 1))
				EXPECT_EQ(0u, st->ips[st->nr]);
			ASSERT_NE(NULL, next) TH_LOG("a stack ends the log");
			EXPECT_EQ(c->cpu, next->cpu);
			EXPECT_EQ(SCHEDREC_EV_SWITCH, next->r.hdr.type);
			EXPECT_EQ(st->hdr.ts, next->r.hdr.ts);
			EXPECT_EQ(st->tid, next->r.sw.prev_tid);
			EXPECT_EQ(st->hdr.seq + 1, next->r.hdr.seq);
		} else if (c->r.hdr.type == SCHEDREC_EV_SWITCH &&
			   c->r.sw.prev_tid) {
			switches++;
			ASSERT_NE(NULL, prev);
			EXPECT_TRUE(is_stack(prev) && prev->cpu == c->cpu &&
				    prev->r.st.tid == c->r.sw.prev_tid)
				TH_LOG("switch out of %u on cpu%u has no stack",
				       c->r.sw.prev_tid, c->cpu);
		}
	}
	EXPECT_LT(0u, stacks);
	EXPECT_EQ(stacks, switches);
}

/*
 * The sleeper's stacks name the nanosleep path below the scheduler: every
 * one of a switch-out asleep (S, not preempted) does, as it sleeps nowhere
 * else.  (A nap whose timer fires before the task reaches schedule(), as a
 * stalled vCPU allows, has no switch: so not five of them, but at least one.)
 */
TEST_F(stack, nanosleep_names_hrtimer_nanosleep)
{
	const struct stack_log *log = &self->log;
	char names[2048] = "";
	size_t i, found = 0, asleep = 0;

	for (i = 0; i + 1 < log->n; i++) {
		const struct schedrec_stack *st = &log->recs[i].r.st;
		const struct schedrec_switch *sw = &log->recs[i + 1].r.sw;
		const char *first[1];

		if (!is_stack(&log->recs[i]) ||
		    st->tid != (uint32_t)self->sleeper ||
		    sw->hdr.type != SCHEDREC_EV_SWITCH ||
		    taskstate_letter(sw->prev_state,
				     sw->hdr.flags & SCHEDREC_F_PREEMPT) != 'S')
			continue;
		asleep++;
		join_names(self->ks, st, names, sizeof(names));
		if (!has_frame(self->ks, st, "hrtimer_nanosleep") &&
		    !has_frame(self->ks, st, "do_nanosleep")) {
			TH_LOG("asleep elsewhere: %s", names);
			continue;
		}
		found++;
		EXPECT_LE(2u, st->nr);
		EXPECT_GE(DEPTH_DEFAULT, st->nr);
		EXPECT_TRUE(all_named(self->ks, st)) TH_LOG("%s", names);
		/* the scheduler's own frames were there, and are trimmed */
		EXPECT_TRUE(has_raw_frame(self->ks, st, "__schedule"));
		ASSERT_EQ(1u, ksyms_stack_names(self->ks, st, first, 1));
		EXPECT_STRNE("__schedule", first[0]) TH_LOG("%s", names);
		EXPECT_STRNE("schedule", first[0]) TH_LOG("%s", names);
	}
	EXPECT_LE(1u, found);
	EXPECT_EQ(asleep, found) TH_LOG("%zu of the sleeper's %zu sleeps",
					found, asleep);
	TH_LOG("nanosleep: %s", names);
}

/* Before our write, the reader was blocked in pipe_read (anon_pipe_read). */
TEST_F(stack, pipe_read_names_pipe_read)
{
	const struct stack_log *log = &self->log;
	const struct schedrec_stack *blocked = NULL;
	char names[2048] = "";
	size_t i;

	for (i = 0; i < log->n; i++) {
		const struct schedrec_stack *st = &log->recs[i].r.st;

		if (is_stack(&log->recs[i]) &&
		    st->tid == (uint32_t)self->reader &&
		    st->hdr.ts < self->wrote &&
		    (!blocked || st->hdr.ts > blocked->hdr.ts))
			blocked = st;
	}
	ASSERT_NE(NULL, blocked);
	join_names(self->ks, blocked, names, sizeof(names));
	EXPECT_LE(2u, blocked->nr);
	/* anon_pipe_read from 6.16 on */
	EXPECT_TRUE(has_frame(self->ks, blocked, "pipe_read") ||
		    has_frame(self->ks, blocked, "anon_pipe_read"))
		TH_LOG("%s", names);
	EXPECT_TRUE(all_named(self->ks, blocked)) TH_LOG("%s", names);
	TH_LOG("pipe read: %s", names);
}

FIXTURE(bare) {
	struct stack_log log;
};

FIXTURE_SETUP(bare)
{
	memset(self, 0, sizeof(*self));
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
}

FIXTURE_TEARDOWN(bare)
{
	free(self->log.recs);
	write_depth(DEPTH_DEFAULT);
	sr_reset();
}

static size_t count_type(const struct stack_log *log, unsigned int type)
{
	size_t i, n = 0;

	for (i = 0; i < log->n; i++)
		n += log->recs[i].r.hdr.type == type;
	return n;
}

/* A module just loaded, and "all", record no stack. */
TEST_F(bare, off_by_default)
{
	uint32_t mask;

	ASSERT_EQ(0, sr_module_reload(NULL));
	ASSERT_EQ(0, procfile_events_mask(&mask));
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK, mask);
	EXPECT_EQ(0u, mask & (1u << SCHEDREC_EV_STACK));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(50, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, drain(&self->log));
	EXPECT_LT(100u, count_type(&self->log, SCHEDREC_EV_SWITCH));
	EXPECT_EQ(0u, count_type(&self->log, SCHEDREC_EV_STACK));

	ASSERT_EQ(0, procfile_write("events", "all"));
	ASSERT_EQ(0, procfile_events_mask(&mask));
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK, mask);
}

/*
 * stack without switch: stacks alone.  Both pingpong threads on CPU 0:
 * neither can run while the other does, so each blocks in every round,
 * 200 switch-outs with a stack at least.  (Unpinned, a thread woken
 * before it has left the CPU does not switch: 93 of 50 rounds on the
 * debug kernel.)
 */
TEST_F(bare, stack_without_switch)
{
	ASSERT_EQ(0, procfile_write("events", "stack"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(100, 0, 0));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, drain(&self->log));
	EXPECT_EQ(0u, self->log.missing);
	EXPECT_LT(100u, count_type(&self->log, SCHEDREC_EV_STACK));
	EXPECT_EQ(0u, count_type(&self->log, SCHEDREC_EV_SWITCH));
}

/* On and off while recording: no switch lost, each stack before one. */
TEST_F(bare, toggled_while_recording)
{
	size_t i;

	ASSERT_EQ(0, procfile_write("events", "switch"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(30, -1, -1));
	ASSERT_EQ(0, procfile_write("events", "+stack"));
	ASSERT_EQ(0, sr_pingpong(30, -1, -1));
	ASSERT_EQ(0, procfile_write("events", "-stack"));
	ASSERT_EQ(0, sr_pingpong(30, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, drain(&self->log));
	EXPECT_EQ(0u, self->log.missing);
	EXPECT_LT(60u, count_type(&self->log, SCHEDREC_EV_STACK));
	for (i = 0; i < self->log.n; i++) {
		const struct srec_copy *c = &self->log.recs[i];

		if (!is_stack(c))
			continue;
		ASSERT_GT(self->log.n, i + 1);
		EXPECT_EQ(SCHEDREC_EV_SWITCH, c[1].r.hdr.type);
		EXPECT_EQ(c->r.hdr.ts, c[1].r.hdr.ts);
	}
}

/* stack_depth bounds every record; 1..32 only. */
TEST_F(bare, depth_parameter)
{
	static const char *const bad[] = { "0", "33", "-1", "x", "99999" };
	uint64_t depth;
	size_t i, stacks = 0;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, procfile_write(DEPTH_PARAM, bad[i]))
			TH_LOG("bad value %zu", i);
	ASSERT_EQ(0, procfile_read_u64(DEPTH_PARAM, &depth));
	EXPECT_EQ((uint64_t)DEPTH_DEFAULT, depth);
	ASSERT_EQ(0, write_depth(4));
	ASSERT_EQ(0, procfile_write("events", "switch stack"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(50, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, drain(&self->log));
	for (i = 0; i < self->log.n; i++) {
		const struct srec_copy *c = &self->log.recs[i];

		if (!is_stack(c))
			continue;
		stacks++;
		EXPECT_GE(4u, c->r.st.nr);
		EXPECT_EQ(SCHEDREC_STACK_SIZE(c->r.st.nr), c->r.hdr.size);
	}
	EXPECT_LT(100u, stacks);
	ASSERT_EQ(0, write_depth(SCHEDREC_STACK_MAX_DEPTH));
	ASSERT_EQ(0, procfile_read_u64(DEPTH_PARAM, &depth));
	EXPECT_EQ((uint64_t)SCHEDREC_STACK_MAX_DEPTH, depth);
}

/* What the trace says about the child's stacks, named from its header. */
struct file_stacks {
	struct ksyms *ks;
	char exe_comm[SCHEDREC_COMM_LEN + 1];
	uint32_t child;		/* the tid that exec'd us, 0 until seen */
	size_t stacks;
	size_t asleep;		/* the child's switch-outs asleep (S) */
	size_t nanosleeps;	/* of them, those whose stack names nanosleep */
	size_t bad_follow;	/* stacks not followed by their switch */
	uint32_t pending[64];	/* per CPU: tid of a stack waiting for its
				 * switch, the CPU's next record; 0 none
				 */
	bool pending_nap[64];	/* that stack names the nanosleep path */
	char names[2048];
};

static void file_record(const struct srec_record *rec, void *arg)
{
	struct file_stacks *f = arg;
	const struct schedrec_header *hdr = rec->hdr;
	const struct schedrec_stack *st = (const void *)hdr;
	const struct schedrec_switch *sw = (const void *)hdr;
	const struct schedrec_task *t = (const void *)hdr;
	char comm[SCHEDREC_COMM_LEN + 1];

	/* a stack is its CPU's record just before the switch */
	if (rec->cpu < 64 && f->pending[rec->cpu] &&
	    (hdr->type != SCHEDREC_EV_SWITCH ||
	     sw->prev_tid != f->pending[rec->cpu]))
		f->bad_follow++;
	else if (rec->cpu < 64 && f->pending[rec->cpu] &&
		 sw->prev_tid == f->child &&
		 taskstate_letter(sw->prev_state,
				  hdr->flags & SCHEDREC_F_PREEMPT) == 'S') {
		f->asleep++;
		f->nanosleeps += f->pending_nap[rec->cpu];
	}
	if (rec->cpu < 64)
		f->pending[rec->cpu] = 0;
	if (hdr->type == SCHEDREC_EV_EXEC) {
		sr_comm(comm, t->comm);
		if (!strcmp(comm, f->exe_comm))
			f->child = t->tid;
	}
	if (hdr->type != SCHEDREC_EV_STACK)
		return;
	f->stacks++;
	if (rec->cpu >= 64)
		return;
	f->pending[rec->cpu] = st->tid;
	f->pending_nap[rec->cpu] = false;
	if (!f->child || st->tid != f->child)
		return;
	if (has_frame(f->ks, st, "hrtimer_nanosleep") ||
	    has_frame(f->ks, st, "do_nanosleep")) {
		f->pending_nap[rec->cpu] = true;
		join_names(f->ks, st, f->names, sizeof(f->names));
	}
}

/* `schedrec record -e switch,exec,stack`: the file names its stacks. */
TEST_F(bare, record_file_names_frames)
{
	char exe[256], *argv[] = {
		"schedrec", "record", "-q", "-e", "switch,exec,stack",
		"-o", TRACE, "--", exe, NULL,
	};
	struct file_stacks *f = calloc(1, sizeof(*f));
	const struct srecreader_info *info;
	struct srec_record rec;
	struct srecreader *r;
	char err[256];
	int status, n;
	pid_t pid;

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, sr_self_exe(exe, sizeof(exe)));
	snprintf(f->exe_comm, sizeof(f->exe_comm), "%.15s",
		 strrchr(exe, '/') + 1);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		setenv(ROLE_ENV, "sleeper", 1);
		execv(sr_schedrec_bin(), argv);
		_exit(126);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	r = srecreader_open(TRACE, NULL, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	info = srecreader_info(r);
	EXPECT_NE(0u, info->file.event_mask & (1u << SCHEDREC_EV_STACK));
	ASSERT_NE(NULL, info->kallsyms);
	EXPECT_EQ(0u, info->kallsyms_flags);
	f->ks = ksyms_parse(info->kallsyms, info->kallsyms_len);
	ASSERT_NE(NULL, f->ks);
	EXPECT_LT(1000u, ksyms_count(f->ks));
	while ((n = srecreader_next_batch(r, &rec, 1)) > 0)
		file_record(&rec, f);
	EXPECT_EQ(0, n);
	EXPECT_NE(0u, f->child) TH_LOG("no exec of %s", f->exe_comm);
	EXPECT_LT(0u, f->stacks);
	EXPECT_EQ(0u, f->bad_follow);
	/* every sleep of the child names nanosleep (see the test above) */
	EXPECT_LE(1u, f->nanosleeps) TH_LOG("last: %s", f->names);
	EXPECT_EQ(f->asleep, f->nanosleeps) TH_LOG("last: %s", f->names);
	TH_LOG("from the file: %s", f->names);
	ksyms_free(f->ks);
	srecreader_close(r);
	unlink(TRACE);
	free(f);
}

TEST_HARNESS_MAIN
