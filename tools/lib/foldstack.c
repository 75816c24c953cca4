// SPDX-License-Identifier: GPL-2.0
/*
 * foldstack: time per folded stack, counted from the model's intervals;
 * see foldstack.h.
 *
 * Entries are keyed by pointers the model keeps until it is freed (tasks,
 * interned stacks), in an open-addressing table; the lines are formatted
 * only at the end, once per entry.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foldstack.h"

struct foldstack {
	struct schedmodel *model;
	const struct srecreader_info *info;
	const struct selection *sel;
	struct fold_entry *slots;	/* ns 0 and task NULL: free */
	size_t mask;
	size_t count;
	struct fold_line *lines;
	size_t nr_lines;
	bool failed;
	bool has_stacks;
};

/* A growing string. */
struct strbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

static void sb_add(struct strbuf *sb, const char *s, size_t len)
{
	size_t cap = sb->cap ? sb->cap : 128;
	char *bigger;

	if (sb->failed)
		return;
	while (cap < sb->len + len + 1)
		cap *= 2;
	if (cap != sb->cap) {
		bigger = realloc(sb->s, cap);
		if (!bigger) {
			sb->failed = true;
			return;
		}
		sb->s = bigger;
		sb->cap = cap;
	}
	memcpy(sb->s + sb->len, s, len);
	sb->len += len;
	sb->s[sb->len] = '\0';
}

/* Append @name as a frame, ';' before it unless it is the first. */
static void sb_frame(struct strbuf *sb, const char *name)
{
	char buf[256];
	size_t len = strlen(name);

	if (sb->len)
		sb_add(sb, ";", 1);
	if (len < sizeof(buf)) {
		fold_frame_name(buf, sizeof(buf), name);
		sb_add(sb, buf, strlen(buf));
		return;
	}
	/* a long kernel symbol: the same, a piece at a time */
	while (*name && !sb->failed) {
		size_t n = strlen(name) < sizeof(buf) - 1 ? strlen(name) :
			   sizeof(buf) - 1;

		memcpy(buf, name, n);
		buf[n] = '\0';
		fold_frame_name(buf, sizeof(buf), buf);
		sb_add(sb, buf, n);
		name += n;
	}
}

void fold_frame_name(char *buf, size_t size, const char *name)
{
	size_t i;

	if (!size)
		return;
	if (!*name) {
		snprintf(buf, size, "?");
		return;
	}
	for (i = 0; name[i] && i < size - 1; i++) {
		unsigned char c = name[i];

		buf[i] = c == ';' ? ':' : c < 0x20 || c == 0x7f ? '?' : c;
	}
	buf[i] = '\0';
}

void fold_process_frame(char *buf, size_t size, const struct fold_entry *e,
			bool ids)
{
	char comm[SCHEDREC_COMM_LEN + 1], name[SCHEDREC_COMM_LEN + 1];

	if (e->process && e->process[0]) {
		memcpy(comm, e->process, strnlen(e->process, SCHEDREC_COMM_LEN));
		comm[strnlen(e->process, SCHEDREC_COMM_LEN)] = '\0';
		fold_frame_name(name, sizeof(name), comm);
		if (ids)
			snprintf(buf, size, "%s-%u", name, e->task->tgid);
		else
			snprintf(buf, size, "%s", name);
	} else if (e->task->tgid && ids) {
		snprintf(buf, size, "pid %u", e->task->tgid);
	} else {
		snprintf(buf, size, "pid ?");
	}
}

void fold_thread_frame(char *buf, size_t size, const struct fold_entry *e,
		       bool ids)
{
	char name[SCHEDREC_COMM_LEN + 1];

	fold_frame_name(name, sizeof(name), e->task->comm[0] ? e->task->comm :
			"?");
	if (ids)
		snprintf(buf, size, "%s %u", name, e->task->tid);
	else
		snprintf(buf, size, "%s", name);
}

/* ------------------------------------------------------------------ */
/* Counting */

static size_t entry_hash(const struct fold_entry *k)
{
	uint64_t h = (uintptr_t)k->task * 0x9e3779b97f4a7c15ull;

	h ^= (uintptr_t)k->process * 0xc2b2ae3d27d4eb4full;
	h ^= (uintptr_t)k->stack * 0x165667b19e3779f9ull;
	h ^= (uint64_t)(unsigned char)k->state * 0x27d4eb2f165667c5ull;
	return h ^ h >> 31;
}

static bool same_key(const struct fold_entry *a, const struct fold_entry *b)
{
	return a->task == b->task && a->process == b->process &&
	       a->state == b->state && a->stack == b->stack;
}

static int table_grow(struct foldstack *fs)
{
	size_t mask = fs->mask ? 2 * fs->mask + 1 : 255, i, j;
	struct fold_entry *slots = calloc(mask + 1, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; fs->slots && i <= fs->mask; i++) {
		if (!fs->slots[i].task)
			continue;
		for (j = entry_hash(&fs->slots[i]) & mask; slots[j].task;
		     j = (j + 1) & mask)
			;
		slots[j] = fs->slots[i];
	}
	free(fs->slots);
	fs->slots = slots;
	fs->mask = mask;
	return 0;
}

static void count(struct foldstack *fs, const struct fold_entry *key)
{
	struct fold_entry *e;
	size_t i;

	if (!fs->slots || (fs->count + 1) * 4 > (fs->mask + 1) * 3) {
		if (table_grow(fs)) {
			fs->failed = true;
			return;
		}
	}
	for (i = entry_hash(key) & fs->mask; fs->slots[i].task;
	     i = (i + 1) & fs->mask) {
		e = &fs->slots[i];
		if (same_key(e, key)) {
			e->ns += key->ns;
			return;
		}
	}
	fs->slots[i] = *key;
	fs->count++;
}

/*
 * The name of @t's process: its leader's as it is now (the last it had if
 * it has exited), or as the start snapshot had it if the model has not
 * seen the leader; NULL if neither knows it.
 */
static const char *process_of(const struct foldstack *fs,
			      const struct task *t)
{
	const struct srec_thread *snap;
	const struct task *leader;

	if (!t->tgid)
		return NULL;
	if (t->tid == t->tgid)
		return t->comm;
	leader = schedmodel_leader_of(fs->model, t->tgid);
	if (leader)
		return leader->comm;
	snap = srecreader_info_thread(fs->info, t->tgid);
	return snap && snap->tgid == t->tgid ? snap->comm : NULL;
}

static void on_oncpu(void *arg, const struct oncpu_iv *iv)
{
	struct foldstack *fs = arg;
	struct fold_entry key = { 0 };

	if (!iv->task || iv->end <= iv->start ||
	    !select_cpu(fs->sel, iv->cpu) ||
	    !select_task(fs->sel, (struct task *)iv->task))
		return;
	key.task = iv->task;
	key.process = process_of(fs, iv->task);
	key.ns = iv->end - iv->start;
	count(fs, &key);
}

static void on_offcpu(void *arg, const struct offcpu_iv *iv)
{
	struct foldstack *fs = arg;
	struct fold_entry key = { 0 };

	if (iv->end <= iv->start ||
	    (fs->sel->cpus && (iv->out_cpu == CPU_NONE ||
			       !select_cpu(fs->sel, iv->out_cpu))) ||
	    !select_task(fs->sel, (struct task *)iv->task))
		return;
	key.task = iv->task;
	key.process = process_of(fs, iv->task);
	key.state = iv->state ? iv->state : '?';
	key.stack = iv->stack;
	key.ns = iv->end - iv->start;
	fs->has_stacks |= iv->stack != NULL;
	count(fs, &key);
}

struct foldstack *foldstack_new(struct schedmodel *m,
				const struct srecreader_info *info,
				const struct selection *sel)
{
	struct foldstack *fs = calloc(1, sizeof(*fs));
	struct sched_handler h = {
		.oncpu = on_oncpu, .offcpu = on_offcpu, .arg = fs,
	};

	if (!fs)
		return NULL;
	fs->model = m;
	fs->info = info;
	fs->sel = sel;
	if (schedmodel_add_handler(m, &h)) {
		free(fs);
		return NULL;
	}
	return fs;
}

static void free_lines(struct foldstack *fs)
{
	size_t i;

	for (i = 0; i < fs->nr_lines; i++)
		free(fs->lines[i].stack);
	free(fs->lines);
	fs->lines = NULL;
	fs->nr_lines = 0;
}

void foldstack_free(struct foldstack *fs)
{
	if (!fs)
		return;
	free_lines(fs);
	free(fs->slots);
	free(fs);
}

bool foldstack_failed(const struct foldstack *fs)
{
	return fs->failed;
}

bool foldstack_has_stacks(const struct foldstack *fs)
{
	return fs->has_stacks;
}

/* ------------------------------------------------------------------ */
/* Lines */

/* The kernel frames of @st, outermost first, after the state. */
static void kernel_frames(struct strbuf *sb, const struct sched_stack *st,
			  const struct ksyms *ks)
{
	bool named = ks && ksyms_count(ks) && !ksyms_hidden(ks);
	size_t first = 0, i;
	struct ksym sym;
	char hex[24];

	if (named)
		first = ksyms_sched_frames(ks, (const __u64 *)st->ips, st->nr);
	for (i = st->nr; i-- > first;) {
		uint64_t ip = st->ips[i];

		if (!named) {
			snprintf(hex, sizeof(hex), "0x%" PRIx64, ip);
			sb_frame(sb, hex);
		} else if (ip && ksyms_lookup(ks, ip - 1, &sym, NULL)) {
			/* a return address: the call is just before it */
			sb_frame(sb, sym.name);
		} else {
			sb_frame(sb, KSYMS_UNKNOWN);
		}
	}
}

static char *format_line(const struct fold_entry *e, const struct ksyms *ks,
			 bool ids)
{
	struct strbuf sb = { 0 };
	char frame[64];

	fold_process_frame(frame, sizeof(frame), e, ids);
	sb_frame(&sb, frame);
	fold_thread_frame(frame, sizeof(frame), e, ids);
	sb_frame(&sb, frame);
	if (!e->state) {
		sb_frame(&sb, FOLD_ONCPU);
	} else {
		sb_frame(&sb, FOLD_OFFCPU);
		frame[0] = e->state;
		frame[1] = '\0';
		sb_frame(&sb, frame);
		if (e->stack)
			kernel_frames(&sb, e->stack, ks);
	}
	if (sb.failed) {
		free(sb.s);
		return NULL;
	}
	return sb.s;
}

/*
 * By text, then by thread: the entries come in the order of a hash of
 * their addresses, and of lines of equal text merge_equal() keeps the
 * first entry, which must not depend on where the memory was.
 */
static int compare_lines(const void *a, const void *b)
{
	const struct fold_line *x = a, *y = b;
	int ret = strcmp(x->stack, y->stack);

	if (ret)
		return ret;
	if (x->entry->task->id != y->entry->task->id)
		return x->entry->task->id < y->entry->task->id ? -1 : 1;
	return (unsigned char)x->entry->state - (unsigned char)y->entry->state;
}

/*
 * Entries of equal text (two stacks that differ only in the scheduler's
 * frames, trimmed; without ids, threads of one name): one line.
 */
static size_t merge_equal(struct fold_line *lines, size_t n)
{
	size_t i, out = 0;

	for (i = 0; i < n; i++) {
		if (out && !strcmp(lines[out - 1].stack, lines[i].stack)) {
			lines[out - 1].ns += lines[i].ns;
			free(lines[i].stack);
			continue;
		}
		lines[out++] = lines[i];
	}
	return out;
}

long foldstack_lines(struct foldstack *fs, const struct ksyms *ks, bool ids,
		     struct fold_line **lines)
{
	size_t i, n = 0;

	free_lines(fs);
	fs->lines = calloc(fs->count ? fs->count : 1, sizeof(*fs->lines));
	if (!fs->lines)
		return -ENOMEM;
	for (i = 0; fs->slots && i <= fs->mask; i++) {
		const struct fold_entry *e = &fs->slots[i];
		struct fold_line *l;

		if (!e->task || !e->ns)
			continue;
		l = &fs->lines[n];
		l->stack = format_line(e, ks, ids);
		if (!l->stack) {
			fs->nr_lines = n;
			free_lines(fs);
			return -ENOMEM;
		}
		l->ns = e->ns;
		l->entry = e;
		n++;
	}
	qsort(fs->lines, n, sizeof(*fs->lines), compare_lines);
	fs->nr_lines = merge_equal(fs->lines, n);
	*lines = fs->lines;
	return fs->nr_lines;
}
