// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint probes: one function per event, each writing one record into
 * the ring of the CPU it runs on.  They run inside the scheduler with
 * runqueue or pi locks held: no allocation, no locks, no printk, no
 * wakeups, one clock read (in schedrec_ring_reserve()), IRQs off only
 * around the store so that a nested event cannot tear the record.
 *
 * sched_switch has two events, switch and the optional stack, and one
 * probe that writes the records of both: the stack first, then the
 * switch, with one clock reading.
 *
 * Tracepoints are found by name, never by exported symbol.
 */
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "probes.h"
#include "ring.h"

/* Frames of this module at the top of a captured stack: see probe_stack() */
#define STACK_OWN_FRAMES	2
#define STACK_DEPTH_DEFAULT	24

/*
 * The most return addresses a STACK record holds.  Each costs a step of
 * the unwinder and 8 bytes of ring; the walk stops sooner at the end of
 * the stack.  May change at any time, recording or not.
 */
static unsigned int stack_depth = STACK_DEPTH_DEFAULT;

static int stack_depth_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, SCHEDREC_STACK_MAX_DEPTH);
}

static const struct kernel_param_ops stack_depth_ops = {
	.set = stack_depth_set,
	.get = param_get_uint,
};

module_param_cb(stack_depth, &stack_depth_ops, &stack_depth, 0644);
MODULE_PARM_DESC(stack_depth, "return addresses per stack record, 1..32 (default 24)");

/* Per CPU: the stack as the unwinder hands it, before it goes in a record */
static DEFINE_PER_CPU(unsigned long [SCHEDREC_STACK_MAX_DEPTH +
				     STACK_OWN_FRAMES], stack_scratch);

/* The records the sched_switch probe writes: BIT(SWITCH) | BIT(STACK) */
#define SWITCH_RECORDS	(BIT(SCHEDREC_EV_SWITCH) | BIT(SCHEDREC_EV_STACK))
static u32 switch_records;

/*
 * SCHEDREC_F_IRQ for an event that fired in hard or soft interrupt
 * context.  Not in_interrupt(): that is also true of a task that merely
 * has bottom halves disabled, which is task context, and which PREEMPT_RT
 * even lets sleep (so a switch would carry the flag).  Switches and stacks
 * never take it: the scheduler switches tasks in task context.
 */
static inline u8 probe_context_flags(void)
{
	return in_task() ? 0 : SCHEDREC_F_IRQ;
}

/* Open a record of type @t in this CPU's ring; NULL when dropped. */
#define PROBE_BEGIN(rec, ring, t, irqflags) do {			\
	local_irq_save(irqflags);					\
	ring = this_cpu_read(schedrec_this_ring);			\
	rec = ring ? schedrec_ring_reserve(ring, t, sizeof(*(rec)),	\
					   probe_context_flags()) : NULL;\
} while (0)

#define PROBE_END(rec, ring, irqflags) do {				\
	if (rec)							\
		schedrec_ring_commit(ring);				\
	local_irq_restore(irqflags);					\
} while (0)

/*
 * The STACK record of the task going off-CPU, which is current: the probe
 * runs in __schedule() before the switch.  IRQs are off (probe_switch()'s
 * local_irq_save()), so nothing else runs on this CPU until we return and
 * this CPU's scratch array is ours.  stack_trace_save() walks the stack
 * with the kernel's unwinder (ORC on x86): no lock, no allocation.
 *
 * Only our own frames are skipped here, found by address (this function
 * and the probe, whatever the compiler inlined), not by a count.  The
 * tracepoint's and the scheduler's frames above us differ from kernel to
 * kernel (a static call to the probe, or __traceiter_sched_switch; is
 * __schedule() split?), so they are kept, and readers trim them by name
 * (user/lib/ksyms.h).
 */
static noinline void probe_stack(struct schedrec_ring *ring, u64 ts)
{
	unsigned long *ips = this_cpu_ptr(stack_scratch);
	unsigned int depth = min_t(unsigned int, READ_ONCE(stack_depth),
				   SCHEDREC_STACK_MAX_DEPTH);
	unsigned int nr, skip = 0, i;
	struct schedrec_stack *rec;

	nr = stack_trace_save(ips, depth + STACK_OWN_FRAMES, 0);
	while (skip < nr && within_module(ips[skip], THIS_MODULE))
		skip++;
	nr = min(nr - skip, depth);
	rec = schedrec_ring_reserve_at(ring, ts, SCHEDREC_EV_STACK,
				       SCHEDREC_STACK_SIZE(nr), 0);
	if (!rec)
		return;
	rec->tid = current->pid;
	rec->nr = nr;
	rec->__pad = 0;
	for (i = 0; i < nr; i++)
		rec->ips[i] = ips[skip + i];
	/* an even count leaves 8 bytes to the end of the record */
	if (!(nr & 1))
		rec->ips[nr] = 0;
	schedrec_ring_commit(ring);
}

static void probe_switch(SCHEDREC_SWITCH_PROBE_ARGS)
{
	u32 records = READ_ONCE(switch_records);
	struct schedrec_switch *rec;
	struct schedrec_ring *ring;
	unsigned long irqflags;
	u64 ts;

	local_irq_save(irqflags);
	ring = this_cpu_read(schedrec_this_ring);
	if (!ring)
		goto out;
	ts = ktime_get_mono_fast_ns();
	/* prev is current here; the idle task's stack says nothing */
	if ((records & BIT(SCHEDREC_EV_STACK)) && prev == current &&
	    !is_idle_task(prev))
		probe_stack(ring, ts);
	if (!(records & BIT(SCHEDREC_EV_SWITCH)))
		goto out;
	rec = schedrec_ring_reserve_at(ring, ts, SCHEDREC_EV_SWITCH,
				       sizeof(*rec),
				       preempt ? SCHEDREC_F_PREEMPT : 0);
	if (rec) {
		rec->prev_tid = prev->pid;
		rec->next_tid = next->pid;
		/* X or Z for a dying task, as __task_state_index() says */
		rec->prev_state = schedrec_switch_prev_state(prev) |
				  READ_ONCE(prev->exit_state);
		rec->prev_prio = prev->prio;
		rec->next_prio = next->prio;
		schedrec_ring_commit(ring);
	}
out:
	local_irq_restore(irqflags);
}

static void probe_wakeup_common(struct task_struct *p, u8 type)
{
	struct schedrec_wakeup *rec;
	struct schedrec_ring *ring;
	unsigned long irqflags;

	PROBE_BEGIN(rec, ring, type, irqflags);
	if (rec) {
		rec->tid = p->pid;
		rec->target_cpu = task_cpu(p);
		rec->waker_tid = current->pid;
		rec->prio = p->prio;
		rec->__pad = 0;
	}
	PROBE_END(rec, ring, irqflags);
}

static void probe_waking(void *ignore, struct task_struct *p)
{
	probe_wakeup_common(p, SCHEDREC_EV_WAKING);
}

static void probe_wakeup(void *ignore, struct task_struct *p)
{
	probe_wakeup_common(p, SCHEDREC_EV_WAKEUP);
}

static void probe_wakeup_new(void *ignore, struct task_struct *p)
{
	probe_wakeup_common(p, SCHEDREC_EV_WAKEUP_NEW);
}

static void probe_migrate(void *ignore, struct task_struct *p, int dest_cpu)
{
	struct schedrec_migrate *rec;
	struct schedrec_ring *ring;
	unsigned long irqflags;

	PROBE_BEGIN(rec, ring, SCHEDREC_EV_MIGRATE, irqflags);
	if (rec) {
		rec->tid = p->pid;
		rec->orig_cpu = task_cpu(p);
		rec->dest_cpu = dest_cpu;
		rec->prio = p->prio;
		rec->__pad = 0;
	}
	PROBE_END(rec, ring, irqflags);
}

/* A torn name from a concurrent rename is acceptable; a lock is not. */
static void probe_task_common(struct task_struct *p, u32 other_tid,
			      const char *comm, u8 type)
{
	struct schedrec_task *rec;
	struct schedrec_ring *ring;
	unsigned long irqflags;

	PROBE_BEGIN(rec, ring, type, irqflags);
	if (rec) {
		rec->tid = p->pid;
		rec->tgid = p->tgid;
		rec->other_tid = other_tid;
		rec->__pad = 0;
		strscpy_pad(rec->comm, comm, sizeof(rec->comm));
	}
	PROBE_END(rec, ring, irqflags);
}

static void probe_fork(void *ignore, struct task_struct *parent,
		       struct task_struct *child)
{
	probe_task_common(child, parent->pid, child->comm, SCHEDREC_EV_FORK);
}

static void probe_exec(void *ignore, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	probe_task_common(p, old_pid, p->comm, SCHEDREC_EV_EXEC);
}

static void probe_exit(void *ignore, struct task_struct *p)
{
	probe_task_common(p, 0, p->comm, SCHEDREC_EV_EXIT);
}

static void probe_rename(void *ignore, struct task_struct *task,
			 const char *comm)
{
	probe_task_common(task, 0, comm, SCHEDREC_EV_RENAME);
}

struct schedrec_probe {
	void *func;
	struct tracepoint *tp;
	bool attached;
};

/*
 * Indexed by event id; the tracepoint names come from the ABI.  STACK has
 * no probe of its own: the switch probe writes it (see probe_wanted()).
 */
static struct schedrec_probe probes[SCHEDREC_EV_LAST + 1] = {
	[SCHEDREC_EV_SWITCH]	 = { .func = probe_switch },
	[SCHEDREC_EV_WAKING]	 = { .func = probe_waking },
	[SCHEDREC_EV_WAKEUP]	 = { .func = probe_wakeup },
	[SCHEDREC_EV_WAKEUP_NEW] = { .func = probe_wakeup_new },
	[SCHEDREC_EV_MIGRATE]	 = { .func = probe_migrate },
	[SCHEDREC_EV_FORK]	 = { .func = probe_fork },
	[SCHEDREC_EV_EXEC]	 = { .func = probe_exec },
	[SCHEDREC_EV_EXIT]	 = { .func = probe_exit },
	[SCHEDREC_EV_RENAME]	 = { .func = probe_rename },
};

const char *const schedrec_event_names[SCHEDREC_REC_MAX + 1] =
	SCHEDREC_EVENT_NAMES;
const char *const schedrec_event_tracepoints[SCHEDREC_EV_LAST + 1] =
	SCHEDREC_EVENT_TRACEPOINTS;
const unsigned int schedrec_record_sizes[SCHEDREC_REC_MAX + 1] =
	SCHEDREC_RECORD_SIZES;

static void probe_find(struct tracepoint *tp, void *unused)
{
	unsigned int id;

	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
		if (SCHEDREC_EV_IS_EVENT(id) &&
		    !strcmp(tp->name, schedrec_event_tracepoints[id]))
			probes[id].tp = tp;
}

int schedrec_probes_init(void)
{
	unsigned int id;

	for_each_kernel_tracepoint(probe_find, NULL);
	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++) {
		if (SCHEDREC_EV_IS_EVENT(id) && !probes[id].tp) {
			pr_err("schedrec: tracepoint %s not found\n",
			       schedrec_event_tracepoints[id]);
			return -ENOENT;
		}
	}
	return 0;
}

static int probe_set(unsigned int id, bool on)
{
	struct schedrec_probe *probe = &probes[id];
	int ret;

	if (probe->attached == on)
		return 0;
	if (on)
		ret = tracepoint_probe_register(probe->tp, probe->func, NULL);
	else
		ret = tracepoint_probe_unregister(probe->tp, probe->func, NULL);
	if (!ret)
		probe->attached = on;
	return ret;
}

/* Whether event @id's probe must be attached for @mask. */
static bool probe_wanted(unsigned int id, u32 mask)
{
	if (id == SCHEDREC_EV_SWITCH)
		return mask & SWITCH_RECORDS;
	return mask & BIT(id);
}

/*
 * Attach exactly the probes of @mask.  On failure the probes that were
 * attached before are attached again and the error is returned.  The
 * switch probe stays attached while switch or stack is on, and reads which
 * records to write at every call, so turning either on or off while
 * recording loses no switch and writes none twice.
 */
int schedrec_probes_set(u32 mask)
{
	u32 before = 0, records_before = switch_records;
	unsigned int id;
	int ret = 0;

	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
		if (probes[id].func && probes[id].attached)
			before |= BIT(id);
	WRITE_ONCE(switch_records, mask & SWITCH_RECORDS);
	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST && !ret; id++)
		if (probes[id].func)
			ret = probe_set(id, probe_wanted(id, mask));
	if (ret) {
		WRITE_ONCE(switch_records, records_before);
		for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
			if (probes[id].func)
				probe_set(id, before & BIT(id));
	}
	/* every probe that was detached has returned once this does */
	tracepoint_synchronize_unregister();
	return ret;
}
