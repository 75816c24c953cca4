/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pairs of threads a report counts: who took a thread's CPU (states'
 * usurpers), who woke it (latency's wakers).  Each pair has a count and a
 * time; memory grows with the pairs seen, not with events.
 */
#ifndef SCHEDREC_PAIRS_H
#define SCHEDREC_PAIRS_H

#include <stdint.h>

#include "idmap.h"
#include "schedmodel.h"

struct task_pair {
	const struct task *task;
	const struct task *other;	/* NULL: idle, or interrupt context */
	uint64_t count;
	uint64_t ns;
};

/* The pair (@task, @other) of @pairs (zeroed @pairs is empty); NULL on ENOMEM. */
struct task_pair *task_pair_get(struct keyed *pairs, const struct task *task,
				const struct task *other);

/*
 * The pairs grouped by task (in the order tasks were made), then most
 * time, most count, lowest other tid first; an array of pairs->count
 * pointers to free(), NULL on ENOMEM.
 */
const struct task_pair **task_pairs_sorted(const struct keyed *pairs);

#endif /* SCHEDREC_PAIRS_H */
