/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of the reports share: where the schedrec binary is,
 * running a command and keeping what it printed, whole files in and out,
 * counting in text, and scratch directories for shell commands.
 *
 * Every function that runs a command runs it with stdin /dev/null, in a
 * process group of its own, and kills it (the group) when it takes longer
 * than RUN_TIMEOUT_MS or prints more than RUN_OUTPUT_MAX bytes.
 */
#ifndef SCHEDREC_RUN_UTIL_H
#define SCHEDREC_RUN_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define RUN_TIMEOUT_MS		20000
#define RUN_OUTPUT_MAX		(64u << 20)

/* A growable string; data is NUL-terminated once anything was added. */
struct text {
	char *data;
	size_t len;
	size_t cap;
};

/* Append @len bytes of @data (none: data becomes ""); aborts on ENOMEM. */
void text_add(struct text *t, const void *data, size_t len);
/* Append printf's output; aborts on ENOMEM. */
__printf(2, 3) void text_printf(struct text *t, const char *fmt, ...);
void text_free(struct text *t);

/* tests/tools of this tree: the directory run_util.c was compiled in. */
const char *tools_test_dir(void);

/*
 * The schedrec to test: $SCHEDREC_BIN made absolute (as given if it
 * cannot be), else build/user/schedrec of this tree.
 */
const char *schedrec_bin(void);

/*
 * /usr/bin/python3, the one Debian's python3-* packages are for; else
 * python3 from $PATH.
 */
const char *python3_bin(void);

/* How a command ended, and what it printed. */
struct run_result {
	int status;		/* its wait status; -1: see why */
	struct text out;	/* stdout, NUL-terminated */
	struct text err;	/* stderr, NUL-terminated */
	char why[256];		/* why it did not end by itself */
};

/*
 * Run @argv (argv[0] a path) in @cwd (NULL: here), its stdout and stderr
 * into @r, which is overwritten (run_result_free() an earlier result
 * first).  Returns r->status: the wait status, or -1 with r->why when it
 * could not be run or was killed (too long, too much output).  A program
 * that cannot be executed exits 127.
 */
int run_command(char *const argv[], const char *cwd, struct run_result *r);

/* schedrec with the words of @fmt (split at spaces, no quoting), here. */
__printf(2, 3) int run_schedrec(struct run_result *r, const char *fmt, ...);

void run_result_free(struct run_result *r);

/*
 * All of the file @path, NUL-terminated, its length in *@len if @len is
 * not NULL; NULL with errno set on failure.  free() it.
 */
char *read_file(const char *path, size_t *len);

/* Write @text to @path (replaced); 0, or -1 with errno set. */
int write_file(const char *path, const char *text);

/* Remove @path and, if it is a directory, everything in it. */
void remove_tree(const char *path);

/*
 * Compile the tracegen description @text into the trace @path; 0, or -1
 * after saying why on stderr.
 */
int write_trace_file(const char *path, const char *text);

/* Occurrences of @needle in @text (NULL: none), not overlapping. */
size_t count_matches(const char *text, const char *needle);

/* Newlines in @text (NULL: none). */
size_t count_lines(const char *text);

/*
 * A scratch directory in which tests run shell commands, and what the
 * last one printed.
 */
struct workdir {
	char dir[256];
	struct text vars;	/* shell assignments made before a command */
	char *out;		/* stdout of the last command, NULL before */
	char *err;		/* its stderr, or why it did not run */
};

/*
 * Make a new directory /tmp/@prefix-XXXXXX, with $S set to schedrec_bin()
 * for its commands.  0, or -1 with errno set.
 */
int workdir_make(struct workdir *w, const char *prefix);

/* Set the shell variable @name to @value for the commands of @w. */
void workdir_var(struct workdir *w, const char *name, const char *value);

/*
 * Run the shell command @fmt (sh -c, after the variables) in @w's
 * directory; its stdout and stderr into w->out and w->err.  Returns its
 * exit status, or -1 if it did not exit (killed, or not run at all).
 */
__printf(2, 3) int workdir_run(struct workdir *w, const char *fmt, ...);

/* Is there a file @name (relative to @w's directory)? */
bool workdir_has(const struct workdir *w, const char *name);

/* Remove the directory and all in it; free what @w holds. */
void workdir_remove(struct workdir *w);

#endif /* SCHEDREC_RUN_UTIL_H */
