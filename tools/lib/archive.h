/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Archives written by our own code, for exports that hand data to other
 * tools: a POSIX ustar tar, written front to back on a FILE (a pipe will
 * do), and a NumPy .npz (a zip archive, deflated with zlib) holding one
 * one-dimensional array.
 *
 *	tar_write_buffer(out, "notes.txt", text, strlen(text), mtime);
 *	tar_write_file(out, "column.npz", fd, size, mtime);
 *	tar_write_end(out);
 *
 * Every function returns 0 or a negative errno.
 */
#ifndef SCHEDREC_ARCHIVE_H
#define SCHEDREC_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest member name a ustar header holds without a prefix. */
#define TAR_NAME_MAX	99

/*
 * A member @name (at most TAR_NAME_MAX bytes, mode 0644, owner 0) of
 * @size bytes, modified at @mtime (seconds since the epoch): its header,
 * @size bytes read from @fd (from its current offset; -EIO if it has
 * fewer) or taken from @data, and the padding to a 512-byte block.
 * Sizes of 8 GiB and more use the base-256 size field of GNU tar, which
 * Python's tarfile and GNU tar read.
 */
int tar_write_file(FILE *out, const char *name, int fd, uint64_t size,
		   int64_t mtime);
int tar_write_buffer(FILE *out, const char *name, const void *data,
		     size_t size, int64_t mtime);

/* The two zero blocks that end an archive. */
int tar_write_end(FILE *out);

struct npz_array {
	const char *name;	/* the array's key: the member is NAME.npy */
	const char *descr;	/* NumPy's dtype string: "<i8", "<u4"... */
	size_t item_size;	/* bytes per item, as @descr says */
	uint64_t count;		/* items: the shape is (count,) */
	int64_t mtime;		/* the zip entry's time, seconds since epoch */
	bool force_zip64;	/* zip64 fields even when not needed (tests) */
};

/*
 * Write to @out, an empty seekable file at its offset 0, the .npz that
 * np.savez_compressed would make of the array @a: a zip archive with one
 * member NAME.npy, deflated, whose content is a .npy of format version
 * 1.0 (C order, shape (count,)) and the count * item_size bytes of data
 * read from @data (from its current offset, little-endian items).
 * Members of 4 GiB or more get zip64 fields.  Returns 0, -EINVAL for bad
 * arguments (or @out not at offset 0), -EIO if @data is shorter, or
 * -errno.  On success, *@size (if not NULL) is the size of the .npz.
 */
int npz_write(int out, const struct npz_array *a, int data, uint64_t *size);

#endif /* SCHEDREC_ARCHIVE_H */
