// SPDX-License-Identifier: GPL-2.0
/* What the tests of the reports share; see run_util.h. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_util.h"
#include "tracegen.h"

static void out_of_memory(void)
{
	fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
	abort();
}

void text_add(struct text *t, const void *data, size_t len)
{
	if (t->len + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;

		while (cap < t->len + len + 1)
			cap *= 2;
		t->data = realloc(t->data, cap);
		if (!t->data)
			out_of_memory();
		t->cap = cap;
	}
	if (len)
		memcpy(t->data + t->len, data, len);
	t->len += len;
	t->data[t->len] = '\0';
}

void text_printf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		out_of_memory();
	text_add(t, s, len);
	free(s);
}

void text_free(struct text *t)
{
	free(t->data);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------ */
/* Where things are */

const char *tools_test_dir(void)
{
	static char dir[1024];
	const char *slash = strrchr(__FILE__, '/');

	if (!dir[0] && slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - __FILE__),
			 __FILE__);
	else if (!dir[0])
		snprintf(dir, sizeof(dir), ".");
	return dir;
}

const char *schedrec_bin(void)
{
	static const char tail[] = "/tests/tools";
	static char path[4096];
	const char *bin = getenv("SCHEDREC_BIN");
	const char *dir = tools_test_dir();
	size_t len = strlen(dir), tail_len = strlen(tail);

	if (path[0])
		return path;
	if (bin && *bin) {
		/* made absolute: a command may run in a directory of its own */
		if (!realpath(bin, path))
			snprintf(path, sizeof(path), "%s", bin);
	} else if (len > tail_len && !strcmp(dir + len - tail_len, tail)) {
		snprintf(path, sizeof(path), "%.*s/build/user/schedrec",
			 (int)(len - tail_len), dir);
	} else {
		snprintf(path, sizeof(path), "%s/../../build/user/schedrec",
			 dir);
	}
	return path;
}

const char *python3_bin(void)
{
	return access("/usr/bin/python3", X_OK) ? "python3" :
						   "/usr/bin/python3";
}

/* ------------------------------------------------------------------ */
/* Running commands */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void child_exec(char *const argv[], const char *cwd, int out, int err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0 || (cwd && chdir(cwd))) {
		dprintf(err, "%s: cannot set up the child: %s\n",
			program_invocation_short_name, strerror(errno));
		_exit(127);
	}
	execv(argv[0], argv);
	dprintf(2, "%s: cannot run %s: %s\n", program_invocation_short_name,
		argv[0], strerror(errno));
	_exit(127);
}

/* Read what is there on @fd into @t; false at its end. */
static bool drain_pipe(int fd, struct text *t, bool *too_long)
{
	char buf[65536];
	ssize_t got = read(fd, buf, sizeof(buf));

	if (got < 0)
		return errno == EINTR || errno == EAGAIN;
	if (!got)
		return false;
	if (t->len + got > RUN_OUTPUT_MAX) {
		*too_long = true;
		return false;
	}
	text_add(t, buf, got);
	return true;
}

/* Read @pipes (stdout, stderr) into @r until they close or time is up. */
static void read_pipes(struct pollfd pipes[2], struct run_result *r,
		       int64_t deadline, bool *too_long)
{
	int i;

	while ((pipes[0].fd >= 0 || pipes[1].fd >= 0) && !*too_long) {
		int64_t left = deadline - now_ms();

		if (left <= 0)
			break;
		if (poll(pipes, 2, left) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			if (pipes[i].fd < 0 || !pipes[i].revents)
				continue;
			if (!drain_pipe(pipes[i].fd, i ? &r->err : &r->out,
					too_long)) {
				close(pipes[i].fd);
				pipes[i].fd = -1;
			}
		}
	}
}

int run_command(char *const argv[], const char *cwd, struct run_result *r)
{
	int64_t deadline = now_ms() + RUN_TIMEOUT_MS;
	bool too_long = false, ended = false;
	int out[2], err[2], status = 0, i;
	struct pollfd pipes[2];
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	text_add(&r->out, "", 0);
	text_add(&r->err, "", 0);
	if (pipe2(out, O_CLOEXEC))
		goto no_pipe;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		goto no_pipe;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid)
		child_exec(argv, cwd, out[1], err[1]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		close(out[0]);
		close(err[0]);
		return -1;
	}
	setpgid(pid, pid);	/* as the child does: whoever runs first */
	pipes[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	pipes[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	read_pipes(pipes, r, deadline, &too_long);
	/* the pipes are closed: the command should be ending */
	while (!too_long && now_ms() < deadline) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done == pid || (done < 0 && errno != EINTR)) {
			ended = done == pid;
			break;
		}
		usleep(10000);
	}
	if (!ended) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	for (i = 0; i < 2; i++)
		if (pipes[i].fd >= 0)
			close(pipes[i].fd);
	if (ended) {
		r->status = status;
		return status;
	}
	if (too_long)
		snprintf(r->why, sizeof(r->why),
			 "killed: it printed more than %u bytes",
			 RUN_OUTPUT_MAX);
	else
		snprintf(r->why, sizeof(r->why),
			 "killed: still running after %d s",
			 RUN_TIMEOUT_MS / 1000);
	return -1;
no_pipe:
	snprintf(r->why, sizeof(r->why), "pipe: %s", strerror(errno));
	return -1;
}

int run_schedrec(struct run_result *r, const char *fmt, ...)
{
	char *words, *word, *save, **argv;
	size_t n = 1, max = 2;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&words, fmt, ap);
	va_end(ap);
	if (ret < 0)
		out_of_memory();
	for (word = words; *word; word++)
		max += *word == ' ';
	argv = calloc(max, sizeof(*argv));
	if (!argv)
		out_of_memory();
	argv[0] = (char *)schedrec_bin();
	for (word = strtok_r(words, " ", &save); word;
	     word = strtok_r(NULL, " ", &save))
		argv[n++] = word;
	ret = run_command(argv, NULL, r);
	free(argv);
	free(words);
	return ret;
}

void run_result_free(struct run_result *r)
{
	text_free(&r->out);
	text_free(&r->err);
	r->status = -1;
	r->why[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* Files */

/* All of @fd; as read_file(). */
static char *read_fd(int fd, size_t *len)
{
	struct text t = { 0 };
	char buf[65536];
	ssize_t got;

	text_add(&t, "", 0);
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int saved = errno;

			text_free(&t);
			errno = saved;
			return NULL;
		}
		text_add(&t, buf, got);
	}
	if (len)
		*len = t.len;
	return t.data;
}

char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	char *data;

	if (fd < 0)
		return NULL;
	data = read_fd(fd, len);
	saved = errno;
	close(fd);
	errno = saved;
	return data;
}

int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int write_trace_file(const char *path, const char *text)
{
	char err[512];

	if (!tracegen_write_file(text, path, err, sizeof(err)))
		return 0;
	fprintf(stderr, "tracegen: %s\n", err);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Text */

size_t count_matches(const char *text, const char *needle)
{
	size_t n = 0;

	while (text && (text = strstr(text, needle))) {
		n++;
		text += strlen(needle);
	}
	return n;
}

size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/* ------------------------------------------------------------------ */
/* Scratch directories */

int workdir_make(struct workdir *w, const char *prefix)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->dir, sizeof(w->dir), "/tmp/%s-XXXXXX", prefix);
	if (!mkdtemp(w->dir)) {
		w->dir[0] = '\0';
		return -1;
	}
	workdir_var(w, "S", schedrec_bin());
	return 0;
}

void workdir_var(struct workdir *w, const char *name, const char *value)
{
	text_printf(&w->vars, "%s%s='%s'", w->vars.len ? " " : "", name,
		    value);
}

int workdir_run(struct workdir *w, const char *fmt, ...)
{
	struct run_result r = { 0 };
	char *command, *script;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&command, fmt, ap);
	va_end(ap);
	/* the command is sh's $1: it needs no quoting here */
	if (len < 0 || asprintf(&script, "%s && eval \"$1\"",
				w->vars.len ? w->vars.data : ":") < 0)
		out_of_memory();
	run_command((char *[]){ "/bin/sh", "-c", script, "sh", command, NULL },
		    w->dir, &r);
	free(script);
	free(command);
	if (r.status < 0)
		text_printf(&r.err, "%s: %s\n", program_invocation_short_name,
			    r.why);
	free(w->out);
	free(w->err);
	w->out = r.out.data;
	w->err = r.err.data;
	if (r.status < 0 || !WIFEXITED(r.status))
		return -1;
	return WEXITSTATUS(r.status);
}

bool workdir_has(const struct workdir *w, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", w->dir, name);
	return !access(path, F_OK);
}

void workdir_remove(struct workdir *w)
{
	free(w->out);
	free(w->err);
	w->out = NULL;
	w->err = NULL;
	text_free(&w->vars);
	if (w->dir[0])
		remove_tree(w->dir);
	w->dir[0] = '\0';
}
