// SPDX-License-Identifier: GPL-2.0
/* Helpers of the .srec host tests; see srec_util.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "srec_util.h"
#include "util.h"

void bytes_add(struct bytes *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + len)
			cap *= 2;
		b->data = realloc(b->data, cap);
		if (!b->data)
			abort();
		b->cap = cap;
	}
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
}

void bytes_free(struct bytes *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void bytes_from_fd(int fd, struct bytes *out)
{
	unsigned char buf[65536];
	ssize_t done;

	out->len = 0;
	lseek(fd, 0, SEEK_SET);
	while ((done = read(fd, buf, sizeof(buf))) > 0)
		bytes_add(out, buf, done);
}

void put_switch_record(struct bytes *b, uint32_t seq, uint64_t ts)
{
	struct schedrec_switch sw = {
		.hdr = {
			.ts = ts,
			.seq = seq,
			.size = sizeof(sw),
			.type = SCHEDREC_EV_SWITCH,
		},
		.prev_tid = seq,
	};

	bytes_add(b, &sw, sizeof(sw));
}

void put_lost_record(struct bytes *b, uint32_t seq, uint64_t ts,
		     uint64_t count)
{
	struct schedrec_lost lost = {
		.hdr = {
			.ts = ts,
			.seq = seq,
			.size = sizeof(lost),
			.type = SCHEDREC_REC_LOST,
		},
		.count = count,
		.first_ts = ts - 10,
		.last_ts = ts - 1,
	};

	bytes_add(b, &lost, sizeof(lost));
}

void expected_add(struct expected_list *list,
		  const struct expected_record *rec)
{
	if (list->count == list->cap) {
		list->cap = list->cap ? 2 * list->cap : 256;
		list->records = realloc(list->records,
					list->cap * sizeof(*list->records));
		if (!list->records)
			abort();
	}
	list->records[list->count++] = *rec;
}

void expected_free(struct expected_list *list)
{
	free(list->records);
	memset(list, 0, sizeof(*list));
}

void synth_init(struct synth *s, unsigned int nr_cpus, uint32_t seed)
{
	memset(s, 0, sizeof(*s));
	s->nr_cpus = nr_cpus;
	s->rng = seed ? seed : 1;
	s->now = 1000000000ull;
}

void synth_free(struct synth *s)
{
	unsigned int cpu;

	for (cpu = 0; cpu < SYNTH_CPUS_MAX; cpu++)
		bytes_free(&s->cpu[cpu].pending);
	expected_free(&s->expected);
}

uint32_t synth_random(struct synth *s)
{
	/* xorshift32: deterministic, good enough for made-up fields */
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	return s->rng;
}

static unsigned int type_size(unsigned int type)
{
	static const unsigned int sizes[] = SCHEDREC_RECORD_SIZES;

	return type < ARRAY_SIZE(sizes) ? sizes[type] : 0;
}

/* Put a record on @cpu's ring; remember it unless it is PAD. */
static void synth_put(struct synth *s, unsigned int cpu, void *rec)
{
	struct schedrec_header *hdr = rec;
	struct expected_record exp = { .cpu = cpu };

	bytes_add(&s->cpu[cpu].pending, rec, hdr->size);
	if (hdr->type == SCHEDREC_REC_PAD)
		return;
	exp.seq = s->cpu[cpu].seq - 1;
	memcpy(exp.rec, rec, hdr->size);
	expected_add(&s->expected, &exp);
}

static void synth_header(struct synth *s, unsigned int cpu,
			 struct schedrec_header *hdr, unsigned int type,
			 unsigned int size)
{
	s->now += 1 + synth_random(s) % 1000;
	hdr->ts = s->now;
	hdr->seq = (uint32_t)s->cpu[cpu].seq++;
	hdr->size = size;
	hdr->type = type;
	hdr->flags = synth_random(s) & (SCHEDREC_F_PREEMPT | SCHEDREC_F_IRQ);
}

void synth_event(struct synth *s, unsigned int cpu, unsigned int type)
{
	union {
		struct schedrec_header hdr;
		struct schedrec_switch sw;
		struct schedrec_wakeup wk;
		struct schedrec_migrate mg;
		struct schedrec_task tk;
		unsigned char bytes[64];
	} rec;
	unsigned int i;

	memset(&rec, 0, sizeof(rec));
	synth_header(s, cpu, &rec.hdr, type, type_size(type));
	switch (type) {
	case SCHEDREC_EV_SWITCH:
		rec.sw.prev_tid = synth_random(s) % 5000;
		rec.sw.next_tid = synth_random(s) % 5000;
		rec.sw.prev_state = synth_random(s) % 3;
		rec.sw.prev_prio = 120;
		rec.sw.next_prio = 100 + synth_random(s) % 40;
		break;
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		rec.wk.tid = synth_random(s) % 5000;
		rec.wk.target_cpu = synth_random(s) % s->nr_cpus;
		rec.wk.waker_tid = synth_random(s) % 5000;
		rec.wk.prio = 120;
		break;
	case SCHEDREC_EV_MIGRATE:
		rec.mg.tid = synth_random(s) % 5000;
		rec.mg.orig_cpu = cpu;
		rec.mg.dest_cpu = synth_random(s) % s->nr_cpus;
		rec.mg.prio = 120;
		break;
	default:
		rec.tk.tid = synth_random(s) % 5000;
		rec.tk.tgid = rec.tk.tid - rec.tk.tid % 7;
		rec.tk.other_tid = type == SCHEDREC_EV_FORK ? rec.tk.tgid : 0;
		for (i = 0; i < 10; i++)
			rec.tk.comm[i] = 'a' + synth_random(s) % 26;
		break;
	}
	synth_put(s, cpu, &rec);
}

void synth_lost(struct synth *s, unsigned int cpu, uint64_t count)
{
	struct schedrec_lost rec;

	memset(&rec, 0, sizeof(rec));
	s->cpu[cpu].seq += count;
	synth_header(s, cpu, &rec.hdr, SCHEDREC_REC_LOST, sizeof(rec));
	rec.hdr.flags = 0;
	rec.count = count;
	rec.first_ts = s->now - 100;
	rec.last_ts = s->now - 1;
	synth_put(s, cpu, &rec);
}

void synth_skip(struct synth *s, unsigned int cpu, uint64_t count)
{
	s->cpu[cpu].seq += count;
}

void synth_pad(struct synth *s, unsigned int cpu, unsigned int size)
{
	unsigned char rec[64] = { 0 };
	struct schedrec_header *hdr = (void *)rec;

	hdr->ts = s->now;
	hdr->size = size;
	hdr->type = SCHEDREC_REC_PAD;
	synth_put(s, cpu, rec);
}

void synth_events(struct synth *s, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		unsigned int cpu = synth_random(s) % s->nr_cpus;
		uint32_t pick = synth_random(s) % 100;

		if (pick == 0)
			synth_lost(s, cpu, 1 + synth_random(s) % 5);
		else if (pick == 1)
			synth_pad(s, cpu, 16 * (1 + synth_random(s) % 3));
		else
			/* the events of "all": ids 1 to 9 */
			synth_event(s, cpu, SCHEDREC_EV_FIRST +
				    synth_random(s) % SCHEDREC_EV_RENAME);
	}
}

int synth_flush(struct synth *s, struct srecwriter *w)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct bytes *p = &s->cpu[cpu].pending;

		ret = srecwriter_append(w, cpu, p->data, p->len);
		if (ret)
			return ret;
		p->len = 0;
	}
	return 0;
}

static const struct srec_thread test_threads[] = {
	{ .tid = 1, .tgid = 1, .comm = "init" },
	{ .tid = 42, .tgid = 42, .comm = "server" },
	{ .tid = 43, .tgid = 42, .comm = "server-worker" },
};

void test_header(struct srecwriter_header *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->start_mono_ns = 999000000ull;
	hdr->start_real_ns = 1700000000000000000ull;
	hdr->drainer_cpu = 1;
	hdr->drainer_pid = 4242;
	hdr->drainer_tid = 4243;
	hdr->event_mask = SCHEDREC_EV_ALL_MASK;
	hdr->mode = SCHEDREC_MODE_STREAM;
	hdr->buf_kb = 512;
	hdr->flags = SREC_FILE_F_FROM_START;
	hdr->release = "6.1.0-test-amd64";
	hdr->version = "#1 SMP PREEMPT_DYNAMIC Debian";
	hdr->machine = "x86_64";
	hdr->hostname = "testhost";
	hdr->online = "0-3";
	hdr->cmdline = "schedrec record -C 1 -o test.srec";
	hdr->filter = "";
	hdr->threads = test_threads;
	hdr->nr_threads = ARRAY_SIZE(test_threads);
}

struct srecwriter *synth_begin(struct synth *s, int fd,
			       struct srecwriter_options opt)
{
	struct srecwriter_header hdr;
	struct srecwriter *w;

	opt.nr_cpus = s->nr_cpus;
	if (srecwriter_open(&w, fd, &opt))
		return NULL;
	test_header(&hdr);
	if (srecwriter_write_header(w, &hdr)) {
		srecwriter_close(w);
		return NULL;
	}
	return w;
}

int synth_rounds(struct synth *s, struct srecwriter *w, unsigned int rounds,
		 unsigned int per_round)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < rounds; i++) {
		synth_events(s, per_round);
		ret = srecwriter_round(w, s->now + 1);
		if (!ret)
			ret = synth_flush(s, w);
	}
	return ret;
}

int synth_end(struct synth *s, struct srecwriter *w)
{
	struct srecwriter_kernel_count kernel[SYNTH_CPUS_MAX];
	struct srecwriter_trailer trailer = {
		.end_mono_ns = s->now + 1,
		.end_real_ns = 1700000000000000000ull + s->now + 1,
		.kernel = kernel,
	};
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		kernel[cpu].written = s->cpu[cpu].seq;
		kernel[cpu].lost = 0;
	}
	ret = srecwriter_write_trailer(w, &trailer);
	srecwriter_close(w);
	return ret;
}

int synth_write(struct synth *s, int fd, int zlib_level, unsigned int rounds,
		unsigned int per_round)
{
	struct srecwriter *w;
	int ret;

	w = synth_begin(s, fd, (struct srecwriter_options){
		.zlib_level = zlib_level });
	if (!w)
		return -EIO;
	ret = synth_rounds(s, w, rounds, per_round);
	if (ret) {
		srecwriter_close(w);
		return ret;
	}
	return synth_end(s, w);
}

int disk_tmpfile(void)
{
	char path[] = "/var/tmp/srec_test.XXXXXX";
	int fd = mkstemp(path);

	if (fd >= 0)
		unlink(path);
	return fd;
}

int synth_to_bytes(struct synth *s, struct bytes *out, int zlib_level,
		   unsigned int rounds, unsigned int per_round)
{
	int fd = memfd_create("srec", 0), ret;

	if (fd < 0)
		return -errno;
	ret = synth_write(s, fd, zlib_level, rounds, per_round);
	if (!ret)
		bytes_from_fd(fd, out);
	close(fd);
	return ret;
}

struct srecreader *open_bytes_fd(const void *data, size_t len,
				 const struct srecreader_options *opt,
				 char *err, size_t err_size, int *fd)
{
	char path[64];

	*fd = memfd_create("srec", 0);
	if (*fd < 0 || (len && write(*fd, data, len) != (ssize_t)len))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", *fd);
	return srecreader_open(path, opt, err, err_size);
}

struct srecreader *open_bytes(const void *data, size_t len,
			      const struct srecreader_options *opt,
			      char *err, size_t err_size)
{
	struct srecreader *r;
	int fd;

	r = open_bytes_fd(data, len, opt, err, err_size, &fd);
	close(fd);
	return r;
}

void diag_collect(void *arg, enum srec_diag_level level, uint64_t offset,
		  const char *msg)
{
	struct diag_log *log = arg;
	size_t used = strlen(log->text);

	if (level == SREC_DIAG_ERROR)
		log->errors++;
	else
		log->warnings++;
	if (log->nr_offsets < ARRAY_SIZE(log->offsets))
		log->offsets[log->nr_offsets++] = offset;
	snprintf(log->text + used, sizeof(log->text) - used, "%s\n", msg);
}

bool diag_has_offset(const struct diag_log *log, uint64_t offset)
{
	unsigned int i;

	for (i = 0; i < log->nr_offsets; i++)
		if (log->offsets[i] == offset)
			return true;
	return false;
}

bool diag_says(const struct diag_log *log, const char *words)
{
	return strstr(log->text, words) != NULL;
}

static void add_record(struct expected_list *out,
		       const struct srec_record *rec)
{
	struct expected_record exp = {
		.cpu = rec->cpu,
		.seq = rec->seq,
		.chunk_offset = rec->chunk_offset,
	};

	if (rec->hdr->size > sizeof(exp.rec))
		abort();
	memcpy(exp.rec, rec->hdr, rec->hdr->size);
	expected_add(out, &exp);
}

int read_all(struct srecreader *r, struct expected_list *out)
{
	struct srec_record rec;
	int ret;

	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0)
		add_record(out, &rec);
	return ret;
}

int read_batches(struct srecreader *r, struct expected_list *out,
		 unsigned int max, unsigned int *calls)
{
	struct srec_record recs[READ_BATCH_MAX];
	int n, i;

	if (max > READ_BATCH_MAX)
		abort();
	*calls = 0;
	while ((n = srecreader_next_batch(r, recs, max)) > 0) {
		if ((unsigned int)n > max)
			abort();
		++*calls;
		for (i = 0; i < n; i++)
			add_record(out, &recs[i]);
	}
	return n;
}

bool same_records(const struct expected_list *a,
		  const struct expected_list *b)
{
	size_t i;

	if (a->count != b->count)
		return false;
	for (i = 0; i < a->count; i++) {
		const struct expected_record *x = &a->records[i];
		const struct expected_record *y = &b->records[i];
		const struct schedrec_header *hx = (const void *)x->rec;

		if (x->cpu != y->cpu || x->seq != y->seq ||
		    memcmp(x->rec, y->rec, hx->size))
			return false;
	}
	return true;
}

size_t walk_sections(const unsigned char *data, size_t len,
		     struct section *out, size_t max)
{
	size_t count = 0, pos = 0;

	while (pos + sizeof(struct srec_frame) <= len && count < max) {
		struct srec_frame frame;
		struct section *sec = &out[count++];

		memcpy(&frame, data + pos, sizeof(frame));
		sec->offset = pos;
		sec->type = frame.type;
		sec->chunk_flags = 0;
		if (frame.type == SREC_SEC_CHUNK) {
			struct srec_chunk_head head;

			memcpy(&head, data + pos + sizeof(frame), sizeof(head));
			sec->chunk_flags = head.flags;
		}
		pos += sizeof(frame) + frame.head_len +
		       (frame.data_len + SREC_ALIGN - 1) / SREC_ALIGN *
		       SREC_ALIGN;
		sec->end = pos;
	}
	return count;
}

void put_section(struct bytes *b, uint16_t type, const void *head,
		 uint32_t head_len, const void *data, uint32_t data_len)
{
	static const unsigned char zeros[SREC_ALIGN];
	struct srec_frame frame = {
		.magic = SREC_MAGIC,
		.type = type,
		.head_len = head_len,
		.data_len = data_len,
	};
	uLong crc = crc32(0, Z_NULL, 0);

	if (data_len)
		crc = crc32(crc, data, data_len);
	frame.data_crc = crc;
	crc = crc32(0, (const Bytef *)&frame, SREC_FRAME_CRC_LEN);
	if (head_len)
		crc = crc32(crc, head, head_len);
	frame.head_crc = crc;
	bytes_add(b, &frame, sizeof(frame));
	bytes_add(b, head, head_len);
	bytes_add(b, data, data_len);
	bytes_add(b, zeros, (SREC_ALIGN - data_len % SREC_ALIGN) % SREC_ALIGN);
}

void put_tables(struct bytes *b)
{
	static const char * const names[] = SCHEDREC_EVENT_NAMES;
	struct srec_event events[SCHEDREC_REC_MAX];
	struct srec_table_head table = {
		.count = SCHEDREC_REC_MAX,
		.entry_size = sizeof(struct srec_event),
	};
	unsigned int id;

	memset(events, 0, sizeof(events));
	for (id = 1; id <= SCHEDREC_REC_MAX; id++) {
		events[id - 1].id = id;
		events[id - 1].size = type_size(id);	/* PAD, STACK: 0 */
		memcpy(events[id - 1].name, names[id], strlen(names[id]));
	}
	put_section(b, SREC_SEC_EVENTS, &table, sizeof(table), events,
		    sizeof(events));
	put_section(b, SREC_SEC_HEADER_END, NULL, 0, NULL, 0);
}

void put_header(struct bytes *b, uint32_t nr_cpus, uint32_t flags)
{
	struct srec_file_head file = {
		.major = SREC_FORMAT_MAJOR,
		.minor = SREC_FORMAT_MINOR,
		.abi_version = SCHEDREC_ABI_VERSION,
		.nr_cpus = nr_cpus,
		.clock_id = 1,
		.chunk_max = SREC_CHUNK_MIN,
		.flags = flags,
	};

	put_section(b, SREC_SEC_FILE, &file, sizeof(file), NULL, 0);
	put_tables(b);
}

void put_file_head(struct bytes *b, const struct srec_file_head *file,
		   uint32_t head_len, const void *data, uint32_t data_len)
{
	unsigned char head[SREC_HEAD_MAX] = { 0 };

	memcpy(head, file, sizeof(*file));
	put_section(b, SREC_SEC_FILE, head, head_len, data, data_len);
}

struct srec_file_head good_file_head(void)
{
	struct srec_file_head file = {
		.major = SREC_FORMAT_MAJOR,
		.minor = SREC_FORMAT_MINOR,
		.abi_version = SCHEDREC_ABI_VERSION,
		.nr_cpus = 2,
		.clock_id = 1,
		.chunk_max = SREC_CHUNK_MIN,
	};

	return file;
}

void chunk_spec_init(struct chunk_spec *c, unsigned int cpu, uint32_t seq,
		     unsigned int count, uint64_t ts)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < count; i++) {
		struct schedrec_switch *sw = (void *)(c->payload + 32 * i);

		sw->hdr.ts = ts + 10 * i;
		sw->hdr.seq = seq + i;
		sw->hdr.size = sizeof(*sw);
		sw->hdr.type = SCHEDREC_EV_SWITCH;
		sw->prev_tid = 100 + i;
		sw->next_tid = 200 + i;
	}
	c->head.cpu = cpu;
	c->head.count = count;
	c->head.first_seq = seq;
	c->head.last_seq = seq + count - 1;
	c->head.first_ts = ts;
	c->head.last_ts = ts + 10 * (count - 1);
	c->head.raw_len = 32 * count;
	c->head_len = sizeof(c->head);
	c->data_len = c->head.raw_len;
}

void chunk_spec_put(struct bytes *b, const struct chunk_spec *c)
{
	unsigned char head[SREC_HEAD_MAX] = { 0 };

	memcpy(head, &c->head, sizeof(c->head));
	put_section(b, SREC_SEC_CHUNK, head, c->head_len,
		    c->data ? c->data : c->payload, c->data_len);
}

void put_switches(struct bytes *b, unsigned int cpu, uint32_t seq,
		  unsigned int count, uint64_t ts)
{
	struct chunk_spec c;

	chunk_spec_init(&c, cpu, seq, count, ts);
	chunk_spec_put(b, &c);
}
