/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pairs of threads a report counts: who took a thread's CPU (states'
 * usurpers), who woke it (latency's wakers).  Each pair has a count and a
 * time; memory grows with the pairs seen, not with events.
 */
#ifndef SCHEDREC_PAIRS_H
#define SCHEDREC_PAIRS_H

#include <stdint.h>

#include "schedmodel.h"

struct task_pair {
	const struct task *task;
	const struct task *other;	/* NULL: idle, or interrupt context */
	uint64_t count;
	uint64_t ns;
};

/*
 * The pairs seen, a table per other thread (idle's first, then by
 * task->id), open-addressed by task.  states adds time to a pair for every
 * runnable waiter of a CPU each time the CPU's holder changes, all in the
 * holder's table; what that touches is kept to a task and a time, 16
 * bytes a slot, the counts apart.
 */
struct task_pair_slot {
	const struct task *task;	/* NULL: empty */
	uint64_t ns;
};

struct task_pair_row {
	const struct task *other;
	struct task_pair_slot *slots;
	uint64_t *counts;		/* slot by slot */
	uint32_t mask;
	uint32_t count;
	unsigned int shift;		/* 32 - log2(slots) */
};

struct task_pairs {
	struct task_pair_row *rows;
	size_t nr_rows;
	size_t count;
};

int task_pair_grow(struct task_pairs *pairs, const struct task *task,
		   const struct task *other, uint64_t count, uint64_t ns);

static inline uint32_t task_pair_index(const struct task_pair_row *row,
				       const struct task *task)
{
	return task->id * 0x9e3779b1u >> row->shift;
}

/* Whether one more pair fills @row past 3/4 (true before it has slots). */
static inline bool task_pair_row_full(const struct task_pair_row *row)
{
	return (row->count + 1) * 4 > (row->mask + 1) * 3;
}

/*
 * Add @count and @ns to the pair (@task, @other) of @pairs (zeroed @pairs
 * is empty), made if new; -ENOMEM.
 */
static inline int task_pair_add(struct task_pairs *pairs,
				const struct task *task,
				const struct task *other,
				uint64_t count, uint64_t ns)
{
	size_t o = other ? other->id + 1 : 0;
	struct task_pair_row *row;
	struct task_pair_slot *p;
	uint32_t i;

	if (o >= pairs->nr_rows)
		return task_pair_grow(pairs, task, other, count, ns);
	row = &pairs->rows[o];
	if (task_pair_row_full(row))
		return task_pair_grow(pairs, task, other, count, ns);
	for (i = task_pair_index(row, task);; i = (i + 1) & row->mask) {
		p = &row->slots[i];
		if (p->task == task)
			break;
		if (p->task)
			continue;
		p->task = task;
		row->count++;
		pairs->count++;
		break;
	}
	p->ns += ns;
	row->counts[i] += count;
	return 0;
}

/*
 * The pairs grouped by task (in the order tasks were made), then most
 * time, most count, lowest other tid first (then the other made first);
 * an array of pairs->count pointers, to free() with what they point to;
 * NULL on ENOMEM.
 */
const struct task_pair **task_pairs_sorted(const struct task_pairs *pairs);

/*
 * @task's pairs in @sorted (task_pairs_sorted()'s, @count of them): *@n
 * from the one returned.
 */
const struct task_pair **task_pairs_of(const struct task_pair **sorted,
				       size_t count, const struct task *task,
				       size_t *n);

void task_pairs_free(struct task_pairs *pairs);

#endif /* SCHEDREC_PAIRS_H */
