// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_switch prev_state decoder, following the kernel's
 * __trace_sched_switch_state() and __task_state_index() (Linux 6.1, 6.12).
 */
#include "taskstate.h"

/* Letters by index: 0 is running, index i is bit (1 << (i - 1)). */
static const char *const state_names[] = {
	"R", "S", "D", "T", "t", "X", "Z", "P", "I",
};

/* The kernel's fls(): 1 + the index of the highest set bit, 0 for 0. */
static unsigned int highest_bit(uint32_t value)
{
	return value ? 32 - __builtin_clz(value) : 0;
}

static unsigned int state_index(uint32_t state, uint32_t exit_state)
{
	uint32_t report = (state | exit_state) & TASKSTATE_REPORT;

	if ((state & TASKSTATE_IDLE) == TASKSTATE_IDLE)
		report = TASKSTATE_REPORT + 1;	/* TASK_REPORT_IDLE: "I" */
	/* sleeping on an RT spinlock, or frozen, reports as D */
	if (state & (TASKSTATE_RTLOCK_WAIT | TASKSTATE_FROZEN))
		report = TASKSTATE_UNINTERRUPTIBLE;
	return highest_bit(report);
}

/* @exit_state, or if it is TASKSTATE_EXIT_UNKNOWN what taskstate.h says */
static uint32_t exit_state_of(uint32_t prev_state, uint32_t exit_state)
{
	/* recorded with it (see the ABI), or else a dead task's guessed */
	if (exit_state == TASKSTATE_EXIT_UNKNOWN)
		exit_state = prev_state & TASKSTATE_DEAD &&
			     !(prev_state & (TASKSTATE_EXIT_DEAD |
					     TASKSTATE_EXIT_ZOMBIE)) ?
			     TASKSTATE_EXIT_ZOMBIE : 0;
	return exit_state;
}

const char *taskstate_ftrace(uint32_t prev_state, bool preempt,
			     uint32_t exit_state)
{
	if (preempt)
		return "R+";
	return state_names[state_index(prev_state,
				       exit_state_of(prev_state, exit_state))];
}

uint32_t taskstate_ftrace_value(uint32_t prev_state, bool preempt)
{
	unsigned int i;

	if (preempt)
		return TASKSTATE_REPORT_MAX;
	i = state_index(prev_state,
			exit_state_of(prev_state, TASKSTATE_EXIT_UNKNOWN));
	return i ? 1u << (i - 1) : 0;
}

char taskstate_letter(uint32_t prev_state, bool preempt)
{
	return taskstate_ftrace(prev_state, preempt, TASKSTATE_EXIT_UNKNOWN)[0];
}
