/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecwriter: writes a .srec trace (srecfmt.h, doc/srec-format.md) to a
 * file descriptor, sequentially, so the descriptor may be a pipe.
 *
 *	struct srecwriter_options opt = { .nr_cpus = n, .zlib_level = 0 };
 *	struct srecwriter *w;
 *
 *	srecwriter_open(&w, fd, &opt);		(allocates everything)
 *	srecwriter_write_header(w, &header);
 *	loop:
 *		srecwriter_round(w, now);	(once per pass over the rings)
 *		srecwriter_append(w, cpu, records, len);
 *	srecwriter_write_trailer(w, &trailer);
 *	srecwriter_close(w);			(frees; the fd stays open)
 *
 * Rotation: after a file's trailer, srecwriter_next_file(w, fd) starts the
 * next file of the same recording, then its header, appends and trailer as
 * above; every CPU's sequence goes on from one file to the next.
 *
 * Memory: every buffer is allocated by srecwriter_open(), through the
 * caller's allocator if it gives one (a NUMA-local one, say), zlib's state
 * included; append, round and the trailer never allocate.
 *
 * Errors: functions return 0 or a negative errno.  -EINVAL is a misuse
 * (bad option, CPU out of range, calls out of order); -EBADMSG means the
 * records given to append are malformed, and nothing was written; any other
 * value comes from write(2) (-ENOSPC, -EPIPE, -EIO...).  A failed write
 * leaves the file as it was after the last complete section, plus part of
 * the one being written, which readers see as truncation; the error sticks,
 * and every later call returns it.  srecwriter_error() says what happened
 * in words.  srecwriter_salvage() then ends a regular file cleanly: it cuts
 * off what the failed write left and writes the trailer, in the room that
 * the reserve option keeps for it on a full disk.  Writing to a pipe whose
 * reader went away raises SIGPIPE unless the caller ignores it; then the
 * error is -EPIPE.  The fd should be blocking; EINTR is retried, and
 * EAGAIN waits in poll().  With options.direct, the writer sets O_DIRECT
 * on the fd while it writes the file and clears it when it ends it.
 */
#ifndef SCHEDREC_SRECWRITER_H
#define SCHEDREC_SRECWRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "srecfmt.h"

/* Where the writer's memory comes from; @free gets back the size. */
struct srec_allocator {
	void *(*alloc)(size_t size, void *arg);
	void (*free)(void *ptr, size_t size, void *arg);
	void *arg;
};

#define SRECWRITER_CHUNK_DEFAULT	(1u << 20)
#define SRECWRITER_ZLIB_MIN		256
#define SRECWRITER_DIRECT_ALIGN		4096u
#define SRECWRITER_DIRECT_BLOCK		(1u << 20)
#define SRECWRITER_DIRECT_HOLD_NS	1000000000ull

struct srecwriter_options {
	unsigned int nr_cpus;	/* possible CPUs, 1..SREC_CPUS_MAX */
	uint32_t chunk_max;	/* largest raw chunk payload; 0: default.
				 * SREC_CHUNK_MIN..SREC_CHUNK_LIMIT; longer
				 * appends are split into several chunks.
				 */
	int zlib_level;		/* 0: raw chunks; 1..9: zlib at that level
				 * (chunks under SRECWRITER_ZLIB_MIN bytes,
				 * or that do not shrink, stay raw)
				 */
	const struct srec_allocator *allocator;	/* NULL: malloc/free */
	bool reserve;		/* on a regular file, allocate its blocks ahead
				 * (fallocate), holding room for the trailer:
				 * a full disk then fails the section that
				 * does not fit, with -ENOSPC, before any of
				 * it is written, and the trailer still fits
				 * (srecwriter_salvage()).  Ignored where the
				 * file system cannot allocate ahead.
				 */
	bool direct;		/* on a regular file, write with O_DIRECT:
				 * sections are copied into a buffer and go
				 * out in aligned blocks of about
				 * SRECWRITER_DIRECT_BLOCK bytes, past the
				 * page cache; what is buffered is written
				 * within SRECWRITER_DIRECT_HOLD_NS (at the
				 * next srecwriter_round() after that), and
				 * by the trailer.  Where the file system or
				 * the file's offset does not allow it, the
				 * writer writes through the page cache
				 * (srecwriter_direct() says which).
				 */
};

struct srecwriter;

/* Allocate a writer for @fd.  Returns 0 and sets *@wp, or -errno. */
int srecwriter_open(struct srecwriter **wp, int fd,
		    const struct srecwriter_options *opt);

/*
 * Whether the current file is written with O_DIRECT (options.direct, on a
 * file system and at an offset that allow it).
 */
bool srecwriter_direct(const struct srecwriter *w);

/*
 * What the header says.  Zero or NULL fields take the defaults given; the
 * strings are copied into the file as they are (NULL is "").  See
 * srecsys.h for helpers that fill the machine's part.
 */
struct srecwriter_header {
	uint32_t abi_version;	/* 0: SCHEDREC_ABI_VERSION */
	uint64_t start_mono_ns;	/* both 0: the writer reads the clocks */
	uint64_t start_real_ns;
	uint32_t drainer_cpu;	/* UINT32_MAX: not pinned */
	uint32_t drainer_pid;
	uint32_t drainer_tid;
	uint32_t event_mask;
	uint32_t mode;		/* enum schedrec_mode */
	uint32_t buf_kb;
	uint32_t flags;		/* SREC_FILE_F_* */
	const char *release;	/* uname -r */
	const char *version;	/* uname -v */
	const char *machine;	/* uname -m */
	const char *hostname;
	const char *online;	/* "0-3,6", as /sys/devices/system/cpu/online */
	const char *cmdline;
	const char *filter;
	/* NULL: the types of include/uapi/schedrec.h, enabled per event_mask */
	const struct srec_event *events;
	unsigned int nr_events;
	/* threads alive at start, in any order (srecsys_threads()) */
	const struct srec_thread *threads;
	size_t nr_threads;
	/*
	 * A /proc/kallsyms snapshot for the KSYMS section, or NULL for none:
	 * @ksyms_len bytes, the zlib compression of @ksyms_raw_len bytes of
	 * text (srecsys_kallsyms() makes it once; every file of a rotation
	 * can reuse it), @ksyms_flags SREC_KSYMS_F_*.  At most SREC_DATA_MAX
	 * and SREC_KSYMS_MAX bytes; the writer does not inflate it.
	 */
	const void *ksyms;
	uint32_t ksyms_len;
	uint32_t ksyms_raw_len;
	uint32_t ksyms_flags;
};

/*
 * Write the header sections (FILE, EVENTS, THREADS, KSYMS if given,
 * HEADER_END).  Call it once, first.  Records given to append later are checked against the
 * event table written here.
 */
int srecwriter_write_header(struct srecwriter *w,
			    const struct srecwriter_header *hdr);

/*
 * Write @len bytes of records of @cpu's ring as one chunk, or several if
 * @len exceeds chunk_max: whole records as the ring holds them, in ring
 * order, continuing where the previous append for @cpu stopped.  PAD
 * records may appear and are kept.  The writer walks the records first and
 * refuses the whole buffer (-EBADMSG, nothing written) if one is malformed:
 * a size below 16, not a multiple of 16 or past @len, type 0, a type that
 * is not in the event table, a size that is not its type's, or a STACK
 * record whose count does not give its size (ringreader_stack_ok()).  An empty
 * buffer, or one holding only PAD, writes nothing.  The records are read,
 * never modified, and not kept: @records may point into the ring itself.
 */
int srecwriter_append(struct srecwriter *w, unsigned int cpu,
		      const void *records, size_t len);

/*
 * @count records of @cpu were left out on purpose (filtered) before the
 * next append: they are counted in that CPU's next chunk and in the
 * trailer, so readers do not report them as missing.
 */
void srecwriter_filtered(struct srecwriter *w, unsigned int cpu,
			 uint64_t count);

/*
 * Call at the start of every pass over the rings, with CLOCK_MONOTONIC
 * read before looking at the first ring.  This is what lets readers merge
 * CPUs by time in bounded memory: once pass N starts, every record older
 * than the start of pass N - 2 has been drained, so the writer writes a
 * SYNC section with that horizon (only while chunks come: not after
 * three rounds without any, which cover the last chunk; and only when the
 * horizon moves: @start_ns must grow).  Without it, readers buffer up to
 * their memory limit.  See doc/srec-format.md, "Merging CPUs by time".
 */
int srecwriter_round(struct srecwriter *w, uint64_t start_ns);

/* What the kernel's counters said for one CPU at the end. */
struct srecwriter_kernel_count {
	uint64_t written;
	uint64_t lost;
};

struct srecwriter_trailer {
	uint64_t end_mono_ns;	/* both 0: the writer reads the clocks */
	uint64_t end_real_ns;
	/* nr_cpus entries indexed by CPU, or NULL: unknown */
	const struct srecwriter_kernel_count *kernel;
};

/* Write the TRAILER: the last thing written; later appends are refused. */
int srecwriter_write_trailer(struct srecwriter *w,
			     const struct srecwriter_trailer *trailer);

/*
 * After a failure (a write error, or any other reason to stop early): end
 * the file as cleanly as possible.  If a write failed part way through a
 * section of a regular file, the file is cut back to the end of the last
 * complete section (with options.direct, the complete sections still
 * staged are written first, through the page cache); then the trailer is
 * written (with the reserve option, into the room kept for it).  Returns 0 if the file now ends with its
 * trailer, or -errno: the file then ends at a section boundary if it could
 * be cut, and a reader warns that the trailer is missing.  A write error
 * stays sticky, and srecwriter_error() keeps the first one.
 */
int srecwriter_salvage(struct srecwriter *w,
		       const struct srecwriter_trailer *trailer);

/*
 * Rotation: once the trailer of the current file is written, begin the
 * next file of the same recording on @fd (its header comes next).  The
 * writer's memory is reused: nothing is allocated.  The new file counts
 * its own totals, chunks and SYNC horizons; its header says
 * SREC_FILE_F_CONTINUED and never SREC_FILE_F_FROM_START, whatever the
 * flags given, and every CPU's sequence numbers go on from the previous
 * file: a CPU's first chunk starts at the 64-bit number of its first
 * record, and numbers missing between the files are not gaps of the new
 * file (a reader of the file alone cannot know of them) but are counted in
 * srecwriter_recording_totals().  Returns 0 or -errno.
 */
int srecwriter_next_file(struct srecwriter *w, int fd);

/* Free the writer.  It does not close the fd nor write the trailer. */
void srecwriter_close(struct srecwriter *w);

/* The totals so far for @cpu (what the trailer will say), NULL if bad. */
const struct srec_cpu_total *srecwriter_totals(const struct srecwriter *w,
					       unsigned int cpu);

/*
 * The totals of the whole recording for @cpu, over every file of a
 * rotation, numbers missing between files included in gaps; the same as
 * srecwriter_totals() when there was one file.  NULL if @cpu is bad.
 */
const struct srec_cpu_total *
srecwriter_recording_totals(const struct srecwriter *w, unsigned int cpu);

/* Bytes written to the fd so far, in the current file. */
uint64_t srecwriter_bytes(const struct srecwriter *w);

/* The time of the newest record written so far, in any file; 0: none. */
uint64_t srecwriter_newest_ts(const struct srecwriter *w);

/* The last error in words, "" if none. */
const char *srecwriter_error(const struct srecwriter *w);

#endif /* SCHEDREC_SRECWRITER_H */
