// SPDX-License-Identifier: GPL-2.0
/* Builds if sched_switch passes prev_state to its probes (5.18 on). */
#include <linux/mm.h>
#include <linux/sched.h>
#include <trace/events/sched.h>

static void probe(void *data, bool preempt, struct task_struct *prev,
		  struct task_struct *next, unsigned int prev_state)
{
}

int feature(void);
int feature(void)
{
	return register_trace_sched_switch(probe, NULL);
}
