// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec export csv: every record of the trace, one row each, every
 * field of every record type in a column of its own (empty where the
 * record has no such field).  The columns are doc/export.md's.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "export.h"
#include "table.h"
#include "taskstate.h"
#include "timefmt.h"

static const char header[] =
	"cpu,seq,ts_ns,time_s,type,flags,preempt,irq,gap,"
	"prev_tid,prev_state,prev_state_letter,prev_prio,next_tid,next_prio,"
	"tid,tgid,other_tid,comm,target_cpu,waker_tid,orig_cpu,dest_cpu,prio,"
	"count,first_ts_ns,last_ts_ns\n";

/* The empty columns of each group of record fields. */
#define EMPTY_SWITCH	",,,,,,"	/* prev_tid .. next_prio */
#define EMPTY_TASK	",,,,"		/* tid .. comm */
#define EMPTY_WAKE	",,,,,"		/* target_cpu .. prio */
#define EMPTY_LOST	",,,"		/* count .. last_ts_ns */

/* A comm as a CSV field: quoted when it holds a comma, quote or newline. */
static void put_comm(FILE *out, const char comm[SCHEDREC_COMM_LEN])
{
	size_t len = strnlen(comm, SCHEDREC_COMM_LEN), i;
	bool quote = len && (comm[0] == ' ' || comm[len - 1] == ' ');

	for (i = 0; i < len && !quote; i++)
		quote = strchr(",\"\r\n", comm[i]);
	if (!quote) {
		fwrite(comm, 1, len, out);
		return;
	}
	fputc('"', out);
	for (i = 0; i < len; i++) {
		if (comm[i] == '"')
			fputc('"', out);
		fputc(comm[i], out);
	}
	fputc('"', out);
}

static void put_switch(FILE *out, const struct schedrec_switch *sw)
{
	bool preempt = sw->hdr.flags & SCHEDREC_F_PREEMPT;

	fprintf(out, ",%" PRIu32 ",%" PRIu32 ",%c,%d,%" PRIu32 ",%d"
		EMPTY_TASK EMPTY_WAKE EMPTY_LOST,
		sw->prev_tid, sw->prev_state,
		taskstate_letter(sw->prev_state, preempt), sw->prev_prio,
		sw->next_tid, sw->next_prio);
}

static void put_wakeup(FILE *out, const struct schedrec_wakeup *wk)
{
	fprintf(out, EMPTY_SWITCH ",%" PRIu32 ",,,,%" PRIu32 ",%" PRIu32
		",,,%d" EMPTY_LOST,
		wk->tid, wk->target_cpu, wk->waker_tid, wk->prio);
}

static void put_migrate(FILE *out, const struct schedrec_migrate *mg)
{
	fprintf(out, EMPTY_SWITCH ",%" PRIu32 ",,,,,,%" PRIu32 ",%" PRIu32
		",%d" EMPTY_LOST,
		mg->tid, mg->orig_cpu, mg->dest_cpu, mg->prio);
}

static void put_task(FILE *out, const struct schedrec_task *tk)
{
	fprintf(out, EMPTY_SWITCH ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",",
		tk->tid, tk->tgid, tk->other_tid);
	put_comm(out, tk->comm);
	fputs(EMPTY_WAKE EMPTY_LOST, out);
}

static void put_lost(FILE *out, const struct schedrec_lost *l)
{
	fprintf(out, EMPTY_SWITCH EMPTY_TASK EMPTY_WAKE ",%" PRIu64 ",%" PRIu64
		",%" PRIu64,
		(uint64_t)l->count, (uint64_t)l->first_ts,
		(uint64_t)l->last_ts);
}

static int csv_start(void *priv, struct export_ctx *ctx)
{
	(void)priv;
	fputs(header, ctx->out);
	return stream_error(ctx->out);
}

static int csv_record(void *priv, struct export_ctx *ctx,
		      const struct export_record *er)
{
	const struct srec_record *rec = er->rec;
	const struct schedrec_header *hdr = rec->hdr;
	const struct srec_event *ev = srecreader_event(ctx->front.reader, hdr->type);
	char time[SECONDS_LEN];
	FILE *out = ctx->out;

	(void)priv;
	if (!select_cpu(&ctx->front.sel, rec->cpu))
		return 0;
	fprintf(out, "%u,%" PRIu64 ",%" PRIu64 ",%s,", rec->cpu, rec->seq,
		(uint64_t)hdr->ts, format_seconds(time, er->rel_ns, 9));
	if (ev)
		fprintf(out, "%.*s", (int)sizeof(ev->name), ev->name);
	else
		fprintf(out, "%u", hdr->type);
	fprintf(out, ",%u,%d,%d,%" PRIu64, hdr->flags,
		!!(hdr->flags & SCHEDREC_F_PREEMPT),
		!!(hdr->flags & SCHEDREC_F_IRQ), rec->gap);
	switch (hdr->type) {
	case SCHEDREC_EV_SWITCH:
		put_switch(out, (const void *)hdr);
		break;
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		put_wakeup(out, (const void *)hdr);
		break;
	case SCHEDREC_EV_MIGRATE:
		put_migrate(out, (const void *)hdr);
		break;
	case SCHEDREC_EV_FORK:
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_EXIT:
	case SCHEDREC_EV_RENAME:
		put_task(out, (const void *)hdr);
		break;
	case SCHEDREC_REC_LOST:
		put_lost(out, (const void *)hdr);
		break;
	default:	/* a type this build does not know: no fields */
		fputs(EMPTY_SWITCH EMPTY_TASK EMPTY_WAKE EMPTY_LOST, out);
		break;
	}
	fputc('\n', out);
	return stream_error(out);
}

static int csv_finish(void *priv, struct export_ctx *ctx)
{
	(void)priv;
	return stream_error(ctx->out);
}

const struct export_format csv_export = {
	.name = "csv",
	.summary = "every record, one row each, every field in a column",
	.help =
	"Every record of the trace as one CSV row, in time order (the CPUs\n"
	"merged), after a header line.  The columns: cpu, seq (the record's\n"
	"64-bit sequence number on its CPU), ts_ns (CLOCK_MONOTONIC), time_s\n"
	"(seconds since the start, 9 decimals), type (switch, waking, wakeup,\n"
	"wakeup_new, migrate, fork, exec, exit, rename, lost), flags (raw) and\n"
	"preempt, irq (0/1), gap (sequence numbers missing just before it),\n"
	"then one column per field of every record type, empty where the\n"
	"record has no such field: prev_tid, prev_state (raw),\n"
	"prev_state_letter (R, S, D, I...), prev_prio, next_tid, next_prio,\n"
	"tid, tgid, other_tid, comm, target_cpu, waker_tid, orig_cpu,\n"
	"dest_cpu, prio, count, first_ts_ns, last_ts_ns.\n"
	"\n"
	"--cpu keeps the records written on those CPUs; --pid, --tid and\n"
	"--comm the records about those threads (a switch's prev or next, the\n"
	"task of the others) and every lost record; --range the records of\n"
	"that window.\n",
	.examples =
	"  schedrec export csv run.srec -o run.csv\n"
	"  schedrec export csv run.srec -o - --tid 4242 --range 2:3\n",
	.start = csv_start,
	.record = csv_record,
	.finish = csv_finish,
};
