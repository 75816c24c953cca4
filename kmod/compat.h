/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels schedrec builds against, behind one
 * name each, so the code that uses them reads the same on every kernel.
 *
 * Two kinds of answer:
 * - probed: kmod/Kbuild compiles kmod/feature/NAME.c against the target
 *   kernel and defines SCHEDREC_HAVE_NAME if it builds.  Used for every
 *   API a distribution may backport (RHEL 9's 5.14 has vm_flags_set()),
 *   where a version number would lie.
 * - by version: only where no backport can change the answer (the name
 *   of a task_struct field, say).  None today.
 */
#ifndef _SCHEDREC_COMPAT_H
#define _SCHEDREC_COMPAT_H

#include <linux/mm.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>

/* probed: vm_flags became read-only with setters (6.3) */
#ifdef SCHEDREC_HAVE_VM_FLAGS_SET
#define schedrec_vm_flags_set(vma, flags)	vm_flags_set(vma, flags)
#define schedrec_vm_flags_clear(vma, flags)	vm_flags_clear(vma, flags)
#else
static inline void schedrec_vm_flags_set(struct vm_area_struct *vma,
					 unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void schedrec_vm_flags_clear(struct vm_area_struct *vma,
					   unsigned long flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/* probed: PDE_DATA() became pde_data() (5.17) */
#ifdef SCHEDREC_HAVE_PDE_DATA
#define schedrec_pde_data(inode)	pde_data(inode)
#else
#define schedrec_pde_data(inode)	PDE_DATA(inode)
#endif

/* probed: task_struct's state became __state (5.14) */
#ifdef SCHEDREC_HAVE_TASK___STATE
#define schedrec_task_state(t)	READ_ONCE((t)->__state)
#else
#define schedrec_task_state(t)	READ_ONCE((t)->state)
#endif

/*
 * probed: sched_switch passes its probes the state prev had when
 * __schedule() began (5.18).  Before, a probe reads it from the task, as
 * ftrace's own event did then.  A wakeup that raced in after __schedule()
 * took prev off its runqueue has made that TASK_WAKING (ftrace then said
 * R); __schedule() noted whether prev slept uninterruptibly, in
 * sched_contributes_to_load, so the probe says D or S instead.
 */
#ifdef SCHEDREC_HAVE_SWITCH_PREV_STATE
#define SCHEDREC_SWITCH_PROBE_ARGS					\
	void *ignore, bool preempt, struct task_struct *prev,		\
	struct task_struct *next, unsigned int prev_state
#define schedrec_switch_prev_state(prev)	(prev_state)
#else
#define SCHEDREC_SWITCH_PROBE_ARGS					\
	void *ignore, bool preempt, struct task_struct *prev,		\
	struct task_struct *next
static inline unsigned int schedrec_switch_prev_state(struct task_struct *prev)
{
	unsigned int state = schedrec_task_state(prev);

	if (state & TASK_WAKING)
		state = prev->sched_contributes_to_load ?
			TASK_UNINTERRUPTIBLE : TASK_INTERRUPTIBLE;
	return state;
}
#endif

#endif /* _SCHEDREC_COMPAT_H */
