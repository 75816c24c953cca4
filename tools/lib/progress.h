/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line of a long read, for a terminal: once the read has
 * gone on for a while (PROGRESS_DELAY_MS; SCHEDREC_PROGRESS_DELAY, in
 * milliseconds, changes it), a line on stderr,
 *
 *	schedrec report offcpu: read 44% (1.42 of 3.20 GB), about 3 s left
 *
 * drawn again at most every PROGRESS_EVERY_MS, and wiped (progress_clear())
 * before anything else is said on stderr and when the read is over.  Of a
 * file whose size is not known (standard input), the bytes read only.
 * Cut to the terminal's width, so that it never wraps.
 */
#ifndef SCHEDREC_PROGRESS_H
#define SCHEDREC_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_DELAY_MS	1000
#define PROGRESS_EVERY_MS	250

struct progress {
	char label[64];		/* "schedrec report offcpu" */
	char *const *paths;	/* the files read, one after the other */
	unsigned int nr_paths;
	unsigned int file;	/* the one being read */
	uint64_t done;		/* the bytes of those before it */
	uint64_t total;		/* of them all; 0: not known */
	uint64_t start_ns, next_ns;
	unsigned int columns;	/* the terminal's; 0: not known */
	bool on;		/* progress_start() was called */
	bool shown;		/* a line is on the terminal */
};

/*
 * Start counting the read of @paths (@n of them, "-" for standard input),
 * which @label names; @paths must last as long as @p is used.
 */
void progress_start(struct progress *p, const char *label,
		    char *const *paths, unsigned int n);

/* The reader is at byte @offset of file @file: draw the line if it is time. */
void progress_update(struct progress *p, unsigned int file, uint64_t offset);

/* Wipe the line, if one is shown. */
void progress_clear(struct progress *p);

/*
 * The line's text after the label: @done bytes of @total (0: not known)
 * read in @elapsed_ns.
 */
void progress_format(char *buf, size_t size, uint64_t done, uint64_t total,
		     uint64_t elapsed_ns);

#endif /* SCHEDREC_PROGRESS_H */
