// SPDX-License-Identifier: GPL-2.0
/*
 * SCHEDREC_F_IRQ says "interrupt context" exactly when it was one.
 *
 * The test module schedrec_ctxtest.ko (tests/kmod/ctxmod) wakes a child of
 * ours, asleep on a pipe, from the context we ask for: our task context,
 * our task context with bottom halves disabled, a softirq, a hard
 * interrupt.  It also has us preempted once, with bottom halves disabled
 * where the kernel allows that (PREEMPT_RT).  Each command's records are
 * found by the time around its write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

#define CTX_MODULE_PATH	"/lib/schedrec_ctxtest.ko"
#define CTX_PROC	"/proc/schedrec_ctxtest"

enum ctx_cmd { CMD_TASK, CMD_BH, CMD_SOFTIRQ, CMD_HARDIRQ, CMD_PREEMPT,
	       NR_CMDS };

static const char *const cmd_names[NR_CMDS] = {
	"task", "bh", "softirq", "hardirq", "preempt",
};

FIXTURE(ctx) {
	pid_t self, child;
	int pipe_fd[2];
	uint64_t before[NR_CMDS], after[NR_CMDS];
	int nr_cpus;
	struct ringreader_seq *seqs;
	struct sr_log log;
};

/* Load the test module unless it is loaded already. */
static int ctx_module_ensure(void)
{
	const char *path = getenv("SCHEDREC_CTXTEST_KO");
	int ret = sr_load_ko(path ? path : CTX_MODULE_PATH, NULL);

	return ret == -EEXIST ? 0 : ret;
}

static int ctx_command(const char *name, pid_t tid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%s %d\n", name, (int)tid);
	return sr_write_text(CTX_PROC, buf);
}

FIXTURE_SETUP(ctx)
{
	enum ctx_cmd c;
	int cpu, ret;
	char byte;

	self->self = getpid();
	ASSERT_EQ(self->self, gettid());
	/* "preempt" wants us on one CPU */
	ASSERT_EQ(0, sr_pin_self(0));
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, ctx_module_ensure()) TH_LOG("cannot load %s",
						 CTX_MODULE_PATH);
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	ASSERT_EQ(0, procfile_write("events", "switch waking stack"));
	self->nr_cpus = sr_nr_cpus();
	ASSERT_LT(0, self->nr_cpus);
	self->seqs = calloc(self->nr_cpus, sizeof(*self->seqs));
	ASSERT_NE(NULL, self->seqs);
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ringreader_seq_init(&self->seqs[cpu], 0);
	ASSERT_EQ(0, pipe(self->pipe_fd));
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child)
		/* a wakeup with nothing to read puts it back to sleep */
		_exit(read(self->pipe_fd[0], &byte, 1) == 1 ? 0 : 1);

	ASSERT_EQ(0, sr_enable(true));
	for (c = 0; c < NR_CMDS; c++) {
		/* asleep, or the module's wakeup would find it running */
		ASSERT_EQ(0, sr_wait_task_state(self->child, 'S', 10000));
		self->before[c] = sr_now_ns();
		ret = ctx_command(cmd_names[c], self->child);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", cmd_names[c],
					 strerror(-ret));
		self->after[c] = sr_now_ns();
	}
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_EQ(0, sr_drain_all(&self->log, self->seqs, self->nr_cpus));
	/* every record the commands made is in the log */
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		ASSERT_EQ(0u, self->seqs[cpu].lost + self->seqs[cpu].missing)
			TH_LOG("cpu%d", cpu);
}

FIXTURE_TEARDOWN(ctx)
{
	char byte = 'x';

	if (self->child > 0 && write(self->pipe_fd[1], &byte, 1) == 1)
		sr_wait_child_ok(self->child);
	close(self->pipe_fd[0]);
	close(self->pipe_fd[1]);
	sr_log_free(&self->log);
	free(self->seqs);
	sr_reset();
}

/* The first record of @type about @tid in [@from, @to]. */
static const struct sr_event *find_in(const struct sr_log *log,
				      uint64_t from, uint64_t to,
				      unsigned int type, pid_t tid)
{
	size_t i;

	for (i = 0; i < log->n; i++) {
		const struct sr_event *ev = &log->ev[i];

		if (ev->r.hdr.type == type &&
		    sr_record_tid(&ev->r) == (uint32_t)tid &&
		    ev->r.hdr.ts >= from && ev->r.hdr.ts <= to)
			return ev;
	}
	return NULL;
}

/* ... during command @c */
#define during(self, c, type, tid) \
	find_in(&(self)->log, (self)->before[c], (self)->after[c], type, tid)

TEST_F(ctx, wakeup_from_task)
{
	const struct sr_event *ev;

	ev = during(self, CMD_TASK, SCHEDREC_EV_WAKING, self->child);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ((uint32_t)self->self, ev->r.wake.waker_tid);
	EXPECT_EQ(0, ev->r.hdr.flags & SCHEDREC_F_IRQ);
}

/* local_bh_disable() in task context: still task context, still our wakeup */
TEST_F(ctx, wakeup_with_bottom_halves_disabled)
{
	const struct sr_event *ev;

	ev = during(self, CMD_BH, SCHEDREC_EV_WAKING, self->child);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ((uint32_t)self->self, ev->r.wake.waker_tid);
	EXPECT_EQ(0, ev->r.hdr.flags & SCHEDREC_F_IRQ);
}

TEST_F(ctx, wakeup_from_softirq)
{
	const struct sr_event *ev;

	ev = during(self, CMD_SOFTIRQ, SCHEDREC_EV_WAKING, self->child);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(SCHEDREC_F_IRQ, ev->r.hdr.flags & SCHEDREC_F_IRQ);
}

TEST_F(ctx, wakeup_from_hardirq)
{
	const struct sr_event *ev;

	ev = during(self, CMD_HARDIRQ, SCHEDREC_EV_WAKING, self->child);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(SCHEDREC_F_IRQ, ev->r.hdr.flags & SCHEDREC_F_IRQ);
}

/*
 * We were switched out by "preempt" (with bottom halves disabled on RT),
 * and no switch or stack record at all says interrupt.
 */
TEST_F(ctx, switches_never_irq)
{
	const struct sr_event *ev;
	size_t i;

	ev = during(self, CMD_PREEMPT, SCHEDREC_EV_SWITCH, self->self);
	ASSERT_NE(NULL, ev) TH_LOG("no switch-out of %d by preempt",
				   self->self);
	EXPECT_EQ(0, ev->r.hdr.flags & SCHEDREC_F_IRQ);
	ev = during(self, CMD_PREEMPT, SCHEDREC_EV_STACK, self->self);
	ASSERT_NE(NULL, ev) TH_LOG("no stack of %d by preempt", self->self);
	EXPECT_EQ(0, ev->r.hdr.flags);
	for (i = 0; i < self->log.n; i++) {
		ev = &self->log.ev[i];
		if (ev->r.hdr.type == SCHEDREC_EV_SWITCH ||
		    ev->r.hdr.type == SCHEDREC_EV_STACK)
			EXPECT_EQ(0, ev->r.hdr.flags & SCHEDREC_F_IRQ)
				TH_LOG("cpu%u seq %llu, type %u", ev->cpu,
				       (unsigned long long)ev->seq,
				       ev->r.hdr.type);
	}
}

TEST_HARNESS_MAIN
