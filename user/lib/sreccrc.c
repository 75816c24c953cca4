// SPDX-License-Identifier: GPL-2.0
/*
 * srec_crc32(): ISA-L's CRC-32 if the program was linked with libisal,
 * zlib's otherwise; see sreccrc.h.
 */
#include <zlib.h>

#include "sreccrc.h"

/*
 * ISA-L's gzip CRC (isa-l/crc.h), declared here weak so that this file
 * builds and links without it: NULL when libisal is not linked in.
 */
uint32_t crc32_gzip_refl(uint32_t init_crc, const unsigned char *buf,
			 uint64_t len) __attribute__((weak));

uint32_t srec_crc32_zlib(uint32_t crc, const void *buf, size_t len)
{
	/* zlib gives 0 for no buffer, whatever crc was */
	return len ? crc32_z(crc, buf, len) : crc;
}

uint32_t srec_crc32(uint32_t crc, const void *buf, size_t len)
{
	if (crc32_gzip_refl)
		return len ? crc32_gzip_refl(crc, buf, len) : crc;
	return srec_crc32_zlib(crc, buf, len);
}

bool srec_crc32_isal(void)
{
	return crc32_gzip_refl;
}
