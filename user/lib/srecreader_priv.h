/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inside of a .srec reader, shared by srecreader.c (opening, the
 * header) and srecmerge.c (sections after the header, the merge by time).
 * Not part of the library's interface.
 */
#ifndef SCHEDREC_SRECREADER_PRIV_H
#define SCHEDREC_SRECREADER_PRIV_H

#include <zlib.h>

#include "srecchunk.h"
#include "srecinput.h"
#include "srecreader.h"
#include "util.h"

#define READER_INPUT_SIZE	(256u << 10)

/*
 * A chunk read and checked, waiting for its records to be handed out.
 * Its records are in the mapped file (borrowed, capacity 0), or in the
 * payload allocated with it, which malloc's alignment and the layout keep
 * as aligned as the records in it need; once handed out, a chunk with a
 * payload waits on the spare list for a next one that fits.
 */
struct reader_chunk {
	struct reader_chunk *next;
	uint64_t offset;
	const unsigned char *data;	/* the records: borrowed, or payload */
	size_t capacity;		/* payload bytes it has room for */
	bool plain;			/* records after the first are:
					 * srecchunk_check()
					 */
	struct srec_chunk_head head;
	unsigned char payload[] __attribute__((aligned(SCHEDREC_RECORD_ALIGN)));
};

SREC_CHECK(SREC_OFFSET(reader_chunk, payload) % SCHEDREC_RECORD_ALIGN == 0);

/* Whether @chunk's records are in the mapped file (until close). */
static inline bool chunk_borrowed(const struct reader_chunk *chunk)
{
	return chunk->data != chunk->payload;
}

struct reader_cpu {
	struct reader_chunk *first;	/* queue of chunks, oldest first */
	struct reader_chunk *last;
	uint32_t pos;			/* current record in first */
	bool chunk_start;		/* it is its chunk's first record */
	bool started;			/* a record was handed out */
	uint64_t next_seq;		/* the number expected next */
	bool accepted;			/* a chunk was read */
	uint64_t accepted_next;		/* after that chunk's last number */
	uint64_t accepted_ts;		/* that chunk's last record's time */
	struct srecreader_cpu stats;
};

/*
 * The CPUs with a record to hand out, in the order of their records'
 * times (srecmerge.c): a tree of losers over them, a CPU a lane.
 */
struct reader_merge {
	unsigned int *cpu;		/* each lane's, UINT_MAX: none */
	uint64_t *ts;			/* its record's time */
	unsigned int *loser;		/* of the match at each inner node */
	unsigned int *win;		/* of each node, while building */
	unsigned int lanes;		/* CPUs in the merge */
	unsigned int leaves;		/* lanes, to a power of two */
	unsigned int top;		/* the lane whose record goes next */
};

/* How reading a section went. */
enum section_status {
	SECTION_OK,
	SECTION_END,		/* clean end of input, before a frame */
	SECTION_TRUNCATED,	/* the input ends inside a section */
	SECTION_DAMAGED,	/* the frame cannot be trusted */
	SECTION_READ_ERROR,	/* read() failed */
};

/* The section being read, and what reading one takes. */
struct reader_section {
	struct srec_frame frame;
	uint64_t offset;		/* of its frame */
	unsigned char head[SREC_HEAD_MAX];
	uint64_t header_resync;		/* a damaged header frame, or
					 * UINT64_MAX
					 */
	z_stream zstream;
	bool zstream_ready;
	unsigned char *scratch;		/* compressed data */
	size_t scratch_size;
};

/* The chunks read and not yet handed out, and their memory. */
struct reader_chunks {
	size_t buffered;		/* payload bytes in the queues */
	size_t max_buffered;		/* past it, the oldest goes anyway */
	struct reader_chunk *retired;	/* handed out last, spare next */
	struct reader_chunk *spare;	/* chunks to use again */
	size_t spare_bytes;		/* their capacity */
};

/* Records the caller need not get (srecreader_skip()). */
struct reader_skip {
	uint16_t size[256];		/* of each type not to hand out,
					 * 0: hand it out
					 */
	uint64_t before;		/* only those before this */
	uint64_t until;			/* the next record's bound, kept */
};

/* The trailer: the recording's totals, to check what was read against. */
struct reader_trailer {
	bool present;
	bool damaged;			/* one was there, but corrupt */
	struct srec_trailer_head head;
	struct srec_cpu_total *totals;
};

/* A series of files (srecreader_add_file()). */
struct reader_series {
	char **paths;			/* queued, in order */
	unsigned int nr;
	unsigned int next;		/* the next of them to read */
	uint64_t start_ns;		/* of the file being read */
	struct srec_cpu_total *totals;	/* of the files before */
	struct srecinput_map **old_maps;	/* theirs, borrowed from */
	unsigned int nr_old_maps;
};

struct srecreader {
	struct srecinput in;
	int own_fd;			/* -1 if the fd is the caller's */
	struct srecreader_options opt;

	/* the header */
	struct srecreader_info info;
	char *strings;
	struct srec_event *events;
	struct srec_thread *threads;
	char *kallsyms;			/* the KSYMS text, inflated */
	struct srec_type_sizes types;
	int event_index[256];		/* into events, -1 if none */
	unsigned char *online;		/* bitmap, NULL: all online */

	/* the sections after it, and the merge of the CPUs' records */
	struct reader_section sect;
	struct reader_chunks chunks;
	unsigned int nr_cpus;
	struct reader_cpu *cpus;
	struct reader_merge merge;
	uint64_t horizon;		/* the latest SYNC's */
	uint64_t newest_ts;		/* of the records handed out */
	struct reader_skip skip;
	uint64_t keep_from;		/* srecreader_keep() */
	bool late_warned;
	bool done;			/* no more sections to read */
	bool finished;			/* the end was reported */
	bool changed;			/* the mapped file changed: stop */
	struct reader_trailer trailer;
	struct reader_series series;

	struct srecreader_status status;
	int error;
	char message[512];
};

__printf(3, 4) void reader_warn(struct srecreader *r, uint64_t offset,
				const char *fmt, ...);
__printf(4, 5) int reader_fail(struct srecreader *r, int err, uint64_t offset,
			       const char *fmt, ...);

/*
 * Whether @frame has the magic and lengths a frame can have; if not, @why
 * says what is wrong.
 */
bool reader_frame_lengths_ok(const struct srec_frame *frame, char *why,
			     size_t why_size);

/* Whether the frame @frame at @data, its head after it, matches its CRC. */
bool reader_frame_crc_ok(const struct srec_frame *frame,
			 const unsigned char *data);

/* The zeros after @data_len bytes of a section's data. */
static inline size_t reader_pad_len(uint32_t data_len)
{
	return (SREC_ALIGN - data_len % SREC_ALIGN) % SREC_ALIGN;
}

/* Read the next frame and head into r->frame and r->head. */
enum section_status reader_read_frame(struct srecreader *r, char *why,
				      size_t why_size);

/*
 * Read the current section's data into @dst (NULL: drop it) and its
 * padding; SECTION_DAMAGED if the padding is not zeros.
 */
enum section_status reader_read_data(struct srecreader *r, void *dst);

/*
 * The current section's data (and padding) in place in the mapped file,
 * consumed, or NULL, with nothing consumed, if it is not all mapped.
 * *@status is SECTION_DAMAGED if the padding is not zeros.
 */
const void *reader_borrow_data(struct srecreader *r,
			       enum section_status *status);

/* Whether the data just read into @data matches the frame's CRC. */
bool reader_data_crc_ok(const struct srecreader *r, const void *data);

/*
 * Copy the head (@head, @head_len bytes) into @dst of @size bytes,
 * zero-filling what it lacks; reader_copy_head() of the current one.
 */
void reader_head_copy(void *dst, size_t size, const void *head,
		      uint32_t head_len);
void reader_copy_head(const struct srecreader *r, void *dst, size_t size);

/* Scratch memory of at least @size bytes, or NULL. */
void *reader_scratch(struct srecreader *r, size_t size);

/*
 * The end of the current file: go on with the next one queued.  True if
 * there is one to read (r->done is then false again); false with
 * r->error set if it could not be read or does not continue the series,
 * or false if there was none.
 */
bool reader_next_file(struct srecreader *r);

/* Whether @h, the head of a chunk in @frame, can be; if not, @why. */
bool reader_chunk_head_sane(const struct srecreader *r,
			    const struct srec_frame *frame,
			    const struct srec_chunk_head *h,
			    char *why, size_t why_size);

/*
 * Step over the input 8 bytes at a time, past a damaged frame, to the
 * next sound one, its frame in *@frame (not consumed); SECTION_OK, or how
 * the input ended.
 */
enum section_status reader_find_frame(struct srecreader *r,
				      struct srec_frame *frame);

/*
 * The sections after the header (srecsection.c): read the next one (a
 * chunk goes to reader_queue_chunk()), and at the end of the records,
 * check what was read against the trailer.  A chunk handed out is
 * given back with reader_chunk_put().
 */
void reader_read_section(struct srecreader *r);
/*
 * The mapped file changed under the reader (cut short, or written over,
 * or a page of it could not be read) near @offset: reading stops.
 */
void reader_input_changed(struct srecreader *r, uint64_t offset);
void reader_finish(struct srecreader *r);
void reader_chunk_put(struct srecreader *r, struct reader_chunk *chunk);

/* A chunk read and checked, to its CPU's queue (srecmerge.c). */
void reader_queue_chunk(struct srecreader *r, struct reader_chunk *chunk);

/* The merge's side of open and close (srecmerge.c). */
int reader_merge_init(struct srecreader *r);
void reader_merge_free(struct srecreader *r);

#endif /* SCHEDREC_SRECREADER_PRIV_H */
