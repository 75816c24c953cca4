// SPDX-License-Identifier: GPL-2.0
/* What every report can be narrowed to; see select.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "srecfmt.h"
#include "timefmt.h"

struct ranges_builder {
	struct id_range *ranges;
	size_t count;
	bool failed;
};

static void range_add(void *arg, uint32_t first, uint32_t last)
{
	struct ranges_builder *b = arg;
	struct id_range *r;

	r = realloc(b->ranges, (b->count + 1) * sizeof(*r));
	if (!r) {
		b->failed = true;
		return;
	}
	b->ranges = r;
	b->ranges[b->count++] = (struct id_range){ first, last };
}

static int compare_ranges(const void *a, const void *b)
{
	uint32_t x = ((const struct id_range *)a)->first;
	uint32_t y = ((const struct id_range *)b)->first;

	return x < y ? -1 : x > y;
}

/* Sort @r and join the ranges that overlap or touch; how many are left. */
static size_t merge_ranges(struct id_range *r, size_t count)
{
	size_t i, n = 0;

	qsort(r, count, sizeof(*r), compare_ranges);
	for (i = 0; i < count; i++) {
		if (n && (uint64_t)r[n - 1].last + 1 >= r[i].first) {
			if (r[i].last > r[n - 1].last)
				r[n - 1].last = r[i].last;
			continue;
		}
		r[n++] = r[i];
	}
	return n;
}

static bool ranges_have(const struct id_range *r, size_t count, uint32_t v)
{
	size_t low = 0, high = count, mid;

	while (low < high) {
		mid = low + (high - low) / 2;
		if (v < r[mid].first)
			high = mid;
		else if (v > r[mid].last)
			low = mid + 1;
		else
			return true;
	}
	return false;
}

static void cpu_add(void *arg, uint32_t first, uint32_t last)
{
	struct selection *sel = arg;
	uint32_t cpu;

	for (cpu = first; cpu <= last; cpu++)
		sel->cpus[cpu / 64] |= 1ull << (cpu % 64);
	if (last + 1 > sel->cpu_limit)
		sel->cpu_limit = last + 1;
}

/* More ranges from @arg into *@ranges: a range is kept, not its ids. */
static int parse_ids(struct id_range **ranges, size_t *count,
		     const char *arg)
{
	struct ranges_builder b = { .ranges = *ranges, .count = *count };
	int ret = parse_list(arg, UINT32_MAX, range_add, &b) || b.failed ?
		  -EINVAL : 0;

	*ranges = b.ranges;
	*count = ret ? b.count : merge_ranges(b.ranges, b.count);
	return ret;
}

int select_parse(struct selection *sel, const char *opt, const char *arg,
		 char *err, size_t err_size)
{
	char msg[256];
	int ret;

	if (!strcmp(opt, "range")) {
		if (parse_range(arg, &sel->start, &sel->has_start, &sel->end,
				&sel->has_end)) {
			snprintf(err, err_size,
				 "bad --range '%s': give START:END in seconds since the start, END after START, either side may be empty (e.g. 12.5:13, :5, 3:)",
				 arg);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(opt, "pid") || !strcmp(opt, "tid")) {
		bool pid = !strcmp(opt, "pid");

		if (parse_ids(pid ? &sel->pids : &sel->tids,
			      pid ? &sel->nr_pids : &sel->nr_tids, arg)) {
			snprintf(err, err_size,
				 "bad --%s '%s': give numbers or ranges separated by commas (e.g. 4242, 10,12 or 100-199)",
				 opt, arg);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(opt, "comm")) {
		regex_t re;

		ret = regcomp(&re, arg, REG_EXTENDED | REG_NOSUB);
		if (ret) {
			regerror(ret, &re, msg, sizeof(msg));
			snprintf(err, err_size,
				 "bad --comm '%s': %s (a POSIX extended regex, e.g. '^dw-')",
				 arg, msg);
			return -EINVAL;
		}
		if (sel->has_comm) {
			regfree(&sel->comm);
			free(sel->comm_text);
		}
		sel->comm = re;
		sel->comm_text = strdup(arg);
		sel->has_comm = true;
		return 0;
	}
	if (!strcmp(opt, "cpu")) {
		if (!sel->cpus)
			sel->cpus = calloc(SREC_CPUS_MAX / 64,
					   sizeof(*sel->cpus));
		if (!sel->cpus)
			return -ENOMEM;
		if (parse_list(arg, SREC_CPUS_MAX - 1, cpu_add, sel)) {
			snprintf(err, err_size,
				 "bad --cpu '%s': give CPU numbers and ranges (e.g. 3 or 0-3,8)",
				 arg);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, err_size, "unknown selection --%s", opt);
	return -EINVAL;
}

int select_check_cpus(const struct selection *sel, unsigned int nr_cpus,
		      char *err, size_t err_size)
{
	if (!sel->cpus || sel->cpu_limit <= nr_cpus)
		return 0;
	if (nr_cpus == 1)
		snprintf(err, err_size, "--cpu %u: the trace has CPU 0 only",
			 sel->cpu_limit - 1);
	else
		snprintf(err, err_size,
			 "--cpu %u: the trace has CPUs 0 to %u only",
			 sel->cpu_limit - 1, nr_cpus - 1);
	return -EINVAL;
}

bool select_task_first(const struct selection *sel, struct task *t)
{
	bool named;

	/* a thread whose process is not known (tgid 0) is in no --pid */
	named = (sel->nr_pids && t->tgid &&
		 ranges_have(sel->pids, sel->nr_pids, t->tgid)) ||
		(sel->nr_tids && ranges_have(sel->tids, sel->nr_tids, t->tid));
	t->selected = (!sel->nr_pids && !sel->nr_tids) || named;
	if (t->drainer && !named)
		t->selected = 0;
	/* the name as reports show it: "?" when not known */
	if (t->selected && sel->has_comm &&
	    regexec(&sel->comm, t->comm[0] ? t->comm : "?", 0, NULL, 0))
		t->selected = 0;
	return t->selected;
}

void select_window(const struct selection *sel,
		   struct schedmodel_window *window)
{
	window->start = sel->has_start ? sel->start : 0;
	window->end = sel->has_end ? sel->end : UINT64_MAX;
}

size_t select_put_ids(char *buf, size_t size, size_t len,
		      const struct id_range *ranges, size_t count)
{
	size_t i;

	for (i = 0; i < count && len < size; i++) {
		len += snprintf(buf + len, size - len, "%s%u", i ? "," : "",
				ranges[i].first);
		if (ranges[i].last != ranges[i].first && len < size)
			len += snprintf(buf + len, size - len, "-%u",
					ranges[i].last);
	}
	return len;
}

static size_t put_list(char *buf, size_t size, size_t len, const char *name,
		       const struct id_range *ranges, size_t count)
{
	if (count && len < size)
		len += snprintf(buf + len, size - len, "%s%s",
				len ? ", " : "", name);
	return select_put_ids(buf, size, len, ranges, count);
}

void select_describe(const struct selection *sel, char *buf, size_t size)
{
	size_t len = 0;
	uint32_t cpu;
	bool first = true;

	buf[0] = '\0';
	len = put_list(buf, size, len, "pid ", sel->pids, sel->nr_pids);
	len = put_list(buf, size, len, "tid ", sel->tids, sel->nr_tids);
	if (sel->has_comm && len < size)
		len += snprintf(buf + len, size - len, "%scomm %s",
				len ? ", " : "", sel->comm_text);
	for (cpu = 0; sel->cpus && cpu < sel->cpu_limit && len < size; cpu++) {
		if (!select_cpu(sel, cpu))
			continue;
		len += snprintf(buf + len, size - len, "%s%u",
				first ? (len ? ", cpu " : "cpu ") : ",", cpu);
		first = false;
	}
}

void select_free(struct selection *sel)
{
	free(sel->pids);
	free(sel->tids);
	free(sel->cpus);
	if (sel->has_comm)
		regfree(&sel->comm);
	free(sel->comm_text);
	memset(sel, 0, sizeof(*sel));
}

void *per_task_grow(struct per_task *pt, const struct task *t)
{
	if (t->id >= pt->count) {
		size_t count = pt->count ? pt->count : 64;
		void *items;

		while (count <= t->id)
			count *= 2;
		items = realloc(pt->items, count * pt->size);
		if (!items)
			return NULL;
		memset((char *)items + pt->count * pt->size, 0,
		       (count - pt->count) * pt->size);
		pt->items = items;
		pt->count = count;
	}
	return (char *)pt->items + t->id * pt->size;
}

void *per_task_find(const struct per_task *pt, const struct task *t)
{
	return t->id < pt->count ? (char *)pt->items + t->id * pt->size :
				   NULL;
}

void per_task_free(struct per_task *pt)
{
	free(pt->items);
	pt->items = NULL;
	pt->count = 0;
}
