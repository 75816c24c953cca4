// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec export schedlog: the tarball that SchedDisplay opens, as
 * RecordSchedLog makes it from a SchedLog kernel's per-CPU logs: the event
 * table (sched_log_traced_events.start, "ID NAME" lines) and one NumPy
 * .npz per column (timestamp, pid, event, cpu, arg0, arg1), a row per
 * SchedLog event, in time order.  Our records map onto SchedLog's events
 * as doc/export.md says.
 *
 * A .npy states its length before its data, and a tar member its size
 * before its content, so the rows go to a temporary file per column first
 * (memory stays bounded, whatever the trace's length); at the end each
 * column is deflated into a temporary .npz, which is copied into the tar.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "export.h"
#include "taskstate.h"
#include "toolerr.h"

/* SchedLog's event ids, and ours for what SchedLog has no event for. */
enum schedlog_event {
	SL_EXEC		= 0,
	SL_EXIT		= 1,
	SL_WAKEUP	= 2,
	SL_WAKEUP_NEW	= 3,
	SL_BLOCK	= 4,
	SL_BLOCK_IO	= 5,
	SL_FORK		= 6,
	SL_CTX_SWITCH	= 8,
	SL_MIGRATE	= 9,
	SL_WAKING	= 64,
	SL_RENAME	= 65,
	SL_LOST		= 66,
};

/* The event table, sorted by id, as /proc/sched_log_traced_events reads */
static const char event_table[] =
	"0 EXEC\n"
	"1 EXIT\n"
	"2 WAKEUP\n"
	"3 WAKEUP_NEW\n"
	"4 BLOCK\n"
	"5 BLOCK_IO\n"
	"6 FORK\n"
	"8 CTX_SWITCH\n"
	"9 MIGRATE\n"
	"64 WAKING\n"
	"65 RENAME\n"
	"66 LOST\n";

#define EVENT_TABLE_NAME	"sched_log_traced_events.start"

enum column {
	COL_TIMESTAMP,
	COL_PID,
	COL_EVENT,
	COL_CPU,
	COL_ARG0,
	COL_ARG1,
	NR_COLUMNS,
};

static const char *const column_names[NR_COLUMNS] = {
	[COL_TIMESTAMP] = "timestamp",
	[COL_PID] = "pid",
	[COL_EVENT] = "event",
	[COL_CPU] = "cpu",
	[COL_ARG0] = "arg0",
	[COL_ARG1] = "arg1",
};

/* Every column is int64, as RecordSchedLog's pandas frame has them. */
#define COLUMN_DESCR	"<i8"

struct schedlog {
	FILE *columns[NR_COLUMNS];	/* temporary files, unlinked */
	uint64_t rows;
};

static const char *temp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

/* Say that a temporary file failed with @err: -ECANCELED, said. */
static int temp_error(int err)
{
	tool_error("export schedlog", err,
		   "cannot write a temporary file in %s (set TMPDIR)",
		   temp_dir());
	return -ECANCELED;
}

/* An unlinked temporary file in $TMPDIR (or /tmp); -ECANCELED, said. */
static int temp_file(void)
{
	const char *dir = temp_dir();
	char path[4096];
	int fd;

	if (snprintf(path, sizeof(path), "%s/schedrec-export-XXXXXX", dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = mkstemp(path);
	if (fd < 0) {
		tool_error("export schedlog", errno,
			   "cannot make a temporary file in %s (set TMPDIR)",
			   dir);
		return -ECANCELED;
	}
	unlink(path);
	return fd;
}

static int schedlog_start(void *priv, struct export_ctx *ctx)
{
	struct schedlog *sl = priv;
	int i, fd;

	(void)ctx;
	for (i = 0; i < NR_COLUMNS; i++) {
		fd = temp_file();
		if (fd < 0)
			return fd;
		sl->columns[i] = fdopen(fd, "w+");
		if (!sl->columns[i]) {
			close(fd);
			return -errno;
		}
	}
	return 0;
}

/* One row; the values are written as the host has them: little-endian. */
static int put_row(struct schedlog *sl, uint64_t ts, uint32_t pid,
		   enum schedlog_event event, uint32_t cpu, int64_t arg0,
		   int64_t arg1)
{
	const int64_t row[NR_COLUMNS] = {
		[COL_TIMESTAMP] = ts > INT64_MAX ? INT64_MAX : (int64_t)ts,
		[COL_PID] = pid,
		[COL_EVENT] = event,
		[COL_CPU] = cpu,
		[COL_ARG0] = arg0,
		[COL_ARG1] = arg1,
	};
	int i;

	for (i = 0; i < NR_COLUMNS; i++)
		if (fwrite(&row[i], sizeof(row[i]), 1, sl->columns[i]) != 1)
			return temp_error(errno ? -errno : -EIO);
	sl->rows++;
	return 0;
}

/* The first 8 bytes of a name, as SchedLog packs them: arg1 the low 4. */
static void pack_comm(const char comm[SCHEDREC_COMM_LEN], int64_t *high,
		      int64_t *low)
{
	const unsigned char *c = (const unsigned char *)comm;

	*low = c[0] | c[1] << 8 | c[2] << 16 | (uint32_t)c[3] << 24;
	*high = c[4] | c[5] << 8 | c[6] << 16 | (uint32_t)c[7] << 24;
}

static int put_switch(struct schedlog *sl, struct export_ctx *ctx,
		      const struct export_record *er)
{
	const struct schedrec_switch *sw = (const void *)er->rec->hdr;
	bool preempt = sw->hdr.flags & SCHEDREC_F_PREEMPT;
	char state = taskstate_letter(sw->prev_state, preempt);
	uint32_t cpu = er->rec->cpu;
	int ret;

	if (!select_cpu(&ctx->front.sel, cpu))
		return 0;
	/* a thread that goes to sleep blocks first (not idle, not dying) */
	if (sw->prev_tid && state != 'R' && export_task_kept(ctx, er->subject[0]) &&
	    (preempt || !taskstate_is_dead(sw->prev_state))) {
		ret = put_row(sl, sw->hdr.ts, sw->prev_tid,
			      state == 'D' ? SL_BLOCK_IO : SL_BLOCK, cpu,
			      sw->prev_state, 0);
		if (ret)
			return ret;
	}
	return put_row(sl, sw->hdr.ts, sw->prev_tid, SL_CTX_SWITCH, cpu,
		       sw->next_tid, sw->prev_state);
}

static int schedlog_record(void *priv, struct export_ctx *ctx,
			   const struct export_record *er)
{
	struct schedlog *sl = priv;
	const struct schedrec_header *hdr = er->rec->hdr;
	const struct schedrec_wakeup *wk = (const void *)hdr;
	const struct schedrec_migrate *mg = (const void *)hdr;
	const struct schedrec_task *tk = (const void *)hdr;
	const struct schedrec_lost *l = (const void *)hdr;
	uint32_t cpu = er->rec->cpu;
	enum schedlog_event event;
	int64_t high, low;

	switch (hdr->type) {
	case SCHEDREC_EV_SWITCH:
		return put_switch(sl, ctx, er);
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		/* on the woken thread's CPU, as SchedLog logs it */
		if (!select_cpu(&ctx->front.sel, wk->target_cpu))
			return 0;
		event = hdr->type == SCHEDREC_EV_WAKING ? SL_WAKING :
			hdr->type == SCHEDREC_EV_WAKEUP ? SL_WAKEUP :
			SL_WAKEUP_NEW;
		return put_row(sl, hdr->ts, wk->tid, event, wk->target_cpu,
			       cpu, wk->waker_tid);
	}
	if (!select_cpu(&ctx->front.sel, cpu))
		return 0;
	switch (hdr->type) {
	case SCHEDREC_EV_MIGRATE:
		return put_row(sl, hdr->ts, mg->tid, SL_MIGRATE, cpu,
			       mg->orig_cpu, mg->dest_cpu);
	case SCHEDREC_EV_FORK:
		return put_row(sl, hdr->ts, tk->tid, SL_FORK, cpu,
			       tk->other_tid, tk->tgid);
	case SCHEDREC_EV_EXIT:
		return put_row(sl, hdr->ts, tk->tid, SL_EXIT, cpu, 0,
			       tk->tgid);
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_RENAME:
		pack_comm(tk->comm, &high, &low);
		return put_row(sl, hdr->ts, tk->tid,
			       hdr->type == SCHEDREC_EV_EXEC ? SL_EXEC :
			       SL_RENAME, cpu, high, low);
	case SCHEDREC_REC_LOST:
		return put_row(sl, hdr->ts, 0, SL_LOST, cpu,
			       l->count > INT64_MAX ? INT64_MAX :
			       (int64_t)l->count,
			       l->first_ts > INT64_MAX ? INT64_MAX :
			       (int64_t)l->first_ts);
	default:	/* a type SchedLog has no event for */
		return 0;
	}
}

/* Column @i as NAME.npz into the tar. */
static int put_column(struct schedlog *sl, struct export_ctx *ctx, int i)
{
	struct npz_array array = {
		.name = column_names[i],
		.descr = COLUMN_DESCR,
		.item_size = sizeof(int64_t),
		.count = sl->rows,
		.mtime = export_start_time(ctx),
	};
	int data = fileno(sl->columns[i]), npz, ret;
	char name[TAR_NAME_MAX + 1];
	uint64_t size;

	if (fflush(sl->columns[i]) || lseek(data, 0, SEEK_SET) < 0)
		return temp_error(-errno);
	npz = temp_file();
	if (npz < 0)
		return npz;
	ret = npz_write(npz, &array, data, &size);
	if (!ret && lseek(npz, 0, SEEK_SET) < 0)
		ret = -errno;
	if (ret)
		ret = temp_error(ret);
	snprintf(name, sizeof(name), "%s.npz", column_names[i]);
	if (!ret)
		ret = tar_write_file(ctx->out, name, npz, size, array.mtime);
	close(npz);
	/* the column is in the tar: its temporary file can go */
	fclose(sl->columns[i]);
	sl->columns[i] = NULL;
	return ret;
}

static int schedlog_finish(void *priv, struct export_ctx *ctx)
{
	struct schedlog *sl = priv;
	int i, ret;

	ret = tar_write_buffer(ctx->out, EVENT_TABLE_NAME, event_table,
			       strlen(event_table), export_start_time(ctx));
	for (i = 0; !ret && i < NR_COLUMNS; i++)
		ret = put_column(sl, ctx, i);
	if (!ret)
		ret = tar_write_end(ctx->out);
	return ret;
}

static void schedlog_free(void *priv)
{
	struct schedlog *sl = priv;
	int i;

	for (i = 0; i < NR_COLUMNS; i++)
		if (sl->columns[i])
			fclose(sl->columns[i]);
}

const struct export_format schedlog_export = {
	.name = "schedlog",
	.summary = "SchedDisplay's tarball: NumPy columns of SchedLog events",
	.help =
	"The tarball SchedDisplay opens (as RecordSchedLog makes it from a\n"
	"SchedLog kernel): sched_log_traced_events.start, the event table (a\n"
	"line \"ID NAME\" per event), and timestamp.npz, pid.npz, event.npz,\n"
	"cpu.npz, arg0.npz, arg1.npz, each a NumPy archive of one int64 column\n"
	"(np.load(f)['timestamp']...), a row per SchedLog event in time order.\n"
	"Timestamps are CLOCK_MONOTONIC ns; pid is the thread (tid).  A switch\n"
	"is a CTX_SWITCH row (arg0 the next thread), after a BLOCK row if the\n"
	"thread went to sleep (BLOCK_IO if in D state); wakeups are on the\n"
	"woken thread's CPU; MIGRATE has the CPUs in arg0, arg1; EXEC packs\n"
	"the name's first 8 bytes in arg0 (high) and arg1 (low) as SchedLog\n"
	"does.  WAKING, RENAME and LOST are events of schedrec's own.\n"
	"\n"
	"--cpu keeps the rows whose cpu column is one of those CPUs; --pid,\n"
	"--tid and --comm the rows about those threads (a CTX_SWITCH whose\n"
	"prev or next is one) and every LOST row; --range the records of that\n"
	"window.  The columns are written to temporary files in $TMPDIR (or\n"
	"/tmp) first: 48 bytes per row.\n",
	.examples =
	"  schedrec export schedlog run.srec -o run.tar\n"
	"  schedrec export schedlog run.srec -o run.tar --cpu 2,3 --range 10:20\n",
	.binary = true,
	.priv_size = sizeof(struct schedlog),
	.start = schedlog_start,
	.record = schedlog_record,
	.finish = schedlog_finish,
	.free = schedlog_free,
};
