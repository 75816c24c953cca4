// SPDX-License-Identifier: GPL-2.0
/*
 * schedmodel: the scheduler replayed from the records; see schedmodel.h
 * for what it tells and doc/reports.md for what that means.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "schedmodel.h"
#include "taskstate.h"
#include "util.h"

#define MAX_HANDLERS	16
#define STATE_LETTERS	4096	/* TASK_IDLE (0x402) included */
#define LOSSES_MAX	4096	/* past that, a CPU's windows are merged */

/*
 * What the handlers asked for.  The functions of the record path take it
 * as an argument, so that schedmodel_records() can make a copy of that
 * path for each common set, the checks of what nobody asked for gone.
 */
enum {
	WANT_ONCPU	= 1u << 0,
	WANT_OFFCPU	= 1u << 1,
	WANT_SWITCHOUT	= 1u << 2,
	WANT_WAKEUP	= 1u << 3,
	WANT_LATENCY	= 1u << 4,
	WANT_USURP	= 1u << 5,
	/*
	 * Not a handler's: off-CPU intervals wait in the queue for the end
	 * of schedmodel_records(), where they go to the handlers in one
	 * loop.  Only where nobody wants anything else, so that no handler
	 * hears of events out of order.
	 */
	WANT_QUEUED	= 1u << 6,
	/* Not a handler's: never switch_plain() (SCHEDREC_MODEL_CHECK) */
	WANT_GENERAL	= 1u << 7,
};

/* Who woke a thread, and when: only these want it */
#define WANT_WAKER	(WANT_WAKEUP | WANT_LATENCY)

/* Off-CPU intervals queued at most (WANT_QUEUED) */
#define IV_QUEUE	128

enum where {
	WHERE_UNSEEN,		/* not seen switching yet */
	WHERE_NEW,		/* forked or woken new: not run yet */
	WHERE_ON,		/* on CPU @cpu since @since */
	WHERE_OFF,		/* switched out of @cpu at @since */
	WHERE_LOST,		/* lost track (loss, or a filtered trace) */
};

/* A part of a never-seen thread's time off CPU: until @end, @task's. */
struct unseen_part {
	uint64_t end;
	struct task *task;
};

/*
 * What the model knows of one live tid.  What a switch reads and writes
 * comes first, in one cache line of its own (THREAD_ALIGN): a switch
 * touches two threads, and with a few hundred of them the model's time
 * goes to fetching their lines more than to its instructions.
 */
#define THREAD_ALIGN	64

struct thread {
	uint32_t tid;
	uint8_t where;
	char state;		/* at switch-out */
	bool waiting;		/* on @rq_cpu's list of runnable waiters */
	bool waker_irq;
	uint32_t cpu;		/* ON: running there; OFF: switched out there */
	uint32_t rq_cpu;	/* waiting runnable on this CPU... */
	uint64_t since;
	struct task *task;
	uint64_t wake_ts;	/* first wakeup since switch-out, 0: none */
	/*
	 * Off CPU and renamed meanwhile: the part under the present name
	 * began at @piece (0: not renamed), and the first part in the
	 * window was @iv_task's (NULL: none yet).
	 */
	uint64_t piece;
	struct task *iv_task;
	const struct sched_stack *stack;	/* at its switch-out */
	/* the first cache line ends here */
	uint64_t rq_since;	/* ...since then */
	struct thread *rq_prev, *rq_next;
	bool born_known;	/* in the start snapshot, or forked at @born */
	uint64_t born;		/* 0: before the recording */
	struct task *waker;	/* who woke it, NULL: irq or unknown */
	struct task *wake_task;	/* its name at @wake_ts */
	struct task *out_task;	/* its name at its switch-out (latency) */
	/*
	 * A sched_waking that came while it was still on CPU, at @early_ts
	 * (0: none), recorded on @early_cpu for @early_target; its waker is
	 * in @waker and @waker_irq.  See on_wakeup_running().
	 */
	uint64_t early_ts;
	uint32_t early_cpu, early_target;
	/*
	 * Not seen on a CPU yet, and renamed: where each earlier name's
	 * part ends, kept until it is known how long it was off CPU
	 * (emit_unseen()).
	 */
	struct unseen_part *parts;
	uint32_t nr_parts;
};

SREC_CHECK(SREC_OFFSET(thread, rq_since) == THREAD_ALIGN);

struct cpu {
	struct thread *curr;	/* running, NULL: idle */
	bool known;		/* curr is known */
	bool pending;		/* not known, but whoever the next switch
				 * shows as prev ran since @since
				 */
	bool seen;		/* a record of this CPU came */
	bool ever_known;	/* who held it was known, from @known_from */
	uint64_t known_from;
	unsigned int since_flags;	/* IV_* of @since */
	uint64_t since;		/* curr's time is counted up to here */
	uint64_t last_ts;	/* of the last record */
	bool cut;		/* its records end at @cut_at, before the end */
	uint64_t cut_at;
	/*
	 * 1 + the index in losses of its latest loss window, of events
	 * lost ([0]) and of the file cut short ([1]); 0: none
	 */
	size_t last_loss[2];
	struct thread *waiters;	/* runnable, waiting for this CPU */
	/* the STACK record just read, for the switch that follows it */
	const struct sched_stack *pending_stack;
	uint32_t pending_tid;
	uint64_t pending_ts;
};

/* Equal stacks, kept once: open addressing on a hash of the addresses. */
struct stack_table {
	struct sched_stack **slots;
	size_t mask;
	size_t count;
};

/*
 * tid -> thread.  Tids below the kernel's PID_MAX_LIMIT (2^22) index a
 * two-level table directly, its pages made as tids appear; any other
 * (from a hostile file) goes to a hash table, open addressing with
 * linear probing.
 */
#define TID_DIRECT	(1u << 22)
#define TID_PAGE_BITS	10
#define TID_PAGE	(1u << TID_PAGE_BITS)

struct thread_map {
	struct thread **pages[TID_DIRECT / TID_PAGE];
	struct thread **slots;
	size_t mask;
	size_t count;
};

struct model_check;

struct schedmodel {
	const struct srecreader_info *info;
	struct schedmodel_window window;
	uint64_t win_start, win_end;	/* absolute, once origin is set */
	uint64_t origin;
	uint64_t end;
	uint64_t last_ts;
	bool started;
	bool from_start;
	bool filtered;
	unsigned int nr_cpus;
	struct cpu *cpus;
	struct thread_map map;
	/*
	 * The processes, task->process - 1 their index: each one's leader
	 * under the last name the model knew it by (NULL: not seen), kept
	 * after the leader exits, since its threads may run on.  pids maps a
	 * tgid to the process it is now (uint32_t task->process): a pid
	 * reused by a later process is another.
	 */
	struct task **leaders;
	uint32_t nr_processes, cap_processes;
	struct keyed pids;
	bool *snap_seen;	/* per start-snapshot entry: a thread made */
	/* every CPU's holder was known in [known_lo, known_hi) (finish) */
	uint64_t known_lo, known_hi;
	struct task **tasks;
	size_t nr_tasks, cap_tasks;
	struct sched_handler handlers[MAX_HANDLERS];
	unsigned int nr_handlers;
	unsigned int wants;	/* WANT_*: skip what nobody asked for */
	bool lean;		/* see schedmodel_unneeded() */
	char letters[STATE_LETTERS];	/* of the prev_states of threads
					 * that were not preempted
					 */
	char preempted;			/* the letter of those that were */
	uint32_t high_state;		/* the last prev_state past letters */
	char high_letter;		/* and its letter (0: none yet) */
	struct sched_loss *losses;
	size_t nr_losses, cap_losses;
	struct stack_table stacks;
	struct schedmodel_anomalies anomalies;
	bool failed;
	unsigned int nr_queued;
	struct offcpu_iv queue[IV_QUEUE];	/* WANT_QUEUED */
	struct model_check *check;	/* SCHEDREC_MODEL_CHECK, or NULL */
};

/*
 * SCHEDREC_MODEL_CHECK: what a model flushed of its queue during one
 * record, and the model (@shadow) that reads the same records without
 * switch_plain(), NULL in the shadow itself.
 */
struct model_check {
	struct schedmodel *shadow;
	unsigned int nr_flushed;
	struct offcpu_iv flushed[IV_QUEUE];
};

static void check_keep(struct schedmodel *m);

/* ------------------------------------------------------------------ */
/* Tasks and threads */

/* A process not seen before: its task->process, or 0 (ENOMEM). */
static uint32_t process_new(struct schedmodel *m)
{
	struct task **v;
	uint32_t cap;

	if (m->nr_processes == m->cap_processes) {
		cap = m->cap_processes ? 2 * m->cap_processes : 64;
		v = realloc(m->leaders, cap * sizeof(*v));
		if (!v) {
			m->failed = true;
			return 0;
		}
		m->leaders = v;
		m->cap_processes = cap;
	}
	m->leaders[m->nr_processes++] = NULL;
	return m->nr_processes;
}

/*
 * @t is in process @tgid (0: not known), a new one if @forked (its leader
 * was just forked), else the one @tgid is now; with no tgid, the one
 * @was (the thread's task before a rename, NULL if none) was in, or one
 * of its own.  Whether it is the drainer follows (its tid is the
 * drainer's, even before its process is known), and what was decided
 * about selecting it no longer holds.  A leader names its process from
 * now on.
 */
static void task_set_process(struct schedmodel *m, struct task *t,
			     uint32_t tgid, const struct task *was,
			     bool forked)
{
	const struct srec_file_head *f = &m->info->file;
	uint32_t *process;
	bool fresh;

	t->tgid = tgid;
	t->drainer = f->drainer_pid &&
		     (tgid == f->drainer_pid || t->tid == f->drainer_pid ||
		      t->tid == f->drainer_tid);
	t->selected = -1;
	if (!tgid) {
		t->process = was && !was->tgid ? was->process :
			     process_new(m);
		return;
	}
	process = keyed_get(&m->pids, tgid, &fresh);
	if (!process) {
		m->failed = true;
		return;
	}
	if (fresh || forked)
		*process = process_new(m);
	t->process = *process;
	if (t->tid == tgid && t->process)
		m->leaders[t->process - 1] = t;
}

/* A task of @tid in @tgid named @comm: task_set_process() tells the rest. */
static struct task *task_new(struct schedmodel *m, uint32_t tid,
			     uint32_t tgid, const char *comm,
			     const struct task *was, bool forked)
{
	struct task *t;

	if (m->nr_tasks == m->cap_tasks) {
		size_t cap = m->cap_tasks ? 2 * m->cap_tasks : 256;
		struct task **v = realloc(m->tasks, cap * sizeof(*v));

		if (!v)
			return NULL;
		m->tasks = v;
		m->cap_tasks = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->id = m->nr_tasks;
	t->tid = tid;
	if (comm)
		memcpy(t->comm, comm, SCHEDREC_COMM_LEN);
	task_set_process(m, t, tgid, was, forked);
	m->tasks[m->nr_tasks++] = t;
	return t;
}

/* The home slot of @tid in a hash table of @mask + 1 slots. */
static size_t map_slot(size_t mask, uint32_t tid)
{
	return ((uint64_t)tid * 0x9e3779b97f4a7c15ull >> 32) & mask;
}

static inline __attribute__((always_inline)) struct thread *
map_find(const struct thread_map *map, uint32_t tid)
{
	struct thread **page;
	size_t i;

	if (tid < TID_DIRECT) {
		page = map->pages[tid >> TID_PAGE_BITS];
		return page ? page[tid & (TID_PAGE - 1)] : NULL;
	}
	i = map_slot(map->mask, tid);

	for (; map->slots[i]; i = (i + 1) & map->mask)
		if (map->slots[i]->tid == tid)
			return map->slots[i];
	return NULL;
}

/* Twice the hash table's slots; the direct pages stay as they are. */
static int map_grow(struct thread_map *map)
{
	size_t mask = 2 * map->mask + 1, i, j;
	struct thread **slots = calloc(mask + 1, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i <= map->mask; i++) {
		struct thread *t = map->slots[i];

		if (!t)
			continue;
		for (j = map_slot(mask, t->tid); slots[j]; j = (j + 1) & mask)
			;
		slots[j] = t;
	}
	free(map->slots);
	map->slots = slots;
	map->mask = mask;
	return 0;
}

static int map_insert(struct thread_map *map, struct thread *t)
{
	struct thread ***page;
	size_t i;

	if (t->tid < TID_DIRECT) {
		page = &map->pages[t->tid >> TID_PAGE_BITS];
		if (!*page)
			*page = calloc(TID_PAGE, sizeof(**page));
		if (!*page)
			return -ENOMEM;
		(*page)[t->tid & (TID_PAGE - 1)] = t;
		return 0;
	}

	if ((map->count + 1) * 4 > (map->mask + 1) * 3 && map_grow(map))
		return -ENOMEM;
	for (i = map_slot(map->mask, t->tid); map->slots[i];
	     i = (i + 1) & map->mask)
		;
	map->slots[i] = t;
	map->count++;
	return 0;
}

/* Remove @t, moving later entries of its probe run back into the hole. */
static void map_remove(struct thread_map *map, struct thread *t)
{
	size_t i, j, home;

	if (t->tid < TID_DIRECT) {
		map->pages[t->tid >> TID_PAGE_BITS][t->tid & (TID_PAGE - 1)] =
			NULL;
		return;
	}
	i = map_slot(map->mask, t->tid);

	while (map->slots[i] != t)
		i = (i + 1) & map->mask;
	map->slots[i] = NULL;
	map->count--;
	for (j = (i + 1) & map->mask; map->slots[j]; j = (j + 1) & map->mask) {
		home = map_slot(map->mask, map->slots[j]->tid);
		/* can the entry at j move to the hole at i? */
		if (((j - home) & map->mask) >= ((j - i) & map->mask)) {
			map->slots[i] = map->slots[j];
			map->slots[j] = NULL;
			i = j;
		}
	}
}

/* Call @fn for every thread of @map (it may free the thread). */
static void map_for_each(struct thread_map *map,
			 void (*fn)(struct schedmodel *m, struct thread *t),
			 struct schedmodel *m)
{
	size_t page, i;

	for (page = 0; page < TID_DIRECT / TID_PAGE; page++)
		for (i = 0; map->pages[page] && i < TID_PAGE; i++)
			if (map->pages[page][i])
				fn(m, map->pages[page][i]);
	for (i = 0; map->slots && i <= map->mask; i++)
		if (map->slots[i])
			fn(m, map->slots[i]);
}

/*
 * A thread first seen now: made, named from the start snapshot if any;
 * @fork, if not NULL, is the fork record that made it, which names it and
 * tells its process (not an earlier thread of its tid in the snapshot).
 */
static __attribute__((noinline)) struct thread *
thread_new(struct schedmodel *m, uint32_t tid,
	   const struct schedrec_task *fork)
{
	const struct srec_thread *snap;
	struct thread *t;

	if (posix_memalign((void **)&t, THREAD_ALIGN, sizeof(*t)))
		goto fail;
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->cpu = CPU_NONE;
	t->rq_cpu = CPU_NONE;
	snap = srecreader_info_thread(m->info, tid);
	if (snap) {
		m->snap_seen[snap - m->info->threads] = true;
		t->born_known = true;
	}
	if (fork)
		t->task = task_new(m, tid, fork->tgid, fork->comm, NULL,
				   fork->tid == fork->tgid);
	else
		t->task = task_new(m, tid, snap ? snap->tgid : 0,
				   snap ? snap->comm : NULL, NULL, false);
	if (!t->task || map_insert(&m->map, t)) {
		free(t);
		goto fail;
	}
	return t;
fail:
	m->failed = true;
	return NULL;
}

/* The thread of @tid, made (unseen, named from the snapshot) if new. */
static inline struct thread *thread_get(struct schedmodel *m, uint32_t tid)
{
	struct thread *t = map_find(&m->map, tid);

	return t ? t : thread_new(m, tid, NULL);
}

/* ------------------------------------------------------------------ */
/* Stacks */

static uint64_t stack_hash(const uint64_t *ips, uint16_t nr)
{
	uint64_t h = 0xcbf29ce484222325ull ^ nr;
	uint16_t i;

	for (i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 0x100000001b3ull;
	return h ^ h >> 29;
}

static bool stack_equal(const struct sched_stack *s, const uint64_t *ips,
			uint16_t nr)
{
	return s->nr == nr && !memcmp(s->ips, ips, nr * sizeof(*ips));
}

static int stacks_grow(struct stack_table *t)
{
	size_t mask = t->mask ? 2 * t->mask + 1 : 255, i, j;
	struct sched_stack **slots = calloc(mask + 1, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; t->slots && i <= t->mask; i++) {
		struct sched_stack *s = t->slots[i];

		if (!s)
			continue;
		for (j = stack_hash(s->ips, s->nr) & mask; slots[j];
		     j = (j + 1) & mask)
			;
		slots[j] = s;
	}
	free(t->slots);
	t->slots = slots;
	t->mask = mask;
	return 0;
}

/* The one struct for the stack @ips[@nr], made if new; NULL on ENOMEM. */
static const struct sched_stack *stack_intern(struct stack_table *t,
					      const uint64_t *ips,
					      uint16_t nr)
{
	struct sched_stack *s;
	size_t i;

	if ((t->count + 1) * 4 > (t->mask + 1) * 3 && stacks_grow(t))
		return NULL;
	for (i = stack_hash(ips, nr) & t->mask; t->slots[i];
	     i = (i + 1) & t->mask)
		if (stack_equal(t->slots[i], ips, nr))
			return t->slots[i];
	s = malloc(sizeof(*s) + nr * sizeof(*ips));
	if (!s)
		return NULL;
	s->id = t->count++;
	s->nr = nr;
	memcpy(s->ips, ips, nr * sizeof(*ips));
	t->slots[i] = s;
	return s;
}

static void stacks_free(struct stack_table *t)
{
	size_t i;

	for (i = 0; t->slots && i <= t->mask; i++)
		free(t->slots[i]);
	free(t->slots);
}

/*
 * A STACK record: kept for the switch that follows it on its CPU (same
 * time, same tid), which gives it to the interval it starts.
 */
static void on_stack(struct schedmodel *m, uint32_t cpu,
		     const struct schedrec_stack *st)
{
	struct cpu *c = &m->cpus[cpu];
	uint16_t nr = st->nr;

	/* the reader checked that @nr addresses fit in the record */
	if (nr > SCHEDREC_STACK_MAX_DEPTH)
		nr = SCHEDREC_STACK_MAX_DEPTH;
	c->pending_stack = stack_intern(&m->stacks,
					 (const uint64_t *)st->ips, nr);
	if (!c->pending_stack)
		m->failed = true;
	c->pending_tid = st->tid;
	c->pending_ts = st->hdr.ts;
}

/* ------------------------------------------------------------------ */
/* Handing intervals to the reports, clipped to the window */

#define EMIT(m, fn, ev)							\
	do {								\
		unsigned int __i;					\
		for (__i = 0; __i < (m)->nr_handlers; __i++)		\
			if ((m)->handlers[__i].fn)			\
				(m)->handlers[__i].fn(			\
					(m)->handlers[__i].arg, ev);	\
	} while (0)

/*
 * Clip [*start, *end) to the window, flagging what it cuts; false if
 * nothing is left.  An empty interval stays if it is inside.
 */
static inline bool clip(const struct schedmodel *m, uint64_t *start,
			uint64_t *end, unsigned int *flags)
{
	if (*end < *start)
		return false;
	if (*end == *start)
		return *start >= m->win_start && *start < m->win_end;
	if (*end <= m->win_start || *start >= m->win_end)
		return false;
	if (*start < m->win_start) {
		*start = m->win_start;
		*flags |= IV_CUT_START;
	}
	if (*end > m->win_end) {
		*end = m->win_end;
		*flags |= IV_CUT_END;
	}
	return true;
}

static void emit_oncpu(struct schedmodel *m, const struct thread *t,
		       uint32_t cpu, uint64_t start, uint64_t end,
		       unsigned int flags)
{
	struct oncpu_iv iv = {
		.task = t ? t->task : NULL, .cpu = cpu,
		.start = start, .end = end, .flags = flags,
	};

	if (end > start && clip(m, &iv.start, &iv.end, &iv.flags))
		EMIT(m, oncpu, &iv);
}

/*
 * The time up to @ts that runnable @waiter waited on CPU @cpu (@c) while
 * its holder (@usurper, its task) ran there, into @ev, clipped to the
 * window unless the caller knows it is @inside; false if none is left.
 */
static inline __attribute__((always_inline)) bool
usurp_ev_set(struct schedmodel *m, struct usurp_ev *ev,
	     const struct thread *waiter, const struct cpu *c, uint32_t cpu,
	     const struct task *usurper, uint64_t ts, bool inside)
{
	unsigned int flags = 0;

	ev->task = waiter->task;
	ev->usurper = usurper;
	ev->cpu = cpu;
	ev->out_cpu = waiter->cpu;
	ev->start = waiter->rq_since > c->since ? waiter->rq_since : c->since;
	ev->end = ts;
	return ev->end > ev->start &&
	       (inside || clip(m, &ev->start, &ev->end, &flags));
}

/* usurp_ev_set()'s time of @waiter to the handlers, if any is left. */
static inline __attribute__((always_inline)) void
emit_usurp(struct schedmodel *m, const struct thread *waiter,
	   const struct cpu *c, uint32_t cpu, uint64_t ts, bool inside)
{
	struct usurp_ev ev;

	if (usurp_ev_set(m, &ev, waiter, c, cpu,
			 c->curr ? c->curr->task : NULL, ts, inside))
		EMIT(m, usurp, &ev);
}

/* The queued off-CPU intervals to each handler, in order. */
static __attribute__((noinline)) void flush_offcpu(struct schedmodel *m)
{
	const struct sched_handler *h;
	unsigned int i, k;

	if (unlikely(m->check))
		check_keep(m);
	for (k = 0; k < m->nr_handlers && m->nr_queued; k++) {
		h = &m->handlers[k];
		if (h->offcpus)
			h->offcpus(h->arg, m->queue, m->nr_queued);
		else if (h->offcpu)
			for (i = 0; i < m->nr_queued; i++)
				h->offcpu(h->arg, &m->queue[i]);
	}
	m->nr_queued = 0;
}

/*
 * The whole of @iv, renamed while off CPU: from @start, with @flags (of
 * the edges), under the name of its first part in the window.
 */
static __attribute__((noinline)) void
offcpu_whole(struct schedmodel *m, const struct thread *t,
	     struct offcpu_iv *iv, uint64_t start, unsigned int flags)
{
	uint64_t end = iv->end;

	iv->iv_start = start;
	iv->iv_flags = flags;
	if (m->nr_losses && schedmodel_overlaps_loss(m, start, end))
		iv->iv_flags |= IV_UNCERTAIN;
	clip(m, &iv->iv_start, &end, &iv->iv_flags);
	iv->iv_task = t->iv_task ? t->iv_task : t->task;
}

/*
 * An interval not in parts: field by field, as a compound literal made the
 * compiler clear the whole struct through the stack first.
 */
static inline __attribute__((always_inline)) void
offcpu_iv_set(struct offcpu_iv *iv, const struct task *task, uint64_t start,
	      uint64_t end, char state, uint32_t out_cpu, uint32_t in_cpu,
	      unsigned int flags, const struct sched_stack *stack)
{
	iv->task = task;
	iv->start = start;
	iv->end = end;
	iv->state = state;
	iv->out_cpu = out_cpu;
	iv->in_cpu = in_cpu;
	iv->flags = flags;
	iv->stack = stack;
	iv->iv_start = start;
	iv->iv_task = task;
	iv->iv_flags = flags;
}

/*
 * @t's off-CPU interval [@start, @end) (its last part, if it was renamed
 * meanwhile): @flags say which edges are censored.
 */
static inline __attribute__((always_inline)) void
emit_offcpu(struct schedmodel *m, unsigned int wants, const struct thread *t,
	    uint64_t start, uint64_t end, uint32_t in_cpu, unsigned int flags)
{
	bool off = t->where == WHERE_OFF, part = t->piece > start;
	struct offcpu_iv here, *iv = wants & WANT_QUEUED ?
				     &m->queue[m->nr_queued] : &here;
	uint64_t from = part ? t->piece : start;
	unsigned int whole = flags;	/* of the whole, if in parts */

	if (!(wants & WANT_OFFCPU))
		return;
	if (part)
		flags &= ~IV_CUT_START;
	if (m->nr_losses && schedmodel_overlaps_loss(m, from, end))
		flags |= IV_UNCERTAIN;
	/* clip() has nothing to cut from most: inside the window */
	if (unlikely(end <= from || from < m->win_start || end > m->win_end) &&
	    !clip(m, &from, &end, &flags))
		return;
	offcpu_iv_set(iv, t->task, from, end, off ? t->state : '?',
		      off ? t->cpu : CPU_NONE, in_cpu, flags,
		      off ? t->stack : NULL);
	if (part)
		offcpu_whole(m, t, iv, start, whole);
	if (!(wants & WANT_QUEUED))
		EMIT(m, offcpu, iv);
	else if (++m->nr_queued == IV_QUEUE)
		flush_offcpu(m);
}

/*
 * A part of @t's interval off CPU that a rename ended: [@start, @end)
 * under @task, IV_CONTINUED (see struct offcpu_iv) and @flags; the first
 * in the window names the whole.  Only when the model wants WANT_OFFCPU.
 */
static void emit_part(struct schedmodel *m, struct thread *t,
		      struct task *task, uint64_t start, uint64_t end,
		      unsigned int flags)
{
	bool off = t->where == WHERE_OFF;
	struct offcpu_iv iv = {
		.task = task, .start = start, .end = end,
		.state = off ? t->state : '?',
		.out_cpu = off ? t->cpu : CPU_NONE, .in_cpu = CPU_NONE,
		.flags = IV_CONTINUED | flags,
		.stack = off ? t->stack : NULL,
	};

	if (m->nr_losses && schedmodel_overlaps_loss(m, start, end))
		iv.flags |= IV_UNCERTAIN;
	if (!clip(m, &iv.start, &iv.end, &iv.flags))
		return;
	if (!t->iv_task)
		t->iv_task = task;
	iv.iv_start = iv.start;
	iv.iv_task = iv.task;
	iv.iv_flags = iv.flags;
	EMIT(m, offcpu, &iv);
}

/*
 * Never-seen @t's time off CPU, [@start, @end), as emit_offcpu() takes
 * it, in parts at the renames offcpu_split() kept: those that end before
 * @end, IV_CONTINUED, then the last one, which gives the whole.
 */
static void emit_unseen(struct schedmodel *m, unsigned int wants,
			struct thread *t, uint64_t start, uint64_t end,
			uint32_t in_cpu, unsigned int flags)
{
	struct thread last;
	uint64_t from = start, to;
	uint32_t k;

	if (!t->nr_parts) {
		emit_offcpu(m, wants, t, start, end, in_cpu, flags);
		return;
	}
	last = *t;
	last.piece = 0;
	for (k = 0; k < t->nr_parts; k++) {
		to = t->parts[k].end < end ? t->parts[k].end : end;
		if (to <= from)
			continue;
		if (to == end) {
			/* renamed later: this name's part is the last */
			last.task = t->parts[k].task;
			break;
		}
		emit_part(m, &last, t->parts[k].task, from, to,
			  from == start ? flags & IV_CUT_START : 0);
		from = to;
		last.piece = to;
	}
	emit_offcpu(m, wants, &last, start, end, in_cpu, flags);
	free(t->parts);
	t->parts = NULL;
	t->nr_parts = 0;
}

static void emit_latency(struct schedmodel *m, const struct thread *t,
			 enum latency_kind kind, uint64_t start, uint64_t end,
			 uint32_t cpu)
{
	struct latency_ev ev = {
		.task = kind == LATENCY_WAKEUP ? t->wake_task : t->out_task,
		.kind = kind, .start = start, .end = end, .cpu = cpu,
	};
	if (!(m->wants & WANT_LATENCY) || end < m->win_start ||
	    end >= m->win_end || end < start)
		return;
	if (kind == LATENCY_WAKEUP) {
		ev.waker_irq = t->waker_irq;
		ev.waker = t->waker;
	}
	if (schedmodel_overlaps_loss(m, start, end))
		ev.flags |= IV_UNCERTAIN;
	EMIT(m, latency, &ev);
}

/* ------------------------------------------------------------------ */
/* Runqueue waiters: who held the CPU a runnable thread waited for */

static void waiter_add(struct schedmodel *m, struct thread *t, uint32_t cpu,
		       uint64_t ts)
{
	struct cpu *c = &m->cpus[cpu];

	t->waiting = true;
	t->rq_cpu = cpu;
	t->rq_since = ts;
	t->rq_prev = NULL;
	t->rq_next = c->waiters;
	if (c->waiters)
		c->waiters->rq_prev = t;
	c->waiters = t;
}

static void waiter_remove(struct schedmodel *m, struct thread *t)
{
	if (!t->waiting)
		return;
	if (t->rq_prev)
		t->rq_prev->rq_next = t->rq_next;
	else
		m->cpus[t->rq_cpu].waiters = t->rq_next;
	if (t->rq_next)
		t->rq_next->rq_prev = t->rq_prev;
	t->waiting = false;
	t->rq_prev = NULL;
	t->rq_next = NULL;
}

/*
 * Waiter @t's runqueue's holder since then up to @ts, as usurped time:
 * before it leaves that runqueue (a migration, or a switch-in elsewhere
 * with none seen), or is renamed.  Whether that holder is known.
 */
static __attribute__((noinline)) bool
waiter_usurped(struct schedmodel *m, const struct thread *t, uint64_t ts)
{
	const struct cpu *c = &m->cpus[t->rq_cpu];

	if (c->known)
		emit_usurp(m, t, c, t->rq_cpu, ts, false);
	return c->known;
}

/* Usurped times handed to the handlers at once (emit_usurps()) */
#define USURP_BATCH	64

/* @n usurped times of one holder to each handler: in one call if it can. */
static void flush_usurps(struct schedmodel *m, const struct usurp_ev *evs,
			 unsigned int n)
{
	const struct sched_handler *h;
	unsigned int i, k;

	for (k = 0; k < m->nr_handlers; k++) {
		h = &m->handlers[k];
		if (h->usurps)
			h->usurps(h->arg, evs, n);
		else if (h->usurp)
			for (i = 0; i < n; i++)
				h->usurp(h->arg, &evs[i]);
	}
}

/*
 * CPU @cpu's holder since c->since up to @ts, as usurped time of each
 * runnable waiter: the window is tested once for them all, and they go
 * to the handlers USURP_BATCH at a time.
 */
static __attribute__((noinline)) void
emit_usurps(struct schedmodel *m, const struct cpu *c, uint32_t cpu,
	    uint64_t ts)
{
	bool inside = c->since >= m->win_start && ts <= m->win_end;
	const struct task *usurper = c->curr ? c->curr->task : NULL;
	struct usurp_ev evs[USURP_BATCH];
	const struct thread *w;
	unsigned int n = 0;

	for (w = c->waiters; w; w = w->rq_next) {
		if (!usurp_ev_set(m, &evs[n], w, c, cpu, usurper, ts,
				  inside))
			continue;
		if (++n == USURP_BATCH) {
			flush_usurps(m, evs, n);
			n = 0;
		}
	}
	if (n)
		flush_usurps(m, evs, n);
}

/*
 * Count CPU @cpu's time up to @ts: to whoever runs there, and to the
 * runnable threads waiting for it as usurped time.  @end_flags: IV_CUT_END
 * when the recording ends there.
 */
static inline __attribute__((always_inline)) void
cpu_account(struct schedmodel *m, unsigned int wants, uint32_t cpu, uint64_t ts,
	    unsigned int end_flags)
{
	struct cpu *c = &m->cpus[cpu];

	if (!c->known || ts <= c->since)
		return;
	if (wants & WANT_ONCPU)
		emit_oncpu(m, c->curr, cpu, c->since, ts,
			   c->since_flags | end_flags);
	if ((wants & WANT_USURP) && c->waiters)
		emit_usurps(m, c, cpu, ts);
	c->since = ts;
	c->since_flags = 0;
}

/* Forget what runs on @cpu (a loss, or a switch that disagrees). */
static void cpu_forget(struct schedmodel *m, uint32_t cpu)
{
	struct cpu *c = &m->cpus[cpu];
	struct thread *t = c->curr;

	if (c->known && t && t->where == WHERE_ON && t->cpu == cpu)
		t->where = WHERE_LOST;
	c->known = false;
	c->curr = NULL;
}

/* ------------------------------------------------------------------ */
/* Losses */

/* What a loss window is known by */
enum loss_kind {
	LOSS_COUNTED,		/* a LOST record */
	LOSS_UNEXPLAINED,	/* sequence numbers missing */
	LOSS_CUT,		/* the input ends before the CPU's records */
};

static void loss_add(struct schedmodel *m, uint32_t cpu, uint64_t count,
		     uint64_t first, uint64_t last, enum loss_kind kind)
{
	size_t *latest = &m->cpus[cpu].last_loss[kind == LOSS_CUT];
	struct sched_loss *l;

	if (m->nr_losses >= LOSSES_MAX && *latest) {
		/*
		 * bounded memory: widen this CPU's latest window of the
		 * kind (a cut comes once a CPU, at the end), found without
		 * a look through all of them: a header may claim 65536
		 * CPUs, each cut short
		 */
		l = &m->losses[*latest - 1];
		l->count += count;
		l->first = first < l->first ? first : l->first;
		l->last = last > l->last ? last : l->last;
		l->unexplained |= kind == LOSS_UNEXPLAINED;
		return;
	}
	if (m->nr_losses == m->cap_losses) {
		size_t cap = m->cap_losses ? 2 * m->cap_losses : 16;

		l = realloc(m->losses, cap * sizeof(*l));
		if (!l) {
			m->failed = true;
			return;
		}
		m->losses = l;
		m->cap_losses = cap;
	}
	m->losses[m->nr_losses++] = (struct sched_loss){
		.cpu = cpu, .count = count, .first = first, .last = last,
		.unexplained = kind == LOSS_UNEXPLAINED,
		.cut = kind == LOSS_CUT,
	};
	*latest = m->nr_losses;
}

/*
 * Events of @cpu between @first and @last are missing: count what ran up
 * to @first, then forget; the next switch's prev ran since @last at most.
 */
static void cpu_lost(struct schedmodel *m, uint32_t cpu, uint64_t count,
		     uint64_t first, uint64_t last, enum loss_kind kind)
{
	struct cpu *c = &m->cpus[cpu];
	struct thread *w;

	loss_add(m, cpu, count, first, last, kind);
	cpu_account(m, m->wants, cpu, first, IV_UNCERTAIN);
	cpu_forget(m, cpu);
	c->pending = true;
	c->since = last;
	c->since_flags = IV_UNCERTAIN;
	for (w = c->waiters; w; w = w->rq_next)
		if (w->rq_since < last)
			w->rq_since = last;
}

/* ------------------------------------------------------------------ */
/* Records */

/* The origin of relative times if the first record is at @first_ts. */
static uint64_t origin_at(const struct schedmodel *m, uint64_t first_ts)
{
	const struct srec_file_head *f = &m->info->file;

	return f->start_mono_ns && f->start_mono_ns < first_ts ?
	       f->start_mono_ns : first_ts;
}

uint64_t schedmodel_window_end_at(const struct schedmodel *m,
				  uint64_t first_ts)
{
	uint64_t origin = origin_at(m, first_ts);

	return m->window.end == UINT64_MAX ||
	       m->window.end > UINT64_MAX - origin ?
	       UINT64_MAX : origin + m->window.end;
}

static void set_origin(struct schedmodel *m, uint64_t first_ts)
{
	unsigned int cpu;

	m->origin = origin_at(m, first_ts);
	m->win_start = m->origin + m->window.start;
	m->win_end = schedmodel_window_end_at(m, first_ts);
	/* every ring starts empty at the origin: the first prev ran since */
	for (cpu = 0; m->from_start && cpu < m->nr_cpus; cpu++) {
		m->cpus[cpu].pending = true;
		m->cpus[cpu].since = m->origin;
		m->cpus[cpu].since_flags = IV_CUT_START;
	}
	m->started = true;
}

/* @t's wakeup, at @t->wake_ts, recorded on @cpu for @target_cpu. */
static void emit_wakeup(struct schedmodel *m, unsigned int wants,
			const struct thread *t, uint32_t cpu,
			uint32_t target_cpu)
{
	struct wakeup_ev ev = {
		.task = t->task, .waker = t->waker, .waker_irq = t->waker_irq,
		.cpu = cpu, .target_cpu = target_cpu, .ts = t->wake_ts,
	};

	if ((wants & WANT_WAKEUP) && t->wake_ts >= m->win_start &&
	    t->wake_ts < m->win_end)
		EMIT(m, wakeup, &ev);
}

/*
 * @t switched out at @ts after a sched_waking came while it still ran
 * (on_wakeup_running()): if it went to sleep, that waking is its wakeup, and it
 * took effect at the switch-out.
 */
static __attribute__((noinline)) void
early_waking_apply(struct schedmodel *m, unsigned int wants, struct thread *t,
		   uint64_t ts, bool asleep)
{
	if (asleep) {
		t->wake_ts = ts;
		t->wake_task = t->task;
		emit_wakeup(m, wants, t, t->early_cpu, t->early_target);
	}
	t->early_ts = 0;
}

static inline __attribute__((always_inline)) void
thread_switch_out(struct schedmodel *m, unsigned int wants, struct thread *t,
		  uint32_t cpu, uint64_t ts, char state, bool asleep,
		  const struct sched_stack *stack)
{
	/* still running elsewhere as far as we saw (a desync): not there */
	if (t->where == WHERE_ON && t->cpu != cpu)
		cpu_forget(m, t->cpu);
	waiter_remove(m, t);
	t->stack = stack;
	if (wants & WANT_LATENCY)
		t->out_task = t->task;
	t->piece = 0;
	t->iv_task = NULL;
	t->where = WHERE_OFF;
	t->cpu = cpu;
	t->since = ts;
	t->state = state;
	t->wake_ts = 0;
	if (unlikely(t->early_ts))
		early_waking_apply(m, wants, t, ts, asleep);
	/* the waiters serve only usurped time: without it, none to keep */
	if ((wants & WANT_USURP) && state == 'R')
		waiter_add(m, t, cpu, ts);
}

static void free_thread(struct schedmodel *m, struct thread *t)
{
	(void)m;
	free(t->parts);
	free(t);
}

/* @t's life is over (exit, or its tid taken): forget it everywhere. */
static void thread_drop(struct schedmodel *m, struct thread *t)
{
	uint32_t cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (m->cpus[cpu].curr == t)
			cpu_forget(m, cpu);
	waiter_remove(m, t);
	map_remove(&m->map, t);
	free_thread(m, t);
}

static inline __attribute__((always_inline)) void
thread_switch_in(struct schedmodel *m, unsigned int wants, struct thread *t,
		 uint32_t cpu, uint64_t ts)
{
	if (t->where == WHERE_ON && t->cpu != cpu) {
		/* it never left that CPU as far as we saw: a loss */
		cpu_forget(m, t->cpu);
		m->anomalies.desyncs++;
	}
	if (t->where == WHERE_OFF) {
		emit_offcpu(m, wants, t, t->since, ts, cpu, 0);
		if ((wants & WANT_LATENCY) && t->state == 'R')
			emit_latency(m, t, LATENCY_RUNQUEUE, t->since, ts, cpu);
	} else if (t->where == WHERE_UNSEEN) {
		/* off CPU since before the recording, as far as we know */
		emit_unseen(m, wants, t, m->origin, ts, cpu, IV_CUT_START);
	}
	if ((wants & WANT_LATENCY) && t->wake_ts)
		emit_latency(m, t, LATENCY_WAKEUP, t->wake_ts, ts, cpu);
	/* switched in elsewhere with no migration seen: it waited till now */
	if (unlikely(t->waiting && t->rq_cpu != cpu))
		waiter_usurped(m, t, ts);
	waiter_remove(m, t);
	t->where = WHERE_ON;
	t->cpu = cpu;
	t->since = ts;
	t->wake_ts = 0;
	t->early_ts = 0;
	t->piece = 0;
	t->iv_task = NULL;
}

/*
 * The letter of a prev_state with bits past the table (6.12's S is
 * 0x2001 with TASK_FREEZABLE): one remembered, as the same comes again.
 */
static __attribute__((noinline)) char high_state_new(struct schedmodel *m,
						    uint32_t prev_state)
{
	m->high_state = prev_state;
	m->high_letter = taskstate_letter(prev_state, false);
	return m->high_letter;
}

static inline __attribute__((always_inline)) char
high_state_letter(struct schedmodel *m, uint32_t prev_state)
{
	if (likely(m->high_letter && m->high_state == prev_state))
		return m->high_letter;
	return high_state_new(m, prev_state);
}

static inline __attribute__((always_inline)) void
on_switch(struct schedmodel *m, unsigned int wants, uint32_t cpu,
	  const struct schedrec_switch *sw)
{
	bool preempt = sw->hdr.flags & SCHEDREC_F_PREEMPT;
	struct cpu *c = &m->cpus[cpu];
	uint64_t ts = sw->hdr.ts;
	struct thread *prev = NULL, *next = NULL;
	const struct sched_stack *stack = NULL;
	char state;

	/* the kernel never switches a task to itself: a damaged record */
	if (sw->prev_tid && sw->prev_tid == sw->next_tid) {
		m->anomalies.desyncs++;
		return;
	}
	if (sw->prev_tid) {
		/* mostly the thread we saw switched in here: no lookup */
		prev = c->curr && c->curr->tid == sw->prev_tid ? c->curr :
		       thread_get(m, sw->prev_tid);
		if (!prev)
			return;
	}
	if (sw->next_tid) {
		next = thread_get(m, sw->next_tid);
		if (!next)
			return;
	}

	if (!c->ever_known) {
		/* from here on, who holds this CPU is known */
		c->ever_known = true;
		c->known_from = !c->known && c->pending ? c->since : ts;
	}
	/* the CPU's time up to now belongs to prev */
	if (c->known && c->curr == prev) {
		cpu_account(m, wants, cpu, ts, 0);
	} else if (!c->known && c->pending) {
		/* now we know who held it since then: count it all */
		c->curr = prev;
		c->known = true;
		cpu_account(m, wants, cpu, ts, 0);
	} else {
		cpu_forget(m, cpu);
		m->anomalies.desyncs++;
	}

	/* the STACK record right before this switch, of its prev */
	if (c->pending_stack && c->pending_tid == sw->prev_tid &&
	    c->pending_ts == ts)
		stack = c->pending_stack;
	c->pending_stack = NULL;
	if (prev) {
		char letter = sw->prev_state < STATE_LETTERS ?
			      m->letters[sw->prev_state] :
			      high_state_letter(m, sw->prev_state);

		/* preempted or not is a coin toss: masks, not a branch */
		state = letter ^ ((letter ^ m->preempted) & -(int)preempt);
		if ((wants & WANT_SWITCHOUT) && ts >= m->win_start &&
		    ts < m->win_end) {
			struct switchout_ev ev = {
				.task = prev->task, .cpu = cpu, .ts = ts,
				.state = state, .next = next ? next->task : NULL,
				.stack = stack,
			};

			EMIT(m, switchout, &ev);
		}
		/* a dying thread's last switch-out starts no interval */
		if (taskstate_is_dead(sw->prev_state) && !preempt)
			thread_drop(m, prev);
		else
			thread_switch_out(m, wants, prev, cpu, ts, state,
					  sw->prev_state && !preempt, stack);
	}
	if (next)
		thread_switch_in(m, wants, next, cpu, ts);
	c->curr = next;
	c->known = true;
	c->pending = false;
	c->since = ts;
	c->since_flags = 0;
}

/*
 * on_switch() of offcpu's model (WANT_OFFCPU alone) where nothing is out
 * of the ordinary, as most switches are: the CPU's holder known and the
 * switch's prev (or idle), running there; the thread switched in (or
 * idle) known, off CPU since its switch-out and not renamed meanwhile;
 * no STACK record, no loss known, the interval inside the window.  It
 * does what on_switch() does then, in a third of the instructions, and
 * says whether it could; if not, nothing was changed.
 */
static inline __attribute__((always_inline)) bool
switch_plain(struct schedmodel *m, struct cpu *c, uint32_t cpu,
	     const struct schedrec_switch *sw)
{
	bool preempt = sw->hdr.flags & SCHEDREC_F_PREEMPT;
	struct thread *prev = c->curr, *next = NULL;
	uint64_t ts = sw->hdr.ts;
	struct offcpu_iv *iv;
	char letter;

	if (!c->known || !c->ever_known || c->pending_stack || m->nr_losses ||
	    (prev ? prev->tid != sw->prev_tid : sw->prev_tid != 0) ||
	    ts <= c->since)
		return false;
	if (prev && (prev->where != WHERE_ON || prev->cpu != cpu ||
		     prev->waiting ||
		     (taskstate_is_dead(sw->prev_state) && !preempt)))
		return false;
	if (sw->next_tid) {
		if (sw->next_tid >= TID_DIRECT)
			return false;
		next = map_find(&m->map, sw->next_tid);
		if (!next || next == prev || next->where != WHERE_OFF ||
		    next->piece || next->waiting || next->since >= ts ||
		    next->since < m->win_start || ts > m->win_end)
			return false;
	}
	if (prev) {
		letter = sw->prev_state < STATE_LETTERS ?
			 m->letters[sw->prev_state] :
			 high_state_letter(m, sw->prev_state);
		prev->state = letter ^ ((letter ^ m->preempted) & -(int)preempt);
		prev->stack = NULL;
		prev->where = WHERE_OFF;
		prev->since = ts;
		prev->wake_ts = 0;
		/* piece and iv_task are 0 on CPU: thread_switch_in() */
	}
	if (next) {
		iv = &m->queue[m->nr_queued];
		offcpu_iv_set(iv, next->task, next->since, ts, next->state,
			      next->cpu, cpu, 0, next->stack);
		next->where = WHERE_ON;
		next->cpu = cpu;
		next->since = ts;
		next->wake_ts = 0;
		if (++m->nr_queued == IV_QUEUE)
			flush_offcpu(m);
	}
	c->curr = next;
	c->pending = false;
	c->since = ts;
	c->since_flags = 0;
	return true;
}

static void waker_set(struct schedmodel *m, struct thread *t,
		      const struct schedrec_wakeup *wk)
{
	t->waker_irq = wk->hdr.flags & SCHEDREC_F_IRQ;
	t->waker = NULL;
	if (!t->waker_irq && wk->waker_tid && wk->waker_tid != wk->tid) {
		struct thread *waker = thread_get(m, wk->waker_tid);

		t->waker = waker ? waker->task : NULL;
	}
}

/*
 * A wakeup of @t while it runs, as far as the records have shown.  A
 * waker on another CPU can catch a thread that has left the runqueue but
 * whose switch is not recorded yet: its sched_waking comes first, and the
 * sched_wakeup follows the switch-out (from the waker once the switch is
 * done, or from an IPI on the target CPU, in interrupt context).  That
 * waking is kept for the switch-out, where it is the wakeup if the thread
 * went to sleep.  A thread woken before it left the runqueue never sleeps:
 * its sched_wakeup comes while it runs and drops the waking.  Without
 * sched_wakeup records the two cannot be told apart, and a waking while
 * running starts nothing.
 */
static __attribute__((noinline)) void
on_wakeup_running(struct schedmodel *m, struct thread *t, uint32_t cpu,
		  const struct schedrec_wakeup *wk)
{
	if (wk->hdr.type != SCHEDREC_EV_WAKING) {
		t->early_ts = 0;
		return;
	}
	if (t->early_ts ||
	    !(m->info->file.event_mask & 1u << SCHEDREC_EV_WAKEUP))
		return;
	t->early_ts = wk->hdr.ts;
	t->early_cpu = cpu;
	t->early_target = wk->target_cpu;
	waker_set(m, t, wk);
}

static inline __attribute__((always_inline)) void
on_wakeup(struct schedmodel *m, unsigned int wants, uint32_t cpu,
	  const struct schedrec_wakeup *wk)
{
	struct thread *t;

	/* lean: a wakeup nobody asked for makes no thread either */
	if (!(wants & WANT_WAKER) && m->lean &&
	    wk->hdr.type != SCHEDREC_EV_WAKEUP_NEW)
		return;
	t = thread_get(m, wk->tid);
	if (!t)
		return;
	if (wk->hdr.type == SCHEDREC_EV_WAKEUP_NEW &&
	    t->where == WHERE_UNSEEN)
		t->where = WHERE_NEW;
	if (!(wants & WANT_WAKER))
		return;
	if (t->where == WHERE_ON) {
		on_wakeup_running(m, t, cpu, wk);
		return;
	}
	/*
	 * Who woke it, and when: the first wakeup since its switch-out.  A
	 * thread switched out runnable (R) never slept: a waking then (of
	 * one preempted as it went to sleep) starts no wakeup latency.
	 */
	if (t->wake_ts || (t->where == WHERE_OFF && t->state == m->preempted))
		return;
	t->wake_ts = wk->hdr.ts;
	t->wake_task = t->task;
	waker_set(m, t, wk);
	emit_wakeup(m, wants, t, cpu, wk->target_cpu);
}

static void on_migrate(struct schedmodel *m, const struct schedrec_migrate *mg)
{
	struct thread *t = map_find(&m->map, mg->tid);
	uint64_t ts = mg->hdr.ts;

	if (!t || !t->waiting || mg->dest_cpu >= m->nr_cpus ||
	    mg->dest_cpu == t->rq_cpu)
		return;
	/* what it waited for on the old runqueue, then the new one */
	waiter_usurped(m, t, ts);
	waiter_remove(m, t);
	waiter_add(m, t, mg->dest_cpu, ts);
}

/* Whether CPU @cpu is in the header's list of CPUs online at start. */
static bool cpu_listed(const char *list, unsigned int cpu)
{
	unsigned long first, last;
	char *end;

	if (!list || !*list)
		return true;
	for (;;) {
		first = strtoul(list, &end, 10);
		if (end == list)
			return false;
		last = first;
		if (*end == '-') {
			list = end + 1;
			last = strtoul(list, &end, 10);
			if (end == list)
				return false;
		}
		if (cpu >= first && cpu <= last)
			return true;
		if (*end != ',')
			return false;
		list = end + 1;
	}
}

/*
 * Whether @cpu took part in the recording: online at its start, or named
 * by its records (not one offline all along).
 */
static bool cpu_present(const struct schedmodel *m, unsigned int cpu)
{
	return m->cpus[cpu].seen || cpu_listed(m->info->online, cpu);
}

/*
 * @t, off CPU (or not seen on one yet, known since the start), is
 * renamed at @ts: what it waited so far is its present name's, handed
 * over as a part of its interval, and so is the time it waited runnable
 * for its CPU's holder.  Never seen on a CPU, how long it was off CPU is
 * known only when it is (emit_unseen()): the part waits till then.
 */
static void offcpu_split(struct schedmodel *m, struct thread *t, uint64_t ts)
{
	bool off = t->where == WHERE_OFF;
	uint64_t start = off ? t->since : m->origin;
	uint64_t from = t->piece > start ? t->piece : start;
	struct unseen_part *parts;

	if (t->waiting && (m->wants & WANT_USURP) && waiter_usurped(m, t, ts))
		t->rq_since = ts;
	if (ts <= from || !(m->wants & WANT_OFFCPU))
		return;
	t->piece = ts;
	if (off) {
		emit_part(m, t, t->task, from, ts, 0);
		return;
	}
	parts = reallocarray(t->parts, t->nr_parts + 1, sizeof(*parts));
	if (!parts) {
		m->failed = true;
		return;
	}
	parts[t->nr_parts].end = ts;
	parts[t->nr_parts++].task = t->task;
	t->parts = parts;
}

/* @t is now called @comm, in process @tgid (0: unchanged). */
static void thread_rename(struct schedmodel *m, struct thread *t,
			  uint32_t tgid, const char *comm, uint64_t ts)
{
	struct task *task;

	if (!tgid)
		tgid = t->task->tgid;
	/* a thread that exec'd and took the leader's tid is a new task */
	if (tgid == t->task->tgid && t->tid == t->task->tid &&
	    !strncmp(t->task->comm, comm, SCHEDREC_COMM_LEN))
		return;
	/* split the running time at the rename */
	if (t->where == WHERE_ON && m->cpus[t->cpu].known &&
	    m->cpus[t->cpu].curr == t)
		cpu_account(m, m->wants, t->cpu, ts, 0);
	/* and off CPU, the time it waited (if known to be off CPU) */
	else if (t->where == WHERE_OFF ||
		 (t->where == WHERE_UNSEEN && t->born_known && !t->born))
		offcpu_split(m, t, ts);
	task = task_new(m, t->tid, tgid, comm, t->task, false);
	if (!task) {
		m->failed = true;
		return;
	}
	t->task = task;
}

static void on_task(struct schedmodel *m, const struct schedrec_task *tk)
{
	uint64_t ts = tk->hdr.ts;
	struct thread *t, *old, *parent;

	switch (tk->hdr.type) {
	case SCHEDREC_EV_FORK:
		old = map_find(&m->map, tk->tid);
		if (old)	/* its exit was not seen */
			thread_drop(m, old);
		/* a new leader's process is new, even if its pid is not */
		t = thread_new(m, tk->tid, tk);
		if (!t)
			return;
		t->where = WHERE_NEW;
		t->born_known = true;
		t->born = ts;
		/* a new thread (not process) is in its parent's process */
		parent = map_find(&m->map, tk->other_tid);
		if (parent && tk->tid != tk->tgid && !parent->task->tgid)
			task_set_process(m, parent->task, tk->tgid, NULL,
					 false);
		break;
	case SCHEDREC_EV_EXEC:
		if (tk->other_tid && tk->other_tid != tk->tid) {
			/* a thread exec'd: it takes the leader's tid */
			old = map_find(&m->map, tk->tid);
			t = map_find(&m->map, tk->other_tid);
			if (old && t)
				thread_drop(m, old);
			if (t) {
				map_remove(&m->map, t);
				t->tid = tk->tid;
				if (map_insert(&m->map, t)) {
					m->failed = true;
					return;
				}
			}
		}
		t = thread_get(m, tk->tid);
		if (t)
			thread_rename(m, t, tk->tgid, tk->comm, ts);
		break;
	case SCHEDREC_EV_RENAME:
		t = thread_get(m, tk->tid);
		if (t)
			thread_rename(m, t, tk->tgid, tk->comm, ts);
		break;
	default:	/* exit: its last switch-out says it is dead */
		break;
	}
}

/* A record, once the model started and has not failed. */
static inline __attribute__((always_inline)) int
model_step(struct schedmodel *m, unsigned int wants,
	   const struct schedrec_header *hdr, unsigned int cpu, uint64_t gap)
{
	struct cpu *c;

	if (hdr->ts >= m->win_end)
		return 0;
	if (cpu >= m->nr_cpus)
		return 1;
	if (hdr->ts < m->last_ts)
		m->anomalies.backwards++;
	else
		m->last_ts = hdr->ts;
	c = &m->cpus[cpu];
	if (!c->seen && !m->from_start) {
		/* a flight recorder: this CPU's story starts here */
		c->pending = true;
		c->since = hdr->ts;
		c->since_flags = IV_CUT_START;
	}
	if (gap && !m->filtered)
		cpu_lost(m, cpu, gap, c->seen ? c->last_ts : m->origin,
			 hdr->ts, LOSS_UNEXPLAINED);
	c->seen = true;
	c->last_ts = hdr->ts;

	/* most records are switches: no jump through the table for them */
	if (likely(hdr->type == SCHEDREC_EV_SWITCH)) {
		/* a constant test, but where a model is checked */
		if (wants != (WANT_OFFCPU | WANT_QUEUED) ||
		    !switch_plain(m, c, cpu, (const void *)hdr))
			on_switch(m, wants, cpu, (const void *)hdr);
		return m->failed ? -ENOMEM : 1;
	}
	switch (hdr->type) {
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		on_wakeup(m, wants, cpu, (const void *)hdr);
		break;
	case SCHEDREC_EV_MIGRATE:
		on_migrate(m, (const void *)hdr);
		break;
	case SCHEDREC_EV_FORK:
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_EXIT:
	case SCHEDREC_EV_RENAME:
		/* what the queued intervals' tasks were, not will be */
		if (wants & WANT_QUEUED)
			flush_offcpu(m);
		on_task(m, (const void *)hdr);
		break;
	case SCHEDREC_EV_STACK:
		on_stack(m, cpu, (const void *)hdr);
		break;
	case SCHEDREC_REC_LOST: {
		const struct schedrec_lost *l = (const void *)hdr;
		/* what it says happened before it: nothing later, in order */
		uint64_t last = l->last_ts < hdr->ts ? l->last_ts : hdr->ts;
		uint64_t first = l->first_ts < last ? l->first_ts : last;

		cpu_lost(m, cpu, l->count, first, last, LOSS_COUNTED);
		break;
	}
	default:
		break;
	}
	return m->failed ? -ENOMEM : 1;
}

int schedmodel_record(struct schedmodel *m, const struct srec_record *rec)
{
	if (!m->started)
		set_origin(m, rec->hdr->ts);
	if (m->failed)
		return -ENOMEM;
	return model_step(m, m->wants, rec->hdr, rec->cpu, rec->gap);
}

/*
 * Record @i of @recs (struct srec_ref, *@big their big gaps, taken in
 * turn, if @compact, else struct srec_record): its head, *@cpu and *@gap.
 */
static inline __attribute__((always_inline)) const struct schedrec_header *
record_at(const void *recs, bool compact, unsigned int i,
	  const uint64_t **big, unsigned int *cpu, uint64_t *gap)
{
	const struct srec_ref *c = recs;
	const struct srec_record *r = recs;

	if (!compact) {
		*cpu = r[i].cpu;
		*gap = r[i].gap;
		return r[i].hdr;
	}
	*cpu = c[i].cpu;
	*gap = c[i].gap;
	if (unlikely(*gap == SREC_REF_GAP_BIG))
		*gap = *(*big)++;
	return c[i].hdr;
}

/*
 * model_step() of @recs[0..@n) (as record_at() reads them) while it
 * returns 1; the index of the record that stopped it (or @n), what it
 * returned in *@ret.
 */
static inline __attribute__((always_inline)) unsigned int
feed_records(struct schedmodel *m, unsigned int wants, const void *recs,
	     bool compact, const uint64_t *big, unsigned int n, int *ret)
{
	const struct schedrec_header *hdr;
	unsigned int i, cpu;
	uint64_t gap;

	for (*ret = 1, i = 0; i < n && *ret == 1; i++) {
		hdr = record_at(recs, compact, i, &big, &cpu, &gap);
		*ret = model_step(m, wants, hdr, cpu, gap);
	}
	return i;
}

/* the sets of the reports: offcpu, tenancy and timeline, latency, states */
#define WANT_STATES	(WANT_ONCPU | WANT_OFFCPU | WANT_SWITCHOUT | WANT_USURP)

/*
 * feed_records() of a started model that has not failed, a copy of the
 * record path for each report's set of wants.
 */
static inline __attribute__((always_inline)) unsigned int
feed_wanted(struct schedmodel *m, const void *recs, bool compact,
	    const uint64_t *big, unsigned int n, int *ret)
{
	unsigned int i;

	/* the wants a constant in each: the checks of what nobody asked for go */
	switch (m->wants) {
	case WANT_OFFCPU:
		i = feed_records(m, WANT_OFFCPU | WANT_QUEUED, recs, compact,
				 big, n, ret);
		flush_offcpu(m);
		return i;
	case WANT_ONCPU:
		return feed_records(m, WANT_ONCPU, recs, compact, big, n, ret);
	case WANT_LATENCY:
		return feed_records(m, WANT_LATENCY, recs, compact, big, n,
				    ret);
	case WANT_STATES:
		return feed_records(m, WANT_STATES, recs, compact, big, n,
				    ret);
	default:
		return feed_records(m, m->wants, recs, compact, big, n, ret);
	}
}

/* ------------------------------------------------------------------ */
/*
 * SCHEDREC_MODEL_CHECK=1, a debug switch: offcpu's fast switch path
 * (switch_plain()) checked against the general one (on_switch()).  A
 * second model, which never takes the fast path, reads every record
 * beside the first; after each, the two must have queued the same
 * intervals and agree on the record's CPU and on the threads a switch
 * names, or the command aborts, saying where they differ.
 */
static bool check_wanted(const struct schedmodel *m)
{
	const char *env = getenv("SCHEDREC_MODEL_CHECK");

	return env && *env && strcmp(env, "0") && m->wants == WANT_OFFCPU;
}

static void check_start(struct schedmodel *m)
{
	struct schedmodel *s = schedmodel_new(m->info, &m->window);

	m->check = calloc(1, sizeof(*m->check));
	if (s)
		s->check = calloc(1, sizeof(*s->check));
	if (!m->check || !s || !s->check) {
		fprintf(stderr, "schedrec: SCHEDREC_MODEL_CHECK: no memory\n");
		abort();
	}
	s->wants = m->wants;
	s->lean = m->lean;
	m->check->shadow = s;
}

/* The queue, about to go to the handlers: kept to compare. */
static void check_keep(struct schedmodel *m)
{
	struct model_check *k = m->check;
	unsigned int n = m->nr_queued;

	if (n > IV_QUEUE - k->nr_flushed)
		n = IV_QUEUE - k->nr_flushed;
	memcpy(&k->flushed[k->nr_flushed], m->queue, n * sizeof(*m->queue));
	k->nr_flushed += n;
}

static __attribute__((noreturn)) void
check_failed(const struct schedrec_header *hdr, unsigned int cpu,
	     const char *what)
{
	fprintf(stderr,
		"schedrec: SCHEDREC_MODEL_CHECK: the fast switch path and the general one differ in %s after the record of type %u, CPU %u, at %" PRIu64 " ns\n",
		what, hdr->type, cpu, (uint64_t)hdr->ts);
	abort();
}

static bool same_task(const struct task *a, const struct task *b)
{
	return !a == !b && (!a || (a->id == b->id && a->tid == b->tid));
}

static bool same_iv(const struct offcpu_iv *a, const struct offcpu_iv *b)
{
	return same_task(a->task, b->task) && a->start == b->start &&
	       a->end == b->end && a->state == b->state &&
	       a->out_cpu == b->out_cpu && a->in_cpu == b->in_cpu &&
	       a->flags == b->flags && !a->stack == !b->stack &&
	       (!a->stack || a->stack->id == b->stack->id) &&
	       a->iv_start == b->iv_start &&
	       same_task(a->iv_task, b->iv_task) && a->iv_flags == b->iv_flags;
}

static bool same_ivs(const struct offcpu_iv *a, const struct offcpu_iv *b,
		     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!same_iv(&a[i], &b[i]))
			return false;
	return true;
}

static bool same_thread(const struct thread *a, const struct thread *b)
{
	return !a == !b &&
	       (!a || (a->where == b->where && a->state == b->state &&
		       a->waiting == b->waiting && a->cpu == b->cpu &&
		       a->since == b->since && a->wake_ts == b->wake_ts &&
		       a->early_ts == b->early_ts &&
		       a->piece == b->piece && !a->stack == !b->stack &&
		       same_task(a->task, b->task)));
}

static bool same_cpu(const struct cpu *a, const struct cpu *b)
{
	return !a->curr == !b->curr &&
	       (!a->curr || a->curr->tid == b->curr->tid) &&
	       a->known == b->known && a->pending == b->pending &&
	       a->ever_known == b->ever_known &&
	       a->known_from == b->known_from && a->since == b->since &&
	       a->since_flags == b->since_flags;
}

/* Whether @m and its shadow @s handed the same intervals to the report. */
static bool same_flushed(const struct schedmodel *m,
			 const struct schedmodel *s)
{
	return m->check->nr_flushed == s->check->nr_flushed &&
	       same_ivs(m->check->flushed, s->check->flushed,
			m->check->nr_flushed);
}

/* One record through @m and its shadow @s, then the two compared. */
static int check_step(struct schedmodel *m, struct schedmodel *s,
		      const struct schedrec_header *hdr, unsigned int cpu,
		      uint64_t gap)
{
	unsigned int n0 = m->nr_queued, from;
	int ret, want;

	m->check->nr_flushed = 0;
	s->check->nr_flushed = 0;
	ret = model_step(m, WANT_OFFCPU | WANT_QUEUED, hdr, cpu, gap);
	want = model_step(s, WANT_OFFCPU | WANT_QUEUED | WANT_GENERAL, hdr,
			  cpu, gap);
	if (ret != want)
		check_failed(hdr, cpu, "what the record's step returned");
	if (!same_flushed(m, s))
		check_failed(hdr, cpu, "the intervals handed to the report");
	from = m->check->nr_flushed ? 0 : n0;
	if (m->nr_queued != s->nr_queued ||
	    !same_ivs(&m->queue[from], &s->queue[from],
		      m->nr_queued - from))
		check_failed(hdr, cpu, "the queued intervals");
	if (memcmp(&m->anomalies, &s->anomalies, sizeof(m->anomalies)))
		check_failed(hdr, cpu, "the anomalies counted");
	if (cpu < m->nr_cpus && !same_cpu(&m->cpus[cpu], &s->cpus[cpu]))
		check_failed(hdr, cpu, "the CPU's holder");
	if (hdr->type == SCHEDREC_EV_SWITCH) {
		const struct schedrec_switch *sw = (const void *)hdr;

		if (!same_thread(map_find(&m->map, sw->prev_tid),
				 map_find(&s->map, sw->prev_tid)) ||
		    !same_thread(map_find(&m->map, sw->next_tid),
				 map_find(&s->map, sw->next_tid)))
			check_failed(hdr, cpu, "the threads of the switch");
	}
	return ret;
}

/* feed_records() of offcpu's model, each record checked (above). */
static unsigned int check_records(struct schedmodel *m, const void *recs,
				  bool compact, const uint64_t *big,
				  unsigned int n, int *ret)
{
	struct schedmodel *s = m->check->shadow;
	const struct schedrec_header *hdr;
	unsigned int i, cpu;
	uint64_t gap;

	for (*ret = 1, i = 0; i < n && *ret == 1; i++) {
		hdr = record_at(recs, compact, i, &big, &cpu, &gap);
		*ret = check_step(m, s, hdr, cpu, gap);
	}
	m->check->nr_flushed = 0;
	s->check->nr_flushed = 0;
	flush_offcpu(m);
	flush_offcpu(s);
	if (!same_flushed(m, s)) {
		fprintf(stderr, "schedrec: SCHEDREC_MODEL_CHECK: the fast switch path and the general one differ in the intervals queued at the end of a batch\n");
		abort();
	}
	return i;
}

/* ------------------------------------------------------------------ */

/*
 * feed_records() of the @n records of @recs (as there, @first the head
 * of the first), the model started at the first if it was not; a copy
 * for each kind of record.
 */
static inline __attribute__((always_inline)) int
feed_batch(struct schedmodel *m, const void *recs, bool compact,
	   const uint64_t *big, unsigned int n,
	   const struct schedrec_header *first, unsigned int *fed)
{
	int ret;

	if (!n) {
		*fed = 0;
		return 1;
	}
	if (!m->started) {
		if (check_wanted(m))
			check_start(m);
		set_origin(m, first->ts);
		if (m->check)
			set_origin(m->check->shadow, first->ts);
	}
	if (m->failed) {
		*fed = 1;
		return -ENOMEM;
	}
	if (unlikely(m->check && m->check->shadow))
		*fed = check_records(m, recs, compact, big, n, &ret);
	else
		*fed = feed_wanted(m, recs, compact, big, n, &ret);
	return ret;
}

int schedmodel_records(struct schedmodel *m, const struct srec_record *recs,
		       unsigned int n, unsigned int *fed)
{
	return feed_batch(m, recs, false, NULL, n, n ? recs[0].hdr : NULL,
			  fed);
}

int schedmodel_feed(struct schedmodel *m, const struct srec_ref *recs,
		    unsigned int n, const uint64_t *big, unsigned int *fed)
{
	return feed_batch(m, recs, true, big, n, n ? recs[0].hdr : NULL, fed);
}

/*
 * Where every CPU's holder was known (m->known_lo, m->known_hi): a thread
 * not seen on any CPU then was off CPU.  Each CPU's holder is known from
 * its first switch (or the start, which that switch tells) until it is
 * lost track of for good; a CPU with no record was offline, or held by
 * one thread all along.
 */
static void holders_known(struct schedmodel *m)
{
	unsigned int cpu;

	m->known_lo = m->origin;
	m->known_hi = m->filtered ? m->origin : m->end;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct cpu *c = &m->cpus[cpu];

		if (!cpu_present(m, cpu))
			continue;
		/* a file cut short: this CPU's holder is not known after */
		if (c->cut && c->cut_at < m->known_hi)
			m->known_hi = c->cut_at;
		if (!c->known || !c->ever_known) {
			if (c->since < m->known_hi)
				m->known_hi = c->since;
		} else if (c->known_from > m->known_lo) {
			m->known_lo = c->known_from;
		}
	}
}

/*
 * Off CPU while every CPU's holder was known, censored: @t, known to
 * exist (since @born if not 0) and never seen on a CPU.
 */
static void close_unseen(struct schedmodel *m, struct thread *t,
			 uint64_t born)
{
	uint64_t start = born > m->known_lo ? born : m->known_lo;

	if (start < m->known_hi)
		emit_unseen(m, m->wants, t, start, m->known_hi, CPU_NONE,
			    (start > born ? IV_CUT_START : 0) | IV_CUT_END);
}

/* At the end: a thread still off CPU is censored there. */
static void close_offcpu(struct schedmodel *m, struct thread *t)
{
	if (t->where == WHERE_OFF)
		emit_offcpu(m, m->wants, t, t->since, m->end, CPU_NONE,
			    IV_CUT_END);
	else if ((t->where == WHERE_UNSEEN || t->where == WHERE_NEW) &&
		 t->born_known)
		close_unseen(m, t, t->born);
}

/* The same for the threads of the start snapshot the records never name. */
static void close_snapshot(struct schedmodel *m)
{
	const struct srec_thread *snap = m->info->threads;
	struct thread t = { .where = WHERE_UNSEEN, .cpu = CPU_NONE };
	size_t n = m->info->nr_threads, i, j;
	bool seen;

	/* sorted by tid: a tid listed twice is seen if either entry is */
	for (i = 0; i < n; i = j) {
		seen = false;
		for (j = i; j < n && snap[j].tid == snap[i].tid; j++)
			seen |= m->snap_seen[j];
		if (seen)
			continue;
		/* named as srecreader_info_thread() names it */
		t.tid = snap[j - 1].tid;
		t.task = task_new(m, t.tid, snap[j - 1].tgid,
				  snap[j - 1].comm, NULL, false);
		if (!t.task) {
			m->failed = true;
			return;
		}
		close_unseen(m, &t, 0);
	}
}

void schedmodel_cpu_complete_until(struct schedmodel *m, uint32_t cpu,
				   uint64_t until)
{
	if (cpu >= m->nr_cpus)
		return;
	m->cpus[cpu].cut = true;
	m->cpus[cpu].cut_at = until;
}

void schedmodel_finish(struct schedmodel *m, uint64_t end_ns)
{
	unsigned int cpu;
	struct cpu *c;

	if (!m->started)
		set_origin(m, end_ns);
	if (end_ns < m->last_ts)
		end_ns = m->last_ts;
	if (end_ns > m->win_end)
		end_ns = m->win_end;
	m->end = end_ns;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		c = &m->cpus[cpu];
		if (c->cut && c->cut_at < end_ns && cpu_present(m, cpu))
			cpu_lost(m, cpu, 0, c->cut_at, end_ns, LOSS_CUT);
		cpu_account(m, m->wants, cpu, end_ns, IV_CUT_END);
	}
	holders_known(m);
	map_for_each(&m->map, close_offcpu, m);
	if (m->wants & WANT_OFFCPU)
		close_snapshot(m);
}

/* ------------------------------------------------------------------ */

struct schedmodel *schedmodel_new(const struct srecreader_info *info,
				  const struct schedmodel_window *window)
{
	struct schedmodel *m = calloc(1, sizeof(*m));
	unsigned int state;

	if (!m)
		return NULL;
	for (state = 0; state < STATE_LETTERS; state++)
		m->letters[state] = taskstate_letter(state, false);
	m->preempted = taskstate_letter(0, true);
	m->pids.size = sizeof(uint32_t);
	m->info = info;
	m->window = *window;
	m->nr_cpus = info->file.nr_cpus;
	m->from_start = info->file.flags & SREC_FILE_F_FROM_START;
	m->filtered = info->file.flags & SREC_FILE_F_FILTERED;
	m->win_end = UINT64_MAX;
	m->cpus = calloc(m->nr_cpus ? m->nr_cpus : 1, sizeof(*m->cpus));
	m->map.mask = 255;
	m->map.slots = calloc(m->map.mask + 1, sizeof(*m->map.slots));
	m->snap_seen = calloc(info->nr_threads ? info->nr_threads : 1,
			      sizeof(*m->snap_seen));
	if (!m->cpus || !m->map.slots || !m->snap_seen) {
		schedmodel_free(m);
		return NULL;
	}
	return m;
}

void schedmodel_free(struct schedmodel *m)
{
	size_t i;

	if (!m)
		return;
	if (m->check) {
		schedmodel_free(m->check->shadow);
		free(m->check);
	}
	map_for_each(&m->map, free_thread, m);
	for (i = 0; i < TID_DIRECT / TID_PAGE; i++)
		free(m->map.pages[i]);
	for (i = 0; i < m->nr_tasks; i++)
		free(m->tasks[i]);
	free(m->map.slots);
	free(m->snap_seen);
	keyed_free(&m->pids);
	free(m->leaders);
	free(m->tasks);
	free(m->cpus);
	free(m->losses);
	stacks_free(&m->stacks);
	free(m);
}

int schedmodel_add_handler(struct schedmodel *m,
			   const struct sched_handler *h)
{
	if (m->nr_handlers == MAX_HANDLERS)
		return -ENOSPC;
	m->handlers[m->nr_handlers++] = *h;
	m->wants |= (h->oncpu ? WANT_ONCPU : 0) |
		    (h->offcpu ? WANT_OFFCPU : 0) |
		    (h->switchout ? WANT_SWITCHOUT : 0) |
		    (h->wakeup ? WANT_WAKEUP : 0) |
		    (h->latency ? WANT_LATENCY : 0) |
		    (h->usurp ? WANT_USURP : 0);
	return 0;
}

uint64_t schedmodel_unneeded(struct schedmodel *m)
{
	uint64_t types = 0;

	m->lean = true;
	if (!(m->wants & WANT_WAKER))
		types |= 1ull << SCHEDREC_EV_WAKING | 1ull << SCHEDREC_EV_WAKEUP;
	/* a migration moves only a runnable waiter, kept for usurpers */
	if (!(m->wants & WANT_USURP))
		types |= 1ull << SCHEDREC_EV_MIGRATE;
	return types;
}

uint64_t schedmodel_origin(const struct schedmodel *m)
{
	return m->origin;
}

int64_t schedmodel_rel(const struct schedmodel *m, uint64_t abs_ns)
{
	if (abs_ns >= m->origin)
		return abs_ns - m->origin > INT64_MAX ? INT64_MAX :
		       (int64_t)(abs_ns - m->origin);
	return m->origin - abs_ns > INT64_MAX ? INT64_MIN :
	       -(int64_t)(m->origin - abs_ns);
}

void schedmodel_window_abs(const struct schedmodel *m, uint64_t *start,
			   uint64_t *end)
{
	*start = m->win_start;
	*end = m->win_end;
}

uint64_t schedmodel_end(const struct schedmodel *m)
{
	return m->end;
}

size_t schedmodel_losses(const struct schedmodel *m,
			 const struct sched_loss **losses)
{
	*losses = m->losses;
	return m->nr_losses;
}

bool schedmodel_overlaps_loss(const struct schedmodel *m, uint64_t start,
			      uint64_t end)
{
	size_t i;

	for (i = 0; i < m->nr_losses; i++)
		if (m->losses[i].first <= end && m->losses[i].last >= start)
			return true;
	return false;
}

size_t schedmodel_tasks(const struct schedmodel *m,
			struct task *const **tasks)
{
	*tasks = m->tasks;
	return m->nr_tasks;
}

struct task *schedmodel_task_of(const struct schedmodel *m, uint32_t tid)
{
	const struct thread *t = map_find(&m->map, tid);

	return t ? t->task : NULL;
}

/* The leader of @process (task->process), NULL if none was seen. */
static const struct task *process_leader(const struct schedmodel *m,
					 uint32_t process)
{
	return process && process <= m->nr_processes ?
	       m->leaders[process - 1] : NULL;
}

const struct task *schedmodel_leader_of(const struct schedmodel *m,
					uint32_t tgid)
{
	long i = tgid ? idmap_find(&m->pids.index, tgid) : -1;

	if (i < 0)
		return NULL;
	return process_leader(m, *(uint32_t *)keyed_item(&m->pids, i));
}

const struct task *schedmodel_process_name(const struct schedmodel *m,
					   uint32_t tgid,
					   const struct task *fallback)
{
	const struct task *leader = schedmodel_leader_of(m, tgid);

	return leader ? leader : fallback;
}

const struct task *schedmodel_process_leader(const struct schedmodel *m,
					     const struct task *t)
{
	const struct task *leader = process_leader(m, t->process);

	return leader ? leader : t;
}

const struct schedmodel_anomalies *
schedmodel_anomalies(const struct schedmodel *m)
{
	return &m->anomalies;
}
