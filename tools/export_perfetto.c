// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec export perfetto: Perfetto's protobuf trace format, as Perfetto's
 * own traced writes a kernel trace, so that the Perfetto UI and
 * trace_processor show CPU tracks, thread states and wakeups from it: per
 * CPU, FtraceEventBundle packets holding the switches and wakings in the
 * compact sched encoding and the other events as ftrace events; a clock
 * snapshot, the system info (the kernel release, which says how to read
 * prev_state) and the process tree of the start snapshot first.  The
 * mapping is doc/export.md's.  With --format json (or -o *.json), the
 * Chrome JSON of export_perfetto_json.c instead.
 *
 * Written as the records come: memory is a bundle being filled per CPU.
 * The field numbers are those of Perfetto's .proto files
 * (protos/perfetto/trace/...); tests/tools/perfetto.proto lists the ones
 * used here, for protoc --decode.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export_perfetto.h"
#include "protobuf.h"
#include "table.h"
#include "taskstate.h"
#include "toolerr.h"
#include "util.h"

/* Trace */
#define TRACE_PACKET			1
/* TracePacket */
#define PACKET_FTRACE_EVENTS		1
#define PACKET_PROCESS_TREE		2
#define PACKET_CLOCK_SNAPSHOT		6
#define PACKET_TIMESTAMP		8
#define PACKET_SYSTEM_INFO		45
/* ClockSnapshot, ClockSnapshot.Clock, BuiltinClock */
#define CLOCKS_CLOCK			1
#define CLOCKS_PRIMARY			2
#define CLOCK_ID			1
#define CLOCK_TIMESTAMP			2
#define PB_CLOCK_REALTIME			1
#define PB_CLOCK_MONOTONIC			3
#define PB_CLOCK_BOOTTIME			6
/* SystemInfo, Utsname */
#define SYSINFO_UTSNAME			1
#define SYSINFO_NUM_CPUS		8
#define UTS_SYSNAME			1
#define UTS_VERSION			2
#define UTS_RELEASE			3
#define UTS_MACHINE			4
/* ProcessTree, .Process, .Thread */
#define TREE_PROCESS			1
#define TREE_THREAD			2
#define PROC_PID			1
#define PROC_CMDLINE			3
#define PROC_CMDLINE_IS_COMM		9
#define THREAD_TID			1
#define THREAD_NAME			2
#define THREAD_TGID			3
/* FtraceEventBundle */
#define BUNDLE_CPU			1
#define BUNDLE_EVENT			2
#define BUNDLE_LOST_EVENTS		3
#define BUNDLE_COMPACT_SCHED		4
/* FtraceEventBundle.CompactSched: the intern table, then the columns */
#define COMPACT_INTERN_TABLE		5
enum column {
	SWITCH_TIMESTAMP, SWITCH_PREV_STATE, SWITCH_NEXT_PID, SWITCH_NEXT_PRIO,
	SWITCH_NEXT_COMM_INDEX, WAKING_TIMESTAMP, WAKING_PID,
	WAKING_TARGET_CPU, WAKING_PRIO, WAKING_COMM_INDEX,
	WAKING_COMMON_FLAGS, NR_COLUMNS
};
static const unsigned int column_field[NR_COLUMNS] = {
	[SWITCH_TIMESTAMP] = 1, [SWITCH_PREV_STATE] = 2,
	[SWITCH_NEXT_PID] = 3, [SWITCH_NEXT_PRIO] = 4,
	[SWITCH_NEXT_COMM_INDEX] = 6, [WAKING_TIMESTAMP] = 7,
	[WAKING_PID] = 8, [WAKING_TARGET_CPU] = 9, [WAKING_PRIO] = 10,
	[WAKING_COMM_INDEX] = 11, [WAKING_COMMON_FLAGS] = 12,
};
/* FtraceEvent */
#define EVENT_TIMESTAMP			1
#define EVENT_PID			2
#define EVENT_COMMON_FLAGS		5
#define EVENT_SCHED_SWITCH		4
#define EVENT_SCHED_WAKEUP		17
#define EVENT_SCHED_WAKING		20
#define EVENT_SCHED_WAKEUP_NEW		114
#define EVENT_TASK_NEWTASK		235
#define EVENT_TASK_RENAME		236
#define EVENT_SCHED_PROCESS_EXEC	237
#define EVENT_SCHED_PROCESS_EXIT	238
#define EVENT_SCHED_PROCESS_FORK	239
#define EVENT_SCHED_MIGRATE_TASK	491
/* SchedSwitchFtraceEvent */
#define SWITCH_PREV_COMM		1
#define SWITCH_PREV_PID			2
#define SWITCH_PREV_PRIO		3
#define SWITCH_PREV_STATE_F		4
#define SWITCH_NEXT_COMM		5
#define SWITCH_NEXT_PID_F		6
#define SWITCH_NEXT_PRIO_F		7
/* SchedWaking-, SchedWakeup-, SchedWakeupNewFtraceEvent */
#define WAKE_COMM			1
#define WAKE_PID			2
#define WAKE_PRIO			3
#define WAKE_SUCCESS			4
#define WAKE_TARGET_CPU			5
/* SchedMigrateTaskFtraceEvent */
#define MIGRATE_COMM			1
#define MIGRATE_PID			2
#define MIGRATE_PRIO			3
#define MIGRATE_ORIG_CPU		4
#define MIGRATE_DEST_CPU		5
/* SchedProcessFork-, -Exec, -Exit, TaskNewtask-, TaskRenameFtraceEvent */
#define FORK_PARENT_COMM		1
#define FORK_PARENT_PID			2
#define FORK_CHILD_COMM			3
#define FORK_CHILD_PID			4
#define EXEC_PID			2
#define EXEC_OLD_PID			3
#define EXIT_COMM			1
#define EXIT_PID			2
#define EXIT_TGID			3
#define NEWTASK_PID			1
#define NEWTASK_COMM			2
#define NEWTASK_CLONE_FLAGS		3
#define RENAME_PID			1
#define RENAME_NEWCOMM			3

/* Perfetto refuses a whole trace with a bundle of a CPU past this */
#define PERFETTO_CPUS_MAX	1024

/* the kernel's CLONE_THREAD, and ftrace's TRACE_FLAG_HARDIRQ */
#define CLONE_THREAD_FLAG		0x00010000
#define TRACE_FLAG_HARDIRQ		0x08

/* A bundle is written when it holds this many records, or names */
#define BUNDLE_RECORDS	2048
#define BUNDLE_NAMES	512
#define NAME_SLOTS_MIN	64	/* a power of two; grown to stay half empty */

/* A name of the bundle's intern table; index 0: an empty slot */
struct name_slot {
	uint64_t key[2];	/* the name, NUL-padded */
	uint32_t index;		/* in the intern table, + 1 */
};

/* What is being gathered of a CPU's records, the next bundle */
struct bundle {
	struct pb column[NR_COLUMNS];	/* packed bodies */
	struct pb names;		/* intern_table fields */
	struct pb events;		/* event fields, whole FtraceEvents */
	struct name_slot *slots;	/* small: few names are in a bundle */
	uint32_t nr_slots;
	uint32_t nr_names;
	uint32_t records;
	uint64_t last_switch, last_waking;	/* delta bases */
	bool lost;			/* events lost just before it */
	/*
	 * write switches and wakings whole until a switch was: the CPU's
	 * current thread (which the compact form leaves out) is not known
	 * at its first record, nor after a loss
	 */
	bool whole;
};

struct perfetto_proto {
	struct export_ctx *ctx;
	struct bundle *cpus;		/* nr_cpus, made as records come */
	unsigned int nr_cpus;
	/*
	 * the drainer left records out (record --pid): switches and wakings
	 * all whole, since the compact form's thread of the CPU would be
	 * the last one kept; and a gap is not a loss
	 */
	bool filtered;
	/*
	 * sched_waking was recorded: sched_wakeup is left out, since
	 * Perfetto makes its thread states and wakers of the waking and
	 * only lists sched_wakeup (whole, it would be half the file)
	 */
	bool has_waking;
	uint64_t cpus_past_max;		/* records left out: see proto_finish */
	struct pb packet, event;	/* being made */
};

static int write_packet(struct perfetto_proto *pp)
{
	if (pp->packet.failed)
		return -ENOMEM;
	if (fwrite(pp->packet.buf, 1, pp->packet.len, pp->ctx->out) !=
	    pp->packet.len)
		return stream_error(pp->ctx->out) ?: -EIO;
	return 0;
}

/* A CPU's name of the idle task, "swapper/N" as ftrace says */
static const char *name_of(const struct task *t, uint32_t tid,
			   unsigned int cpu, char buf[SCHEDREC_COMM_LEN])
{
	if (!tid) {
		snprintf(buf, SCHEDREC_COMM_LEN, "swapper/%u", cpu);
		return buf;
	}
	return t && t->comm[0] ? t->comm : "";
}

/* ------------------------------------------------------------------ */
/* The packets before the records */

static void put_clocks(struct perfetto_proto *pp)
{
	const struct srec_file_head *f = &pp->ctx->front.info->file;
	static const unsigned int ids[] = {
		PB_CLOCK_BOOTTIME, PB_CLOCK_MONOTONIC, PB_CLOCK_REALTIME,
	};
	uint64_t at[] = { f->start_mono_ns, f->start_mono_ns, f->start_real_ns };
	struct pb *pb = &pp->packet;
	size_t packet, clocks, clock;
	unsigned int i;

	packet = pb_open(pb, TRACE_PACKET);
	pb_uint(pb, PACKET_TIMESTAMP, f->start_mono_ns);
	clocks = pb_open(pb, PACKET_CLOCK_SNAPSHOT);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		if (!at[i])
			continue;	/* not known */
		clock = pb_open(pb, CLOCKS_CLOCK);
		pb_uint(pb, CLOCK_ID, ids[i]);
		pb_uint(pb, CLOCK_TIMESTAMP, at[i]);
		pb_close(pb, clock);
	}
	pb_uint(pb, CLOCKS_PRIMARY, PB_CLOCK_BOOTTIME);
	pb_close(pb, clocks);
	pb_close(pb, packet);
}

static void put_system_info(struct perfetto_proto *pp)
{
	const struct srecreader_info *info = pp->ctx->front.info;
	struct pb *pb = &pp->packet;
	size_t packet, sysinfo, uts;

	packet = pb_open(pb, TRACE_PACKET);
	sysinfo = pb_open(pb, PACKET_SYSTEM_INFO);
	uts = pb_open(pb, SYSINFO_UTSNAME);
	pb_string(pb, UTS_SYSNAME, "Linux", 8);
	pb_string(pb, UTS_VERSION, info->version, SIZE_MAX);
	pb_string(pb, UTS_RELEASE, info->release, SIZE_MAX);
	pb_string(pb, UTS_MACHINE, info->machine, SIZE_MAX);
	pb_close(pb, uts);
	pb_uint(pb, SYSINFO_NUM_CPUS, info->file.nr_cpus);
	pb_close(pb, sysinfo);
	pb_close(pb, packet);
}

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The start snapshot: a process per thread group (its command line is
 * the name of its leader, if listed), a thread per thread.
 */
static int put_process_tree(struct perfetto_proto *pp)
{
	const struct srecreader_info *info = pp->ctx->front.info;
	const struct srec_thread *leader;
	struct pb *pb = &pp->packet;
	size_t packet, tree, m;
	uint32_t *tgids;
	size_t i, n = 0;

	tgids = malloc((info->nr_threads + 1) * sizeof(*tgids));
	if (!tgids)
		return -ENOMEM;
	for (i = 0; i < info->nr_threads; i++)
		if (info->threads[i].tid && info->threads[i].tgid)
			tgids[n++] = info->threads[i].tgid;
	qsort(tgids, n, sizeof(*tgids), compare_u32);
	packet = pb_open(pb, TRACE_PACKET);
	pb_uint(pb, PACKET_TIMESTAMP, info->file.start_mono_ns);
	tree = pb_open(pb, PACKET_PROCESS_TREE);
	for (i = 0; i < n; i++) {
		if (i && tgids[i] == tgids[i - 1])
			continue;
		m = pb_open(pb, TREE_PROCESS);
		pb_uint(pb, PROC_PID, tgids[i]);
		leader = srecreader_info_thread(info, tgids[i]);
		if (leader && leader->tgid == tgids[i]) {
			pb_string(pb, PROC_CMDLINE, leader->comm,
				  SCHEDREC_COMM_LEN);
			pb_uint(pb, PROC_CMDLINE_IS_COMM, 1);
		}
		pb_close(pb, m);
	}
	free(tgids);
	for (i = 0; i < info->nr_threads; i++) {
		const struct srec_thread *t = &info->threads[i];

		if (!t->tid)
			continue;
		m = pb_open(pb, TREE_THREAD);
		pb_uint(pb, THREAD_TID, t->tid);
		pb_string(pb, THREAD_NAME, t->comm, SCHEDREC_COMM_LEN);
		if (t->tgid)
			pb_uint(pb, THREAD_TGID, t->tgid);
		pb_close(pb, m);
	}
	pb_close(pb, tree);
	pb_close(pb, packet);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Bundles */

static struct bundle *bundle_of(struct perfetto_proto *pp, unsigned int cpu)
{
	struct bundle *b = &pp->cpus[cpu];

	if (!b->slots) {
		b->slots = calloc(NAME_SLOTS_MIN, sizeof(*b->slots));
		if (!b->slots)
			return NULL;
		b->nr_slots = NAME_SLOTS_MIN;
		b->whole = true;
	}
	b->whole |= pp->filtered;
	return b;
}

/* The slot of the name @key, or the free one for it */
static struct name_slot *name_slot(struct bundle *b, const uint64_t key[2])
{
	uint32_t i = (uint32_t)((key[0] * 0x9e3779b97f4a7c15ull ^
				 key[1] * 0xc2b2ae3d27d4eb4full) >> 32);
	struct name_slot *s;

	for (;; i++) {
		s = &b->slots[i & (b->nr_slots - 1)];
		if (!s->index ||
		    (s->key[0] == key[0] && s->key[1] == key[1]))
			return s;
	}
}

/* Twice the slots, for more names; false on ENOMEM (then stay full) */
static bool grow_names(struct bundle *b)
{
	struct name_slot *old = b->slots;
	uint32_t i, n = b->nr_slots;

	b->slots = calloc(2 * n, sizeof(*b->slots));
	if (!b->slots) {
		b->slots = old;
		return false;
	}
	b->nr_slots = 2 * n;
	for (i = 0; i < n; i++)
		if (old[i].index)
			*name_slot(b, old[i].key) = old[i];
	free(old);
	return true;
}

/* @comm's index in the bundle's intern table, added if new */
static uint32_t intern(struct bundle *b, const char *comm)
{
	size_t len = strnlen(comm, SCHEDREC_COMM_LEN);
	uint64_t key[2] = { 0, 0 };
	struct name_slot *s;

	memcpy(key, comm, len);
	s = name_slot(b, key);
	if (s->index)
		return s->index - 1;
	if (2 * (b->nr_names + 1) > b->nr_slots && grow_names(b))
		s = name_slot(b, key);
	s->key[0] = key[0];
	s->key[1] = key[1];
	s->index = ++b->nr_names;
	pb_bytes(&b->names, COMPACT_INTERN_TABLE, comm, len);
	return s->index - 1;
}

/* Write @cpu's bundle, if it holds anything, and start the next. */
static int flush(struct perfetto_proto *pp, unsigned int cpu)
{
	struct bundle *b = &pp->cpus[cpu];
	struct pb *pb = &pp->packet;
	size_t packet, bundle, compact;
	unsigned int c;
	int ret;

	if (!b->records && !b->lost)
		return 0;	/* a loss at the end is written, empty */
	pb_reset(pb);
	packet = pb_open(pb, TRACE_PACKET);
	bundle = pb_open(pb, PACKET_FTRACE_EVENTS);
	pb_uint(pb, BUNDLE_CPU, cpu);
	if (b->lost)
		pb_uint(pb, BUNDLE_LOST_EVENTS, 1);
	if (b->nr_names) {
		compact = pb_open(pb, BUNDLE_COMPACT_SCHED);
		pb_append(pb, &b->names);
		for (c = 0; c < NR_COLUMNS; c++) {
			if (b->column[c].len)
				pb_bytes(pb, column_field[c], b->column[c].buf,
					 b->column[c].len);
			if (b->column[c].failed)
				pb->failed = true;
			pb_reset(&b->column[c]);
		}
		pb_close(pb, compact);
	}
	pb_append(pb, &b->events);
	pb_close(pb, bundle);
	pb_close(pb, packet);
	ret = write_packet(pp);	/* pb_append() carries a failure over */
	pb_reset(&b->names);
	pb_reset(&b->events);
	memset(b->slots, 0, b->nr_slots * sizeof(*b->slots));
	b->nr_names = 0;
	b->records = 0;
	b->last_switch = 0;
	b->last_waking = 0;
	b->lost = false;
	return ret;
}

/* The events of @cpu were lost here: a new bundle, which says so */
static int lost(struct perfetto_proto *pp, unsigned int cpu)
{
	struct bundle *b = &pp->cpus[cpu];
	int ret = b->records ? flush(pp, cpu) : 0;

	b->lost = true;
	b->whole = true;
	return ret;
}

/* The thread that emitted an event, when the record does not say */
#define PID_UNKNOWN	UINT32_MAX

/* Start an FtraceEvent at @ts emitted by @pid; end it with end_event() */
static size_t begin_event(struct perfetto_proto *pp, uint64_t ts,
			   uint32_t pid, bool irq, unsigned int field)
{
	struct pb *pb = &pp->event;

	pb_reset(pb);
	pb_uint(pb, EVENT_TIMESTAMP, ts);
	if (pid != PID_UNKNOWN)
		pb_uint(pb, EVENT_PID, pid);
	if (irq)
		pb_uint(pb, EVENT_COMMON_FLAGS, TRACE_FLAG_HARDIRQ);
	return pb_open(pb, field);
}

static void end_event(struct perfetto_proto *pp, struct bundle *b,
		      size_t mark)
{
	pb_close(&pp->event, mark);
	pb_bytes(&b->events, BUNDLE_EVENT, pp->event.buf, pp->event.len);
	if (pp->event.failed)
		b->events.failed = true;
}

static void put_switch(struct perfetto_proto *pp, struct bundle *b,
		       const struct export_record *er)
{
	const struct schedrec_switch *sw = (const void *)er->rec->hdr;
	uint32_t state = taskstate_ftrace_value(sw->prev_state,
						sw->hdr.flags & SCHEDREC_F_PREEMPT);
	unsigned int cpu = er->rec->cpu;
	char idle[2][SCHEDREC_COMM_LEN];
	const char *next = name_of(er->subject[1], sw->next_tid, cpu, idle[1]);
	struct pb *pb = &pp->event;
	size_t m;

	/* compact timestamps only go forward (a damaged file's may not) */
	if (!b->whole && sw->hdr.ts >= b->last_switch) {
		pb_varint(&b->column[SWITCH_TIMESTAMP],
			  sw->hdr.ts - b->last_switch);
		pb_varint(&b->column[SWITCH_PREV_STATE], state);
		pb_varint(&b->column[SWITCH_NEXT_PID], sw->next_tid);
		pb_varint(&b->column[SWITCH_NEXT_PRIO], (int64_t)sw->next_prio);
		pb_varint(&b->column[SWITCH_NEXT_COMM_INDEX], intern(b, next));
		b->last_switch = sw->hdr.ts;
		return;
	}
	m = begin_event(pp, sw->hdr.ts, sw->prev_tid, false,
			EVENT_SCHED_SWITCH);
	pb_string(pb, SWITCH_PREV_COMM,
		  name_of(er->subject[0], sw->prev_tid, cpu, idle[0]),
		  SCHEDREC_COMM_LEN);
	pb_uint(pb, SWITCH_PREV_PID, sw->prev_tid);
	pb_int(pb, SWITCH_PREV_PRIO, sw->prev_prio);
	pb_uint(pb, SWITCH_PREV_STATE_F, state);
	pb_string(pb, SWITCH_NEXT_COMM, next, SCHEDREC_COMM_LEN);
	pb_uint(pb, SWITCH_NEXT_PID_F, sw->next_tid);
	pb_int(pb, SWITCH_NEXT_PRIO_F, sw->next_prio);
	end_event(pp, b, m);
	b->whole = false;
}

/* sched_waking (compact once the CPU's thread is known), -wakeup(_new) */
static void put_wakeup(struct perfetto_proto *pp, struct bundle *b,
		       const struct export_record *er)
{
	const struct schedrec_wakeup *wk = (const void *)er->rec->hdr;
	bool irq = wk->hdr.flags & SCHEDREC_F_IRQ;
	char idle[SCHEDREC_COMM_LEN];
	const char *comm = name_of(er->subject[0], wk->tid, er->rec->cpu,
				   idle);
	struct pb *pb = &pp->event;
	unsigned int field;
	size_t m;

	if (wk->hdr.type == SCHEDREC_EV_WAKING && !b->whole &&
	    wk->hdr.ts >= b->last_waking) {
		pb_varint(&b->column[WAKING_TIMESTAMP],
			  wk->hdr.ts - b->last_waking);
		pb_varint(&b->column[WAKING_PID], wk->tid);
		pb_varint(&b->column[WAKING_TARGET_CPU], wk->target_cpu);
		pb_varint(&b->column[WAKING_PRIO], (int64_t)wk->prio);
		pb_varint(&b->column[WAKING_COMM_INDEX], intern(b, comm));
		pb_varint(&b->column[WAKING_COMMON_FLAGS],
			  irq ? TRACE_FLAG_HARDIRQ : 0);
		b->last_waking = wk->hdr.ts;
		return;
	}
	field = wk->hdr.type == SCHEDREC_EV_WAKING ? EVENT_SCHED_WAKING :
		wk->hdr.type == SCHEDREC_EV_WAKEUP ? EVENT_SCHED_WAKEUP :
		EVENT_SCHED_WAKEUP_NEW;
	m = begin_event(pp, wk->hdr.ts, wk->waker_tid, irq, field);
	pb_string(pb, WAKE_COMM, comm, SCHEDREC_COMM_LEN);
	pb_uint(pb, WAKE_PID, wk->tid);
	pb_int(pb, WAKE_PRIO, wk->prio);
	pb_uint(pb, WAKE_SUCCESS, 1);
	pb_uint(pb, WAKE_TARGET_CPU, wk->target_cpu);
	end_event(pp, b, m);
}

static void put_migrate(struct perfetto_proto *pp, struct bundle *b,
			const struct export_record *er)
{
	const struct schedrec_migrate *mg = (const void *)er->rec->hdr;
	struct pb *pb = &pp->event;
	char idle[SCHEDREC_COMM_LEN];
	size_t m;

	m = begin_event(pp, mg->hdr.ts, PID_UNKNOWN, false,
			EVENT_SCHED_MIGRATE_TASK);
	pb_string(pb, MIGRATE_COMM,
		  name_of(er->subject[0], mg->tid, er->rec->cpu, idle),
		  SCHEDREC_COMM_LEN);
	pb_uint(pb, MIGRATE_PID, mg->tid);
	pb_int(pb, MIGRATE_PRIO, mg->prio);
	pb_uint(pb, MIGRATE_ORIG_CPU, mg->orig_cpu);
	pb_uint(pb, MIGRATE_DEST_CPU, mg->dest_cpu);
	end_event(pp, b, m);
}

/*
 * fork: sched_process_fork, and task_newtask for Perfetto's process
 * tracker (its clone flags say only CLONE_THREAD: a child that is not its
 * group's leader is a thread); exec, exit, rename.
 */
static void put_task(struct perfetto_proto *pp, struct bundle *b,
		     const struct export_record *er)
{
	const struct schedrec_task *tk = (const void *)er->rec->hdr;
	uint64_t ts = tk->hdr.ts;
	struct pb *pb = &pp->event;
	size_t m;

	switch (tk->hdr.type) {
	case SCHEDREC_EV_FORK:
		/* the child's name is the parent's, copied by fork */
		m = begin_event(pp, ts, tk->other_tid, false,
				EVENT_SCHED_PROCESS_FORK);
		pb_string(pb, FORK_PARENT_COMM, tk->comm, SCHEDREC_COMM_LEN);
		pb_uint(pb, FORK_PARENT_PID, tk->other_tid);
		pb_string(pb, FORK_CHILD_COMM, tk->comm, SCHEDREC_COMM_LEN);
		pb_uint(pb, FORK_CHILD_PID, tk->tid);
		end_event(pp, b, m);
		m = begin_event(pp, ts, tk->other_tid, false,
				EVENT_TASK_NEWTASK);
		pb_uint(pb, NEWTASK_PID, tk->tid);
		pb_string(pb, NEWTASK_COMM, tk->comm, SCHEDREC_COMM_LEN);
		pb_uint(pb, NEWTASK_CLONE_FLAGS,
			tk->tid != tk->tgid ? CLONE_THREAD_FLAG : 0);
		break;
	case SCHEDREC_EV_EXEC:
		m = begin_event(pp, ts, tk->tid, false,
				EVENT_SCHED_PROCESS_EXEC);
		pb_uint(pb, EXEC_PID, tk->tid);
		pb_uint(pb, EXEC_OLD_PID, tk->other_tid);
		break;
	case SCHEDREC_EV_EXIT:
		m = begin_event(pp, ts, tk->tid, false,
				EVENT_SCHED_PROCESS_EXIT);
		pb_string(pb, EXIT_COMM, tk->comm, SCHEDREC_COMM_LEN);
		pb_uint(pb, EXIT_PID, tk->tid);
		pb_uint(pb, EXIT_TGID, tk->tgid);
		break;
	default:	/* rename */
		m = begin_event(pp, ts, tk->tid, false, EVENT_TASK_RENAME);
		pb_uint(pb, RENAME_PID, tk->tid);
		pb_string(pb, RENAME_NEWCOMM, tk->comm, SCHEDREC_COMM_LEN);
		break;
	}
	end_event(pp, b, m);
}

static int proto_record(void *priv, struct export_ctx *ctx,
			const struct export_record *er)
{
	struct perfetto_proto *pp = priv;
	const struct srec_record *rec = er->rec;
	unsigned int cpu = rec->cpu;
	bool is_lost = rec->hdr->type == SCHEDREC_REC_LOST;
	struct bundle *b;
	int ret;

	if (cpu >= pp->nr_cpus || !select_cpu(&ctx->front.sel, cpu))
		return 0;
	if (cpu >= PERFETTO_CPUS_MAX) {
		pp->cpus_past_max++;
		return 0;
	}
	b = bundle_of(pp, cpu);
	if (!b)
		return -ENOMEM;
	/* a LOST record, or numbers missing that none counts */
	if (is_lost || (rec->gap && !pp->filtered)) {
		ret = lost(pp, cpu);
		if (ret || is_lost)
			return ret;
	}
	switch (rec->hdr->type) {
	case SCHEDREC_EV_SWITCH:
		put_switch(pp, b, er);
		break;
	case SCHEDREC_EV_WAKEUP:
		if (pp->has_waking)
			return 0;	/* Perfetto reads the waking */
		put_wakeup(pp, b, er);
		break;
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP_NEW:
		put_wakeup(pp, b, er);
		break;
	case SCHEDREC_EV_MIGRATE:
		put_migrate(pp, b, er);
		break;
	case SCHEDREC_EV_FORK:
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_EXIT:
	case SCHEDREC_EV_RENAME:
		put_task(pp, b, er);
		break;
	default:
		return 0;	/* stacks, and types we do not know */
	}
	if (++b->records >= BUNDLE_RECORDS || b->nr_names >= BUNDLE_NAMES)
		return flush(pp, cpu);
	return 0;
}

static int proto_start(void *priv, struct export_ctx *ctx)
{
	struct perfetto_proto *pp = priv;
	int ret;

	if (ctx->front.select_threads) {
		front_usage_error(&ctx->front, "--pid, --tid and --comm choose the tracks of --format json: Perfetto's own format keeps every thread (Perfetto needs every switch of a CPU, and filters threads in its UI)");
		return -EINVAL;
	}
	if (ctx->out == stdout && isatty(STDOUT_FILENO)) {
		front_usage_error(&ctx->front, "will not write a binary trace to a terminal: redirect standard output, or give -o FILE");
		return -EINVAL;
	}
	pp->ctx = ctx;
	pp->nr_cpus = ctx->front.info->file.nr_cpus;
	pp->filtered = ctx->front.info->file.flags & SREC_FILE_F_FILTERED;
	pp->has_waking = ctx->front.info->file.event_mask &
			 1u << SCHEDREC_EV_WAKING;
	pp->cpus = calloc(pp->nr_cpus, sizeof(*pp->cpus));
	if (!pp->cpus)
		return -ENOMEM;
	put_clocks(pp);
	put_system_info(pp);
	ret = put_process_tree(pp);
	return ret ?: write_packet(pp);
}

static int proto_finish(void *priv, struct export_ctx *ctx)
{
	struct perfetto_proto *pp = priv;
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < pp->nr_cpus; cpu++) {
		ret = flush(pp, cpu);
		if (ret)
			return ret;
	}
	if (pp->cpus_past_max)
		export_warn(ctx, "%" PRIu64 " records of CPUs %u and above left out: Perfetto reads CPUs 0 to %u only (export them with --format json)",
			    pp->cpus_past_max, PERFETTO_CPUS_MAX,
			    PERFETTO_CPUS_MAX - 1);
	return stream_error(ctx->out);
}

static void proto_free(void *priv)
{
	struct perfetto_proto *pp = priv;
	unsigned int cpu, c;

	for (cpu = 0; pp->cpus && cpu < pp->nr_cpus; cpu++) {
		struct bundle *b = &pp->cpus[cpu];

		for (c = 0; c < NR_COLUMNS; c++)
			pb_free(&b->column[c]);
		pb_free(&b->names);
		pb_free(&b->events);
		free(b->slots);
	}
	free(pp->cpus);
	pb_free(&pp->packet);
	pb_free(&pp->event);
}

static const struct perfetto_writer perfetto_proto = {
	.priv_size = sizeof(struct perfetto_proto),
	.start = proto_start,
	.record = proto_record,
	.finish = proto_finish,
	.free = proto_free,
};

/* ------------------------------------------------------------------ */
/* The format: --format chooses the writer */

enum {
	OPT_FORMAT = EXPORT_OPT_BASE,
};

static const struct optspec perfetto_options[] = {
	{ "format", OPT_FORMAT, required_argument, "FORMAT",
	  "proto (the default, unless -o ends in .json or .json.gz) or "
	  "json\n" },
	{ 0 },
};

struct perfetto {
	const struct perfetto_writer *writer;	/* NULL: not chosen yet */
	void *priv;
};

static int perfetto_parse(void *priv, int key, const char *arg)
{
	struct perfetto *pf = priv;

	if (key != OPT_FORMAT)
		return -EINVAL;
	if (!strcmp(arg, "proto")) {
		pf->writer = &perfetto_proto;
	} else if (!strcmp(arg, "json")) {
		pf->writer = &perfetto_json;
	} else {
		fprintf(stderr, "schedrec export perfetto: bad --format '%s': proto or json\n",
			arg);
		return -EINVAL;
	}
	return 0;
}

static int perfetto_start(void *priv, struct export_ctx *ctx)
{
	struct perfetto *pf = priv;

	if (!pf->writer)
		pf->writer = str_ends_with(ctx->out_path, ".json") ||
			     str_ends_with(ctx->out_path, ".json.gz") ?
			     &perfetto_json : &perfetto_proto;
	pf->priv = calloc(1, pf->writer->priv_size);
	if (!pf->priv)
		return -ENOMEM;
	ctx->no_records = !pf->writer->record;
	return pf->writer->start(pf->priv, ctx);
}

static int perfetto_record(void *priv, struct export_ctx *ctx,
			   const struct export_record *er)
{
	struct perfetto *pf = priv;

	return pf->writer->record(pf->priv, ctx, er);
}

static int perfetto_finish(void *priv, struct export_ctx *ctx)
{
	struct perfetto *pf = priv;

	return pf->writer->finish(pf->priv, ctx);
}

static void perfetto_free(void *priv)
{
	struct perfetto *pf = priv;

	if (pf->priv)
		pf->writer->free(pf->priv);
	free(pf->priv);
}

const struct export_format perfetto_export = {
	.name = "perfetto",
	.summary = "Perfetto's protobuf trace (or Chrome JSON), for ui.perfetto.dev",
	.help =
	"Perfetto's own trace format (protobuf), which the Perfetto UI\n"
	"(https://ui.perfetto.dev, Open trace file) and trace_processor load as\n"
	"they load a kernel trace of Perfetto's: CPU tracks with the threads\n"
	"that ran, a thread state track per thread (Running, Runnable,\n"
	"Sleeping, Uninterruptible Sleep, ...) with who woke it, the processes\n"
	"and threads of the start snapshot and of forks, and where events were\n"
	"lost.  Times are the trace's (CLOCK_MONOTONIC, which Perfetto shows as\n"
	"its boot clock), and a clock snapshot gives the wall-clock time.\n"
	"Every thread is kept (Perfetto filters in its UI); --cpu keeps those\n"
	"CPUs' events, --range the window's.\n"
	"\n"
	"With --format json, or -o FILE.json: the Chrome JSON trace events,\n"
	"which chrome://tracing loads too.  Each thread is a track with\n"
	"\"Running\" slices and, between them, a slice per off-CPU interval\n"
	"named by its state at switch-out (\"R runnable\", \"S sleeping\", ...);\n"
	"a process \"CPUs\" holds a track per CPU.  There --pid, --tid and\n"
	"--comm choose the thread tracks, --cpu keeps the running slices on\n"
	"those CPUs and the off-CPU slices that began there.\n"
	"\n"
	"-o FILE.gz writes it gzipped: the Perfetto UI opens that too.\n",
	.examples =
	"  schedrec export perfetto run.srec -o run.perfetto-trace\n"
	"  schedrec export perfetto run.srec -o run.json.gz --pid 4242 --range 2:3\n",
	.options = perfetto_options,
	.parse = perfetto_parse,
	.binary = false,
	.priv_size = sizeof(struct perfetto),
	.start = perfetto_start,
	.record = perfetto_record,
	.finish = perfetto_finish,
	.free = perfetto_free,
};
