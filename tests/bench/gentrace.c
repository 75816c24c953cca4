// SPDX-License-Identifier: GPL-2.0
/*
 * gentrace: a large, consistent synthetic trace for the report benchmark.
 *
 * A small scheduler simulation: threads on CPUs run for a while, then
 * sleep (S), block (D) or are preempted (R) by a runnable thread; sleepers
 * are woken (sched_waking, by whoever runs on the waking CPU, sometimes
 * from an interrupt) onto a runqueue, sometimes another CPU's (with a
 * migration).  Every record has the real layout and every CPU's switch
 * sequence is consistent, so the reports do their real work.  The file is
 * written with the real writer, SYNC rounds included.
 *
 *	gentrace [-c CPUS] [-p POSSIBLE] [-t THREADS] [-n RECORDS] [-z LEVEL]
 *		 [-s SEED] OUT
 *
 * CPUS are online and hold records; the file has POSSIBLE CPUs (default
 * CPUS), as a machine with CPUs that may be brought online later.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srecwriter.h"
#include "taskstate.h"

#define START_NS	1000000000000ull
#define FLUSH_BYTES	(1u << 20)

enum { RUNNING, RUNNABLE, SLEEPING };

struct sim_thread {
	uint32_t tid;
	int state;
	uint32_t cpu;
	uint64_t wake_at;
	struct sim_thread *next;	/* runqueue or sleep list link */
};

struct sim_cpu {
	struct sim_thread *curr;	/* NULL: idle */
	struct sim_thread *rq_head, *rq_tail;
	uint64_t slice_end;
	uint32_t seq;
	unsigned char *buf;
	size_t len;
};

struct sim {
	unsigned int nr_cpus;
	unsigned int nr_threads;
	struct sim_cpu *cpus;
	struct sim_thread *threads;
	uint64_t now;
	uint64_t sub;		/* ns after @now of the tick's last record */
	uint64_t records;
	uint32_t rng;
	struct srecwriter *w;
};

static uint32_t rnd(struct sim *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	return s->rng;
}

/* A duration around @mean ns. */
static uint64_t around(struct sim *s, uint64_t mean)
{
	return mean / 2 + rnd(s) % (mean + 1);
}

static int flush(struct sim *s)
{
	unsigned int cpu;
	int ret = srecwriter_round(s->w, s->now);

	for (cpu = 0; !ret && cpu < s->nr_cpus; cpu++) {
		ret = srecwriter_append(s->w, cpu, s->cpus[cpu].buf,
					s->cpus[cpu].len);
		s->cpus[cpu].len = 0;
	}
	return ret;
}

static void *put(struct sim *s, unsigned int cpu, unsigned int type,
		 size_t size)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct schedrec_header *h = (void *)(c->buf + c->len);

	memset(h, 0, size);
	/* distinct times, as a real clock gives, within the tick */
	s->sub += 1 + rnd(s) % 40;
	h->ts = s->now + s->sub;
	h->seq = c->seq++;
	h->size = size;
	h->type = type;
	c->len += size;
	s->records++;
	return h;
}

static void rq_push(struct sim_cpu *c, struct sim_thread *t)
{
	t->next = NULL;
	if (c->rq_tail)
		c->rq_tail->next = t;
	else
		c->rq_head = t;
	c->rq_tail = t;
}

static struct sim_thread *rq_pop(struct sim_cpu *c)
{
	struct sim_thread *t = c->rq_head;

	if (t) {
		c->rq_head = t->next;
		if (!c->rq_head)
			c->rq_tail = NULL;
	}
	return t;
}

static void do_switch(struct sim *s, unsigned int cpu, uint32_t prev_state,
		      bool preempt)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_thread *prev = c->curr, *next = rq_pop(c);
	struct schedrec_switch *sw;

	if (!prev && !next)
		return;
	sw = put(s, cpu, SCHEDREC_EV_SWITCH, sizeof(*sw));
	sw->prev_tid = prev ? prev->tid : 0;
	sw->next_tid = next ? next->tid : 0;
	sw->prev_state = prev ? prev_state : 0;
	sw->prev_prio = 120;
	sw->next_prio = 120;
	if (preempt)
		sw->hdr.flags = SCHEDREC_F_PREEMPT;
	if (prev && preempt) {
		prev->state = RUNNABLE;
		rq_push(c, prev);
	} else if (prev) {
		prev->state = SLEEPING;
		prev->wake_at = s->now + around(s, 200000);
	}
	c->curr = next;
	if (next) {
		next->state = RUNNING;
		next->cpu = cpu;
	}
	c->slice_end = s->now + around(s, 20000);
}

static void do_wakeups(struct sim *s)
{
	unsigned int i, cpu, target;
	struct schedrec_wakeup *wk;
	struct schedrec_migrate *mg;

	for (i = 0; i < s->nr_threads; i++) {
		struct sim_thread *t = &s->threads[i];

		if (t->state != SLEEPING || t->wake_at > s->now)
			continue;
		cpu = rnd(s) % s->nr_cpus;
		target = rnd(s) % 8 ? t->cpu : rnd(s) % s->nr_cpus;
		wk = put(s, cpu, SCHEDREC_EV_WAKING, sizeof(*wk));
		wk->tid = t->tid;
		wk->target_cpu = target;
		wk->prio = 120;
		if (rnd(s) % 4 == 0 || !s->cpus[cpu].curr)
			wk->hdr.flags = SCHEDREC_F_IRQ;
		else
			wk->waker_tid = s->cpus[cpu].curr->tid;
		if (target != t->cpu) {
			mg = put(s, cpu, SCHEDREC_EV_MIGRATE, sizeof(*mg));
			mg->tid = t->tid;
			mg->orig_cpu = t->cpu;
			mg->dest_cpu = target;
			mg->prio = 120;
			t->cpu = target;
		}
		t->state = RUNNABLE;
		rq_push(&s->cpus[target], t);
	}
}

static int simulate(struct sim *s, uint64_t records)
{
	unsigned int cpu;
	int ret = 0;

	while (!ret && s->records < records) {
		s->now += s->sub + 1000 + rnd(s) % 2000;
		s->sub = 0;
		do_wakeups(s);
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			struct sim_cpu *c = &s->cpus[cpu];
			uint32_t r = rnd(s) % 100;

			if (c->curr && s->now < c->slice_end)
				continue;
			if (!c->curr)
				do_switch(s, cpu, 0, false);
			else if (c->rq_head && r < 40)
				do_switch(s, cpu, 0, true);
			else
				do_switch(s, cpu, r < 95 ?
					  TASKSTATE_INTERRUPTIBLE :
					  TASKSTATE_UNINTERRUPTIBLE, false);
		}
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			if (s->cpus[cpu].len > FLUSH_BYTES - 256)
				break;
		if (cpu < s->nr_cpus)
			ret = flush(s);
	}
	return ret ? ret : flush(s);
}

int main(int argc, char **argv)
{
	struct sim s = { .nr_cpus = 4, .nr_threads = 64, .rng = 1 };
	struct srecwriter_header hdr = {
		.start_mono_ns = START_NS, .start_real_ns = START_NS,
		.drainer_cpu = UINT32_MAX, .flags = SREC_FILE_F_FROM_START,
		.release = "gentrace", .hostname = "gentrace",
		.event_mask = SCHEDREC_EV_ALL_MASK,
	};
	struct srec_thread *snap;
	uint64_t records = 100000000;
	char online[32];
	unsigned int possible = 0;
	int c, fd, zlib = 0, ret;
	unsigned int i;

	while ((c = getopt(argc, argv, "c:p:t:n:z:s:")) != -1) {
		switch (c) {
		case 'c':
			s.nr_cpus = atoi(optarg);
			break;
		case 'p':
			possible = strtoul(optarg, NULL, 10);
			break;
		case 't':
			s.nr_threads = atoi(optarg);
			break;
		case 'n':
			records = strtoull(optarg, NULL, 10);
			break;
		case 'z':
			zlib = atoi(optarg);
			break;
		case 's':
			s.rng = atoi(optarg) ?: 1;
			break;
		default:
			fprintf(stderr, "usage: gentrace [-c CPUS] [-p POSSIBLE] [-t THREADS] [-n RECORDS] [-z LEVEL] [-s SEED] OUT\n");
			return 2;
		}
	}
	if (optind != argc - 1 || !s.nr_cpus || s.nr_threads < s.nr_cpus ||
	    (possible && possible < s.nr_cpus)) {
		fprintf(stderr, "usage: gentrace [-c CPUS] [-p POSSIBLE] [-t THREADS] [-n RECORDS] [-z LEVEL] [-s SEED] OUT\n");
		return 2;
	}
	s.cpus = calloc(s.nr_cpus, sizeof(*s.cpus));
	s.threads = calloc(s.nr_threads, sizeof(*s.threads));
	snap = calloc(s.nr_threads, sizeof(*snap));
	if (!s.cpus || !s.threads || !snap)
		return 1;
	for (i = 0; i < s.nr_cpus; i++) {
		s.cpus[i].buf = malloc(FLUSH_BYTES);
		if (!s.cpus[i].buf)
			return 1;
	}
	for (i = 0; i < s.nr_threads; i++) {
		struct sim_thread *t = &s.threads[i];

		t->tid = 1000 + i;
		t->cpu = i % s.nr_cpus;
		t->state = RUNNABLE;
		rq_push(&s.cpus[t->cpu], t);
		snap[i].tid = t->tid;
		snap[i].tgid = 1000 + i / 4 * 4;
		snprintf(snap[i].comm, sizeof(snap[i].comm), "sim-%u", i);
	}
	snprintf(online, sizeof(online), "0-%u", s.nr_cpus - 1);
	hdr.online = online;
	hdr.threads = snap;
	hdr.nr_threads = s.nr_threads;
	s.now = START_NS;
	fd = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	ret = srecwriter_open(&s.w, fd, &(struct srecwriter_options){
		.nr_cpus = possible ?: s.nr_cpus, .zlib_level = zlib });
	if (!ret)
		ret = srecwriter_write_header(s.w, &hdr);
	if (!ret)
		ret = simulate(&s, records);
	if (!ret)
		ret = srecwriter_write_trailer(s.w,
			&(struct srecwriter_trailer){
				.end_mono_ns = s.now, .end_real_ns = s.now });
	if (ret)
		fprintf(stderr, "gentrace: %s\n", s.w ? srecwriter_error(s.w) :
			strerror(-ret));
	else
		printf("%llu records, %.3f s of trace\n",
		       (unsigned long long)s.records,
		       (s.now - START_NS) / 1e9);
	if (s.w)
		srecwriter_close(s.w);
	close(fd);
	return ret ? 1 : 0;
}
