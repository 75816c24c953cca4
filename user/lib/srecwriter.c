// SPDX-License-Identifier: GPL-2.0
/*
 * The .srec writer; see srecwriter.h and doc/srec-format.md.
 *
 * Every section goes out in one writev() loop, built from pieces that are
 * already in memory (the caller's records included), so a section is never
 * staged in a buffer of its own and the only copy of a raw chunk is the
 * kernel's.  With options.direct the kernel copies nothing: sections are
 * staged and written with O_DIRECT in whole blocks, the one copy being
 * ours.  Memory is allocated once, by srecwriter_open().
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "ringreader.h"
#include "srecchunk.h"
#include "sreccrc.h"
#include "srecwriter.h"
#include "util.h"

/* Data pieces of one section: the most the header's FILE section uses. */
#define SECTION_PIECES	8

/* options.reserve: the file's blocks are allocated this far ahead */
#define RESERVE_AHEAD	(256u << 10)

/* options.direct: the buffer sections are staged in */
#define STAGE_SIZE	(2 * SRECWRITER_DIRECT_BLOCK)

enum writer_state {
	WRITER_OPEN,		/* nothing written yet */
	WRITER_RECORDING,	/* header written */
	WRITER_DONE,		/* trailer written */
};

struct writer_cpu {
	struct ringreader_seq seq;	/* 64-bit numbers and gaps */
	uint64_t pending_filtered;	/* for the next chunk */
	bool rebase;			/* a continued file: the next record
					 * starts this file's count, no gap
					 */
};

struct srecwriter {
	int fd;
	struct srec_allocator allocator;
	unsigned int nr_cpus;
	uint32_t chunk_max;
	int zlib_level;
	enum writer_state state;
	int error;			/* sticky write error, or 0 */
	char message[256];
	uint64_t bytes;
	uint64_t good_bytes;		/* up to the last complete section */
	uint64_t chunks;
	uint32_t file_flags;
	unsigned int files;		/* files begun before this one */

	/* where the file began in the fd; whether it can be cut back */
	bool seekable;
	uint64_t base;
	/* options.reserve: bytes allocated from base, room for the trailer */
	bool want_reserve;
	bool reserve;
	uint64_t reserved;
	uint64_t trailer_len;
	/*
	 * options.direct: bytes [stage_pos, bytes) of the file are staged;
	 * stage_pos is a multiple of SRECWRITER_DIRECT_ALIGN and all before
	 * it is written.  stage_since: when staged bytes not yet in the file
	 * came (a round's start), or 0.
	 */
	bool want_direct;
	bool direct;
	void *stage_mem;
	unsigned char *stage;
	size_t stage_len;
	uint64_t stage_pos;
	uint64_t stage_since;

	/* record sizes by type from the event table; -1: not in it */
	int type_size[256];

	struct writer_cpu *cpus;
	struct srec_cpu_total *totals;	/* the trailer's data */
	struct srec_cpu_total *recording;	/* over every file */

	z_stream zstream;
	bool zstream_ready;
	unsigned char *zbuf;
	size_t zbuf_size;

	/* SYNC: starts of the last two rounds, rounds since a chunk */
	uint64_t round_start[2];
	unsigned int rounds;
	unsigned int rounds_idle;
	uint64_t horizon;
	uint64_t newest_ts;		/* of the records written */
};

static void *default_alloc(size_t size, void *arg)
{
	(void)arg;
	return malloc(size);
}

static void default_free(void *ptr, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	free(ptr);
}

static const struct srec_allocator malloc_allocator = {
	.alloc = default_alloc,
	.free = default_free,
};

static void *writer_alloc(const struct srec_allocator *a, size_t size)
{
	void *ptr = a->alloc(size, a->arg);

	if (ptr)
		memset(ptr, 0, size);
	return ptr;
}

/*
 * zlib frees without saying how much: keep the size in front of each of
 * its blocks, 16 bytes so the block stays aligned as malloc's would be.
 */
#define ZLIB_PREFIX	16

static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size)
{
	struct srecwriter *w = opaque;
	size_t bytes = (size_t)items * size + ZLIB_PREFIX;
	unsigned char *block = w->allocator.alloc(bytes, w->allocator.arg);

	if (!block)
		return Z_NULL;
	memcpy(block, &bytes, sizeof(bytes));
	return block + ZLIB_PREFIX;
}

static void zlib_free(voidpf opaque, voidpf address)
{
	struct srecwriter *w = opaque;
	unsigned char *block = (unsigned char *)address - ZLIB_PREFIX;
	size_t bytes;

	memcpy(&bytes, block, sizeof(bytes));
	w->allocator.free(block, bytes, w->allocator.arg);
}

static __printf(3, 4) int set_error(struct srecwriter *w, int err,
				     const char *fmt, ...);

static int set_error(struct srecwriter *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->message, sizeof(w->message), fmt, ap);
	va_end(ap);
	return err;
}

static int check_options(const struct srecwriter_options *opt)
{
	uint32_t chunk_max = opt->chunk_max;

	if (!opt->nr_cpus || opt->nr_cpus > SREC_CPUS_MAX)
		return -EINVAL;
	if (chunk_max && (chunk_max < SREC_CHUNK_MIN ||
			  chunk_max > SREC_CHUNK_LIMIT ||
			  chunk_max % SCHEDREC_RECORD_ALIGN))
		return -EINVAL;
	if (opt->zlib_level < 0 || opt->zlib_level > 9)
		return -EINVAL;
	return 0;
}

static int setup_zlib(struct srecwriter *w)
{
	w->zstream.zalloc = zlib_alloc;
	w->zstream.zfree = zlib_free;
	w->zstream.opaque = w;
	if (deflateInit(&w->zstream, w->zlib_level) != Z_OK)
		return -ENOMEM;
	w->zstream_ready = true;
	w->zbuf_size = deflateBound(&w->zstream, w->chunk_max);
	w->zbuf = w->allocator.alloc(w->zbuf_size, w->allocator.arg);
	return w->zbuf ? 0 : -ENOMEM;
}

static int set_direct(int fd, bool on)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return -errno;
	flags = on ? flags | O_DIRECT : flags & ~O_DIRECT;
	return fcntl(fd, F_SETFL, flags) ? -errno : 0;
}

/*
 * Begin a file on @fd: where it starts in the fd, and whether it is a
 * regular file, which can be cut back after a failed write, have its
 * blocks allocated ahead and be written with O_DIRECT (from an aligned
 * offset, where the file system takes it).
 */
static void attach_fd(struct srecwriter *w, int fd)
{
	struct stat st;
	off_t off;
	int flags;

	w->fd = fd;
	w->bytes = 0;
	w->good_bytes = 0;
	w->reserved = 0;
	off = lseek(fd, 0, SEEK_CUR);
	w->seekable = off >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode);
	w->base = w->seekable ? off : 0;
	w->reserve = w->want_reserve && w->seekable;
	w->stage_len = 0;
	w->stage_pos = 0;
	w->stage_since = 0;
	/* pwrite() on an O_APPEND file appends: not for us */
	flags = fcntl(fd, F_GETFL);
	w->direct = w->want_direct && w->seekable && flags >= 0 &&
		    !(flags & O_APPEND) &&
		    !(w->base % SRECWRITER_DIRECT_ALIGN) && !set_direct(fd, true);
}

/* Give back the blocks allocated ahead, past what is written. */
static void release_reserve(struct srecwriter *w)
{
	if (!w->reserve || w->reserved <= w->bytes)
		return;
	/* even at the same size, a truncate drops the blocks past the end */
	if (!ftruncate(w->fd, w->base + w->bytes))
		w->reserved = w->bytes;
}

static int try_allocate(struct srecwriter *w, uint64_t len)
{
	int ret;

	do {
		ret = fallocate(w->fd, FALLOC_FL_KEEP_SIZE, w->base + w->bytes,
				len);
	} while (ret && errno == EINTR);
	if (ret)
		return -errno;
	w->reserved = w->bytes + len;
	return 0;
}

/*
 * options.reserve: before a section of @len bytes goes out, have the
 * file's blocks allocated up to its end and the trailer's length past it.
 * A full disk is then found here, at a section boundary, while the room
 * for the trailer is still held: srecwriter_salvage() can end the file.
 */
static int keep_room(struct srecwriter *w, uint64_t len)
{
	uint64_t need = len + w->trailer_len;
	int ret;

	if (!w->reserve || w->bytes + need <= w->reserved)
		return 0;
	ret = try_allocate(w, need + RESERVE_AHEAD);
	if (ret == -ENOSPC || ret == -EDQUOT)
		ret = try_allocate(w, need);
	if (!ret)
		return 0;
	if (ret != -ENOSPC && ret != -EDQUOT && ret != -EFBIG) {
		/* a file system that cannot allocate ahead: write without */
		w->reserve = false;
		return 0;
	}
	w->error = ret;
	return set_error(w, ret,
			 "%s after %llu bytes (the next section, %llu bytes, did not fit)",
			 strerror(-ret), (unsigned long long)w->bytes,
			 (unsigned long long)len);
}

/* A write failed: 0 is never returned, the error sticks. */
static int write_failed(struct srecwriter *w, int err)
{
	w->error = err;
	return set_error(w, err, "write failed after %llu bytes: %s",
			 (unsigned long long)w->bytes, strerror(-err));
}

/* The first @len bytes staged are in the file: let them go. */
static void stage_drop(struct srecwriter *w, size_t len)
{
	memmove(w->stage, w->stage + len, w->stage_len - len);
	w->stage_len -= len;
	w->stage_pos += len;
	if (!w->stage_len)
		w->stage_since = 0;
}

/*
 * Write the first @len bytes staged where they belong in the file.  What
 * a failed write put in the file is let go of: the stage then starts at
 * the end of the file (and may no longer be aligned: only salvage and
 * close write after a failure).  Returns 0 or -errno.
 */
static int stage_write(struct srecwriter *w, size_t len)
{
	size_t done = 0;
	ssize_t n;
	int ret = 0;

	while (done < len) {
		n = pwrite(w->fd, w->stage + done, len - done,
			   w->base + w->stage_pos + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n ? -errno : -EIO;
			break;
		}
		done += n;
	}
	if (ret)
		stage_drop(w, done);
	return ret;
}

/*
 * Stop writing with O_DIRECT: what is staged goes out through the page
 * cache, and the fd's offset is where the next section goes.
 */
static int direct_end(struct srecwriter *w)
{
	uint64_t end = w->base + w->stage_pos + w->stage_len;
	int ret;

	if (!w->direct)
		return 0;
	w->direct = false;
	ret = set_direct(w->fd, false);
	if (!ret)
		ret = stage_write(w, w->stage_len);
	if (!ret && lseek(w->fd, end, SEEK_SET) != (off_t)end)
		ret = -errno;
	if (ret)
		return write_failed(w, ret);
	stage_drop(w, w->stage_len);
	return 0;
}

/* Write the whole blocks staged with O_DIRECT; the rest stays staged. */
static int stage_flush(struct srecwriter *w)
{
	size_t len = w->stage_len & ~(size_t)(SRECWRITER_DIRECT_ALIGN - 1);
	int ret;

	if (!len)
		return 0;
	ret = stage_write(w, len);
	/* a file system that wants another alignment: do without */
	if (ret == -EINVAL)
		return direct_end(w);
	if (ret)
		return write_failed(w, ret);
	stage_drop(w, len);
	return 0;
}

/*
 * Have every staged byte in the file: the whole blocks with O_DIRECT, the
 * last part of a block through the page cache.  That part stays staged:
 * the next O_DIRECT write starts at its block and writes it again.
 */
static int stage_sync(struct srecwriter *w)
{
	int ret = stage_flush(w);

	if (ret || !w->direct || !w->stage_len)
		return ret;
	ret = set_direct(w->fd, false);
	if (!ret)
		ret = stage_write(w, w->stage_len);
	if (!ret)
		ret = set_direct(w->fd, true);
	if (ret)
		return write_failed(w, ret);
	w->stage_since = 0;
	return 0;
}

int srecwriter_open(struct srecwriter **wp, int fd,
		    const struct srecwriter_options *opt)
{
	const struct srec_allocator *a = opt->allocator;
	struct srecwriter *w;
	int ret;

	*wp = NULL;
	ret = check_options(opt);
	if (ret)
		return ret;
	if (!a)
		a = &malloc_allocator;
	w = writer_alloc(a, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->allocator = *a;
	w->nr_cpus = opt->nr_cpus;
	w->want_reserve = opt->reserve;
	if (opt->direct) {
		w->stage_mem = a->alloc(STAGE_SIZE + SRECWRITER_DIRECT_ALIGN,
					a->arg);
		if (!w->stage_mem) {
			a->free(w, sizeof(*w), a->arg);
			return -ENOMEM;
		}
		w->stage = (void *)(((uintptr_t)w->stage_mem +
				     SRECWRITER_DIRECT_ALIGN - 1) &
				    ~(uintptr_t)(SRECWRITER_DIRECT_ALIGN - 1));
		w->want_direct = true;
	}
	attach_fd(w, fd);
	w->trailer_len = sizeof(struct srec_frame) +
			 sizeof(struct srec_trailer_head) +
			 (uint64_t)w->nr_cpus * sizeof(struct srec_cpu_total);
	w->chunk_max = opt->chunk_max ? opt->chunk_max :
		       SRECWRITER_CHUNK_DEFAULT;
	w->zlib_level = opt->zlib_level;
	w->cpus = writer_alloc(a, w->nr_cpus * sizeof(*w->cpus));
	w->totals = writer_alloc(a, w->nr_cpus * sizeof(*w->totals));
	w->recording = writer_alloc(a, w->nr_cpus * sizeof(*w->recording));
	ret = -ENOMEM;
	if (!w->cpus || !w->totals || !w->recording)
		goto fail;
	if (w->zlib_level) {
		ret = setup_zlib(w);
		if (ret)
			goto fail;
	}
	*wp = w;
	return 0;
fail:
	srecwriter_close(w);
	return ret;
}

void srecwriter_close(struct srecwriter *w)
{
	struct srec_allocator a;

	if (!w)
		return;
	a = w->allocator;
	if (w->zstream_ready)
		deflateEnd(&w->zstream);
	if (w->zbuf)
		a.free(w->zbuf, w->zbuf_size, a.arg);
	if (w->cpus)
		a.free(w->cpus, w->nr_cpus * sizeof(*w->cpus), a.arg);
	if (w->totals)
		a.free(w->totals, w->nr_cpus * sizeof(*w->totals), a.arg);
	if (w->recording)
		a.free(w->recording, w->nr_cpus * sizeof(*w->recording),
		       a.arg);
	/* what is staged goes out, and the fd is as it was given */
	direct_end(w);
	if (w->stage_mem)
		a.free(w->stage_mem, STAGE_SIZE + SRECWRITER_DIRECT_ALIGN,
		       a.arg);
	release_reserve(w);
	a.free(w, sizeof(*w), a.arg);
}

bool srecwriter_direct(const struct srecwriter *w)
{
	return w->direct;
}

/* Wait until @fd takes more: for a non-blocking descriptor. */
static int wait_writable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	while (poll(&pfd, 1, -1) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/*
 * options.direct: copy @iov into the stage (consuming it), writing whole
 * blocks once there are SRECWRITER_DIRECT_BLOCK bytes.  Stops early if
 * the file system refuses O_DIRECT: the rest of @iov is then the caller's
 * to write.  Returns the number of pieces left, or -errno.
 */
static int stage_iov(struct srecwriter *w, struct iovec *iov, int count)
{
	int ret;

	if (!w->stage_since)
		w->stage_since = w->round_start[1] ? w->round_start[1] : 1;
	while (count && w->direct) {
		size_t n = STAGE_SIZE - w->stage_len;

		if (n > iov->iov_len)
			n = iov->iov_len;
		memcpy(w->stage + w->stage_len, iov->iov_base, n);
		w->stage_len += n;
		w->bytes += n;
		iov->iov_base = (char *)iov->iov_base + n;
		iov->iov_len -= n;
		if (!iov->iov_len) {
			iov++;
			count--;
		}
		if (w->stage_len == STAGE_SIZE || (!count &&
		    w->stage_len >= SRECWRITER_DIRECT_BLOCK)) {
			ret = stage_flush(w);
			if (ret)
				return ret;
		}
	}
	return count;
}

/* Write all of @iov (which it consumes); 0 or a sticky -errno. */
static int write_all(struct srecwriter *w, struct iovec *iov, int count)
{
	if (w->direct) {
		int left = stage_iov(w, iov, count);

		if (left <= 0)
			return left;
		iov += count - left;
		count = left;
	}
	while (count) {
		ssize_t done = writev(w->fd, iov, count);
		int err;

		if (done < 0) {
			err = errno;
			if (err == EINTR)
				continue;
			if (err == EAGAIN && !wait_writable(w->fd))
				continue;
			return write_failed(w, -err);
		}
		w->bytes += done;
		while (count && (size_t)done >= iov->iov_len) {
			done -= iov->iov_len;
			iov++;
			count--;
		}
		if (count) {
			iov->iov_base = (char *)iov->iov_base + done;
			iov->iov_len -= done;
		}
	}
	return 0;
}

/*
 * Write one section: frame, @head (@head_len bytes, a multiple of 8), the
 * @nr_pieces pieces of data, and the padding.
 */
static int write_section(struct srecwriter *w, uint16_t type,
			 const void *head, uint32_t head_len,
			 const struct iovec *pieces, int nr_pieces)
{
	static const unsigned char zeros[SREC_ALIGN];
	struct iovec iov[SECTION_PIECES + 3];
	uint64_t pad = 0;
	int ret;
	struct srec_frame frame = {
		.magic = SREC_MAGIC,
		.type = type,
		.head_len = head_len,
	};
	uint64_t data_len = 0;
	uint32_t crc = 0;
	int count = 0, i;

	if (w->error)
		return w->error;
	iov[count].iov_base = &frame;
	iov[count++].iov_len = sizeof(frame);
	if (head_len) {
		iov[count].iov_base = (void *)head;
		iov[count++].iov_len = head_len;
	}
	for (i = 0; i < nr_pieces; i++) {
		if (!pieces[i].iov_len)
			continue;
		crc = srec_crc32(crc, pieces[i].iov_base, pieces[i].iov_len);
		data_len += pieces[i].iov_len;
		iov[count++] = pieces[i];
	}
	if (data_len > SREC_DATA_MAX)
		return set_error(w, -EINVAL,
				 "section of %llu bytes is too long",
				 (unsigned long long)data_len);
	if (data_len % SREC_ALIGN) {
		pad = SREC_ALIGN - data_len % SREC_ALIGN;
		iov[count].iov_base = (void *)zeros;
		iov[count++].iov_len = pad;
	}
	frame.data_len = data_len;
	frame.data_crc = crc;
	crc = srec_crc32(0, &frame, SREC_FRAME_CRC_LEN);
	crc = srec_crc32(crc, head, head_len);
	frame.head_crc = crc;
	/* the trailer goes into the room kept for it */
	if (type != SREC_SEC_TRAILER) {
		ret = keep_room(w, sizeof(frame) + head_len + data_len + pad);
		if (ret)
			return ret;
	}
	ret = write_all(w, iov, count);
	if (!ret)
		w->good_bytes = w->bytes;
	return ret;
}

/* Learn record sizes from the event table, checking it as a reader will. */
static int learn_events(struct srecwriter *w, const struct srec_event *events,
			unsigned int count)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		w->type_size[i] = -1;
	for (i = 0; i < count; i++) {
		const struct srec_event *ev = &events[i];

		if (!ev->id || ev->id > 255 || w->type_size[ev->id] >= 0 ||
		    ev->size % SCHEDREC_RECORD_ALIGN)
			return set_error(w, -EINVAL,
					 "event table entry %u (id %u, size %u) is invalid",
					 i, ev->id, ev->size);
		w->type_size[ev->id] = ev->size;
	}
	return 0;
}

/* A string of the FILE section: a piece of data and its reference. */
static void add_string(struct srec_string *ref, const char *str,
		       struct iovec *pieces, int *nr_pieces, uint32_t *off)
{
	size_t len = str ? strlen(str) : 0;

	ref->off = *off;
	ref->len = len;
	pieces[*nr_pieces].iov_base = (void *)str;
	pieces[*nr_pieces].iov_len = len;
	(*nr_pieces)++;
	*off += len;
}

static int write_file_section(struct srecwriter *w,
			      const struct srecwriter_header *hdr)
{
	struct srec_file_head head = {
		.major = SREC_FORMAT_MAJOR,
		.minor = SREC_FORMAT_MINOR,
		.abi_version = hdr->abi_version ? hdr->abi_version :
			       SCHEDREC_ABI_VERSION,
		.nr_cpus = w->nr_cpus,
		.clock_id = CLOCK_MONOTONIC,
		.start_mono_ns = hdr->start_mono_ns,
		.start_real_ns = hdr->start_real_ns,
		.chunk_max = w->chunk_max,
		.drainer_cpu = hdr->drainer_cpu,
		.drainer_pid = hdr->drainer_pid,
		.drainer_tid = hdr->drainer_tid,
		.event_mask = hdr->event_mask,
		.mode = hdr->mode,
		.buf_kb = hdr->buf_kb,
		.flags = w->file_flags,
	};
	struct iovec pieces[SECTION_PIECES];
	int nr_pieces = 0;
	uint32_t off = 0;

	if (!head.start_mono_ns && !head.start_real_ns) {
		head.start_mono_ns = clock_ns(CLOCK_MONOTONIC);
		head.start_real_ns = clock_ns(CLOCK_REALTIME);
	}
	add_string(&head.release, hdr->release, pieces, &nr_pieces, &off);
	add_string(&head.version, hdr->version, pieces, &nr_pieces, &off);
	add_string(&head.machine, hdr->machine, pieces, &nr_pieces, &off);
	add_string(&head.hostname, hdr->hostname, pieces, &nr_pieces, &off);
	add_string(&head.online, hdr->online, pieces, &nr_pieces, &off);
	add_string(&head.cmdline, hdr->cmdline, pieces, &nr_pieces, &off);
	add_string(&head.filter, hdr->filter, pieces, &nr_pieces, &off);
	return write_section(w, SREC_SEC_FILE, &head, sizeof(head),
			     pieces, nr_pieces);
}

static int write_table(struct srecwriter *w, uint16_t type, const void *table,
		       uint32_t count, uint32_t entry_size)
{
	struct srec_table_head head = {
		.count = count,
		.entry_size = entry_size,
	};
	struct iovec piece = {
		.iov_base = (void *)table,
		.iov_len = (size_t)count * entry_size,
	};

	return write_section(w, type, &head, sizeof(head), &piece, 1);
}

static int write_threads(struct srecwriter *w,
			 const struct srec_thread *threads, size_t count)
{
	size_t done = 0;
	int ret = 0;

	while (!ret && done < count) {
		size_t part = count - done;

		if (part > SREC_THREADS_PER_SECTION)
			part = SREC_THREADS_PER_SECTION;
		ret = write_table(w, SREC_SEC_THREADS, threads + done, part,
				  sizeof(*threads));
		done += part;
	}
	return ret;
}

/* KSYMS: the caller's compressed /proc/kallsyms, if it gave one. */
static int write_ksyms(struct srecwriter *w,
		       const struct srecwriter_header *hdr)
{
	struct srec_ksyms_head head = {
		.raw_len = hdr->ksyms_raw_len,
		.flags = hdr->ksyms_flags,
	};
	struct iovec piece = {
		.iov_base = (void *)hdr->ksyms,
		.iov_len = hdr->ksyms_len,
	};

	if (!hdr->ksyms)
		return 0;
	return write_section(w, SREC_SEC_KSYMS, &head, sizeof(head), &piece,
			     1);
}

int srecwriter_write_header(struct srecwriter *w,
			    const struct srecwriter_header *hdr)
{
	struct srec_event abi_table[SCHEDREC_REC_MAX];
	const struct srec_event *events = hdr->events;
	unsigned int nr_events = hdr->nr_events;
	unsigned int cpu;
	int ret;

	if (w->error)
		return w->error;
	if (w->state != WRITER_OPEN)
		return set_error(w, -EINVAL, "the header is already written");
	if (hdr->ksyms && (hdr->ksyms_len > SREC_DATA_MAX ||
			   hdr->ksyms_raw_len > SREC_KSYMS_MAX))
		return set_error(w, -EINVAL,
				 "kallsyms snapshot of %u bytes (%u compressed) is too long",
				 hdr->ksyms_raw_len, hdr->ksyms_len);
	if (!events) {
		nr_events = srecchunk_abi_events(abi_table, hdr->event_mask);
		events = abi_table;
	}
	ret = learn_events(w, events, nr_events);
	if (ret)
		return ret;
	w->file_flags = hdr->flags;
	if (w->files)
		w->file_flags = (w->file_flags & ~SREC_FILE_F_FROM_START) |
				SREC_FILE_F_CONTINUED;
	for (cpu = 0; cpu < w->nr_cpus; cpu++) {
		w->totals[cpu].cpu = cpu;
		w->totals[cpu].kernel_written = SREC_COUNT_UNKNOWN;
		w->totals[cpu].kernel_lost = SREC_COUNT_UNKNOWN;
		if (w->files)
			continue;	/* the sequences go on */
		ringreader_seq_init(&w->cpus[cpu].seq,
				    hdr->flags & SREC_FILE_F_FROM_START ?
				    0 : RINGREADER_SEQ_ANY);
		w->recording[cpu] = w->totals[cpu];
	}
	ret = write_file_section(w, hdr);
	if (!ret)
		ret = write_table(w, SREC_SEC_EVENTS, events, nr_events,
				  sizeof(*events));
	if (!ret)
		ret = write_threads(w, hdr->threads, hdr->nr_threads);
	if (!ret)
		ret = write_ksyms(w, hdr);
	if (!ret)
		ret = write_section(w, SREC_SEC_HEADER_END, NULL, 0, NULL, 0);
	if (!ret)
		w->state = WRITER_RECORDING;
	return ret;
}

/* Check every record of the buffer before anything is written. */
static int check_records(struct srecwriter *w, unsigned int cpu,
			 const unsigned char *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const struct schedrec_header *rec = (const void *)(buf + pos);
		int expected;

		if (len - pos < sizeof(*rec))
			return set_error(w, -EBADMSG,
					 "cpu %u: %zu bytes left at byte %zu, less than a record header",
					 cpu, len - pos, pos);
		expected = w->type_size[rec->type];
		if (rec->size < sizeof(*rec) ||
		    rec->size % SCHEDREC_RECORD_ALIGN || rec->size > len - pos)
			return set_error(w, -EBADMSG,
					 "cpu %u: record at byte %zu has size %u",
					 cpu, pos, rec->size);
		if (expected < 0 || (expected && rec->size != expected))
			return set_error(w, -EBADMSG,
					 "cpu %u: record at byte %zu has type %u and size %u, not in the event table",
					 cpu, pos, rec->type, rec->size);
		if (!ringreader_stack_ok(rec))
			return set_error(w, -EBADMSG,
					 "cpu %u: STACK record at byte %zu: its count does not give its size %u",
					 cpu, pos, rec->size);
		pos += rec->size;
	}
	return 0;
}

/*
 * The records of one chunk: what its head says about them, and the CPU's
 * sequence accounting after them in *@seq (a copy, kept if it is written).
 * Returns the sequence numbers missing before them.
 */
static uint64_t describe_chunk(const unsigned char *buf, size_t len,
			       struct ringreader_seq *seq,
			       struct srec_chunk_head *head)
{
	uint64_t gaps = 0, lost_before = seq->lost;
	size_t pos;

	for (pos = 0; pos < len; ) {
		const struct schedrec_header *rec = (const void *)(buf + pos);
		uint64_t seq64;

		pos += rec->size;
		if (rec->type == SCHEDREC_REC_PAD)
			continue;
		gaps += ringreader_seq_account(seq, rec, &seq64);
		if (!head->count++) {
			head->first_seq = seq64;
			head->first_ts = rec->ts;
		}
		head->last_seq = seq64;
		head->last_ts = rec->ts;
	}
	head->lost = seq->lost - lost_before;
	return gaps;
}

/*
 * The first records of a CPU in a continued file (srecwriter_next_file()):
 * a reader of the file alone takes the first record's number as the start
 * of the count, as in a file that did not start from zero, so the writer
 * does too, starting from the true 64-bit number.  Returns the numbers
 * that no LOST record explains between the previous file and this one.
 */
static uint64_t rebase(struct ringreader_seq *seq, const unsigned char *buf,
		       size_t len)
{
	const struct schedrec_header *rec;
	uint64_t seq64, lost, start;
	size_t pos;

	if (seq->next == RINGREADER_SEQ_ANY)
		return 0;	/* the first record sets it anyway */
	for (pos = 0; pos < len; pos += rec->size) {
		rec = (const void *)(buf + pos);
		if (rec->type == SCHEDREC_REC_PAD)
			continue;
		lost = rec->type == SCHEDREC_REC_LOST ?
		       ((const struct schedrec_lost *)rec)->count : 0;
		seq64 = ringreader_seq_extend(seq->next, rec->seq);
		start = seq64 >= lost ? seq64 - lost : 0;
		lost = start > seq->next ? start - seq->next : 0;
		seq->next = start;
		return lost;
	}
	return 0;
}

/* Compress @len bytes of records into zbuf; the compressed size, or 0. */
static size_t compress_chunk(struct srecwriter *w, const void *buf, size_t len)
{
	z_stream *zs = &w->zstream;

	if (deflateReset(zs) != Z_OK)
		return 0;
	zs->next_in = (Bytef *)buf;
	zs->avail_in = len;
	zs->next_out = w->zbuf;
	zs->avail_out = w->zbuf_size;
	if (deflate(zs, Z_FINISH) != Z_STREAM_END)
		return 0;
	return zs->total_out;
}

static int write_chunk(struct srecwriter *w, unsigned int cpu,
		       const unsigned char *buf, size_t len)
{
	struct srec_chunk_head head = {
		.cpu = cpu,
		.raw_len = len,
	};
	struct srec_cpu_total *total = &w->totals[cpu];
	struct srec_cpu_total *all = &w->recording[cpu];
	struct iovec piece = { .iov_base = (void *)buf, .iov_len = len };
	struct ringreader_seq seq = w->cpus[cpu].seq;
	uint64_t gaps, between = 0;
	int ret;

	if (w->cpus[cpu].rebase)
		between = rebase(&seq, buf, len);
	gaps = describe_chunk(buf, len, &seq, &head);
	if (!head.count)
		return 0;	/* only PAD */
	if (head.last_ts > w->newest_ts)
		w->newest_ts = head.last_ts;
	if (w->zlib_level && len >= SRECWRITER_ZLIB_MIN) {
		size_t packed = compress_chunk(w, buf, len);

		/* data that does not shrink is stored as it is */
		if (packed && packed < len) {
			head.flags |= SREC_CHUNK_ZLIB;
			piece.iov_base = w->zbuf;
			piece.iov_len = packed;
		}
	}
	head.filtered = w->cpus[cpu].pending_filtered;
	ret = write_section(w, SREC_SEC_CHUNK, &head, sizeof(head), &piece, 1);
	if (ret)
		return ret;
	w->cpus[cpu].seq = seq;
	w->cpus[cpu].pending_filtered = 0;
	w->cpus[cpu].rebase = false;
	total->chunks++;
	total->records += head.count;
	total->bytes += len;
	total->lost += head.lost;
	total->gaps += gaps;
	all->chunks++;
	all->records += head.count;
	all->bytes += len;
	all->lost += head.lost;
	all->gaps += gaps + between;
	w->chunks++;
	w->rounds_idle = 0;
	return 0;
}

int srecwriter_append(struct srecwriter *w, unsigned int cpu,
		      const void *records, size_t len)
{
	const unsigned char *buf = records;
	size_t start = 0, pos = 0;
	int ret;

	if (w->error)
		return w->error;
	if (w->state != WRITER_RECORDING || cpu >= w->nr_cpus)
		return set_error(w, -EINVAL,
				 w->state == WRITER_RECORDING ?
				 "cpu %u out of range" :
				 "cpu %u: append outside of a recording", cpu);
	ret = check_records(w, cpu, buf, len);
	if (ret)
		return ret;
	/* cut into chunks of at most chunk_max bytes, at record boundaries */
	while (pos < len) {
		const struct schedrec_header *rec = (const void *)(buf + pos);

		if (pos + rec->size - start > w->chunk_max) {
			ret = write_chunk(w, cpu, buf + start, pos - start);
			if (ret)
				return ret;
			start = pos;
		}
		pos += rec->size;
	}
	if (pos > start)
		ret = write_chunk(w, cpu, buf + start, pos - start);
	return ret;
}

void srecwriter_filtered(struct srecwriter *w, unsigned int cpu,
			 uint64_t count)
{
	if (cpu >= w->nr_cpus)
		return;
	w->cpus[cpu].pending_filtered += count;
	w->totals[cpu].filtered += count;
	w->recording[cpu].filtered += count;
}

int srecwriter_round(struct srecwriter *w, uint64_t start_ns)
{
	struct srec_sync_head head;
	uint64_t horizon = w->round_start[0];
	bool known = w->rounds >= 2;
	int ret;

	if (w->error)
		return w->error;
	if (w->state != WRITER_RECORDING)
		return set_error(w, -EINVAL, "round outside of a recording");
	if (w->rounds && start_ns <= w->round_start[1])
		return 0;	/* a clock that did not move says nothing */
	w->round_start[0] = w->round_start[1];
	w->round_start[1] = start_ns;
	w->rounds++;
	if (w->direct && w->stage_since &&
	    start_ns - w->stage_since >= SRECWRITER_DIRECT_HOLD_NS) {
		ret = stage_sync(w);
		if (ret)
			return ret;
	}
	/* the chunks of a round are covered three rounds later */
	if (w->rounds_idle >= 3)
		return 0;
	w->rounds_idle++;
	if (!known || horizon <= w->horizon)
		return 0;
	w->horizon = horizon;
	head.horizon_ns = horizon;
	return write_section(w, SREC_SEC_SYNC, &head, sizeof(head), NULL, 0);
}

int srecwriter_write_trailer(struct srecwriter *w,
			     const struct srecwriter_trailer *trailer)
{
	struct srec_trailer_head head = {
		.end_mono_ns = trailer->end_mono_ns,
		.end_real_ns = trailer->end_real_ns,
		.chunks = w->chunks,
		.count = w->nr_cpus,
		.entry_size = sizeof(struct srec_cpu_total),
	};
	struct iovec piece = {
		.iov_base = w->totals,
		.iov_len = (size_t)w->nr_cpus * sizeof(*w->totals),
	};
	unsigned int cpu;
	int ret;

	if (w->error)
		return w->error;
	if (w->state != WRITER_RECORDING)
		return set_error(w, -EINVAL, "trailer outside of a recording");
	if (!head.end_mono_ns && !head.end_real_ns) {
		head.end_mono_ns = clock_ns(CLOCK_MONOTONIC);
		head.end_real_ns = clock_ns(CLOCK_REALTIME);
	}
	for (cpu = 0; trailer->kernel && cpu < w->nr_cpus; cpu++) {
		w->totals[cpu].kernel_written = trailer->kernel[cpu].written;
		w->totals[cpu].kernel_lost = trailer->kernel[cpu].lost;
		w->recording[cpu].kernel_written = trailer->kernel[cpu].written;
		w->recording[cpu].kernel_lost = trailer->kernel[cpu].lost;
	}
	/* the file is whole once its trailer is: no byte stays staged */
	ret = direct_end(w);
	if (!ret)
		ret = write_section(w, SREC_SEC_TRAILER, &head, sizeof(head),
				    &piece, 1);
	if (!ret) {
		w->state = WRITER_DONE;
		release_reserve(w);
	}
	return ret;
}

int srecwriter_salvage(struct srecwriter *w,
		       const struct srecwriter_trailer *trailer)
{
	char message[sizeof(w->message)];
	int err = w->error, ret;
	uint64_t end;

	if (w->state == WRITER_DONE)
		return 0;
	if (w->state != WRITER_RECORDING)
		return err ? err : -EINVAL;
	memcpy(message, w->message, sizeof(message));
	if (w->direct) {
		/* the staged bytes of whole sections go out */
		if (w->good_bytes < w->stage_pos + w->stage_len)
			w->stage_len = w->good_bytes > w->stage_pos ?
				       w->good_bytes - w->stage_pos : 0;
		w->bytes = w->stage_pos + w->stage_len;
		w->error = 0;
		if (direct_end(w)) {
			ret = w->error;
			goto out;
		}
	}
	/* what a failed write left of its section goes */
	if (w->bytes != w->good_bytes) {
		end = w->base + w->good_bytes;
		if (!w->seekable || ftruncate(w->fd, end) ||
		    lseek(w->fd, end, SEEK_SET) != (off_t)end) {
			ret = err ? err : -EIO;
			goto out;
		}
		w->bytes = w->good_bytes;
	}
	w->error = 0;
	ret = srecwriter_write_trailer(w, trailer);
	if (ret && w->seekable && w->bytes != w->good_bytes) {
		end = w->base + w->good_bytes;
		if (!ftruncate(w->fd, end) &&
		    lseek(w->fd, end, SEEK_SET) == (off_t)end)
			w->bytes = w->good_bytes;
	}
out:
	release_reserve(w);
	/* the first error is the one to tell, and it sticks */
	if (err) {
		memcpy(w->message, message, sizeof(message));
		w->error = err;
	}
	return ret;
}

int srecwriter_next_file(struct srecwriter *w, int fd)
{
	unsigned int cpu;

	if (w->error)
		return w->error;
	if (w->state != WRITER_DONE)
		return set_error(w, -EINVAL,
				 "the next file begins after this one's trailer");
	attach_fd(w, fd);
	w->state = WRITER_OPEN;
	w->files++;
	w->chunks = 0;
	memset(w->totals, 0, w->nr_cpus * sizeof(*w->totals));
	for (cpu = 0; cpu < w->nr_cpus; cpu++) {
		w->cpus[cpu].rebase = true;
		/* filtered records not yet told by a chunk: this file tells */
		w->totals[cpu].filtered = w->cpus[cpu].pending_filtered;
	}
	memset(w->round_start, 0, sizeof(w->round_start));
	w->rounds = 0;
	w->rounds_idle = 0;
	w->horizon = 0;
	return 0;
}

const struct srec_cpu_total *srecwriter_totals(const struct srecwriter *w,
					       unsigned int cpu)
{
	return cpu < w->nr_cpus ? &w->totals[cpu] : NULL;
}

const struct srec_cpu_total *
srecwriter_recording_totals(const struct srecwriter *w, unsigned int cpu)
{
	return cpu < w->nr_cpus ? &w->recording[cpu] : NULL;
}

uint64_t srecwriter_bytes(const struct srecwriter *w)
{
	return w->bytes;
}

uint64_t srecwriter_newest_ts(const struct srecwriter *w)
{
	return w->newest_ts;
}

const char *srecwriter_error(const struct srecwriter *w)
{
	return w->message;
}
