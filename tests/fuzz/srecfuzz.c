// SPDX-License-Identifier: GPL-2.0
/* The CRC-fixing mutator of the .srec harnesses; see srecfuzz.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "srecfmt.h"
#include "sreccrc.h"
#include "srecfuzz.h"

static bool raw;

void srecfuzz_init(void)
{
	const char *env = getenv("SRECFUZZ_RAW");

	raw = env && *env && strcmp(env, "0");
}

size_t srecfuzz_fix_crcs(unsigned char *data, size_t len)
{
	struct srec_frame f;
	uint64_t off = 0, head_end, data_end;
	size_t fixed = 0;
	uint32_t crc;

	while (off + sizeof(f) <= len) {
		memcpy(&f, data + off, sizeof(f));
		if (f.magic != SREC_MAGIC || f.head_len > SREC_HEAD_MAX) {
			off += SREC_ALIGN;	/* look for the next frame */
			continue;
		}
		head_end = off + sizeof(f) + f.head_len;
		if (head_end > len)
			break;
		data_end = head_end + f.data_len;
		if (data_end <= len)
			f.data_crc = srec_crc32(0, data + head_end, f.data_len);
		crc = srec_crc32(0, &f, SREC_FRAME_CRC_LEN);
		f.head_crc = srec_crc32(crc, data + off + sizeof(f),
					f.head_len);
		memcpy(data + off, &f, sizeof(f));
		fixed++;
		if (data_end > len)
			break;
		off = (data_end + SREC_ALIGN - 1) & ~(uint64_t)(SREC_ALIGN - 1);
	}
	return fixed;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	size = LLVMFuzzerMutate(data, size, max_size);
	/* the control byte, last, is no part of the file */
	if (!raw && seed % 16 && size)
		srecfuzz_fix_crcs(data, size - 1);
	return size;
}
