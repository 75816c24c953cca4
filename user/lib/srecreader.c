// SPDX-License-Identifier: GPL-2.0
/*
 * The .srec reader: opening a file, the header sections, a series of
 * files; see srecreader.h.  Frames and the sections after the header are
 * in srecsection.c, the merge by time in srecmerge.c.
 *
 * Nothing read from the file is trusted before it is checked: a frame's
 * lengths only after its CRC, every count against the bytes that hold it,
 * every offset against the data it points into.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sreccrc.h"
#include "srecreader_priv.h"

/* At most this many threads in a start snapshot. */
#define READER_THREADS_MAX	(1u << 24)

static void diag(struct srecreader *r, enum srec_diag_level level,
		 uint64_t offset, const char *msg)
{
	if (r->opt.diag)
		r->opt.diag(r->opt.diag_arg, level, offset, msg);
}

void reader_warn(struct srecreader *r, uint64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->status.warnings++;
	diag(r, SREC_DIAG_WARNING, offset, msg);
}

int reader_fail(struct srecreader *r, int err, uint64_t offset,
		const char *fmt, ...)
{
	va_list ap;

	if (r->error)
		return r->error;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	r->error = err;
	diag(r, SREC_DIAG_ERROR, offset, r->message);
	return err;
}

void *reader_scratch(struct srecreader *r, size_t size)
{
	void *bigger;

	if (size <= r->sect.scratch_size)
		return r->sect.scratch;
	bigger = realloc(r->sect.scratch, size);
	if (!bigger)
		return NULL;
	r->sect.scratch = bigger;
	r->sect.scratch_size = size;
	return bigger;
}

/* The messages of a failed open; *msg is for the caller's @err. */
static __printf(3, 4) int header_fail(struct srecreader *r, int err,
				       const char *fmt, ...);

static int header_fail(struct srecreader *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	r->error = err;
	return err;
}

/* What a header section is, for messages. */
static const char *section_name(uint16_t type)
{
	switch (type) {
	case SREC_SEC_FILE:
		return "FILE section";
	case SREC_SEC_EVENTS:
		return "event table";
	case SREC_SEC_THREADS:
		return "thread table";
	case SREC_SEC_KSYMS:
		return "kallsyms snapshot";
	case SREC_SEC_HEADER_END:
		return "header end";
	default:
		return "section";
	}
}

/*
 * What the reports miss without a header section of @type that the
 * records can do without; *@lost gets its SRECREADER_LOST_* bit.
 */
static const char *section_loss(uint16_t type, unsigned int *lost)
{
	switch (type) {
	case SREC_SEC_FILE:
		*lost = SRECREADER_LOST_STRINGS;
		return "the host name, kernel, online CPUs, command line and filter of the recording are not known";
	case SREC_SEC_THREADS:
		*lost = SRECREADER_LOST_THREADS;
		return "names and processes of threads from before the recording are not known";
	case SREC_SEC_KSYMS:
		*lost = SRECREADER_LOST_KSYMS;
		return "kernel stacks cannot be named";
	case SREC_SEC_HEADER_END:
		*lost = 0;
		return "it only marks the end of the header: nothing is lost";
	default:
		*lost = 0;
		return "its type is not one this reader uses: nothing is lost";
	}
}

/*
 * The file ends inside its header: say which section is cut short (or
 * that the header stops after a whole one), where it starts and how long
 * the file is.  The section at @offset: its frame was read if the input
 * is past it, else its type is whatever of its frame is there.
 */
static int header_cut(struct srecreader *r, uint64_t offset)
{
	const unsigned char *rest;
	size_t avail = srecinput_peek(&r->in, r->in.size, &rest);
	unsigned long long len = r->in.offset + avail;
	uint16_t type = SREC_SEC_FILE;

	if (r->in.error)
		return header_fail(r, r->in.error, "read error in the header: %s",
				   strerror(-r->in.error));
	if (len == offset)
		return header_fail(r, -EBADMSG,
				   "the file ends inside its header, after the %s: the sections that follow and the header's end are missing (the file is %llu bytes long)",
				   section_name(r->sect.frame.type), len);
	if (r->in.offset > offset)
		type = r->sect.frame.type;
	else if (offset && avail >= SREC_OFFSET(srec_frame, flags))
		memcpy(&type, rest + SREC_OFFSET(srec_frame, type),
		       sizeof(type));
	else if (offset)
		type = 0;
	return header_fail(r, -EBADMSG,
			   "the file ends inside its header: the %s at offset %llu is cut short (the file is %llu bytes long)",
			   section_name(type), (unsigned long long)offset, len);
}

/*
 * Read the section's data: NULL with a failure if it cannot be read, or
 * NULL without one, *@damage saying how, if it is damaged.
 */
static void *header_data(struct srecreader *r, const char **damage)
{
	void *data = reader_scratch(r, r->sect.frame.data_len + 1);
	enum section_status status;

	*damage = NULL;
	if (!data) {
		header_fail(r, -ENOMEM, "no memory for the %s",
			    section_name(r->sect.frame.type));
		return NULL;
	}
	status = reader_read_data(r, data);
	if (status == SECTION_READ_ERROR) {
		header_fail(r, r->in.error, "read error in the %s: %s",
			    section_name(r->sect.frame.type),
			    strerror(-r->in.error));
		return NULL;
	}
	if (status == SECTION_TRUNCATED) {
		header_cut(r, r->sect.offset);
		return NULL;
	}
	if (status != SECTION_OK)
		*damage = "has padding that is not zeros";
	else if (!reader_data_crc_ok(r, data))
		*damage = "fails its checksum";
	return *damage ? NULL : data;
}

/*
 * The data of the current header section is damaged (@damage), and the
 * records can do without it: in strict mode the open fails; otherwise a
 * warning says what the reports miss, and the header goes on without it.
 * 0 or the failure.
 */
static int header_lose(struct srecreader *r, const char *damage)
{
	unsigned long long offset = r->sect.offset;
	const char *name = section_name(r->sect.frame.type);
	unsigned int lost;
	const char *loss = section_loss(r->sect.frame.type, &lost);

	if (r->opt.strict)
		return header_fail(r, -EBADMSG,
				   "corrupt header: the %s at offset %llu %s",
				   name, offset, damage);
	r->status.corrupt++;
	r->status.header_lost |= lost;
	reader_warn(r, offset,
		    "corrupt header section skipped: the %s at offset %llu %s: %s",
		    name, offset, damage, loss);
	return 0;
}

/* A compressed file (magic of gzip, xz, zstd or bzip2): which; else NULL. */
static const struct compressor {
	const char *magic;
	size_t len;
	const char *name;
	const char *cat;	/* the command that decompresses it */
} *compressed_by(const unsigned char *data, size_t avail)
{
	static const struct compressor kinds[] = {
		{ "\x1f\x8b", 2, "gzip", "zcat" },
		{ "\xfd\x37\x7a\x58\x5a", 5, "xz", "xzcat" },
		{ "\x28\xb5\x2f\xfd", 4, "zstd", "zstdcat" },
		{ "BZh", 3, "bzip2", "bzcat" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (avail >= kinds[i].len &&
		    !memcmp(data, kinds[i].magic, kinds[i].len))
			return &kinds[i];
	return NULL;
}

/* Before anything else: is it a .srec, and of a version we can read? */
static int check_identity(struct srecreader *r)
{
	const struct compressor *zip;
	const unsigned char *data;
	struct srec_frame frame;
	uint16_t version[2];
	size_t avail;

	avail = srecinput_peek(&r->in, sizeof(frame) + sizeof(version),
			       &data);
	if (r->in.error)
		return header_fail(r, r->in.error, "cannot read: %s",
				   strerror(-r->in.error));
	zip = compressed_by(data, avail);
	if (zip)
		return header_fail(r, -EPROTO,
				   "%s-compressed, not a schedrec trace as it is: decompress it (%s FILE >run.srec), or pipe it (%s FILE | schedrec report offcpu -)",
				   zip->name, zip->cat, zip->cat);
	if (avail < sizeof(frame.magic) || memcmp(data, "SREC", 4))
		return header_fail(r, -EPROTO, "not a schedrec trace (%s)",
				   avail ? "no SREC magic at offset 0" :
				   "empty input");
	if (avail < sizeof(frame) + sizeof(version))
		return header_cut(r, 0);
	memcpy(&frame, data, sizeof(frame));
	memcpy(version, data + sizeof(frame), sizeof(version));
	if (frame.type != SREC_SEC_FILE)
		return header_fail(r, -EBADMSG,
				   "corrupt header: the first section has type %u, not FILE",
				   frame.type);
	if (version[0] > SREC_FORMAT_MAJOR)
		return header_fail(r, -EPROTONOSUPPORT,
				   "file format version %u.%u is newer than this reader's %u.%u",
				   version[0], version[1], SREC_FORMAT_MAJOR,
				   SREC_FORMAT_MINOR);
	if (!version[0])
		return header_fail(r, -EBADMSG,
				   "corrupt header: format version %u.%u",
				   version[0], version[1]);
	return 0;
}

/* A string of the FILE section into r->strings at *used. */
static int take_string(struct srecreader *r, const struct srec_string *ref,
		       const char *data, size_t *used, const char **out)
{
	char *dst = r->strings + *used;
	size_t len;

	if (ref->off > r->sect.frame.data_len ||
	    ref->len > r->sect.frame.data_len - ref->off)
		return header_fail(r, -EBADMSG,
				   "corrupt header: a string at %u+%u is outside the %u bytes of the FILE section",
				   ref->off, ref->len, r->sect.frame.data_len);
	len = strnlen(data + ref->off, ref->len);
	memcpy(dst, data + ref->off, len);
	dst[len] = '\0';
	*used += len + 1;
	*out = dst;
	return 0;
}

/* Parse a CPU list such as "0-3,6" into the online bitmap. */
static int parse_online(struct srecreader *r, const char *list)
{
	const char *p = list;

	r->online = calloc((r->nr_cpus + 7) / 8, 1);
	if (!r->online)
		return -ENOMEM;
	while (*p) {
		unsigned long first, last, cpu;
		char *end;

		first = strtoul(p, &end, 10);
		if (end == p)
			return -EINVAL;
		last = first;
		if (*end == '-') {
			p = end + 1;
			last = strtoul(p, &end, 10);
			if (end == p || last < first)
				return -EINVAL;
		}
		for (cpu = first; cpu <= last && cpu < r->nr_cpus; cpu++)
			r->online[cpu / 8] |= 1u << (cpu % 8);
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

/*
 * FILE's strings are damaged: the reports print the uname fields as "?",
 * and take every CPU as online, no command line and no filter.
 */
static void lose_strings(struct srecreader *r)
{
	r->info.release = "?";
	r->info.version = "?";
	r->info.machine = "?";
	r->info.hostname = "?";
	r->info.online = "";
	r->info.cmdline = "";
	r->info.filter = "";
}

static int read_file_section(struct srecreader *r)
{
	struct srec_file_head *file = &r->info.file;
	const char *data, *damage;
	size_t used = 0;
	int ret;

	if (r->sect.frame.head_len < sizeof(*file))
		return header_fail(r, -EBADMSG,
				   "corrupt header: FILE head of %u bytes",
				   r->sect.frame.head_len);
	reader_copy_head(r, file, sizeof(*file));
	data = header_data(r, &damage);
	if (!data && !damage)
		return r->error;
	if (!file->nr_cpus || file->nr_cpus > SREC_CPUS_MAX)
		return header_fail(r, -EBADMSG,
				   "corrupt header: a count of %u CPUs, not 1 to %u",
				   file->nr_cpus, SREC_CPUS_MAX);
	if (file->chunk_max < SREC_CHUNK_MIN ||
	    file->chunk_max > SREC_CHUNK_LIMIT)
		return header_fail(r, -EBADMSG,
				   "corrupt header: chunks of up to %u bytes, not %u to %u",
				   file->chunk_max, SREC_CHUNK_MIN,
				   SREC_CHUNK_LIMIT);
	r->nr_cpus = file->nr_cpus;
	if (!data) {
		/* the head, checked apart, holds all the records need */
		lose_strings(r);
		return header_lose(r, damage);
	}
	/* seven strings, each NUL-terminated, which may overlap */
	r->strings = malloc(7 * ((size_t)r->sect.frame.data_len + 1));
	if (!r->strings)
		return header_fail(r, -ENOMEM, "no memory for the header");
	ret = take_string(r, &file->release, data, &used, &r->info.release);
	if (!ret)
		ret = take_string(r, &file->version, data, &used,
				  &r->info.version);
	if (!ret)
		ret = take_string(r, &file->machine, data, &used,
				  &r->info.machine);
	if (!ret)
		ret = take_string(r, &file->hostname, data, &used,
				  &r->info.hostname);
	if (!ret)
		ret = take_string(r, &file->online, data, &used,
				  &r->info.online);
	if (!ret)
		ret = take_string(r, &file->cmdline, data, &used,
				  &r->info.cmdline);
	if (!ret)
		ret = take_string(r, &file->filter, data, &used,
				  &r->info.filter);
	return ret;
}

/* Check a table section's head against its data; the entry count. */
static int table_count(struct srecreader *r, const char *what,
		       size_t min_entry, uint32_t max_count, uint32_t *count)
{
	struct srec_table_head head;

	reader_copy_head(r, &head, sizeof(head));
	if (r->sect.frame.head_len < sizeof(head) ||
	    head.entry_size < min_entry || head.entry_size > SREC_HEAD_MAX || head.count > max_count ||
	    (uint64_t)head.count * head.entry_size != r->sect.frame.data_len)
		return header_fail(r, -EBADMSG,
				   "corrupt header: %s of %u entries of %u bytes in %u bytes",
				   what, head.count, head.entry_size,
				   r->sect.frame.data_len);
	*count = head.count;
	return head.entry_size;
}

static int compare_event(const void *a, const void *b)
{
	const struct srec_event *ea = a, *eb = b;

	return (ea->id > eb->id) - (ea->id < eb->id);
}

/*
 * The event table's data is damaged (@damage): the table of this reader's
 * module ABI stands in for it if the file was recorded with that ABI,
 * whose record ids and layouts never change within a version, and the
 * file's table (its head is sound) has as many types, none this reader
 * does not know.  Else, or in strict mode, the open fails.  The table to
 * read instead into @abi, or NULL with the failure.
 */
static const void *abi_events_instead(struct srecreader *r,
				      const char *damage, uint32_t count,
				      struct srec_event *abi)
{
	const struct srec_file_head *file = &r->info.file;
	unsigned long long offset = r->sect.offset;

	if (r->opt.strict) {
		header_fail(r, -EBADMSG,
			    "corrupt header: the event table at offset %llu %s",
			    offset, damage);
		return NULL;
	}
	if (file->abi_version != SCHEDREC_ABI_VERSION ||
	    count != SCHEDREC_REC_MAX) {
		header_fail(r, -EBADMSG,
			    "corrupt header: the event table at offset %llu %s: it gives the size of every type of record, and the records cannot be decoded without it (this reader's own, of module ABI version %u with %u types, cannot stand in for one of version %u with %u)",
			    offset, damage, SCHEDREC_ABI_VERSION,
			    SCHEDREC_REC_MAX, file->abi_version, count);
		return NULL;
	}
	srecchunk_abi_events(abi, file->event_mask);
	r->status.corrupt++;
	r->status.header_lost |= SRECREADER_LOST_EVENTS;
	reader_warn(r, offset,
		    "corrupt header section replaced: the event table at offset %llu %s: this reader's own, of module ABI version %u as the file's, with %u types as the file's, stands in for it",
		    offset, damage, SCHEDREC_ABI_VERSION, count);
	return abi;
}

static int read_events(struct srecreader *r)
{
	static const unsigned int abi_sizes[] = SCHEDREC_RECORD_SIZES;
	struct srec_event abi[SCHEDREC_REC_MAX];
	const unsigned char *data;
	const char *damage;
	uint32_t count, i;
	int entry_size;

	if (r->events)
		return header_fail(r, -EBADMSG,
				   "corrupt header: a second event table at offset %llu",
				   (unsigned long long)r->sect.offset);
	entry_size = table_count(r, "event table", sizeof(struct srec_event),
				 UINT16_MAX, &count);
	if (entry_size < 0)
		return entry_size;
	data = header_data(r, &damage);
	if (!data && damage) {
		data = abi_events_instead(r, damage, count, abi);
		entry_size = sizeof(*abi);
	}
	if (!data)
		return r->error;
	r->events = calloc(count ? count : 1, sizeof(*r->events));
	if (!r->events)
		return header_fail(r, -ENOMEM, "no memory for the event table");
	for (i = 0; i < count; i++) {
		struct srec_event *ev = &r->events[i];

		memcpy(ev, data + (size_t)i * entry_size, sizeof(*ev));
		ev->name[sizeof(ev->name) - 1] = '\0';
		ev->tracepoint[sizeof(ev->tracepoint) - 1] = '\0';
		if (!ev->id || ev->size % SCHEDREC_RECORD_ALIGN ||
		    (ev->id < 256 && r->types.size[ev->id] >= 0))
			return header_fail(r, -EBADMSG,
					   "corrupt header: event table entry %u (id %u, size %u)",
					   i, ev->id, ev->size);
		/* a type of ours is decoded as ours: never from fewer bytes */
		if (ev->id < ARRAY_SIZE(abi_sizes) && abi_sizes[ev->id] &&
		    ev->size < abi_sizes[ev->id])
			return header_fail(r, -EBADMSG,
					   "corrupt header: event table entry %u (id %u, size %u): records of that type have %u bytes",
					   i, ev->id, ev->size, abi_sizes[ev->id]);
		if (ev->id < 256)
			srecchunk_types_set(&r->types, ev->id, ev->size);
	}
	qsort(r->events, count, sizeof(*r->events), compare_event);
	for (i = 0; i < count; i++)
		if (r->events[i].id < 256)
			r->event_index[r->events[i].id] = i;
	r->info.events = r->events;
	r->info.nr_events = count;
	return 0;
}

static int read_threads(struct srecreader *r)
{
	const unsigned char *data;
	const char *damage;
	struct srec_thread *more;
	size_t have = r->info.nr_threads;
	uint32_t count, i;
	int entry_size;

	entry_size = table_count(r, "thread table",
				 sizeof(struct srec_thread),
				 SREC_THREADS_PER_SECTION, &count);
	if (entry_size < 0)
		return entry_size;
	if (have + count > READER_THREADS_MAX)
		return header_fail(r, -EBADMSG,
				   "corrupt header: more than %u threads",
				   READER_THREADS_MAX);
	data = header_data(r, &damage);
	if (!data)
		return damage ? header_lose(r, damage) : r->error;
	more = realloc(r->threads, (have + count + 1) * sizeof(*more));
	if (!more)
		return header_fail(r, -ENOMEM, "no memory for the threads");
	r->threads = more;
	for (i = 0; i < count; i++) {
		struct srec_thread *t = &r->threads[have + i];

		memcpy(t, data + (size_t)i * entry_size, sizeof(*t));
		t->comm[sizeof(t->comm) - 1] = '\0';
	}
	r->info.nr_threads = have + count;
	return 0;
}

/*
 * KSYMS: the kallsyms snapshot, inflated to exactly the length its head
 * says, which is bounded before anything is allocated for it.
 */
static int read_ksyms(struct srecreader *r)
{
	struct srec_ksyms_head head;
	const unsigned char *data;
	const char *damage;
	uLongf len;
	int ret;

	reader_copy_head(r, &head, sizeof(head));
	if (r->kallsyms || r->sect.frame.head_len < sizeof(head) ||
	    head.raw_len > SREC_KSYMS_MAX)
		return header_fail(r, -EBADMSG,
				   "corrupt header: %s kallsyms snapshot of %u bytes at offset %llu",
				   r->kallsyms ? "a second" : "a",
				   head.raw_len,
				   (unsigned long long)r->sect.offset);
	data = header_data(r, &damage);
	if (!data)
		return damage ? header_lose(r, damage) : r->error;
	r->kallsyms = malloc((size_t)head.raw_len + 1);
	if (!r->kallsyms)
		return header_fail(r, -ENOMEM,
				   "no memory for the kallsyms snapshot");
	len = head.raw_len;
	ret = uncompress((Bytef *)r->kallsyms, &len, data,
			 r->sect.frame.data_len);
	if (ret != Z_OK || len != head.raw_len)
		return header_fail(r, -EBADMSG,
				   "corrupt header: the kallsyms snapshot at offset %llu does not inflate to its %u bytes",
				   (unsigned long long)r->sect.offset,
				   head.raw_len);
	r->kallsyms[len] = '\0';
	r->info.kallsyms = r->kallsyms;
	r->info.kallsyms_len = len;
	r->info.kallsyms_flags = head.flags;
	return 0;
}

static int compare_tid(const void *a, const void *b)
{
	const struct srec_thread *ta = a, *tb = b;

	return (ta->tid > tb->tid) - (ta->tid < tb->tid);
}

/*
 * By tid; a tid listed twice (reused while the snapshot was taken) by its
 * process and name, so that which entry a lookup gives does not depend on
 * the sort.
 */
static int compare_thread(const void *a, const void *b)
{
	const struct srec_thread *ta = a, *tb = b;

	if (ta->tid != tb->tid)
		return compare_tid(a, b);
	if (ta->tgid != tb->tgid)
		return (ta->tgid > tb->tgid) - (ta->tgid < tb->tgid);
	return memcmp(ta->comm, tb->comm, sizeof(ta->comm));
}

/* Whether a section of @type may only come after the header. */
static bool record_section(uint16_t type)
{
	return type == SREC_SEC_CHUNK || type == SREC_SEC_SYNC ||
	       type == SREC_SEC_TRAILER;
}

/*
 * The frame of the header section at r->sect.offset is damaged (@why):
 * its type and lengths cannot be trusted.  Go on from the next sound
 * frame, looked for 8 bytes at a time, and say what the section seems to
 * have been by its type, the only guess there is.  1 if that frame is of
 * the records (the header's end was lost with it): the header ends there.
 * 0, or the failure (in strict mode, at once).
 */
static int header_resync(struct srecreader *r, const char *why)
{
	unsigned long long start = r->sect.offset;
	uint16_t type = r->sect.frame.type;
	enum section_status status;
	struct srec_frame frame;
	char guess[192];
	unsigned int lost;
	const char *loss;

	if (r->opt.strict)
		return header_fail(r, -EBADMSG,
				   "corrupt header: the section at offset %llu is damaged (%s)",
				   start, why);
	status = reader_find_frame(r, &frame);
	if (status == SECTION_READ_ERROR)
		return header_fail(r, r->in.error, "read error: %s",
				   strerror(-r->in.error));
	if (status != SECTION_OK)
		return header_fail(r, -EBADMSG,
				   "corrupt header: the section at offset %llu is damaged (%s), and no sound section follows it",
				   start, why);
	loss = section_loss(type, &lost);
	if (type == SREC_SEC_THREADS || type == SREC_SEC_KSYMS ||
	    type == SREC_SEC_HEADER_END) {
		snprintf(guess, sizeof(guess), "by its type, it was the %s: %s",
			 section_name(type), loss);
	} else {
		lost = SRECREADER_LOST_OTHER;
		snprintf(guess, sizeof(guess),
			 "its type (%u) cannot be trusted: what it held is not known (it may have held names of threads from before the recording)",
			 type);
	}
	r->status.corrupt++;
	r->status.resyncs++;
	r->status.header_lost |= lost;
	r->sect.header_resync = start;
	reader_warn(r, start,
		    "corrupt header section skipped: the section at offset %llu is damaged (%s); skipped %llu bytes, to the section at offset %llu; %s",
		    start, why,
		    (unsigned long long)(r->in.offset - start),
		    (unsigned long long)r->in.offset, guess);
	return record_section(frame.type);
}

/* The header sections after FILE, up to HEADER_END. */
static int read_header_tables(struct srecreader *r)
{
	enum section_status status;
	const char *damage;
	char why[128];
	int ret = 0;

	for (;;) {
		status = reader_read_frame(r, why, sizeof(why));
		if (status == SECTION_READ_ERROR)
			return header_fail(r, r->in.error, "read error: %s",
					   strerror(-r->in.error));
		if (status == SECTION_END || status == SECTION_TRUNCATED)
			return header_cut(r, r->sect.offset);
		if (status == SECTION_DAMAGED) {
			ret = header_resync(r, why);
			if (ret)
				return ret < 0 ? ret : 0;
			continue;
		}
		switch (r->sect.frame.type) {
		case SREC_SEC_EVENTS:
			ret = read_events(r);
			break;
		case SREC_SEC_THREADS:
			ret = read_threads(r);
			break;
		case SREC_SEC_KSYMS:
			ret = read_ksyms(r);
			break;
		case SREC_SEC_HEADER_END:
			if (header_data(r, &damage))
				return 0;
			return damage ? header_lose(r, damage) : r->error;
		case SREC_SEC_FILE:
		case SREC_SEC_CHUNK:
		case SREC_SEC_SYNC:
		case SREC_SEC_TRAILER:
			return header_fail(r, -EBADMSG,
					   "corrupt header: section of type %u at offset %llu before the end of the header",
					   r->sect.frame.type,
					   (unsigned long long)r->sect.offset);
		default:
			/* a newer minor version's: skip it */
			r->status.unknown++;
			status = reader_read_data(r, NULL);
			if (status == SECTION_DAMAGED)
				ret = header_lose(r, "has padding that is not zeros");
			else if (status != SECTION_OK)
				ret = header_cut(r, r->sect.offset);
			break;
		}
		if (ret)
			return ret;
	}
}

/* No event table: the records cannot be decoded. */
static int no_events(struct srecreader *r)
{
	if (r->sect.header_resync != UINT64_MAX)
		return header_fail(r, -EBADMSG,
				   "corrupt header: no event table, which the damaged section at offset %llu may have been: it gives the size of every type of record, and the records cannot be decoded without it",
				   (unsigned long long)r->sect.header_resync);
	return header_fail(r, -EBADMSG,
			   "corrupt header: no event table: it gives the size of every type of record, and the records cannot be decoded without it");
}

static int read_header(struct srecreader *r)
{
	enum section_status status;
	char why[128];
	int ret;

	ret = check_identity(r);
	if (ret)
		return ret;
	status = reader_read_frame(r, why, sizeof(why));
	if (status == SECTION_TRUNCATED)
		return header_cut(r, 0);
	if (status != SECTION_OK)
		return header_fail(r, -EBADMSG,
				   "corrupt header: the FILE section at offset 0 is damaged (%s): it gives the CPUs, the clock and the options of the recording, and the records cannot be read without it",
				   why);
	ret = read_file_section(r);
	if (!ret)
		ret = read_header_tables(r);
	if (ret)
		return ret;
	if (!r->events)
		return no_events(r);
	if (r->info.nr_threads)
		qsort(r->threads, r->info.nr_threads, sizeof(*r->threads),
		      compare_thread);
	r->info.threads = r->threads;
	if (r->info.online[0] && parse_online(r, r->info.online)) {
		free(r->online);
		r->online = NULL;
		reader_warn(r, 0, "the online CPU list \"%.64s\" is unreadable",
			    r->info.online);
	}
	if (r->info.file.abi_version != SCHEDREC_ABI_VERSION)
		reader_warn(r, 0,
			    "recorded with module ABI version %u, this reader knows %u",
			    r->info.file.abi_version, SCHEDREC_ABI_VERSION);
	return 0;
}

/* A reader of @fd, or if @fd is -1 of the @len bytes at @data. */
static struct srecreader *reader_new(int fd, const void *data, size_t len,
				     const struct srecreader_options *opt)
{
	struct srecreader *r = calloc(1, sizeof(*r));
	unsigned int i;
	int ret;

	if (!r)
		return NULL;
	r->own_fd = -1;
	r->keep_from = UINT64_MAX;
	r->sect.header_resync = UINT64_MAX;
	if (opt)
		r->opt = *opt;
	srecchunk_types_init(&r->types);
	for (i = 0; i < 256; i++)
		r->event_index[i] = -1;
	if (fd >= 0)
		ret = srecinput_init(&r->in, fd, READER_INPUT_SIZE);
	else
		ret = srecinput_init_mem(&r->in, data, len, READER_INPUT_SIZE);
	if (ret) {
		free(r);
		return NULL;
	}
	return r;
}

/* Read @r's header; @r, or NULL after closing it, as open does. */
static struct srecreader *reader_start(struct srecreader *r, char *err,
				       size_t err_size)
{
	int ret;

	if (!r) {
		snprintf(err, err_size, "no memory");
		errno = ENOMEM;
		return NULL;
	}
	ret = read_header(r);
	if (!ret)
		ret = reader_merge_init(r);
	r->series.start_ns = r->info.file.start_mono_ns;
	if (ret) {
		snprintf(err, err_size, "%s", r->error ? r->message :
			 "no memory");
		srecreader_close(r);
		errno = -ret;
		return NULL;
	}
	return r;
}

struct srecreader *srecreader_open_fd(int fd,
				      const struct srecreader_options *opt,
				      char *err, size_t err_size)
{
	return reader_start(reader_new(fd, NULL, 0, opt), err, err_size);
}

struct srecreader *srecreader_open_mem(const void *data, size_t len,
				       const struct srecreader_options *opt,
				       char *err, size_t err_size)
{
	return reader_start(reader_new(-1, data, len, opt), err, err_size);
}

struct srecreader *srecreader_open(const char *path,
				   const struct srecreader_options *opt,
				   char *err, size_t err_size)
{
	struct srecreader *r;
	int fd, saved;

	if (!strcmp(path, "-"))
		return srecreader_open_fd(STDIN_FILENO, opt, err, err_size);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		saved = errno;
		snprintf(err, err_size, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	r = srecreader_open_fd(fd, opt, err, err_size);
	if (!r) {
		saved = errno;
		close(fd);
		errno = saved;
		return NULL;
	}
	r->own_fd = fd;
	return r;
}

int srecreader_add_file(struct srecreader *r, const char *path)
{
	char **paths, *copy = strdup(path);

	paths = copy ? realloc(r->series.paths,
			       (r->series.nr + 1) * sizeof(*paths)) : NULL;
	if (!paths) {
		free(copy);
		return -ENOMEM;
	}
	paths[r->series.nr++] = copy;
	r->series.paths = paths;
	return 0;
}

/* Why @next's header says it is not of @r's recording; NULL if it may be. */
static const char *other_recording(const struct srecreader *r,
				   const struct srecreader *next)
{
	const struct srec_file_head *a = &r->info.file, *b = &next->info.file;

	if (!(b->flags & SREC_FILE_F_CONTINUED))
		return "it is the first file of a recording, not one that continues another";
	if (b->nr_cpus != a->nr_cpus)
		return "it has another number of CPUs";
	/* a host name lost to damage tells nothing */
	if (b->drainer_pid != a->drainer_pid ||
	    (!((r->status.header_lost | next->status.header_lost) &
	       SRECREADER_LOST_STRINGS) &&
	     strcmp(next->info.hostname, r->info.hostname)))
		return "another drainer or host wrote it";
	if (b->start_mono_ns < a->start_mono_ns)
		return "it began before the first file: give the files in the order they were written (sort -V)";
	/* the chunks still queued from the files before are checked by ours */
	if (memcmp(&next->types, &r->types, sizeof(r->types)))
		return "its event table gives other record types or sizes";
	return NULL;
}

int srecreader_check_file(const struct srecreader *r, const char *path,
			  char *err, size_t err_size)
{
	struct srecreader_options opt = r->opt;
	struct srecreader *next;
	const char *why;
	int ret = 0;

	opt.diag = NULL;	/* its warnings come when it is read */
	next = srecreader_open(path, &opt, err, err_size);
	if (!next)
		return errno ? -errno : -EIO;
	why = other_recording(r, next);
	if (why) {
		snprintf(err, err_size,
			 "%s does not continue the recording: %s", path, why);
		ret = -EPROTO;
	}
	srecreader_close(next);
	return ret;
}

/* Whether @next continues the series @r has read so far. */
static bool continues_series(struct srecreader *r,
			     const struct srecreader *next, const char *path)
{
	const char *why = other_recording(r, next);

	if (!why && (next->info.file.start_mono_ns < r->series.start_ns ||
		     (r->trailer.present && next->info.file.start_mono_ns <
					    r->trailer.head.end_mono_ns)))
		why = "it began before the file before it ended: give the files in the order they were written (sort -V)";
	if (!why)
		return true;
	reader_fail(r, -EPROTO, 0, "%s does not continue the recording: %s",
		    path, why);
	return false;
}

/* The ended file's mapping stays for the chunks queued from it. */
static bool keep_map(struct srecreader *r)
{
	struct srecinput_map **maps;

	if (!r->in.map)
		return true;
	maps = realloc(r->series.old_maps,
		       (r->series.nr_old_maps + 1) * sizeof(*maps));
	if (!maps) {
		reader_fail(r, -ENOMEM, 0, "no memory");
		return false;
	}
	r->series.old_maps = maps;
	maps[r->series.nr_old_maps++] = srecinput_detach_map(&r->in);
	return true;
}

bool reader_next_file(struct srecreader *r)
{
	struct srecreader_options opt = r->opt;
	struct srecreader *next;
	char err[512], *path;
	unsigned int cpu;
	bool named;

	if (r->series.next >= r->series.nr)
		return false;
	path = r->series.paths[r->series.next++];
	opt.max_buffered = 0;
	next = srecreader_open(path, &opt, err, sizeof(err));
	if (!next) {
		/* named: the diagnostics name the file before it */
		named = !strncmp(err, path, strlen(path));
		reader_fail(r, errno ? -errno : -EIO, 0, "%s%s%s",
			    named ? "" : path, named ? "" : ": ", err);
		return false;
	}
	if (!continues_series(r, next, path)) {
		srecreader_close(next);
		return false;
	}
	if (!r->series.totals) {
		r->series.totals = calloc(r->nr_cpus,
					  sizeof(*r->series.totals));
		if (!r->series.totals) {
			srecreader_close(next);
			reader_fail(r, -ENOMEM, 0, "no memory");
			return false;
		}
	}
	/* the trailer of the file that ended counts towards the whole */
	for (cpu = 0; r->trailer.present && cpu < r->nr_cpus; cpu++) {
		r->series.totals[cpu].records += r->trailer.totals[cpu].records;
		r->series.totals[cpu].lost += r->trailer.totals[cpu].lost;
		r->series.totals[cpu].gaps += r->trailer.totals[cpu].gaps;
	}
	/* its input, and the record types it declares, become ours */
	if (!keep_map(r)) {
		srecreader_close(next);
		return false;
	}
	srecinput_free(&r->in);
	if (r->own_fd >= 0)
		close(r->own_fd);
	r->in = next->in;
	r->own_fd = next->own_fd;
	memset(&next->in, 0, sizeof(next->in));
	next->own_fd = -1;
	r->types = next->types;
	r->series.start_ns = next->info.file.start_mono_ns;
	/* what its header lost, its warnings said */
	r->status.header_lost |= next->status.header_lost;
	r->status.corrupt += next->status.corrupt;
	r->status.resyncs += next->status.resyncs;
	r->status.warnings += next->status.warnings;
	srecreader_close(next);
	r->done = false;
	r->trailer.present = false;
	r->trailer.damaged = false;
	r->status.eof = false;
	r->status.trailer = false;
	r->status.file++;
	return true;
}

void srecreader_close(struct srecreader *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < r->series.nr; i++)
		free(r->series.paths[i]);
	free(r->series.paths);
	free(r->series.totals);
	reader_merge_free(r);
	if (r->own_fd >= 0)
		close(r->own_fd);
	srecinput_free(&r->in);
	for (i = 0; i < r->series.nr_old_maps; i++)
		srecinput_map_free(r->series.old_maps[i]);
	free(r->series.old_maps);
	free(r->sect.scratch);
	free(r->strings);
	free(r->events);
	free(r->threads);
	free(r->kallsyms);
	free(r->online);
	free(r);
}

const struct srecreader_info *srecreader_info(const struct srecreader *r)
{
	return &r->info;
}

const struct srec_event *srecreader_event(const struct srecreader *r,
					  unsigned int type)
{
	if (type >= 256 || r->event_index[type] < 0)
		return NULL;
	return &r->events[r->event_index[type]];
}

const struct srec_thread *
srecreader_info_thread(const struct srecreader_info *info, uint32_t tid)
{
	struct srec_thread key = { .tid = tid };
	const struct srec_thread *t, *end;

	/* no snapshot: threads is NULL, which takes no offset, not even 0 */
	if (!info->nr_threads)
		return NULL;
	end = info->threads + info->nr_threads;
	t = bsearch(&key, info->threads, info->nr_threads,
		    sizeof(*info->threads), compare_tid);
	/* listed twice: the last entry of its tid */
	while (t && t + 1 < end && t[1].tid == tid)
		t++;
	return t;
}

const struct srec_thread *srecreader_thread(const struct srecreader *r,
					    uint32_t tid)
{
	return srecreader_info_thread(&r->info, tid);
}

bool srecreader_cpu_online(const struct srecreader *r, unsigned int cpu)
{
	if (cpu >= r->nr_cpus)
		return false;
	return !r->online || (r->online[cpu / 8] & (1u << (cpu % 8)));
}

const struct srecreader_status *srecreader_status(const struct srecreader *r)
{
	return &r->status;
}

const char *srecreader_error(const struct srecreader *r)
{
	return r->error ? r->message : "";
}
