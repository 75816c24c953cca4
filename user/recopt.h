/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of `schedrec record`, parsed and checked, and its --help.
 */
#ifndef SCHEDREC_RECOPT_H
#define SCHEDREC_RECOPT_H

#include <stdbool.h>
#include <stdint.h>

enum recopt_wait {
	RECOPT_WAIT_POLL,	/* block in poll() on the rings' watermark */
	RECOPT_WAIT_SPIN,	/* never block */
	RECOPT_WAIT_ADAPTIVE,	/* spin, then naps growing to 6.4 ms */
};

/* The smallest --rotate: a file holds a header and a few 64 KiB chunks. */
#define RECOPT_ROTATE_MIN	(256u << 10)

struct recopt {
	int cpu;		/* -C, -1: not pinned */
	const char *output;	/* -o, "-" is stdout */
	uint32_t events;	/* -e, as a mask */
	uint64_t duration_ns;	/* -d, 0: until the command ends or a signal */
	uint32_t pid;		/* -p: keep only this process's threads */
	uint32_t tid;		/* --tid: keep only this thread */
	unsigned int buf_kb;	/* -m, 0: leave the module's */
	uint64_t rotate_bytes;	/* --rotate: a new file at this size, 0: never */
	unsigned int keep;	/* --keep: files of a rotation kept, 0: all */
	int zlib_level;		/* -z[LEVEL], 0: raw */
	bool direct;		/* --direct: O_DIRECT writes */
	enum recopt_wait wait;
	bool dump;		/* --dump the flight recorder */
	bool quiet;
	char **argv;		/* the command after --, or NULL */
	char cmdline[1024];	/* our own command line, for the header */
	char filter_text[64];	/* the filter in words */
};

/*
 * Returns 0 when @o is ready, 1 when --help was printed, -1 after printing
 * what is wrong with the command line.
 */
int recopt_parse(struct recopt *o, int argc, char **argv);

#endif /* SCHEDREC_RECOPT_H */
