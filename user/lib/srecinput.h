/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecinput: a sequential, buffered reader of a file descriptor that knows
 * its byte offset, so it reads pipes as well as files.  The reader of
 * .srec files uses it to look at a frame before deciding to consume it.
 *
 * A regular file is mapped, as long as it was when opened: its bytes are
 * then looked at in place, and srecinput_borrow() hands them out without
 * a copy.  Past the mapping's end (a file that grew) it is read().  If the
 * file shrinks meanwhile, the pages past its new end read as zeros, not
 * SIGBUS, and srecinput_shrunk() says so.
 */
#ifndef SCHEDREC_SRECINPUT_H
#define SCHEDREC_SRECINPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct srecinput {
	int fd;
	unsigned char *buf;
	size_t size;		/* of buf */
	size_t start;		/* unread bytes are buf[start, end) */
	size_t end;
	uint64_t offset;	/* file offset of buf[start] */
	bool eof;		/* read() returned 0 */
	int error;		/* -errno of a failed read(), or 0 */
	struct srecinput_map *map;	/* NULL: the input is not mapped */
	bool mapped;		/* offset is in the mapping, not buf */
};

/* Read @fd through a buffer of @size bytes.  0 or -ENOMEM. */
int srecinput_init(struct srecinput *in, int fd, size_t size);

/*
 * Read the @len bytes at @data (8-aligned) in place, as a mapped file's
 * (fd -1): they must stay, unchanged, until srecinput_free(), or
 * srecinput_map_free() of a detached mapping.  0 or -ENOMEM.
 */
int srecinput_init_mem(struct srecinput *in, const void *data, size_t len,
		       size_t size);
void srecinput_free(struct srecinput *in);

/*
 * Make @len bytes (at most the buffer size) readable at the current offset
 * without consuming them.  Sets *@data and returns how many are there:
 * fewer than @len only at the end of the input or after a read error.
 */
size_t srecinput_peek(struct srecinput *in, size_t len,
		      const unsigned char **data);

/*
 * Consume @len bytes, copying them to @dst unless it is NULL.  Returns how
 * many were consumed: fewer only at the end of the input or on an error.
 */
size_t srecinput_read(struct srecinput *in, void *dst, size_t len);

/*
 * Consume @len bytes of a mapped file and return where they are, valid
 * until srecinput_free() (or srecinput_release() of them); NULL, with
 * nothing consumed, unless they are all in the mapping.
 */
const void *srecinput_borrow(struct srecinput *in, size_t len);

/* Nothing before @offset will be looked at again: its pages can go. */
void srecinput_release(struct srecinput *in, uint64_t offset);

/*
 * The input lets go of its mapping, which stays, with its pages given
 * back, for what was borrowed from it: free it with srecinput_map_free()
 * (NULL: there was none).
 */
struct srecinput_map *srecinput_detach_map(struct srecinput *in);
void srecinput_map_free(struct srecinput_map *map);

/* Whether the mapped file became shorter than it was when mapped. */
bool srecinput_shrunk(const struct srecinput *in);

/* The input's mapping (NULL: none), which stays until srecinput_free(). */
const struct srecinput_map *srecinput_mapping(const struct srecinput *in);

/*
 * Where the @len bytes at offset @offset of the input are in @map, or
 * NULL if they are not all there; from any thread while @map stays.
 */
const unsigned char *srecinput_map_at(const struct srecinput_map *map,
				      uint64_t offset, size_t len);

#endif /* SCHEDREC_SRECINPUT_H */
