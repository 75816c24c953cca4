// SPDX-License-Identifier: GPL-2.0
/* Pairs of threads a report counts; see pairs.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"

/* Twice the slots of @row (at least 4). */
static int row_grow(struct task_pair_row *row)
{
	struct task_pair_row bigger = {
		.other = row->other,
		.shift = row->slots ? row->shift - 1 : 32 - 2,
	};
	uint32_t i, j;

	bigger.mask = (1u << (32 - bigger.shift)) - 1;
	bigger.slots = calloc(bigger.mask + 1, sizeof(*bigger.slots));
	bigger.counts = calloc(bigger.mask + 1, sizeof(*bigger.counts));
	if (!bigger.slots || !bigger.counts) {
		free(bigger.slots);
		free(bigger.counts);
		return -ENOMEM;
	}
	for (i = 0; row->slots && i <= row->mask; i++) {
		if (!row->slots[i].task)
			continue;
		for (j = task_pair_index(&bigger, row->slots[i].task);
		     bigger.slots[j].task; j = (j + 1) & bigger.mask)
			;
		bigger.slots[j] = row->slots[i];
		bigger.counts[j] = row->counts[i];
	}
	bigger.count = row->count;
	free(row->slots);
	free(row->counts);
	*row = bigger;
	return 0;
}

/* A table for @other, or room in it for one more pair; then the adding. */
int task_pair_grow(struct task_pairs *pairs, const struct task *task,
		   const struct task *other, uint64_t count, uint64_t ns)
{
	size_t o = other ? other->id + 1 : 0, n;
	struct task_pair_row *rows;

	if (o >= pairs->nr_rows) {
		n = 2 * pairs->nr_rows > o ? 2 * pairs->nr_rows : o + 64;
		rows = realloc(pairs->rows, n * sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		memset(rows + pairs->nr_rows, 0,
		       (n - pairs->nr_rows) * sizeof(*rows));
		pairs->rows = rows;
		pairs->nr_rows = n;
	}
	pairs->rows[o].other = other;
	if (task_pair_row_full(&pairs->rows[o]) && row_grow(&pairs->rows[o]))
		return -ENOMEM;
	return task_pair_add(pairs, task, other, count, ns);
}

void task_pairs_free(struct task_pairs *pairs)
{
	size_t o;

	for (o = 0; o < pairs->nr_rows; o++) {
		free(pairs->rows[o].slots);
		free(pairs->rows[o].counts);
	}
	free(pairs->rows);
	*pairs = (struct task_pairs){ 0 };
}

/* Two pairs of one task (task_pairs_sorted() groups them first). */
static int compare_pairs(const void *a, const void *b)
{
	const struct task_pair *x = *(const struct task_pair *const *)a;
	const struct task_pair *y = *(const struct task_pair *const *)b;
	uint32_t tx, ty;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	tx = x->other ? x->other->tid : 0;
	ty = y->other ? y->other->tid : 0;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->other == y->other)
		return 0;
	if (!x->other || !y->other)
		return x->other ? 1 : -1;
	return x->other->id < y->other->id ? -1 : 1;
}

/*
 * Grouped by task first, by counting: one qsort() of all the pairs would
 * compare each about log2(pairs) times, against log2(the task's pairs).
 */
const struct task_pair **task_pairs_sorted(const struct task_pairs *pairs)
{
	size_t n = pairs->count, o, i, k, tasks = 0, *at;
	const struct task_pair **v;
	struct task_pair *copies;

	for (o = 0; o < pairs->nr_rows; o++)
		for (i = 0; pairs->rows[o].slots && i <= pairs->rows[o].mask;
		     i++)
			if (pairs->rows[o].slots[i].task &&
			    pairs->rows[o].slots[i].task->id >= tasks)
				tasks = pairs->rows[o].slots[i].task->id + 1;
	v = malloc((n + 1) * sizeof(*v) + n * sizeof(*copies));
	at = calloc(tasks + 1, sizeof(*at));
	if (!v || !at) {
		free(v);
		free(at);
		return NULL;
	}
	copies = (struct task_pair *)(v + n + 1);
	/* at[id + 1]: task id's pairs; summed, at[id]: where they start */
	for (o = 0; o < pairs->nr_rows; o++)
		for (i = 0; pairs->rows[o].slots && i <= pairs->rows[o].mask;
		     i++)
			if (pairs->rows[o].slots[i].task)
				at[pairs->rows[o].slots[i].task->id + 1]++;
	for (k = 1; k <= tasks; k++)
		at[k] += at[k - 1];
	for (o = 0; o < pairs->nr_rows; o++) {
		const struct task_pair_row *row = &pairs->rows[o];

		for (i = 0; row->slots && i <= row->mask; i++) {
			if (!row->slots[i].task)
				continue;
			k = at[row->slots[i].task->id]++;
			copies[k] = (struct task_pair){
				.task = row->slots[i].task, .other = row->other,
				.count = row->counts[i], .ns = row->slots[i].ns,
			};
			v[k] = &copies[k];
		}
	}
	v[n] = NULL;
	/* each at[id] moved on to where task id's pairs end */
	for (k = 0; k < tasks; k++) {
		size_t from = k ? at[k - 1] : 0;

		qsort(v + from, at[k] - from, sizeof(*v), compare_pairs);
	}
	free(at);
	return v;
}

const struct task_pair **task_pairs_of(const struct task_pair **sorted,
				       size_t count, const struct task *task,
				       size_t *n)
{
	size_t low = 0, high = count, mid;

	while (low < high) {
		mid = low + (high - low) / 2;
		if (sorted[mid]->task->id < task->id)
			low = mid + 1;
		else
			high = mid;
	}
	for (*n = 0; low + *n < count && sorted[low + *n]->task == task; ++*n)
		;
	return sorted + low;
}
