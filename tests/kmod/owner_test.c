// SPDX-License-Identifier: GPL-2.0
/*
 * Who owns the module's recording (fault drills of `schedrec record`): a
 * second recorder, or one that finds a CPU's ring read by another process,
 * is refused with a message naming the holder and leaves the first's
 * recording alone; a recorder whose recording is turned off under it says
 * so and fails, its file whole up to then; after `kill -9` of a recorder,
 * the next one recovers the module, rmmod works, and the killed one's file
 * reads up to its last chunk, with at most a chunk and a ring of each CPU
 * missing.
 *
 * The recorders run this binary as their workload with SRT_ROLE=hold: it
 * says on GO_FIFO that it runs (recording is on then) and waits for a byte
 * on DONE_FIFO.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"
#include "procfile.h"
#include "srecreader.h"
#include "srecwriter.h"

#define TRACE		"/tmp/owner_test.srec"
#define TRACE2		"/tmp/owner_test2.srec"
#define GO_FIFO		"/tmp/owner_test.go"
#define DONE_FIFO	"/tmp/owner_test.done"
#define ERR_FILE	"/tmp/owner_test.err"
#define ERR2_FILE	"/tmp/owner_test2.err"
#define MAX_CPUS	64
/* s: a recorder that has not ended by then is stuck */
#define OWNER_WAIT_S	30

FIXTURE(owner) {
	struct procfile_stats before;
	char self_path[256];
	pid_t recorder;		/* the first recorder, in the background */
	pid_t hold;		/* its workload */
};

FIXTURE_SETUP(owner)
{

	self->recorder = 0;
	self->hold = 0;
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	ASSERT_EQ(0, procfile_write("events", "switch waking exec exit"));
	ASSERT_EQ(0, procfile_stats_read(&self->before));
	ASSERT_EQ(0, sr_self_exe(self->self_path, sizeof(self->self_path)));
	unlink(GO_FIFO);
	unlink(DONE_FIFO);
	ASSERT_EQ(0, mkfifo(GO_FIFO, 0600));
	ASSERT_EQ(0, mkfifo(DONE_FIFO, 0600));
	unlink(TRACE);
	unlink(TRACE2);
}

FIXTURE_TEARDOWN(owner)
{
	if (self->hold > 0)
		kill(self->hold, SIGKILL);
	if (self->recorder > 0) {
		kill(self->recorder, SIGKILL);
		waitpid(self->recorder, NULL, 0);
	}
	procfile_stats_free(&self->before);
	sr_module_ensure();
	sr_enable(false);
	unlink(GO_FIFO);
	unlink(DONE_FIFO);
	unlink(TRACE);
	unlink(TRACE2);
	unlink(ERR_FILE);
	unlink(ERR2_FILE);
}

/* SRT_ROLE=hold: "pid" on GO_FIFO, then wait for a byte on DONE_FIFO. */
static int role_hold(void)
{
	char line[32], byte;
	int fd = open(GO_FIFO, O_WRONLY);

	snprintf(line, sizeof(line), "%d\n", getpid());
	if (fd < 0 || write(fd, line, strlen(line)) <= 0)
		return 1;
	close(fd);
	fd = open(DONE_FIFO, O_RDONLY);
	return fd >= 0 && read(fd, &byte, 1) == 1 ? 0 : 1;
}

/*
 * `schedrec record -C 0 -q -o TRACE -- this binary` as role hold, in the
 * background, its stderr in ERR_FILE; returns once recording is on, with
 * the workload's pid in self->hold.
 */
static void start_recorder(struct __test_metadata *_metadata,
			   struct _test_data_owner *self)
{
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q", "-o",
			       TRACE, "--", self->self_path, NULL };
	char line[32] = "";
	int fd;

	self->recorder = fork();
	ASSERT_LE(0, self->recorder);
	if (!self->recorder) {
		fd = open(ERR_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(126);
		setenv("SRT_ROLE", "hold", 1);
		execv(sr_schedrec_bin(), argv);
		_exit(126);
	}
	fd = open(GO_FIFO, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, line, sizeof(line) - 1));
	close(fd);
	self->hold = atoi(line);
	ASSERT_LT(0, self->hold);
}

/* Let the workload end (if a recorder ending has not killed it). */
static void release_hold(struct _test_data_owner *self)
{
	int fd = open(DONE_FIFO, O_WRONLY | O_NONBLOCK);

	if (fd < 0 || write(fd, "x", 1) != 1)
		kill(self->hold, SIGKILL);
	if (fd >= 0)
		close(fd);
	self->hold = 0;
}

/* The first recorder's exit status, waited for OWNER_WAIT_S at most. */
static int wait_recorder(struct _test_data_owner *self)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int status, i;

	for (i = 0; i < OWNER_WAIT_S * 100; i++) {
		if (waitpid(self->recorder, &status, WNOHANG) ==
		    self->recorder) {
			self->recorder = 0;
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		}
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

static bool recording_on(void)
{
	char buf[8] = "";

	return procfile_read("enable", buf, sizeof(buf)) > 0 && buf[0] == '1';
}

static bool file_says(const char *path, const char *what)
{
	char buf[4096];

	sr_read_text(path, buf, sizeof(buf));
	return strstr(buf, what) != NULL;
}

static void count_warning(void *arg, enum srec_diag_level level,
			  uint64_t offset, const char *msg)
{
	fprintf(stderr, "# reader %s at %llu: %s\n",
		level == SREC_DIAG_ERROR ? "error" : "warning",
		(unsigned long long)offset, msg);
	++*(int *)arg;
}

/*
 * Read @path to its end (@strict: a damaged section is an error): the
 * records of each CPU into @records, LOST ones aside; the reader's
 * warnings, or -1 if it cannot be read to the end.
 */
static int read_file(const char *path, bool strict, uint64_t *records)
{
	int warnings = 0, ret;
	struct srecreader_options opt = {
		.strict = strict, .diag = count_warning,
		.diag_arg = &warnings,
	};
	struct srec_record rec;
	struct srecreader *r;
	char err[256];

	memset(records, 0, MAX_CPUS * sizeof(*records));
	r = srecreader_open(path, &opt, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "# %s: %s\n", path, err);
		return -1;
	}
	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0)
		if (rec.cpu < MAX_CPUS && rec.hdr->type != SCHEDREC_REC_LOST)
			records[rec.cpu]++;
	if (ret < 0)
		fprintf(stderr, "# %s: %s\n", path, srecreader_error(r));
	srecreader_close(r);
	return ret < 0 ? -1 : warnings;
}

/*
 * While one recorder records, a second one, and one for a CPU that does
 * not exist, are refused naming the first; the first records on, to a
 * whole file, and the module's settings come back.
 */
TEST_F_TIMEOUT(owner, second_recorder_refused_first_unharmed, 120)
{
	char *const second[] = { "schedrec", "record", "-C", "0", "-q", "-o",
				 TRACE2, "--", "true", NULL };
	char *const no_cpu[] = { "schedrec", "record", "-C", "999", "-q",
				 "-o", TRACE2, "--", "true", NULL };
	uint64_t records[MAX_CPUS], in_file = 0, written = 0;
	struct procfile_stats st;
	char holder[32];
	unsigned int cpu;

	start_recorder(_metadata, self);
	snprintf(holder, sizeof(holder), "pid %d",
		 self->recorder);
	EXPECT_EQ(3, sr_run_schedrec(second, NULL, ERR2_FILE, NULL, 0));
	EXPECT_TRUE(file_says(ERR2_FILE, holder))
		TH_LOG("the refusal does not name %s", holder);
	EXPECT_TRUE(recording_on());
	EXPECT_NE(0, sr_run_schedrec(no_cpu, NULL, ERR2_FILE, NULL, 0));
	EXPECT_TRUE(recording_on());
	/* the first one's recording goes on */
	ASSERT_EQ(0, sr_pingpong(200, 0, -1));
	release_hold(self);
	ASSERT_EQ(0, wait_recorder(self));
	ASSERT_EQ(0, read_file(TRACE, true, records));
	ASSERT_EQ(0, procfile_stats_read(&st));
	for (cpu = 0; cpu < st.nr_cpus && cpu < MAX_CPUS; cpu++) {
		in_file += records[cpu];
		written += st.cpu[cpu].written;
	}
	procfile_stats_free(&st);
	EXPECT_EQ(written, in_file);
	EXPECT_LT(400u, in_file);
	EXPECT_STREQ("", sr_settings_changed(&self->before));
}

/* A CPU's ring read by another process: refused, naming it; nothing changed. */
TEST_F(owner, ring_reader_named)
{
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q", "-o",
			       TRACE2, "--", "true", NULL };
	int ready[2], done[2], cpu = sr_nr_cpus() - 1;
	char holder[32], byte;
	pid_t reader;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	reader = fork();
	ASSERT_LE(0, reader);
	if (!reader) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%d", cpu);
		fd = open(path, O_RDONLY);
		if (fd < 0 || write(ready[1], "r", 1) != 1)
			_exit(1);
		_exit(read(done[0], &byte, 1) == 1 ? 0 : 1);
	}
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	snprintf(holder, sizeof(holder), "pid %d", reader);
	EXPECT_EQ(3, sr_run_schedrec(argv, NULL, ERR2_FILE, NULL, 0));
	EXPECT_TRUE(file_says(ERR2_FILE, holder))
		TH_LOG("the refusal does not name %s", holder);
	EXPECT_STREQ("", sr_settings_changed(&self->before));
	ASSERT_EQ(1, write(done[1], "x", 1));
	EXPECT_EQ(0, sr_wait_child_ok(reader));
}

/*
 * Recording turned off by someone else: the recorder sees it within a
 * fence interval, says so and fails; its file is whole, with its trailer.
 */
TEST_F_TIMEOUT(owner, turned_off_under_recorder_fails, 120)
{
	uint64_t records[MAX_CPUS];

	start_recorder(_metadata, self);
	ASSERT_EQ(0, sr_pingpong(100, 0, -1));
	ASSERT_EQ(0, procfile_write("enable", "0"));
	EXPECT_EQ(3, wait_recorder(self));
	EXPECT_TRUE(file_says(ERR_FILE, "turned off by another process"));
	EXPECT_EQ(0, read_file(TRACE, true, records));
	release_hold(self);
}

/*
 * kill -9 of the recorder: recording stays on with nobody reading; the
 * next recorder says so, stops it and records; rmmod works; the killed
 * one's file reads to its last chunk, and of what the module had written
 * when it died, at most a chunk and a ring of each CPU are missing.
 */
TEST_F_TIMEOUT(owner, killed_recorder_recovered, 120)
{
	char *const next[] = { "schedrec", "record", "-C", "0", "-q", "-o",
			       TRACE2, "--", "true", NULL };
	uint64_t records[MAX_CPUS], bound, missing;
	struct procfile_stats st;
	unsigned int cpu;

	start_recorder(_metadata, self);
	ASSERT_EQ(0, sr_pingpong(2000, 0, -1));
	kill(self->recorder, SIGKILL);
	ASSERT_LE(0, wait_recorder(self));
	kill(self->hold, SIGKILL);
	self->hold = 0;
	ASSERT_EQ(0, procfile_stats_read(&st));
	EXPECT_TRUE(recording_on());

	EXPECT_EQ(0, sr_run_schedrec(next, NULL, ERR2_FILE, NULL, 0));
	EXPECT_TRUE(file_says(ERR2_FILE, "gone"))
		TH_LOG("the next recorder does not say what it recovered");
	EXPECT_EQ(0, read_file(TRACE2, true, records));

	EXPECT_LE(0, read_file(TRACE, false, records));
	bound = (SRECWRITER_CHUNK_DEFAULT + st.buf_kb * 1024ull) /
		SCHEDREC_RECORD_ALIGN;
	for (cpu = 0; cpu < st.nr_cpus && cpu < MAX_CPUS; cpu++) {
		missing = st.cpu[cpu].written - records[cpu];
		fprintf(stderr, "# cpu %u: %llu written when killed, %llu in the file\n",
			cpu, (unsigned long long)st.cpu[cpu].written,
			(unsigned long long)records[cpu]);
		EXPECT_GE(st.cpu[cpu].written, records[cpu]);
		EXPECT_GE(bound, missing) TH_LOG("cpu %u", cpu);
	}
	procfile_stats_free(&st);
	EXPECT_EQ(0, sr_module_unload_wait());
}

int main(int argc, char **argv)
{
	const char *role = getenv("SRT_ROLE");

	if (role && !strcmp(role, "hold"))
		return role_hold();
	return test_harness_run(argc, argv);
}
