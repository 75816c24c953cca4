// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec record: set the module up, drain every CPU's ring into a .srec
 * trace until a command exits, a duration passes or a signal comes, then
 * put the module back as it was and say what was recorded and lost.
 *
 * The drainer pins itself to one CPU (-C) and takes its memory from that
 * CPU's NUMA node; after setup, the loop (wait, drain, write) allocates
 * nothing, but for the thread snapshot of each new file of a rotation
 * (--rotate).
 *
 * Rotation: before a chunk would take the file past --rotate bytes, the
 * file gets its trailer and the next one (run.0002.srec...) its own header,
 * with the threads alive then; the writer carries every CPU's sequence on
 * from file to file, so nothing is lost or written twice in between.
 *
 * A failed write (a full disk, an I/O error) stops the recording; the file
 * is cut back to its last complete section and gets its trailer (the
 * writer keeps room for it), so it reads cleanly up to there.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "drain.h"
#include "modstate.h"
#include "nodemem.h"
#include "procfile.h"
#include "recopt.h"
#include "srecsys.h"
#include "srecwriter.h"
#include "uapi/schedrec.h"

#define STATUS_INTERVAL_NS	1000000000ull
#define POLL_TIMEOUT_MS		100
#define FENCE_INTERVAL_NS	20000000l

/* Bytes a chunk adds to a file besides its payload: frame, head, padding */
#define CHUNK_OVERHEAD		96
/* SYNC sections that may come between a file's last chunk and its trailer */
#define SYNC_SLACK		(3 * 32)

/* the signal that asks us to stop, 0 until one came */
static int stop_signal;

static void on_signal(int sig)
{
	__atomic_store_n(&stop_signal, sig, __ATOMIC_RELAXED);
}

/* Memory for the drain loop: on the drainer's node when NUMA is there. */
static void *writer_alloc(size_t size, void *arg)
{
	(void)arg;
	return nodemem_alloc(size);
}

static void writer_free(void *p, size_t size, void *arg)
{
	(void)arg;
	nodemem_free(p, size);
}

static const struct srec_allocator node_allocator = {
	.alloc = writer_alloc,
	.free = writer_free,
};

struct recorder {
	struct recopt opt;
	struct modstate saved;	/* what to put back */
	struct modstate set;	/* what we made them */
	bool changed;		/* the module's settings were changed */
	int lock_fd;		/* modstate_lock(): the module is ours */
	unsigned int nr_cpus;	/* possible CPUs: rings */
	struct drainer d;
	struct drain_filter filter;
	struct srecwriter *w;
	int out_fd;
	char path[PATH_MAX];	/* the file being written */
	/* rotation: files begun, bytes of the finished ones, header length */
	unsigned int files;
	uint64_t bytes_done;
	uint64_t header_bytes;
	uint32_t header_flags;
	struct modstate recording;	/* the module's settings for headers */
	struct srecsys_ksyms ksyms;	/* with stack records: kallsyms */
	pid_t child;
	int child_status;
	int go_fd;		/* the child execs once this is written */
	uint64_t start_ns;
	/* when we turned recording off: the end of the recording */
	uint64_t stop_mono_ns;
	uint64_t stop_real_ns;
	uint64_t records;
	uint64_t status_at;
	uint64_t *peak;		/* per CPU, highest fill seen, bytes */
	bool header_written;
	/* the fence thread: every record stamped before @fenced is visible */
	pthread_t fence;
	bool fence_running;
	int fence_stop;
	uint64_t fenced;
	/* when the fence saw recording turned off, not by us; 0: never */
	uint64_t off_under_us;
};

static int rotate(struct recorder *r);

/* Would a chunk of @len bytes, then the trailer, take the file past SIZE? */
static bool file_full(const struct recorder *r, size_t len)
{
	uint64_t bytes = srecwriter_bytes(r->w);
	uint64_t trailer = sizeof(struct srec_frame) +
			   sizeof(struct srec_trailer_head) +
			   (uint64_t)r->nr_cpus * sizeof(struct srec_cpu_total);

	/* every file holds at least one chunk */
	return bytes > r->header_bytes &&
	       bytes + len + CHUNK_OVERHEAD + SYNC_SLACK + trailer >
	       r->opt.rotate_bytes;
}

static int sink(void *arg, unsigned int cpu, const void *buf, size_t len,
		uint64_t filtered)
{
	struct recorder *r = arg;
	int ret;

	if (len && r->opt.rotate_bytes && file_full(r, len)) {
		ret = rotate(r);
		if (ret)
			return ret;
	}
	if (filtered)
		srecwriter_filtered(r->w, cpu, filtered);
	return srecwriter_append(r->w, cpu, buf, len);
}

/* The CPUs this kernel can have: the rings, one per possible CPU. */
static int count_possible_cpus(unsigned int *count)
{
	unsigned int cpu = 0;
	char path[64];

	for (;;) {
		snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%u", cpu);
		if (access(path, F_OK))
			break;
		cpu++;
	}
	*count = cpu;
	return cpu ? 0 : -ENOENT;
}

static int pin(struct recorder *r)
{
	long nr_conf = sysconf(_SC_NPROCESSORS_CONF);
	int cpu = r->opt.cpu;
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	if (cpu >= nr_conf) {
		tool_error("record", 0, "CPU %d does not exist (this machine has CPUs 0-%ld)",
			   cpu, nr_conf - 1);
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		tool_error("record", errno, "cannot pin the drainer to CPU %d%s",
			   cpu, errno == EINVAL ? " (is it offline?)" : "");
		return -errno;
	}
	nodemem_use_cpu(cpu);
	return 0;
}

/* Run the command once told to; until then it waits on a pipe. */
static int start_child(struct recorder *r, const cpu_set_t *affinity)
{
	int go[2];
	char byte;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	r->child = fork();
	if (r->child < 0)
		return -errno;
	if (!r->child) {
		close(go[1]);
		signal(SIGPIPE, SIG_DFL);
		/* the trace owns stdout: the command's output goes to stderr */
		if (!strcmp(r->opt.output, "-"))
			dup2(STDERR_FILENO, STDOUT_FILENO);
		sched_setaffinity(0, sizeof(*affinity), affinity);
		if (read(go[0], &byte, 1) != 1)
			_exit(127);	/* the recorder gave up */
		execvp(r->opt.argv[0], r->opt.argv);
		fprintf(stderr, "schedrec record: cannot run %s: %s\n",
			r->opt.argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	r->go_fd = go[1];
	return 0;
}

static void release_child(struct recorder *r)
{
	if (r->go_fd >= 0) {
		if (write(r->go_fd, "g", 1) != 1)
			tool_error("record", errno, "cannot start the command");
		close(r->go_fd);
		r->go_fd = -1;
	}
}

static bool child_done(struct recorder *r)
{
	if (r->child <= 0)
		return false;
	if (waitpid(r->child, &r->child_status, WNOHANG) == r->child) {
		r->child = -r->child;
		return true;
	}
	return false;
}

static int open_rings(struct recorder *r)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		ret = ringreader_open(&r->d.cpu[cpu].rr, cpu);
		if (ret == -EBUSY) {
			char path[64], who[64];

			snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%u",
				 cpu);
			tool_error("record", 0, "cannot map the ring of CPU %u: %s reads it (one reader a ring: stop that one first)",
				   cpu, modstate_who(modstate_opener(path), who,
						     sizeof(who)));
			return ret;
		}
		if (ret) {
			tool_error("record", ret, "cannot map the ring of CPU %u",
				   cpu);
			return ret;
		}
		r->d.cpu[cpu].open = true;
	}
	return 0;
}

static void close_rings(struct recorder *r)
{
	unsigned int cpu;

	if (!r->d.cpu)
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (r->d.cpu[cpu].open)
			ringreader_close(&r->d.cpu[cpu].rr);
		r->d.cpu[cpu].open = false;
	}
}

/* Note every ring's fill before draining; true if one is busy. */
static bool note_fill(struct recorder *r)
{
	bool busy = false;
	unsigned int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		const struct ringreader *rr = &r->d.cpu[cpu].rr;
		uint64_t fill;

		if (!r->d.cpu[cpu].open)
			continue;
		fill = __atomic_load_n(&rr->ctrl->head, __ATOMIC_RELAXED) -
		       rr->ctrl->tail;
		if (fill > r->peak[cpu])
			r->peak[cpu] = fill;
		if (fill >= rr->data_size / 8)
			busy = true;
	}
	return busy;
}

static uint64_t lost_so_far(const struct recorder *r)
{
	uint64_t lost = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		lost += r->d.cpu[cpu].lost;
	return lost;
}

static void print_status(struct recorder *r, uint64_t now, bool final)
{
	static uint64_t last_records, last_ns;
	unsigned int cpu, peak_cpu = 0;
	double peak_pct = 0, secs, rate;

	if (r->opt.quiet || !isatty(STDERR_FILENO))
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		double p = 100.0 * r->peak[cpu] /
			   (r->d.cpu[cpu].rr.data_size ?: 1);

		if (p > peak_pct) {
			peak_pct = p;
			peak_cpu = cpu;
		}
	}
	secs = (now - r->start_ns) / 1e9;
	rate = now > last_ns ? (r->records - last_records) * 1e9 /
	       (now - (last_ns ?: r->start_ns)) : 0;
	fprintf(stderr, "\r%7.1f s  %9.0f events/s  %8.1f MB written  lost %llu  peak fill %.0f%% (CPU %u)\033[K%s",
		secs, rate, (r->bytes_done + srecwriter_bytes(r->w)) / 1e6,
		(unsigned long long)lost_so_far(r), peak_pct, peak_cpu,
		final ? "\n" : "");
	last_records = r->records;
	last_ns = now;
}

/*
 * Readers merge the CPUs of a trace by time up to the horizon of its SYNC
 * sections, so a horizon must never pass a record still being written on
 * some CPU.  /proc/schedrec/sync waits until every probe running when it
 * was called has finished: read the clock, sync, and every record stamped
 * before that reading is in the rings.  The drain loop passes the latest
 * such time to the writer; a grace period takes milliseconds, so this runs
 * in a thread of its own.  It also watches that recording is still on:
 * turned off by someone else, the drain loop ends and says so.
 */
static void *fence_thread(void *arg)
{
	struct timespec nap = { .tv_nsec = FENCE_INTERVAL_NS };
	struct recorder *r = arg;
	char on[4];
	uint64_t t;

	while (!__atomic_load_n(&r->fence_stop, __ATOMIC_RELAXED)) {
		t = clock_ns(CLOCK_MONOTONIC);
		if (procfile_write("sync", "1"))
			break;
		__atomic_store_n(&r->fenced, t, __ATOMIC_RELEASE);
		if (procfile_read("enable", on, sizeof(on)) > 0 && *on == '0') {
			__atomic_store_n(&r->off_under_us, t, __ATOMIC_RELAXED);
			break;
		}
		nanosleep(&nap, NULL);
	}
	return NULL;
}

static int start_fence(struct recorder *r)
{
	int ret = pthread_create(&r->fence, NULL, fence_thread, r);

	if (ret) {
		tool_error("record", ret, "cannot start the fence thread");
		return -ret;
	}
	r->fence_running = true;
	return 0;
}

static void stop_fence(struct recorder *r)
{
	if (!r->fence_running)
		return;
	__atomic_store_n(&r->fence_stop, 1, __ATOMIC_RELAXED);
	pthread_join(r->fence, NULL);
	r->fence_running = false;
}

/* Block until a ring has data, the timeout passes, or a signal comes. */
static void wait_for_data(struct recorder *r, int timeout_ms)
{
	struct pollfd fds[r->nr_cpus];
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->d.cpu[cpu].open)
			continue;
		fds[n].fd = r->d.cpu[cpu].rr.fd;
		fds[n].events = POLLIN;
		n++;
	}
	poll(fds, n, timeout_ms);
}

/* How long the loop may wait, in ms, before something must be checked. */
static int wait_budget(const struct recorder *r, uint64_t now)
{
	uint64_t left;

	if (!r->opt.duration_ns)
		return POLL_TIMEOUT_MS;
	if (now >= r->start_ns + r->opt.duration_ns)
		return 0;
	left = (r->start_ns + r->opt.duration_ns - now) / 1000000 + 1;
	return left < POLL_TIMEOUT_MS ? left : POLL_TIMEOUT_MS;
}

static void back_off(struct recorder *r, bool busy, unsigned int *idle,
		     int budget)
{
	struct timespec nap;
	unsigned int shift;

	if (busy) {
		*idle = 0;
		return;
	}
	switch (r->opt.wait) {
	case RECOPT_WAIT_POLL:
		wait_for_data(r, budget);
		break;
	case RECOPT_WAIT_SPIN:
		break;
	case RECOPT_WAIT_ADAPTIVE:
		/* spin a while, then naps doubling from 50 us to 6.4 ms */
		if (++*idle < 64)
			break;
		shift = *idle - 64 < 7 ? *idle - 64 : 7;
		nap.tv_sec = 0;
		nap.tv_nsec = 50000l << shift;
		nanosleep(&nap, NULL);
		break;
	}
}

static int drain_loop(struct recorder *r)
{
	unsigned int idle = 0;
	int64_t ret;
	uint64_t now;
	bool busy;

	for (;;) {
		now = clock_ns(CLOCK_MONOTONIC);
		if (__atomic_load_n(&stop_signal, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&r->off_under_us, __ATOMIC_RELAXED) ||
		    child_done(r) ||
		    (r->opt.duration_ns && now >= r->start_ns + r->opt.duration_ns))
			return 0;
		busy = note_fill(r);
		/* acquire: pairs with the fence thread, before the heads */
		ret = srecwriter_round(r->w, __atomic_load_n(&r->fenced,
							     __ATOMIC_ACQUIRE));
		if (!ret)
			ret = drain_round(&r->d, now);
		if (ret < 0)
			return ret;
		r->records += ret;
		if (now >= r->status_at) {
			print_status(r, now, false);
			r->status_at = now + STATUS_INTERVAL_NS;
		}
		back_off(r, busy, &idle, wait_budget(r, now));
	}
}

/* After recording stopped: everything left, then the filtered counts. */
static int drain_rest(struct recorder *r)
{
	int64_t ret;

	note_fill(r);
	ret = srecwriter_round(r->w, clock_ns(CLOCK_MONOTONIC));
	if (!ret)
		ret = drain_round(&r->d, UINT64_MAX);
	if (ret < 0)
		return ret;
	r->records += ret;
	return drain_flush(&r->d);
}

static int write_header(struct recorder *r, const struct modstate *st,
			uint32_t flags)
{
	struct srecwriter_header hdr = {
		.drainer_cpu = r->opt.cpu < 0 ? UINT32_MAX : (uint32_t)r->opt.cpu,
		.drainer_pid = getpid(),
		.drainer_tid = syscall(SYS_gettid),
		.event_mask = st->events,
		.mode = st->overwrite ? SCHEDREC_MODE_OVERWRITE :
					SCHEDREC_MODE_STREAM,
		.buf_kb = st->buf_kb,
		.flags = flags,
		.cmdline = r->opt.cmdline,
		.filter = r->opt.filter_text,
	};
	struct srecsys sys;
	int ret;

	ret = srecsys_read(&sys, NULL);
	if (ret) {
		tool_error("record", ret, "cannot read the thread list in /proc");
		return ret;
	}
	srecsys_fill_header(&sys, &hdr);
	srecsys_fill_ksyms(&r->ksyms, &hdr);
	if (r->files <= 1)
		r->start_ns = sys.start_mono_ns;
	ret = srecwriter_write_header(r->w, &hdr);
	r->header_written = !ret;
	r->header_bytes = srecwriter_bytes(r->w);
	srecsys_free(&sys);
	return ret;
}

/*
 * When the recording ended, for the last trailer: when we turned it off,
 * or if it was off already (--dump of a stopped flight recorder), the
 * newest record's time.  Not when the file is ended, after the last
 * drain: nothing is recorded then, and a report would count that time
 * to whatever ran last.
 */
static void end_time(const struct recorder *r, struct srecwriter_trailer *tr)
{
	uint64_t newest = srecwriter_newest_ts(r->w), mono, real;

	if (r->stop_mono_ns) {
		tr->end_mono_ns = r->stop_mono_ns;
		tr->end_real_ns = r->stop_real_ns;
	} else if (newest) {
		srecsys_clocks(&mono, &real);
		tr->end_mono_ns = newest;
		tr->end_real_ns = real - (mono - newest);
	}
}

/* Turn recording off, noting when. */
static int stop_recording(struct recorder *r)
{
	srecsys_clocks(&r->stop_mono_ns, &r->stop_real_ns);
	return procfile_write("enable", "0");
}

/*
 * End the file with its trailer; @salvage: after a failure, as cleanly as
 * the writer can.  The kernel's counters go into the last file's trailer
 * only: they count the whole recording, every file of a rotation.
 */
static int end_file(struct recorder *r, bool last, bool salvage)
{
	struct srecwriter_kernel_count *counts = NULL;
	struct srecwriter_trailer tr = { 0 };
	struct procfile_stats st;
	unsigned int cpu;
	int ret;

	if (last)
		counts = calloc(r->nr_cpus, sizeof(*counts));
	if (counts && !procfile_stats_read(&st)) {
		for (cpu = 0; cpu < r->nr_cpus && cpu < st.nr_cpus; cpu++) {
			counts[cpu].written = st.cpu[cpu].written;
			counts[cpu].lost = st.cpu[cpu].lost;
		}
		tr.kernel = counts;
		procfile_stats_free(&st);
	}
	if (last)
		end_time(r, &tr);
	if (salvage)
		ret = srecwriter_salvage(r->w, &tr);
	else
		ret = srecwriter_write_trailer(r->w, &tr);
	free(counts);
	return ret;
}

static const char *out_name(const struct recorder *r)
{
	return r->out_fd == STDOUT_FILENO ? "stdout" : r->path;
}

/* File @n of a rotation: run.srec gives run.0001.srec, run.0002.srec... */
static void rotated_name(const struct recorder *r, unsigned int n,
			 char *name, size_t size)
{
	const char *out = r->opt.output;
	size_t len = strlen(out);
	const char *ext = "";

	if (len > 5 && !strcmp(out + len - 5, ".srec")) {
		ext = ".srec";
		len -= 5;
	}
	snprintf(name, size, "%.*s.%04u%s", (int)len, out, n, ext);
}

/*
 * The current file is full: its trailer, then the next file and its
 * header; with --keep N, the file N before the new one goes.
 */
static int rotate(struct recorder *r)
{
	char next[PATH_MAX];
	int fd, ret;

	ret = end_file(r, false, false);
	if (ret)
		return ret;
	rotated_name(r, r->files + 1, next, sizeof(next));
	fd = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		tool_error("record", ret, "cannot create %s", next);
		return ret;
	}
	if (close(r->out_fd)) {
		ret = -errno;
		tool_error("record", ret, "cannot close %s", r->path);
		close(fd);
		unlink(next);
		return ret;
	}
	r->bytes_done += srecwriter_bytes(r->w);
	r->out_fd = fd;
	r->files++;
	snprintf(r->path, sizeof(r->path), "%s", next);
	r->header_written = false;
	ret = srecwriter_next_file(r->w, fd);
	if (!ret)
		ret = write_header(r, &r->recording, r->header_flags);
	if (ret)
		return ret;
	if (r->opt.keep && r->files > r->opt.keep) {
		rotated_name(r, r->files - r->opt.keep, next, sizeof(next));
		if (unlink(next) && errno != ENOENT)
			tool_error("record", errno, "cannot delete %s (--keep %u)",
				   next, r->opt.keep);
	}
	return 0;
}

static int setup_filter(struct recorder *r)
{
	struct drain_filter *f = &r->filter;
	struct srec_thread *threads;
	uint64_t pid_max = 4194304;
	size_t n, i;
	int ret;

	if (!r->opt.pid && !r->opt.tid)
		return 0;
	procfile_read_u64("/proc/sys/kernel/pid_max", &pid_max);
	f->nr_tids = pid_max + 1;
	f->tids = nodemem_alloc((f->nr_tids + 63) / 64 * 8);
	if (!f->tids)
		return -ENOMEM;
	f->tgid = r->opt.pid;
	f->tid = r->opt.tid;
	if (f->tid)
		drain_filter_add(f, f->tid);
	if (f->tgid) {
		drain_filter_add(f, f->tgid);
		ret = srecsys_threads(NULL, &threads, &n);
		if (ret)
			return ret;
		for (i = 0; i < n; i++)
			if (threads[i].tgid == f->tgid)
				drain_filter_add(f, threads[i].tid);
		free(threads);
	}
	r->d.filter = f;
	return 0;
}

static int open_output(struct recorder *r)
{
	const char *path = r->opt.output;

	r->files = 1;
	if (!strcmp(path, "-")) {
		if (isatty(STDOUT_FILENO)) {
			tool_error("record", 0, "will not write a binary trace to a terminal; redirect stdout or use -o FILE");
			return -EINVAL;
		}
		r->out_fd = STDOUT_FILENO;
		return 0;
	}
	if (r->opt.rotate_bytes)
		rotated_name(r, 1, r->path, sizeof(r->path));
	else
		snprintf(r->path, sizeof(r->path), "%s", path);
	r->out_fd = open(r->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			 0644);
	if (r->out_fd < 0) {
		tool_error("record", errno, "cannot create %s", r->path);
		return -errno;
	}
	return 0;
}

/*
 * Sequence numbers of @t neither delivered, nor counted by a LOST record,
 * nor left out by the filter: lost without a trace.
 */
static uint64_t unexplained(const struct srec_cpu_total *t)
{
	return t->gaps > t->filtered ? t->gaps - t->filtered : 0;
}

/* The writer's totals over every CPU and file; gaps: the unexplained. */
static struct srec_cpu_total sum_totals(const struct recorder *r)
{
	struct srec_cpu_total sum = { 0 };
	const struct srec_cpu_total *t;
	unsigned int cpu;

	for (cpu = 0; r->w && cpu < r->nr_cpus; cpu++) {
		t = srecwriter_recording_totals(r->w, cpu);
		if (!t)
			continue;
		sum.records += t->records;
		sum.lost += t->lost;
		sum.gaps += unexplained(t);
		sum.filtered += t->filtered;
	}
	return sum;
}

/* "3 files, run.0001.srec to run.0003.srec", and what --keep left. */
static void print_rotation(const struct recorder *r)
{
	unsigned int first = 1;
	char name[PATH_MAX];

	rotated_name(r, 1, name, sizeof(name));
	fprintf(stderr, "%u files, %s to %s", r->files, name, r->path);
	if (r->opt.keep && r->files > r->opt.keep) {
		first = r->files - r->opt.keep + 1;
		rotated_name(r, first, name, sizeof(name));
		fprintf(stderr, " (kept: %s to %s)", name, r->path);
	}
}

static void print_summary(struct recorder *r, uint64_t end_ns)
{
	struct srec_cpu_total sum = sum_totals(r);
	uint64_t lost = sum.lost, missing = sum.gaps;
	uint64_t kept = sum.records, filtered = sum.filtered;
	double secs = (end_ns - r->start_ns) / 1e9;
	const struct srec_cpu_total *t;
	unsigned int cpu;

	if (r->opt.quiet && !lost && !missing)
		return;
	fprintf(stderr, "schedrec record: %llu events from %u CPU%s in %.2f s, %.1f MB to ",
		(unsigned long long)kept, r->nr_cpus,
		r->nr_cpus == 1 ? "" : "s", secs,
		(r->bytes_done + srecwriter_bytes(r->w)) / 1e6);
	if (r->files > 1)
		print_rotation(r);
	else
		fprintf(stderr, "%s", out_name(r));
	if (filtered)
		fprintf(stderr, " (%llu left out by the filter)",
			(unsigned long long)filtered);
	fprintf(stderr, "\n");
	if (!lost && !missing) {
		fprintf(stderr, "schedrec record: no event lost\n");
		return;
	}
	fprintf(stderr, "schedrec record: LOST %llu events%s; per CPU:\n",
		(unsigned long long)(lost + missing),
		" (raise buf_kb with -m, record fewer events with -e, or drain on an idle CPU)");
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		const struct drain_cpu *c = &r->d.cpu[cpu];

		t = srecwriter_recording_totals(r->w, cpu);
		if (!t || (!t->lost && !unexplained(t)))
			continue;
		fprintf(stderr, "  CPU %u: %llu lost", cpu,
			(unsigned long long)(t->lost + unexplained(t)));
		if (c->lost)
			fprintf(stderr, " between +%.3f s and +%.3f s",
				((int64_t)(c->first_lost_ts - r->start_ns)) / 1e9,
				((int64_t)(c->last_lost_ts - r->start_ns)) / 1e9);
		fprintf(stderr, "\n");
	}
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int check_module(void)
{
	return modstate_require("record");
}

/* Put back what we changed, and only that: see modstate_undo(). */
static int restore_module(struct recorder *r)
{
	struct modstate cur, back;
	const char *what = "";
	int ret;

	if (!r->changed)
		return 0;
	ret = modstate_read(&cur);
	if (!ret) {
		modstate_undo(&back, &r->saved, &r->set, &cur);
		ret = modstate_apply(&back, &cur, &what);
	}
	if (ret)
		tool_error("record", ret, "could not restore /proc/schedrec/%s", what);
	return ret;
}

/* The drainer, the writer and the filter; all the loop's memory. */
static int setup_drainer(struct recorder *r)
{
	uint32_t chunk = SRECWRITER_CHUNK_DEFAULT;
	int ret;

	ret = pin(r);
	if (ret)
		return ret;
	/* small files of a rotation hold several chunks each */
	while (r->opt.rotate_bytes && chunk > SREC_CHUNK_MIN &&
	       (uint64_t)chunk * 4 > r->opt.rotate_bytes)
		chunk /= 2;
	ret = srecwriter_open(&r->w, r->out_fd, &(struct srecwriter_options){
		.nr_cpus = r->nr_cpus, .zlib_level = r->opt.zlib_level,
		.chunk_max = chunk, .allocator = &node_allocator,
		.reserve = true, .direct = r->opt.direct });
	if (!ret && r->opt.direct && !srecwriter_direct(r->w))
		fprintf(stderr, "schedrec record: warning: --direct: %s cannot be written with O_DIRECT (not a regular file, or its file system refuses it); writing through the page cache\n",
			r->path);
	if (!ret)
		ret = drain_init(&r->d, r->nr_cpus, chunk, nodemem_alloc);
	if (!ret)
		ret = setup_filter(r);
	r->peak = nodemem_alloc(r->nr_cpus * sizeof(*r->peak));
	if (!ret && !r->peak)
		ret = -ENOMEM;
	if (ret)
		tool_error("record", ret, "cannot set the drainer up");
	r->d.sink = sink;
	r->d.sink_arg = r;
	return ret;
}

/*
 * Stack records hold raw kernel addresses: the trace carries a snapshot of
 * /proc/kallsyms to name them.  Read and compressed once, before recording
 * starts (it takes a while), and reused by every file of a rotation.
 */
static void load_ksyms(struct recorder *r, uint32_t events)
{
	int ret;

	if (!(events & (1u << SCHEDREC_EV_STACK)))
		return;
	ret = srecsys_kallsyms(&r->ksyms, NULL);
	if (ret)
		tool_error("record", ret, "cannot read /proc/kallsyms: the stacks are recorded, but without the names of their addresses");
	else if (r->ksyms.flags & SREC_KSYMS_F_HIDDEN)
		tool_error("record", 0, "/proc/kallsyms shows every address as 0 (kernel.kptr_restrict=2?): the stacks' addresses cannot be named; sysctl kernel.kptr_restrict=1 shows them to root");
}

/*
 * --dump: freeze the flight recorder (recording off), save every ring from
 * its oldest record, and let restore_module() turn recording back on.
 */
static int dump(struct recorder *r)
{
	int ret;

	if (!r->saved.overwrite) {
		tool_error("record", 0, "--dump reads a flight recorder, but the module is in stream mode; set it up first: echo overwrite > %s/mode; echo 1 > %s/enable",
			   SCHEDREC_PROC_DIR, SCHEDREC_PROC_DIR);
		return -EINVAL;
	}
	if (r->saved.enabled) {
		r->changed = true;
		r->set = r->saved;
		r->set.enabled = false;
		ret = stop_recording(r);
		if (ret) {
			tool_error("record", ret, "cannot stop recording");
			return ret;
		}
	}
	load_ksyms(r, r->saved.events);
	ret = setup_drainer(r);
	if (!ret)
		ret = open_rings(r);
	if (!ret)
		ret = write_header(r, &r->saved, 0);
	if (!ret)
		ret = drain_rest(r);
	if (!ret)
		ret = end_file(r, true, false);
	return ret;
}

/*
 * A reader of some CPU's ring, other than us: its pid (0 if it cannot be
 * found) and that CPU in *@cpu; -1 if the rings are free.
 */
static pid_t ring_reader(const struct recorder *r, unsigned int *cpu)
{
	char path[64];
	int fd;

	for (*cpu = 0; *cpu < r->nr_cpus; ++*cpu) {
		snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%u", *cpu);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		else if (errno == EBUSY)
			return modstate_opener(path);
	}
	return -1;
}

/*
 * Recording found on: a flight recorder, someone's reader, or a recording
 * whose recorder is gone (killed: it holds our lock no more).  Only the
 * last is ours to stop; the file it wrote reads up to its last chunk.
 */
static int take_over(struct recorder *r)
{
	unsigned int cpu;
	char who[64];
	pid_t reader;
	int ret;

	if (r->saved.overwrite) {
		tool_error("record", 0, "a flight recorder is on (overwrite mode): save it with schedrec record --dump, or stop it: echo 0 > %s/enable",
			   SCHEDREC_PROC_DIR);
		return -EBUSY;
	}
	reader = ring_reader(r, &cpu);
	if (reader >= 0) {
		tool_error("record", 0, "recording is on and %s reads the ring of CPU %u: stop it first, or echo 0 > %s/enable",
			   modstate_who(reader, who, sizeof(who)), cpu,
			   SCHEDREC_PROC_DIR);
		return -EBUSY;
	}
	fprintf(stderr, "schedrec record: recording was on with no reader, left by a recorder that is gone (killed?): stopping it\n");
	ret = procfile_write("enable", "0");
	if (ret) {
		tool_error("record", ret, "cannot stop it");
		return ret;
	}
	/* put back off, not on: nobody was recording any more */
	r->saved.enabled = false;
	return 0;
}

/* Recording proper: the module is ours until restore_module(). */
static int record(struct recorder *r)
{
	struct modstate want, cur = { 0 };
	cpu_set_t affinity;
	const char *what = "";
	int ret;

	if (r->saved.enabled) {
		ret = take_over(r);
		if (ret)
			return ret;
	}
	want = r->saved;
	want.enabled = false;
	want.overwrite = false;
	if (r->opt.buf_kb)
		want.buf_kb = r->opt.buf_kb;
	want.events = r->opt.events;
	r->changed = true;
	r->set = want;
	ret = modstate_apply(&want, &r->saved, &what);
	if (ret) {
		tool_error("record", ret, "cannot set /proc/schedrec/%s%s", what,
			   ret == -EINVAL && !strcmp(what, "buf_kb") ?
			   " (-m takes a power of two from 4 to 262144)" : "");
		return ret;
	}
	load_ksyms(r, want.events);
	/* the command runs where we could before we pinned ourselves */
	sched_getaffinity(0, sizeof(affinity), &affinity);
	ret = setup_drainer(r);
	if (!ret)
		ret = open_rings(r);
	if (ret)
		return ret;
	if (r->opt.argv) {
		ret = start_child(r, &affinity);
		if (ret) {
			tool_error("record", ret, "cannot start %s", r->opt.argv[0]);
			return ret;
		}
	}
	r->set.enabled = true;
	ret = procfile_write("enable", "1");
	if (ret) {
		tool_error("record", ret, "cannot start recording");
		return ret;
	}
	ret = modstate_read(&cur);
	r->recording = cur;
	r->header_flags = SREC_FILE_F_FROM_START |
			  (r->d.filter ? SREC_FILE_F_FILTERED : 0);
	if (!ret)
		ret = write_header(r, &cur, r->header_flags);
	if (ret)
		return ret;
	ret = start_fence(r);
	if (ret)
		return ret;
	release_child(r);
	ret = drain_loop(r);
	if (ret && !*srecwriter_error(r->w))
		tool_error("record", ret, "recording stopped");
	stop_fence(r);
	stop_recording(r);
	r->set.enabled = false;
	if (r->off_under_us)
		tool_error("record", 0, "recording was turned off by another process (echo 0 > %s/enable?) %.3f s after it started; the file holds everything until then",
			   SCHEDREC_PROC_DIR,
			   (r->off_under_us - r->start_ns) / 1e9);
	if (!ret)
		ret = drain_rest(r);
	/*
	 * A ring full when recording stopped had no room for its last LOST
	 * record: now that it is empty, stopping again writes it.
	 */
	if (!ret && !procfile_write("enable", "0"))
		ret = drain_rest(r);
	print_status(r, clock_ns(CLOCK_MONOTONIC), true);
	if (!ret)
		ret = end_file(r, true, false);
	return ret;
}

/*
 * Recording failed after the file was begun (a full disk, an I/O error, a
 * ring that broke the protocol): say so, and end the file cleanly, cut
 * back to its last complete section and with its trailer, so that it
 * reads without damage up to there.
 */
static void end_after_failure(struct recorder *r, int err)
{
	const char *name = out_name(r);
	bool full = err == -ENOSPC || err == -EDQUOT || err == -EFBIG;
	int ret;

	if (*srecwriter_error(r->w))
		tool_error("record", 0, "%s: %s", name, srecwriter_error(r->w));
	if (!r->header_written) {
		if (r->files > 1)
			fprintf(stderr, "schedrec record: the files before %s are complete\n",
				name);
		return;
	}
	ret = end_file(r, true, true);
	if (ret) {
		tool_error("record", ret, "%s could not be ended cleanly (it reads up to its last complete section)",
			   name);
		return;
	}
	fprintf(stderr, "schedrec record: %s ends cleanly, with its trailer, after the last chunk written%s\n",
		name, full ? "; free some space, or bound what a recording takes with --rotate SIZE --keep N" :
		"");
}

int cmd_record(int argc, char **argv)
{
	struct recorder r = { .out_fd = -1, .go_fd = -1, .lock_fd = -1 };
	bool lost = false;
	char who[64];
	pid_t holder;
	int ret, status;

	ret = recopt_parse(&r.opt, argc, argv);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_module() || count_possible_cpus(&r.nr_cpus))
		return EXIT_FAIL;
	r.lock_fd = modstate_lock(&holder);
	if (r.lock_fd == -EBUSY) {
		tool_error("record", 0, "another schedrec record has the module: %s; wait for it to end, or stop it",
			   modstate_who(holder, who, sizeof(who)));
		return EXIT_FAIL;
	}
	if (r.lock_fd < 0) {
		tool_error("record", -r.lock_fd, "cannot lock %s/enable",
			   SCHEDREC_PROC_DIR);
		return EXIT_FAIL;
	}
	if (modstate_read(&r.saved) || open_output(&r)) {
		close(r.lock_fd);
		return EXIT_FAIL;
	}
	install_signals();
	ret = r.opt.dump ? dump(&r) : record(&r);
	if (ret && r.w)
		end_after_failure(&r, ret);
	if (r.go_fd >= 0)
		close(r.go_fd);	/* a waiting command exits */
	close_rings(&r);
	if (restore_module(&r) && !ret)
		ret = -EIO;
	close(r.lock_fd);
	/* said as it happened; the file is whole up to then */
	if (!ret && r.off_under_us)
		ret = -ECANCELED;
	if (r.child > 0) {
		kill(r.child, SIGTERM);
		waitpid(r.child, &r.child_status, 0);
	}
	if (r.w) {
		struct srec_cpu_total sum = sum_totals(&r);

		lost = sum.lost || sum.gaps;
		if (!ret)
			print_summary(&r, clock_ns(CLOCK_MONOTONIC));
		srecwriter_close(r.w);
		r.w = NULL;
	}
	srecsys_kallsyms_free(&r.ksyms);
	if (r.out_fd > STDOUT_FILENO && close(r.out_fd) && !ret) {
		tool_error("record", errno, "cannot close %s", r.path);
		ret = -errno;
	}
	/* a file that never got a header holds nothing: do not leave it */
	if (ret && r.out_fd > STDOUT_FILENO && !r.header_written)
		unlink(r.path);
	if (ret)
		return EXIT_FAIL;
	if (r.opt.argv && r.child) {
		status = r.child_status;
		if (WIFEXITED(status) && WEXITSTATUS(status))
			fprintf(stderr, "schedrec record: %s exited with status %d\n",
				r.opt.argv[0], WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			fprintf(stderr, "schedrec record: %s killed by signal %d\n",
				r.opt.argv[0], WTERMSIG(status));
	}
	return lost ? EXIT_LOST : EXIT_OK;
}
