// SPDX-License-Identifier: GPL-2.0
/* Pairs of threads a report counts; see pairs.h. */
#include <stdlib.h>

#include "pairs.h"

struct task_pair *task_pair_get(struct keyed *pairs, const struct task *task,
				const struct task *other)
{
	struct task_pair *p;
	bool fresh;

	pairs->size = sizeof(*p);
	p = keyed_get(pairs, idmap_pair(task->id, other ? other->id + 1 : 0),
		      &fresh);
	if (p && fresh) {
		p->task = task;
		p->other = other;
	}
	return p;
}

static int compare_pairs(const void *a, const void *b)
{
	const struct task_pair *x = *(const struct task_pair *const *)a;
	const struct task_pair *y = *(const struct task_pair *const *)b;
	uint32_t tx = x->other ? x->other->tid : 0;
	uint32_t ty = y->other ? y->other->tid : 0;

	if (x->task != y->task)
		return x->task->id < y->task->id ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return tx < ty ? -1 : tx > ty;
}

const struct task_pair **task_pairs_sorted(const struct keyed *pairs)
{
	const struct task_pair **v = calloc(pairs->count + 1, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < pairs->count; i++)
		v[i] = keyed_item(pairs, i);
	qsort(v, pairs->count, sizeof(*v), compare_pairs);
	return v;
}
