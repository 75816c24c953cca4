/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CRC-32 of .srec frames and chunks: zlib's crc32() (the ISO-HDLC
 * polynomial, as gzip and zip use), computed by carry-less multiplication
 * where the CPU has it (x86-64's PCLMULQDQ, about ten times as fast), by
 * zlib otherwise.  Both give the same values.
 */
#ifndef SCHEDREC_SRECCRC_H
#define SCHEDREC_SRECCRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The CRC of @crc's data followed by @len bytes at @buf (NULL if @len is
 * 0); start with 0.
 */
uint32_t srec_crc32(uint32_t crc, const void *buf, size_t len);

/* The same by zlib, whatever the build (for tests). */
uint32_t srec_crc32_zlib(uint32_t crc, const void *buf, size_t len);

/* Whether srec_crc32() multiplies without carries (else zlib's code). */
bool srec_crc32_clmul(void);

#endif /* SCHEDREC_SRECCRC_H */
