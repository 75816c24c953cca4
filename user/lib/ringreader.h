/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringreader: the userspace side of the schedrec ring protocol described in
 * include/uapi/schedrec.h.
 *
 * A reader maps one CPU's ring (control page read-write, data read-only),
 * walks the records between its position and the kernel's head, checks
 * every header before using it, and gives the space back by storing the
 * new tail.  Each record is copied out of the shared mapping before it is
 * handed over, so a record can never change under its user, and a bad
 * header is reported as an error, never followed out of bounds.
 *
 *	struct ringreader rr;
 *	const struct schedrec_header *rec;
 *
 *	ringreader_open(&rr, cpu);
 *	ringreader_begin(&rr);
 *	while (ringreader_next(&rr, &rec) > 0)
 *		use(rec);
 *	ringreader_consume(&rr);
 *	ringreader_close(&rr);
 *
 * One reader per ring: the kernel refuses a second open of a CPU file.
 */
#ifndef SCHEDREC_RINGREADER_H
#define SCHEDREC_RINGREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/schedrec.h"

/*
 * Records longer than this (of types unknown to us) are skipped.  Every
 * type we know fits: a STACK record holds at most SCHEDREC_STACK_MAX_SIZE.
 */
#define RINGREADER_RECORD_MAX	512
_Static_assert(RINGREADER_RECORD_MAX >= SCHEDREC_STACK_MAX_SIZE,
	       "a STACK record fits the reader's copy");

/*
 * Whether @rec, of which rec->size bytes (at least a header) are readable,
 * is whole as its type requires beyond its size: false only for a STACK
 * record whose @nr is above SCHEDREC_STACK_MAX_DEPTH or does not give its
 * size.  Fixed sizes are checked against the type's, elsewhere.
 */
static inline bool ringreader_stack_ok(const struct schedrec_header *rec)
{
	const struct schedrec_stack *st = (const void *)rec;

	if (rec->type != SCHEDREC_EV_STACK)
		return true;
	return rec->size >= sizeof(*st) &&
	       st->nr <= SCHEDREC_STACK_MAX_DEPTH &&
	       rec->size == SCHEDREC_STACK_SIZE(st->nr);
}

struct ringreader {
	int fd;			/* -1 when attached to memory */
	bool mapped;		/* ctrl and data are our mappings */
	unsigned int cpu;
	size_t page_size;
	struct schedrec_ring_ctrl *ctrl;	/* shared: we write tail only */
	const unsigned char *data;		/* shared, read-only */
	uint64_t data_size;			/* a power of two */

	/* the batch being read: records in [pos, head) */
	uint64_t pos;
	uint64_t head;
	bool overwrite;		/* the ring was in overwrite mode at begin */

	/* counters since open */
	uint64_t records;	/* records handed out */
	uint64_t skipped;	/* unknown types too long to copy, skipped */
	uint64_t overtaken;	/* overwrite mode: bytes the kernel reclaimed
				 * while we read them
				 */

	/* the current record, copied out of the ring */
	union {
		struct schedrec_header hdr;
		unsigned char bytes[RINGREADER_RECORD_MAX];
	} rec;
};

/*
 * Open /proc/schedrec/cpu/@cpu (or any path to a CPU file) and map its
 * ring.  Returns 0 or a negative errno (EBUSY: the ring has a reader
 * already; EPROTO: a ring of another ABI version).
 */
int ringreader_open(struct ringreader *rr, unsigned int cpu);
int ringreader_open_path(struct ringreader *rr, const char *path);
void ringreader_close(struct ringreader *rr);

/*
 * Read a ring that is already in memory (a test's fake ring, a ring saved
 * to a file): @ctrl and @data stay the caller's; ringreader_close() only
 * forgets them.  Returns 0, or -EPROTO if @ctrl does not describe a ring.
 */
int ringreader_attach(struct ringreader *rr, struct schedrec_ring_ctrl *ctrl,
		      const void *data);

/*
 * Start a batch: load the kernel's head (acquire) and start from our tail,
 * or from the oldest record kept if the ring is in overwrite mode and that
 * is further.  Returns the bytes to read, or -EIO when the positions make
 * no sense (a tail past head or a ring's length behind it: the rings were
 * reset under us, or something other than this reader wrote the tail).
 */
int64_t ringreader_begin(struct ringreader *rr);

/*
 * The next record of the batch, PAD records skipped: returns 1 and points
 * *rec at a copy of it (valid until the next call), 0 at the end of the
 * batch, -EIO for a header that breaks the protocol (bad size or
 * alignment, a record crossing head or the end of the data, type 0, a
 * known type whose size is not its own, or a STACK record whose count does
 * not give its size: see ringreader_stack_ok()).  A record of an unknown type is
 * returned like any other: callers skip types they do not know.  After an
 * error the reader stays at the bad record.
 */
int ringreader_next(struct ringreader *rr,
		    const struct schedrec_header **rec);

/* Hand everything read so far back to the kernel (release store of tail). */
void ringreader_consume(struct ringreader *rr);

typedef int (*ringreader_fn)(const struct schedrec_header *rec, void *arg);

/*
 * begin, then next until the end of the batch, handing each record to @fn,
 * then consume.  @fn returns 0 to go on; anything else stops the batch and
 * leaves that record in the ring for the next one.  Returns the number of
 * records consumed, or a negative errno: begin's or next's, or @fn's
 * return value if it is negative.
 */
int64_t ringreader_drain(struct ringreader *rr, ringreader_fn fn, void *arg);

/* The size of a record of @type, 0 if the type has no fixed size. */
unsigned int ringreader_record_size(unsigned int type);

/*
 * Sequence numbers.  Records carry the low 32 bits of a per-ring 64-bit
 * sequence in which every accepted or dropped event and every LOST record
 * takes the next number.
 */
struct ringreader_seq {
	uint64_t next;		/* the 64-bit number expected next */
	bool started;
	uint64_t records;	/* records accounted */
	uint64_t lost;		/* events dropped, as LOST records said */
	uint64_t missing;	/* numbers skipped that no LOST record explains */
	uint64_t breaks;	/* how many times that happened */
};

/*
 * @first: the sequence number expected first (0 for a ring read from the
 * start of a recording); RINGREADER_SEQ_ANY when unknown (overwrite mode,
 * a reader that joined late): the first record then sets it.
 */
#define RINGREADER_SEQ_ANY	UINT64_MAX
void ringreader_seq_init(struct ringreader_seq *seq, uint64_t first);

/*
 * The 64-bit number whose low 32 bits are @seq32, at or after @expected and
 * less than 2^32 after it.
 */
static inline uint64_t ringreader_seq_extend(uint64_t expected,
					     uint32_t seq32)
{
	return expected + (uint32_t)(seq32 - (uint32_t)expected);
}

/*
 * Account for @rec (the next record of the ring, in order): store its
 * 64-bit sequence number in *@seq64 if not NULL and return how many numbers
 * are missing just before it that no LOST record explains (0 when the
 * stream is continuous).  A LOST record's count explains the numbers just
 * before its own.
 */
uint64_t ringreader_seq_account(struct ringreader_seq *seq,
				const struct schedrec_header *rec,
				uint64_t *seq64);

#endif /* SCHEDREC_RINGREADER_H */
