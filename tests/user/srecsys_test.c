// SPDX-License-Identifier: GPL-2.0
/*
 * What a trace header says about the machine: the thread snapshot from a
 * made-up /proc (threads that vanish mid-scan, names too long, entries
 * that are not processes) and from the real one, and the uname, online
 * CPU and clock fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "srecsys.h"
#include "srecwriter.h"

FIXTURE(fakeproc) {
	char root[64];
};

static void make_dir(const char *root, const char *path)
{
	char full[256];

	snprintf(full, sizeof(full), "%s/%s", root, path);
	if (mkdir(full, 0755) && errno != EEXIST)
		abort();
}

static void make_file(const char *root, const char *path, const char *text)
{
	char full[256];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	f = fopen(full, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

FIXTURE_SETUP(fakeproc)
{
	const char *r;

	snprintf(self->root, sizeof(self->root), "/tmp/srecsys-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	r = self->root;
	make_dir(r, "1");
	make_dir(r, "1/task");
	make_dir(r, "1/task/1");
	make_file(r, "1/task/1/comm", "init\n");
	make_dir(r, "1/task/7");
	make_file(r, "1/task/7/comm", "a-name-much-longer-than-comm\n");
	/* a process whose leader is gone and a thread is left */
	make_dir(r, "20");
	make_dir(r, "20/task");
	make_dir(r, "20/task/20");
	make_dir(r, "20/task/21");
	make_file(r, "20/task/21/comm", "worker");
	/* a process that exited before its task directory was read */
	make_dir(r, "30");
	/* not processes */
	make_dir(r, "self");
	make_dir(r, "sys");
	make_file(r, "uptime", "1.0 2.0\n");
	make_dir(r, "99999999999");
}

FIXTURE_TEARDOWN(fakeproc)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->root);
	if (system(cmd))
		TH_LOG("could not remove %s", self->root);
}

TEST_F(fakeproc, snapshot)
{
	struct srec_thread *threads;
	size_t count;

	ASSERT_EQ(0, srecsys_threads(self->root, &threads, &count));
	ASSERT_EQ(3, count);
	EXPECT_EQ(1, threads[0].tid);
	EXPECT_EQ(1, threads[0].tgid);
	EXPECT_STREQ("init", threads[0].comm);
	EXPECT_EQ(7, threads[1].tid);
	EXPECT_EQ(1, threads[1].tgid);
	EXPECT_STREQ("a-name-much-lon", threads[1].comm);
	EXPECT_EQ(21, threads[2].tid);
	EXPECT_EQ(20, threads[2].tgid);
	EXPECT_STREQ("worker", threads[2].comm);
	free(threads);
}

TEST(snapshot_missing_root)
{
	struct srec_thread *threads;
	size_t count;

	EXPECT_EQ(-ENOENT, srecsys_threads("/nonexistent/proc", &threads,
					   &count));
	EXPECT_EQ(NULL, threads);
	EXPECT_EQ(0, count);
}

/* The real /proc holds this thread, under its own name. */
TEST(snapshot_real_proc)
{
	struct srec_thread *threads;
	char name[16] = "";
	size_t count, i;
	pid_t tid = gettid();
	bool found = false;

	ASSERT_EQ(0, prctl(PR_SET_NAME, "srecsys-probe"));
	ASSERT_EQ(0, prctl(PR_GET_NAME, name));
	ASSERT_EQ(0, srecsys_threads(NULL, &threads, &count));
	ASSERT_LT(1, count);
	for (i = 0; i < count; i++) {
		if (i)
			ASSERT_LT(threads[i - 1].tid, threads[i].tid);
		if (threads[i].tid != (uint32_t)tid)
			continue;
		found = true;
		EXPECT_EQ(getpid(), threads[i].tgid);
		EXPECT_STREQ(name, threads[i].comm);
	}
	EXPECT_TRUE(found);
	free(threads);
}

TEST(machine_fields)
{
	struct srecwriter_header hdr = { 0 };
	struct utsname uts;
	struct srecsys sys;

	ASSERT_EQ(0, uname(&uts));
	ASSERT_EQ(0, srecsys_read(&sys, NULL));
	EXPECT_STREQ(uts.release, sys.uts.release);
	EXPECT_STREQ(uts.nodename, sys.uts.nodename);
	EXPECT_NE(0, strlen(sys.online));
	EXPECT_NE(NULL, strchr("0123456789", sys.online[0]));
	EXPECT_LT(0, sys.start_mono_ns);
	EXPECT_LT(sys.start_mono_ns, sys.start_real_ns);
	EXPECT_LT(0, sys.nr_threads);
	srecsys_fill_header(&sys, &hdr);
	EXPECT_TRUE(hdr.release == sys.uts.release);
	EXPECT_TRUE(hdr.machine == sys.uts.machine);
	EXPECT_TRUE(hdr.online == sys.online);
	EXPECT_EQ(sys.start_mono_ns, hdr.start_mono_ns);
	EXPECT_EQ(sys.threads, hdr.threads);
	EXPECT_EQ(sys.nr_threads, hdr.nr_threads);
	srecsys_free(&sys);
	EXPECT_EQ(NULL, sys.threads);
}

TEST_HARNESS_MAIN
