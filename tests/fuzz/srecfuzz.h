/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses of .srec readers share (README.md).
 *
 * An input is a .srec file followed by one control byte, which the
 * harness uses to choose how it reads (options, report): the file is
 * every byte but the last.  `head -c -1 INPUT >trace.srec` gives the
 * trace to hand to schedrec.
 *
 * The mutator: libFuzzer's own, then the checksums of every section of
 * the mutated file made right again (srecfuzz_fix_crcs()), so that a
 * mutation reaches the parsing of the section and what is built from it,
 * not just the checksum test.  One mutation in 16 keeps its checksums
 * as they came, so that damage stays covered too; SRECFUZZ_RAW=1 in the
 * environment keeps them all (the raw variant).
 */
#ifndef SCHEDREC_SRECFUZZ_H
#define SCHEDREC_SRECFUZZ_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points, and its mutator */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

/*
 * Make each section of the .srec bytes at @data pass its checksums: every
 * frame with SREC's magic at a multiple of 8 from where the one before
 * ended, its head_crc if its head is within the @len bytes, its data_crc
 * if its data is.  How many frames it rewrote.
 */
size_t srecfuzz_fix_crcs(unsigned char *data, size_t len);

/* The control byte of an input and the length of its file. */
static inline unsigned int srecfuzz_control(const uint8_t *data, size_t size,
					    size_t *file_len)
{
	*file_len = size ? size - 1 : 0;
	return size ? data[size - 1] : 0;
}

/* Called once at start: SRECFUZZ_RAW, stderr. */
void srecfuzz_init(void);

#endif /* SCHEDREC_SRECFUZZ_H */
