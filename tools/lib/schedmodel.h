/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedmodel: the scheduler as the records tell it, replayed in one pass.
 *
 * Fed the records of a trace in time order (srecreader_next_batch()), it keeps
 * what each CPU runs and where each thread is (on a CPU, off it since when
 * and in which state, woken when and by whom, waiting on which runqueue),
 * and hands the reports what they count, as it becomes known:
 *
 *	oncpu	a thread (or a CPU's idle task) ran on a CPU from .. to
 *	offcpu	a thread was off CPU from its switch-out to its switch-in
 *		(in parts, if it was renamed meanwhile); a thread known
 *		to exist (start snapshot, fork) and never seen on a CPU
 *		was off CPU, censored, while every CPU's holder was known
 *	switchout	a thread left a CPU, in a state, for another thread
 *	wakeup	a thread was woken (the first wakeup after it slept)
 *	latency	wakeup -> switch-in, and preempted -> switch-in
 *	usurp	while a thread waited runnable on a CPU's runqueue, another
 *		thread (or idle) held that CPU from .. to
 *
 * The meaning of each is doc/reports.md's.  Everything is clipped to the
 * window given at creation; what an edge of the recording or of the
 * window cuts is flagged censored.  Memory grows with the number of
 * threads, never with the number of records.
 *
 * Threads: a struct task is one thread under one name (a tid's life from
 * its fork or first sighting to its exit, split where exec or rename
 * changes its name, or an exec gives it its leader's tid).  Tasks live
 * until the model is freed, so reports may keep pointers to them and
 * index arrays by task->id.  A process is named after its leader's latest
 * task, which outlives the leader's exit (schedmodel_leader_of()).
 *
 * Loss: a LOST record, sequence numbers missing in a file that was not
 * filtered, or a CPU's records ending before the others' in a file cut
 * short, is a loss window on that CPU.  What the model knew of that
 * CPU is dropped and learnt again from its next switch; intervals that
 * overlap a loss window known when they end are flagged uncertain, and
 * schedmodel_overlaps_loss() answers for any interval at the end.
 */
#ifndef SCHEDREC_SCHEDMODEL_H
#define SCHEDREC_SCHEDMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "srecreader.h"

#define CPU_NONE	UINT32_MAX

struct task {
	uint32_t id;		/* 0, 1, 2...: index for per-report arrays */
	uint32_t tid;
	uint32_t tgid;		/* 0: not known */
	/*
	 * which process, 1, 2... (a pid reused by a later process, or
	 * threads whose processes are not known, are others); 0 on ENOMEM
	 */
	uint32_t process;
	char comm[SCHEDREC_COMM_LEN + 1];
	bool drainer;		/* a thread of the schedrec drainer */
	int8_t selected;	/* for the selection's cache: -1 unknown */
};

/*
 * A kernel stack of a thread going off CPU (STACK records, when recorded):
 * return addresses, innermost first, as the record had them.  Equal stacks
 * are one struct, kept until the model is freed: compare pointers.
 */
struct sched_stack {
	uint32_t id;		/* 0, 1, 2... */
	uint16_t nr;
	uint64_t ips[];
};

/* Flags of intervals */
#define IV_CUT_START	0x1	/* censored: began before what is known */
#define IV_CUT_END	0x2	/* censored: still going at the end */
#define IV_UNCERTAIN	0x4	/* overlaps lost events */
#define IV_CONTINUED	0x8	/* off CPU: a part the next one goes on from */

struct oncpu_iv {
	const struct task *task;	/* NULL: the CPU idled */
	uint32_t cpu;
	uint64_t start, end;
	unsigned int flags;
};

struct offcpu_iv {
	const struct task *task;
	uint64_t start, end;
	char state;		/* at switch-out; '?' if never seen */
	uint32_t out_cpu;	/* switched out there (CPU_NONE: not seen) */
	uint32_t in_cpu;	/* switched in there (CPU_NONE: not yet) */
	unsigned int flags;
	const struct sched_stack *stack;	/* at switch-out, or NULL */
	/*
	 * A thread renamed while off CPU has its interval handed over in
	 * parts, one per name, in order, each with the task named then:
	 * time goes to each part's name.  Every part but the last has
	 * IV_CONTINUED; the last one also gives the whole interval, which
	 * is counted as one (count, maximum) under the name it began
	 * with: from @iv_start, under @iv_task (the name at the switch-out,
	 * or at the window's start if the window cuts it), with @iv_flags.
	 * Not renamed: the same as @start, @task and @flags.
	 */
	uint64_t iv_start;
	const struct task *iv_task;
	unsigned int iv_flags;
};

struct switchout_ev {
	const struct task *task;
	const struct task *next;	/* switched in instead; NULL: idle */
	uint32_t cpu;
	uint64_t ts;
	char state;
	const struct sched_stack *stack;	/* or NULL */
};

enum latency_kind {
	LATENCY_WAKEUP,		/* first waking/wakeup -> switch-in */
	LATENCY_RUNQUEUE,	/* R switch-out -> switch-in */
};

struct latency_ev {
	const struct task *task;	/* named as at @start */
	enum latency_kind kind;
	uint64_t start, end;
	uint32_t cpu;			/* of the switch-in */
	const struct task *waker;	/* wakeup: NULL if in interrupt
					 * context or not known
					 */
	bool waker_irq;
	unsigned int flags;		/* IV_UNCERTAIN */
};

struct wakeup_ev {
	const struct task *task;	/* woken */
	const struct task *waker;	/* NULL: in interrupt context, or
					 * not known
					 */
	bool waker_irq;
	uint32_t cpu;			/* recorded there (the waker's) */
	uint32_t target_cpu;		/* to run there */
	uint64_t ts;
};

struct usurp_ev {
	const struct task *task;	/* waiting, runnable */
	const struct task *usurper;	/* holding the CPU; NULL: idle */
	uint32_t cpu;			/* whose runqueue it waited on */
	uint32_t out_cpu;		/* where it was switched out */
	uint64_t start, end;
};

/* What a report wants to hear; unused callbacks stay NULL. */
struct sched_handler {
	void (*oncpu)(void *arg, const struct oncpu_iv *iv);
	void (*offcpu)(void *arg, const struct offcpu_iv *iv);
	/*
	 * Optional, beside offcpu: where nobody asks for anything else, the
	 * model may hand over several intervals at once, in order, in one
	 * call instead of @n; their tasks are still as they were when the
	 * intervals ended.
	 */
	void (*offcpus)(void *arg, const struct offcpu_iv *iv, unsigned int n);
	void (*switchout)(void *arg, const struct switchout_ev *ev);
	void (*wakeup)(void *arg, const struct wakeup_ev *ev);
	void (*latency)(void *arg, const struct latency_ev *ev);
	void (*usurp)(void *arg, const struct usurp_ev *ev);
	/*
	 * Optional, beside usurp: the usurped time of several waiters of a
	 * CPU whose holder changed, in one call instead of @n, all with
	 * the same usurper, cpu and end.
	 */
	void (*usurps)(void *arg, const struct usurp_ev *ev, unsigned int n);
	void *arg;
};

struct sched_loss {
	uint32_t cpu;
	uint64_t count;		/* events lost (or sequence numbers missing) */
	uint64_t first, last;	/* absolute timestamps */
	bool unexplained;	/* missing numbers, no LOST record */
	bool cut;		/* the input ends before the CPU's records do:
				 * how many are missing is not known
				 */
};

struct schedmodel_window {
	/* relative to the origin (see schedmodel_origin()), [start, end) */
	uint64_t start;
	uint64_t end;		/* UINT64_MAX: open */
};

struct schedmodel;

/*
 * A model of the recording described by @info (the reader's header).
 * NULL on ENOMEM.
 */
struct schedmodel *schedmodel_new(const struct srecreader_info *info,
				  const struct schedmodel_window *window);
void schedmodel_free(struct schedmodel *m);

/* At most 16 handlers; -ENOSPC past that. */
int schedmodel_add_handler(struct schedmodel *m,
			   const struct sched_handler *h);

/*
 * Feed one record.  Returns 1 while the record is before the end of the
 * window, 0 once it is past it (nothing later matters: the caller may stop
 * and call schedmodel_finish()), -ENOMEM.
 */
int schedmodel_record(struct schedmodel *m, const struct srec_record *rec);

/*
 * schedmodel_record() of @n records in turn, up to the first that does not
 * return 1: returns what that one returned (1 if all did), and in *@fed
 * how many were fed, that one included.
 */
int schedmodel_records(struct schedmodel *m, const struct srec_record *recs,
		       unsigned int n, unsigned int *fed);

/*
 * A record in short, as the two-thread pass (tracepass.c) hands records
 * from thread to thread: where it is, its CPU, and how many numbers are
 * missing before it (SREC_REF_GAP_BIG: that many or more, the whole
 * number kept elsewhere).  @spare is the caller's.
 */
#define SREC_REF_GAP_BIG	UINT32_MAX

struct srec_ref {
	const struct schedrec_header *hdr;
	uint32_t gap;
	uint16_t cpu;		/* < SREC_CPUS_MAX */
	uint16_t spare;
};

/*
 * schedmodel_records() of records in short (struct srec_ref), those of a
 * gap of SREC_REF_GAP_BIG or more in @big, in order.
 */
int schedmodel_feed(struct schedmodel *m, const struct srec_ref *recs,
		    unsigned int n, const uint64_t *big, unsigned int *fed);

/*
 * The record types (bit 1ull << type) that change nothing @m's handlers
 * hear of, where nothing else is odd about them: a pass may leave them
 * out (srecreader_skip()).  The model is lean from then on, so that it
 * sees the same whether they come or not: a wakeup it has no use for
 * makes no thread (a thread seen only woken is not one of its tasks).
 * Call it before the first record, after the handlers are added.
 */
uint64_t schedmodel_unneeded(struct schedmodel *m);

/*
 * The input holds @cpu's records only up to @until (absolute), as when
 * the file was cut short (srecreader_cpu_complete_until()): from there to
 * the end, what the CPU did is a loss window of unknown size (->cut).
 * Before schedmodel_finish().
 */
void schedmodel_cpu_complete_until(struct schedmodel *m, uint32_t cpu,
				   uint64_t until);

/*
 * The recording ended at @end_ns (absolute; the trailer's end, or the last
 * record's time): close what is still open, censored.
 */
void schedmodel_finish(struct schedmodel *m, uint64_t end_ns);

/*
 * The origin of relative times: the start of the recording, or the first
 * record if it is older.  0 before the first record.
 */
uint64_t schedmodel_origin(const struct schedmodel *m);

/*
 * @abs_ns in ns since the origin (negative before it), saturated at the
 * ends of int64_t (292 years) rather than wrapped.
 */
int64_t schedmodel_rel(const struct schedmodel *m, uint64_t abs_ns);

/*
 * The end of the window in absolute time (UINT64_MAX: open) if the first
 * record is at @first_ts: the first record at or past it is where
 * schedmodel_record() returns 0.  It reads only what the model was made
 * with, so another thread may ask while the model runs.
 */
uint64_t schedmodel_window_end_at(const struct schedmodel *m,
				  uint64_t first_ts);

/* The window in absolute time, once the origin is known. */
void schedmodel_window_abs(const struct schedmodel *m, uint64_t *start,
			   uint64_t *end);

/* Where the recording ended (after finish): absolute. */
uint64_t schedmodel_end(const struct schedmodel *m);

/* The loss windows seen, in the order they were seen. */
size_t schedmodel_losses(const struct schedmodel *m,
			 const struct sched_loss **losses);

/* Whether [start, end] (absolute) overlaps a loss window. */
bool schedmodel_overlaps_loss(const struct schedmodel *m, uint64_t start,
			      uint64_t end);

/* Every task so far, indexed by id. */
size_t schedmodel_tasks(const struct schedmodel *m,
			struct task *const **tasks);

/*
 * What live thread @tid is now (its task under its current name), NULL if
 * the model has not seen it yet or saw it exit.
 */
struct task *schedmodel_task_of(const struct schedmodel *m, uint32_t tid);

/*
 * The leader of the process that is @tgid now (the latest, if a later
 * process reused the pid) under the last name the model knew it by (what
 * the process is named after): also once it has exited, while its
 * threads run on; NULL if the model has not seen it.
 */
const struct task *schedmodel_leader_of(const struct schedmodel *m,
					uint32_t tgid);

/*
 * The pid of @t's process, as exports and timelines key processes: its
 * tgid, or its tid if the tgid is not known.
 */
static inline uint32_t schedmodel_process_key(const struct task *t)
{
	return t->tgid ? t->tgid : t->tid;
}

/*
 * What process @tgid is named after: its leader (schedmodel_leader_of()),
 * else @fallback, one of its threads.
 */
const struct task *schedmodel_process_name(const struct schedmodel *m,
					   uint32_t tgid,
					   const struct task *fallback);

/*
 * What @t's process is named after: its leader under the last name the
 * model knew it by (also once it has exited, while its threads run on),
 * else @t.  A process that reused an earlier one's pid has its own.
 */
const struct task *schedmodel_process_leader(const struct schedmodel *m,
					     const struct task *t);

/* Counters of things that should not happen in a complete trace. */
struct schedmodel_anomalies {
	uint64_t desyncs;	/* a switch's prev was not what ran there */
	uint64_t backwards;	/* a record older than one before it */
};

const struct schedmodel_anomalies *
schedmodel_anomalies(const struct schedmodel *m);

#endif /* SCHEDREC_SCHEDMODEL_H */
