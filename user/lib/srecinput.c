// SPDX-License-Identifier: GPL-2.0
/* Sequential buffered input with offsets, no seeking; see srecinput.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srecinput.h"

/*
 * Reads of this much or more go straight to the caller's memory, and a
 * peek reads little more than that ahead: a chunk's payload is then read
 * into its place by the kernel, not copied there from the buffer.
 */
#define SRECINPUT_DIRECT	(64u << 10)

int srecinput_init(struct srecinput *in, int fd, size_t size)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->size = size;
	in->buf = malloc(size);
	return in->buf ? 0 : -ENOMEM;
}

void srecinput_free(struct srecinput *in)
{
	free(in->buf);
	in->buf = NULL;
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
