/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every report can be narrowed to: a window of time (--range), threads
 * by process, tid or name (--pid, --tid, --comm), and CPUs (--cpu).  The
 * drainer's own threads are left out unless --pid or --tid names them.
 */
#ifndef SCHEDREC_SELECT_H
#define SCHEDREC_SELECT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedmodel.h"

/* The ids first to last, both included. */
struct id_range {
	uint32_t first, last;
};

struct selection {
	/* --range, relative to the origin */
	bool has_start, has_end;
	uint64_t start, end;
	/* --pid, --tid: sorted ranges, apart from each other */
	struct id_range *pids;
	size_t nr_pids;
	struct id_range *tids;
	size_t nr_tids;
	/* --comm */
	bool has_comm;
	regex_t comm;
	char *comm_text;
	/* --cpu: a bitmap, NULL for every CPU */
	uint64_t *cpus;
	uint32_t cpu_limit;	/* highest CPU given + 1 */
};

/*
 * Parse one option's argument into @sel; @opt is "range", "pid", "tid",
 * "comm" or "cpu".  0, or -EINVAL with a message for the user in @err.
 */
int select_parse(struct selection *sel, const char *opt, const char *arg,
		 char *err, size_t err_size);

/* After the header is read: are the CPUs given there?  As above. */
int select_check_cpus(const struct selection *sel, unsigned int nr_cpus,
		      char *err, size_t err_size);

/* Whether @t is selected, worked out once: see select_task(). */
bool select_task_first(const struct selection *sel, struct task *t);

/* Is @t selected (cached in t->selected)? */
static inline bool select_task(const struct selection *sel, struct task *t)
{
	return t->selected >= 0 ? t->selected : select_task_first(sel, t);
}

/* Is CPU @cpu selected? (Inline: reports ask once per event.) */
static inline bool select_cpu(const struct selection *sel, uint32_t cpu)
{
	return !sel->cpus || (cpu < sel->cpu_limit &&
			      (sel->cpus[cpu / 64] >> (cpu % 64)) & 1);
}

/* The window for schedmodel_new(). */
void select_window(const struct selection *sel,
		   struct schedmodel_window *window);

/* What was selected, in words ("pid 4242, comm ^dw-"), "" if nothing. */
void select_describe(const struct selection *sel, char *buf, size_t size);

/*
 * @ranges as "10-12,4242" at @len in @buf (of @size), as --pid and --tid
 * take them; the new length (at least @size if cut short).
 */
size_t select_put_ids(char *buf, size_t size, size_t len,
		      const struct id_range *ranges, size_t count);

void select_free(struct selection *sel);

/*
 * A growable array of per-task records of @size bytes, indexed by task id,
 * zeroed when new.
 */
struct per_task {
	void *items;
	size_t size;
	size_t count;
};

/* The record of @t when the array must grow first; NULL on ENOMEM. */
void *per_task_grow(struct per_task *pt, const struct task *t);

/* The record of @t, NULL on ENOMEM. */
static inline void *per_task_get(struct per_task *pt, const struct task *t)
{
	if (t->id < pt->count)
		return (char *)pt->items + t->id * pt->size;
	return per_task_grow(pt, t);
}
/* The record of @t, NULL if none was made that far (zeroed if unused). */
void *per_task_find(const struct per_task *pt, const struct task *t);
void per_task_free(struct per_task *pt);

#endif /* SCHEDREC_SELECT_H */
