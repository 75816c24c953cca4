/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A protocol buffers encoder: fields appended to a growable buffer in the
 * wire format (varints, length-delimited strings, bytes and messages,
 * packed repeated varints), canonical as protoc writes them.  A nested
 * message is opened, filled and closed: its length is written when it is
 * closed, the body moved up if the length takes more than one byte.
 *
 * Only what the exports write: no fixed-width or zigzag fields, no
 * decoding.  Out of memory, a buffer stops growing and remembers it
 * (pb->failed); every call on it is then a no-op.
 */
#ifndef SCHEDREC_PROTOBUF_H
#define SCHEDREC_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pb {
	uint8_t *buf;
	size_t len, cap;
	bool failed;
};

/* A varint field (int32, int64, uint32, uint64, bool, enum). */
void pb_uint(struct pb *pb, unsigned int field, uint64_t v);

/*
 * A signed field of type int32 or int64: a negative value takes ten
 * bytes, as the wire format says (no zigzag: those are sint32/sint64).
 */
static inline void pb_int(struct pb *pb, unsigned int field, int64_t v)
{
	pb_uint(pb, field, (uint64_t)v);
}

/* A length-delimited field: bytes, or a string of @len bytes. */
void pb_bytes(struct pb *pb, unsigned int field, const void *data,
	      size_t len);

/* A string field of at most @max bytes of @s (up to its NUL). */
void pb_string(struct pb *pb, unsigned int field, const char *s, size_t max);

void pb_varint_slow(struct pb *pb, uint64_t v);

/* A bare varint, for the elements of a packed field's body. */
static inline void pb_varint(struct pb *pb, uint64_t v)
{
	uint8_t *p;

	if (pb->cap - pb->len < 10) {
		pb_varint_slow(pb, v);
		return;
	}
	p = pb->buf + pb->len;
	while (v >= 0x80) {
		*p++ = (uint8_t)v | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	pb->len = p - pb->buf;
}

/*
 * Open a nested message (or a packed field's body) as field @field:
 * where its body starts, for pb_close().
 */
size_t pb_open(struct pb *pb, unsigned int field);

/* Close what pb_open() returned @mark for; nested ones first. */
void pb_close(struct pb *pb, size_t mark);

/* Append @src's bytes as they are. */
void pb_append(struct pb *pb, const struct pb *src);

static inline void pb_reset(struct pb *pb)
{
	pb->len = 0;
}

void pb_free(struct pb *pb);

#endif /* SCHEDREC_PROTOBUF_H */
