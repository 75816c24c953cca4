// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec_ctxtest.ko: test-only.  It makes the scheduler events whose
 * context schedrec must get right, on demand, so that context_test can
 * look for their records.  Root writes one command to
 * /proc/schedrec_ctxtest:
 *
 *   task TID     wake task TID (sleeping) from the writer's task context
 *   bh TID       the same with bottom halves disabled: still task context
 *   softirq TID  wake it from a tasklet, which runs as a softirq
 *   hardirq TID  wake it from a hard irq_work (a hard interrupt)
 *   preempt      switch the writer (pinned to one CPU) out once: on
 *                PREEMPT_RT with bottom halves disabled, preempted by a
 *                FIFO thread (see ctx_preempt())
 *
 * The write returns once the event happened: 0 bytes left, or an error.
 */
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(ctx_mutex);	/* one command at a time */
static struct task_struct *ctx_target;
static struct completion ctx_done;

static void ctx_wake_target(void)
{
	wake_up_process(ctx_target);
	complete(&ctx_done);
}

static void ctx_tasklet_fn(struct tasklet_struct *t)
{
	ctx_wake_target();
}

static DECLARE_TASKLET(ctx_tasklet, ctx_tasklet_fn);

static void ctx_irq_work_fn(struct irq_work *work)
{
	ctx_wake_target();
}

#ifdef IRQ_WORK_INIT_HARD
static struct irq_work ctx_irq_work = IRQ_WORK_INIT_HARD(ctx_irq_work_fn);
#else
/* before 5.11 (no such macro), every irq_work runs in hard irq context */
static DEFINE_IRQ_WORK(ctx_irq_work, ctx_irq_work_fn);
#endif

static int ctx_wake(const char *how, pid_t tid)
{
	struct pid *pid = find_get_pid(tid);

	ctx_target = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	put_pid(pid);
	if (!ctx_target)
		return -ESRCH;
	init_completion(&ctx_done);
	if (!strcmp(how, "task")) {
		ctx_wake_target();
	} else if (!strcmp(how, "bh")) {
		local_bh_disable();
		ctx_wake_target();
		local_bh_enable();
	} else if (!strcmp(how, "softirq")) {
		tasklet_schedule(&ctx_tasklet);
	} else {
		irq_work_queue(&ctx_irq_work);
	}
	wait_for_completion(&ctx_done);
	put_task_struct(ctx_target);
	ctx_target = NULL;
	return 0;
}

/*
 * "preempt": a FIFO thread bound to the writer's CPU is woken with bottom
 * halves disabled.  PREEMPT_RT preempts the writer right there, bottom
 * halves still disabled; other kernels switch it out once they are
 * enabled again, or when it waits for that thread below.
 */
static struct completion ctx_ran;

static int ctx_preempter_fn(void *data)
{
	complete(&ctx_ran);
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int ctx_preempt(void)
{
	struct task_struct *t;

	/* the thread must run where we do */
	if (current->nr_cpus_allowed != 1)
		return -EINVAL;
	init_completion(&ctx_ran);
	t = kthread_create(ctx_preempter_fn, NULL, "schedrec-ctxtest");
	if (IS_ERR(t))
		return PTR_ERR(t);
	get_task_struct(t);
	kthread_bind(t, raw_smp_processor_id());
	sched_set_fifo(t);
	local_bh_disable();
	wake_up_process(t);
	local_bh_enable();
	wait_for_completion(&ctx_ran);
	kthread_stop(t);
	put_task_struct(t);
	return 0;
}

static ssize_t ctx_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char buf[32], how[16];
	int tid, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&ctx_mutex);
	if (sscanf(buf, "%15s %d", how, &tid) == 2 &&
	    (!strcmp(how, "task") || !strcmp(how, "bh") ||
	     !strcmp(how, "softirq") || !strcmp(how, "hardirq")))
		ret = ctx_wake(how, tid);
	else if (sscanf(buf, "%15s", how) == 1 && !strcmp(how, "preempt"))
		ret = ctx_preempt();
	else
		ret = -EINVAL;
	mutex_unlock(&ctx_mutex);
	return ret ? ret : count;
}

static const struct proc_ops ctx_ops = {
	.proc_write = ctx_write,
};

static int __init ctx_init(void)
{
	return proc_create("schedrec_ctxtest", 0200, NULL, &ctx_ops) ?
	       0 : -ENOMEM;
}

static void __exit ctx_exit(void)
{
	remove_proc_entry("schedrec_ctxtest", NULL);
	tasklet_kill(&ctx_tasklet);
	irq_work_sync(&ctx_irq_work);
}

module_init(ctx_init);
module_exit(ctx_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("schedrec tests: scheduler events in chosen contexts");
