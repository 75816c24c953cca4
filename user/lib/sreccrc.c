// SPDX-License-Identifier: GPL-2.0
/*
 * srec_crc32(): the CRC-32 of zlib's crc32(), by carry-less multiplication
 * where the CPU has it (x86-64 with PCLMULQDQ), by zlib otherwise; see
 * sreccrc.h.
 *
 * The data is folded: a 128-bit block A, taken as a polynomial, counts in
 * the CRC as A * x^n where n is how many bits follow it, so A * x^D mod P
 * (P, the CRC's polynomial) may be added to the block D bits further on
 * instead.  Four blocks of 128 bits are folded 512 bits on at a time, then
 * into one another, and the last 128 bits and what is left of the data
 * (under 16 bytes) go through zlib.
 *
 * The bits are reflected: bit 0 of a byte comes first, as the highest
 * power.  A block loaded little-endian holds its first 64 bits, H, in its
 * low half and the next 64, L, in its high half, and A * x^D = H *
 * x^(D + 64) + L * x^D.  The product of two reflected 64-bit values is the
 * reflected 128-bit product times x, so the constants are x^(D + 63) and
 * x^(D - 1) mod P, reflected.
 */
#include <stdbool.h>
#include <zlib.h>

#include "sreccrc.h"
#include "util.h"

uint32_t srec_crc32_zlib(uint32_t crc, const void *buf, size_t len)
{
	/* zlib gives 0 for no buffer, whatever crc was */
	return len ? crc32_z(crc, buf, len) : crc;
}

#ifdef SREC_CPU_FEATURES
#include <immintrin.h>
#include <sys/platform/x86.h>

/* P without its x^32, in the usual (not reflected) order */
#define CRC32_POLY	0x04c11db7u

/* The fold starts from four blocks of 16 bytes: under that, zlib's tables */
#define CLMUL_MIN	64

/*
 * How far ahead the fold asks for the data.  The CRC is the first to read
 * a chunk, often from memory, and the CPU's own prefetchers stop at the
 * end of each 4 KiB page: a page ahead, the next is on its way.
 */
#define CLMUL_AHEAD	4096

/* The constants of a fold by 512 and by 128 bits: see the top. */
static __m128i fold_512, fold_128;
static bool clmul;

/* x^@n mod P, reflected into the high half of 64 bits. */
static uint64_t reflected_xpow(unsigned int n)
{
	uint64_t r = 1, out = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		r = r << 1 ^ (r >> 31 & 1 ? (uint64_t)1 << 32 | CRC32_POLY : 0);
	for (i = 0; i < 32; i++)
		out |= (r >> i & 1) << (63 - i);
	return out;
}

static __m128i fold_constants(unsigned int bits)
{
	return _mm_set_epi64x(reflected_xpow(bits - 1),
			      reflected_xpow(bits + 63));
}

/*
 * Whether PCLMULQDQ is there, as the C library found (SREC_CPU_FEATURES;
 * libgcc's __builtin_cpu_supports() would read a dozen CPUID leaves).
 */
static __attribute__((constructor)) void crc32_init(void)
{
	clmul = CPU_FEATURE_ACTIVE(PCLMULQDQ);
	fold_512 = fold_constants(512);
	fold_128 = fold_constants(128);
}

/* @a moved on by the fold of @k, added to @data. */
static inline __attribute__((target("pclmul"))) __m128i
fold(__m128i a, __m128i k, __m128i data)
{
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00),
					   _mm_clmulepi64_si128(a, k, 0x11)),
			     data);
}

static __attribute__((target("pclmul"))) uint32_t
crc32_clmul(uint32_t crc, const unsigned char *buf, size_t len)
{
	const __m128i *in = (const void *)buf;
	__m128i a0, a1, a2, a3;
	unsigned char last[16];

	/* the CRC so far, as zlib keeps it, added to the first 32 bits */
	a0 = _mm_xor_si128(_mm_loadu_si128(in), _mm_cvtsi32_si128(~crc));
	a1 = _mm_loadu_si128(in + 1);
	a2 = _mm_loadu_si128(in + 2);
	a3 = _mm_loadu_si128(in + 3);
	for (in += 4, len -= 64; len >= 64; in += 4, len -= 64) {
		__builtin_prefetch((const char *)in + CLMUL_AHEAD);
		a0 = fold(a0, fold_512, _mm_loadu_si128(in));
		a1 = fold(a1, fold_512, _mm_loadu_si128(in + 1));
		a2 = fold(a2, fold_512, _mm_loadu_si128(in + 2));
		a3 = fold(a3, fold_512, _mm_loadu_si128(in + 3));
	}
	a3 = fold(fold(fold(a0, fold_128, a1), fold_128, a2), fold_128, a3);
	for (; len >= 16; in++, len -= 16)
		a3 = fold(a3, fold_128, _mm_loadu_si128(in));
	_mm_storeu_si128((void *)last, a3);
	/* zlib's CRC of ~0 starts from nothing, as the fold did */
	return srec_crc32_zlib(crc32_z(~0u, last, sizeof(last)), in, len);
}

uint32_t srec_crc32(uint32_t crc, const void *buf, size_t len)
{
	if (clmul && len >= CLMUL_MIN)
		return crc32_clmul(crc, buf, len);
	return srec_crc32_zlib(crc, buf, len);
}

bool srec_crc32_clmul(void)
{
	return clmul;
}
#else
uint32_t srec_crc32(uint32_t crc, const void *buf, size_t len)
{
	return srec_crc32_zlib(crc, buf, len);
}

bool srec_crc32_clmul(void)
{
	return false;
}
#endif
