/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecchunk: what a .srec reader checks in a chunk once its payload is
 * decoded, and how it numbers the records: every record is whole and of a
 * type in the event table (a STACK record's count fits its size), and the
 * head's count, sequence numbers,
 * timestamps and LOST total are those of the records.
 */
#ifndef SCHEDREC_SRECCHUNK_H
#define SCHEDREC_SRECCHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "ringreader.h"
#include "srecfmt.h"

/*
 * Record sizes by type, from the event table: -1 not in it, 0 any size;
 * the size of every record of the type, -1 if it varies (PAD, STACK);
 * and that of a plain record (srecchunk_check()), -1 for LOST too.
 */
struct srec_type_sizes {
	int size[256];
	int fixed[256];
	int plain[256];
	uint64_t plain32;	/* bit t: plain[t] is 32 (t < 64) */
};

/*
 * The event table of include/uapi/schedrec.h (SCHEDREC_REC_MAX entries,
 * by id), enabled per the event @mask, into @table: what srecwriter
 * writes unless told otherwise, and what a reader may take for a damaged
 * one of a file of this SCHEDREC_ABI_VERSION.  Returns the count.
 */
unsigned int srecchunk_abi_events(struct srec_event *table, uint32_t mask);

/* No type declared. */
void srecchunk_types_init(struct srec_type_sizes *types);

/* Records of type @type are @size bytes, 0: any size. */
void srecchunk_types_set(struct srec_type_sizes *types, uint8_t type,
			 int size);

/*
 * The 64-bit sequence number of @rec, the record after the one numbered
 * @next - 1: a LOST record's count moves the expected number first.
 * *@expected (if not NULL) gets the number expected, so the gap before
 * @rec is the result minus it.
 */
static inline uint64_t srecchunk_record_seq(uint64_t next,
					    const struct schedrec_header *rec,
					    uint64_t *expected)
{
	const struct schedrec_lost *lost = (const void *)rec;

	if (rec->type == SCHEDREC_REC_LOST)
		next += lost->count;
	if (expected)
		*expected = next;
	return ringreader_seq_extend(next, rec->seq);
}

/*
 * Whether the record at payload byte @pos (< head->raw_len) is whole and
 * of a type the file declares, of its size: 0, or -EBADMSG and @why.
 */
int srecchunk_check_record(const struct srec_chunk_head *head,
			   const unsigned char *payload, uint32_t pos,
			   const struct srec_type_sizes *types,
			   char *why, size_t why_size);

/*
 * Check the decoded @payload (head->raw_len bytes, 8-aligned) against
 * @head and @types.  Returns 0, SRECCHUNK_PLAIN if every record after the
 * first is plain: of its type's fixed size, not LOST (so not a PAD or
 * STACK either), numbered one past the one before and no older than it;
 * or -EBADMSG with the reason in @why.
 */
#define SRECCHUNK_PLAIN	1

int srecchunk_check(const struct srec_chunk_head *head,
		    const unsigned char *payload,
		    const struct srec_type_sizes *types,
		    char *why, size_t why_size);

#endif /* SCHEDREC_SRECCHUNK_H */
