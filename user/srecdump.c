// SPDX-License-Identifier: GPL-2.0
/*
 * srecdump: print a .srec trace as text: the header, every record of all
 * CPUs in time order (a stack's frames by address, and by name when the
 * file has a kallsyms snapshot), and the per-CPU accounting at the end.
 * Warnings go to stderr.  Exit status: 0, 1 if the read failed, 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"
#include "srecreader.h"
#include "taskstate.h"

/* The file's kallsyms snapshot, parsed, to name stack frames; or NULL. */
static struct ksyms *symbols;

static const char usage[] =
	"Usage: srecdump [-s] [-H] [-t] FILE\n"
	"Print a schedrec trace (FILE, or - for standard input) as text.\n"
	"  -s  strict: a corrupt chunk is an error, not a warning\n"
	"  -H  the header only\n"
	"  -t  also list the threads of the start snapshot\n"
	"Examples:\n"
	"  srecdump run.srec | less\n"
	"  ssh host schedrec record -o - | srecdump -\n";

static void print_diag(void *arg, enum srec_diag_level level,
		       uint64_t offset, const char *msg)
{
	(void)arg;
	(void)offset;
	fprintf(stderr, "srecdump: %s: %s\n",
		level == SREC_DIAG_ERROR ? "error" : "warning", msg);
}

static void print_header(const struct srecreader *r, bool threads)
{
	const struct srecreader_info *info = srecreader_info(r);
	const struct srec_file_head *f = &info->file;
	unsigned int i;

	printf("format %u.%u, module ABI %u\n", f->major, f->minor,
	       f->abi_version);
	printf("kernel %s %s %s\n", info->release, info->version,
	       info->machine);
	printf("host %s, %u CPU%s, online %s\n", info->hostname, f->nr_cpus,
	       f->nr_cpus == 1 ? "" : "s", info->online);
	printf("clock %u, start %" PRIu64 " ns (realtime %" PRIu64 " ns)\n",
	       f->clock_id, f->start_mono_ns, f->start_real_ns);
	printf("drainer cpu %d pid %u tid %u, events %#x, mode %u, buf_kb %u, flags %#x, chunks up to %u bytes\n",
	       (int)f->drainer_cpu, f->drainer_pid, f->drainer_tid,
	       f->event_mask, f->mode, f->buf_kb, f->flags, f->chunk_max);
	printf("command \"%s\", filter \"%s\"\n", info->cmdline, info->filter);
	for (i = 0; i < info->nr_events; i++) {
		const struct srec_event *ev = &info->events[i];

		printf("event %u %s size %u%s%s%s\n", ev->id, ev->name,
		       ev->size, ev->tracepoint[0] ? " tracepoint " : "",
		       ev->tracepoint,
		       ev->flags & SREC_EVENT_F_ENABLED ? " enabled" : "");
	}
	if (info->kallsyms)
		printf("kallsyms snapshot: %zu bytes, %zu text symbols%s\n",
		       info->kallsyms_len, symbols ? ksyms_count(symbols) : 0,
		       info->kallsyms_flags & SREC_KSYMS_F_HIDDEN ?
		       ", addresses hidden" : "");
	printf("%zu threads at start\n", info->nr_threads);
	for (i = 0; threads && i < info->nr_threads; i++)
		printf("thread %u tgid %u %s\n", info->threads[i].tid,
		       info->threads[i].tgid, info->threads[i].comm);
}

/* One line per frame, innermost first: address, then name if known. */
static void print_stack(const struct schedrec_stack *st)
{
	char name[256];
	unsigned int i;

	printf(" tid %u nr %u", st->tid, st->nr);
	for (i = 0; i < st->nr; i++) {
		printf("\n    %016llx", (unsigned long long)st->ips[i]);
		if (symbols) {
			ksyms_format(symbols, st->ips[i], KSYMS_F_OFFSET |
				     KSYMS_F_MODULE | KSYMS_F_RETURN, name,
				     sizeof(name));
			printf(" %s", name);
		}
	}
}

static void print_fields(const struct schedrec_header *hdr)
{
	const struct schedrec_switch *sw = (const void *)hdr;
	const struct schedrec_wakeup *wk = (const void *)hdr;
	const struct schedrec_migrate *mg = (const void *)hdr;
	const struct schedrec_task *tk = (const void *)hdr;
	const struct schedrec_lost *lost = (const void *)hdr;

	switch (hdr->type) {
	case SCHEDREC_EV_SWITCH:
		printf(" prev %u/%d %s next %u/%d", sw->prev_tid,
		       sw->prev_prio,
		       taskstate_ftrace(sw->prev_state,
					hdr->flags & SCHEDREC_F_PREEMPT,
					TASKSTATE_EXIT_UNKNOWN),
		       sw->next_tid, sw->next_prio);
		break;
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		printf(" tid %u/%d target %u waker %u", wk->tid, wk->prio,
		       wk->target_cpu, wk->waker_tid);
		break;
	case SCHEDREC_EV_MIGRATE:
		printf(" tid %u/%d cpu %u->%u", mg->tid, mg->prio,
		       mg->orig_cpu, mg->dest_cpu);
		break;
	case SCHEDREC_EV_FORK:
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_EXIT:
	case SCHEDREC_EV_RENAME:
		printf(" tid %u tgid %u other %u comm %.*s", tk->tid, tk->tgid,
		       tk->other_tid, SCHEDREC_COMM_LEN, tk->comm);
		break;
	case SCHEDREC_EV_STACK:
		/* the reader checked that nr fits the record */
		print_stack((const void *)hdr);
		break;
	case SCHEDREC_REC_LOST:
		printf(" count %" PRIu64 " from %" PRIu64 " to %" PRIu64,
		       (uint64_t)lost->count, (uint64_t)lost->first_ts,
		       (uint64_t)lost->last_ts);
		break;
	default:
		printf(" size %u", hdr->size);
		break;
	}
	if (hdr->flags & SCHEDREC_F_IRQ)
		printf(" irq");
	printf("\n");
}

static void print_record(struct srecreader *r, const struct srec_record *rec)
{
	const struct srec_event *ev = srecreader_event(r, rec->hdr->type);

	if (rec->gap)
		printf("cpu %u: %" PRIu64 " records missing\n", rec->cpu,
		       rec->gap);
	printf("%3u %" PRIu64 " %" PRIu64 " %s", rec->cpu,
	       (uint64_t)rec->hdr->ts, rec->seq, ev ? ev->name : "?");
	print_fields(rec->hdr);
}

/* Every record, in time order: 0 at the end, or -errno. */
static int print_records(struct srecreader *r)
{
	struct srec_record recs[256];
	int n, i;

	while ((n = srecreader_next_batch(r, recs, 256)) > 0)
		for (i = 0; i < n; i++)
			print_record(r, &recs[i]);
	return n;
}

static void print_accounting(const struct srecreader *r)
{
	const struct srec_cpu_total *totals;
	unsigned int cpu, nr_cpus = srecreader_info(r)->file.nr_cpus;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct srecreader_cpu *s = srecreader_cpu(r, cpu);

		if (!s->chunks && !s->corrupt)
			continue;
		printf("cpu %u: %" PRIu64 " records in %" PRIu64 " chunks, %" PRIu64 " lost, %" PRIu64 " missing, %" PRIu64 " filtered, %" PRIu64 " corrupt chunks\n",
		       cpu, s->records, s->chunks, s->lost, s->missing,
		       s->filtered, s->corrupt);
	}
	if (!srecreader_trailer(r, &totals)) {
		printf("no trailer\n");
		return;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct srec_cpu_total *t = &totals[cpu];

		if (!t->chunks && t->kernel_written == SREC_COUNT_UNKNOWN)
			continue;
		printf("trailer cpu %u: %" PRIu64 " records, %" PRIu64 " lost, %" PRIu64 " gaps, kernel written %" PRId64 " lost %" PRId64 "\n",
		       cpu, t->records, t->lost, t->gaps,
		       (int64_t)t->kernel_written, (int64_t)t->kernel_lost);
	}
}

int main(int argc, char **argv)
{
	struct srecreader_options opt = { .diag = print_diag };
	bool header_only = false, threads = false;
	struct srecreader *r;
	char err[512];
	int c, ret = 0;

	while ((c = getopt(argc, argv, "sHth")) != -1) {
		switch (c) {
		case 's':
			opt.strict = true;
			break;
		case 'H':
			header_only = true;
			break;
		case 't':
			threads = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}
	r = srecreader_open(argv[optind], &opt, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "srecdump: %s\n", err);
		return 1;
	}
	if (srecreader_info(r)->kallsyms) {
		symbols = ksyms_parse(srecreader_info(r)->kallsyms,
				      srecreader_info(r)->kallsyms_len);
		if (!symbols)
			fprintf(stderr, "srecdump: no memory for the kallsyms snapshot: stacks unnamed\n");
	}
	print_header(r, threads);
	if (!header_only) {
		ret = print_records(r);
		print_accounting(r);
	}
	ksyms_free(symbols);
	srecreader_close(r);
	return ret < 0 ? 1 : 0;
}
