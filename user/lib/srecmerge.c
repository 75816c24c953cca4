// SPDX-License-Identifier: GPL-2.0
/*
 * The .srec reader's merge of the CPUs' records by time, and the pull
 * interface that hands them out; see srecreader.h.  The sections they
 * come from are read in srecsection.c.
 *
 * Each CPU has a queue of checked chunks.  A tree of losers orders the
 * CPUs with a record to hand out by that record's timestamp; the oldest
 * goes out once it is older than the latest SYNC horizon (nothing older can
 * follow), or the input is over, or too much is held.  Records go out in
 * batches (srecreader_next_batch()) in one of two ways: merge_batch(),
 * while the CPU on top is in the middle of a plain chunk, or deliver(),
 * which handles every record.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "srecreader_priv.h"

/*
 * How far ahead of a CPU's current record the merge prefetches: its chunk
 * was read and checked long before, with the other CPUs' chunks.
 */
#define MERGE_PREFETCH	512

int reader_merge_init(struct srecreader *r)
{
	size_t two_chunks = 2 * (size_t)r->info.file.chunk_max;
	struct reader_merge *m = &r->merge;
	unsigned int leaves;

	r->cpus = calloc(r->nr_cpus, sizeof(*r->cpus));
	for (leaves = 1; leaves < r->nr_cpus; leaves *= 2)
		;
	m->cpu = calloc(leaves, sizeof(*m->cpu));
	m->ts = calloc(leaves, sizeof(*m->ts));
	m->loser = calloc(leaves, sizeof(*m->loser));
	m->win = calloc(2 * leaves, sizeof(*m->win));
	r->trailer.totals = calloc(r->nr_cpus, sizeof(*r->trailer.totals));
	if (!r->cpus || !m->cpu || !m->ts || !m->loser || !m->win ||
	    !r->trailer.totals)
		return -ENOMEM;
	r->chunks.max_buffered = r->opt.max_buffered ?
				 r->opt.max_buffered :
				 SRECREADER_BUFFERED_DEFAULT;
	if (r->chunks.max_buffered < two_chunks)
		r->chunks.max_buffered = two_chunks;
	if (inflateInit(&r->sect.zstream) != Z_OK)
		return -ENOMEM;
	r->sect.zstream_ready = true;
	return 0;
}

/* A list of chunks, linked by ->next. */
static void free_chunks(struct reader_chunk *chunk)
{
	struct reader_chunk *next;

	for (; chunk; chunk = next) {
		next = chunk->next;
		free(chunk);
	}
}

void reader_merge_free(struct srecreader *r)
{
	unsigned int cpu;

	for (cpu = 0; r->cpus && cpu < r->nr_cpus; cpu++)
		free_chunks(r->cpus[cpu].first);
	free(r->chunks.retired);
	free_chunks(r->chunks.spare);
	free(r->cpus);
	free(r->merge.cpu);
	free(r->merge.ts);
	free(r->merge.loser);
	free(r->merge.win);
	free(r->trailer.totals);
	if (r->sect.zstream_ready)
		inflateEnd(&r->sect.zstream);
}

/* The current record of a CPU with a chunk queued. */
static const struct schedrec_header *cpu_record(const struct srecreader *r,
						unsigned int cpu)
{
	const struct reader_cpu *c = &r->cpus[cpu];

	return (const void *)(c->first->data + c->pos);
}

/*
 * Whether the record at payload byte @pos of @chunk is still sound: the
 * chunk was checked, but in a mapped file it may have changed since,
 * which stops the reader.
 */
static __attribute__((noinline)) bool
record_still_sound(struct srecreader *r, const struct reader_chunk *chunk,
		   uint32_t pos)
{
	char why[256];

	if (!srecchunk_check_record(&chunk->head, chunk->data, pos, &r->types,
				    why, sizeof(why)))
		return true;
	reader_input_changed(r, chunk->offset);
	return false;
}

/*
 * Where the record to hand out at or after payload byte @pos of @chunk is,
 * past any PAD, or the payload's length if none is left; what this steps
 * over is checked again (record_still_sound()).
 */
static __attribute__((noinline)) uint32_t
next_record(struct srecreader *r, const struct reader_chunk *chunk,
	    uint32_t pos)
{
	const struct schedrec_header *rec;

	while (pos < chunk->head.raw_len) {
		if (!record_still_sound(r, chunk, pos))
			return chunk->head.raw_len;
		rec = (const void *)(chunk->data + pos);
		if (rec->type != SCHEDREC_REC_PAD)
			return pos;
		pos += rec->size;
	}
	if (pos != chunk->head.raw_len)
		reader_input_changed(r, chunk->offset);
	return chunk->head.raw_len;
}

/*
 * Record time @ta of CPU @a comes before time @tb of CPU @b: without
 * branches, which would guess the merge's matches wrong half the time.
 */
static inline bool key_before(uint64_t ta, unsigned int a, uint64_t tb,
			      unsigned int b)
{
	return (ta < tb) | ((ta == tb) & (a < b));
}

/*
 * The merge orders the CPUs with a record to hand out by that record's
 * time in a tree of losers: each CPU is a lane, a leaf of a complete
 * binary tree (leaves past the lanes hold none, and lose every match);
 * each inner node keeps the lane that lost the match played there, the
 * root's winner is on top.  When the top's record changes, its matches
 * are played again from its leaf up: one comparison a level, whichever
 * lane wins, where a heap compares twice and branches on which child is
 * older, a coin toss from one record to the next.  A CPU joining or
 * leaving the merge (a chunk read for an idle one, or its last handed
 * out) rebuilds the tree, once a chunk at most.
 */
static void merge_build(struct reader_merge *m)
{
	unsigned int node, a, b;

	for (m->leaves = 1; m->leaves < m->lanes; m->leaves *= 2)
		;
	for (node = m->lanes; node < m->leaves; node++) {
		m->cpu[node] = UINT_MAX;
		m->ts[node] = UINT64_MAX;
	}
	/* win[] of the leaves is the lane itself; of an inner node, played */
	for (node = 2 * m->leaves - 1; node >= m->leaves; node--)
		m->win[node] = node - m->leaves;
	for (node = m->leaves - 1; node; node--) {
		a = m->win[2 * node];
		b = m->win[2 * node + 1];
		if (key_before(m->ts[b], m->cpu[b], m->ts[a], m->cpu[a])) {
			m->win[node] = b;
			m->loser[node] = a;
		} else {
			m->win[node] = a;
			m->loser[node] = b;
		}
	}
	m->top = m->win[1];
}

/* CPU @cpu, idle until a chunk of its was queued, joins the merge. */
static void merge_join(struct srecreader *r, unsigned int cpu)
{
	struct reader_merge *m = &r->merge;

	m->cpu[m->lanes] = cpu;
	m->ts[m->lanes] = cpu_record(r, cpu)->ts;
	m->lanes++;
	merge_build(m);
}

/* The CPU on top has no record left: it leaves the merge. */
static void merge_leave(struct srecreader *r)
{
	struct reader_merge *m = &r->merge;

	m->lanes--;
	m->cpu[m->top] = m->cpu[m->lanes];
	m->ts[m->top] = m->ts[m->lanes];
	merge_build(m);
}

/*
 * The record of the CPU on top changed to one at @ts: its matches played
 * again, from its leaf up, without branches.
 */
static inline __attribute__((always_inline)) void
merge_replay(struct reader_merge *m, uint64_t ts)
{
	unsigned int lane = m->top, cpu = m->cpu[lane], node, other;
	bool swap;

	m->ts[lane] = ts;
	for (node = (lane + m->leaves) / 2; node; node /= 2) {
		other = m->loser[node];
		swap = key_before(m->ts[other], m->cpu[other], ts, cpu);
		m->loser[node] = swap ? lane : other;
		lane = swap ? other : lane;
		ts = m->ts[lane];
		cpu = m->cpu[lane];
	}
	m->top = lane;
}

/* The CPU on top, and the time of its record. */
static inline unsigned int top_cpu(const struct srecreader *r)
{
	return r->merge.cpu[r->merge.top];
}

static inline uint64_t top_ts(const struct srecreader *r)
{
	return r->merge.ts[r->merge.top];
}

/* Queue a checked chunk; the CPU joins the merge if it was idle. */
void reader_queue_chunk(struct srecreader *r, struct reader_chunk *chunk)
{
	unsigned int cpu = chunk->head.cpu;
	struct reader_cpu *c = &r->cpus[cpu];

	c->accepted = true;
	c->accepted_next = chunk->head.last_seq + 1;
	if (chunk->head.last_ts > c->accepted_ts)
		c->accepted_ts = chunk->head.last_ts;
	c->stats.chunks++;
	r->status.chunks++;
	r->chunks.buffered += chunk->head.raw_len;
	if (r->chunks.buffered > r->status.buffered_peak)
		r->status.buffered_peak = r->chunks.buffered;
	if (c->first) {
		c->last->next = chunk;
		c->last = chunk;
		return;
	}
	c->first = c->last = chunk;
	c->pos = next_record(r, chunk, 0);
	c->chunk_start = true;
	if (!r->changed)
		merge_join(r, cpu);
}

/* A record older than one handed out before (the rare case). */
static __attribute__((noinline)) void
deliver_late(struct srecreader *r, unsigned int cpu,
	     const struct reader_chunk *chunk,
	     const struct schedrec_header *hdr)
{
	r->cpus[cpu].stats.late++;
	if (!r->late_warned)
		reader_warn(r, chunk->offset,
			    "cpu %u: a record at %llu ns is older than one handed out before (%llu ns): the file's records are out of time order",
			    cpu, (unsigned long long)hdr->ts,
			    (unsigned long long)r->newest_ts);
	r->late_warned = true;
}

/* Numbers neither delivered nor filtered out by the recorder. */
static void update_missing(struct srecreader_cpu *s)
{
	s->missing = s->gaps > s->filtered ? s->gaps - s->filtered : 0;
}

/* The first record of a chunk: its numbers start from the chunk head's. */
static __attribute__((noinline)) uint64_t
deliver_chunk_start(struct srecreader *r, struct reader_cpu *c,
		    const struct reader_chunk *chunk)
{
	struct srecreader_cpu *s = &c->stats;

	c->chunk_start = false;
	if (!s->records)
		s->first_ts = top_ts(r);
	s->filtered += chunk->head.filtered;
	update_missing(s);
	return chunk->head.first_seq;
}

/* Sequence numbers from @expected to @seq are missing before @rec. */
static __attribute__((noinline)) void
deliver_gap(struct srecreader *r, struct reader_cpu *c, uint64_t seq,
	    uint64_t expected, struct srec_record *rec)
{
	struct srecreader_cpu *s = &c->stats;

	if ((!c->started && !(r->info.file.flags & SREC_FILE_F_FROM_START)) ||
	    seq <= expected)
		return;
	rec->gap = seq - expected;
	s->gaps += rec->gap;
	s->gap_count++;
	update_missing(s);
}

/* The CPU's chunk is handed out: on to its next, if there is one. */
static __attribute__((noinline)) void deliver_next_chunk(struct srecreader *r,
							 struct reader_cpu *c)
{
	struct reader_chunk *chunk = c->first;

	r->chunks.retired = chunk;
	r->chunks.buffered -= chunk->head.raw_len;
	c->first = chunk->next;
	if (!c->first) {
		c->last = NULL;
		merge_leave(r);
		return;
	}
	c->pos = next_record(r, c->first, 0);
	c->chunk_start = true;
	if (unlikely(r->changed)) {
		merge_leave(r);
		return;
	}
	merge_replay(&r->merge, cpu_record(r, top_cpu(r))->ts);
}

/* No input is left: the last file of the series ended. */
static bool input_over(const struct srecreader *r)
{
	return r->done && r->series.next >= r->series.nr;
}

/*
 * Whether a record other than a PAD starts at payload byte @pos of @data
 * (@end bytes): then a CPU's next record is simply there.
 */
static inline bool record_follows(const unsigned char *data, uint32_t pos,
				  uint32_t end)
{
	const struct schedrec_header *next = (const void *)(data + pos);

	return pos + sizeof(*next) <= end && next->type != SCHEDREC_REC_PAD;
}

/*
 * Where records stop being ones the caller need not get
 * (srecreader_skip()), from payload byte @pos of @data (@end bytes; a
 * record is there, numbered *@seq if it is one of them), none older than
 * @low; *@seq and *@last (the time of the last stepped over) follow.  A
 * record is stepped over only where nothing could tell: of its type's
 * fixed size, numbered next, followed in its chunk by a record numbered
 * next (a LOST record is numbered past the events it counts), no older
 * and older than @limit.  So it is not its CPU's last, no gap or loss
 * comes after it, nothing handed out after it is older than it, and
 * (@limit no later than the horizon, unless the input is over) no
 * section is read before it would have gone.
 */
static inline uint32_t skip_chain(const struct srecreader *r,
				  const unsigned char *data, uint32_t pos,
				  uint32_t end, uint64_t *seq, uint64_t low,
				  uint64_t limit, uint64_t *last)
{
	const struct schedrec_header *hdr = (const void *)(data + pos), *next;
	uint32_t after;

	if (likely(!r->skip.size[hdr->type]) || hdr->ts < low)
		return pos;
	while (hdr->size == r->types.fixed[hdr->type] &&
	       hdr->seq == (uint32_t)*seq) {
		after = pos + hdr->size;
		if (after + sizeof(*next) > end)
			break;
		next = (const void *)(data + after);
		/* a PAD's number is no record's: it ends the run here */
		if (next->ts < hdr->ts || next->ts >= limit ||
		    next->seq != (uint32_t)(*seq + 1) ||
		    next->type == SCHEDREC_REC_PAD)
			break;
		*last = hdr->ts;
		++*seq;
		pos = after;
		hdr = next;
		if (!r->skip.size[hdr->type])
			break;
	}
	return pos;
}

/*
 * The latest time a record after a skipped one may have, kept in
 * r->skip.until: only reading sections and srecreader_skip() change it.
 */
static void skip_limit(struct srecreader *r)
{
	uint64_t horizon = input_over(r) ? UINT64_MAX : r->horizon;

	r->skip.until = horizon < r->skip.before ? horizon : r->skip.before;
}

/*
 * skip_chain() from payload byte @pos of @c's chunk, the skipped counted
 * as handed out: where the next record to hand out is.
 */
static inline __attribute__((always_inline)) uint32_t
skip_unwanted(struct srecreader *r, struct reader_cpu *c, uint32_t pos)
{
	const struct reader_chunk *chunk = c->first;
	uint64_t seq = c->next_seq, last = 0;
	uint32_t to;

	to = skip_chain(r, chunk->data, pos, chunk->head.raw_len, &seq,
			r->newest_ts, r->skip.until, &last);
	if (to != pos) {
		c->stats.records += seq - c->next_seq;
		c->stats.bytes += to - pos;
		c->stats.last_ts = last;
		c->next_seq = seq;
	}
	return to;
}

/*
 * @c's records handed out or stepped over at once, up to payload byte
 * @pos, the next numbered @seq, the last at @last: counted as deliver()
 * counts them.
 */
static inline void run_done(struct reader_cpu *c, uint32_t pos, uint64_t seq,
			    uint64_t last)
{
	c->stats.records += seq - c->next_seq;
	c->stats.bytes += pos - c->pos;
	c->stats.last_ts = last;
	c->next_seq = seq;
	c->started = true;
	c->pos = pos;
}

/*
 * Hand out the oldest record and move its CPU on: any record, of any
 * chunk.  One not of its type's fixed size (a STACK, say) is checked
 * again: see record_still_sound().  False if it could not go.
 */
static bool deliver(struct srecreader *r, struct srec_record *rec)
{
	unsigned int cpu = top_cpu(r);
	struct reader_cpu *c = &r->cpus[cpu];
	struct reader_chunk *chunk = c->first;
	const struct schedrec_header *hdr = cpu_record(r, cpu), *next;
	struct srecreader_cpu *s = &c->stats;
	uint64_t ts = top_ts(r), seq, expected;
	uint32_t pos;

	/* checked here, when it goes: a mapped file may have changed */
	if (unlikely(hdr->size != r->types.fixed[hdr->type]) &&
	    !record_still_sound(r, chunk, c->pos))
		return false;
	seq = srecchunk_record_seq(c->next_seq, hdr, &expected);
	if (unlikely(hdr->type == SCHEDREC_REC_LOST)) {
		s->lost += ((const struct schedrec_lost *)hdr)->count;
		s->lost_records++;
	}
	if (unlikely(c->chunk_start))
		seq = deliver_chunk_start(r, c, chunk);
	rec->gap = 0;
	if (unlikely(seq != expected))
		deliver_gap(r, c, seq, expected, rec);
	c->started = true;
	c->next_seq = seq + 1;
	rec->hdr = hdr;
	rec->cpu = cpu;
	rec->lasting = chunk_borrowed(chunk);
	rec->seq = seq;
	rec->chunk_offset = chunk->offset;
	s->records++;
	s->last_ts = ts;
	s->bytes += hdr->size;
	if (unlikely(ts < r->newest_ts))
		deliver_late(r, cpu, chunk, hdr);
	else
		r->newest_ts = ts;

	/*
	 * Move on; the chunk stays until the next call.  At the chunk's end
	 * or a PAD, next_record() finds the next one.  A record changed in a
	 * mapped file may be read past its chunk's end, but no further than
	 * the page after the file, which reads as zeros.
	 */
	pos = c->pos + hdr->size;
	if (likely(record_follows(chunk->data, pos, chunk->head.raw_len))) {
		c->pos = skip_unwanted(r, c, pos);
		next = (const void *)(chunk->data + c->pos);
	} else {
		c->pos = next_record(r, chunk, pos);
		if (c->pos >= chunk->head.raw_len) {
			deliver_next_chunk(r, c);
			return true;
		}
		next = cpu_record(r, cpu);
	}
	__builtin_prefetch(chunk->data + c->pos + MERGE_PREFETCH);
	merge_replay(&r->merge, next->ts);
	return true;
}

/*
 * Hand out records while the CPU on top is in the middle of a plain chunk
 * (srecchunk_check(): after its first record, every record of its type's
 * fixed size, not LOST, numbered one after the other, in time order):
 * deliver() without its exceptions, for any number of CPUs.  The records
 * after each that the caller need not get are stepped over as
 * skip_unwanted() steps over them.  It stops after @max, and before a
 * chunk's first or last record, one at or after the horizon (unless
 * @any_time), one older than the last handed out, or one not of its
 * type's plain size (a mapped file changed since): deliver() hands those
 * out.  How many went into @recs.
 */
static unsigned int merge_batch(struct srecreader *r, struct srec_record *recs,
				unsigned int max, bool any_time)
{
	uint64_t bound = any_time ? UINT64_MAX : r->horizon, ts, seq, last;
	const struct schedrec_header *hdr;
	const int *plain = r->types.plain;
	const struct reader_chunk *chunk;
	unsigned int k = 0, cpu;
	struct reader_cpu *c;
	uint32_t at;

	while (k < max) {
		cpu = top_cpu(r);
		ts = top_ts(r);
		c = &r->cpus[cpu];
		chunk = c->first;
		hdr = cpu_record(r, cpu);
		at = c->pos + hdr->size;
		if (ts >= bound || ts < r->newest_ts || !chunk->plain ||
		    c->chunk_start || hdr->size != plain[hdr->type] ||
		    at >= chunk->head.raw_len)
			break;
		seq = c->next_seq;
		recs[k].hdr = hdr;
		recs[k].cpu = cpu;
		recs[k].lasting = chunk_borrowed(chunk);
		recs[k].seq = seq;
		recs[k].gap = 0;
		recs[k].chunk_offset = chunk->offset;
		k++;
		r->newest_ts = ts;
		seq++;
		last = ts;
		at = skip_chain(r, chunk->data, at, chunk->head.raw_len, &seq,
				ts, r->skip.until, &last);
		run_done(c, at, seq, last);
		__builtin_prefetch(chunk->data + at + MERGE_PREFETCH);
		merge_replay(&r->merge, cpu_record(r, cpu)->ts);
	}
	return k;
}

uint64_t srecreader_cpu_complete_until(const struct srecreader *r,
				       unsigned int cpu)
{
	uint64_t last;

	/*
	 * A damaged trailer still ends the records: they are all there.  A
	 * pass may stop before the records are handed out (at the end of
	 * its window): once the input is over, the answer is known anyway,
	 * and a record after a CPU's end can only go before that when more
	 * than max_buffered is held (may_deliver_any()).
	 */
	if ((!r->finished && !r->error && !input_over(r)) ||
	    r->trailer.present || r->trailer.damaged || cpu >= r->nr_cpus)
		return UINT64_MAX;
	last = r->cpus[cpu].accepted_ts;
	if (last < r->horizon)
		last = r->horizon;
	/* none, and no SYNC: whole up to the start, where nothing is missing */
	return last > r->info.file.start_mono_ns ? last :
						  r->info.file.start_mono_ns;
}

/* Whether any record held may go, however recent: see may_deliver(). */
static bool may_deliver_any(const struct srecreader *r)
{
	return input_over(r) || r->chunks.buffered > r->chunks.max_buffered;
}

/* Whether the oldest record held can go: nothing older can follow. */
static bool may_deliver(const struct srecreader *r)
{
	return may_deliver_any(r) || top_ts(r) < r->horizon;
}

/*
 * Read sections until a record may go, or the input ends.  After an error
 * the records already read and checked still go, oldest first, as at the
 * end of the input: nothing older can come any more.
 */
static __attribute__((noinline)) int next_slow(struct srecreader *r,
					       struct srec_record *rec)
{
	for (;;) {
		skip_limit(r);
		if (r->error) {
			if (!r->merge.lanes || r->changed || !deliver(r, rec))
				return r->error;
			return 1;
		}
		/* a file of a series ended: what it holds merges with the next */
		if (r->done && reader_next_file(r))
			continue;
		if (r->error)
			continue;
		if (r->merge.lanes && may_deliver(r)) {
			if (!deliver(r, rec))
				continue;
			return 1;
		}
		if (r->done) {
			if (!r->finished)
				reader_finish(r);
			return 0;
		}
		reader_read_section(r);
	}
}

/*
 * The records of the chunk handed out last are used: its payload can hold
 * another, or, in a mapped file, the pages before every chunk held and
 * the section being read can go.
 */
static __attribute__((noinline)) void retire(struct srecreader *r)
{
	uint64_t low = r->in.offset;
	unsigned int cpu;

	reader_chunk_put(r, r->chunks.retired);
	r->chunks.retired = NULL;
	if (!r->in.map)
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->cpus[cpu].first && r->cpus[cpu].first->offset < low)
			low = r->cpus[cpu].first->offset;
	if (r->keep_from < low)
		low = r->keep_from;
	srecinput_release(&r->in, low);
}

/*
 * The common case of srecreader_next_batch(), kept small: records are
 * ready.  A chunk handed out whole ends the batch, so that it is the one
 * kept (retired) until the next call, with the records that point into
 * it; until then no CPU leaves the merge and nothing is read, so of
 * may_deliver() only the horizon can change its answer.  How many it
 * handed out, up to @max.
 */
static unsigned int batch_fill(struct srecreader *r, struct srec_record *recs,
			       unsigned int max)
{
	bool any_time = may_deliver_any(r);
	unsigned int n = 0;

	while (n < max && !r->chunks.retired &&
	       (any_time || top_ts(r) < r->horizon)) {
		n += merge_batch(r, recs + n, max - n, any_time);
		if (n == max || !(any_time || top_ts(r) < r->horizon) ||
		    !deliver(r, &recs[n]))
			break;
		n++;
	}
	return n;
}

int srecreader_next_batch(struct srecreader *r, struct srec_record *recs,
			  unsigned int max)
{
	unsigned int n;

	if (r->chunks.retired)
		retire(r);
	if (unlikely(srecinput_shrunk(&r->in)))
		reader_input_changed(r, r->in.offset);
	if (r->error || !r->merge.lanes)
		return next_slow(r, recs);
	n = batch_fill(r, recs, max);
	return n ? (int)n : next_slow(r, recs);
}

const struct srecreader_cpu *srecreader_cpu(const struct srecreader *r,
					    unsigned int cpu)
{
	return cpu < r->nr_cpus ? &r->cpus[cpu].stats : NULL;
}

const struct srec_trailer_head *
srecreader_trailer(const struct srecreader *r,
		   const struct srec_cpu_total **totals)
{
	if (totals)
		*totals = r->trailer.present ? r->trailer.totals : NULL;
	return r->trailer.present ? &r->trailer.head : NULL;
}

void srecreader_keep(struct srecreader *r, uint64_t offset)
{
	r->keep_from = offset;
}

void srecreader_skip(struct srecreader *r, uint64_t types, uint64_t before_ns)
{
	unsigned int type;

	for (type = 0; type < 256; type++)
		r->skip.size[type] = type < 64 && (types >> type & 1) &&
				type != SCHEDREC_REC_LOST &&
				type != SCHEDREC_REC_PAD &&
				r->types.fixed[type] > 0 ?
				r->types.fixed[type] : 0;
	r->skip.before = before_ns;
	skip_limit(r);
}
