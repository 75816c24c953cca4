// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint probes: one function per event, each writing one record into
 * the ring of the CPU it runs on.  They run inside the scheduler with
 * runqueue or pi locks held: no allocation, no locks, no printk, no
 * wakeups, one clock read (in schedrec_ring_reserve()), IRQs off only
 * around the store so that a nested event cannot tear the record.
 *
 * Tracepoints are found by name, never by exported symbol.
 */
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "probes.h"
#include "ring.h"

/* Open a record of type @t in this CPU's ring; NULL when dropped. */
#define PROBE_BEGIN(rec, ring, t, irqflags, f) do {			\
	local_irq_save(irqflags);					\
	ring = this_cpu_read(schedrec_this_ring);			\
	rec = ring ? schedrec_ring_reserve(ring, t, sizeof(*(rec)), f)	\
		   : NULL;						\
} while (0)

#define PROBE_END(rec, ring, irqflags) do {				\
	if (rec)							\
		schedrec_ring_commit(ring);				\
	local_irq_restore(irqflags);					\
} while (0)

static void probe_switch(void *ignore, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct schedrec_switch *rec;
	struct schedrec_ring *ring;
	unsigned long irqflags;

	PROBE_BEGIN(rec, ring, SCHEDREC_EV_SWITCH, irqflags,
		    preempt ? SCHEDREC_F_PREEMPT : 0);
	if (rec) {
		rec->prev_tid = prev->pid;
		rec->next_tid = next->pid;
		rec->prev_state = prev_state;
		rec->prev_prio = prev->prio;
		rec->next_prio = next->prio;
	}
	PROBE_END(rec, ring, irqflags);
}

static void probe_wakeup_common(struct task_struct *p, u8 type)
{
	struct schedrec_wakeup *rec;
	struct schedrec_ring *ring;
	unsigned long irqflags;

	PROBE_BEGIN(rec, ring, type, irqflags, 0);
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

	PROBE_BEGIN(rec, ring, SCHEDREC_EV_MIGRATE, irqflags, 0);
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

	PROBE_BEGIN(rec, ring, type, irqflags, 0);
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

/* Indexed by event id; the tracepoint names come from the ABI. */
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
		if (!strcmp(tp->name, schedrec_event_tracepoints[id]))
			probes[id].tp = tp;
}

int schedrec_probes_init(void)
{
	unsigned int id;

	for_each_kernel_tracepoint(probe_find, NULL);
	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++) {
		if (!probes[id].tp) {
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

/*
 * Attach exactly the probes of @mask.  On failure the probes that were
 * attached before are attached again and the error is returned.
 */
int schedrec_probes_set(u32 mask)
{
	u32 before = 0;
	unsigned int id;
	int ret = 0;

	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
		if (probes[id].attached)
			before |= BIT(id);
	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST && !ret; id++)
		ret = probe_set(id, mask & BIT(id));
	if (ret)
		for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
			probe_set(id, before & BIT(id));
	/* every probe that was detached has returned once this does */
	tracepoint_synchronize_unregister();
	return ret;
}
