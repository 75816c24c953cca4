/* SPDX-License-Identifier: GPL-2.0 */
/*
 * foldstack: time per folded stack, for `report folded` and `report flame`
 * (doc/reports.md).  A folded stack is a line of frames, root first:
 *
 *	app-4242;worker 4243;on-CPU
 *	app-4242;worker 4243;off-CPU;S;do_sys_poll;do_poll;schedule_timeout
 *
 * the process (its leader's name then, and its pid), the thread (its name
 * then, and its tid), on-CPU or off-CPU, and for off-CPU the state at
 * switch-out and the kernel stack it left the CPU with, outermost frame
 * first, below the scheduler's own frames (ksyms_sched_frames()).
 *
 *	struct foldstack *fs = foldstack_new(ctx->front.model, ctx->front.info,
 *					     &ctx->front.sel);
 *	(the pass: the model's intervals come in)
 *	n = foldstack_lines(fs, ks, &lines);
 *	for (i = 0; i < n; i++)
 *		printf("%s %llu\n", lines[i].stack, lines[i].ns / 1000);
 *	foldstack_free(fs);
 *
 * Memory: one entry per (thread under one name, process name, on-CPU or
 * off-CPU state, kernel stack) seen: it grows with the distinct stacks of
 * each thread, never with the events.
 */
#ifndef SCHEDREC_FOLDSTACK_H
#define SCHEDREC_FOLDSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ksyms.h"
#include "schedmodel.h"
#include "select.h"

#define FOLD_ONCPU	"on-CPU"
#define FOLD_OFFCPU	"off-CPU"

/* Frames before on-CPU / off-CPU: the process and the thread. */
#define FOLD_TASK_FRAMES	2

/* One line's key and time. */
struct fold_entry {
	const struct task *task;	/* the thread, under its name then */
	const char *process;		/* its process's leader's name then
					 * (at most SCHEDREC_COMM_LEN bytes,
					 * a task's or the start snapshot's);
					 * NULL: not known
					 */
	char state;			/* 0: on CPU; else the off-CPU state */
	const struct sched_stack *stack;	/* off CPU; NULL: none */
	uint64_t ns;			/* in the window, clipped */
};

/* A line, formatted. */
struct fold_line {
	char *stack;			/* the frames, ';' between them */
	uint64_t ns;
	const struct fold_entry *entry;
};

struct foldstack;

/*
 * Count the time of the threads @sel selects in @m's intervals (@info:
 * the trace's header, for the names of processes whose leader the model
 * has not seen): on-CPU on
 * the CPUs selected, off-CPU when switched out on one of them (every
 * off-CPU interval if no --cpu was given; with --cpu, those in state '?',
 * whose switch-out was not seen, are not counted).  @sel must live as
 * long as the result.  NULL on ENOMEM or if @m takes no more handlers.
 */
struct foldstack *foldstack_new(struct schedmodel *m,
				const struct srecreader_info *info,
				const struct selection *sel);
void foldstack_free(struct foldstack *fs);

/* Whether memory ran out while counting (the counts are then short). */
bool foldstack_failed(const struct foldstack *fs);

/* Whether an interval counted had a kernel stack. */
bool foldstack_has_stacks(const struct foldstack *fs);

/*
 * The lines with time, sorted by their text (bytes, as strcmp()), into
 * *@lines (owned by @fs, valid until the next call or foldstack_free()).
 * Kernel frames are named with @ks; with no symbols (NULL, no snapshot,
 * or hidden) they are hex addresses, and none is trimmed unless named.
 * Without @ids the process and thread frames are their names alone
 * ("app", "worker"), so that two recordings' lines match; lines of equal
 * text are then one, of the first entry (by thread).
 * Returns how many, or -ENOMEM.
 */
long foldstack_lines(struct foldstack *fs, const struct ksyms *ks, bool ids,
		     struct fold_line **lines);

/*
 * A name as a frame: ';' (which separates frames) becomes ':', control
 * characters '?', and an empty name "?".  Into @buf of @size bytes.
 */
void fold_frame_name(char *buf, size_t size, const char *name);

/*
 * The process frame of @e: "app-4242", or "pid 4242" / "pid ?"; without
 * @ids "app", or "pid ?".
 */
void fold_process_frame(char *buf, size_t size, const struct fold_entry *e,
			bool ids);

/* The thread frame of @e: "worker 4243"; without @ids "worker". */
void fold_thread_frame(char *buf, size_t size, const struct fold_entry *e,
		       bool ids);

#endif /* SCHEDREC_FOLDSTACK_H */
