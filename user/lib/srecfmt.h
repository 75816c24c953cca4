/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The .srec trace file format: the on-disk structures that srecwriter
 * writes and srecreader reads.  doc/srec-format.md is the specification;
 * this header is its C spelling, with the layout asserted at compile time.
 *
 * A file is a stream of sections.  Each section is a 24-byte frame, a
 * fixed-size head whose layout depends on the section type, variable data,
 * and zero padding up to the next multiple of 8 bytes:
 *
 *	FILE  EVENTS  THREADS...  [KSYMS]  HEADER_END  { CHUNK | SYNC }...
 *	TRAILER
 *
 * All fields are little-endian; the records inside a chunk are those of
 * include/uapi/schedrec.h, also little-endian.  Nothing is ever patched
 * after it was written, so a file can be written to and read from a pipe.
 */
#ifndef SCHEDREC_SRECFMT_H
#define SCHEDREC_SRECFMT_H

#include <stdint.h>

#include "uapi/schedrec.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .srec format is little-endian; this code stores it as is"
#endif

/* Versions of the format (not of the kernel ABI, see SCHEDREC_ABI_VERSION) */
#define SREC_FORMAT_MAJOR	1
#define SREC_FORMAT_MINOR	1	/* 1.1: KSYMS */

/* "SREC" in file order: every frame starts with it, so does the file */
#define SREC_MAGIC		0x43455253u

/* Sections start at multiples of this; heads are a multiple of it long. */
#define SREC_ALIGN		8

/* Limits a reader enforces before it allocates or trusts anything. */
#define SREC_HEAD_MAX		1024		/* bytes of a section head */
#define SREC_DATA_MAX		(64u << 20)	/* bytes of a section's data */
#define SREC_CHUNK_LIMIT	(16u << 20)	/* raw payload of one chunk */
#define SREC_CHUNK_MIN		(64u << 10)	/* smallest chunk_max */
#define SREC_CPUS_MAX		65536		/* nr_cpus of a file */
#define SREC_THREADS_PER_SECTION 65536	/* entries of a THREADS section */
#define SREC_KSYMS_MAX		(64u << 20)	/* text of a KSYMS section */

enum srec_section_type {
	SREC_SEC_FILE		= 1,	/* first section: what, where, when */
	SREC_SEC_EVENTS		= 2,	/* the record types of the file */
	SREC_SEC_THREADS	= 3,	/* threads alive at start (0 or more) */
	SREC_SEC_HEADER_END	= 4,	/* the header is complete */
	SREC_SEC_KSYMS		= 5,	/* a /proc/kallsyms snapshot (1.1) */
	SREC_SEC_CHUNK		= 16,	/* records of one CPU */
	SREC_SEC_SYNC		= 17,	/* a merge horizon, see srec_sync */
	SREC_SEC_TRAILER	= 32,	/* per-CPU totals; the last section */
};

/*
 * Every section starts with this frame.  @head_crc makes the frame and the
 * head trustworthy before the data is read: a reader never follows a
 * length whose checksum failed.
 *
 * @magic:    SREC_MAGIC.
 * @type:     enum srec_section_type; readers skip types they do not know.
 * @flags:    0; readers ignore it.
 * @head_len: bytes of the head that follows, a multiple of SREC_ALIGN, at
 *            most SREC_HEAD_MAX.  A head longer than the structure a reader
 *            knows carries fields of a newer minor version: the reader uses
 *            the prefix it knows.
 * @data_len: bytes of data after the head, at most SREC_DATA_MAX; then
 *            zero bytes up to a multiple of SREC_ALIGN (not in any CRC).
 * @data_crc: zlib crc32() of the data (as stored, i.e. compressed).
 * @head_crc: crc32() of the first 20 bytes of this frame, then the head.
 */
struct srec_frame {
	uint32_t magic;
	uint16_t type;
	uint16_t flags;
	uint32_t head_len;
	uint32_t data_len;
	uint32_t data_crc;
	uint32_t head_crc;
};

/* Bytes of the frame that head_crc covers */
#define SREC_FRAME_CRC_LEN	20

/* A string in a section's data: @len bytes at @off, not NUL-terminated. */
struct srec_string {
	uint32_t off;
	uint32_t len;
};

/* srec_file_head.flags */
#define SREC_FILE_F_FROM_START	0x1	/* rings were reset at start: every
					 * CPU's sequence starts at 0
					 */
#define SREC_FILE_F_FILTERED	0x2	/* records were left out on purpose;
					 * chunks count them in @filtered
					 */
#define SREC_FILE_F_CONTINUED	0x4	/* a file of a rotation after the
					 * first: every CPU's sequence goes on
					 * from the previous file's
					 */

/*
 * FILE, the first section of every file.  @major and @minor stay the first
 * four bytes of this head in every version, so any reader can say which
 * version it refused.  Strings live in the section's data.
 *
 * @abi_version:  SCHEDREC_ABI_VERSION of the module that recorded.
 * @nr_cpus:      possible CPUs; every chunk's CPU is below it.
 * @clock_id:     clock of every timestamp (CLOCK_MONOTONIC, 1).
 * @start_mono_ns, @start_real_ns: the start of the recording, read back to
 *                back from CLOCK_MONOTONIC and CLOCK_REALTIME.
 * @chunk_max:    no chunk's raw payload is longer.
 * @drainer_cpu:  the CPU the drainer was pinned to, UINT32_MAX if none.
 * @drainer_pid, @drainer_tid: the drainer, so reports can hide it.
 * @event_mask:   the events enabled (bit 1 << id).
 * @mode:         enum schedrec_mode.
 * @buf_kb:       ring size per CPU in KiB.
 * @flags:        SREC_FILE_F_*.
 * @release, @version, @machine, @hostname: uname(2) fields.
 * @online:       online CPUs at start, as a list like "0-3,6".
 * @cmdline:      the drainer's command line, arguments separated by spaces.
 * @filter:       the drainer's record filter in words, "" if none.
 */
struct srec_file_head {
	uint16_t major;
	uint16_t minor;
	uint32_t abi_version;
	uint32_t nr_cpus;
	uint32_t clock_id;
	uint64_t start_mono_ns;
	uint64_t start_real_ns;
	uint32_t chunk_max;
	uint32_t drainer_cpu;
	uint32_t drainer_pid;
	uint32_t drainer_tid;
	uint32_t event_mask;
	uint32_t mode;
	uint32_t buf_kb;
	uint32_t flags;
	struct srec_string release;
	struct srec_string version;
	struct srec_string machine;
	struct srec_string hostname;
	struct srec_string online;
	struct srec_string cmdline;
	struct srec_string filter;
};

/* EVENTS and THREADS: a table of @count entries of @entry_size bytes. */
struct srec_table_head {
	uint32_t count;
	uint32_t entry_size;
};

#define SREC_EVENT_NAME_LEN	24
#define SREC_EVENT_TP_LEN	32

/*
 * An entry of EVENTS: a record type the file may hold.  @size is its record
 * size, 0 if it varies (PAD).  A chunk holding a type that is not in the
 * table is corrupt.  Names are NUL-padded.
 */
struct srec_event {
	uint16_t id;
	uint16_t size;
	uint32_t flags;			/* SREC_EVENT_F_* */
	char name[SREC_EVENT_NAME_LEN];
	char tracepoint[SREC_EVENT_TP_LEN];
};

#define SREC_EVENT_F_ENABLED	0x1	/* in the event mask at start */

/* An entry of THREADS: a thread alive at start.  @comm is NUL-padded. */
struct srec_thread {
	uint32_t tid;
	uint32_t tgid;
	char comm[SCHEDREC_COMM_LEN];
};

/* srec_ksyms_head.flags */
#define SREC_KSYMS_F_HIDDEN	0x1	/* every address read as 0: the
					 * kernel hid them (kptr_restrict),
					 * so names cannot be found
					 */

/*
 * KSYMS (format 1.1), in the header, at most once: the text of
 * /proc/kallsyms when the recording started ("address type name
 * [module]" lines), so that the raw kernel addresses of STACK records can
 * be named.  The data is its zlib (RFC 1950) compression, which must
 * inflate to exactly @raw_len bytes, at most SREC_KSYMS_MAX.
 */
struct srec_ksyms_head {
	uint32_t raw_len;
	uint32_t flags;			/* SREC_KSYMS_F_* */
};

/* srec_chunk_head.flags */
#define SREC_CHUNK_ZLIB		0x1	/* data: the payload, zlib-compressed */

/*
 * CHUNK: records of one CPU, in ring order, concatenated as in the ring
 * (PAD records may appear and carry nothing).  The data is the payload, or
 * its zlib (RFC 1950) compression with SREC_CHUNK_ZLIB.
 *
 * @cpu:       the CPU whose ring held the records.
 * @count:     records in the payload, PAD not counted; at least 1.
 * @first_seq, @last_seq: 64-bit sequence numbers of the first and last
 *             record (their low 32 bits are the records' @seq).  Numbers
 *             grow by one per record and per event a LOST record counts;
 *             anything else missing was lost unexplained or filtered.
 * @first_ts, @last_ts: timestamps of the first and last record.
 * @lost:      events counted by the LOST records of this payload.
 * @filtered:  records the writer was told it left out on purpose since
 *             the previous chunk of this CPU.
 * @raw_len:   bytes of the payload, at most the file's chunk_max.
 * @flags:     SREC_CHUNK_*.
 */
struct srec_chunk_head {
	uint32_t cpu;
	uint32_t count;
	uint64_t first_seq;
	uint64_t last_seq;
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t lost;
	uint64_t filtered;
	uint32_t raw_len;
	uint32_t flags;
};

/*
 * SYNC: no record of any CPU with a timestamp below @horizon_ns follows
 * this section.  A reader merging CPUs by time may hand out every record
 * it holds that is older than the horizon; see doc/srec-format.md.
 */
struct srec_sync_head {
	uint64_t horizon_ns;
};

/* TRAILER: the end of the recording, then one srec_cpu_total per CPU. */
struct srec_trailer_head {
	uint64_t end_mono_ns;
	uint64_t end_real_ns;
	uint64_t chunks;		/* CHUNK sections written */
	uint32_t count;			/* entries, = nr_cpus */
	uint32_t entry_size;
};

#define SREC_COUNT_UNKNOWN	UINT64_MAX

/*
 * Per-CPU totals.  The first group is what the writer put in the file; the
 * second is what the kernel said at the end (SREC_COUNT_UNKNOWN if the
 * writer was not told).
 */
struct srec_cpu_total {
	uint32_t cpu;
	uint32_t __pad;
	uint64_t chunks;		/* CHUNK sections of this CPU */
	uint64_t records;		/* records delivered, PAD not counted */
	uint64_t bytes;			/* raw payload bytes */
	uint64_t lost;			/* events counted by LOST records */
	uint64_t gaps;			/* sequence numbers neither delivered
					 * nor counted by LOST records
					 */
	uint64_t filtered;		/* of these, left out on purpose */
	uint64_t kernel_written;	/* the ring's "written" counter */
	uint64_t kernel_lost;		/* the ring's "lost" counter */
};

#define SREC_CHECK(expr)	_Static_assert(expr, #expr)
#define SREC_OFFSET(type, field)	__builtin_offsetof(struct type, field)

SREC_CHECK(sizeof(struct srec_frame) == 24);
SREC_CHECK(SREC_OFFSET(srec_frame, data_len) == 12);
SREC_CHECK(SREC_OFFSET(srec_frame, head_crc) == SREC_FRAME_CRC_LEN);
SREC_CHECK(sizeof(struct srec_string) == 8);
SREC_CHECK(sizeof(struct srec_file_head) == 120);
SREC_CHECK(SREC_OFFSET(srec_file_head, start_mono_ns) == 16);
SREC_CHECK(SREC_OFFSET(srec_file_head, chunk_max) == 32);
SREC_CHECK(SREC_OFFSET(srec_file_head, flags) == 60);
SREC_CHECK(SREC_OFFSET(srec_file_head, release) == 64);
SREC_CHECK(SREC_OFFSET(srec_file_head, filter) == 112);
SREC_CHECK(sizeof(struct srec_table_head) == 8);
SREC_CHECK(sizeof(struct srec_event) == 64);
SREC_CHECK(SREC_OFFSET(srec_event, name) == 8);
SREC_CHECK(SREC_OFFSET(srec_event, tracepoint) == 32);
SREC_CHECK(sizeof(struct srec_thread) == 24);
SREC_CHECK(SREC_OFFSET(srec_thread, comm) == 8);
SREC_CHECK(sizeof(struct srec_ksyms_head) == 8);
SREC_CHECK(sizeof(struct srec_chunk_head) == 64);
SREC_CHECK(SREC_OFFSET(srec_chunk_head, first_ts) == 24);
SREC_CHECK(SREC_OFFSET(srec_chunk_head, lost) == 40);
SREC_CHECK(SREC_OFFSET(srec_chunk_head, raw_len) == 56);
SREC_CHECK(sizeof(struct srec_sync_head) == 8);
SREC_CHECK(sizeof(struct srec_trailer_head) == 32);
SREC_CHECK(SREC_OFFSET(srec_trailer_head, count) == 24);
SREC_CHECK(sizeof(struct srec_cpu_total) == 72);
SREC_CHECK(SREC_OFFSET(srec_cpu_total, kernel_lost) == 64);
SREC_CHECK(sizeof(struct srec_file_head) % SREC_ALIGN == 0);
SREC_CHECK(sizeof(struct srec_chunk_head) % SREC_ALIGN == 0);
SREC_CHECK(sizeof(struct srec_trailer_head) % SREC_ALIGN == 0);

#endif /* SCHEDREC_SRECFMT_H */
