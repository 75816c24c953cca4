// SPDX-License-Identifier: GPL-2.0
/* Builds if task_struct's state is named __state (5.14 on). */
#include <linux/sched.h>

unsigned int feature(struct task_struct *t);
unsigned int feature(struct task_struct *t)
{
	return READ_ONCE(t->__state);
}
