// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the in-guest tests; see common.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "procfile.h"
#include "srecreader.h"

/* how long an unload waits for the last user of the module to go */
#define UNLOAD_WAIT_MS	5000

int sr_load_ko(const char *path, const char *params)
{
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

int sr_module_load(const char *params)
{
	const char *path = getenv("SCHEDREC_KO");

	return sr_load_ko(path ? path : SR_MODULE_PATH, params);
}

int sr_module_unload(void)
{
	if (syscall(SYS_delete_module, SR_MODULE_NAME, O_NONBLOCK))
		return -errno;
	return 0;
}

int sr_module_unload_wait(void)
{
	int waited, ret = 0;

	for (waited = 0; waited < UNLOAD_WAIT_MS; waited++) {
		ret = sr_module_unload();
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(1000);
	}
	return ret;
}

bool sr_module_loaded(void)
{
	return !access(SCHEDREC_PROC_DIR, F_OK);
}

int sr_module_ensure(void)
{
	int ret;

	if (sr_module_loaded())
		return 0;
	ret = sr_module_load(NULL);
	return ret == -EEXIST ? 0 : ret;
}

int sr_module_reload(const char *params)
{
	int ret;

	if (sr_module_loaded()) {
		ret = sr_module_unload_wait();
		if (ret)
			return ret;
	}
	return sr_module_load(params);
}

int sr_enable(bool on)
{
	return procfile_write("enable", on ? "1" : "0");
}

int sr_reset(void)
{
	int ret;

	ret = sr_enable(false);
	if (!ret)
		ret = procfile_write("mode", "stream");
	if (!ret)
		ret = procfile_write("events", "all");
	return ret;
}

int sr_set_buf_kb(unsigned int kb)
{
	char value[32];

	snprintf(value, sizeof(value), "%u", kb);
	return procfile_write("buf_kb", value);
}

int sr_nr_cpus(void)
{
	struct dirent *entry;
	int count = 0;
	DIR *dir;

	dir = opendir(SCHEDREC_PROC_DIR "/cpu");
	if (!dir)
		return -errno;
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			count++;
	closedir(dir);
	return count;
}

int sr_nr_online_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

int sr_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

uint64_t sr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

uint32_t sr_record_tid(const union sr_record *r)
{
	switch (r->hdr.type) {
	case SCHEDREC_EV_SWITCH:
		return r->sw.prev_tid;
	case SCHEDREC_EV_WAKING:
	case SCHEDREC_EV_WAKEUP:
	case SCHEDREC_EV_WAKEUP_NEW:
		return r->wake.tid;
	case SCHEDREC_EV_MIGRATE:
		return r->migrate.tid;
	case SCHEDREC_EV_FORK:
	case SCHEDREC_EV_EXEC:
	case SCHEDREC_EV_EXIT:
	case SCHEDREC_EV_RENAME:
		return r->task.tid;
	case SCHEDREC_EV_STACK:
		/* sr_log_add() keeps its head, tid included */
		return ((const struct schedrec_stack *)r)->tid;
	}
	return 0;
}

int sr_log_add(struct sr_log *log, unsigned int cpu, uint64_t seq,
	       const struct schedrec_header *hdr)
{
	struct sr_event *ev;

	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 4096;

		ev = realloc(log->ev, cap * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		log->ev = ev;
		log->cap = cap;
	}
	ev = &log->ev[log->n++];
	memset(ev, 0, sizeof(*ev));
	ev->cpu = cpu;
	ev->seq = seq;
	memcpy(&ev->r, hdr, hdr->size < sizeof(ev->r) ? hdr->size :
						       sizeof(ev->r));
	return 0;
}

void sr_log_free(struct sr_log *log)
{
	free(log->ev);
	memset(log, 0, sizeof(*log));
}

static int drain_cpu(struct sr_log *log, struct ringreader_seq *seq,
		     unsigned int cpu)
{
	const struct schedrec_header *rec;
	struct ringreader rr;
	uint64_t seq64 = 0;
	int64_t avail;
	int ret;

	ret = ringreader_open(&rr, cpu);
	if (ret)
		return ret;
	avail = ringreader_begin(&rr);
	ret = avail < 0 ? avail : 0;
	while (!ret && (ret = ringreader_next(&rr, &rec)) > 0) {
		if (seq)
			ringreader_seq_account(seq, rec, &seq64);
		else
			seq64 = rec->seq;
		ret = sr_log_add(log, cpu, seq64, rec);
	}
	ringreader_consume(&rr);
	ringreader_close(&rr);
	return ret;
}

int sr_drain_all(struct sr_log *log, struct ringreader_seq *seqs,
		 int nr_cpus)
{
	int cpu, ret;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		ret = drain_cpu(log, seqs ? &seqs[cpu] : NULL, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static int pingpong_parent(int rounds, int to_child, int from_child)
{
	char byte = 'p';
	int i;

	for (i = 0; i < rounds; i++) {
		if (write(to_child, &byte, 1) != 1 ||
		    read(from_child, &byte, 1) != 1)
			return -EIO;
	}
	return 0;
}

static void pingpong_child(int rounds, int cpu, int from_parent,
			   int to_parent)
{
	char byte;
	int i;

	if (cpu >= 0 && sr_pin_self(cpu))
		_exit(2);
	for (i = 0; i < rounds; i++) {
		if (read(from_parent, &byte, 1) != 1 ||
		    write(to_parent, &byte, 1) != 1)
			_exit(3);
	}
	_exit(0);
}

/* The caller's CPU affinity is restored when the workload is done. */
int sr_pingpong(int rounds, int our_cpu, int child_cpu)
{
	int to_child[2], to_parent[2], ret;
	cpu_set_t saved;
	pid_t pid;

	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	if (pipe(to_child))
		return -errno;
	if (pipe(to_parent)) {
		ret = -errno;
		close(to_child[0]);
		close(to_child[1]);
		return ret;
	}
	pid = fork();
	if (pid == 0)
		pingpong_child(rounds, child_cpu, to_child[0], to_parent[1]);
	ret = pid < 0 ? -errno : 0;
	if (!ret && our_cpu >= 0)
		ret = sr_pin_self(our_cpu);
	if (!ret)
		ret = pingpong_parent(rounds, to_child[1], to_parent[0]);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	if (pid > 0) {
		if (ret)
			kill(pid, SIGKILL);
		if (sr_wait_child_ok(pid) && !ret)
			ret = -ECHILD;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	return ret;
}

/* The state letter in /proc/@tid/stat, or 0. */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *paren;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	/* the name may hold anything, even ") ": the last one ends it */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

int sr_wait_task_state(pid_t tid, char state, int timeout_ms)
{
	int waited;

	for (waited = 0; waited < timeout_ms; waited++) {
		if (task_state(tid) == state)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

int sr_wait_child_ok(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

void sr_comm(char out[SCHEDREC_COMM_LEN + 1], const char *comm)
{
	memcpy(out, comm, SCHEDREC_COMM_LEN);
	out[SCHEDREC_COMM_LEN] = '\0';
}

int sr_self_exe(char *buf, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", buf, size - 1);

	if (len <= 0)
		return len ? -errno : -ENOENT;
	buf[len] = '\0';
	return 0;
}

const char *sr_schedrec_bin(void)
{
	const char *bin = getenv("SCHEDREC_BIN");

	return bin ? bin : "/bin/schedrec";
}

int sr_run_schedrec(char *const argv[], const char *role,
		    const char *err_path, char *out, size_t out_size)
{
	int status, pipefd[2] = { -1, -1 }, fd;
	size_t len = 0;
	ssize_t done;
	pid_t pid;

	if (out && pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (role)
			setenv("SRT_ROLE", role, 1);
		if (err_path) {
			fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC,
				  0600);
			if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
				_exit(126);
		}
		if (out)
			dup2(pipefd[1], STDOUT_FILENO);
		execv(sr_schedrec_bin(), argv);
		_exit(126);
	}
	if (out) {
		close(pipefd[1]);
		while (len < out_size - 1 &&
		       (done = read(pipefd[0], out + len, out_size - 1 - len)) > 0)
			len += done;
		out[len] = '\0';
		close(pipefd[0]);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int sr_write_text(const char *path, const char *text)
{
	ssize_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

void sr_read_text(const char *path, char *buf, size_t size)
{
	ssize_t len = -1;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		len = read(fd, buf, size - 1);
		close(fd);
	}
	buf[len > 0 ? len : 0] = '\0';
}

const char *sr_settings_changed(const struct procfile_stats *before)
{
	struct procfile_stats now;
	const char *what = "";

	if (procfile_stats_read(&now))
		return "stats (unreadable)";
	if (now.enabled != before->enabled)
		what = "enabled";
	else if (now.overwrite != before->overwrite)
		what = "mode";
	else if (now.buf_kb != before->buf_kb)
		what = "buf_kb";
	else if (now.events != before->events)
		what = "events";
	procfile_stats_free(&now);
	return what;
}

pid_t sr_spawn_schedrec(char *const argv[], const char *err_path)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid < 0 ? -errno : pid;
	setpgid(0, 0);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		_exit(126);
	if (err_path) {
		fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(126);
	}
	execv(sr_schedrec_bin(), argv);
	_exit(126);
}

int sr_wait_child_bounded(pid_t pid, int timeout_ms)
{
	struct timespec tick = { 0, 1000 * 1000 };
	int status, waited;

	for (waited = 0; waited <= timeout_ms; waited++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
			       128 + WTERMSIG(status);
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

static void srec_diag(void *arg, enum srec_diag_level level,
		      uint64_t offset, const char *msg)
{
	struct sr_srec_counts *c = arg;

	fprintf(stderr, "# reader %s at %llu: %s\n",
		level == SREC_DIAG_ERROR ? "error" : "warning",
		(unsigned long long)offset, msg);
	c->warnings++;
}

int sr_read_srec_each(const char *path, struct sr_srec_counts *c,
		      void (*each)(void *arg, const struct srec_record *rec),
		      void *arg, struct srecreader **keep)
{
	struct srecreader_options opt = {
		.strict = true, .diag = srec_diag, .diag_arg = c,
	};
	const struct srec_trailer_head *trailer;
	const struct srec_cpu_total *totals;
	struct srec_record rec;
	struct srecreader *r;
	unsigned int cpu;
	char err[256];
	int ret;

	memset(c, 0, sizeof(*c));
	if (keep)
		*keep = NULL;
	r = srecreader_open(path, &opt, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "# %s: %s\n", path, err);
		return -1;
	}
	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0) {
		if (each)
			each(arg, &rec);
		if (rec.hdr->ts > c->newest_ts)
			c->newest_ts = rec.hdr->ts;
		c->all_gaps += rec.gap;
		if (rec.cpu >= SR_SREC_MAX_CPUS)
			continue;
		c->lost[rec.cpu] += rec.gap;
		c->gaps[rec.cpu] += rec.gap;
		if (rec.hdr->type == SCHEDREC_REC_LOST)
			c->lost[rec.cpu] +=
				((const struct schedrec_lost *)rec.hdr)->count;
		else
			c->records[rec.cpu]++;
	}
	if (ret < 0)
		fprintf(stderr, "# %s: %s\n", path, srecreader_error(r));
	trailer = srecreader_trailer(r, &totals);
	if (trailer) {
		c->trailer = true;
		for (cpu = 0; cpu < trailer->count &&
		     cpu < SR_SREC_MAX_CPUS; cpu++) {
			c->kernel_written[cpu] = totals[cpu].kernel_written;
			c->kernel_lost[cpu] = totals[cpu].kernel_lost;
		}
	}
	if (keep)
		*keep = r;
	else
		srecreader_close(r);
	return ret < 0 ? -1 : 0;
}

int sr_read_srec(const char *path, struct sr_srec_counts *c)
{
	return sr_read_srec_each(path, c, NULL, NULL, NULL);
}
