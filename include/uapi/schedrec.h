/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * schedrec ABI: the one definition shared by schedrec.ko and userspace.
 *
 * Everything a reader needs to understand a ring lives here: event ids,
 * record layouts, the per-CPU control page and the mmap layout.  Fields are
 * fixed-width, naturally aligned and explicitly padded; the layout is
 * asserted at compile time at the end of this file, so the kernel module and
 * every userspace program that includes it check the same numbers.
 *
 * Byte order is the host's.  Trace files (doc/srec-format.md) carry these
 * records as they are, and say they are little-endian: schedrec builds only
 * for little-endian machines.
 *
 * Versioning: SCHEDREC_ABI_VERSION changes whenever an existing id, layout
 * or meaning changes.  Adding a new record type with a new id does not
 * change it; readers skip unknown types using the size field.
 */
#ifndef _UAPI_SCHEDREC_H
#define _UAPI_SCHEDREC_H

#include <linux/types.h>

#define SCHEDREC_ABI_VERSION	1

/*
 * Event and record type ids.  Ids 1-9 and 12 are events that can be enabled
 * through /proc/schedrec/events; bit (1 << id) of the event mask enables the
 * event with that id.  LOST and PAD are written by the ring itself and are
 * not events: loops over FIRST..LAST skip the ids SCHEDREC_EV_IS_EVENT()
 * refuses.  Id 0 is never used, so zeroed memory is never a valid record.
 *
 * STACK is optional: it is not in SCHEDREC_EV_ALL_MASK ("all") nor in the
 * default mask, and is enabled by name.  It costs a kernel stack walk and a
 * record of up to SCHEDREC_STACK_MAX_SIZE bytes at every switch.
 */
enum schedrec_type {
	SCHEDREC_EV_SWITCH	= 1,	/* sched_switch */
	SCHEDREC_EV_WAKING	= 2,	/* sched_waking */
	SCHEDREC_EV_WAKEUP	= 3,	/* sched_wakeup */
	SCHEDREC_EV_WAKEUP_NEW	= 4,	/* sched_wakeup_new */
	SCHEDREC_EV_MIGRATE	= 5,	/* sched_migrate_task */
	SCHEDREC_EV_FORK	= 6,	/* sched_process_fork */
	SCHEDREC_EV_EXEC	= 7,	/* sched_process_exec */
	SCHEDREC_EV_EXIT	= 8,	/* sched_process_exit */
	SCHEDREC_EV_RENAME	= 9,	/* task_rename */
	SCHEDREC_REC_LOST	= 10,	/* records dropped on a full ring */
	SCHEDREC_REC_PAD	= 11,	/* filler up to the end of the ring */
	SCHEDREC_EV_STACK	= 12,	/* sched_switch: prev's kernel stack */
};

/*
 * Names of the events, indexed by id: the short name, and the name of the
 * kernel tracepoint.  /proc/schedrec/events accepts either.
 */
#define SCHEDREC_EVENT_NAMES {						\
	[SCHEDREC_EV_SWITCH] = "switch",				\
	[SCHEDREC_EV_WAKING] = "waking",				\
	[SCHEDREC_EV_WAKEUP] = "wakeup",				\
	[SCHEDREC_EV_WAKEUP_NEW] = "wakeup_new",			\
	[SCHEDREC_EV_MIGRATE] = "migrate",				\
	[SCHEDREC_EV_FORK] = "fork",					\
	[SCHEDREC_EV_EXEC] = "exec",					\
	[SCHEDREC_EV_EXIT] = "exit",					\
	[SCHEDREC_EV_RENAME] = "rename",				\
	[SCHEDREC_REC_LOST] = "lost",					\
	[SCHEDREC_REC_PAD] = "pad",					\
	[SCHEDREC_EV_STACK] = "stack",					\
}

#define SCHEDREC_EVENT_TRACEPOINTS {					\
	[SCHEDREC_EV_SWITCH] = "sched_switch",				\
	[SCHEDREC_EV_WAKING] = "sched_waking",				\
	[SCHEDREC_EV_WAKEUP] = "sched_wakeup",				\
	[SCHEDREC_EV_WAKEUP_NEW] = "sched_wakeup_new",			\
	[SCHEDREC_EV_MIGRATE] = "sched_migrate_task",			\
	[SCHEDREC_EV_FORK] = "sched_process_fork",			\
	[SCHEDREC_EV_EXEC] = "sched_process_exec",			\
	[SCHEDREC_EV_EXIT] = "sched_process_exit",			\
	[SCHEDREC_EV_RENAME] = "task_rename",				\
	[SCHEDREC_EV_STACK] = "sched_switch",				\
}

/*
 * Size of each record type, indexed by id; 0 for the types whose size
 * varies: PAD, and STACK (SCHEDREC_STACK_SIZE() of its @nr).
 */
#define SCHEDREC_RECORD_SIZES {						\
	[SCHEDREC_EV_SWITCH] = sizeof(struct schedrec_switch),		\
	[SCHEDREC_EV_WAKING] = sizeof(struct schedrec_wakeup),		\
	[SCHEDREC_EV_WAKEUP] = sizeof(struct schedrec_wakeup),		\
	[SCHEDREC_EV_WAKEUP_NEW] = sizeof(struct schedrec_wakeup),	\
	[SCHEDREC_EV_MIGRATE] = sizeof(struct schedrec_migrate),	\
	[SCHEDREC_EV_FORK] = sizeof(struct schedrec_task),		\
	[SCHEDREC_EV_EXEC] = sizeof(struct schedrec_task),		\
	[SCHEDREC_EV_EXIT] = sizeof(struct schedrec_task),		\
	[SCHEDREC_EV_RENAME] = sizeof(struct schedrec_task),		\
	[SCHEDREC_REC_LOST] = sizeof(struct schedrec_lost),		\
	[SCHEDREC_REC_PAD] = 0,						\
	[SCHEDREC_EV_STACK] = 0,					\
}

/* Event ids run from FIRST to LAST, with LOST and PAD between them. */
#define SCHEDREC_EV_FIRST	SCHEDREC_EV_SWITCH
#define SCHEDREC_EV_LAST	SCHEDREC_EV_STACK
#define SCHEDREC_REC_MAX	SCHEDREC_EV_STACK	/* the highest type id */

/* "all": every event but the optional ones; what a fresh module records */
#define SCHEDREC_EV_ALL_MASK	(((1u << (SCHEDREC_EV_RENAME + 1)) - 1) & \
				 ~((1u << SCHEDREC_EV_FIRST) - 1))
/* events enabled only by name, for what they cost */
#define SCHEDREC_EV_OPTIONAL_MASK	(1u << SCHEDREC_EV_STACK)
/* every bit an event mask may have */
#define SCHEDREC_EV_VALID_MASK	(SCHEDREC_EV_ALL_MASK | \
				 SCHEDREC_EV_OPTIONAL_MASK)
/* whether @id is an event (not LOST, PAD or unknown) */
#define SCHEDREC_EV_IS_EVENT(id) \
	((id) <= SCHEDREC_EV_LAST && ((SCHEDREC_EV_VALID_MASK >> (id)) & 1))

/*
 * Every record starts with this header.  Records are SCHEDREC_RECORD_ALIGN
 * aligned and their size is a multiple of it, so the ring never holds a gap
 * smaller than a header.
 *
 * @ts:    CLOCK_MONOTONIC in nanoseconds (ktime_get_mono_fast_ns), read once
 *         per event on the CPU that owns the ring; comparable across CPUs
 *         and with clock_gettime(CLOCK_MONOTONIC) in userspace.
 * @seq:   low 32 bits of the ring's sequence number.  Every event the ring
 *         accepts or drops takes the next number, and so does every LOST
 *         record; a reader extends it to 64 bits (it never jumps by 2^32
 *         or more without a LOST record saying so), and a gap in it is
 *         exactly the number of events that were dropped.
 * @size:  size of the whole record in bytes, header included.
 * @type:  enum schedrec_type.
 * @flags: SCHEDREC_F_*.
 */
struct schedrec_header {
	__u64 ts;
	__u32 seq;
	__u16 size;
	__u8 type;
	__u8 flags;
};

#define SCHEDREC_RECORD_ALIGN	16

/* switch: prev was preempted (TASK_RUNNING by preemption, not by choice) */
#define SCHEDREC_F_PREEMPT	0x01
/*
 * the event fired in hard or soft interrupt context (a task with bottom
 * halves disabled is not); never set on switch and stack records
 */
#define SCHEDREC_F_IRQ		0x02

/*
 * sched_switch, 32 bytes.  @prev_state is the kernel's raw task state
 * (prev->__state as passed to the tracepoint) with prev's exit_state ORed
 * in (EXIT_DEAD 0x10, EXIT_ZOMBIE 0x20, bits the state never holds), as
 * the kernel's own sched_switch event folds them in: a dying task's last
 * switch says X or Z as ftrace does (older modules left exit_state out:
 * there a dying task's state is TASK_DEAD alone).  Userspace decodes it.
 * Priorities are the kernel's p->prio (0..139, -1 for deadline tasks).
 */
struct schedrec_switch {
	struct schedrec_header hdr;
	__u32 prev_tid;
	__u32 next_tid;
	__u32 prev_state;
	__s16 prev_prio;
	__s16 next_prio;
};

/*
 * sched_waking, sched_wakeup and sched_wakeup_new, 32 bytes.
 * @target_cpu: task_cpu() of the woken task when the event fired.
 * @waker_tid:  the task current on the CPU where the event fired (with
 *              SCHEDREC_F_IRQ set it is the interrupted task, not a waker).
 */
struct schedrec_wakeup {
	struct schedrec_header hdr;
	__u32 tid;
	__u32 target_cpu;
	__u32 waker_tid;
	__s16 prio;
	__u16 __pad;
};

/* sched_migrate_task, 32 bytes */
struct schedrec_migrate {
	struct schedrec_header hdr;
	__u32 tid;
	__u32 orig_cpu;
	__u32 dest_cpu;
	__s16 prio;
	__u16 __pad;
};

#define SCHEDREC_COMM_LEN	16

/*
 * sched_process_fork, sched_process_exec, sched_process_exit and
 * task_rename, 48 bytes.
 * @tid, @tgid: the task the event is about (for fork: the child).
 * @other_tid:  fork: the parent's tid; exec: the tid before exec (differs
 *              when a non-leader thread execs); exit and rename: 0.
 * @comm:       the task's name after the event (rename: the new name),
 *              NUL-padded, not always NUL-terminated.
 */
struct schedrec_task {
	struct schedrec_header hdr;
	__u32 tid;
	__u32 tgid;
	__u32 other_tid;
	__u32 __pad;
	char comm[SCHEDREC_COMM_LEN];
};

/*
 * LOST, 48 bytes: written as soon as the ring has room again after it had
 * to drop events.  @count events were dropped, the first at @first_ts and
 * the last at @last_ts; their sequence numbers are the gap just before this
 * record's.
 */
struct schedrec_lost {
	struct schedrec_header hdr;
	__u64 count;
	__u64 first_ts;
	__u64 last_ts;
	__u64 __pad;
};

/*
 * STACK, 24 bytes plus 8 per return address, rounded up to 16
 * (SCHEDREC_STACK_SIZE(@nr)): the kernel stack of the task going off-CPU,
 * taken in the sched_switch probe, so it ends where the task called the
 * scheduler.  It comes on the same CPU immediately before the SWITCH record
 * of that switch (when switch is enabled too), with the same timestamp:
 * a reader attaches it to the switch that follows.  Never written for the
 * idle task.
 * @tid:  the task going off-CPU (the SWITCH record's prev_tid).
 * @nr:   return addresses in @ips, 0..SCHEDREC_STACK_MAX_DEPTH; the module
 *        parameter stack_depth bounds it.
 * @ips:  kernel text addresses, innermost first.  The frames of the probe
 *        itself are left out; those of the scheduler and of the tracepoint
 *        that called the probe (__schedule() and above) are kept, and
 *        readers trim them: which they are differs between kernels and
 *        configurations.  The 8 bytes after @ips[@nr - 1] that an even @nr
 *        leaves to the record's end are zero.  Addresses are as the kernel
 *        runs them (KASLR included), so they match /proc/kallsyms of the
 *        same boot, read by root.
 */
struct schedrec_stack {
	struct schedrec_header hdr;
	__u32 tid;
	__u16 nr;
	__u16 __pad;
	__u64 ips[];
};

#define SCHEDREC_STACK_MAX_DEPTH	32
#define SCHEDREC_STACK_SIZE(nr)						\
	((sizeof(struct schedrec_stack) + 8 * (nr) +			\
	  SCHEDREC_RECORD_ALIGN - 1) & ~(SCHEDREC_RECORD_ALIGN - 1))
#define SCHEDREC_STACK_MAX_SIZE	SCHEDREC_STACK_SIZE(SCHEDREC_STACK_MAX_DEPTH)

/*
 * The per-CPU ring.
 *
 * /proc/schedrec/cpu/N maps as follows (offsets in bytes, P = page size):
 *
 *   [0, P)            struct schedrec_ring_ctrl, in a page of its own.
 *                     It may be mapped PROT_READ|PROT_WRITE; userspace
 *                     writes only @tail.  The fields that describe the
 *                     ring (@abi_version to @data_size) are written again
 *                     at every open and every start of recording.
 *   [P, P + size)     the data area, @data_size bytes, a power of two.  It
 *                     may only be mapped read-only: a writable mapping (or
 *                     one that could become writable) is refused with EPERM.
 *
 * Positions (@head, @tail, @oldest) are free-running 64-bit byte counts;
 * a record at position pos starts at data[pos & (data_size - 1)].  No record
 * crosses the end of the data area: when the next record would not fit
 * before the end, the kernel fills the rest with a PAD record and writes the
 * record at the start.  Readers skip PAD.
 *
 * Stream mode (default), single producer (the CPU), single consumer:
 *   - the kernel writes records, then publishes @head with release order;
 *   - the reader loads @head with acquire order, consumes records from
 *     @tail to @head, then stores the new @tail with release order;
 *   - the kernel never trusts @tail: it clamps it to [head - size, head] and
 *     to record alignment.  A wrong value loses that reader's data; the
 *     kernel's memory and accounting are unaffected.
 *   - a full ring drops the new event and counts it; a LOST record follows
 *     as soon as there is room.  The writer never waits.
 *
 * Overwrite mode (flight recorder): the newest records are kept; the kernel
 * advances @oldest past whole records to make room and ignores @tail.  For a
 * consistent snapshot, disable recording (echo 0 > /proc/schedrec/enable:
 * every probe has finished when the write returns), then read from
 * max(@oldest, @tail) to @head.  read() of a CPU file returns EBUSY in
 * overwrite mode while recording is enabled.
 *
 * Enabling recording (0 -> 1) resets every ring: positions, sequence
 * numbers and counters start again from zero.
 */
struct schedrec_ring_ctrl {
	/* written by the kernel */
	__u32 abi_version;
	__u32 cpu;
	__u32 page_size;	/* mmap offset of the data area */
	__u32 mode;		/* enum schedrec_mode */
	__u64 data_size;
	__u64 head;
	__u64 oldest;
	__u64 lost;		/* events dropped since recording was enabled */
	__u64 __reserved0[2];
	/* written by the reader, on a cache line of its own */
	__u64 tail;
	__u64 __reserved1[7];
};

enum schedrec_mode {
	SCHEDREC_MODE_STREAM	= 0,
	SCHEDREC_MODE_OVERWRITE	= 1,
};

#define SCHEDREC_PROC_DIR	"/proc/schedrec"

/* Layout checks, compiled by the module and by every userspace user. */
#define SCHEDREC_CHECK(expr) _Static_assert(expr, #expr)
#define SCHEDREC_OFFSET(type, field) __builtin_offsetof(struct type, field)

SCHEDREC_CHECK(sizeof(struct schedrec_header) == 16);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_header, seq) == 8);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_header, size) == 12);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_header, type) == 14);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_header, flags) == 15);
SCHEDREC_CHECK(sizeof(struct schedrec_switch) == 32);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_switch, prev_tid) == 16);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_switch, prev_state) == 24);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_switch, next_prio) == 30);
SCHEDREC_CHECK(sizeof(struct schedrec_wakeup) == 32);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_wakeup, waker_tid) == 24);
SCHEDREC_CHECK(sizeof(struct schedrec_migrate) == 32);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_migrate, dest_cpu) == 24);
SCHEDREC_CHECK(sizeof(struct schedrec_task) == 48);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_task, comm) == 32);
SCHEDREC_CHECK(sizeof(struct schedrec_lost) == 48);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_lost, last_ts) == 32);
SCHEDREC_CHECK(sizeof(struct schedrec_ring_ctrl) == 128);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_ring_ctrl, head) == 24);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_ring_ctrl, tail) == 64);
SCHEDREC_CHECK(sizeof(struct schedrec_switch) % SCHEDREC_RECORD_ALIGN == 0);
SCHEDREC_CHECK(sizeof(struct schedrec_wakeup) % SCHEDREC_RECORD_ALIGN == 0);
SCHEDREC_CHECK(sizeof(struct schedrec_task) % SCHEDREC_RECORD_ALIGN == 0);
SCHEDREC_CHECK(sizeof(struct schedrec_lost) % SCHEDREC_RECORD_ALIGN == 0);
SCHEDREC_CHECK(sizeof(struct schedrec_stack) == 24);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_stack, tid) == 16);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_stack, nr) == 20);
SCHEDREC_CHECK(SCHEDREC_OFFSET(schedrec_stack, ips) == 24);
SCHEDREC_CHECK(SCHEDREC_STACK_SIZE(0) == 32);
SCHEDREC_CHECK(SCHEDREC_STACK_SIZE(1) == 32);
SCHEDREC_CHECK(SCHEDREC_STACK_SIZE(2) == 48);
SCHEDREC_CHECK(SCHEDREC_STACK_MAX_SIZE == 288);
SCHEDREC_CHECK(SCHEDREC_REC_MAX < 32);	/* the event mask is 32 bits */

#endif /* _UAPI_SCHEDREC_H */
