// SPDX-License-Identifier: GPL-2.0
/* Checks of a decoded .srec chunk; see srecchunk.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ringreader.h"
#include "srecchunk.h"
#include "util.h"

/* Copy @src (NULL: nothing) into the zeroed @dst, NUL-terminated. */
static void copy_name(char *dst, size_t size, const char *src)
{
	size_t len;

	if (!src)
		return;
	len = strlen(src);
	memcpy(dst, src, len < size ? len : size - 1);
}

unsigned int srecchunk_abi_events(struct srec_event *table, uint32_t mask)
{
	static const char * const names[] = SCHEDREC_EVENT_NAMES;
	static const char * const tracepoints[] = SCHEDREC_EVENT_TRACEPOINTS;
	static const unsigned int sizes[] = SCHEDREC_RECORD_SIZES;
	unsigned int id, count = 0;

	for (id = 1; id <= SCHEDREC_REC_MAX; id++) {
		struct srec_event *ev = &table[count++];

		memset(ev, 0, sizeof(*ev));
		ev->id = id;
		ev->size = id < ARRAY_SIZE(sizes) ? sizes[id] : 0;
		if (SCHEDREC_EV_IS_EVENT(id) && (mask & (1u << id)))
			ev->flags = SREC_EVENT_F_ENABLED;
		copy_name(ev->name, sizeof(ev->name), names[id]);
		if (id < ARRAY_SIZE(tracepoints))
			copy_name(ev->tracepoint, sizeof(ev->tracepoint),
				  tracepoints[id]);
	}
	return count;
}

void srecchunk_types_init(struct srec_type_sizes *types)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		types->size[i] = types->fixed[i] = types->plain[i] = -1;
}

void srecchunk_types_set(struct srec_type_sizes *types, uint8_t type,
			 int size)
{
	types->size[type] = size;
	types->fixed[type] = size && type != SCHEDREC_REC_PAD &&
			     type != SCHEDREC_EV_STACK ? size : -1;
	types->plain[type] = type != SCHEDREC_REC_LOST ? types->fixed[type] :
			     -1;
}

/* Whether the record at @pos is whole and of a type the file declares. */
static int check_record(const struct srec_chunk_head *head,
			const unsigned char *payload, uint32_t pos,
			const struct srec_type_sizes *types,
			char *why, size_t why_size)
{
	const struct schedrec_header *rec = (const void *)(payload + pos);
	uint32_t left = head->raw_len - pos;
	int expected;

	if (left < sizeof(*rec)) {
		snprintf(why, why_size, "%u bytes at payload byte %u",
			 left, pos);
		return -EBADMSG;
	}
	if (rec->size < sizeof(*rec) || rec->size % SCHEDREC_RECORD_ALIGN ||
	    rec->size > left) {
		snprintf(why, why_size,
			 "record at payload byte %u has size %u", pos,
			 rec->size);
		return -EBADMSG;
	}
	expected = types->size[rec->type];
	if (expected < 0) {
		snprintf(why, why_size,
			 "record at payload byte %u has type %u, not in the event table",
			 pos, rec->type);
		return -EBADMSG;
	}
	if (expected && rec->size != expected) {
		snprintf(why, why_size,
			 "record at payload byte %u of type %u has size %u, not %d",
			 pos, rec->type, rec->size, expected);
		return -EBADMSG;
	}
	if (!ringreader_stack_ok(rec)) {
		snprintf(why, why_size,
			 "STACK record at payload byte %u: %u bytes do not hold the %u addresses it says (at most %u)",
			 pos, rec->size, rec->size >= sizeof(struct schedrec_stack) ?
			 ((const struct schedrec_stack *)rec)->nr : 0,
			 SCHEDREC_STACK_MAX_DEPTH);
		return -EBADMSG;
	}
	return 0;
}

int srecchunk_check_record(const struct srec_chunk_head *head,
			   const unsigned char *payload, uint32_t pos,
			   const struct srec_type_sizes *types,
			   char *why, size_t why_size)
{
	return check_record(head, payload, pos, types, why, why_size);
}

/*
 * The plain records from payload byte @pos on (srecchunk_check()): whole,
 * of their type's fixed size, not LOST, within [the last's time,
 * @last_ts], each numbered one past the one before (*@seq, then the
 * last's; *@last, the last, non-NULL).  It stops at the first that is
 * not, for srecchunk_check() to look at, and says where; in a loop of its
 * own, with what it needs in registers.
 */
static uint32_t check_plain(const unsigned char *payload, uint32_t pos,
			    uint32_t end, const int *plain, uint64_t last_ts,
			    uint64_t *seq, const struct schedrec_header **last)
{
	const struct schedrec_header *rec, *prev = *last;
	uint64_t next = *seq + 1;

	/* in locals: the stores through @seq and @last could alias rec's */
	while (end - pos >= sizeof(*rec)) {
		rec = (const void *)(payload + pos);
		if (rec->size != plain[rec->type] || rec->size > end - pos ||
		    rec->ts - prev->ts > last_ts - prev->ts ||
		    rec->seq != (uint32_t)next)
			break;
		next++;
		prev = rec;
		pos += rec->size;
	}
	*seq = next - 1;
	*last = prev;
	return pos;
}

int srecchunk_check(const struct srec_chunk_head *head,
		    const unsigned char *payload,
		    const struct srec_type_sizes *types,
		    char *why, size_t why_size)
{
	const struct schedrec_header *first = NULL, *last = NULL;
	uint64_t first_ts = head->first_ts, last_ts = head->last_ts;
	uint64_t count = 0, lost = 0, seq = 0, before;
	uint32_t pos = 0, exceptions = 0;
	int ret;

	while (pos < head->raw_len) {
		const struct schedrec_header *rec;
		uint32_t left;

		/* after the first record, most are plain: check_plain() */
		if (first) {
			before = seq;
			pos = check_plain(payload, pos, head->raw_len,
					  types->plain, last_ts, &seq, &last);
			count += seq - before;
			if (pos >= head->raw_len)
				break;
			exceptions++;
		}
		rec = (const void *)(payload + pos);
		left = head->raw_len - pos;

		/*
		 * The common case first: a whole record of the fixed size
		 * the event table gives its type (a multiple of 16; 0 means
		 * any), not a STACK.
		 */
		if (left < sizeof(*rec) || rec->size > left ||
		    rec->size != types->fixed[rec->type]) {
			ret = check_record(head, payload, pos, types, why,
					   why_size);
			if (ret)
				return ret;
		}
		pos += rec->size;
		if (rec->type == SCHEDREC_REC_PAD)
			continue;
		/* a wild clock (or a bit flip) must not reach the reports */
		if (rec->ts < first_ts || rec->ts > last_ts) {
			snprintf(why, why_size,
				 "record at payload byte %u has timestamp %llu, outside the head's %llu..%llu",
				 pos - rec->size, (unsigned long long)rec->ts,
				 (unsigned long long)first_ts,
				 (unsigned long long)last_ts);
			return -EBADMSG;
		}
		if (rec->type == SCHEDREC_REC_LOST) {
			uint64_t n = ((const struct schedrec_lost *)rec)->count;

			if (lost + n < lost) {
				snprintf(why, why_size,
					 "LOST counts overflow at payload byte %u",
					 pos - rec->size);
				return -EBADMSG;
			}
			lost += n;
		}
		seq = first ? srecchunk_record_seq(seq + 1, rec, NULL) :
			      head->first_seq;
		if (!first)
			first = rec;
		last = rec;
		count++;
	}
	if (!count || count != head->count) {
		snprintf(why, why_size, "%llu records, the head says %u",
			 (unsigned long long)count, head->count);
		return -EBADMSG;
	}
	if ((uint32_t)head->first_seq != first->seq || seq != head->last_seq) {
		snprintf(why, why_size,
			 "sequence numbers %u..%llu, the head says %llu..%llu",
			 first->seq, (unsigned long long)seq,
			 (unsigned long long)head->first_seq,
			 (unsigned long long)head->last_seq);
		return -EBADMSG;
	}
	if (first->ts != head->first_ts || last->ts != head->last_ts) {
		snprintf(why, why_size,
			 "timestamps %llu..%llu, the head says %llu..%llu",
			 (unsigned long long)first->ts,
			 (unsigned long long)last->ts,
			 (unsigned long long)head->first_ts,
			 (unsigned long long)head->last_ts);
		return -EBADMSG;
	}
	if (lost != head->lost) {
		snprintf(why, why_size,
			 "LOST records count %llu, the head says %llu",
			 (unsigned long long)lost,
			 (unsigned long long)head->lost);
		return -EBADMSG;
	}
	return exceptions ? 0 : SRECCHUNK_PLAIN;
}
