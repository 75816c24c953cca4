// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line of `schedrec report` and `schedrec export` while they
 * read (tools/lib/progress.c): its text, and when it shows.  The commands
 * run with stderr on a pseudo-terminal (stdout to a file, or the terminal
 * too), SCHEDREC_PROGRESS_DELAY=0 so that the line shows at the first
 * section read, whatever the machine's speed: the line is drawn, wiped
 * before a warning and at the end, and the report is the same as without
 * a terminal.  Not with -q, not before the delay, not when stderr is not
 * a terminal, and not when an export writes to the terminal itself.  Cut
 * to a narrow terminal's width; of a series of files, counted across them.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "progress.h"
#include "run_util.h"

#define THREADS		8
#define SWITCHES	6000	/* over two CPUs: hundreds of sections */

/* A trace of @SWITCHES switches among THREADS threads on two CPUs. */
static char *trace_text(void)
{
	struct text t = { 0 };
	unsigned int i, prev[2] = { 0, 0 }, next;

	text_printf(&t, "cpus 2\n");
	for (i = 0; i < THREADS; i++)
		text_printf(&t, "thread %u %u t%u\n", 100 + i, 100, i);
	for (i = 0; i < SWITCHES; i++) {
		/* now and then idle; else a thread running on neither CPU */
		next = i % 7 ? 100 + (i * 3 + i / 2) % THREADS : 0;
		while (next && (next == prev[0] || next == prev[1]))
			next = 100 + (next - 99) % THREADS;
		if (!next && !prev[i % 2])
			next = prev[(i + 1) % 2] == 100 ? 101 : 100;
		text_printf(&t, "%uus cpu%u switch %u %s %u\n", 10 + i * 50,
			    i % 2, prev[i % 2], i % 3 ? "S" : "R", next);
		prev[i % 2] = next;
	}
	return t.data;
}

/* What a command printed to its terminal, and how it ended. */
struct tty_run {
	int status;		/* wait status; -1: it could not be run */
	struct text tty;	/* NUL-terminated */
};

/*
 * Run schedrec with @args (NULL-terminated, without argv[0]) on a new
 * pseudo-terminal @columns wide (0: the default), its stdout to @out
 * (NULL: the terminal too), in @dir.
 */
static int run_on_tty_of(struct tty_run *r, const char *dir, const char *out,
			 const char *const *args, unsigned short columns)
{
	char *argv[16] = { (char *)schedrec_bin() };
	struct winsize ws = { .ws_row = 24, .ws_col = columns };
	struct pollfd pfd;
	char buf[4096];
	unsigned int i;
	ssize_t n;
	pid_t pid;
	int fd;

	memset(r, 0, sizeof(*r));
	text_add(&r->tty, "", 0);
	for (i = 0; args[i] && i + 2 < 16; i++)
		argv[i + 1] = (char *)args[i];
	pid = forkpty(&fd, NULL, NULL, columns ? &ws : NULL);
	if (pid < 0)
		return r->status = -1;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		if (out) {
			int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (o < 0 || dup2(o, STDOUT_FILENO) < 0)
				_exit(126);
			close(o);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	/* until the child's side closes: EIO, or the end of the file */
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	for (;;) {
		if (poll(&pfd, 1, RUN_TIMEOUT_MS) <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		text_add(&r->tty, buf, n);
	}
	close(fd);
	if (waitpid(pid, &r->status, 0) != pid)
		r->status = -1;
	return r->status;
}

static int run_on_tty(struct tty_run *r, const char *dir, const char *out,
		      const char *const *args)
{
	return run_on_tty_of(r, dir, out, args, 0);
}

FIXTURE(progress) {
	struct workdir w;
	struct tty_run run;
	char trace[512];
};

FIXTURE_SETUP(progress)
{
	char *text = trace_text();

	ASSERT_NE(NULL, text);
	ASSERT_EQ(0, workdir_make(&self->w, "schedrec-progress-test"));
	snprintf(self->trace, sizeof(self->trace), "%s/trace.srec",
		 self->w.dir);
	ASSERT_EQ(0, write_trace_file(self->trace, text));
	free(text);
	setenv("SCHEDREC_PROGRESS_DELAY", "0", 1);
}

FIXTURE_TEARDOWN(progress)
{
	unsetenv("SCHEDREC_PROGRESS_DELAY");
	unsetenv("SCHEDREC_THREADS");
	text_free(&self->run.tty);
	workdir_remove(&self->w);
}

#define WIPE	"\r\033[K"

/* Whether @tty holds a progress line of @label, and ends wiped. */
static bool drawn_and_wiped(const char *tty, const char *label)
{
	char line[96];
	size_t len = strlen(tty);

	snprintf(line, sizeof(line), "\r%s: read ", label);
	return strstr(tty, line) && strstr(tty, "% (") &&
	       len >= strlen(WIPE) &&
	       !strcmp(tty + len - strlen(WIPE), WIPE);
}

TEST_F(progress, drawn_then_wiped_in_one_thread_and_two)
{
	static const char *const args[] = {
		"report", "offcpu", "trace.srec", NULL,
	};
	static const char *const threads[] = { "1", "2" };
	struct run_result plain = { 0 };
	char *out, path[512];
	unsigned int i;

	ASSERT_EQ(0, workdir_run(&self->w, "$S report offcpu trace.srec"));
	for (i = 0; i < 2; i++) {
		setenv("SCHEDREC_THREADS", threads[i], 1);
		text_free(&self->run.tty);
		ASSERT_EQ(0, run_on_tty(&self->run, self->w.dir, "out.txt",
					args));
		EXPECT_TRUE(drawn_and_wiped(self->run.tty.data,
					    "schedrec report offcpu"))
			TH_LOG("threads %s, terminal: %s", threads[i],
			       self->run.tty.data);
		/* nothing else there, and the report as without it */
		EXPECT_EQ(0, count_lines(self->run.tty.data));
		snprintf(path, sizeof(path), "%s/out.txt", self->w.dir);
		out = read_file(path, NULL);
		ASSERT_NE(NULL, out);
		EXPECT_STREQ(self->w.out, out);
		free(out);
	}
	/* without a terminal on stderr: no line */
	ASSERT_EQ(0, run_schedrec(&plain, "report offcpu %s", self->trace));
	EXPECT_STREQ("", plain.err.data);
	run_result_free(&plain);
}

TEST_F(progress, wiped_before_a_warning)
{
	static const char *const args[] = {
		"report", "tenancy", "trace.srec", NULL,
	};
	const char *warning;

	/* a checksum fails half way */
	ASSERT_EQ(0, workdir_run(&self->w,
				 "size=$(stat -c %%s trace.srec) && printf 'XXXXXXXX' | dd of=trace.srec bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null"));
	run_on_tty(&self->run, self->w.dir, "out.txt", args);
	ASSERT_TRUE(WIFEXITED(self->run.status));
	EXPECT_NE(0, WEXITSTATUS(self->run.status));
	EXPECT_NE(NULL, strstr(self->run.tty.data,
			       "\rschedrec report tenancy: read "))
		TH_LOG("terminal: %s", self->run.tty.data);
	warning = strstr(self->run.tty.data, "schedrec report: warning: ");
	ASSERT_NE(NULL, warning);
	/* the line was wiped right before it, not written over */
	ASSERT_LE(strlen(WIPE), (size_t)(warning - self->run.tty.data));
	EXPECT_EQ(0, strncmp(warning - strlen(WIPE), WIPE, strlen(WIPE)));
}

TEST_F(progress, not_with_quiet)
{
	static const char *const args[] = {
		"report", "offcpu", "-q", "trace.srec", NULL,
	};

	ASSERT_EQ(0, run_on_tty(&self->run, self->w.dir, "out.txt", args));
	EXPECT_STREQ("", self->run.tty.data);
}

TEST_F(progress, not_before_the_delay)
{
	static const char *const args[] = {
		"report", "offcpu", "trace.srec", NULL,
	};

	setenv("SCHEDREC_PROGRESS_DELAY", "600000", 1);
	ASSERT_EQ(0, run_on_tty(&self->run, self->w.dir, "out.txt", args));
	EXPECT_STREQ("", self->run.tty.data);
	/* far too long for nanoseconds: not wrapped round to a short one */
	setenv("SCHEDREC_PROGRESS_DELAY", "18446744073709551615", 1);
	text_free(&self->run.tty);
	ASSERT_EQ(0, run_on_tty(&self->run, self->w.dir, "out.txt", args));
	EXPECT_STREQ("", self->run.tty.data);
}

TEST_F(progress, not_over_an_export_to_the_terminal)
{
	static const char *const to_tty[] = {
		"export", "csv", "-o", "-", "trace.srec", NULL,
	};
	static const char *const to_file[] = {
		"export", "csv", "-o", "out.csv", "trace.srec", NULL,
	};

	ASSERT_EQ(0, run_on_tty(&self->run, self->w.dir, NULL, to_tty));
	EXPECT_EQ(NULL, strstr(self->run.tty.data, "read "));
	EXPECT_LE(SWITCHES, count_lines(self->run.tty.data));
	text_free(&self->run.tty);
	ASSERT_EQ(0, run_on_tty(&self->run, self->w.dir, NULL, to_file));
	EXPECT_TRUE(drawn_and_wiped(self->run.tty.data,
				    "schedrec export csv"))
		TH_LOG("terminal: %s", self->run.tty.data);
}

TEST_F(progress, cut_to_a_narrow_terminal)
{
	static const char *const args[] = {
		"report", "offcpu", "trace.srec", NULL,
	};
	const char *at, *end;
	unsigned int lines = 0;

	ASSERT_EQ(0, run_on_tty_of(&self->run, self->w.dir, "out.txt", args,
				   40));
	/* each line drawn: "\r", at most 39 characters, ESC [ K */
	for (at = self->run.tty.data; (at = strchr(at, '\r')); at = end) {
		end = strstr(at, "\033[K");
		ASSERT_NE(NULL, end);
		EXPECT_GE(40, end - at) TH_LOG("line: %.*s", (int)(end - at),
					      at + 1);
		lines += end - at > 1;
	}
	EXPECT_LE(1, lines);
}

/*
 * Of a series, the files read before count in full: progress_update()
 * at byte 1000 of the second of two files of 1000 and 3000 bytes.
 */
TEST(a_series_counts_the_files_before)
{
	char dir[] = "/tmp/schedrec-progress-XXXXXX", a[64], b[64];
	char *paths[2] = { a, b }, *line;
	struct progress p;
	int fd, saved;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.srec", dir);
	snprintf(b, sizeof(b), "%s/b.srec", dir);
	ASSERT_EQ(0, write_file(a, ""));
	ASSERT_EQ(0, truncate(a, 1000));
	ASSERT_EQ(0, write_file(b, ""));
	ASSERT_EQ(0, truncate(b, 3000));
	saved = dup(STDERR_FILENO);
	ASSERT_LE(0, saved);
	fd = open(a, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	progress_start(&p, "t", paths, 2);
	EXPECT_EQ(4000, p.total);
	/*
	 * draw now, whatever the delay, at the end of a (its size was
	 * taken before the line is written)
	 */
	p.next_ns = 0;
	dup2(fd, STDERR_FILENO);
	progress_update(&p, 1, 1000);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	line = read_file(a, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_NE(NULL, strstr(line + 1000, "\rt: read 50% (2 of 4 kB)"))
		TH_LOG("line: %s", line + 1000);
	free(line);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

TEST(format_of_a_known_size)
{
	char buf[96];

	/* 1.78 GB left at 1.42 GB in 2 s: 2.5 s */
	progress_format(buf, sizeof(buf), 1420000000, 3200000000,
			2000000000);
	EXPECT_STREQ("read 44% (1.42 of 3.20 GB), about 3 s left", buf);
	progress_format(buf, sizeof(buf), 32000000, 320000000, 60000000000);
	EXPECT_STREQ("read 10% (32.0 of 320.0 MB), about 9 min left", buf);
	/* under half a second left: no time said */
	progress_format(buf, sizeof(buf), 4400, 8280, 100000);
	EXPECT_STREQ("read 53% (4 of 8 kB)", buf);
	progress_format(buf, sizeof(buf), 8280, 8280, 100000);
	EXPECT_STREQ("read 100% (8 of 8 kB)", buf);
}

TEST(format_of_an_unknown_size)
{
	char buf[96];

	progress_format(buf, sizeof(buf), 5500000, 0, 1000000000);
	EXPECT_STREQ("read 5.5 MB", buf);
	progress_format(buf, sizeof(buf), 2500000000, 0, 1000000000);
	EXPECT_STREQ("read 2.50 GB", buf);
}

TEST_HARNESS_MAIN
