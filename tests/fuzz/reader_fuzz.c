// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the .srec reader (user/lib): open the input's
 * trace in memory, look at all of its header, read every record and
 * every count, as the reports do.  What must hold of any input, beyond
 * the sanitizers' checks, aborts: an open that fails says why; every
 * record handed out is of a CPU of the header and of a type of its event
 * table, of that type's size, its bytes readable, and of a higher
 * sequence number than the one before it on its CPU; a lasting record
 * is readable until close.
 *
 * The control byte (srecfuzz.h): bit 0 strict, bit 1 the smallest merge
 * buffer (records handed out early, some late), bit 2 the types of fixed
 * size skipped (srecreader_skip()), bit 3 every lasting record kept
 * (srecreader_keep()), bits 4-5 how many records a batch holds.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srecfuzz.h"
#include "srecreader.h"

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "reader_fuzz: CHECK failed: %s:%d: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static const unsigned int batch_sizes[4] = { 256, 1, 7, 64 };

/* A diagnostic is a string: ASan checks it is one. */
static void diag(void *arg, enum srec_diag_level level, uint64_t offset,
		 const char *msg)
{
	size_t *said = arg;

	(void)level;
	(void)offset;
	*said += strlen(msg);
}

/* Every byte of @len at @p is read (ASan checks them), in a sum. */
static unsigned int touch(const void *p, size_t len)
{
	const unsigned char *b = p;
	unsigned int sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

/* A string of the header: ASan checks it ends within its memory. */
static bool is_string(const char *s)
{
	return s && strlen(s) < SREC_DATA_MAX;
}

static void check_header(const struct srecreader *r,
			 const struct srecreader_info *info)
{
	unsigned int i;

	CHECK(is_string(info->release) && is_string(info->version) &&
	      is_string(info->machine) && is_string(info->hostname) &&
	      is_string(info->online) && is_string(info->cmdline) &&
	      is_string(info->filter));
	CHECK(info->file.nr_cpus >= 1 && info->file.nr_cpus <= SREC_CPUS_MAX);
	touch(info->events, info->nr_events * sizeof(*info->events));
	touch(info->threads, info->nr_threads * sizeof(*info->threads));
	if (info->kallsyms)
		CHECK(strlen(info->kallsyms) == info->kallsyms_len);
	for (i = 0; i < info->nr_events; i++)
		CHECK(info->events[i].id > 255 ||
		      srecreader_event(r, info->events[i].id));
	for (i = 0; i < info->nr_threads; i += 1 + info->nr_threads / 8)
		CHECK(srecreader_thread(r, info->threads[i].tid));
	/* no snapshot, tid 0, one not listed: c69b4fc's NULL + 0 */
	srecreader_info_thread(info, 0);
	srecreader_thread(r, UINT32_MAX);
	srecreader_cpu_online(r, 0);
	srecreader_cpu_online(r, info->file.nr_cpus);
}

/* What the records must be; @last_seq per CPU. */
static void check_record(struct srecreader *r,
			 const struct srecreader_info *info,
			 const struct srec_record *rec, uint64_t *last_seq,
			 unsigned char *seen)
{
	const struct schedrec_header *h = rec->hdr;
	const struct srec_event *ev;

	CHECK(rec->cpu < info->file.nr_cpus);
	CHECK(h->size >= sizeof(*h) && h->size % SCHEDREC_RECORD_ALIGN == 0);
	ev = srecreader_event(r, h->type);
	CHECK(ev && (!ev->size || ev->size == h->size));
	touch(h, h->size);
	CHECK(!seen[rec->cpu] || rec->seq > last_seq[rec->cpu]);
	seen[rec->cpu] = 1;
	last_seq[rec->cpu] = rec->seq;
	/* the tid after the header of most records, named as reports do */
	if (h->size >= sizeof(*h) + 4)
		srecreader_info_thread(info, *(const uint32_t *)(h + 1));
}

static void check_counts(const struct srecreader *r,
			 const struct srecreader_info *info)
{
	const struct srec_cpu_total *totals;
	const struct srec_trailer_head *t = srecreader_trailer(r, &totals);
	const struct srecreader_status *s = srecreader_status(r);
	unsigned int cpu;

	for (cpu = 0; cpu < info->file.nr_cpus && cpu < 64; cpu++) {
		CHECK(srecreader_cpu(r, cpu));
		srecreader_cpu_complete_until(r, cpu);
	}
	CHECK(!srecreader_cpu(r, info->file.nr_cpus));
	if (t)
		touch(totals, info->file.nr_cpus * sizeof(*totals));
	CHECK(s->chunks <= s->sections);
	touch(srecreader_error(r), strlen(srecreader_error(r)));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	srecfuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, said = 0;
	unsigned int ctl = srecfuzz_control(data, size, &len);
	struct srecreader_options opt = {
		.strict = ctl & 1, .max_buffered = ctl & 2 ? 1 : 0,
		.diag = diag, .diag_arg = &said,
	};
	unsigned int max = batch_sizes[ctl >> 4 & 3];
	const struct srecreader_info *info;
	const struct schedrec_header *lasting = NULL;
	struct srec_record recs[256];
	unsigned char *seen;
	uint64_t *last_seq;
	struct srecreader *r;
	char err[512];
	int n, i;

	err[0] = 0;
	r = srecreader_open_mem(data, len, &opt, err, sizeof(err));
	if (!r) {
		CHECK(err[0]);
		return 0;
	}
	info = srecreader_info(r);
	check_header(r, info);
	last_seq = calloc(info->file.nr_cpus, sizeof(*last_seq));
	seen = calloc(info->file.nr_cpus, 1);
	CHECK(last_seq && seen);
	if (ctl & 4)
		srecreader_skip(r, ~0ull, UINT64_MAX);
	if (ctl & 8)
		srecreader_keep(r, 0);
	while ((n = srecreader_next_batch(r, recs, max)) > 0) {
		CHECK((unsigned int)n <= max);
		for (i = 0; i < n; i++) {
			check_record(r, info, &recs[i], last_seq, seen);
			if (recs[i].lasting && !lasting)
				lasting = recs[i].hdr;
		}
	}
	CHECK(n == 0 || *srecreader_error(r));
	check_counts(r, info);
	if (lasting)
		touch(lasting, lasting->size);
	free(last_seq);
	free(seen);
	srecreader_close(r);
	return 0;
}
