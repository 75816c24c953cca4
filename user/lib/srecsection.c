// SPDX-License-Identifier: GPL-2.0
/*
 * The sections of a .srec file as the reader reads them: frames (their
 * lengths, CRCs and padding), the chunks after the header (checked,
 * inflated, queued for the merge), SYNC, the trailer and the end of the
 * records, and resynchronisation after damage.  The header's sections
 * are srecreader.c's, the merge by time srecmerge.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sreccrc.h"
#include "srecreader_priv.h"

/*
 * Chunks are kept for reuse once their records are handed out, up to as
 * much as was ever held at once: a new chunk's memory costs a page fault
 * per page, as much as merging its records when the file is read once.
 * Their payloads are made in steps of this, so that one fits the next.
 */
#define CHUNK_STEP	(64u << 10)

/*
 * The mapped file changed under the reader (it was cut short, or written
 * over; a page that cannot be read also raises SIGBUS): what it holds
 * cannot be trusted any more, so nothing more goes.
 */
void reader_input_changed(struct srecreader *r, uint64_t offset)
{
	if (r->changed)
		return;
	r->changed = true;
	r->error = 0;
	reader_fail(r, -EIO, offset,
		    "the file changed while it was read (cut short or written over), or a page of it could not be read, near offset %llu: reading stopped there",
		    (unsigned long long)offset);
}

void reader_head_copy(void *dst, size_t size, const void *head,
		      uint32_t head_len)
{
	size_t len = head_len < size ? head_len : size;

	memset(dst, 0, size);
	memcpy(dst, head, len);
}

void reader_copy_head(const struct srecreader *r, void *dst, size_t size)
{
	reader_head_copy(dst, size, r->sect.head, r->sect.frame.head_len);
}

bool reader_frame_lengths_ok(const struct srec_frame *frame, char *why,
			     size_t why_size)
{
	if (frame->magic != SREC_MAGIC) {
		snprintf(why, why_size, "no section magic");
		return false;
	}
	if (frame->head_len % SREC_ALIGN || frame->head_len > SREC_HEAD_MAX ||
	    frame->data_len > SREC_DATA_MAX) {
		snprintf(why, why_size,
			 "impossible lengths: head %u, data %u bytes",
			 frame->head_len, frame->data_len);
		return false;
	}
	return true;
}

bool reader_frame_crc_ok(const struct srec_frame *frame,
			 const unsigned char *data)
{
	uint32_t crc = srec_crc32(0, data, SREC_FRAME_CRC_LEN);

	return srec_crc32(crc, data + sizeof(*frame), frame->head_len) ==
	       frame->head_crc;
}

/* Whether the frame at the input's offset is sound, without consuming. */
static enum section_status check_frame(struct srecreader *r,
				       struct srec_frame *frame,
				       char *why, size_t why_size)
{
	const unsigned char *data;
	size_t avail;

	avail = srecinput_peek(&r->in, sizeof(*frame), &data);
	if (!avail)
		return r->in.error ? SECTION_READ_ERROR : SECTION_END;
	if (avail < sizeof(*frame))
		return r->in.error ? SECTION_READ_ERROR : SECTION_TRUNCATED;
	memcpy(frame, data, sizeof(*frame));
	if (!reader_frame_lengths_ok(frame, why, why_size))
		return SECTION_DAMAGED;
	avail = srecinput_peek(&r->in, sizeof(*frame) + frame->head_len,
			       &data);
	if (avail < sizeof(*frame) + frame->head_len)
		return r->in.error ? SECTION_READ_ERROR : SECTION_TRUNCATED;
	if (!reader_frame_crc_ok(frame, data)) {
		snprintf(why, why_size, "frame checksum mismatch");
		return SECTION_DAMAGED;
	}
	return SECTION_OK;
}

enum section_status reader_read_frame(struct srecreader *r, char *why,
				      size_t why_size)
{
	enum section_status status;

	r->sect.offset = r->in.offset;
	status = check_frame(r, &r->sect.frame, why, why_size);
	if (status != SECTION_OK)
		return status;
	srecinput_read(&r->in, NULL, sizeof(r->sect.frame));
	srecinput_read(&r->in, r->sect.head, r->sect.frame.head_len);
	return SECTION_OK;
}

static const unsigned char zeros[SREC_ALIGN];

static size_t frame_pad_len(const struct srecreader *r)
{
	return reader_pad_len(r->sect.frame.data_len);
}

const void *reader_borrow_data(struct srecreader *r,
			       enum section_status *status)
{
	size_t pad_len = frame_pad_len(r);
	const unsigned char *data;

	data = srecinput_borrow(&r->in, r->sect.frame.data_len + pad_len);
	if (!data)
		return NULL;
	r->status.sections++;
	*status = memcmp(data + r->sect.frame.data_len, zeros, pad_len) ?
		  SECTION_DAMAGED : SECTION_OK;
	return data;
}

enum section_status reader_read_data(struct srecreader *r, void *dst)
{
	unsigned char pad[SREC_ALIGN];
	size_t pad_len = frame_pad_len(r);

	if (srecinput_read(&r->in, dst, r->sect.frame.data_len) <
	    r->sect.frame.data_len ||
	    srecinput_read(&r->in, pad, pad_len) < pad_len)
		return r->in.error ? SECTION_READ_ERROR : SECTION_TRUNCATED;
	r->status.sections++;
	if (memcmp(pad, zeros, pad_len))
		return SECTION_DAMAGED;
	return SECTION_OK;
}

bool reader_data_crc_ok(const struct srecreader *r, const void *data)
{
	return srec_crc32(0, data, r->sect.frame.data_len) ==
	       r->sect.frame.data_crc;
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
		reader_input_changed(r, offset);
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
		reader_input_changed(r, r->sect.offset);
		return;
	}
	r->status.truncated = true;
	r->status.eof = true;
	r->done = true;
	if (r->in.offset > r->sect.offset)
		reader_warn(r, r->sect.offset,
			    "the file is truncated: the section at offset %llu is incomplete at offset %llu; everything before it was read",
			    (unsigned long long)r->sect.offset,
			    (unsigned long long)r->in.offset);
	else
		reader_warn(r, r->sect.offset,
			    "the file is truncated: it ends inside the head of the section at offset %llu; everything before it was read",
			    (unsigned long long)r->sect.offset);
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
	uint64_t offset = r->sect.offset;
	enum section_status status = reader_read_data(r, NULL);

	if (data_status_ok(r, status) && status == SECTION_DAMAGED)
		report_corrupt(r, offset, -1, "padding is not zeros");
}

/* Skip a section whose frame is fine but whose content is not. */
static void skip_corrupt(struct srecreader *r, int cpu, const char *why)
{
	uint64_t offset = r->sect.offset;

	if (data_status_ok(r, reader_read_data(r, NULL)))
		report_corrupt(r, offset, cpu, "%s", why);
}

enum section_status reader_find_frame(struct srecreader *r,
				      struct srec_frame *frame)
{
	enum section_status status;
	char ignored[128];

	do {
		if (srecinput_read(&r->in, NULL, SREC_ALIGN) < SREC_ALIGN)
			return r->in.error ? SECTION_READ_ERROR : SECTION_END;
		status = check_frame(r, frame, ignored, sizeof(ignored));
	} while (status == SECTION_DAMAGED);
	return status;
}

/*
 * reader_find_frame(), and the frame found read; SECTION_OK when there is
 * one, else how the input ended.
 */
static enum section_status scan_for_frame(struct srecreader *r)
{
	enum section_status status;
	struct srec_frame frame;
	char ignored[128];

	status = reader_find_frame(r, &frame);
	if (status != SECTION_OK)
		return status;
	return reader_read_frame(r, ignored, sizeof(ignored));
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
 * The frame at r->sect.offset is damaged (@head_cut: or its head runs
 * past the end of the input, which only a sound frame further on tells
 * from a cut file).  Skip to the next sound frame, if there is one.
 */
static void resync(struct srecreader *r, const char *why, bool head_cut)
{
	struct srec_frame damaged = r->sect.frame;
	uint64_t start = r->sect.offset;
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
		r->sect.offset = start;
		r->trailer.damaged = damaged.type == SREC_SEC_TRAILER;
		report_corrupt(r, start, -1, "damaged %s (%s)",
			       r->trailer.damaged ? "trailer frame" :
			       "frame of the file's last section", why);
		r->status.eof = true;
		r->done = true;
		return;
	}
	if (status != SECTION_OK) {
		r->sect.offset = start;
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
		    (unsigned long long)(r->sect.offset - start),
		    (unsigned long long)start,
		    (unsigned long long)r->sect.offset);
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
	z_stream *zs = &r->sect.zstream;
	int ret;

	if (inflateReset(zs) != Z_OK) {
		snprintf(why, why_size, "zlib cannot start");
		return false;
	}
	zs->next_in = (Bytef *)data;
	zs->avail_in = r->sect.frame.data_len;
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
	for (link = &r->chunks.spare; *link; link = &(*link)->next) {
		chunk = *link;
		if (chunk->capacity < raw_len)
			continue;
		*link = chunk->next;
		r->chunks.spare_bytes -= chunk->capacity;
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
void reader_chunk_put(struct srecreader *r, struct reader_chunk *chunk)
{
	if (!chunk)
		return;
	if (!chunk->capacity ||
	    r->chunks.spare_bytes + chunk->capacity > r->status.buffered_peak) {
		free(chunk);
		return;
	}
	chunk->next = r->chunks.spare;
	r->chunks.spare = chunk;
	r->chunks.spare_bytes += chunk->capacity;
}

static void load_chunk(struct srecreader *r)
{
	uint64_t offset = r->sect.offset;
	struct reader_chunk *chunk;
	struct srec_chunk_head h;
	enum section_status status;
	const void *borrowed;
	char why[256];
	void *stored;

	reader_copy_head(r, &h, sizeof(h));
	if (!reader_chunk_head_sane(r, &r->sect.frame, &h, why, sizeof(why))) {
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
		stored = reader_scratch(r, r->sect.frame.data_len);
	if (!stored) {
		reader_chunk_put(r, chunk);
		reader_fail(r, -ENOMEM, offset, "no memory for a chunk");
		return;
	}
	if (!borrowed)
		status = reader_read_data(r, stored);
	if (!data_status_ok(r, status)) {
		reader_chunk_put(r, chunk);
		return;
	}
	if (chunk_sound(r, status, stored, chunk, why, sizeof(why))) {
		reader_queue_chunk(r, chunk);
		return;
	}
	reader_chunk_put(r, chunk);
	report_corrupt(r, offset, h.cpu, "cpu %u: %s", h.cpu, why);
}

static void read_sync(struct srecreader *r)
{
	uint64_t corrupt_before = r->status.corrupt;
	struct srec_sync_head h;

	reader_copy_head(r, &h, sizeof(h));
	if (r->sect.frame.head_len < sizeof(h)) {
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
	uint64_t offset = r->sect.offset;
	struct srec_trailer_head h;
	const unsigned char *data;
	enum section_status status;
	uint32_t i;

	reader_copy_head(r, &h, sizeof(h));
	if (r->sect.frame.head_len < sizeof(h) || h.count > SREC_CPUS_MAX ||
	    h.entry_size < sizeof(struct srec_cpu_total) ||
	    h.entry_size > SREC_HEAD_MAX ||
	    (uint64_t)h.count * h.entry_size != r->sect.frame.data_len) {
		r->trailer.damaged = true;
		skip_corrupt(r, -1, "trailer of impossible size");
		return;
	}
	data = reader_scratch(r, r->sect.frame.data_len);
	if (!data) {
		reader_fail(r, -ENOMEM, offset, "no memory for the trailer");
		return;
	}
	status = reader_read_data(r, (void *)data);
	if (!data_status_ok(r, status))
		return;
	if (status != SECTION_OK || !reader_data_crc_ok(r, data)) {
		r->trailer.damaged = true;
		report_corrupt(r, offset, -1, "%s", status != SECTION_OK ?
			       "padding is not zeros" :
			       "trailer checksum mismatch");
		return;
	}
	for (i = 0; i < h.count; i++) {
		struct srec_cpu_total total;

		memcpy(&total, data + (size_t)i * h.entry_size, sizeof(total));
		if (total.cpu >= r->nr_cpus) {
			r->trailer.damaged = true;
			report_corrupt(r, offset, -1,
				       "trailer entry for cpu %u", total.cpu);
			return;
		}
		r->trailer.totals[total.cpu] = total;
	}
	r->trailer.head = h;
	r->trailer.present = true;
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

void reader_read_section(struct srecreader *r)
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
	switch (r->sect.frame.type) {
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

/* The end of the records: what the trailer says against what was read. */
void reader_finish(struct srecreader *r)
{
	unsigned int cpu;

	r->finished = true;
	r->status.over = true;
	r->status.offset = r->in.offset;
	if (!r->trailer.present && r->trailer.damaged) {
		reader_warn(r, r->in.offset,
			    "the trailer is damaged: the records were read, but the recording's totals are not known to check them against");
		return;
	}
	if (!r->trailer.present) {
		reader_warn(r, r->in.offset,
			    "no trailer: the recording did not end cleanly%s",
			    r->status.truncated ? " (the file is truncated)" :
			    "");
		return;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct srec_cpu_total t = r->trailer.totals[cpu];
		const struct srecreader_cpu *s = &r->cpus[cpu].stats;

		/* of a series: the trailers of every file */
		if (r->series.totals) {
			t.records += r->series.totals[cpu].records;
			t.lost += r->series.totals[cpu].lost;
			t.gaps += r->series.totals[cpu].gaps;
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

