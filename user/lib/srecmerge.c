// SPDX-License-Identifier: GPL-2.0
/*
 * The .srec reader after the header: chunks, SYNC and the trailer, damaged
 * sections, and the merge of the CPUs by time; see srecreader.h.
 *
 * Each CPU has a queue of checked chunks.  A tree of losers orders the
 * CPUs with a record to hand out by that record's timestamp; the oldest goes
 * out once it is older than the latest SYNC horizon (nothing older can
 * follow), or the input is over, or too much is held.  Records go out in
 * batches (srecreader_next_batch()) in one of two ways: merge_batch(),
 * while the CPU on top is in the middle of a plain chunk, or deliver(),
 * which handles every record.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srecreader_priv.h"

/*
 * How far ahead of a CPU's current record the merge prefetches: its chunk
 * was read and checked long before, with the other CPUs' chunks.
 */
#define MERGE_PREFETCH	512

/*
 * Chunks are kept for reuse once their records are handed out, up to as
 * much as was ever held at once: a new chunk's memory costs a page fault
 * per page, as much as merging its records when the file is read once.
 * Their payloads are made in steps of this, so that one fits the next.
 */
#define CHUNK_STEP	(64u << 10)

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
	r->totals = calloc(r->nr_cpus, sizeof(*r->totals));
	if (!r->cpus || !m->cpu || !m->ts || !m->loser || !m->win ||
	    !r->totals)
		return -ENOMEM;
	r->max_buffered = r->opt.max_buffered ? r->opt.max_buffered :
			  SRECREADER_BUFFERED_DEFAULT;
	if (r->max_buffered < two_chunks)
		r->max_buffered = two_chunks;
	if (inflateInit(&r->zstream) != Z_OK)
		return -ENOMEM;
	r->zstream_ready = true;
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
	free(r->retired);
	free_chunks(r->spare);
	free(r->cpus);
	free(r->merge.cpu);
	free(r->merge.ts);
	free(r->merge.loser);
	free(r->merge.win);
	free(r->totals);
	if (r->zstream_ready)
		inflateEnd(&r->zstream);
}

/* The current record of a CPU with a chunk queued. */
static const struct schedrec_header *cpu_record(const struct srecreader *r,
						unsigned int cpu)
{
	const struct reader_cpu *c = &r->cpus[cpu];

	return (const void *)(c->first->data + c->pos);
}

/*
 * The mapped file changed under the reader (it was cut short, or written
 * over; a page that cannot be read also raises SIGBUS): what it holds
 * cannot be trusted any more, so nothing more goes.
 */
static void input_changed(struct srecreader *r, uint64_t offset)
{
	if (r->changed)
		return;
	r->changed = true;
	r->error = 0;
	reader_fail(r, -EIO, offset,
		    "the file changed while it was read (cut short or written over), or a page of it could not be read, near offset %llu: reading stopped there",
		    (unsigned long long)offset);
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
	input_changed(r, chunk->offset);
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
		input_changed(r, chunk->offset);
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

/* A damaged section: a warning and on, or in strict mode the end. */
static __printf(4, 5) void report_corrupt(struct srecreader *r,
					  uint64_t offset, int cpu,
					  const char *fmt, ...);

static void report_corrupt(struct srecreader *r, uint64_t offset, int cpu,
			   const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (srecinput_shrunk(&r->in)) {
		input_changed(r, offset);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	r->status.corrupt++;
	if (cpu >= 0)
		r->cpus[cpu].stats.corrupt++;
	if (r->opt.strict)
		reader_fail(r, -EBADMSG, offset,
			    "corrupt section at offset %llu: %s",
			    (unsigned long long)offset, why);
	else
		reader_warn(r, offset,
			    "corrupt section at offset %llu skipped: %s",
			    (unsigned long long)offset, why);
}

static void report_truncated(struct srecreader *r)
{
	if (srecinput_shrunk(&r->in)) {
		input_changed(r, r->frame_offset);
		return;
	}
	r->status.truncated = true;
	r->status.eof = true;
	r->done = true;
	if (r->in.offset > r->frame_offset)
		reader_warn(r, r->frame_offset,
			    "the file is truncated: the section at offset %llu is incomplete at offset %llu; everything before it was read",
			    (unsigned long long)r->frame_offset,
			    (unsigned long long)r->in.offset);
	else
		reader_warn(r, r->frame_offset,
			    "the file is truncated: it ends inside the head of the section at offset %llu; everything before it was read",
			    (unsigned long long)r->frame_offset);
}

static void read_failed(struct srecreader *r)
{
	reader_fail(r, r->in.error, r->in.offset,
		    "read error at offset %llu: %s",
		    (unsigned long long)r->in.offset, strerror(-r->in.error));
}

/* Read or drop the data of the current section; false if it ended. */
static bool data_status_ok(struct srecreader *r, enum section_status status)
{
	if (status == SECTION_TRUNCATED)
		report_truncated(r);
	else if (status == SECTION_READ_ERROR)
		read_failed(r);
	else
		return true;
	return false;
}

/* Drop the data of a section (checking only its padding). */
static void skip_data(struct srecreader *r)
{
	uint64_t offset = r->frame_offset;
	enum section_status status = reader_read_data(r, NULL);

	if (data_status_ok(r, status) && status == SECTION_DAMAGED)
		report_corrupt(r, offset, -1, "padding is not zeros");
}

/* Skip a section whose frame is fine but whose content is not. */
static void skip_corrupt(struct srecreader *r, int cpu, const char *why)
{
	uint64_t offset = r->frame_offset;

	if (data_status_ok(r, reader_read_data(r, NULL)))
		report_corrupt(r, offset, cpu, "%s", why);
}

/*
 * Look for the next sound frame after the one at r->frame_offset, 8 bytes
 * at a time; SECTION_OK when one is found (and read), else how the input
 * ended.
 */
static enum section_status scan_for_frame(struct srecreader *r)
{
	enum section_status status;
	char ignored[128];

	for (;;) {
		if (srecinput_read(&r->in, NULL, SREC_ALIGN) < SREC_ALIGN)
			return r->in.error ? SECTION_READ_ERROR : SECTION_END;
		status = reader_read_frame(r, ignored, sizeof(ignored));
		if (status != SECTION_DAMAGED)
			return status;
	}
}

/*
 * The damaged @frame at @start is the last frame of the input: whether the
 * section is whole, its bytes all there, so that the file is damaged, not
 * cut short.  It is if its type still says TRAILER (its frame and head
 * were read whole to fail their checksum), or if its lengths, untrusted,
 * end it exactly where the input ends.
 */
static bool last_section_whole(struct srecreader *r,
			       const struct srec_frame *frame, uint64_t start)
{
	const unsigned char *data;
	uint64_t end = r->in.offset + srecinput_peek(&r->in, sizeof(*frame),
						     &data);
	uint64_t len = sizeof(*frame) + (uint64_t)frame->head_len +
		       frame->data_len;

	len += (SREC_ALIGN - len % SREC_ALIGN) % SREC_ALIGN;
	return frame->type == SREC_SEC_TRAILER || start + len == end;
}

/*
 * The frame at r->frame_offset is damaged (@head_cut: or its head runs
 * past the end of the input, which only a sound frame further on tells
 * from a cut file).  Skip to the next sound frame, if there is one.
 */
static void resync(struct srecreader *r, const char *why, bool head_cut)
{
	struct srec_frame damaged = r->frame;
	uint64_t start = r->frame_offset;
	enum section_status status;

	if (!head_cut && r->opt.strict) {
		report_corrupt(r, start, -1, "damaged frame (%s)", why);
		return;
	}
	status = scan_for_frame(r);
	if (status == SECTION_READ_ERROR) {
		read_failed(r);
		return;
	}
	if (status != SECTION_OK && !head_cut &&
	    last_section_whole(r, &damaged, start)) {
		r->frame_offset = start;
		r->trailer_damaged = damaged.type == SREC_SEC_TRAILER;
		report_corrupt(r, start, -1, "damaged %s (%s)",
			       r->trailer_damaged ? "trailer frame" :
			       "frame of the file's last section", why);
		r->status.eof = true;
		r->done = true;
		return;
	}
	if (status != SECTION_OK) {
		r->frame_offset = start;
		if (!head_cut)
			report_corrupt(r, start, -1, "damaged frame (%s)", why);
		if (!r->error)
			report_truncated(r);
		return;
	}
	r->status.resyncs++;
	report_corrupt(r, start, -1, "damaged frame (%s)", why);
	if (r->error)
		return;
	reader_warn(r, start,
		    "skipped %llu bytes after the damaged frame at offset %llu, to the section at offset %llu",
		    (unsigned long long)(r->frame_offset - start),
		    (unsigned long long)start,
		    (unsigned long long)r->frame_offset);
}

bool reader_chunk_head_sane(const struct srecreader *r,
			    const struct srec_frame *frame,
			    const struct srec_chunk_head *h,
			    char *why, size_t why_size)
{
	if (frame->head_len < sizeof(*h))
		snprintf(why, why_size, "chunk head of %u bytes",
			 frame->head_len);
	else if (h->cpu >= r->nr_cpus)
		snprintf(why, why_size, "chunk of cpu %u, the file has %u",
			 h->cpu, r->nr_cpus);
	else if (!h->raw_len || h->raw_len % SCHEDREC_RECORD_ALIGN ||
		 h->raw_len > r->info.file.chunk_max)
		snprintf(why, why_size, "chunk payload of %u bytes",
			 h->raw_len);
	else if (!h->count || h->count > h->raw_len /
		 sizeof(struct schedrec_header))
		snprintf(why, why_size, "%u records in %u bytes", h->count,
			 h->raw_len);
	else if (h->flags & ~SREC_CHUNK_ZLIB)
		snprintf(why, why_size, "unknown chunk flags %#x", h->flags);
	else if ((h->flags & SREC_CHUNK_ZLIB) ? !frame->data_len :
		 frame->data_len != h->raw_len)
		snprintf(why, why_size, "%u bytes of data for a payload of %u",
			 frame->data_len, h->raw_len);
	else if (h->last_seq < h->first_seq ||
		 h->last_seq - h->first_seq < h->count - 1)
		snprintf(why, why_size, "%u records numbered %llu..%llu",
			 h->count, (unsigned long long)h->first_seq,
			 (unsigned long long)h->last_seq);
	else
		return true;
	return false;
}

static bool inflate_payload(struct srecreader *r, const void *data,
			    struct reader_chunk *chunk, char *why,
			    size_t why_size)
{
	z_stream *zs = &r->zstream;
	int ret;

	if (inflateReset(zs) != Z_OK) {
		snprintf(why, why_size, "zlib cannot start");
		return false;
	}
	zs->next_in = (Bytef *)data;
	zs->avail_in = r->frame.data_len;
	zs->next_out = chunk->payload;
	zs->avail_out = chunk->head.raw_len;
	ret = inflate(zs, Z_FINISH);
	if (ret == Z_STREAM_END && !zs->avail_in && !zs->avail_out)
		return true;
	snprintf(why, why_size,
		 "zlib data that is not %u bytes of payload (%s)",
		 chunk->head.raw_len, zs->msg ? zs->msg : "wrong length");
	return false;
}

/* Queue a checked chunk; the CPU joins the merge if it was idle. */
static void queue_chunk(struct srecreader *r, struct reader_chunk *chunk)
{
	unsigned int cpu = chunk->head.cpu;
	struct reader_cpu *c = &r->cpus[cpu];

	c->accepted = true;
	c->accepted_next = chunk->head.last_seq + 1;
	if (chunk->head.last_ts > c->accepted_ts)
		c->accepted_ts = chunk->head.last_ts;
	c->stats.chunks++;
	r->status.chunks++;
	r->buffered += chunk->head.raw_len;
	if (r->buffered > r->status.buffered_peak)
		r->status.buffered_peak = r->buffered;
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

/*
 * Whether the chunk just read is sound; if not, @why says what is wrong.
 */
static bool chunk_sound(struct srecreader *r, enum section_status status,
			const void *stored, struct reader_chunk *chunk,
			char *why, size_t why_size)
{
	const struct srec_chunk_head *h = &chunk->head;
	const struct reader_cpu *c = &r->cpus[h->cpu];
	int ret;

	if (status == SECTION_DAMAGED) {
		snprintf(why, why_size, "padding is not zeros");
		return false;
	}
	if (!reader_data_crc_ok(r, stored)) {
		snprintf(why, why_size, "payload checksum mismatch");
		return false;
	}
	if ((h->flags & SREC_CHUNK_ZLIB) &&
	    !inflate_payload(r, stored, chunk, why, why_size))
		return false;
	ret = srecchunk_check(h, chunk->data, &r->types, why, why_size);
	if (ret < 0)
		return false;
	chunk->plain = ret == SRECCHUNK_PLAIN;
	if (c->accepted && h->first_seq < c->accepted_next) {
		snprintf(why, why_size,
			 "sequence numbers go back to %llu after %llu",
			 (unsigned long long)h->first_seq,
			 (unsigned long long)c->accepted_next - 1);
		return false;
	}
	return true;
}

/*
 * A chunk with room for @raw_len bytes (0: its records are borrowed): a
 * spare one, or new; NULL: ENOMEM.
 */
static struct reader_chunk *chunk_get(struct srecreader *r, uint32_t raw_len)
{
	struct reader_chunk **link, *chunk;
	size_t capacity;

	if (!raw_len)
		return calloc(1, sizeof(*chunk));
	for (link = &r->spare; *link; link = &(*link)->next) {
		chunk = *link;
		if (chunk->capacity < raw_len)
			continue;
		*link = chunk->next;
		r->spare_bytes -= chunk->capacity;
		chunk->next = NULL;
		return chunk;
	}
	capacity = ((size_t)raw_len + CHUNK_STEP - 1) / CHUNK_STEP * CHUNK_STEP;
	chunk = malloc(sizeof(*chunk) + capacity);
	if (!chunk)
		return NULL;
	chunk->next = NULL;
	chunk->capacity = capacity;
	return chunk;
}

/* @chunk is done with: kept for a next one, or freed. */
static void chunk_put(struct srecreader *r, struct reader_chunk *chunk)
{
	if (!chunk)
		return;
	if (!chunk->capacity ||
	    r->spare_bytes + chunk->capacity > r->status.buffered_peak) {
		free(chunk);
		return;
	}
	chunk->next = r->spare;
	r->spare = chunk;
	r->spare_bytes += chunk->capacity;
}

static void load_chunk(struct srecreader *r)
{
	uint64_t offset = r->frame_offset;
	struct reader_chunk *chunk;
	struct srec_chunk_head h;
	enum section_status status;
	const void *borrowed;
	char why[256];
	void *stored;

	reader_copy_head(r, &h, sizeof(h));
	if (!reader_chunk_head_sane(r, &r->frame, &h, why, sizeof(why))) {
		skip_corrupt(r, h.cpu < r->nr_cpus ? (int)h.cpu : -1, why);
		return;
	}
	borrowed = h.flags & SREC_CHUNK_ZLIB ? NULL :
		   reader_borrow_data(r, &status);
	chunk = chunk_get(r, borrowed ? 0 : h.raw_len);
	if (!chunk) {
		reader_fail(r, -ENOMEM, offset, "no memory for a chunk");
		return;
	}
	chunk->offset = offset;
	chunk->head = h;
	chunk->data = borrowed ? borrowed : chunk->payload;
	stored = (void *)chunk->data;
	if (h.flags & SREC_CHUNK_ZLIB)
		stored = reader_scratch(r, r->frame.data_len);
	if (!stored) {
		chunk_put(r, chunk);
		reader_fail(r, -ENOMEM, offset, "no memory for a chunk");
		return;
	}
	if (!borrowed)
		status = reader_read_data(r, stored);
	if (!data_status_ok(r, status)) {
		chunk_put(r, chunk);
		return;
	}
	if (chunk_sound(r, status, stored, chunk, why, sizeof(why))) {
		queue_chunk(r, chunk);
		return;
	}
	chunk_put(r, chunk);
	report_corrupt(r, offset, h.cpu, "cpu %u: %s", h.cpu, why);
}

static void read_sync(struct srecreader *r)
{
	uint64_t corrupt_before = r->status.corrupt;
	struct srec_sync_head h;

	reader_copy_head(r, &h, sizeof(h));
	if (r->frame.head_len < sizeof(h)) {
		skip_corrupt(r, -1, "SYNC head too short");
		return;
	}
	skip_data(r);
	if (r->done || r->error || r->status.corrupt != corrupt_before)
		return;
	if (h.horizon_ns > r->horizon)
		r->horizon = h.horizon_ns;
}

/* Nothing should follow the trailer: say so if something does. */
static void check_after_trailer(struct srecreader *r)
{
	const unsigned char *data;

	if (srecinput_peek(&r->in, 1, &data)) {
		reader_warn(r, r->in.offset,
			    "data after the trailer, at offset %llu, ignored",
			    (unsigned long long)r->in.offset);
		r->status.trailing = true;
	}
	r->status.eof = true;
}

static void read_trailer(struct srecreader *r)
{
	uint64_t offset = r->frame_offset;
	struct srec_trailer_head h;
	const unsigned char *data;
	enum section_status status;
	uint32_t i;

	reader_copy_head(r, &h, sizeof(h));
	if (r->frame.head_len < sizeof(h) || h.count > SREC_CPUS_MAX ||
	    h.entry_size < sizeof(struct srec_cpu_total) ||
	    h.entry_size > SREC_HEAD_MAX ||
	    (uint64_t)h.count * h.entry_size != r->frame.data_len) {
		r->trailer_damaged = true;
		skip_corrupt(r, -1, "trailer of impossible size");
		return;
	}
	data = reader_scratch(r, r->frame.data_len);
	if (!data) {
		reader_fail(r, -ENOMEM, offset, "no memory for the trailer");
		return;
	}
	status = reader_read_data(r, (void *)data);
	if (!data_status_ok(r, status))
		return;
	if (status != SECTION_OK || !reader_data_crc_ok(r, data)) {
		r->trailer_damaged = true;
		report_corrupt(r, offset, -1, "%s", status != SECTION_OK ?
			       "padding is not zeros" :
			       "trailer checksum mismatch");
		return;
	}
	for (i = 0; i < h.count; i++) {
		struct srec_cpu_total total;

		memcpy(&total, data + (size_t)i * h.entry_size, sizeof(total));
		if (total.cpu >= r->nr_cpus) {
			r->trailer_damaged = true;
			report_corrupt(r, offset, -1,
				       "trailer entry for cpu %u", total.cpu);
			return;
		}
		r->totals[total.cpu] = total;
	}
	r->trailer = h;
	r->has_trailer = true;
	r->status.trailer = true;
	r->done = true;
	check_after_trailer(r);
}

/* Whether a whole frame is left in the input (its head may not be). */
static bool frame_is_whole(struct srecreader *r)
{
	const unsigned char *data;

	return srecinput_peek(&r->in, sizeof(struct srec_frame), &data) ==
	       sizeof(struct srec_frame);
}

static void read_section(struct srecreader *r)
{
	enum section_status status;
	char why[128];

	status = reader_read_frame(r, why, sizeof(why));
	if (status == SECTION_DAMAGED || (status == SECTION_TRUNCATED &&
					  frame_is_whole(r))) {
		resync(r, status == SECTION_DAMAGED ? why :
		       "its head runs past the end of the input",
		       status == SECTION_TRUNCATED);
		if (r->error || r->done)
			return;
		status = SECTION_OK;
	}
	switch (status) {
	case SECTION_OK:
		break;
	case SECTION_END:
		r->status.eof = true;
		r->done = true;
		return;
	case SECTION_TRUNCATED:
		report_truncated(r);
		return;
	default:
		read_failed(r);
		return;
	}
	switch (r->frame.type) {
	case SREC_SEC_CHUNK:
		load_chunk(r);
		break;
	case SREC_SEC_SYNC:
		read_sync(r);
		break;
	case SREC_SEC_TRAILER:
		read_trailer(r);
		break;
	case SREC_SEC_FILE:
	case SREC_SEC_EVENTS:
	case SREC_SEC_THREADS:
	case SREC_SEC_KSYMS:
	case SREC_SEC_HEADER_END:
		skip_corrupt(r, -1, "a header section after the header");
		break;
	default:
		r->status.unknown++;
		skip_data(r);
		break;
	}
	r->status.offset = r->in.offset;
	if (r->opt.progress)
		r->opt.progress(r->opt.progress_arg, r->status.file,
				r->status.offset);
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

	r->retired = chunk;
	r->buffered -= chunk->head.raw_len;
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
	return r->done && r->next_file >= r->nr_next;
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

	if (likely(!r->skip[hdr->type]) || hdr->ts < low)
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
		if (!r->skip[hdr->type])
			break;
	}
	return pos;
}

/*
 * The latest time a record after a skipped one may have, kept in
 * r->skip_until: only reading sections and srecreader_skip() change it.
 */
static void skip_limit(struct srecreader *r)
{
	uint64_t horizon = input_over(r) ? UINT64_MAX : r->horizon;

	r->skip_until = horizon < r->skip_before ? horizon : r->skip_before;
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
			r->newest_ts, r->skip_until, &last);
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
 * out.  How many went into @out (struct srec_ref if @refs, else struct
 * srec_record).  Refs are of records in place in the mapped file only:
 * 0 if a CPU's chunk is not, and the lowest offset of the CPUs' chunks in
 * *@keep.
 */
static inline __attribute__((always_inline)) unsigned int
merge_batch(struct srecreader *r, void *out, bool refs, unsigned int max,
	    bool any_time, uint64_t *keep)
{
	uint64_t bound = any_time ? UINT64_MAX : r->horizon, ts, seq, last;
	const struct schedrec_header *hdr;
	const int *plain = r->types.plain;
	struct srec_record *recs = out;
	struct srec_ref *ref = out;
	const struct reader_chunk *chunk;
	unsigned int i, k = 0, cpu;
	struct reader_cpu *c;
	uint32_t at;

	for (i = 0; refs && i < r->merge.lanes; i++) {
		chunk = r->cpus[r->merge.cpu[i]].first;
		if (!chunk_borrowed(chunk))
			return 0;
		if (chunk->offset < *keep)
			*keep = chunk->offset;
	}
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
		if (refs) {
			ref[k].hdr = hdr;
			ref[k].gap = 0;
			ref[k].cpu = cpu;
			ref[k].spare = 0;
		} else {
			recs[k].hdr = hdr;
			recs[k].cpu = cpu;
			recs[k].lasting = chunk_borrowed(chunk);
			recs[k].seq = seq;
			recs[k].gap = 0;
			recs[k].chunk_offset = chunk->offset;
		}
		k++;
		r->newest_ts = ts;
		seq++;
		last = ts;
		at = skip_chain(r, chunk->data, at, chunk->head.raw_len, &seq,
				ts, r->skip_until, &last);
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
	if ((!r->finished && !r->error && !input_over(r)) || r->has_trailer ||
	    r->trailer_damaged || cpu >= r->nr_cpus)
		return UINT64_MAX;
	last = r->cpus[cpu].accepted_ts;
	if (last < r->horizon)
		last = r->horizon;
	/* none, and no SYNC: whole up to the start, where nothing is missing */
	return last > r->info.file.start_mono_ns ? last :
						  r->info.file.start_mono_ns;
}

/* The end of the records: what the trailer says against what was read. */
static void finish(struct srecreader *r)
{
	unsigned int cpu;

	r->finished = true;
	r->status.over = true;
	r->status.offset = r->in.offset;
	if (!r->has_trailer && r->trailer_damaged) {
		reader_warn(r, r->in.offset,
			    "the trailer is damaged: the records were read, but the recording's totals are not known to check them against");
		return;
	}
	if (!r->has_trailer) {
		reader_warn(r, r->in.offset,
			    "no trailer: the recording did not end cleanly%s",
			    r->status.truncated ? " (the file is truncated)" :
			    "");
		return;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct srec_cpu_total t = r->totals[cpu];
		const struct srecreader_cpu *s = &r->cpus[cpu].stats;

		/* of a series: the trailers of every file */
		if (r->series_totals) {
			t.records += r->series_totals[cpu].records;
			t.lost += r->series_totals[cpu].lost;
			t.gaps += r->series_totals[cpu].gaps;
		}
		if (t.records == s->records && t.lost == s->lost &&
		    t.gaps == s->gaps)
			continue;
		r->status.disagrees = true;
		reader_warn(r, r->in.offset,
			    "cpu %u: the trailer counts %llu records, %llu lost and %llu in sequence gaps; the file holds %llu, %llu and %llu",
			    cpu, (unsigned long long)t.records,
			    (unsigned long long)t.lost,
			    (unsigned long long)t.gaps,
			    (unsigned long long)s->records,
			    (unsigned long long)s->lost,
			    (unsigned long long)s->gaps);
	}
}

/* Whether any record held may go, however recent: see may_deliver(). */
static bool may_deliver_any(const struct srecreader *r)
{
	return input_over(r) || r->buffered > r->max_buffered;
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
				finish(r);
			return 0;
		}
		read_section(r);
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

	chunk_put(r, r->retired);
	r->retired = NULL;
	if (!r->in.map)
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->cpus[cpu].first && r->cpus[cpu].first->offset < low)
			low = r->cpus[cpu].first->offset;
	if (r->keep_from < low)
		low = r->keep_from;
	srecinput_release(&r->in, low);
}

int srecreader_next(struct srecreader *r, struct srec_record *rec)
{
	return srecreader_next_batch(r, rec, 1);
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

	while (n < max && !r->retired &&
	       (any_time || top_ts(r) < r->horizon)) {
		n += merge_batch(r, recs + n, false, max - n, any_time, NULL);
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

	if (r->retired)
		retire(r);
	if (unlikely(srecinput_shrunk(&r->in)))
		input_changed(r, r->in.offset);
	if (r->error || !r->merge.lanes)
		return next_slow(r, recs);
	n = batch_fill(r, recs, max);
	return n ? (int)n : next_slow(r, recs);
}

unsigned int srecreader_next_more(struct srecreader *r,
				  struct srec_record *recs, unsigned int max)
{
	return batch_fill(r, recs, max);
}

unsigned int srecreader_next_refs(struct srecreader *r, struct srec_ref *refs,
				  unsigned int max, uint64_t *chunk_offset)
{
	bool any_time;

	/* as srecreader_next_batch() starts */
	if (r->retired)
		retire(r);
	if (unlikely(srecinput_shrunk(&r->in)) || r->error || !r->merge.lanes)
		return 0;
	any_time = may_deliver_any(r);
	if (!any_time && top_ts(r) >= r->horizon)
		return 0;
	*chunk_offset = UINT64_MAX;
	return merge_batch(r, refs, true, max, any_time, chunk_offset);
}

int srecreader_for_each(struct srecreader *r,
			int (*fn)(const struct srec_record *rec, void *arg),
			void *arg)
{
	struct srec_record rec;
	int ret;

	while ((ret = srecreader_next(r, &rec)) > 0) {
		ret = fn(&rec, arg);
		if (ret)
			return ret;
	}
	return ret;
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
		*totals = r->has_trailer ? r->totals : NULL;
	return r->has_trailer ? &r->trailer : NULL;
}

void srecreader_keep(struct srecreader *r, uint64_t offset)
{
	r->keep_from = offset;
}

void srecreader_skip(struct srecreader *r, uint64_t types, uint64_t before_ns)
{
	unsigned int type;

	for (type = 0; type < 256; type++)
		r->skip[type] = type < 64 && (types >> type & 1) &&
				type != SCHEDREC_REC_LOST &&
				type != SCHEDREC_REC_PAD &&
				r->types.fixed[type] > 0 ?
				r->types.fixed[type] : 0;
	r->skip_before = before_ns;
	skip_limit(r);
}
