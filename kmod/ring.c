// SPDX-License-Identifier: GPL-2.0
/*
 * The producer side of the per-CPU rings, and their allocation.
 *
 * Each ring is written only by its CPU, from tracepoint probes that run with
 * IRQs off around the store, so producer state needs no atomics: only the
 * published head (release) and the consumer's tail (acquire) cross CPUs.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "ring.h"

DEFINE_PER_CPU(struct schedrec_ring *, schedrec_this_ring);

static struct schedrec_ring **rings;

/*
 * A CPU on its way down queues no reader wakeup: its irq_work thread (on
 * PREEMPT_RT, where our irq_work runs) is parked soon, and a wakeup queued
 * then would wait there until the CPU came back, and with it every
 * irq_work_sync() of a stop or an unload.  Set on this CPU by
 * ring_cpu_down(), cleared by ring_cpu_up().
 */
static DEFINE_PER_CPU(bool, ring_no_wakeup);
static int ring_cpuhp_state = -1;

struct schedrec_ring *schedrec_ring(unsigned int cpu)
{
	return rings ? rings[cpu] : NULL;
}

/*
 * The consumer position as the kernel may use it: aligned to a record
 * boundary and inside [head - size, head], whatever userspace stored.
 */
static u64 ring_clamped_tail(struct schedrec_ring *ring, u64 head)
{
	/* pairs with the reader's release of tail: its reads are done */
	u64 tail = smp_load_acquire(&ring->ctrl->tail);

	tail &= ~(u64)(SCHEDREC_RECORD_ALIGN - 1);
	if ((s64)(head - tail) < 0)
		return head;
	if (head - tail > ring->size)
		return head - ring->size;
	return tail;
}

/* Bytes a record of @size needs at @head, counting the PAD before it. */
static u64 ring_need(struct schedrec_ring *ring, u64 head, u16 size)
{
	u64 to_end = ring->size - (head & ring->mask);

	return size > to_end ? to_end + size : size;
}

static void ring_write_header(struct schedrec_header *hdr, u64 ts, u32 seq,
			      u16 size, u8 type, u8 flags)
{
	hdr->ts = ts;
	hdr->seq = seq;
	hdr->size = size;
	hdr->type = type;
	hdr->flags = flags;
}

/*
 * Place a record at head, behind a PAD record if it would cross the end of
 * the data area.  Nothing is published until ring_publish().
 */
static void *ring_place(struct schedrec_ring *ring, u64 ts, u8 type,
			u16 size, u8 flags)
{
	u64 head = ring->head;
	u64 pos = head & ring->mask;
	u64 to_end = ring->size - pos;
	struct schedrec_header *hdr;

	if (size > to_end) {
		/* to_end < size <= SCHEDREC_STACK_MAX_SIZE: a u16 holds it */
		ring_write_header(ring->data + pos, ts, 0, to_end,
				  SCHEDREC_REC_PAD, 0);
		head += to_end;
		pos = 0;
	}
	hdr = ring->data + pos;
	ring_write_header(hdr, ts, (u32)ring->seq++, size, type, flags);
	ring->next_head = head + size;
	return hdr;
}

static void ring_publish(struct schedrec_ring *ring, u64 new_head, u64 tail)
{
	u64 old_used = ring->head - tail;
	u64 used = new_head - tail;

	/* the record is written before the kernel's head says so... */
	smp_store_release(&ring->head, new_head);
	/* ...and before the copy that mmap readers see */
	smp_store_release(&ring->ctrl->head, new_head);
	ring->bytes = new_head;
	if (used > ring->peak)
		ring->peak = used;
	/* Wake readers once per crossing, from IRQ work, never from here. */
	if (ring->mode == SCHEDREC_MODE_STREAM &&
	    old_used < ring->watermark && used >= ring->watermark &&
	    !__this_cpu_read(ring_no_wakeup))
		irq_work_queue(&ring->wakeup_work);
}

/* Write the LOST record a full ring owes its reader, if it fits now. */
static bool ring_emit_lost(struct schedrec_ring *ring, u64 tail, u64 ts)
{
	struct schedrec_lost *rec;

	if (ring->head + ring_need(ring, ring->head, sizeof(*rec)) - tail >
	    ring->size)
		return false;
	rec = ring_place(ring, ts, SCHEDREC_REC_LOST, sizeof(*rec), 0);
	rec->count = ring->pending_lost;
	rec->first_ts = ring->lost_first_ts;
	rec->last_ts = ring->lost_last_ts;
	rec->__pad = 0;
	ring->pending_lost = 0;
	ring_publish(ring, ring->next_head, tail);
	return true;
}

/* Overwrite mode: forget the oldest records until @size fits. */
static void ring_make_room(struct schedrec_ring *ring, u16 size)
{
	u64 need = ring_need(ring, ring->head, size);

	while (ring->head + need - ring->oldest > ring->size) {
		struct schedrec_header *hdr;
		u64 pos = ring->oldest & ring->mask;

		hdr = ring->data + pos;
		if (hdr->size < sizeof(*hdr) || hdr->size > ring->size - pos) {
			/* cannot happen: only this CPU writes the data */
			ring->oldest = ring->head;
			break;
		}
		if (hdr->type != SCHEDREC_REC_PAD)
			ring->overwritten++;
		ring->oldest += hdr->size;
	}
	/* overwrite-mode readers start here; see the ABI header */
	smp_store_release(&ring->ctrl->oldest, ring->oldest);
}

static void ring_count_drop(struct schedrec_ring *ring, u64 ts)
{
	ring->seq++;
	ring->lost++;
	if (!ring->pending_lost++)
		ring->lost_first_ts = ts;
	ring->lost_last_ts = ts;
	WRITE_ONCE(ring->ctrl->lost, ring->lost);
}

void *schedrec_ring_reserve_at(struct schedrec_ring *ring, u64 ts, u8 type,
			       u16 size, u8 flags)
{
	u64 tail;

	if (ring->mode == SCHEDREC_MODE_OVERWRITE) {
		ring_make_room(ring, size);
		return ring_place(ring, ts, type, size, flags);
	}
	tail = ring_clamped_tail(ring, ring->head);
	/* the LOST record goes first; an event never overtakes it */
	if ((ring->pending_lost && !ring_emit_lost(ring, tail, ts)) ||
	    ring->head + ring_need(ring, ring->head, size) - tail > ring->size) {
		ring_count_drop(ring, ts);
		return NULL;
	}
	return ring_place(ring, ts, type, size, flags);
}

void schedrec_ring_commit(struct schedrec_ring *ring)
{
	u64 tail = ring->mode == SCHEDREC_MODE_OVERWRITE ? ring->oldest :
		   ring_clamped_tail(ring, ring->head);

	ring->written++;
	ring_publish(ring, ring->next_head, tail);
}

u64 schedrec_ring_read_start(struct schedrec_ring *ring)
{
	/* pairs with ring_publish(): records up to head are complete */
	u64 head = smp_load_acquire(&ring->head);
	u64 tail = ring_clamped_tail(ring, head);
	u64 oldest = READ_ONCE(ring->oldest);

	if (ring->mode == SCHEDREC_MODE_OVERWRITE && (s64)(oldest - tail) > 0)
		return oldest;
	return tail;
}

u64 schedrec_ring_used(struct schedrec_ring *ring)
{
	/* pairs with ring_publish() */
	return smp_load_acquire(&ring->head) - schedrec_ring_read_start(ring);
}

static void ring_wakeup(struct irq_work *work)
{
	struct schedrec_ring *ring;

	ring = container_of(work, struct schedrec_ring, wakeup_work);
	wake_up_interruptible(&ring->wait);
}

static void ring_free(struct schedrec_ring *ring)
{
	if (!ring)
		return;
	vfree(ring->data);
	if (ring->ctrl)
		free_page((unsigned long)ring->ctrl);
	kfree(ring);
}

static struct schedrec_ring *ring_alloc(unsigned int cpu, u64 size)
{
	int node = cpu_to_node(cpu);
	struct schedrec_ring *ring;
	struct page *page;

	ring = kzalloc_node(sizeof(*ring), GFP_KERNEL, node);
	if (!ring)
		return NULL;
	page = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, 0);
	ring->data = vzalloc_node(size, node);
	if (!page || !ring->data) {
		if (page)
			__free_page(page);
		ring_free(ring);
		return NULL;
	}
	ring->ctrl = page_address(page);
	ring->cpu = cpu;
	ring->size = size;
	ring->mask = size - 1;
	ring->watermark = size / 4;
	init_irq_work(&ring->wakeup_work, ring_wakeup);
	init_waitqueue_head(&ring->wait);
	schedrec_ring_ctrl_identify(ring);
	return ring;
}

/*
 * The control page's fields that describe the ring, written again: a
 * reader may have scribbled on them through its writable mapping, and the
 * next reader must find them true.
 */
void schedrec_ring_ctrl_identify(struct schedrec_ring *ring)
{
	WRITE_ONCE(ring->ctrl->abi_version, SCHEDREC_ABI_VERSION);
	WRITE_ONCE(ring->ctrl->cpu, ring->cpu);
	WRITE_ONCE(ring->ctrl->page_size, PAGE_SIZE);
	WRITE_ONCE(ring->ctrl->data_size, ring->size);
	WRITE_ONCE(ring->ctrl->mode, ring->mode);
}

static void rings_free_locked(void)
{
	unsigned int cpu;

	/* under cpus_read_lock() */
	if (!rings)
		return;
	for_each_possible_cpu(cpu) {
		per_cpu(schedrec_this_ring, cpu) = NULL;
		irq_work_sync(&rings[cpu]->wakeup_work);
		ring_free(rings[cpu]);
	}
	kfree(rings);
	rings = NULL;
}

/*
 * (Re)allocate every ring with @size bytes of data; all or nothing.
 * Callers guarantee that no probe is attached and no CPU file is open.
 */
int schedrec_rings_alloc(u64 size)
{
	struct schedrec_ring **fresh;
	unsigned int cpu;

	fresh = kcalloc(nr_cpu_ids, sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		fresh[cpu] = ring_alloc(cpu, size);
		if (!fresh[cpu])
			goto fail;
	}
	/* the hotplug callbacks see the old rings or the new, never neither */
	cpus_read_lock();
	rings_free_locked();
	rings = fresh;
	for_each_possible_cpu(cpu)
		per_cpu(schedrec_this_ring, cpu) = rings[cpu];
	cpus_read_unlock();
	return 0;
fail:
	for_each_possible_cpu(cpu)
		ring_free(fresh[cpu]);
	kfree(fresh);
	return -ENOMEM;
}

void schedrec_rings_free(void)
{
	cpus_read_lock();
	rings_free_locked();
	cpus_read_unlock();
}

/*
 * On the CPU going down, before its irq_work thread is parked (an AP
 * state, run there by its hotplug thread): queue no more wakeups here, and
 * let those queued run.  Any ring's: a stop writing LOST records queues
 * on the CPU it runs on.  The rings cannot change meanwhile: they change
 * under cpus_read_lock(), and hotplug holds the write side.
 */
static int ring_cpu_down(unsigned int cpu)
{
	unsigned int i;

	__this_cpu_write(ring_no_wakeup, true);
	if (rings)
		for_each_possible_cpu(i)
			irq_work_sync(&rings[i]->wakeup_work);
	return 0;
}

/* Back online: wakeups again, and its reader woken for what came meanwhile. */
static int ring_cpu_up(unsigned int cpu)
{
	__this_cpu_write(ring_no_wakeup, false);
	if (rings)
		wake_up_interruptible(&rings[cpu]->wait);
	return 0;
}

int schedrec_rings_hotplug_init(void)
{
	int ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "schedrec:online",
				    ring_cpu_up, ring_cpu_down);

	if (ret < 0)
		return ret;
	ring_cpuhp_state = ret;
	return 0;
}

void schedrec_rings_hotplug_exit(void)
{
	if (ring_cpuhp_state >= 0)
		cpuhp_remove_state(ring_cpuhp_state);
	ring_cpuhp_state = -1;
}

/* Start a new recording: every position, sequence and counter from zero. */
void schedrec_rings_reset(u32 mode)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct schedrec_ring *ring = rings[cpu];

		ring->head = 0;
		ring->oldest = 0;
		ring->seq = 0;
		ring->pending_lost = 0;
		ring->written = 0;
		ring->lost = 0;
		ring->overwritten = 0;
		ring->bytes = 0;
		ring->peak = 0;
		ring->mode = mode;
		schedrec_ring_ctrl_identify(ring);
		WRITE_ONCE(ring->ctrl->head, 0);
		WRITE_ONCE(ring->ctrl->oldest, 0);
		WRITE_ONCE(ring->ctrl->lost, 0);
		/* no probe runs now; order the reset before the new tail */
		smp_store_release(&ring->ctrl->tail, 0);
	}
}

/*
 * Recording has stopped and every probe has returned: write the LOST
 * records still owed where there is room, and wake every reader so it can
 * drain the rest and see the end.
 */
void schedrec_rings_stop(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct schedrec_ring *ring = rings[cpu];

		if (ring->pending_lost) {
			u64 tail = ring_clamped_tail(ring, ring->head);

			/* its wakeup, if any, is queued on the CPU it checked */
			preempt_disable();
			ring_emit_lost(ring, tail, ktime_get_mono_fast_ns());
			preempt_enable();
		}
		irq_work_sync(&ring->wakeup_work);
		wake_up_interruptible_all(&ring->wait);
	}
}
