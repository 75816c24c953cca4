/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srecsys: what a trace header says about the machine it was recorded on,
 * gathered for srecwriter_write_header(): uname, the online CPUs, the
 * clocks, and a snapshot of every thread alive (tid, tgid, comm) from
 * /proc.  These functions allocate and read files: call them before the
 * drain loop starts.
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

#endif /* SCHEDREC_SRECSYS_H */
