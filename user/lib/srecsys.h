/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecsys: what a trace header says about the machine it was recorded on,
 * gathered for srecwriter_write_header(): uname, the online CPUs, the
 * clocks, and a snapshot of every thread alive (tid, tgid, comm) from
 * /proc, and the /proc/kallsyms snapshot that names the addresses of
 * stack records.  These functions allocate and read files: call them
 * before the drain loop starts.
 */
#ifndef SCHEDREC_SRECSYS_H
#define SCHEDREC_SRECSYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "srecfmt.h"

struct srecwriter_header;

struct srecsys {
	struct utsname uts;
	char online[4096];	/* /sys/devices/system/cpu/online, or "" */
	uint64_t start_mono_ns;	/* read back to back */
	uint64_t start_real_ns;
	struct srec_thread *threads;	/* srecsys_threads(), sorted by tid */
	size_t nr_threads;
};

/*
 * Fill @sys: uname, online CPUs, both clocks now, and the thread snapshot
 * of @proc_root (NULL: "/proc").  Returns 0 or -errno; free with
 * srecsys_free().
 */
int srecsys_read(struct srecsys *sys, const char *proc_root);
void srecsys_free(struct srecsys *sys);

/* Point @hdr's machine fields (strings, clocks, threads) at @sys. */
void srecsys_fill_header(const struct srecsys *sys,
			 struct srecwriter_header *hdr);

/*
 * Snapshot every thread under @proc_root/<pid>/task/<tid>/ (tgid is <pid>,
 * comm from the task's comm file, its trailing newline removed), sorted by
 * tid.  Threads that vanish during the scan are left out, not an error.
 * *@threads is malloc()ed (NULL when there is none).  Returns 0 or -errno
 * (the root cannot be read, or no memory).
 */
int srecsys_threads(const char *proc_root, struct srec_thread **threads,
		    size_t *count);

/* Read CLOCK_MONOTONIC and CLOCK_REALTIME back to back. */
void srecsys_clocks(uint64_t *mono_ns, uint64_t *real_ns);

/* A /proc/kallsyms snapshot, compressed for the header's KSYMS section. */
struct srecsys_ksyms {
	void *data;		/* zlib stream, malloc()ed */
	uint32_t len;		/* its bytes */
	uint32_t raw_len;	/* bytes of text it inflates to */
	uint32_t flags;		/* SREC_KSYMS_F_* */
	size_t lines;		/* symbols */
};

/*
 * Read @path (NULL: /proc/kallsyms) whole and compress it.  The flag
 * SREC_KSYMS_F_HIDDEN says every address read as 0: the kernel hides them
 * from this reader (kptr_restrict; root sees them unless it is 2).
 * Returns 0, -EFBIG for a text longer than SREC_KSYMS_MAX, or -errno; free
 * with srecsys_kallsyms_free().  Reading the kernel's file takes a while:
 * do it before recording starts.
 */
int srecsys_kallsyms(struct srecsys_ksyms *k, const char *path);
void srecsys_kallsyms_free(struct srecsys_ksyms *k);

/* Point @hdr's KSYMS fields at @k (nothing if it holds no snapshot). */
void srecsys_fill_ksyms(const struct srecsys_ksyms *k,
			struct srecwriter_header *hdr);

#endif /* SCHEDREC_SRECSYS_H */
