/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The drain engine of `schedrec record`: takes the records of every CPU's
 * ring in turn, applies the thread filter, notes losses, and hands what it
 * keeps to a sink (the trace writer, or a test) through one staging buffer:
 * a chunk when the buffer is full and at the end of each CPU's turn.  It
 * allocates nothing after drain_init().
 *
 * Rounds: drain_round(d, until) takes from each ring the records stamped
 * before @until, so when it returns, every record with an earlier stamp
 * that the kernel had committed when the round began has been handed to
 * the sink.  The caller reads CLOCK_MONOTONIC just before the round and
 * passes it as @until; the final round after recording stops passes
 * UINT64_MAX.  Two passes make the filter exact across CPUs: the first
 * learns the threads that fork records add to the filter, the second
 * copies.  A child's first records come after its fork record is committed,
 * hence after @until, so they are never judged before their fork is seen.
 */
#ifndef SCHEDREC_DRAIN_H
#define SCHEDREC_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringreader.h"

/*
 * Hands the @len bytes of records of @cpu to the trace, after @filtered
 * records of that CPU were left out by the filter; 0 or -errno.
 */
typedef int (*drain_sink_fn)(void *arg, unsigned int cpu, const void *buf,
			     size_t len, uint64_t filtered);

/*
 * Per CPU.  Sequence accounting is the trace writer's (it sees every kept
 * record and the filtered counts); the drainer keeps what its summary says.
 */
struct drain_cpu {
	struct ringreader rr;
	bool open;
	uint64_t filtered;	/* left out since the last chunk */
	uint64_t records;	/* records read from the ring */
	uint64_t lost;		/* events the kernel dropped (LOST records) */
	uint64_t first_lost_ts, last_lost_ts;	/* when */
};

struct drain_filter {
	uint32_t tgid;		/* keep threads of this process, 0: none */
	uint32_t tid;		/* keep this thread, 0: none */
	uint32_t nr_tids;	/* size of the bitmap in tids (pid_max) */
	uint64_t *tids;		/* the kept threads */
};

struct drainer {
	unsigned int nr_cpus;
	struct drain_cpu *cpu;	/* indexed by CPU number */
	unsigned char *buf;	/* the staging buffer, chunk_size bytes */
	size_t chunk_size;
	size_t fill;
	struct drain_filter *filter;	/* NULL: keep everything */
	drain_sink_fn sink;
	void *sink_arg;
	/* while a round runs */
	uint64_t until;
	int error;
};

/*
 * @alloc gives zeroed memory (e.g. on the drainer's NUMA node); it is used
 * only here.  Returns 0 or -ENOMEM.
 */
int drain_init(struct drainer *d, unsigned int nr_cpus, size_t chunk_size,
	       void *(*alloc)(size_t size));

/* Drain every open ring once; returns records read or a negative errno. */
int64_t drain_round(struct drainer *d, uint64_t until);

/* Hand the filtered counts still pending to the sink. */
int drain_flush(struct drainer *d);

/* Is @tid kept by @f?  (Also used when the filter is seeded.) */
bool drain_filter_has(const struct drain_filter *f, uint32_t tid);
void drain_filter_add(struct drain_filter *f, uint32_t tid);

#endif /* SCHEDREC_DRAIN_H */
