// SPDX-License-Identifier: GPL-2.0
/*
 * The reader side of the schedrec ring protocol; see ringreader.h and
 * include/uapi/schedrec.h.
 *
 * Only the kernel writes the data area and it only ever publishes whole
 * records below head, so in stream mode the bytes in [tail, head) do not
 * change while we read them.  We check every header anyway: a reader must
 * survive a buggy or hostile producer without reading outside the mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ringreader.h"

static const unsigned int record_sizes[SCHEDREC_REC_MAX + 1] =
	SCHEDREC_RECORD_SIZES;

/* how often begin() retries when overwrite mode moves the ring under it */
#define OVERWRITE_RETRIES	100

unsigned int ringreader_record_size(unsigned int type)
{
	return type <= SCHEDREC_REC_MAX ? record_sizes[type] : 0;
}

int ringreader_open(struct ringreader *rr, unsigned int cpu)
{
	char path[64];

	snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%u", cpu);
	return ringreader_open_path(rr, path);
}

static bool is_power_of_two(uint64_t value)
{
	return value && !(value & (value - 1));
}

static int check_ctrl(struct ringreader *rr)
{
	if (rr->ctrl->abi_version != SCHEDREC_ABI_VERSION)
		return -EPROTO;
	rr->cpu = rr->ctrl->cpu;
	rr->data_size = rr->ctrl->data_size;
	if (rr->ctrl->page_size != rr->page_size ||
	    !is_power_of_two(rr->data_size) ||
	    rr->data_size < rr->page_size)
		return -EPROTO;
	return 0;
}

int ringreader_attach(struct ringreader *rr, struct schedrec_ring_ctrl *ctrl,
		      const void *data)
{
	memset(rr, 0, sizeof(*rr));
	rr->fd = -1;
	rr->page_size = sysconf(_SC_PAGESIZE);
	rr->ctrl = ctrl;
	rr->data = data;
	return check_ctrl(rr);
}

int ringreader_open_path(struct ringreader *rr, const char *path)
{
	void *map;
	int ret;

	memset(rr, 0, sizeof(*rr));
	rr->page_size = sysconf(_SC_PAGESIZE);
	rr->fd = open(path, O_RDWR | O_CLOEXEC);
	if (rr->fd < 0)
		return -errno;
	map = mmap(NULL, rr->page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   rr->fd, 0);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto fail;
	}
	rr->ctrl = map;
	rr->mapped = true;
	ret = check_ctrl(rr);
	if (ret)
		goto fail;
	map = mmap(NULL, rr->data_size, PROT_READ, MAP_SHARED, rr->fd,
		   rr->page_size);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto fail;
	}
	rr->data = map;
	return 0;
fail:
	ringreader_close(rr);
	return ret;
}

void ringreader_close(struct ringreader *rr)
{
	if (rr->mapped && rr->data)
		munmap((void *)rr->data, rr->data_size);
	if (rr->mapped && rr->ctrl)
		munmap(rr->ctrl, rr->page_size);
	if (rr->fd >= 0)
		close(rr->fd);
	rr->mapped = false;
	rr->data = NULL;
	rr->ctrl = NULL;
	rr->fd = -1;
}

static uint64_t load_acquire(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Where a batch starts, and its end; false if they make no sense. */
static bool batch_bounds(struct ringreader *rr, uint64_t *start,
			 uint64_t *head)
{
	uint64_t tail = __atomic_load_n(&rr->ctrl->tail, __ATOMIC_RELAXED);
	uint64_t oldest;

	*start = tail;
	if (rr->overwrite) {
		/* oldest first: head is then at least as new as it */
		oldest = load_acquire(&rr->ctrl->oldest);
		*head = load_acquire(&rr->ctrl->head);
		if ((int64_t)(oldest - tail) > 0)
			*start = oldest;
	} else {
		/* pairs with the kernel's release: records below are whole */
		*head = load_acquire(&rr->ctrl->head);
	}
	return !(*start % SCHEDREC_RECORD_ALIGN) &&
	       (int64_t)(*head - *start) >= 0 &&
	       *head - *start <= rr->data_size;
}

int64_t ringreader_begin(struct ringreader *rr)
{
	uint64_t start, head;
	int tries = 0;

	rr->overwrite = __atomic_load_n(&rr->ctrl->mode, __ATOMIC_RELAXED) ==
			SCHEDREC_MODE_OVERWRITE;
	/* a recording overwrite ring may move on between our two loads */
	while (!batch_bounds(rr, &start, &head)) {
		if (!rr->overwrite || ++tries == OVERWRITE_RETRIES) {
			rr->pos = rr->head = start;
			return -EIO;
		}
	}
	rr->pos = start;
	rr->head = head;
	return head - start;
}

/*
 * Overwrite mode: if the kernel has reclaimed the space at our position,
 * move to the oldest record it kept.  Returns true if it did.
 */
static bool overtaken(struct ringreader *rr)
{
	uint64_t oldest;

	if (!rr->overwrite)
		return false;
	/* order our reads of the data before the check of what is kept */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	oldest = load_acquire(&rr->ctrl->oldest);
	if ((int64_t)(oldest - rr->pos) <= 0)
		return false;
	rr->overtaken += oldest - rr->pos;
	rr->pos = oldest;
	if ((int64_t)(rr->head - rr->pos) < 0)
		rr->head = rr->pos;
	return true;
}

/* Check the header at pos; its size, or -EIO. */
static int header_check(struct ringreader *rr, uint16_t size, uint8_t type)
{
	uint64_t offset = rr->pos & (rr->data_size - 1);
	unsigned int expected = ringreader_record_size(type);

	if (size < sizeof(struct schedrec_header) ||
	    size % SCHEDREC_RECORD_ALIGN || size > rr->data_size - offset ||
	    size > rr->head - rr->pos)
		return -EIO;
	if (!type || (expected && size != expected))
		return -EIO;
	return size;
}

int ringreader_next(struct ringreader *rr,
		    const struct schedrec_header **rec)
{
	while (rr->pos != rr->head) {
		const struct schedrec_header *hdr;
		uint16_t size;
		uint8_t type;
		int ret;

		if (overtaken(rr))
			continue;
		hdr = (const void *)(rr->data +
				     (rr->pos & (rr->data_size - 1)));
		size = __atomic_load_n(&hdr->size, __ATOMIC_RELAXED);
		type = __atomic_load_n(&hdr->type, __ATOMIC_RELAXED);
		ret = header_check(rr, size, type);
		if (ret < 0)
			return ret;
		if (type == SCHEDREC_REC_PAD) {
			rr->pos += size;
			continue;
		}
		if (size > sizeof(rr->rec)) {
			rr->skipped++;
			rr->pos += size;
			continue;
		}
		memcpy(rr->rec.bytes, hdr, size);
		/* the copy says what we checked, whatever the ring says now */
		rr->rec.hdr.size = size;
		rr->rec.hdr.type = type;
		if (overtaken(rr))
			continue;
		if (!ringreader_stack_ok(&rr->rec.hdr))
			return -EIO;
		rr->pos += size;
		rr->records++;
		*rec = &rr->rec.hdr;
		return 1;
	}
	return 0;
}

void ringreader_consume(struct ringreader *rr)
{
	/* our reads of the records are done before the kernel may reuse them */
	__atomic_store_n(&rr->ctrl->tail, rr->pos, __ATOMIC_RELEASE);
}

int64_t ringreader_drain(struct ringreader *rr, ringreader_fn fn, void *arg)
{
	const struct schedrec_header *rec;
	int64_t count = 0, ret;
	int refused = 0;

	ret = ringreader_begin(rr);
	if (ret < 0)
		return ret;
	while ((ret = ringreader_next(rr, &rec)) > 0) {
		refused = fn(rec, arg);
		if (refused) {
			/* not consumed: the next batch starts with it again */
			rr->pos -= rec->size;
			break;
		}
		count++;
	}
	ringreader_consume(rr);
	if (ret < 0)
		return ret;
	if (refused < 0)
		return refused;
	return count;
}

void ringreader_seq_init(struct ringreader_seq *seq, uint64_t first)
{
	memset(seq, 0, sizeof(*seq));
	seq->next = first;
}

uint64_t ringreader_seq_account(struct ringreader_seq *seq,
				const struct schedrec_header *rec,
				uint64_t *seq64)
{
	const struct schedrec_lost *lost = (const void *)rec;
	uint64_t expected = seq->next, got, missing = 0;

	if (rec->type == SCHEDREC_REC_LOST) {
		seq->lost += lost->count;
		expected += lost->count;
	}
	if (!seq->started && seq->next == RINGREADER_SEQ_ANY) {
		got = rec->seq;
	} else {
		got = ringreader_seq_extend(expected, rec->seq);
		missing = got - expected;
	}
	if (missing) {
		seq->missing += missing;
		seq->breaks++;
	}
	seq->started = true;
	seq->next = got + 1;
	seq->records++;
	if (seq64)
		*seq64 = got;
	return missing;
}
