// SPDX-License-Identifier: GPL-2.0
/*
 * ustar and .npz writers; see archive.h.  The formats are those of POSIX
 * (pax, "ustar Interchange Format"), PKWARE's APPNOTE.TXT (zip, zip64) and
 * NumPy's format.rst (.npy version 1.0).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "archive.h"

#define TAR_BLOCK	512
#define COPY_BUF	(64u << 10)

/* ------------------------------------------------------------------ */
/* Little helpers */

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static int write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

static int pwrite_all(int fd, const void *buf, size_t len, off_t offset)
{
	const unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
		offset += n;
	}
	return 0;
}

/* Up to @len bytes, fewer only at the end of @fd; or -errno. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	unsigned char *p = buf;
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += n;
	}
	return got;
}

static int fwrite_all(FILE *out, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, out) != len)
		return errno ? -errno : -EIO;
	return 0;
}

/* ------------------------------------------------------------------ */
/* tar */

/* @value in octal, @width - 1 digits and a NUL; false if it does not fit */
static bool put_octal(char *field, size_t width, uint64_t value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%0*" PRIo64, (int)(width - 1), value);
	if (strlen(buf) != width - 1)
		return false;
	memcpy(field, buf, width);
	return true;
}

static int tar_header(FILE *out, const char *name, uint64_t size,
		      int64_t mtime)
{
	unsigned char block[TAR_BLOCK] = { 0 };
	char *h = (char *)block;
	unsigned int sum = 0, i;
	size_t len = strlen(name);

	if (!len || len > TAR_NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(h, name, len);
	put_octal(h + 100, 8, 0644);		/* mode */
	put_octal(h + 108, 8, 0);		/* uid */
	put_octal(h + 116, 8, 0);		/* gid */
	if (!put_octal(h + 124, 12, size)) {
		/* GNU base-256: a flag bit, then the size big-endian */
		block[124] = 0x80;
		for (i = 0; i < 8; i++)
			block[135 - i] = size >> (8 * i);
	}
	put_octal(h + 136, 12, mtime > 0 ? (uint64_t)mtime : 0);
	h[156] = '0';				/* a regular file */
	memcpy(h + 257, "ustar", 6);		/* magic, NUL included */
	memcpy(h + 263, "00", 2);		/* version */
	put_octal(h + 329, 8, 0);		/* devmajor */
	put_octal(h + 337, 8, 0);		/* devminor */
	/* the checksum counts its own field as spaces */
	memset(h + 148, ' ', 8);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += block[i];
	snprintf(h + 148, 8, "%06o", sum);
	h[155] = ' ';
	return fwrite_all(out, block, TAR_BLOCK);
}

static int tar_padding(FILE *out, uint64_t size)
{
	static const unsigned char zeros[TAR_BLOCK];
	size_t rest = size % TAR_BLOCK;

	return rest ? fwrite_all(out, zeros, TAR_BLOCK - rest) : 0;
}

int tar_write_file(FILE *out, const char *name, int fd, uint64_t size,
		   int64_t mtime)
{
	static unsigned char buf[COPY_BUF];
	uint64_t left = size;
	ssize_t n;
	int ret;

	ret = tar_header(out, name, size, mtime);
	while (!ret && left) {
		n = read_full(fd, buf, left < sizeof(buf) ? left : sizeof(buf));
		if (n < 0)
			return n;
		if (!n)
			return -EIO;
		ret = fwrite_all(out, buf, n);
		left -= n;
	}
	return ret ? ret : tar_padding(out, size);
}

int tar_write_buffer(FILE *out, const char *name, const void *data,
		     size_t size, int64_t mtime)
{
	int ret = tar_header(out, name, size, mtime);

	if (!ret)
		ret = fwrite_all(out, data, size);
	return ret ? ret : tar_padding(out, size);
}

int tar_write_end(FILE *out)
{
	static const unsigned char zeros[2 * TAR_BLOCK];

	return fwrite_all(out, zeros, sizeof(zeros));
}

/* ------------------------------------------------------------------ */
/* .npy in a zip */

#define ZIP_LOCAL_SIG		0x04034b50u
#define ZIP_CENTRAL_SIG		0x02014b50u
#define ZIP_END_SIG		0x06054b50u
#define ZIP64_END_SIG		0x06064b50u
#define ZIP64_LOCATOR_SIG	0x07064b50u
#define ZIP_LOCAL_LEN		30
#define ZIP_CENTRAL_LEN		46
#define ZIP_END_LEN		22
#define ZIP64_END_LEN		56
#define ZIP64_LOCATOR_LEN	20
#define ZIP64_EXTRA_LEN		20	/* id, size, two 64-bit sizes */
#define ZIP_DEFLATE		8
#define ZIP_VERSION		20	/* 2.0: deflate */
#define ZIP64_VERSION		45	/* 4.5: zip64 */
#define ZIP_MADE_BY_UNIX	(3 << 8)
#define ZIP_MAX32		0xffffffffu
#define NPY_ALIGN		64
#define NPY_HEADER_MAX		256
#define NPZ_NAME_MAX		128

struct zip_entry {
	char name[NPZ_NAME_MAX];
	size_t name_len;
	uint16_t dos_time, dos_date;
	uint32_t crc;
	uint64_t usize, csize;
	bool zip64;
};

/* MS-DOS date and time fields of @mtime (UTC); 1980-01-01 if earlier. */
static void dos_time(int64_t mtime, uint16_t *t, uint16_t *d)
{
	time_t when = mtime;
	struct tm tm;

	if (mtime < 315532800 || !gmtime_r(&when, &tm) || tm.tm_year > 207) {
		*t = 0;
		*d = (1 << 5) | 1;
		return;
	}
	*t = tm.tm_hour << 11 | tm.tm_min << 5 | tm.tm_sec / 2;
	*d = (tm.tm_year - 80) << 9 | (tm.tm_mon + 1) << 5 | tm.tm_mday;
}

/*
 * The .npy header of @a into @buf: magic, version 1.0, the header length,
 * the dict, padded with spaces and a newline to a multiple of 64 bytes.
 */
static size_t npy_header(const struct npz_array *a, unsigned char *buf)
{
	char dict[NPY_HEADER_MAX];
	size_t len, total;

	len = snprintf(dict, sizeof(dict),
		       "{'descr': '%s', 'fortran_order': False, 'shape': (%" PRIu64 ",), }",
		       a->descr, a->count);
	total = 10 + len + 1;
	total = (total + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	put16(buf + 8, total - 10);
	memcpy(buf + 10, dict, len);
	memset(buf + 10 + len, ' ', total - 10 - len - 1);
	buf[total - 1] = '\n';
	return total;
}

static size_t local_header(const struct zip_entry *e, unsigned char *p)
{
	put32(p, ZIP_LOCAL_SIG);
	put16(p + 4, e->zip64 ? ZIP64_VERSION : ZIP_VERSION);
	put16(p + 6, 0);			/* flags */
	put16(p + 8, ZIP_DEFLATE);
	put16(p + 10, e->dos_time);
	put16(p + 12, e->dos_date);
	put32(p + 14, e->crc);
	put32(p + 18, e->zip64 ? ZIP_MAX32 : e->csize);
	put32(p + 22, e->zip64 ? ZIP_MAX32 : e->usize);
	put16(p + 26, e->name_len);
	put16(p + 28, e->zip64 ? ZIP64_EXTRA_LEN : 0);
	memcpy(p + ZIP_LOCAL_LEN, e->name, e->name_len);
	p += ZIP_LOCAL_LEN + e->name_len;
	if (!e->zip64)
		return ZIP_LOCAL_LEN + e->name_len;
	put16(p, 0x0001);			/* the zip64 extra field */
	put16(p + 2, 16);
	put64(p + 4, e->usize);
	put64(p + 12, e->csize);
	return ZIP_LOCAL_LEN + e->name_len + ZIP64_EXTRA_LEN;
}

/* The central directory of the one entry (at offset 0), and its end. */
static size_t central_directory(const struct zip_entry *e, uint64_t cd_offset,
				unsigned char *p)
{
	uint16_t version = e->zip64 ? ZIP64_VERSION : ZIP_VERSION;
	unsigned char *start = p;
	uint64_t cd_size;

	put32(p, ZIP_CENTRAL_SIG);
	put16(p + 4, ZIP_MADE_BY_UNIX | version);
	put16(p + 6, version);
	put16(p + 8, 0);			/* flags */
	put16(p + 10, ZIP_DEFLATE);
	put16(p + 12, e->dos_time);
	put16(p + 14, e->dos_date);
	put32(p + 16, e->crc);
	put32(p + 20, e->zip64 ? ZIP_MAX32 : e->csize);
	put32(p + 24, e->zip64 ? ZIP_MAX32 : e->usize);
	put16(p + 28, e->name_len);
	put16(p + 30, e->zip64 ? ZIP64_EXTRA_LEN : 0);
	put16(p + 32, 0);			/* comment */
	put16(p + 34, 0);			/* disk */
	put16(p + 36, 0);			/* internal attributes */
	put32(p + 38, 0100644u << 16);		/* a regular file, 0644 */
	put32(p + 42, 0);			/* offset of its local header */
	memcpy(p + ZIP_CENTRAL_LEN, e->name, e->name_len);
	p += ZIP_CENTRAL_LEN + e->name_len;
	if (e->zip64) {
		put16(p, 0x0001);
		put16(p + 2, 16);
		put64(p + 4, e->usize);
		put64(p + 12, e->csize);
		p += ZIP64_EXTRA_LEN;
	}
	cd_size = p - start;
	if (e->zip64) {
		put32(p, ZIP64_END_SIG);
		put64(p + 4, ZIP64_END_LEN - 12);
		put16(p + 12, ZIP_MADE_BY_UNIX | ZIP64_VERSION);
		put16(p + 14, ZIP64_VERSION);
		put32(p + 16, 0);		/* this disk */
		put32(p + 20, 0);		/* the directory's disk */
		put64(p + 24, 1);		/* entries on this disk */
		put64(p + 32, 1);		/* entries */
		put64(p + 40, cd_size);
		put64(p + 48, cd_offset);
		p += ZIP64_END_LEN;
		put32(p, ZIP64_LOCATOR_SIG);
		put32(p + 4, 0);
		put64(p + 8, cd_offset + cd_size);
		put32(p + 16, 1);		/* disks */
		p += ZIP64_LOCATOR_LEN;
	}
	put32(p, ZIP_END_SIG);
	put16(p + 4, 0);
	put16(p + 6, 0);
	put16(p + 8, 1);
	put16(p + 10, 1);
	put32(p + 12, cd_size);
	put32(p + 16, e->zip64 || cd_offset >= ZIP_MAX32 ? ZIP_MAX32 :
							   cd_offset);
	put16(p + 20, 0);			/* comment */
	p += ZIP_END_LEN;
	return p - start;
}

/* Deflate what @zs holds to @out; @flush Z_NO_FLUSH or Z_FINISH. */
static int deflate_out(z_stream *zs, int flush, int out, unsigned char *buf,
		       size_t size, uint64_t *written)
{
	int zret, ret;

	do {
		zs->next_out = buf;
		zs->avail_out = size;
		zret = deflate(zs, flush);
		if (zret == Z_STREAM_ERROR)
			return -EINVAL;
		ret = write_all(out, buf, size - zs->avail_out);
		if (ret)
			return ret;
		*written += size - zs->avail_out;
	} while (zs->avail_out == 0 || (flush == Z_FINISH &&
					zret != Z_STREAM_END));
	return 0;
}

static int npz_deflate(int out, z_stream *zs, struct zip_entry *e,
		       const unsigned char *header, size_t header_len,
		       int data)
{
	static unsigned char in[COPY_BUF], buf[COPY_BUF];
	uint64_t left = e->usize - header_len;
	ssize_t n;
	int ret;

	e->crc = crc32(0, header, header_len);
	zs->next_in = (unsigned char *)header;
	zs->avail_in = header_len;
	ret = deflate_out(zs, Z_NO_FLUSH, out, buf, sizeof(buf), &e->csize);
	while (!ret && left) {
		n = read_full(data, in, left < sizeof(in) ? left : sizeof(in));
		if (n <= 0)
			return n < 0 ? n : -EIO;
		left -= n;
		e->crc = crc32(e->crc, in, n);
		zs->next_in = in;
		zs->avail_in = n;
		ret = deflate_out(zs, Z_NO_FLUSH, out, buf, sizeof(buf),
				  &e->csize);
	}
	if (!ret)
		ret = deflate_out(zs, Z_FINISH, out, buf, sizeof(buf),
				  &e->csize);
	return ret;
}

int npz_write(int out, const struct npz_array *a, int data, uint64_t *size)
{
	unsigned char header[NPY_HEADER_MAX + 16];
	unsigned char head[ZIP_LOCAL_LEN + NPZ_NAME_MAX + ZIP64_EXTRA_LEN];
	unsigned char tail[ZIP_CENTRAL_LEN + NPZ_NAME_MAX + ZIP64_EXTRA_LEN +
			   ZIP64_END_LEN + ZIP64_LOCATOR_LEN + ZIP_END_LEN];
	struct zip_entry e = { 0 };
	size_t header_len, head_len, tail_len;
	z_stream zs = { 0 };
	int ret;

	e.name_len = snprintf(e.name, sizeof(e.name), "%s.npy", a->name);
	if (e.name_len >= sizeof(e.name) || strlen(a->descr) > 16 ||
	    !a->item_size || lseek(out, 0, SEEK_CUR) != 0)
		return -EINVAL;
	if (a->count > (UINT64_MAX - NPY_HEADER_MAX) / a->item_size)
		return -EOVERFLOW;
	header_len = npy_header(a, header);
	e.usize = header_len + a->count * a->item_size;
	dos_time(a->mtime, &e.dos_time, &e.dos_date);
	if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, -MAX_WBITS,
			 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	/* the local header goes first, so its size must be known now */
	e.zip64 = a->force_zip64 || e.usize >= ZIP_MAX32 ||
		  deflateBound(&zs, e.usize) >= ZIP_MAX32 - sizeof(head);
	head_len = local_header(&e, head);
	ret = write_all(out, head, head_len);
	if (!ret)
		ret = npz_deflate(out, &zs, &e, header, header_len, data);
	deflateEnd(&zs);
	if (ret)
		return ret;
	/* now with its CRC and sizes */
	local_header(&e, head);
	ret = pwrite_all(out, head, head_len, 0);
	tail_len = central_directory(&e, head_len + e.csize, tail);
	if (!ret)
		ret = write_all(out, tail, tail_len);
	if (!ret && size)
		*size = head_len + e.csize + tail_len;
	return ret;
}
