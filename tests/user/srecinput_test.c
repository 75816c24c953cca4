// SPDX-License-Identifier: GPL-2.0
/*
 * srecinput: peeks and reads of every size class (inside the buffer,
 * around the size read straight into the caller's memory, larger than the
 * buffer), on a file and on a pipe that hands over a few bytes at a time,
 * give the input's bytes in order at the right offsets; reads past the
 * end stop short, and skipping (a NULL destination) consumes as reading
 * does.  A regular file is mapped and lent without a copy, a pipe is not;
 * a file that grows after it was opened is read on past the mapping, and
 * one cut short while mapped reads as zeros past its new end, not SIGBUS.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srecinput.h"

#define INPUT_LEN	(3u << 20)
#define BUF_SIZE	(256u << 10)

static unsigned char *pattern(void)
{
	unsigned char *p = malloc(INPUT_LEN);
	size_t i;

	for (i = 0; p && i < INPUT_LEN; i++)
		p[i] = (i * 2654435761u) >> 13;
	return p;
}

/* A file holding the first @len bytes of the pattern, read from its start. */
static int pattern_file(const unsigned char *p, size_t len)
{
	char path[] = "/tmp/srecinput_test.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	unlink(path);
	if (write(fd, p, len) != (ssize_t)len ||
	    lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* An input of a file holding the first @len bytes of the pattern. */
static void file_input(struct __test_metadata *_metadata,
		       const unsigned char *p, size_t len,
		       struct srecinput *in)
{
	int fd = pattern_file(p, len);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, srecinput_init(in, fd, BUF_SIZE));
}

/* Free @in and close its file descriptor. */
static void input_close(struct srecinput *in)
{
	int fd = in->fd;

	srecinput_free(in);
	close(fd);
}

/* A pipe fed by a child in writes of 1000 bytes, so reads come short. */
static int pattern_pipe(const unsigned char *p, pid_t *child)
{
	int fds[2];
	size_t off;

	if (pipe(fds))
		return -1;
	*child = fork();
	if (*child < 0)
		return -1;
	if (!*child) {
		close(fds[0]);
		for (off = 0; off < INPUT_LEN; off += 1000) {
			size_t len = INPUT_LEN - off < 1000 ?
				     INPUT_LEN - off : 1000;

			if (write(fds[1], p + off, len) != (ssize_t)len)
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

/* Sizes to read in turn: small, around the direct size, past the buffer. */
static const size_t steps[] = {
	24, 1, 4096, 65535, 65536, 65537, 200000, 8, BUF_SIZE, BUF_SIZE + 1,
	1048576, 0, 3,
};

/* Read @in to its end, which must be the pattern's. */
static void read_input(struct __test_metadata *_metadata,
		       struct srecinput *in, const unsigned char *p)
{
	unsigned char *got = malloc(BUF_SIZE * 5);
	const unsigned char *peeked;
	size_t off = 0, i = 0, len, n;

	ASSERT_NE(NULL, got);
	while (off < INPUT_LEN) {
		len = steps[i++ % ARRAY_SIZE(steps)];
		/* a peek first, as the reader looks at a frame's head */
		n = srecinput_peek(in, 32, &peeked);
		ASSERT_EQ(INPUT_LEN - off < 32 ? INPUT_LEN - off : 32, n);
		ASSERT_EQ(0, memcmp(p + off, peeked, n));
		ASSERT_EQ(off, in->offset);
		if (i % 3 == 0) {
			n = srecinput_read(in, NULL, len);
		} else {
			n = srecinput_read(in, got, len);
			ASSERT_EQ(0, memcmp(p + off, got, n));
		}
		ASSERT_EQ(INPUT_LEN - off < len ? INPUT_LEN - off : len, n);
		off += n;
		ASSERT_EQ(off, in->offset);
	}
	ASSERT_EQ(0, srecinput_peek(in, 1, &peeked));
	ASSERT_EQ(0, srecinput_read(in, got, 100));
	ASSERT_EQ(0, in->error);
	free(got);
}

static void read_all(struct __test_metadata *_metadata, int fd,
		     const unsigned char *p)
{
	struct srecinput in;

	ASSERT_EQ(0, srecinput_init(&in, fd, BUF_SIZE));
	read_input(_metadata, &in, p);
	srecinput_free(&in);
}

TEST(file)
{
	unsigned char *p = pattern();
	int fd;

	ASSERT_NE(NULL, p);
	fd = pattern_file(p, INPUT_LEN);
	ASSERT_LE(0, fd);
	read_all(_metadata, fd, p);
	close(fd);
	free(p);
}

TEST(short_reads_from_a_pipe)
{
	unsigned char *p = pattern();
	pid_t child;
	int fd, status;

	ASSERT_NE(NULL, p);
	fd = pattern_pipe(p, &child);
	ASSERT_LE(0, fd);
	read_all(_metadata, fd, p);
	close(fd);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status);
	free(p);
}

/* A peek larger than what is buffered, straddling the buffer's end. */
TEST(peek_across_the_buffer_end)
{
	unsigned char *p = pattern();
	const unsigned char *peeked;
	struct srecinput in;

	ASSERT_NE(NULL, p);
	file_input(_metadata, p, INPUT_LEN, &in);
	ASSERT_EQ(BUF_SIZE - 10, srecinput_read(&in, NULL, BUF_SIZE - 10));
	ASSERT_EQ(BUF_SIZE, srecinput_peek(&in, BUF_SIZE, &peeked));
	EXPECT_EQ(0, memcmp(p + BUF_SIZE - 10, peeked, BUF_SIZE));
	/* no more than the buffer, however much is asked */
	ASSERT_EQ(BUF_SIZE, srecinput_peek(&in, 2 * BUF_SIZE, &peeked));
	EXPECT_EQ(BUF_SIZE - 10, in.offset);
	input_close(&in);
	free(p);
}

TEST(file_is_lent_pipe_is_not)
{
	unsigned char *p = pattern();
	const unsigned char *lent;
	struct srecinput in;
	pid_t child;
	int fd, status;

	ASSERT_NE(NULL, p);
	file_input(_metadata, p, INPUT_LEN, &in);
	ASSERT_EQ(100, srecinput_read(&in, NULL, 100));
	lent = srecinput_borrow(&in, INPUT_LEN - 200);
	ASSERT_NE(NULL, lent);
	EXPECT_EQ(0, memcmp(p + 100, lent, INPUT_LEN - 200));
	EXPECT_EQ(INPUT_LEN - 100, in.offset);
	/* not more than there is, and nothing consumed then */
	EXPECT_EQ(NULL, srecinput_borrow(&in, 101));
	EXPECT_EQ(INPUT_LEN - 100, in.offset);
	EXPECT_FALSE(srecinput_shrunk(&in));
	input_close(&in);

	fd = pattern_pipe(p, &child);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, srecinput_init(&in, fd, BUF_SIZE));
	EXPECT_EQ(NULL, srecinput_borrow(&in, 100));
	EXPECT_EQ(0, in.offset);
	input_close(&in);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	free(p);
}

/* Written in two halves, the second once the first is mapped. */
TEST(file_grown_after_open)
{
	unsigned char *p = pattern();
	struct srecinput in;

	ASSERT_NE(NULL, p);
	file_input(_metadata, p, INPUT_LEN / 2, &in);
	ASSERT_NE(NULL, in.map);
	ASSERT_EQ(INPUT_LEN / 2, pwrite(in.fd, p + INPUT_LEN / 2,
					INPUT_LEN / 2, INPUT_LEN / 2));
	read_input(_metadata, &in, p);
	input_close(&in);
	free(p);
}

/* Cut to half while all of it is lent: the rest reads as zeros. */
TEST(file_cut_while_mapped)
{
	unsigned char *p = pattern();
	const unsigned char *lent;
	struct srecinput in;
	size_t i;

	ASSERT_NE(NULL, p);
	file_input(_metadata, p, INPUT_LEN, &in);
	lent = srecinput_borrow(&in, INPUT_LEN);
	ASSERT_NE(NULL, lent);
	ASSERT_EQ(0, memcmp(p, lent, INPUT_LEN));
	ASSERT_EQ(0, ftruncate(in.fd, INPUT_LEN / 2));
	EXPECT_EQ(0, memcmp(p, lent, INPUT_LEN / 2));
	EXPECT_FALSE(srecinput_shrunk(&in));
	for (i = INPUT_LEN / 2; i < INPUT_LEN && !lent[i]; i++)
		;
	EXPECT_EQ(INPUT_LEN, i);
	EXPECT_TRUE(srecinput_shrunk(&in));
	input_close(&in);
	free(p);
}

TEST_HARNESS_MAIN
