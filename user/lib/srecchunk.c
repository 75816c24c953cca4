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
	types->plain32 = 0;
}

void srecchunk_types_set(struct srec_type_sizes *types, uint8_t type,
			 int size)
{
	types->size[type] = size;
	types->fixed[type] = size && type != SCHEDREC_REC_PAD &&
			     type != SCHEDREC_EV_STACK ? size : -1;
	types->plain[type] = type != SCHEDREC_REC_LOST ? types->fixed[type] :
			     -1;
	if (type < 64 && types->plain[type] == 32)
		types->plain32 |= 1ull << type;
	else if (type < 64)
		types->plain32 &= ~(1ull << type);
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

#ifdef SREC_CPU_FEATURES
#include <immintrin.h>
#include <sys/platform/x86.h>

/* check_plain32() can run here (SREC_CPU_FEATURES) */
static bool avx2;

static __attribute__((constructor)) void check_init(void)
{
	avx2 = CPU_FEATURE_ACTIVE(AVX2);
}

/*
 * check_plain() of the records from payload byte @pos on while they come
 * four of 32 bytes at a time, each of a type whose plain records are 32
 * bytes (@plain32), a vector each, the first numbered @next after one at
 * @prev_ts: where it stopped.
 */
static __attribute__((target("avx2"))) uint32_t
check_plain32(const unsigned char *payload, uint32_t pos, uint32_t end,
	      uint64_t plain32, uint64_t last_ts, uint64_t prev_ts,
	      uint64_t next)
{
	const __m256i bias = _mm256_set1_epi64x(INT64_MIN);
	const __m256i low48 = _mm256_set1_epi64x(0xffffffffffffll);
	const __m256i one = _mm256_set1_epi64x(1);
	const __m256i types = _mm256_set1_epi64x(plain32);
	/* the numbers (low 32 bits) and size 32 the four must have */
	__m256i want = _mm256_add_epi32(_mm256_set1_epi64x(32ll << 32 |
							   (uint32_t)next),
					_mm256_set_epi64x(3, 2, 1, 0));
	__m256i prev = _mm256_set1_epi64x(prev_ts), a, b, ts, meta, bad;

	while (end - pos >= 128) {
		const __m256i *in = (const void *)(payload + pos);

		/* the heads (16 bytes) of records 0 and 2, and of 1 and 3 */
		a = _mm256_permute2x128_si256(_mm256_loadu_si256(in),
					      _mm256_loadu_si256(in + 2), 0x20);
		b = _mm256_permute2x128_si256(_mm256_loadu_si256(in + 1),
					      _mm256_loadu_si256(in + 3), 0x20);
		ts = _mm256_unpacklo_epi64(a, b);
		meta = _mm256_unpackhi_epi64(a, b);
		/* older than the record before it (unsigned) */
		bad = _mm256_cmpgt_epi64(
			_mm256_xor_si256(_mm256_blend_epi32(
				_mm256_permute4x64_epi64(ts, 0x90), prev, 0x03),
				bias),
			_mm256_xor_si256(ts, bias));
		/* not numbered next, or not 32 bytes */
		bad = _mm256_or_si256(bad, _mm256_andnot_si256(
			_mm256_cmpeq_epi64(_mm256_and_si256(meta, low48), want),
			_mm256_set1_epi64x(-1)));
		/* not of a type whose plain records are 32 bytes */
		bad = _mm256_or_si256(bad, _mm256_andnot_si256(
			_mm256_srlv_epi64(types, _mm256_srli_epi64(
				_mm256_slli_epi64(meta, 8), 56)), one));
		if (!_mm256_testz_si256(bad, bad) ||
		    (uint64_t)_mm256_extract_epi64(ts, 3) > last_ts)
			break;
		prev = _mm256_permute4x64_epi64(ts, 0xff);
		want = _mm256_add_epi32(want, _mm256_set1_epi64x(4));
		pos += 128;
	}
	return pos;
}
#endif

/*
 * The plain records from payload byte @pos on (srecchunk_check()): whole,
 * of their type's fixed size, not LOST, within [the last's time,
 * @last_ts], each numbered one past the one before (*@seq, then the
 * last's; *@last, the last, non-NULL).  It stops at the first that is
 * not, for srecchunk_check() to look at, and says where; in a loop of its
 * own, with what it needs in registers, and four records at a time where
 * they are of 32 bytes and the CPU has AVX2 (check_plain32()).
 */
static uint32_t check_plain(const unsigned char *payload, uint32_t pos,
			    uint32_t end, const struct srec_type_sizes *types,
			    uint64_t last_ts, uint64_t *seq,
			    const struct schedrec_header **last)
{
	const struct schedrec_header *rec, *prev = *last;
	const int *plain = types->plain;
	uint64_t next = *seq + 1;
	uint32_t to, one_by_one;

	/* in locals: the stores through @seq and @last could alias rec's */
	while (end - pos >= sizeof(*rec)) {
#ifdef SREC_CPU_FEATURES
		if (avx2) {
			to = check_plain32(payload, pos, end, types->plain32,
					   last_ts, prev->ts, next);
			if (to != pos) {
				next += (to - pos) / 32;
				prev = (const void *)(payload + to - 32);
				pos = to;
			}
		}
#endif
		/* where four at a time stopped, one at a time for a while */
		for (one_by_one = 0; one_by_one < 4; one_by_one++) {
			if (end - pos < sizeof(*rec))
				goto out;
			rec = (const void *)(payload + pos);
			if (rec->size != plain[rec->type] ||
			    rec->size > end - pos ||
			    rec->ts - prev->ts > last_ts - prev->ts ||
			    rec->seq != (uint32_t)next)
				goto out;
			next++;
			prev = rec;
			pos += rec->size;
		}
	}
out:
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
			pos = check_plain(payload, pos, head->raw_len, types,
					  last_ts, &seq, &last);
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
