/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracegen: compile a short, readable description of a recording into a
 * real .srec file, written by srecwriter exactly as `schedrec record`
 * writes one.  The golden tests of the reports (golden_test.c) use it, and
 * build/user-tests/tracegen DESC.txt OUT.srec does the same by hand.
 *
 * The description, one statement a line:
 *
 *	# comments and blank lines are ignored
 *	cpus 2                  CPUs of the machine (default 2), online
 *	                        "0-(n-1)"; before any line that names a CPU
 *	online LIST             the CPUs online in the header, as
 *	                        /sys/devices/system/cpu/online lists them
 *	                        (default 0-(n-1)), e.g. 0,2-3
 *	start 1000s             CLOCK_MONOTONIC at the start of the recording
 *	                        (default 1000 s); every other time is relative
 *	                        to it
 *	end 2s                  end of the recording (the trailer's
 *	                        end_mono_ns); default the last event's time;
 *	                        not before it
 *	drainer PID TID CPU     the drainer in the header (default none: pid
 *	                        and tid 0, cpu UINT32_MAX)
 *	filtered                set SREC_FILE_F_FILTERED in the header
 *	notrailer               write no trailer: a recording cut short
 *	damage SECTION          flip a bit of the first data byte of the
 *	                        first section of SECTION, file, events,
 *	                        threads, ksyms or trailer, so that its data
 *	                        checksum fails (tracegen_write()'s fd must
 *	                        be readable and seekable); one line each
 *	zlib LEVEL              compress chunks at LEVEL (1-9), as `schedrec
 *	                        record -z LEVEL` does: a chunk under
 *	                        SRECWRITER_ZLIB_MIN bytes, or that does not
 *	                        shrink, stays raw
 *	pass N                  records per pass (default
 *	                        TRACEGEN_PASS_RECORDS, at most
 *	                        TRACEGEN_PASS_MAX): see "The file" below
 *	thread TID TGID COMM    a thread alive at the start (THREADS section)
 *	thread TID TGID COMM again
 *	                        the same tid listed again (reused while the
 *	                        snapshot was taken); else a tid is listed once
 *	event ID SIZE NAME [off]
 *	                        a type of record this ABI does not have (a
 *	                        newer module's) in the event table, enabled
 *	                        unless off (ID past SCHEDREC_REC_MAX, SIZE a
 *	                        multiple of 16; no line writes records of
 *	                        it); at most TRACEGEN_NEW_EVENTS
 *	noevent NAME            leave NAME (e.g. wakeup) out of the header's
 *	                        event mask, as `schedrec record -e` without
 *	                        it would (lines of it are still written)
 *	ksym ADDR TYPE NAME [[MODULE]]
 *	                        a line of the /proc/kallsyms snapshot (KSYMS
 *	                        section), e.g. "ksym ffffffff81100000 t
 *	                        do_nanosleep" or "... t ext4_read [ext4]";
 *	                        kept in the order given; no line, no section
 *
 *	TIME cpuN switch PREV STATE NEXT [prio P Q]
 *	TIME cpuN waking TID [waker W] [irq] [target C] [prio P]
 *	TIME cpuN wakeup TID [waker W] [irq] [target C] [prio P]
 *	TIME cpuN wakeup_new TID [waker W] [irq] [target C] [prio P]
 *	TIME cpuN migrate TID FROM TO [prio P]
 *	TIME cpuN fork CHILD TGID PARENT COMM
 *	TIME cpuN exec TID TGID OLDTID COMM
 *	TIME cpuN exit TID TGID COMM
 *	TIME cpuN rename TID TGID COMM
 *	TIME cpuN lost COUNT FIRST LAST
 *	TIME cpuN gap COUNT
 *	TIME cpuN filter COUNT
 *	TIME cpuN stack TID ADDR[,ADDR...]
 *
 * TIME, FIRST, LAST, start and end are a number with a unit, ns, us, ms or
 * s, decimals allowed down to the nanosecond: 12.5ms, 3us, 1.000000001s.
 * A bare number is an error.  Numbers (tids, counts, CPUs) are decimal.
 *
 * STATE, the previous task's state at a switch: R preempted (prev_state 0
 * and SCHEDREC_F_PREEMPT), R0 prev_state 0 without the flag, S, D, I
 * (TASK_IDLE), T, t, P, Z or X (TASK_DEAD), or a raw prev_state 0x...
 * (see taskstate.h).  Priorities default to 120.  The waker of a wakeup
 * defaults to the task the last switch before it on that CPU switched in
 * (0 if none), as the kernel's would be; its target CPU to the CPU it
 * happens on; irq sets SCHEDREC_F_IRQ.  COMM is one word of at most 15
 * characters, \xNN one (not 00): a name may hold any byte a thread can
 * give itself.
 *
 * Sequence numbers: each record takes the next number of its CPU, starting
 * at 0 (the header says FROM_START).  lost: COUNT events were dropped, the
 * first at FIRST and the last at LAST (FIRST <= LAST <= TIME); they take
 * COUNT numbers, then the LOST record its own.  gap: COUNT numbers are
 * skipped silently (loss no LOST record explains).  filter: COUNT records
 * the drainer left out on purpose: COUNT numbers skipped, and counted as
 * filtered in the CPU's next chunk.  gap and filter write no record; their
 * TIME only places them among the CPU's events.
 *
 * stack: the STACK record of TID's kernel stack, as the module writes it
 * at a switch: ADDR are hex (0x optional), innermost first, at most
 * SCHEDREC_STACK_MAX_DEPTH of them, or - for an empty stack.  The next
 * line of that CPU must be the switch whose PREV is TID, at the same TIME.
 * A description with a stack line enables STACK in the header's event
 * mask; one without stays as it was (every event but the optional ones).
 *
 * The lines of one CPU must come in time order (equal times keep the order
 * of the lines); lines of different CPUs may interleave freely.
 *
 * The file: the header of a stream recording of every event (all events
 * enabled, buf_kb 1024, fixed uname strings and CLOCK_REALTIME, so the same
 * description always gives the same bytes), then the records in passes, as
 * the drainer does: the records in time order are cut into passes of a few
 * records each (see `pass`), never between two of the same time; pass k
 * calls srecwriter_round() with the time of the first record of pass k + 1
 * (the last record's time + 1 ns for the last pass), then appends each CPU's
 * records of the pass as one chunk.  srecwriter writes the SYNC sections,
 * so srecreader merges the CPUs by time holding only a few passes.  The
 * trailer gives no kernel counters (unknown).
 */
#ifndef SCHEDREC_TRACEGEN_H
#define SCHEDREC_TRACEGEN_H

#include <stddef.h>

/*
 * Records per pass (at least; more when times are equal at the cut), and
 * the most a description may ask for.
 */
#define TRACEGEN_PASS_RECORDS	4
#define TRACEGEN_PASS_MAX	65536

/* The most `event` lines a description may have */
#define TRACEGEN_NEW_EVENTS	8

/* The fixed CLOCK_REALTIME of start: 2023-11-14 22:13:20 UTC. */
#define TRACEGEN_REALTIME_NS	1700000000000000000ull

/*
 * Compile the description @text into a .srec written to @fd.  Returns 0,
 * or -1 with a message in @err naming the line ("line 7: ...") when the
 * description is wrong, or what failed when writing.
 */
int tracegen_write(const char *text, int fd, char *err, size_t err_size);

/*
 * The same into a new file @path (replaced if it exists, removed on
 * error), opened for reading too, so that `damage` can find its sections.
 */
int tracegen_write_file(const char *text, const char *path, char *err,
			size_t err_size);

#endif /* SCHEDREC_TRACEGEN_H */
