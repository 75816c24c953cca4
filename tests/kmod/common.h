/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the in-guest tests: load and unload the module, put it
 * in a known state, collect the records of every CPU, small workloads.
 *
 * This is linked into every test binary, so it must not include
 * kselftest_harness.h (which defines functions): helpers return 0 or a
 * negative errno and the tests assert on that.
 */
#ifndef SCHEDREC_TEST_COMMON_H
#define SCHEDREC_TEST_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ringreader.h"
#include "uapi/schedrec.h"

/* Where the guest keeps the module; $SCHEDREC_KO overrides it. */
#define SR_MODULE_PATH	"/lib/schedrec.ko"
#define SR_MODULE_NAME	"schedrec"

/* finit_module() of the .ko at @path with @params (NULL: none); 0 or -errno */
int sr_load_ko(const char *path, const char *params);
int sr_module_load(const char *params);
int sr_module_unload(void);
/* Unload, retrying for a while if the module is still in use. */
int sr_module_unload_wait(void);
bool sr_module_loaded(void);
/* Load the module (no parameters) unless it is loaded already. */
int sr_module_ensure(void);
/* Unload if loaded, then load with @params. */
int sr_module_reload(const char *params);

/* Stop recording, stream mode, every event: the state tests start from. */
int sr_reset(void);
int sr_set_buf_kb(unsigned int kb);
int sr_enable(bool on);

/* Number of CPU files (possible CPUs), or -errno. */
int sr_nr_cpus(void);
int sr_nr_online_cpus(void);
int sr_pin_self(int cpu);
uint64_t sr_now_ns(void);

/* Any record, big enough for a copy of each type we know. */
union sr_record {
	struct schedrec_header hdr;
	struct schedrec_switch sw;
	struct schedrec_wakeup wake;
	struct schedrec_migrate migrate;
	struct schedrec_task task;
	struct schedrec_lost lost;
};

struct sr_event {
	unsigned int cpu;
	uint64_t seq;		/* extended to 64 bits */
	union sr_record r;
};

struct sr_log {
	struct sr_event *ev;
	size_t n, cap;
};

/* The task a record is about (a switch: the task switched out); 0: none */
uint32_t sr_record_tid(const union sr_record *r);

int sr_log_add(struct sr_log *log, unsigned int cpu, uint64_t seq,
	       const struct schedrec_header *hdr);
void sr_log_free(struct sr_log *log);

/*
 * Read every CPU's ring through mmap, from the reader position to head,
 * appending the records to @log in ring order, CPU after CPU.  If @seqs is
 * not NULL it holds @nr_cpus sequence trackers (see ringreader.h), already
 * initialised, that account each record.  For a stable result, disable
 * recording first.
 */
int sr_drain_all(struct sr_log *log, struct ringreader_seq *seqs,
		 int nr_cpus);

/*
 * Fork a child and bounce a byte between it and us @rounds times through a
 * pair of pipes: two wakeups and at least two switches per round.  We run
 * on @our_cpu and the child on @child_cpu while it lasts (-1: anywhere).
 */
int sr_pingpong(int rounds, int our_cpu, int child_cpu);

/* Wait until /proc/@tid/stat shows @state, for at most @timeout_ms. */
int sr_wait_task_state(pid_t tid, char state, int timeout_ms);

/* Wait for @pid; 0 if it exited with status 0, else -ECHILD. */
int sr_wait_child_ok(pid_t pid);

/* This test binary's path into @buf (@size bytes): 0, or -errno. */
int sr_self_exe(char *buf, size_t size);

/* The schedrec to run: $SCHEDREC_BIN, or /bin/schedrec. */
const char *sr_schedrec_bin(void);

/*
 * Run sr_schedrec_bin() with @argv (argv[0] ignored) and SRT_ROLE=@role
 * unless NULL, its stderr into the file @err_path unless NULL, its stdout
 * into @out (@out_size bytes, NUL-terminated) unless NULL.  Returns its
 * exit status (126 if it could not be run or @err_path not be created),
 * 128 + the signal that ended it, or -errno.
 */
int sr_run_schedrec(char *const argv[], const char *role,
		    const char *err_path, char *out, size_t out_size);

/* Write @text to the existing file @path in one write(); 0 or -errno. */
int sr_write_text(const char *path, const char *text);

/* File @path's text, at most @size - 1 bytes, into @buf ("" if none). */
void sr_read_text(const char *path, char *buf, size_t size);

struct procfile_stats;

/*
 * Which of the module's settings (enabled, mode, buf_kb, events) is not
 * what @before holds, "" if none: schedrec restored them.
 */
const char *sr_settings_changed(const struct procfile_stats *before);

/*
 * Start sr_schedrec_bin() with @argv (argv[0] ignored) in the background,
 * its stdout on /dev/null and its stderr into @err_path (NULL: ours), in a
 * process group of its own: its pid, or -errno.
 */
pid_t sr_spawn_schedrec(char *const argv[], const char *err_path);

/* Wait for child @pid at most @timeout_ms: its exit status (128 + signal), or -ETIMEDOUT. */
int sr_wait_child_bounded(pid_t pid, int timeout_ms);

#define SR_SREC_MAX_CPUS	64

/* What a .srec file holds per CPU, read to its end by the reader library. */
struct sr_srec_counts {
	uint64_t records[SR_SREC_MAX_CPUS];	/* LOST and PAD not counted */
	uint64_t lost[SR_SREC_MAX_CPUS];	/* LOST records' counts + gaps */
	uint64_t gaps[SR_SREC_MAX_CPUS];	/* numbers no LOST record counts */
	uint64_t kernel_written[SR_SREC_MAX_CPUS];	/* the trailer's */
	uint64_t kernel_lost[SR_SREC_MAX_CPUS];
	uint64_t all_gaps;	/* of every CPU */
	uint64_t newest_ts;	/* of every record */
	bool trailer;
	int warnings;		/* the reader's, each printed as "# ..." */
};

/*
 * Read the .srec file @path (strict: a damaged section is an error) into
 * @c: 0, or -1 if it cannot be read to its end (said on stderr).
 */
int sr_read_srec(const char *path, struct sr_srec_counts *c);

struct srec_record;
struct srecreader;

/*
 * sr_read_srec() that also hands each record to @each (unless NULL), and
 * leaves the reader in *@keep (unless NULL; NULL if it did not open) for
 * the caller to look at the header and trailer, then close.
 */
int sr_read_srec_each(const char *path, struct sr_srec_counts *c,
		      void (*each)(void *arg, const struct srec_record *rec),
		      void *arg, struct srecreader **keep);

/* A copy of a comm field as a string. */
void sr_comm(char out[SCHEDREC_COMM_LEN + 1], const char *comm);

#endif /* SCHEDREC_TEST_COMMON_H */
