/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers for the files of /proc/schedrec (doc/procfs.md) and other
 * control files such as tracefs: write a string in one write() and get the
 * errno back, read a whole file, parse stats and the event mask.
 *
 * A name without a leading '/' is taken relative to /proc/schedrec.
 * Functions return 0 (or a length) on success and a negative errno.
 */
#ifndef SCHEDREC_PROCFILE_H
#define SCHEDREC_PROCFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Write @value with a single write(); -errno if it fails or is short. */
int procfile_write(const char *name, const char *value);

/*
 * Read the whole file into @buf (NUL-terminated, truncated to @size - 1).
 * Returns the length read.
 */
ssize_t procfile_read(const char *name, char *buf, size_t size);

/* Read a file holding one unsigned decimal number. */
int procfile_read_u64(const char *name, uint64_t *value);

/* The event mask: the "mask 0x..." line of /proc/schedrec/events. */
int procfile_events_mask(uint32_t *mask);

struct procfile_cpu_stats {
	uint64_t written;	/* records written */
	uint64_t lost;		/* events dropped on a full ring */
	uint64_t overwritten;	/* overwrite mode: records forgotten */
	uint64_t bytes;		/* bytes written, PAD included (= head) */
	uint64_t head;
	uint64_t tail;		/* where a reader starts now */
	uint64_t peak;		/* highest fill in bytes */
};

struct procfile_stats {
	bool enabled;
	bool overwrite;		/* mode=overwrite */
	unsigned int buf_kb;
	uint32_t events;
	unsigned int nr_cpus;	/* lines in cpu[] */
	struct procfile_cpu_stats *cpu;	/* indexed by CPU number */
};

/* Parse /proc/schedrec/stats; free with procfile_stats_free(). */
int procfile_stats_read(struct procfile_stats *stats);
void procfile_stats_free(struct procfile_stats *stats);

#endif /* SCHEDREC_PROCFILE_H */
