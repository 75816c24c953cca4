// SPDX-License-Identifier: GPL-2.0
/* The one pass over a trace's records; see tracepass.h. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracepass.h"
#include "util.h"

/* "schedrec VERB: PATH: why" (@err may name @path already); NULL, errno @e. */
static struct srecreader *open_failed(const char *verb, const char *path,
				      const char *err, int e)
{
	size_t len = strlen(path);
	bool named = !strncmp(err, path, len);

	fprintf(stderr, "schedrec %s: %s%s%s\n", verb, named ? "" : path,
		named ? "" : ": ", err);
	errno = e ? e : EIO;
	return NULL;
}

struct srecreader *trace_open(const char *verb, char *const *paths,
			      unsigned int n,
			      const struct srecreader_options *opt)
{
	struct srecreader *r;
	char err[512];
	unsigned int i;
	int ret;

	r = srecreader_open(paths[0], opt, err, sizeof(err));
	if (!r)
		return open_failed(verb, paths[0], err, errno);
	for (i = 1; i < n; i++) {
		/* standard input is read once: checked when it is reached */
		ret = strcmp(paths[i], "-") ?
		      srecreader_check_file(r, paths[i], err, sizeof(err)) : 0;
		if (!ret && srecreader_add_file(r, paths[i])) {
			snprintf(err, sizeof(err), "no memory");
			ret = -ENOMEM;
		}
		if (ret) {
			srecreader_close(r);
			return open_failed(verb, paths[i], err, -ret);
		}
	}
	return r;
}

const char *trace_path(const struct srecreader *r, char *const *paths)
{
	return paths[r ? srecreader_status(r)->file : 0];
}

/* Records read from the reader at once */
#define TRACE_PASS_BATCH	64

/* Where a pass is: the latest time seen, and why it stopped */
struct pass_state {
	uint64_t end;
	int ret;	/* what trace_pass() returns */
	bool early;	/* the window is over */
};

/* One record through the hooks and the model; false: the pass stops. */
static bool pass_record(struct schedmodel *m,
			const struct trace_pass_hooks *hooks,
			const struct srec_record *rec, struct pass_state *p)
{
	if (hooks && hooks->before) {
		p->ret = hooks->before(hooks->arg, rec);
		if (p->ret)
			return false;
	}
	if (rec->hdr->ts > p->end)
		p->end = rec->hdr->ts;
	p->ret = schedmodel_record(m, rec);
	if (p->ret <= 0) {
		p->early = !p->ret;
		return false;
	}
	if (hooks && hooks->after) {
		p->ret = hooks->after(hooks->arg, rec);
		if (p->ret)
			return false;
	}
	return true;
}

/*
 * The model took a batch and said @ret: false once the pass stops there
 * (the window ended, or -ENOMEM), with that in @p.
 */
static bool batch_taken(int ret, struct pass_state *p)
{
	if (ret == 1)
		return true;
	p->ret = ret;
	p->early = !ret;
	return false;
}

/* A batch of records through the model, as batch_taken(). */
static bool pass_batch(struct schedmodel *m, const struct srec_record *recs,
		       unsigned int n, struct pass_state *p)
{
	unsigned int fed;

	return batch_taken(schedmodel_records(m, recs, n, &fed), p);
}

/*
 * The pipeline: with a second CPU, a thread reads the records (checks
 * and merges them) while the caller's thread runs the model.  They go
 * across in slots of up to PIPE_RECORDS, copied, since the reader reuses
 * what a record points into at its next call; all but those in place in
 * a mapped file, which stay until the reader is closed (lasting), their
 * pages kept in memory while a slot holds them (srecreader_keep()).  The
 * reader asks for them TRACE_PASS_BATCH at a time and stops after the
 * batch that reaches the end of the window, as the pass in one thread
 * does: the input is read as far, and says the same of what it holds.
 *
 * What crosses from one CPU's cache to the other's is kept small: a slot
 * holds only what the model reads of a record (struct srec_ref, 16
 * bytes against struct srec_record's 40), which the model takes as it is
 * (schedmodel_feed()), made from the reader's batch of struct
 * srec_record, which stays in the reader's cache.  Writing slots of whole
 * srec_records made the reader some 25 % slower whenever the model ran
 * beside it.
 */
#define PIPE_RECORDS	1024
#define PIPE_FIRST	256	/* the first slot's records: the model waits */
#define PIPE_SLOTS	8

/*
 * srec_ref.spare while the slot is filled: hdr is an offset into the
 * slot's bytes, not a pointer yet
 */
#define PIPE_COPIED	1

struct pipe_slot {
	struct srec_ref recs[PIPE_RECORDS];
	unsigned char *bytes;	/* copies of the records */
	size_t cap;
	uint64_t *big_gaps;	/* gaps of SREC_REF_GAP_BIG and more */
	unsigned int nr_big, cap_big;
	unsigned int n;		/* records */
	uint64_t keep;		/* its lasting records' lowest chunk_offset */
	int end;		/* 1: more follow; else what the reader
				 * returned last (0 also: the window ended)
				 */
};

struct pipe {
	struct srecreader *r;
	const struct schedmodel *m;
	uint64_t win_end;		/* absolute, once a record came */
	uint64_t unneeded;		/* record types: schedmodel_unneeded() */
	bool started;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/*
	 * Slots [used, filled) are full.  Each side moves its own count on
	 * (atomically: the other reads it without the lock) and, when it
	 * must wait for the other, looks again @spins times before it sleeps
	 * on @cond with its flag set, which the other tests after each move.
	 */
	unsigned int filled, used;
	bool stop;			/* the model needs no more */
	unsigned int spins;
	bool reader_sleeps, model_sleeps;
	uint64_t keep;			/* the lowest keep of the full slots */
	struct pipe_slot slots[PIPE_SLOTS];
};

/* Room for @need bytes of copies in @s. */
static int slot_grow(struct pipe_slot *s, size_t need)
{
	unsigned char *b = realloc(s->bytes, 2 * need);

	if (!b)
		return -ENOMEM;
	s->bytes = b;
	s->cap = 2 * need;
	return 0;
}

/* A gap of SREC_REF_GAP_BIG or more into @s's big_gaps. */
static __attribute__((noinline)) int slot_big_gap(struct pipe_slot *s,
						  uint64_t gap)
{
	uint64_t *big;

	if (s->nr_big == s->cap_big) {
		s->cap_big = s->cap_big ? 2 * s->cap_big : 8;
		big = realloc(s->big_gaps, s->cap_big * sizeof(*big));
		if (!big)
			return -ENOMEM;
		s->big_gaps = big;
	}
	s->big_gaps[s->nr_big++] = gap;
	return 0;
}

/* @rec's CPU and gap into @to; 0, or -ENOMEM. */
static inline int slot_meta(struct pipe_slot *s, struct srec_ref *to,
			    const struct srec_record *rec)
{
	to->cpu = rec->cpu;
	to->gap = rec->gap;
	if (likely(rec->gap < SREC_REF_GAP_BIG))
		return 0;
	to->gap = SREC_REF_GAP_BIG;
	return slot_big_gap(s, rec->gap);
}

/*
 * The records from @recs[@k] on that follow each other (a run of a CPU's
 * chunk, not lasting) into @to, copied into @s's bytes at *@len, their
 * hdr the offset there; the newest's time into *@newest.  The index of
 * the record after them, or -ENOMEM.
 */
static int slot_copy_run(struct pipe_slot *s, const struct srec_record *recs,
			 unsigned int k, unsigned int n, struct srec_ref *to,
			 size_t *len, uint64_t *newest)
{
	const unsigned char *from = (const void *)recs[k].hdr, *next = from;
	size_t size;

	do {
		const struct schedrec_header *hdr = (const void *)next;

		if (slot_meta(s, &to[k], &recs[k]))
			return -ENOMEM;
		if (hdr->ts > *newest)
			*newest = hdr->ts;
		to[k].hdr = (const void *)(*len + (next - from));
		to[k].spare = PIPE_COPIED;
		next += hdr->size;
	} while (++k < n && !recs[k].lasting &&
		 (const void *)recs[k].hdr == (const void *)next);
	size = next - from;
	if (*len + size > s->cap && slot_grow(s, *len + size))
		return -ENOMEM;
	memcpy(s->bytes + *len, from, size);
	*len += size;
	return k;
}

/*
 * @s holds lasting records of chunks from file offset @keep on: what it
 * and the full slots hold stays (srecreader_keep()).
 */
static void slot_keep(struct pipe *p, struct pipe_slot *s, uint64_t keep)
{
	if (keep < s->keep)
		s->keep = keep;
	srecreader_keep(p->r, s->keep < p->keep ? s->keep : p->keep);
}

/*
 * The @n records of @recs after the @s->n of @s: copied into its bytes, at
 * *@len on (their hdr an offset there until the slot is full), but for
 * the lasting ones.  Records that lie one after the other (a run of a
 * CPU's chunk) go in one copy.  Whether one is past the window's end (0:
 * no), or -ENOMEM.
 */
static int slot_copy(struct pipe *p, struct pipe_slot *s,
		     const struct srec_record *recs, unsigned int n,
		     size_t *len)
{
	struct srec_ref *to = s->recs + s->n;
	uint64_t newest = 0, keep = s->keep;
	unsigned int k;
	int next;

	if (!p->started) {
		p->win_end = schedmodel_window_end_at(p->m, recs[0].hdr->ts);
		p->started = true;
		srecreader_skip(p->r, p->unneeded, p->win_end);
	}
	for (k = 0; k < n;) {
		if (unlikely(!recs[k].lasting)) {
			next = slot_copy_run(s, recs, k, n, to, len, &newest);
			if (next < 0)
				return next;
			k = next;
			continue;
		}
		if (slot_meta(s, &to[k], &recs[k]))
			return -ENOMEM;
		if (recs[k].hdr->ts > newest)
			newest = recs[k].hdr->ts;
		if (recs[k].chunk_offset < keep)
			keep = recs[k].chunk_offset;
		to[k].hdr = recs[k].hdr;
		to[k].spare = 0;
		k++;
	}
	slot_keep(p, s, keep);
	return newest >= p->win_end;
}

/* @s is full: its copied records' offsets become pointers. */
static void slot_done(struct pipe_slot *s, size_t copied)
{
	unsigned int i;

	if (!copied)
		return;
	for (i = 0; i < s->n; i++)
		if (s->recs[i].spare == PIPE_COPIED)
			s->recs[i].hdr = (const void *)(s->bytes +
						(uintptr_t)s->recs[i].hdr);
}

/* Fill @s with up to @max records, and say whether they are the last. */
static void slot_fill(struct pipe *p, struct pipe_slot *s, unsigned int max)
{
	struct srec_record batch[TRACE_PASS_BATCH];
	unsigned int want;
	size_t len = 0;
	int n, past;

	s->n = 0;
	s->nr_big = 0;
	s->keep = UINT64_MAX;
	s->end = 1;
	while (s->n < max && s->end == 1) {
		want = max - s->n;
		if (want > TRACE_PASS_BATCH)
			want = TRACE_PASS_BATCH;
		n = srecreader_next_batch(p->r, batch, want);
		if (n <= 0) {
			s->end = n;
			break;
		}
		past = slot_copy(p, s, batch, n, &len);
		if (past < 0) {
			s->end = past;
			break;
		}
		s->n += n;
		if (past)
			s->end = 0;
	}
	slot_done(s, len);
}

/* The records of @s through the model, as they are: as pass_batch(). */
static bool slot_pass(struct schedmodel *m, const struct pipe_slot *s,
		      struct pass_state *ps)
{
	unsigned int fed;

	return batch_taken(schedmodel_feed(m, s->recs, s->n, s->big_gaps,
					   &fed), ps);
}

/*
 * How many times a side of the pipe looks again (with a pause) before it
 * sleeps, when the two threads have CPUs of their own: a few slots'
 * time at most.  Waking a thread that sleeps takes a system call, and in
 * a VM an interrupt to the other virtual CPU, each as long as a few
 * hundred records.
 */
#define PIPE_SPINS	4096

/* A free slot to fill, or the model needs no more. */
static bool reader_may_go(struct pipe *p)
{
	return __atomic_load_n(&p->filled, __ATOMIC_SEQ_CST) -
	       __atomic_load_n(&p->used, __ATOMIC_SEQ_CST) < PIPE_SLOTS ||
	       __atomic_load_n(&p->stop, __ATOMIC_SEQ_CST);
}

/* A full slot to use. */
static bool model_may_go(struct pipe *p)
{
	return __atomic_load_n(&p->filled, __ATOMIC_SEQ_CST) !=
	       __atomic_load_n(&p->used, __ATOMIC_SEQ_CST);
}

/* Until @may_go(@p): a spin, then sleep with *@sleeps set. */
static void pipe_wait(struct pipe *p, bool (*may_go)(struct pipe *),
		      bool *sleeps)
{
	unsigned int i = 0;

	while (i < p->spins) {
		if (may_go(p))
			return;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		i++;
	}
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(sleeps, true, __ATOMIC_SEQ_CST);
	while (!may_go(p))
		pthread_cond_wait(&p->cond, &p->lock);
	__atomic_store_n(sleeps, false, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&p->lock);
}

/*
 * The other side may go now: woken if it sleeps.  Its flag is read after
 * the count moved, and it sets the flag before it looks at the count,
 * both in one order of every thread (SEQ_CST): either it sees the count,
 * or this sees the flag and signals under the lock it holds from its
 * look to its sleep.
 */
static void pipe_wake(struct pipe *p, bool *sleeps)
{
	if (!__atomic_load_n(sleeps, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&p->lock);
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static void *pipe_reader(void *arg)
{
	struct pipe *p = arg;
	unsigned int max = PIPE_FIRST, i, used;
	struct pipe_slot *s;

	for (;;) {
		pipe_wait(p, reader_may_go, &p->reader_sleeps);
		if (__atomic_load_n(&p->stop, __ATOMIC_SEQ_CST))
			break;
		used = __atomic_load_n(&p->used, __ATOMIC_SEQ_CST);
		p->keep = UINT64_MAX;
		for (i = used; i != p->filled; i++)
			if (p->slots[i % PIPE_SLOTS].keep < p->keep)
				p->keep = p->slots[i % PIPE_SLOTS].keep;
		s = &p->slots[p->filled % PIPE_SLOTS];
		slot_fill(p, s, max);
		max = max * 4 < PIPE_RECORDS ? max * 4 : PIPE_RECORDS;
		__atomic_store_n(&p->filled, p->filled + 1, __ATOMIC_SEQ_CST);
		pipe_wake(p, &p->model_sleeps);
		if (s->end != 1)
			break;
	}
	return NULL;
}

/* The next full slot, once there is one. */
static struct pipe_slot *pipe_next(struct pipe *p)
{
	pipe_wait(p, model_may_go, &p->model_sleeps);
	return &p->slots[p->used % PIPE_SLOTS];
}

/* The model is done with the oldest slot; @stop: and needs no more. */
static void pipe_release(struct pipe *p, bool stop)
{
	if (stop)
		__atomic_store_n(&p->stop, true, __ATOMIC_SEQ_CST);
	__atomic_store_n(&p->used, p->used + 1, __ATOMIC_SEQ_CST);
	pipe_wake(p, &p->reader_sleeps);
}

/*
 * The tasks that are runnable now, on every CPU, this one included (the
 * fourth field of /proc/loadavg, "running/all"); 0 if unknown.
 */
static unsigned int runnable_now(void)
{
	unsigned int running = 0;
	FILE *f = fopen("/proc/loadavg", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%*s %*s %*s %u/", &running) != 1)
		running = 0;
	fclose(f);
	return running;
}

/*
 * Whether to read in a thread of its own: SCHEDREC_THREADS, or else
 * whether a CPU this thread may use is free for the reader.  The reader
 * beside the model is 1.5 times as fast with a CPU of its own, but
 * nearly twice as slow when it shares one with a busy task: so two
 * threads only while fewer tasks are runnable than the CPUs this one may
 * use.  The count is of every CPU, so on CPUs restricted to a few of the
 * machine's it counts tasks that run elsewhere too, and says one thread
 * more often than needed, never less.
 */
static bool pipe_wanted(void)
{
	const char *env = getenv("SCHEDREC_THREADS");
	unsigned int running;
	cpu_set_t cpus;

	if (env && *env)
		return strtol(env, NULL, 10) > 1;
	if (sched_getaffinity(0, sizeof(cpus), &cpus) || CPU_COUNT(&cpus) < 2)
		return false;
	running = runnable_now();
	return running && running < (unsigned int)CPU_COUNT(&cpus);
}

static void pipe_free(struct pipe *p)
{
	unsigned int i;

	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	for (i = 0; i < PIPE_SLOTS; i++) {
		free(p->slots[i].bytes);
		free(p->slots[i].big_gaps);
	}
	free(p);
}

/*
 * Split the CPUs this thread may run on (@was) in two: @model has the one
 * it is on and every second of the others, @reader the rest (with two
 * CPUs, one each).  False if it may run on one CPU only.  Left alone,
 * the scheduler wakes each thread on the CPU of the other, which woke it,
 * and the two then often share one CPU for milliseconds.
 */
static bool pipe_cpus(cpu_set_t *was, cpu_set_t *model, cpu_set_t *reader)
{
	int here = sched_getcpu(), cpu, n = 0;

	if (here < 0 || sched_getaffinity(0, sizeof(*was), was) ||
	    CPU_COUNT(was) < 2 || !CPU_ISSET(here, was))
		return false;
	CPU_ZERO(model);
	CPU_ZERO(reader);
	CPU_SET(here, model);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (cpu == here || !CPU_ISSET(cpu, was))
			continue;
		CPU_SET(cpu, n++ % 2 ? model : reader);
	}
	return true;
}

/*
 * The records of @r through @m, read in a thread of their own, the two
 * threads on CPUs of their own while it lasts; false if that thread could
 * not start (nothing was read then).
 */
static bool pipe_pass(struct srecreader *r, struct schedmodel *m,
		      uint64_t unneeded, struct pass_state *ps)
{
	struct pipe *p = calloc(1, sizeof(*p));
	cpu_set_t was, model, reader;
	bool going, split, started;
	struct pipe_slot *s;
	pthread_attr_t attr;

	if (!p)
		return false;
	p->r = r;
	p->m = m;
	p->unneeded = unneeded;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	split = pipe_cpus(&was, &model, &reader) && !pthread_attr_init(&attr);
	/* sharing a CPU, a spin would only hold the other thread up */
	p->spins = split ? PIPE_SPINS : 0;
	if (split)
		pthread_attr_setaffinity_np(&attr, sizeof(reader), &reader);
	started = !pthread_create(&p->thread, split ? &attr : NULL,
				  pipe_reader, p);
	if (split)
		pthread_attr_destroy(&attr);
	if (!started) {
		pipe_free(p);
		return false;
	}
	split = split && !sched_setaffinity(0, sizeof(model), &model);
	do {
		s = pipe_next(p);
		ps->ret = s->end;
		going = slot_pass(m, s, ps) && s->end == 1;
		pipe_release(p, !going);
	} while (going);
	pthread_join(p->thread, NULL);
	if (split)
		sched_setaffinity(0, sizeof(was), &was);
	pipe_free(p);
	return true;
}

int trace_pass(struct srecreader *r, struct schedmodel *m,
	       const struct trace_pass_hooks *hooks)
{
	struct srec_record recs[TRACE_PASS_BATCH];
	struct pass_state p = { 0 };
	uint64_t start, win_end, unneeded = 0;
	bool going = true, skipping = false;
	int n, i;

	/* what no hook sees need not be read out: the model does not care */
	if (!hooks)
		unneeded = schedmodel_unneeded(m);
	if (!hooks && pipe_wanted() && pipe_pass(r, m, unneeded, &p))
		going = false;
	while (going &&
	       (p.ret = n = srecreader_next_batch(r, recs, TRACE_PASS_BATCH)) >
	       0) {
		if (hooks) {
			for (i = 0; i < n && going; i++)
				going = pass_record(m, hooks, &recs[i], &p);
			continue;
		}
		/*
		 * Without hooks, the whole batch at once; the model keeps
		 * the newest time of the records it took (and
		 * schedmodel_finish() ends no earlier), so p.end need not.
		 */
		going = pass_batch(m, recs, n, &p);
		if (!skipping) {
			/* the model knows its window from the first record */
			schedmodel_window_abs(m, &start, &win_end);
			srecreader_skip(r, unneeded, win_end);
			skipping = true;
		}
	}
	/* nothing after the window matters: a pass that stopped ends there */
	if (p.early)
		schedmodel_window_abs(m, &start, &win_end);
	trace_finish(r, m, p.early ? win_end : p.end);
	return p.ret;
}

void trace_finish(const struct srecreader *r, struct schedmodel *m,
		  uint64_t last_ts)
{
	const struct srec_trailer_head *trailer;
	const struct srec_cpu_total *totals;
	uint64_t end = last_ts, until;
	unsigned int cpu;

	trailer = srecreader_trailer(r, &totals);
	if (trailer && trailer->end_mono_ns > end)
		end = trailer->end_mono_ns;
	for (cpu = 0; cpu < srecreader_info(r)->file.nr_cpus; cpu++) {
		/* the model's end may be later than @end: it says */
		until = srecreader_cpu_complete_until(r, cpu);
		if (until != UINT64_MAX)
			schedmodel_cpu_complete_until(m, cpu, until);
	}
	schedmodel_finish(m, end);
}
