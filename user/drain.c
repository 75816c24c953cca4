// SPDX-License-Identifier: GPL-2.0
/*
 * The drain engine of `schedrec record`; see drain.h.
 */
#include <errno.h>
#include <string.h>

#include "drain.h"

int drain_init(struct drainer *d, unsigned int nr_cpus, size_t chunk_size,
	       void *(*alloc)(size_t size))
{
	d->nr_cpus = nr_cpus;
	d->chunk_size = chunk_size;
	d->cpu = alloc(nr_cpus * sizeof(*d->cpu));
	d->buf = alloc(chunk_size);
	return d->cpu && d->buf ? 0 : -ENOMEM;
}

bool drain_filter_has(const struct drain_filter *f, uint32_t tid)
{
	return tid < f->nr_tids && (f->tids[tid / 64] >> (tid % 64)) & 1;
}

void drain_filter_add(struct drain_filter *f, uint32_t tid)
{
	if (tid < f->nr_tids)
		f->tids[tid / 64] |= 1ull << (tid % 64);
}

/* Pass 1: fork records make new threads of the filtered process kept. */
static int learn(const struct schedrec_header *rec, void *arg)
{
	struct drainer *d = arg;
	const struct schedrec_task *t = (const void *)rec;

	if (rec->ts >= d->until)
		return 1;
	if (rec->type == SCHEDREC_EV_FORK && d->filter->tgid &&
	    t->tgid == d->filter->tgid)
		drain_filter_add(d->filter, t->tid);
	return 0;
}

static bool keep(const struct drain_filter *f,
		 const struct schedrec_header *rec)
{
	const struct schedrec_switch *sw = (const void *)rec;
	const struct schedrec_wakeup *wk = (const void *)rec;
	const struct schedrec_migrate *mg = (const void *)rec;
	const struct schedrec_task *t = (const void *)rec;
	const struct schedrec_stack *st = (const void *)rec;

	switch (rec->type) {
	case SCHEDREC_EV_SWITCH:
		return drain_filter_has(f, sw->prev_tid) ||
		       drain_filter_has(f, sw->next_tid);
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		return drain_filter_has(f, wk->tid) ||
		       drain_filter_has(f, wk->waker_tid);
	case SCHEDREC_EV_MIGRATE:
		return drain_filter_has(f, mg->tid);
	case SCHEDREC_EV_FORK:
		return drain_filter_has(f, t->tid) ||
		       drain_filter_has(f, t->other_tid);
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_EXIT:
	case SCHEDREC_EV_RENAME:
		return drain_filter_has(f, t->tid);
	case SCHEDREC_EV_STACK:
		/* only the threads kept get their off-CPU stacks */
		return drain_filter_has(f, st->tid);
	default:		/* LOST, and types we do not know */
		return true;
	}
}

static void account_loss(struct drain_cpu *c, const struct schedrec_header *rec)
{
	const struct schedrec_lost *l = (const void *)rec;

	if (rec->type != SCHEDREC_REC_LOST)
		return;
	if (!c->lost)
		c->first_lost_ts = l->first_ts;
	c->last_lost_ts = l->last_ts;
	c->lost += l->count;
}

static int flush_cpu(struct drainer *d, unsigned int cpu)
{
	struct drain_cpu *c = &d->cpu[cpu];
	int ret;

	if (!d->fill && !c->filtered)
		return 0;
	ret = d->sink(d->sink_arg, cpu, d->buf, d->fill, c->filtered);
	d->fill = 0;
	c->filtered = 0;
	return ret;
}

struct copy_ctx {
	struct drainer *d;
	unsigned int cpu;
};

/* Pass 2: account, filter, copy into the chunk. */
static int copy(const struct schedrec_header *rec, void *arg)
{
	struct copy_ctx *ctx = arg;
	struct drainer *d = ctx->d;
	struct drain_cpu *c = &d->cpu[ctx->cpu];
	int ret;

	if (rec->ts >= d->until)
		return 1;
	c->records++;
	account_loss(c, rec);
	if (d->filter && !keep(d->filter, rec)) {
		c->filtered++;
		return 0;
	}
	if (d->fill + rec->size > d->chunk_size) {
		ret = flush_cpu(d, ctx->cpu);
		if (ret) {
			d->error = ret;
			return -1;
		}
	}
	memcpy(d->buf + d->fill, rec, rec->size);
	d->fill += rec->size;
	return 0;
}

/*
 * No filter: hand the ring's own memory to the sink, one contiguous span
 * at a time (a span ends at the end of the data area, where the kernel
 * puts PAD, or at chunk_size), and give each span's space back as soon as
 * the sink has written it.  In stream mode the kernel never touches
 * [tail, head), so nothing is copied twice; the sink checks every record
 * it writes.
 */
static int64_t drain_direct(struct drainer *d, unsigned int cpu)
{
	struct drain_cpu *c = &d->cpu[cpu];
	struct ringreader *rr = &c->rr;
	uint64_t mask, pos, span, off;
	struct schedrec_header h;
	int64_t count = 0, ret;

	ret = ringreader_begin(rr);
	if (ret < 0)
		return ret;
	mask = rr->data_size - 1;
	pos = span = rr->pos;
	while (pos != rr->head) {
		off = pos & mask;
		memcpy(&h, rr->data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % SCHEDREC_RECORD_ALIGN ||
		    h.size > rr->head - pos || h.size > rr->data_size - off)
			return -EIO;
		if (h.type != SCHEDREC_REC_PAD) {
			if (h.ts >= d->until)
				break;
			if (h.type == SCHEDREC_REC_LOST)
				account_loss(c, (const void *)(rr->data + off));
			count++;
		}
		pos += h.size;
		if (!(pos & mask) || pos - span >= d->chunk_size) {
			ret = d->sink(d->sink_arg, cpu, rr->data + (span & mask),
				      pos - span, 0);
			if (ret)
				return ret;
			span = pos;
			rr->pos = pos;
			ringreader_consume(rr);
		}
	}
	if (pos != span) {
		ret = d->sink(d->sink_arg, cpu, rr->data + (span & mask),
			      pos - span, 0);
		if (ret)
			return ret;
	}
	rr->pos = pos;
	ringreader_consume(rr);
	c->records += count;
	return count;
}

int64_t drain_round(struct drainer *d, uint64_t until)
{
	struct copy_ctx ctx = { .d = d };
	int64_t ret, total = 0;
	unsigned int cpu;

	d->until = until;
	d->error = 0;
	if (d->filter && d->filter->tgid) {
		for (cpu = 0; cpu < d->nr_cpus; cpu++) {
			struct ringreader *rr = &d->cpu[cpu].rr;
			const struct schedrec_header *rec;

			if (!d->cpu[cpu].open)
				continue;
			ret = ringreader_begin(rr);
			while (ret >= 0 && (ret = ringreader_next(rr, &rec)) > 0)
				if (learn(rec, d))
					break;
			if (ret < 0)
				return ret;
		}
	}
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		if (!d->cpu[cpu].open)
			continue;
		if (!d->filter) {
			ret = drain_direct(d, cpu);
			if (ret < 0)
				return ret;
			total += ret;
			continue;
		}
		ctx.cpu = cpu;
		ret = ringreader_drain(&d->cpu[cpu].rr, copy, &ctx);
		if (d->error)
			return d->error;
		if (ret < 0)
			return ret;
		total += ret;
		if (d->fill) {
			ret = flush_cpu(d, cpu);
			if (ret)
				return ret;
		}
	}
	return total;
}

int drain_flush(struct drainer *d)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		ret = flush_cpu(d, cpu);
		if (ret)
			return ret;
	}
	return 0;
}
