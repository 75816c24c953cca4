// SPDX-License-Identifier: GPL-2.0
/*
 * drainrig: a producer on kmod/ring.c and the drainer of `schedrec record`
 * on the host; see drainrig.h.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"
#include "drain.h"
#include "drainrig.h"
#include "srecwriter.h"

static const unsigned int record_sizes[] = SCHEDREC_RECORD_SIZES;

struct rig_run {
	struct drainrig *rig;
	struct schedrec_ring *ring;
	struct srecwriter *w;
	int producing;		/* the producer still writes records */
	int done;		/* the producer stopped the ring */
	int draining;		/* the drainer still runs */
};

static uint64_t now_ns(void)
{
	return ktime_get_mono_fast_ns();
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* One record; false if the ring was full. */
static bool produce(struct schedrec_ring *ring, uint64_t i)
{
	u8 type = i & 1 ? SCHEDREC_EV_WAKING : SCHEDREC_EV_SWITCH;
	struct schedrec_switch *rec;

	rec = schedrec_ring_reserve(ring, type, record_sizes[type], 0);
	if (!rec)
		return false;
	/* the same bytes for both layouts: only sizes and seq matter */
	rec->prev_tid = i;
	rec->next_tid = i + 1;
	rec->prev_state = 1;
	schedrec_ring_commit(ring);
	return true;
}

static void *producer(void *arg)
{
	struct rig_run *run = arg;
	struct drainrig *rig = run->rig;
	uint64_t start = now_ns(), end = start + rig->seconds * 1e9, i, now;

	pin(0);
	for (i = 0; !rig->records || i < rig->records; i++) {
		if (!rig->records && !(i & 1023)) {
			now = now_ns();
			if (now >= end)
				break;
			/* paced: wait until this batch is due */
			while (rig->rate && now < start + i / rig->rate * 1e9)
				now = now_ns();
		}
		produce(run->ring, i);
	}
	rig->produced = i;
	__atomic_store_n(&run->producing, 0, __ATOMIC_RELEASE);
	/* like disabling once the reader caught up: the owed LOST fits */
	while (__atomic_load_n(&run->draining, __ATOMIC_ACQUIRE) &&
	       READ_ONCE(run->ring->ctrl->tail) != run->ring->head)
		sched_yield();
	schedrec_rings_stop();
	__atomic_store_n(&run->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int sink(void *arg, unsigned int cpu, const void *buf, size_t len,
		uint64_t filtered)
{
	struct rig_run *run = arg;
	const unsigned char *p = buf;
	size_t spin, off;

	for (spin = 0; spin < len * run->rig->sink_delay; spin++)
		__asm__ __volatile__("" ::: "memory");
	for (off = 0; off < len;
	     off += ((const struct schedrec_header *)(p + off))->size)
		if (((const struct schedrec_header *)(p + off))->type ==
		    SCHEDREC_REC_LOST)
			run->rig->lost_records++;
	run->rig->chunks++;
	if (filtered)
		srecwriter_filtered(run->w, cpu, filtered);
	return srecwriter_append(run->w, cpu, buf, len);
}

static void *zalloc(size_t size)
{
	return calloc(1, size);
}

static void *drainer(void *arg)
{
	struct rig_run *run = arg;
	struct drainrig *rig = run->rig;
	struct srecwriter_header hdr = { .drainer_cpu = 1 };
	struct srecwriter_trailer tr = { 0 };
	struct timespec nap = { .tv_nsec = 20000 };
	struct drainer d = { 0 };
	uint64_t start, now;
	int64_t ret;

	pin(1);
	ret = srecwriter_open(&run->w, rig->fd, &(struct srecwriter_options){
		.nr_cpus = 1, .zlib_level = rig->zlib_level,
		.direct = rig->direct });
	if (!ret)
		ret = srecwriter_write_header(run->w, &hdr);
	if (!ret)
		ret = drain_init(&d, 1, SRECWRITER_CHUNK_DEFAULT, zalloc);
	if (!ret)
		ret = ringreader_attach(&d.cpu[0].rr, (void *)run->ring->ctrl,
					run->ring->data);
	d.cpu[0].open = true;
	d.sink = sink;
	d.sink_arg = run;
	start = now_ns();
	while (!ret && !__atomic_load_n(&run->done, __ATOMIC_ACQUIRE)) {
		/*
		 * Like schedrec record, which sleeps in poll() until a ring
		 * is a quarter full and drains without waiting while one is
		 * an eighth full: whole batches, not a record at a time.
		 * Once the producer stops, it waits for the ring to empty.
		 * A plain read of head will do: drain_round() reads it again.
		 */
		if (__atomic_load_n(&run->producing, __ATOMIC_ACQUIRE) &&
		    READ_ONCE(run->ring->ctrl->head) -
		    READ_ONCE(run->ring->ctrl->tail) < rig->ring_size / 8) {
			nanosleep(&nap, NULL);
			continue;
		}
		now = now_ns();
		/* one producer, no probe in flight across a pass: now is safe */
		ret = srecwriter_round(run->w, now);
		if (!ret)
			ret = drain_round(&d, now);
		ret = ret < 0 ? ret : 0;
	}
	__atomic_store_n(&run->draining, 0, __ATOMIC_RELEASE);
	if (!ret)
		ret = drain_round(&d, UINT64_MAX);
	if (ret >= 0)
		ret = drain_flush(&d);
	if (!ret)
		ret = srecwriter_write_trailer(run->w, &tr);
	rig->elapsed = (now_ns() - start) / 1e9;
	if (!ret) {
		rig->total = *srecwriter_totals(run->w, 0);
		rig->file_bytes = srecwriter_bytes(run->w);
	}
	rig->drainer_lost = d.cpu ? d.cpu[0].lost : 0;
	rig->error = ret;
	if (run->w)
		srecwriter_close(run->w);
	free(d.cpu);
	free(d.buf);
	return NULL;
}

int drainrig_run(struct drainrig *rig)
{
	struct rig_run run = { .rig = rig, .producing = 1, .draining = 1 };
	pthread_t p, c;

	if (schedrec_rings_alloc(rig->ring_size))
		return rig->error = -ENOMEM;
	schedrec_rings_reset(SCHEDREC_MODE_STREAM);
	run.ring = schedrec_ring(0);
	if (rig->prefill) {
		while (produce(run.ring, rig->produced))
			rig->produced++;
		run.done = 1;
		drainer(&run);
	} else {
		pthread_create(&c, NULL, drainer, &run);
		pthread_create(&p, NULL, producer, &run);
		pthread_join(p, NULL);
		pthread_join(c, NULL);
	}
	rig->kernel_written = run.ring->written;
	rig->kernel_lost = run.ring->lost;
	schedrec_rings_free();
	return rig->error;
}
