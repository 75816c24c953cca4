// SPDX-License-Identifier: GPL-2.0
/*
 * `schedrec record` for the long run, and the version it reports: --rotate
 * writes a series of files, each readable alone, whose sequence numbers go
 * on from one file to the next with nothing lost or written twice; --keep
 * deletes the oldest; a full disk (a tiny tmpfs) stops the recording with
 * a clear error and a file that still ends cleanly; --version and status
 * name the loaded module's version.
 *
 * The workload is this binary again (SRT_ROLE=churn): it starts a sleeper
 * once recording runs (which outlives the recording, so every file begun
 * after the first must name it in its thread snapshot), then ping-pongs a
 * byte with a child.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"
#include "procfile.h"
#include "srecreader.h"

#define DIR		"/tmp/rotate_test"
#define RUN		DIR "/run.srec"
#define STDERR_LOG	DIR "/stderr.log"
#define SLEEPER_PID	DIR "/sleeper.pid"
#define FULL_DIR	"/tmp/rotate_test_full"
#define ROTATE		(256 << 10)
#define MAX_FILES	64
#define MAX_CPUS	64

#ifndef SCHEDREC_VERSION
#error "tests/kmod/Makefile passes SCHEDREC_VERSION from the VERSION file"
#endif

/*
 * Run schedrec with @argv, its stderr into STDERR_LOG (and @out, if not
 * NULL, gets its stdout); the workload role @role, SRT_ROUNDS=@rounds
 * unless NULL.  Returns its status.
 */
static int run_schedrec(char *const argv[], const char *role,
			const char *rounds, char *out, size_t out_size)
{
	if (rounds)
		setenv("SRT_ROUNDS", rounds, 1);
	return sr_run_schedrec(argv, role, STDERR_LOG, out, out_size);
}

/*
 * SRT_ROLE=churn: a sleeper that lives until the test kills it (its pid
 * in SLEEPER_PID), then SRT_ROUNDS rounds of ping-pong.
 */
static int role_churn(void)
{
	const char *env = getenv("SRT_ROUNDS");
	int rounds = env ? atoi(env) : 1000, done, fd;
	char buf[32];
	pid_t sleeper;

	sleeper = fork();
	if (!sleeper) {
		setsid();
		for (;;)
			pause();
	}
	fd = open(SLEEPER_PID, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	snprintf(buf, sizeof(buf), "%d\n", sleeper);
	if (sleeper < 0 || fd < 0 || write(fd, buf, strlen(buf)) <= 0)
		return 1;
	close(fd);
	for (done = 0; done < rounds; done += 500)
		if (sr_pingpong(500, -1, -1))
			return 1;
	return 0;
}

/* One file of a rotation, as the reader saw it alone. */
struct file_view {
	bool present;
	off_t size;
	uint32_t flags;
	unsigned int warnings;
	bool trailer;
	bool has_sleeper;
	uint64_t records[MAX_CPUS];
	uint64_t gaps[MAX_CPUS];
	uint64_t lost[MAX_CPUS];
	uint64_t first_seq[MAX_CPUS];	/* UINT64_MAX: no record */
	uint64_t last_seq[MAX_CPUS];
	uint64_t kernel_written[MAX_CPUS];
};

static void count_warning(void *arg, enum srec_diag_level level,
			  uint64_t offset, const char *msg)
{
	struct file_view *v = arg;

	fprintf(stderr, "# reader %s at %llu: %s\n",
		level == SREC_DIAG_ERROR ? "error" : "warning",
		(unsigned long long)offset, msg);
	v->warnings++;
}

static void rotated_name(unsigned int n, char *path, size_t size)
{
	snprintf(path, size, DIR "/run.%04u.srec", n);
}

/* Read file @path alone, strictly; false if it cannot be opened. */
static bool view_file(const char *path, pid_t sleeper, struct file_view *v)
{
	struct srecreader_options opt = {
		.strict = true, .diag = count_warning, .diag_arg = v,
	};
	const struct srec_cpu_total *totals;
	struct srec_record rec;
	struct srecreader *r;
	char err[256];
	struct stat st;
	unsigned int cpu;
	int ret;

	memset(v, 0, sizeof(*v));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		v->first_seq[cpu] = UINT64_MAX;
	if (stat(path, &st))
		return false;
	v->present = true;
	v->size = st.st_size;
	r = srecreader_open(path, &opt, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "# %s: %s\n", path, err);
		return false;
	}
	v->flags = srecreader_info(r)->file.flags;
	v->has_sleeper = sleeper > 0 && srecreader_thread(r, sleeper);
	while ((ret = srecreader_next_batch(r, &rec, 1)) > 0) {
		if (rec.cpu >= MAX_CPUS)
			break;
		if (v->first_seq[rec.cpu] == UINT64_MAX)
			v->first_seq[rec.cpu] = rec.seq;
		v->last_seq[rec.cpu] = rec.seq;
		v->gaps[rec.cpu] += rec.gap;
		if (rec.hdr->type == SCHEDREC_REC_LOST)
			v->lost[rec.cpu]++;
		else
			v->records[rec.cpu]++;
	}
	if (ret < 0) {
		fprintf(stderr, "# %s: %s\n", path, srecreader_error(r));
		v->warnings++;
	}
	v->trailer = srecreader_trailer(r, &totals);
	for (cpu = 0; v->trailer && cpu < MAX_CPUS &&
	     cpu < srecreader_info(r)->file.nr_cpus; cpu++)
		v->kernel_written[cpu] = totals[cpu].kernel_written;
	srecreader_close(r);
	return true;
}

static pid_t read_sleeper(void)
{
	char buf[32];

	sr_read_text(SLEEPER_PID, buf, sizeof(buf));
	return atoi(buf);
}

static void remove_files(void)
{
	pid_t sleeper = read_sleeper();
	char path[128];
	unsigned int n;

	if (sleeper > 0)
		kill(sleeper, SIGKILL);
	for (n = 1; n <= MAX_FILES + 1; n++) {
		rotated_name(n, path, sizeof(path));
		unlink(path);
	}
	unlink(RUN);
	unlink(STDERR_LOG);
	unlink(SLEEPER_PID);
}

FIXTURE(rotate) {
	struct procfile_stats before;
	int nr_cpus;
};

FIXTURE_SETUP(rotate)
{
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	ASSERT_EQ(0, procfile_write("events", "switch waking"));
	ASSERT_EQ(0, procfile_stats_read(&self->before));
	self->nr_cpus = sr_nr_cpus();
	ASSERT_LE(1, self->nr_cpus);
	ASSERT_GE(MAX_CPUS, self->nr_cpus);
	mkdir(DIR, 0755);
	remove_files();
}

FIXTURE_TEARDOWN(rotate)
{
	procfile_stats_free(&self->before);
	sr_enable(false);
	remove_files();
}

/*
 * Several files of at most 256 KiB, each read alone with no warning, no
 * gap and its trailer; per CPU, the first number of a file is the one
 * after the last of the previous file (nothing lost, nothing twice), and
 * all files together hold every record the module wrote; the files after
 * the first say CONTINUED, and name the thread born after the first.
 */
TEST_F(rotate, files_continue)
{
	static struct file_view views[MAX_FILES + 1];
	char self_exe[256];
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q",
			       "--rotate", "256K", "-o", RUN, "-e",
			       "switch,waking", "--", self_exe, NULL };
	uint64_t total[MAX_CPUS] = { 0 }, next[MAX_CPUS];
	struct procfile_stats st;
	char path[128];
	unsigned int n, files = 0;
	pid_t sleeper;
	int cpu;

	ASSERT_EQ(0, sr_self_exe(self_exe, sizeof(self_exe)));
	ASSERT_EQ(0, run_schedrec(argv, "churn", "8000", NULL, 0));
	EXPECT_STREQ("", sr_settings_changed(&self->before));
	sleeper = read_sleeper();
	ASSERT_LT(0, sleeper);
	EXPECT_EQ(-1, access(RUN, F_OK));

	for (n = 1; n <= MAX_FILES; n++) {
		rotated_name(n, path, sizeof(path));
		if (!view_file(path, sleeper, &views[n]))
			break;
		files = n;
	}
	ASSERT_LE(3u, files) TH_LOG("only %u files", files);
	fprintf(stderr, "# %u files of at most %d bytes, the last %lld\n",
		files, ROTATE, (long long)views[files].size);
	rotated_name(files + 1, path, sizeof(path));
	EXPECT_EQ(-1, access(path, F_OK));
	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		next[cpu] = 0;
	for (n = 1; n <= files; n++) {
		struct file_view *v = &views[n];

		EXPECT_EQ(0u, v->warnings) TH_LOG("file %u", n);
		EXPECT_TRUE(v->trailer) TH_LOG("file %u", n);
		EXPECT_GE((off_t)ROTATE, v->size) TH_LOG("file %u", n);
		EXPECT_EQ((uint32_t)(n == 1 ? SREC_FILE_F_FROM_START :
				     SREC_FILE_F_CONTINUED), v->flags)
			TH_LOG("file %u", n);
		/* the sleeper was born once recording ran */
		EXPECT_EQ(n > 1, v->has_sleeper) TH_LOG("file %u", n);
		for (cpu = 0; cpu < self->nr_cpus; cpu++) {
			EXPECT_EQ(0ull, v->gaps[cpu]);
			EXPECT_EQ(0ull, v->lost[cpu]);
			total[cpu] += v->records[cpu];
			if (v->first_seq[cpu] == UINT64_MAX)
				continue;
			EXPECT_EQ(next[cpu], v->first_seq[cpu])
				TH_LOG("file %u cpu %d", n, cpu);
			next[cpu] = v->last_seq[cpu] + 1;
		}
	}
	/* every record the module wrote, once; its counts in the last file */
	ASSERT_EQ(0, procfile_stats_read(&st));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		EXPECT_EQ(st.cpu[cpu].written, total[cpu]) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(st.cpu[cpu].written, next[cpu]) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(st.cpu[cpu].written, views[files].kernel_written[cpu]);
		EXPECT_EQ(SREC_COUNT_UNKNOWN, views[1].kernel_written[cpu]);
	}
	procfile_stats_free(&st);
}

/* --keep 2: the two newest files of the series are left, the rest went. */
TEST_F(rotate, keep_deletes_oldest)
{
	struct file_view view;
	char self_exe[256];
	char *const argv[] = { "schedrec", "record", "-C", "0", "-q",
			       "--rotate", "256K", "--keep", "2", "-o", RUN,
			       "-e", "switch,waking", "--", self_exe, NULL };
	char path[128];
	unsigned int n, last = 0;

	ASSERT_EQ(0, sr_self_exe(self_exe, sizeof(self_exe)));
	ASSERT_EQ(0, run_schedrec(argv, "churn", "8000", NULL, 0));
	EXPECT_STREQ("", sr_settings_changed(&self->before));
	for (n = 1; n <= MAX_FILES; n++) {
		rotated_name(n, path, sizeof(path));
		if (!access(path, F_OK))
			last = n;
	}
	ASSERT_LE(3u, last);
	for (n = 1; n <= last; n++) {
		rotated_name(n, path, sizeof(path));
		if (n + 2 <= last) {
			EXPECT_EQ(-1, access(path, F_OK)) TH_LOG("%s", path);
			continue;
		}
		ASSERT_TRUE(view_file(path, 0, &view)) TH_LOG("%s", path);
		EXPECT_EQ(0u, view.warnings) TH_LOG("%s", path);
		EXPECT_TRUE(view.trailer);
	}
}

/*
 * A 256 KiB tmpfs fills up: the recorder says so and exits 3, the module
 * is as it was, and the file reads with no damage, its trailer included.
 */
TEST_F(rotate, disk_full_ends_cleanly)
{
	char self_exe[256], log[4096];
	char *const argv[] = { "schedrec", "record", "-C", "0", "-d", "60",
			       "-m", "64", "-o", FULL_DIR "/full.srec", "-e",
			       "switch,waking", "--", self_exe, NULL };
	struct file_view view;
	int status;

	ASSERT_EQ(0, sr_self_exe(self_exe, sizeof(self_exe)));
	mkdir(FULL_DIR, 0755);
	ASSERT_EQ(0, mount("full", FULL_DIR, "tmpfs", 0, "size=256k"));
	status = run_schedrec(argv, "churn", "1000000", NULL, 0);
	sr_read_text(STDERR_LOG, log, sizeof(log));
	EXPECT_EQ(3, status) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "No space left on device")) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "ends cleanly")) TH_LOG("%s", log);
	fprintf(stderr, "# schedrec said:\n%s", log);
	EXPECT_STREQ("", sr_settings_changed(&self->before));
	EXPECT_TRUE(view_file(FULL_DIR "/full.srec", 0, &view));
	EXPECT_EQ(0u, view.warnings);
	EXPECT_TRUE(view.trailer);
	EXPECT_LT(1000ull, view.records[0] + view.records[1]);
	fprintf(stderr, "# %llu records in %lld bytes\n",
		(unsigned long long)(view.records[0] + view.records[1]),
		(long long)view.size);
	EXPECT_GE((off_t)(256 << 10), view.size);
	umount(FULL_DIR);
	rmdir(FULL_DIR);
}

/* Wrong --rotate and --keep are refused, and nothing changes. */
TEST_F(rotate, bad_options_refused)
{
	char *const cases[][8] = {
		{ "schedrec", "record", "--rotate", "1K", "-o", RUN, NULL },
		{ "schedrec", "record", "--rotate", "10X", "-o", RUN, NULL },
		{ "schedrec", "record", "--rotate", "1M", "-o", "-", NULL },
		{ "schedrec", "record", "--keep", "2", "-o", RUN, NULL },
		{ "schedrec", "record", "--rotate", "1M", "--keep", "0", NULL },
	};
	char log[1024];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(2, run_schedrec(cases[i], NULL, NULL, NULL, 0))
			TH_LOG("case %u", i);
		sr_read_text(STDERR_LOG, log, sizeof(log));
		EXPECT_NE(NULL, strstr(log, "schedrec record: ")) TH_LOG("%s", log);
		EXPECT_STREQ("", sr_settings_changed(&self->before));
	}
	EXPECT_EQ(-1, access(RUN, F_OK));
}

/*
 * --version: the tool's version and ABI, and the loaded module's, which
 * is the tree's VERSION (whoever built it: make, or dkms); status says it
 * too; without the module, --version says so and still succeeds.
 */
TEST_F(rotate, version_names_the_module)
{
	char *const version[] = { "schedrec", "--version", NULL };
	char *const status[] = { "schedrec", "status", NULL };
	char out[4096], sys[64], want[128];

	sr_read_text("/sys/module/schedrec/version", sys, sizeof(sys));
	EXPECT_STREQ(SCHEDREC_VERSION "\n", sys);
	ASSERT_EQ(0, run_schedrec(version, NULL, NULL, out, sizeof(out)));
	snprintf(want, sizeof(want), "schedrec %s (ABI %u)\n", SCHEDREC_VERSION,
		 SCHEDREC_ABI_VERSION);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	snprintf(want, sizeof(want), "module: schedrec.ko %s (ABI %u)\n",
		 SCHEDREC_VERSION, SCHEDREC_ABI_VERSION);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	ASSERT_EQ(0, run_schedrec(status, NULL, NULL, out, sizeof(out)));
	snprintf(want, sizeof(want), "loaded, ABI %u, version %s\n",
		 SCHEDREC_ABI_VERSION, SCHEDREC_VERSION);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);

	ASSERT_EQ(0, sr_module_unload_wait());
	EXPECT_EQ(0, run_schedrec(version, NULL, NULL, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "module: not loaded\n")) TH_LOG("%s", out);
	EXPECT_EQ(3, run_schedrec(status, NULL, NULL, out, sizeof(out)));
	ASSERT_EQ(0, sr_module_load(NULL));
}

int main(int argc, char **argv)
{
	const char *role = getenv("SRT_ROLE");

	if (role && !strcmp(role, "churn"))
		return role_churn();
	return test_harness_run(argc, argv);
}
