/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drainrig: the drainer of `schedrec record` on the host, for the tests
 * and the benchmark.  A producer thread on CPU 0 writes switch and waking
 * records into kmod/ring.c (through the kernel shim); the real drain code
 * (user/drain.c, ringreader, srecwriter) on CPU 1 writes them as a .srec
 * to a file descriptor.
 */
#ifndef SCHEDREC_DRAINRIG_H
#define SCHEDREC_DRAINRIG_H

#include <stdbool.h>
#include <stdint.h>

#include "srecfmt.h"

struct drainrig {
	/* what to run */
	uint64_t ring_size;	/* bytes, a power of two */
	uint64_t records;	/* produce this many, or 0: for @seconds */
	double seconds;
	double rate;		/* records/s offered, 0: as fast as possible */
	bool prefill;		/* fill the ring first, then drain it alone */
	unsigned int sink_delay; /* spin this much per byte written: a slow
				  * disk, to make the ring overflow
				  */
	int zlib_level;
	bool direct;		/* write with O_DIRECT (srecwriter options) */
	int fd;			/* the trace goes here */

	/* what happened */
	uint64_t produced;
	uint64_t chunks;	/* handed to the writer */
	uint64_t lost_records;	/* LOST records among them */
	uint64_t drainer_lost;	/* events the drainer saw LOST records count */
	uint64_t kernel_written, kernel_lost;	/* the ring's counters */
	struct srec_cpu_total total;	/* the writer's, at the end */
	uint64_t file_bytes;
	double elapsed;		/* seconds the drainer ran */
	int error;		/* 0 or a negative errno */
};

/* Run it; returns rig->error. */
int drainrig_run(struct drainrig *rig);

#endif /* SCHEDREC_DRAINRIG_H */
