/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecreader: reads a .srec trace (srecfmt.h, doc/srec-format.md) in one
 * sequential pass, from a file or a pipe, and hands out the records of all
 * CPUs merged by timestamp.
 *
 *	struct srecreader_options opt = { .diag = print_diag };
 *	struct srec_record recs[256];
 *	char err[256];
 *	struct srecreader *r = srecreader_open(path, &opt, err, sizeof(err));
 *
 *	if (!r)
 *		die(err);
 *	use(srecreader_info(r));		(header, events, threads)
 *	while ((n = srecreader_next_batch(r, recs, 256)) > 0)
 *		for (i = 0; i < n; i++)
 *			use(recs[i].cpu, recs[i].hdr);
 *	if (n < 0)
 *		die(srecreader_error(r));
 *	srecreader_close(r);
 *
 * Merging: the reader holds the chunks it has read and not yet handed out,
 * per CPU, and hands out the oldest record whose timestamp is below the
 * latest SYNC horizon; at the end of the file it hands out the rest.  The
 * memory it holds is about three passes of the drainer (at most a few
 * chunks per CPU: see doc/srec-format.md), and never much more than
 * max_buffered: past that it hands out records anyway, and counts those
 * that then turn out to be older than one already handed out as "late".
 * Records of one CPU always come in file order; records of the same time
 * on several CPUs, lowest CPU first.
 *
 * Damage: a file cut short reads to its last complete section, with a
 * warning (and another if the trailer is missing).  A corrupt section (bad
 * CRC, impossible sizes, a record of a type not in the event table, counts
 * or sequence numbers or timestamps that disagree with the chunk head,
 * non-zero padding) is named by its byte offset and skipped, with a
 * warning; with @strict, srecreader_next_batch() fails instead.  A damaged
 * frame is skipped by looking for the next valid one.  So is a damaged
 * header section that the records do not need (thread names, kallsyms,
 * FILE's strings): a warning, and srecreader_status()'s header_lost says
 * what is missing; with @strict, open fails instead.  A damaged event
 * table is replaced by the reader's own if the file's module ABI and
 * number of types are the reader's, with a warning too.  Otherwise a
 * damaged event table or FILE head (the records cannot be decoded without
 * them), a file cut short in its header, a newer major version or a file
 * that is not a .srec makes open fail.
 *
 * Library code never prints: warnings go to the @diag callback, errors to
 * the @err buffer of open and to srecreader_error().
 */
#ifndef SCHEDREC_SRECREADER_H
#define SCHEDREC_SRECREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "srecfmt.h"

enum srec_diag_level {
	SREC_DIAG_WARNING,	/* the read goes on */
	SREC_DIAG_ERROR,	/* the read stops */
};

/* @offset: byte offset in the file the message is about. */
typedef void (*srecreader_diag_fn)(void *arg, enum srec_diag_level level,
				   uint64_t offset, const char *msg);

/*
 * How far the reader is: after each section, of a series the file it
 * reads (from 0) and the bytes of it read so far.
 */
typedef void (*srecreader_progress_fn)(void *arg, unsigned int file,
				       uint64_t offset);

#define SRECREADER_BUFFERED_DEFAULT	(256u << 20)

struct srecreader_options {
	bool strict;		/* corrupt sections are errors */
	size_t max_buffered;	/* payload bytes held for merging; 0: default,
				 * never less than two chunks
				 */
	srecreader_diag_fn diag;	/* NULL: warnings are only counted */
	void *diag_arg;
	/* called by the thread that reads, as @diag is; NULL: none */
	srecreader_progress_fn progress;
	void *progress_arg;
};

struct srecreader;

/*
 * Open @path ("-" is standard input) or @fd (left open by close) and read
 * the header.  Returns NULL with errno set and a message in @err on
 * failure: errno ENOENT and the like for the file itself, EPROTO for a
 * file that is not a .srec, EPROTONOSUPPORT for a newer major version
 * (the message names both versions), EBADMSG for a corrupt header.
 */
struct srecreader *srecreader_open(const char *path,
				   const struct srecreader_options *opt,
				   char *err, size_t err_size);
struct srecreader *srecreader_open_fd(int fd,
				      const struct srecreader_options *opt,
				      char *err, size_t err_size);
/*
 * The same for a trace in memory, the @len bytes at @data (8-aligned, as
 * malloc() gives), read in place as a mapped file is: they must stay,
 * unchanged, until srecreader_close().
 */
struct srecreader *srecreader_open_mem(const void *data, size_t len,
				       const struct srecreader_options *opt,
				       char *err, size_t err_size);
void srecreader_close(struct srecreader *r);

/*
 * A recording written by `schedrec record --rotate` is a series of files,
 * each complete (doc/srec-format.md, "Rotation").  Queue @path as the file
 * that follows the last one given: when the reader reaches the end of the
 * current file it opens the next, checks that it continues the series
 * (CONTINUED, the same CPUs and drainer, started later) and goes on with
 * its records, merged by time with what it still holds, as one recording:
 * sequence numbers, loss and the trailers' totals run across the files.
 * The header (srecreader_info()) stays the first file's.  0, or -ENOMEM.
 * A file that cannot be read or does not continue the series is an error
 * of srecreader_next_batch(), which names it.
 */
int srecreader_add_file(struct srecreader *r, const char *path);

/*
 * Before the records: open @path's header and check that it may continue
 * @r's recording (as srecreader_add_file() will when it reaches it, less
 * what only the file before it can tell), so that a wrong file is said
 * before anything is read.  0, or -errno with why in @err (naming @path).
 */
int srecreader_check_file(const struct srecreader *r, const char *path,
			  char *err, size_t err_size);

/*
 * The header.  Strings are NUL-terminated, "" when absent; if FILE's
 * strings were damaged (SRECREADER_LOST_STRINGS), the four of uname(2)
 * are "?" and the others "".
 */
struct srecreader_info {
	struct srec_file_head file;	/* as read; strings below */
	const char *release;
	const char *version;
	const char *machine;
	const char *hostname;
	const char *online;
	const char *cmdline;
	const char *filter;
	const struct srec_event *events;	/* sorted by id */
	unsigned int nr_events;
	const struct srec_thread *threads;	/* sorted by tid */
	size_t nr_threads;
	/*
	 * The /proc/kallsyms snapshot of a KSYMS section (format 1.1),
	 * inflated and NUL-terminated (tools/lib/ksyms.h parses it), or NULL
	 * with kallsyms_len 0 if the file has none; kallsyms_flags is its
	 * SREC_KSYMS_F_* (HIDDEN: every address is 0).
	 */
	const char *kallsyms;
	size_t kallsyms_len;
	uint32_t kallsyms_flags;
};

const struct srecreader_info *srecreader_info(const struct srecreader *r);

/* The event table's entry for record type @type, NULL if none. */
const struct srec_event *srecreader_event(const struct srecreader *r,
					  unsigned int type);

/*
 * The start snapshot's entry for @tid, NULL if none; of a tid listed twice,
 * the one that sorts last by process, then name.
 */
const struct srec_thread *srecreader_thread(const struct srecreader *r,
					    uint32_t tid);
/* The same, from the header alone. */
const struct srec_thread *
srecreader_info_thread(const struct srecreader_info *info, uint32_t tid);

/* Whether @cpu was online at start, per the header's online list. */
bool srecreader_cpu_online(const struct srecreader *r, unsigned int cpu);

struct srec_record {
	const struct schedrec_header *hdr;	/* hdr->size bytes, 8-aligned,
						 * valid until the next call
						 */
	unsigned int cpu;
	bool lasting;		/* hdr stays valid until srecreader_close():
				 * the record is in place in a mapped file
				 * (a plain chunk); it reads as the file does
				 * then (zeros if the file shrank meanwhile)
				 */
	uint64_t seq;		/* the 64-bit sequence number */
	uint64_t gap;		/* numbers missing just before this record
				 * that no LOST record counts (lost or, in a
				 * filtered file, filtered)
				 */
	uint64_t chunk_offset;	/* file offset of the record's chunk */
};

/*
 * The next records, oldest first: up to @max into @recs, returns how many
 * (at least 1), 0 at the end, or -errno once all read before the error
 * went (srecreader_error() says why).  Valid until the next call.
 *
 * The errors: -EBADMSG (strict mode: corruption), -EIO or the read's
 * errno, -ENOMEM; every later call returns it again.  A record's bytes
 * are valid until the next call, or if it is lasting until close (see
 * srecreader_keep() for the pages that takes).
 */
int srecreader_next_batch(struct srecreader *r, struct srec_record *recs,
			  unsigned int max);

/*
 * Records the caller has no use for: from now on, those of the types
 * whose bit (1ull << type) @types sets are not handed out where handing
 * them out could tell nothing else: of their type's fixed size, numbered
 * one past the record before, no older than any handed out, and followed
 * in their chunk by a record numbered next, no older, and older than
 * @before_ns and the latest SYNC's horizon (unless the input is over).
 * They are checked and counted as handed out all the same
 * (srecreader_cpu()).  @types 0: every record goes, as by default.
 */
void srecreader_skip(struct srecreader *r, uint64_t types, uint64_t before_ns);

/*
 * The caller still reads lasting records of chunks at file offsets from
 * @offset on (rec.chunk_offset): the pages of the mapped file from there
 * on stay, and are given back once a later call moves @offset past them.
 * UINT64_MAX (the default): no lasting record is held after the next call.
 */
void srecreader_keep(struct srecreader *r, uint64_t offset);

/* Per-CPU accounting of what was handed out so far. */
struct srecreader_cpu {
	uint64_t chunks;	/* chunks read */
	uint64_t records;	/* records handed out, LOST ones included */
	uint64_t bytes;		/* their raw payload bytes */
	uint64_t lost;		/* events counted by LOST records */
	uint64_t lost_records;	/* LOST records */
	uint64_t gaps;		/* sequence numbers missing, not counted lost */
	uint64_t gap_count;	/* places where numbers were missing */
	uint64_t filtered;	/* records the chunks say were filtered */
	uint64_t missing;	/* gaps not explained by filtering */
	uint64_t corrupt;	/* chunks of this CPU skipped as corrupt */
	uint64_t late;		/* records older than one handed out before */
	uint64_t first_ts;	/* of the first and last record handed out */
	uint64_t last_ts;
};

/* NULL if @cpu >= nr_cpus. */
const struct srecreader_cpu *srecreader_cpu(const struct srecreader *r,
					    unsigned int cpu);

struct srecreader_status {
	uint64_t offset;	/* bytes read so far */
	uint64_t sections;	/* complete sections read */
	uint64_t chunks;	/* chunks read, corrupt ones not counted */
	uint64_t corrupt;	/* sections skipped as corrupt */
	uint64_t unknown;	/* sections of unknown types skipped */
	uint64_t resyncs;	/* times a damaged frame was skipped */
	uint64_t warnings;	/* warnings issued */
	uint64_t buffered_peak;	/* most payload bytes held at once */
	bool eof;		/* the end of the input was reached */
	bool over;		/* and the records were handed out to it */
	bool truncated;		/* it ended inside a section */
	bool trailer;		/* the trailer was read */
	bool disagrees;		/* its totals differ from what was read */
	bool trailing;		/* data after the trailer was left unread */
	unsigned int file;	/* of a series: the file being read, from 0 */
	unsigned int header_lost;	/* SRECREADER_LOST_*, below */
};

/*
 * srecreader_status.header_lost: what a damaged header took away.  The
 * records do not need these sections, so the reader warns and goes on
 * without them (open fails instead in strict mode).
 */
#define SRECREADER_LOST_STRINGS	0x1	/* FILE's strings: host name, kernel,
					 * online CPUs, command line, filter
					 */
#define SRECREADER_LOST_THREADS	0x2	/* (part of) the threads alive at the
					 * start: their names and processes
					 */
#define SRECREADER_LOST_KSYMS	0x4	/* the kallsyms snapshot: stacks
					 * cannot be named
					 */
#define SRECREADER_LOST_OTHER	0x8	/* a section whose frame is damaged,
					 * of a type that cannot be told
					 */
#define SRECREADER_LOST_EVENTS	0x10	/* the event table, for which the
					 * reader's own of the same module
					 * ABI stands in
					 */

const struct srecreader_status *srecreader_status(const struct srecreader *r);

/*
 * The trailer once read (at the latest when next() returned 0), NULL if
 * the file has none.  *@totals gets its entries indexed by CPU, nr_cpus of
 * them (a CPU the trailer does not name is all zeros).
 */
const struct srec_trailer_head *
srecreader_trailer(const struct srecreader *r,
		   const struct srec_cpu_total **totals);

/*
 * Once the records are over (next() returned 0, or an error that stopped
 * the reading), or the input is (its last section was read, though records
 * may still be held): the time up to which the input holds every record of
 * @cpu.  Without a trailer (the file was cut short, or its writer stopped
 * before writing one), that is the last record of @cpu's chunks read, or
 * the latest SYNC's horizon if later: nothing older than the horizon can
 * be missing; the recording's start if neither is later.  UINT64_MAX with
 * the trailer, or before the end.
 */
uint64_t srecreader_cpu_complete_until(const struct srecreader *r,
				       unsigned int cpu);

/* Why the read failed, "" if it did not. */
const char *srecreader_error(const struct srecreader *r);

#endif /* SCHEDREC_SRECREADER_H */
