// SPDX-License-Identifier: GPL-2.0
/* Sequential input with offsets, mapped or read(); see srecinput.h. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "srecinput.h"

/*
 * Reads of this much or more go straight to the caller's memory, and a
 * peek reads little more than that ahead: a chunk's payload is then read
 * into its place by the kernel, not copied there from the buffer.
 */
#define SRECINPUT_DIRECT	(64u << 10)

/*
 * The pages of a mapping that nothing looks at any more go back this much
 * at a time: what stays resident is what the reader holds, not the file.
 */
#define SRECINPUT_RELEASE_STEP	(2u << 20)

/* At most this many inputs are mapped at once; the others are read(). */
#define SRECINPUT_MAPS_MAX	16

struct srecinput_map {
	unsigned char *base;	/* of the mapping, page aligned */
	size_t len;		/* bytes mapped */
	size_t skip;		/* base + skip is the input's offset 0 */
	uint64_t end;		/* the offset where the mapped file ended */
	off_t file_end;		/* the same, as a position in the file */
	size_t released;	/* bytes from base given back */
	int shrunk;		/* a page past the file's end was read */
	bool memory;		/* the caller's bytes: not mapped by us */
};

/* the mappings, for the SIGBUS handler: read and set with __atomic */
static struct srecinput_map *maps[SRECINPUT_MAPS_MAX];
static struct sigaction sigbus_old;
static bool sigbus_set;
static size_t page_size;

/*
 * SIGBUS in a mapping: the file shrank under it.  The rest of the mapping
 * becomes zeros, which the faulting access then reads, and the input says
 * that it shrank.  A SIGBUS anywhere else gets the action it had before.
 */
static void on_sigbus(int sig, siginfo_t *info, void *ucontext)
{
	uintptr_t addr = (uintptr_t)info->si_addr, page;
	unsigned int i;

	(void)sig;
	(void)ucontext;
	for (i = 0; i < SRECINPUT_MAPS_MAX; i++) {
		struct srecinput_map *m = __atomic_load_n(&maps[i],
							  __ATOMIC_RELAXED);

		if (!m || addr - (uintptr_t)m->base >= m->len)
			continue;
		page = addr & ~(uintptr_t)(page_size - 1);
		if (mmap((void *)page, (uintptr_t)m->base + m->len - page,
			 PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) == MAP_FAILED)
			break;
		__atomic_store_n(&m->shrunk, 1, __ATOMIC_RELAXED);
		return;
	}
	sigaction(SIGBUS, &sigbus_old, NULL);
}

static bool sigbus_catch(void)
{
	struct sigaction sa;

	if (sigbus_set)
		return true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &sigbus_old))
		return false;
	sigbus_set = true;
	return true;
}

/* Map a regular file from its position on, if it can be. */
static void map_open(struct srecinput *in)
{
	struct srecinput_map *m;
	unsigned int slot;
	struct stat st;
	off_t pos, base;
	void *addr;

	if (fstat(in->fd, &st) || !S_ISREG(st.st_mode))
		return;
	pos = lseek(in->fd, 0, SEEK_CUR);
	if (pos < 0 || st.st_size <= pos ||
	    (uint64_t)st.st_size > SIZE_MAX / 2)
		return;
	for (slot = 0; slot < SRECINPUT_MAPS_MAX &&
	     __atomic_load_n(&maps[slot], __ATOMIC_RELAXED); slot++)
		;
	if (slot == SRECINPUT_MAPS_MAX || !sigbus_catch())
		return;
	if (!page_size)
		page_size = sysconf(_SC_PAGESIZE);
	m = calloc(1, sizeof(*m));
	if (!m)
		return;
	/* and a page past the end, read only by a record changed since */
	base = pos & ~(off_t)(page_size - 1);
	m->len = st.st_size - base + page_size;
	addr = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, in->fd, base);
	if (addr == MAP_FAILED) {
		free(m);
		return;
	}
	madvise(addr, m->len, MADV_SEQUENTIAL);
	m->base = addr;
	m->skip = pos - base;
	m->end = st.st_size - pos;
	m->file_end = st.st_size;
	__atomic_store_n(&maps[slot], m, __ATOMIC_RELEASE);
	in->map = m;
	in->mapped = true;
}

/* Where the mapped byte at offset @offset is. */
static const unsigned char *map_at(const struct srecinput *in,
				   uint64_t offset)
{
	return in->map->base + in->map->skip + offset;
}

/*
 * Everything mapped was consumed or is in buf: read() on from the end of
 * what was mapped (the file may have grown since).
 */
static void map_leave(struct srecinput *in)
{
	size_t left = in->map->end - in->offset;

	in->mapped = false;
	memcpy(in->buf, map_at(in, in->offset), left);
	in->start = 0;
	in->end = left;
	if (in->map->memory)
		in->eof = true;
	else if (lseek(in->fd, in->map->file_end, SEEK_SET) < 0)
		in->error = -errno;
}

int srecinput_init(struct srecinput *in, int fd, size_t size)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->size = size;
	in->buf = malloc(size);
	if (!in->buf)
		return -ENOMEM;
	map_open(in);
	return 0;
}

int srecinput_init_mem(struct srecinput *in, const void *data, size_t len,
		       size_t size)
{
	struct srecinput_map *m;

	memset(in, 0, sizeof(*in));
	in->fd = -1;
	/* what is left past the bytes' end is less than all of them */
	in->size = len && len < size ? len : size;
	in->eof = true;		/* nothing to read() past the bytes */
	in->buf = malloc(in->size);
	if (!in->buf)
		return -ENOMEM;
	if (!len)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(in->buf);
		in->buf = NULL;
		return -ENOMEM;
	}
	m->base = (unsigned char *)data;
	m->len = len;
	m->end = len;
	m->file_end = len;
	m->memory = true;
	in->map = m;
	in->mapped = true;
	return 0;
}

void srecinput_map_free(struct srecinput_map *map)
{
	unsigned int i;

	if (!map)
		return;
	for (i = 0; i < SRECINPUT_MAPS_MAX; i++)
		if (__atomic_load_n(&maps[i], __ATOMIC_RELAXED) == map)
			__atomic_store_n(&maps[i], NULL, __ATOMIC_RELAXED);
	if (!map->memory)
		munmap(map->base, map->len);
	free(map);
}

/* The input forgets its mapping (which stays) and reads no more of it. */
static struct srecinput_map *map_forget(struct srecinput *in)
{
	struct srecinput_map *map = in->map;

	in->map = NULL;
	in->mapped = false;
	return map;
}

struct srecinput_map *srecinput_detach_map(struct srecinput *in)
{
	struct srecinput_map *map = map_forget(in);

	if (map && !map->memory)
		madvise(map->base, map->len, MADV_DONTNEED);
	return map;
}

void srecinput_free(struct srecinput *in)
{
	free(in->buf);
	in->buf = NULL;
	srecinput_map_free(map_forget(in));
}

bool srecinput_shrunk(const struct srecinput *in)
{
	return in->map && __atomic_load_n(&in->map->shrunk, __ATOMIC_RELAXED);
}

const struct srecinput_map *srecinput_mapping(const struct srecinput *in)
{
	return in->map;
}

const unsigned char *srecinput_map_at(const struct srecinput_map *map,
				      uint64_t offset, size_t len)
{
	if (!map || offset > map->end || len > map->end - offset)
		return NULL;
	return map->base + map->skip + offset;
}

const void *srecinput_borrow(struct srecinput *in, size_t len)
{
	const void *data;

	if (!in->mapped || in->map->end - in->offset < len)
		return NULL;
	data = map_at(in, in->offset);
	in->offset += len;
	return data;
}

void srecinput_release(struct srecinput *in, uint64_t offset)
{
	struct srecinput_map *m = in->map;
	size_t upto;

	if (!m || m->memory)	/* the caller's bytes are the caller's */
		return;
	if (offset > m->end)
		offset = m->end;
	upto = (m->skip + offset) & ~(page_size - 1);
	if (upto < m->released + SRECINPUT_RELEASE_STEP)
		return;
	madvise(m->base + m->released, upto - m->released, MADV_DONTNEED);
	m->released = upto;
}

/* One read() into @dst; the bytes read, 0 at the end or on an error. */
static size_t read_some(struct srecinput *in, void *dst, size_t len)
{
	ssize_t done;

	if (in->eof || in->error)
		return 0;
	do {
		done = read(in->fd, dst, len);
	} while (done < 0 && errno == EINTR);
	if (done < 0) {
		in->error = -errno;
		return 0;
	}
	if (!done)
		in->eof = true;
	return done;
}

size_t srecinput_peek(struct srecinput *in, size_t len,
		      const unsigned char **data)
{
	if (len > in->size)
		len = in->size;
	if (in->mapped) {
		if (in->map->end - in->offset >= len) {
			*data = map_at(in, in->offset);
			return len;
		}
		map_leave(in);
	}
	if (in->end - in->start < len && in->start + len > in->size) {
		/* move what is left to the front to make room */
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	while (in->end - in->start < len) {
		size_t want = len - (in->end - in->start), done;

		/* not far past what is asked: the caller may read the rest */
		if (want < SRECINPUT_DIRECT)
			want = SRECINPUT_DIRECT;
		if (want > in->size - in->end)
			want = in->size - in->end;
		done = read_some(in, in->buf + in->end, want);

		if (!done)
			break;
		in->end += done;
	}
	*data = in->buf + in->start;
	return in->end - in->start < len ? in->end - in->start : len;
}

size_t srecinput_read(struct srecinput *in, void *dst, size_t len)
{
	unsigned char *out = dst;
	size_t copied = 0;

	if (in->mapped) {
		copied = in->map->end - in->offset;
		if (copied > len)
			copied = len;
		if (out)
			memcpy(out, map_at(in, in->offset), copied);
		in->offset += copied;
		if (copied == len)
			return len;
		map_leave(in);
	}
	while (copied < len) {
		size_t avail = in->end - in->start, part;

		if (!avail) {
			/* large reads go straight to the caller's memory */
			in->start = in->end = 0;
			if (out && len - copied >= SRECINPUT_DIRECT) {
				part = read_some(in, out + copied,
						 len - copied);
				if (!part)
					break;
				copied += part;
				in->offset += part;
				continue;
			}
			avail = read_some(in, in->buf, in->size);
			if (!avail)
				break;
			in->end = avail;
		}
		part = len - copied < avail ? len - copied : avail;
		if (out)
			memcpy(out + copied, in->buf + in->start, part);
		in->start += part;
		in->offset += part;
		copied += part;
	}
	return copied;
}
