/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU rings: one single-producer, single-consumer ring per possible CPU.
 * The protocol (positions, PAD, LOST, modes) is described in
 * include/uapi/schedrec.h; this is the kernel side of it.
 */
#ifndef _SCHEDREC_RING_H
#define _SCHEDREC_RING_H

#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "../include/uapi/schedrec.h"

struct schedrec_ring {
	/* producer state, touched only by the CPU that owns the ring */
	u64 head;		/* the truth; ctrl->head is its published copy */
	u64 next_head;		/* end of the record being written */
	u64 oldest;		/* overwrite mode: oldest record kept */
	u64 seq;		/* next sequence number */
	u64 pending_lost;	/* dropped since the last LOST record */
	u64 lost_first_ts;
	u64 lost_last_ts;
	u32 mode;		/* enum schedrec_mode, fixed while enabled */

	/* counters, written by the producer, read racily by stats */
	u64 written;
	u64 lost;
	u64 overwritten;
	u64 bytes;
	u64 peak;

	/* fixed while the ring exists */
	struct schedrec_ring_ctrl *ctrl;	/* shared with userspace */
	void *data;				/* shared, read-only there */
	u64 size;				/* power of two */
	u64 mask;
	u64 watermark;				/* wake readers at this fill */
	unsigned int cpu;

	struct irq_work wakeup_work;
	wait_queue_head_t wait;
	unsigned long open_flag;		/* bit 0: a reader has it open */
};

DECLARE_PER_CPU(struct schedrec_ring *, schedrec_this_ring);

struct schedrec_ring *schedrec_ring(unsigned int cpu);
int schedrec_rings_alloc(u64 size);
void schedrec_rings_free(void);
void schedrec_rings_reset(u32 mode);
void schedrec_rings_stop(void);
/* Wakeups never left on a CPU going down: a stop or unload never waits for one. */
int schedrec_rings_hotplug_init(void);
void schedrec_rings_hotplug_exit(void);
void schedrec_ring_ctrl_identify(struct schedrec_ring *ring);

/*
 * The producer's hot path; callers run with IRQs off on the ring's CPU.
 * reserve() reads the clock; reserve_at() takes @ts read by the caller, so
 * that records of one event (a stack and its switch) share one reading.
 * @size is at most SCHEDREC_STACK_MAX_SIZE and a multiple of
 * SCHEDREC_RECORD_ALIGN; the record's bytes after the header are the
 * caller's to write, all of them, before commit.
 */
void *schedrec_ring_reserve_at(struct schedrec_ring *ring, u64 ts, u8 type,
			       u16 size, u8 flags);

static inline void *schedrec_ring_reserve(struct schedrec_ring *ring, u8 type,
					  u16 size, u8 flags)
{
	return schedrec_ring_reserve_at(ring, ktime_get_mono_fast_ns(), type,
					size, flags);
}
void schedrec_ring_commit(struct schedrec_ring *ring);

/* Bytes a reader has yet to consume. */
u64 schedrec_ring_used(struct schedrec_ring *ring);
/* Where a reader starts: the clamped tail, or the oldest kept record. */
u64 schedrec_ring_read_start(struct schedrec_ring *ring);

#endif /* _SCHEDREC_RING_H */
