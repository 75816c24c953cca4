// SPDX-License-Identifier: GPL-2.0
/*
 * The writer with options.direct (O_DIRECT), on a file on disk: byte for
 * byte the file the page cache path writes, raw and compressed, over
 * several stagefuls; staged bytes in the file at the first round that
 * starts SRECWRITER_DIRECT_HOLD_NS after they came, the last part of a
 * block through the page cache and, later, again with its whole block;
 * and where O_DIRECT cannot be used (an offset off a block, O_APPEND, a
 * pipe), the writer says so and writes the same file without it.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srec_util.h"

#define SEED	11

/*
 * The synthetic recording of SEED, 40 rounds of 5000 events (about 8 MB),
 * written to @fd with @opt; whether the writer used O_DIRECT is @direct.
 */
static void write_synth(struct __test_metadata *_metadata, int fd,
			struct srecwriter_options opt, bool direct)
{
	struct srecwriter *w;
	struct synth s;

	synth_init(&s, 4, SEED);
	w = synth_begin(&s, fd, opt);
	ASSERT_NE(NULL, w);
	EXPECT_EQ(direct, srecwriter_direct(w))
		TH_LOG("O_DIRECT %s on /var/tmp", direct ? "refused" : "used");
	EXPECT_EQ(0, synth_rounds(&s, w, 40, 5000));
	EXPECT_EQ(direct, srecwriter_direct(w));
	EXPECT_EQ(0, synth_end(&s, w));
	synth_free(&s);
}

/* What the page cache path writes for write_synth(). */
static void buffered_synth(struct __test_metadata *_metadata, int zlib_level,
			   struct bytes *out)
{
	int fd = memfd_create("srec", 0);

	ASSERT_LE(0, fd);
	write_synth(_metadata, fd, (struct srecwriter_options){
		.zlib_level = zlib_level }, false);
	bytes_from_fd(fd, out);
	close(fd);
}

static bool same_bytes(const struct bytes *a, const unsigned char *b,
		       size_t len)
{
	return a->len == len && !memcmp(a->data, b, len);
}

TEST(same_file_as_through_the_page_cache)
{
	struct bytes want = { 0 }, got = { 0 };
	int level, fd;

	for (level = 0; level <= 1; level++) {
		buffered_synth(_metadata, level, &want);
		fd = disk_tmpfile();
		ASSERT_LE(0, fd);
		write_synth(_metadata, fd, (struct srecwriter_options){
			.zlib_level = level, .direct = true }, true);
		/* the writer gives the descriptor back as it came */
		EXPECT_EQ(0, fcntl(fd, F_GETFL) & O_DIRECT);
		bytes_from_fd(fd, &got);
		EXPECT_LT(2 * SRECWRITER_DIRECT_BLOCK, got.len);
		EXPECT_TRUE(same_bytes(&want, got.data, got.len))
			TH_LOG("zlib level %d: %zu bytes, %zu through the page cache",
			       level, got.len, want.len);
		close(fd);
	}
	bytes_free(&want);
	bytes_free(&got);
}

static uint64_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? UINT64_MAX : (uint64_t)st.st_size;
}

/*
 * A few records, held until a round starts SRECWRITER_DIRECT_HOLD_NS
 * after them, then megabytes more, whose first O_DIRECT write covers the
 * part block written through the page cache.  With @direct, checks what
 * is in the file along the way.
 */
static void held_sequence(struct __test_metadata *_metadata, int fd,
			  bool direct)
{
	struct srecwriter *w;
	struct synth s;

	synth_init(&s, 2, SEED);
	w = synth_begin(&s, fd, (struct srecwriter_options){
		.direct = direct });
	ASSERT_NE(NULL, w);
	synth_events(&s, 100);
	ASSERT_EQ(0, synth_flush(&s, w));
	ASSERT_EQ(0, srecwriter_round(w, 1000));
	if (direct) {
		EXPECT_TRUE(srecwriter_direct(w));
		EXPECT_EQ(0, file_size(fd));
	}
	ASSERT_EQ(0, srecwriter_round(w, 1 + SRECWRITER_DIRECT_HOLD_NS));
	EXPECT_EQ(srecwriter_bytes(w), file_size(fd));
	EXPECT_NE(0, srecwriter_bytes(w) % SRECWRITER_DIRECT_ALIGN);
	synth_events(&s, 100);
	ASSERT_EQ(0, synth_flush(&s, w));
	if (direct)
		EXPECT_GT(srecwriter_bytes(w), file_size(fd));
	EXPECT_EQ(0, synth_rounds(&s, w, 20, 2500));
	EXPECT_EQ(0, synth_end(&s, w));
	synth_free(&s);
}

TEST(held_for_at_most_a_round)
{
	struct bytes want = { 0 }, got = { 0 };
	int fd = memfd_create("srec", 0);

	ASSERT_LE(0, fd);
	held_sequence(_metadata, fd, false);
	bytes_from_fd(fd, &want);
	close(fd);
	fd = disk_tmpfile();
	ASSERT_LE(0, fd);
	held_sequence(_metadata, fd, true);
	bytes_from_fd(fd, &got);
	close(fd);
	EXPECT_TRUE(same_bytes(&want, got.data, got.len))
		TH_LOG("%zu bytes, %zu through the page cache", got.len,
		       want.len);
	bytes_free(&want);
	bytes_free(&got);
}

TEST(page_cache_where_o_direct_cannot_be)
{
	struct srecwriter_options opt = { .nr_cpus = 1, .direct = true };
	struct bytes want = { 0 }, got = { 0 };
	struct srecwriter *w;
	char junk[100];
	int fd, fds[2];

	buffered_synth(_metadata, 0, &want);

	/* the file starts at byte 100 of the descriptor: off a block */
	fd = disk_tmpfile();
	ASSERT_LE(0, fd);
	memset(junk, 'x', sizeof(junk));
	ASSERT_EQ(sizeof(junk), write(fd, junk, sizeof(junk)));
	write_synth(_metadata, fd, opt, false);
	bytes_from_fd(fd, &got);
	ASSERT_LE(sizeof(junk), got.len);
	EXPECT_TRUE(same_bytes(&want, got.data + sizeof(junk),
			       got.len - sizeof(junk)));
	close(fd);

	/* pwrite() of an O_APPEND file would append */
	fd = disk_tmpfile();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fcntl(fd, F_SETFL, O_APPEND));
	write_synth(_metadata, fd, opt, false);
	bytes_from_fd(fd, &got);
	EXPECT_TRUE(same_bytes(&want, got.data, got.len));
	close(fd);

	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, srecwriter_open(&w, fds[1], &opt));
	EXPECT_FALSE(srecwriter_direct(w));
	srecwriter_close(w);
	close(fds[0]);
	close(fds[1]);
	bytes_free(&want);
	bytes_free(&got);
}

TEST_HARNESS_MAIN
