// SPDX-License-Identifier: GPL-2.0
/*
 * Chunks checked ahead of the reader by another thread: srecreader_help().
 * The helper walks the frames of the mapped file from where the reader
 * reads next, checks each chunk's checksum and records as load_chunk()
 * would, and leaves the answers in slots; the reader, reaching the chunk,
 * takes them instead of checking it again.  Only answers pass: the
 * helper reads the file and writes its own fields and the slots, the
 * reader takes an answer only for the frame it read itself, at the same
 * offset and of the same length.
 */
#include <string.h>

#include "sreccrc.h"
#include "srecreader_priv.h"

/* How far ahead of the reader the helper goes */
#define AHEAD_BYTES	(512u << 10)

/* Frames it steps over in one call, none of them a chunk to check */
#define AHEAD_STEPS	8

void reader_ahead_start(struct srecreader *r)
{
	struct reader_ahead *a = &r->ahead;

	a->map = srecinput_mapping(&r->in);
	a->scan = r->in.offset;
	a->stuck = UINT64_MAX;
	__atomic_store_n(&a->at, a->map ? r->in.offset : UINT64_MAX,
			 __ATOMIC_RELEASE);
}

void reader_ahead_stop(struct srecreader *r)
{
	__atomic_store_n(&r->ahead.at, UINT64_MAX, __ATOMIC_RELEASE);
}

void reader_ahead_moved(struct srecreader *r)
{
	if (r->ahead.at != UINT64_MAX)
		__atomic_store_n(&r->ahead.at, r->in.offset,
				 __ATOMIC_RELEASE);
}

/* The helper's answer for the chunk at @offset into the next slot. */
static void slot_put(struct reader_ahead *a, uint64_t offset,
		     uint32_t data_len, uint32_t crc, int check)
{
	struct ahead_slot *s = &a->slots[a->next++ % AHEAD_SLOTS];
	unsigned int seq = s->seq;

	__atomic_store_n(&s->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->offset, offset, __ATOMIC_RELAXED);
	__atomic_store_n(&s->data_len, data_len, __ATOMIC_RELAXED);
	__atomic_store_n(&s->crc, crc, __ATOMIC_RELAXED);
	__atomic_store_n(&s->check, check, __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
}

/* Whether the next slot holds an answer the reader (at @at) has to reach. */
static bool slot_waits(const struct reader_ahead *a, uint64_t at)
{
	const struct ahead_slot *s = &a->slots[a->next % AHEAD_SLOTS];

	return s->seq && s->offset >= at;
}

bool reader_ahead_take(struct srecreader *r, uint64_t offset,
		       uint32_t data_len, uint32_t *crc, int *check)
{
	struct ahead_slot *s;
	unsigned int i, seq;
	uint32_t len, c;
	int k;

	if (r->ahead.at == UINT64_MAX)
		return false;
	for (i = 0; i < AHEAD_SLOTS; i++) {
		s = &r->ahead.slots[i];
		seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		/* 0: never filled; odd: being filled */
		if (!seq || seq % 2 ||
		    __atomic_load_n(&s->offset, __ATOMIC_RELAXED) != offset)
			continue;
		len = __atomic_load_n(&s->data_len, __ATOMIC_RELAXED);
		c = __atomic_load_n(&s->crc, __ATOMIC_RELAXED);
		k = __atomic_load_n(&s->check, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq ||
		    len != data_len)
			continue;
		*crc = c;
		*check = k;
		r->status.checked_ahead++;
		return true;
	}
	return false;
}

/*
 * The frame at @offset of @map into @frame, and its head: NULL unless it
 * is whole in the mapping and sound.
 */
static const unsigned char *frame_at(const struct srecinput_map *map,
				     uint64_t offset, struct srec_frame *frame)
{
	const unsigned char *data = srecinput_map_at(map, offset,
						     sizeof(*frame));
	char why[64];

	if (!data)
		return NULL;
	memcpy(frame, data, sizeof(*frame));
	if (!reader_frame_lengths_ok(frame, why, sizeof(why)))
		return NULL;
	data = srecinput_map_at(map, offset, sizeof(*frame) + frame->head_len);
	if (!data || !reader_frame_crc_ok(frame, data))
		return NULL;
	return data + sizeof(*frame);
}

bool srecreader_help(struct srecreader *r)
{
	struct reader_ahead *a = &r->ahead;
	uint64_t at = __atomic_load_n(&a->at, __ATOMIC_ACQUIRE), offset;
	const unsigned char *head, *data;
	struct srec_chunk_head h;
	struct srec_frame frame;
	unsigned int step;
	char why[256];

	if (at == UINT64_MAX || at == a->stuck)
		return false;
	if (a->scan < at)
		a->scan = at;
	for (step = 0; step < AHEAD_STEPS; step++) {
		offset = a->scan;
		/* far enough, or a slot's answer the reader has yet to take */
		if (offset - at > AHEAD_BYTES || slot_waits(a, at))
			return false;
		head = frame_at(a->map, offset, &frame);
		if (!head) {
			/* the reader finds out what it is */
			a->stuck = at;
			return false;
		}
		a->scan = offset + sizeof(frame) + frame.head_len +
			  frame.data_len + reader_pad_len(frame.data_len);
		if (frame.type != SREC_SEC_CHUNK)
			continue;
		reader_head_copy(&h, sizeof(h), head, frame.head_len);
		data = srecinput_map_at(a->map, offset + sizeof(frame) +
					frame.head_len, frame.data_len);
		/* compressed: inflated by the reader, which checks it then */
		if (!data || (h.flags & SREC_CHUNK_ZLIB) ||
		    !reader_chunk_head_sane(r, &frame, &h, why, sizeof(why)))
			continue;
		slot_put(a, offset, frame.data_len,
			 srec_crc32(0, data, frame.data_len),
			 srecchunk_check(&h, data, &r->types, why,
					 sizeof(why)));
		return true;
	}
	return true;
}
