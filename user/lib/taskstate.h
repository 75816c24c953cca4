/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decode the raw task state that schedrec records at sched_switch
 * (prev->__state plus the preempt flag) into the letter ftrace prints for
 * prev_state.  The module keeps the state raw on purpose (doc/design.md,
 * "Record raw facts, decode later"): a kernel whose encoding differs needs
 * a change here, not in the module.
 *
 * The bit values are those of include/linux/sched.h, identical in Linux 6.1
 * and 6.12 (with and without PREEMPT_RT).  They are spelled out here rather
 * than taken from kernel headers, which userspace must not include.
 */
#ifndef SCHEDREC_TASKSTATE_H
#define SCHEDREC_TASKSTATE_H

#include <stdbool.h>
#include <stdint.h>

#define TASKSTATE_RUNNING		0x0000
#define TASKSTATE_INTERRUPTIBLE		0x0001
#define TASKSTATE_UNINTERRUPTIBLE	0x0002
#define TASKSTATE_STOPPED		0x0004	/* __TASK_STOPPED */
#define TASKSTATE_TRACED		0x0008	/* __TASK_TRACED */
#define TASKSTATE_EXIT_DEAD		0x0010
#define TASKSTATE_EXIT_ZOMBIE		0x0020
#define TASKSTATE_PARKED		0x0040
#define TASKSTATE_DEAD			0x0080
#define TASKSTATE_WAKEKILL		0x0100
#define TASKSTATE_WAKING		0x0200
#define TASKSTATE_NOLOAD		0x0400
#define TASKSTATE_NEW			0x0800
#define TASKSTATE_RTLOCK_WAIT		0x1000
#define TASKSTATE_FREEZABLE		0x2000
#define TASKSTATE_FROZEN		0x8000

/* TASK_IDLE: uninterruptible without counting towards the load average */
#define TASKSTATE_IDLE	(TASKSTATE_UNINTERRUPTIBLE | TASKSTATE_NOLOAD)
/* TASK_REPORT: the bits a state letter is chosen from */
#define TASKSTATE_REPORT	0x7f
/* TASK_REPORT_MAX: sched_switch's prev_state of a preempted task (4.14+) */
#define TASKSTATE_REPORT_MAX	0x100

/*
 * The module ORs the task's exit_state into prev_state (see the ABI), as
 * ftrace folds it in for a dying task: pass TASKSTATE_EXIT_UNKNOWN and it
 * is taken from there.  A file of an older module has no exit_state: a
 * dying task (prev_state TASK_DEAD alone) then decodes as a zombie ("Z"),
 * the usual case, where ftrace printed "X" if it was reaped before its last
 * switch.
 */
#define TASKSTATE_EXIT_UNKNOWN	0xffffffffu

/*
 * What ftrace prints for sched_switch's prev_state: "R+" when preempted
 * (whatever the state), else one of "R", "S", "D", "T", "t", "X", "Z",
 * "P", "I".  @exit_state is the task's exit_state (0 for a live task) or
 * TASKSTATE_EXIT_UNKNOWN.  Never NULL.
 */
const char *taskstate_ftrace(uint32_t prev_state, bool preempt,
			     uint32_t exit_state);

/*
 * The prev_state field of sched_switch as ftrace records it (the kernel's
 * __trace_sched_switch_state(), 4.14 and later): TASKSTATE_REPORT_MAX when
 * preempted, else the bit of taskstate_ftrace()'s letter (R 0, S 0x1,
 * D 0x2, T 0x4, t 0x8, X 0x10, Z 0x20, P 0x40, I 0x80).
 */
uint32_t taskstate_ftrace_value(uint32_t prev_state, bool preempt);

/* The state letter alone: the first letter of taskstate_ftrace(). */
char taskstate_letter(uint32_t prev_state, bool preempt);

/* True for the final switch of an exiting task (Z or X, see above). */
static inline bool taskstate_is_dead(uint32_t prev_state)
{
	return prev_state & TASKSTATE_DEAD;
}

#endif /* SCHEDREC_TASKSTATE_H */
