// SPDX-License-Identifier: GPL-2.0
/*
 * srec_crc32(), and srec_crc32_zlib() that it falls back to without
 * carry-less multiplication, against zlib's crc32(): every length up to
 * 4 KiB at every alignment, 1 MiB at once, a buffer split at random places
 * and chained, empty pieces (NULL too, which zlib's crc32() turns into 0);
 * and that srec_crc32() multiplies where the CPU can, so that its code is
 * what these cases test.
 */
#include <stdlib.h>
#include <zlib.h>

#include "kselftest_harness.h"

#include "sreccrc.h"
#include "util.h"

#define BIG	(1u << 20)

typedef uint32_t crc_fn(uint32_t crc, const void *buf, size_t len);

static crc_fn *const fns[] = { srec_crc32, srec_crc32_zlib };

static unsigned char *random_bytes(size_t len, unsigned int seed)
{
	unsigned char *buf = malloc(len);
	size_t i;

	srand(seed);
	for (i = 0; buf && i < len; i++)
		buf[i] = rand();
	return buf;
}

TEST(multiplies_where_the_cpu_can)
{
#ifdef SREC_CPU_FEATURES
	__builtin_cpu_init();
	EXPECT_EQ(!!__builtin_cpu_supports("pclmul"), srec_crc32_clmul());
#else
	EXPECT_FALSE(srec_crc32_clmul());
#endif
}

TEST(every_length_and_alignment)
{
	unsigned char *buf = random_bytes(4096 + 16, 1);
	size_t len, align, f;

	ASSERT_NE(NULL, buf);
	for (f = 0; f < 2; f++)
		for (align = 0; align < 16; align++)
			for (len = 0; len <= 4096; len++)
				ASSERT_EQ(crc32(0, buf + align, len),
					  fns[f](0, buf + align, len)) {
					TH_LOG("fn %zu: length %zu at offset %zu",
					       f, len, align);
				}
	free(buf);
}

TEST(large_and_chained)
{
	unsigned char *buf = random_bytes(BIG, 2);
	uint32_t whole, crc;
	size_t pos, piece, f;
	int round;

	ASSERT_NE(NULL, buf);
	whole = crc32(0, buf, BIG);
	for (f = 0; f < 2; f++) {
		EXPECT_EQ(whole, fns[f](0, buf, BIG));
		for (round = 0; round < 10; round++) {
			crc = 0;
			for (pos = 0; pos < BIG; pos += piece) {
				piece = rand() % 9000;
				if (piece > BIG - pos)
					piece = BIG - pos;
				crc = fns[f](crc, buf + pos, piece);
			}
			ASSERT_EQ(whole, crc);
		}
		/* an empty piece leaves the CRC as it was */
		EXPECT_EQ(whole, fns[f](whole, buf, 0));
		EXPECT_EQ(whole, fns[f](whole, NULL, 0));
		EXPECT_EQ(0, fns[f](0, NULL, 0));
	}
	free(buf);
}

TEST_HARNESS_MAIN
