/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the .srec host tests: a synthetic recording that writes real
 * record layouts of every type (with LOST records, gaps and PAD) and
 * remembers what a reader must give back, in-memory files, a section
 * walker and builder for hand-made files, and a diagnostics collector.
 */
#ifndef SCHEDREC_SREC_UTIL_H
#define SCHEDREC_SREC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "srecreader.h"
#include "srecwriter.h"

#define SYNTH_CPUS_MAX	16

/* A growable byte buffer. */
struct bytes {
	unsigned char *data;
	size_t len;
	size_t cap;
};

void bytes_add(struct bytes *b, const void *data, size_t len);
void bytes_free(struct bytes *b);
/* The whole of file @fd into @out, replacing what it held. */
void bytes_from_fd(int fd, struct bytes *out);

/* A switch record of @seq at @ts (its prev_tid @seq), appended to @b. */
void put_switch_record(struct bytes *b, uint32_t seq, uint64_t ts);
/* A LOST record of @count lost in [@ts - 10, @ts - 1], appended to @b. */
void put_lost_record(struct bytes *b, uint32_t seq, uint64_t ts,
		     uint64_t count);

/* One record as a reader must hand it out. */
struct expected_record {
	unsigned int cpu;
	uint64_t seq;
	uint64_t chunk_offset;	/* filled by read_all() */
	unsigned char rec[64];
};

struct expected_list {
	struct expected_record *records;
	size_t count;
	size_t cap;
};

void expected_add(struct expected_list *list,
		  const struct expected_record *rec);
void expected_free(struct expected_list *list);

/*
 * A synthetic recording: events in global time order (every timestamp
 * distinct), each on a CPU, waiting in that CPU's "ring" until flushed to
 * a writer.
 */
struct synth_cpu {
	uint64_t seq;
	struct bytes pending;
};

struct synth {
	unsigned int nr_cpus;
	uint64_t now;
	uint32_t rng;
	struct synth_cpu cpu[SYNTH_CPUS_MAX];
	struct expected_list expected;
};

void synth_init(struct synth *s, unsigned int nr_cpus, uint32_t seed);
void synth_free(struct synth *s);
uint32_t synth_random(struct synth *s);
/* A record of @type on @cpu with made-up fields. */
void synth_event(struct synth *s, unsigned int cpu, unsigned int type);
/* @count random events of every type on random CPUs. */
void synth_events(struct synth *s, unsigned int count);
/* @count events dropped on @cpu, and the LOST record that says so. */
void synth_lost(struct synth *s, unsigned int cpu, uint64_t count);
/* @count sequence numbers skipped on @cpu with no LOST record. */
void synth_skip(struct synth *s, unsigned int cpu, uint64_t count);
/* A PAD record of @size bytes on @cpu. */
void synth_pad(struct synth *s, unsigned int cpu, unsigned int size);
/* Append every CPU's pending records to @w; 0 or the writer's error. */
int synth_flush(struct synth *s, struct srecwriter *w);

/* The header used by the tests. */
void test_header(struct srecwriter_header *hdr);

/*
 * A whole recording in three steps: a writer on @fd with @opt (nr_cpus is
 * the synth's) and the test header, or NULL; @rounds rounds of
 * @per_round events, each round's start before them (0 or the writer's
 * error); the trailer, its end times from the synth's clock, and the
 * writer closed (0 or the trailer's error).
 */
struct srecwriter *synth_begin(struct synth *s, int fd,
			       struct srecwriter_options opt);
int synth_rounds(struct synth *s, struct srecwriter *w, unsigned int rounds,
		 unsigned int per_round);
int synth_end(struct synth *s, struct srecwriter *w);

/*
 * Write a whole recording of @rounds rounds of @per_round events to @fd:
 * header, rounds with SYNC, trailer.  Returns 0 or the writer's error.
 */
int synth_write(struct synth *s, int fd, int zlib_level, unsigned int rounds,
		unsigned int per_round);

/*
 * A new file on disk (in /var/tmp, which is not a tmpfs), already
 * unlinked: for O_DIRECT.  Returns its fd, or -1.
 */
int disk_tmpfile(void);

/* The contents of a recording in memory (via a memfd). */
int synth_to_bytes(struct synth *s, struct bytes *out, int zlib_level,
		   unsigned int rounds, unsigned int per_round);

/* Open a reader on a copy of @data. */
struct srecreader *open_bytes(const void *data, size_t len,
			      const struct srecreader_options *opt,
			      char *err, size_t err_size);

/* The same, and in *@fd the memfd holding the copy, for the caller to close. */
struct srecreader *open_bytes_fd(const void *data, size_t len,
				 const struct srecreader_options *opt,
				 char *err, size_t err_size, int *fd);

/* What the diagnostics callback saw. */
struct diag_log {
	unsigned int warnings;
	unsigned int errors;
	uint64_t offsets[64];
	unsigned int nr_offsets;
	char text[8192];
};

void diag_collect(void *arg, enum srec_diag_level level, uint64_t offset,
		  const char *msg);
bool diag_has_offset(const struct diag_log *log, uint64_t offset);
bool diag_says(const struct diag_log *log, const char *words);

/*
 * Read every record into @out; returns the last srecreader_next_batch() value
 * (0 at a clean end).
 */
int read_all(struct srecreader *r, struct expected_list *out);

#define READ_BATCH_MAX	64

/*
 * The same through srecreader_next_batch(), up to @max (at most
 * READ_BATCH_MAX) records a call, each batch copied only once the call
 * returned; *@calls: the calls that gave records.
 */
int read_batches(struct srecreader *r, struct expected_list *out,
		 unsigned int max, unsigned int *calls);

/* Whether two lists hold the same records in the same order. */
bool same_records(const struct expected_list *a,
		  const struct expected_list *b);

/* A section of a well-formed file, found by walking its frames. */
struct section {
	uint64_t offset;
	uint64_t end;
	uint16_t type;
	uint32_t chunk_flags;	/* CHUNK only */
};

/* Walk @data; returns the number of sections (at most @max). */
size_t walk_sections(const unsigned char *data, size_t len,
		     struct section *out, size_t max);

/* Append a section with correct CRCs and padding (for hand-made files). */
void put_section(struct bytes *b, uint16_t type, const void *head,
		 uint32_t head_len, const void *data, uint32_t data_len);

/* Put EVENTS (the ABI's) and HEADER_END: the header after FILE. */
void put_tables(struct bytes *b);

/* Put FILE and put_tables(): a minimal valid header. */
void put_header(struct bytes *b, uint32_t nr_cpus, uint32_t flags);

/* A FILE head that a reader accepts: two CPUs, the smallest chunks. */
struct srec_file_head good_file_head(void);

/* Append FILE with @file in a head of @head_len bytes (zero-filled). */
void put_file_head(struct bytes *b, const struct srec_file_head *file,
		   uint32_t head_len, const void *data, uint32_t data_len);

/*
 * A chunk of @count switch records of @cpu, numbered from @seq and 10 ns
 * apart from @ts, with a correct head; tests spoil it before putting it.
 */
struct chunk_spec {
	unsigned char payload[1024];	/* first: as aligned as the struct */
	struct srec_chunk_head head;
	uint32_t head_len;
	const void *data;	/* NULL: the payload */
	uint32_t data_len;
};

void chunk_spec_init(struct chunk_spec *c, unsigned int cpu, uint32_t seq,
		     unsigned int count, uint64_t ts);
void chunk_spec_put(struct bytes *b, const struct chunk_spec *c);
/* chunk_spec_init() and chunk_spec_put() in one. */
void put_switches(struct bytes *b, unsigned int cpu, uint32_t seq,
		  unsigned int count, uint64_t ts);

#endif /* SCHEDREC_SREC_UTIL_H */
