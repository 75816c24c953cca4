// SPDX-License-Identifier: GPL-2.0
/*
 * The protocol buffers encoder of protobuf.h.
 */
#include <stdlib.h>
#include <string.h>

#include "protobuf.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

#define VARINT_MAX	10

static bool reserve(struct pb *pb, size_t more)
{
	size_t cap;
	uint8_t *buf;

	if (pb->failed)
		return false;
	if (pb->cap - pb->len >= more)
		return true;
	cap = pb->cap ? pb->cap : 256;
	while (cap - pb->len < more)
		cap *= 2;
	buf = realloc(pb->buf, cap);
	if (!buf) {
		pb->failed = true;
		return false;
	}
	pb->buf = buf;
	pb->cap = cap;
	return true;
}

/* @v at @p, in at most VARINT_MAX bytes: how many. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)v | 0x80;
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* pb_varint() when the buffer may have to grow first */
void pb_varint_slow(struct pb *pb, uint64_t v)
{
	if (reserve(pb, VARINT_MAX))
		pb->len += put_varint(pb->buf + pb->len, v);
}

static void tag(struct pb *pb, unsigned int field, unsigned int wire)
{
	pb_varint(pb, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb *pb, unsigned int field, uint64_t v)
{
	tag(pb, field, WIRE_VARINT);
	pb_varint(pb, v);
}

void pb_bytes(struct pb *pb, unsigned int field, const void *data,
	      size_t len)
{
	tag(pb, field, WIRE_LEN);
	pb_varint(pb, len);
	if (reserve(pb, len)) {
		memcpy(pb->buf + pb->len, data, len);
		pb->len += len;
	}
}

void pb_string(struct pb *pb, unsigned int field, const char *s, size_t max)
{
	pb_bytes(pb, field, s, strnlen(s, max));
}

size_t pb_open(struct pb *pb, unsigned int field)
{
	tag(pb, field, WIRE_LEN);
	/* a byte for the length: most bodies are shorter than 128 */
	if (reserve(pb, 1))
		pb->len++;
	return pb->len;
}

void pb_close(struct pb *pb, size_t mark)
{
	uint8_t len[VARINT_MAX];
	size_t body, n;

	if (pb->failed)
		return;
	body = pb->len - mark;
	n = put_varint(len, body);
	if (n > 1) {
		if (!reserve(pb, n - 1))
			return;
		memmove(pb->buf + mark + n - 1, pb->buf + mark, body);
		pb->len += n - 1;
	}
	memcpy(pb->buf + mark - 1, len, n);
}

void pb_append(struct pb *pb, const struct pb *src)
{
	if (src->failed)
		pb->failed = true;
	if (!reserve(pb, src->len))
		return;
	memcpy(pb->buf + pb->len, src->buf, src->len);
	pb->len += src->len;
}

void pb_free(struct pb *pb)
{
	free(pb->buf);
	*pb = (struct pb){ 0 };
}
