/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecinput: a sequential, buffered reader of a file descriptor that knows
 * its byte offset and never seeks, so it reads pipes as well as files.
 * The reader of .srec files uses it to look at a frame before deciding to
 * consume it.
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
};

/* Read @fd through a buffer of @size bytes.  0 or -ENOMEM. */
int srecinput_init(struct srecinput *in, int fd, size_t size);
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

#endif /* SCHEDREC_SRECINPUT_H */
