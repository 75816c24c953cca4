// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading schedrec.ko: the buf_kb parameter is checked, a
 * good load creates every /proc/schedrec file with the documented modes, an
 * unload removes them, and the module cannot go while a CPU file is open or
 * mapped.  Every test leaves the module loaded with default parameters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

static const char *const event_names[] = SCHEDREC_EVENT_NAMES;
static const char *const event_tracepoints[] = SCHEDREC_EVENT_TRACEPOINTS;
static const unsigned int record_sizes[] = SCHEDREC_RECORD_SIZES;

struct proc_file_mode {
	const char *name;
	mode_t mode;
};

static const struct proc_file_mode control_files[] = {
	{ "enable", 0600 },
	{ "events", 0600 },
	{ "mode", 0600 },
	{ "buf_kb", 0600 },
	{ "stats", 0400 },
	{ "format", 0400 },
	{ "sync", 0200 },
};

FIXTURE(module) {
	int unused;
};

FIXTURE_SETUP(module)
{
	const char *path = getenv("SCHEDREC_KO");

	ASSERT_EQ(0, access(path ? path : SR_MODULE_PATH, R_OK))
		TH_LOG("the module is not at %s", path ? path : SR_MODULE_PATH);
}

FIXTURE_TEARDOWN(module)
{
	/* later tests and binaries expect the module loaded, with defaults */
	if (!sr_module_loaded())
		sr_module_load(NULL);
	sr_reset();
	sr_set_buf_kb(1024);
}

/* A parameter the module refuses fails the load with EINVAL: no files. */
TEST_F(module, bad_buf_kb_refused)
{
	static const char *const bad[] = {
		"buf_kb=3", "buf_kb=0", "buf_kb=6", "buf_kb=2",
		"buf_kb=524288", "buf_kb=1048576", "buf_kb=1023",
	};
	unsigned int i;

	ASSERT_EQ(0, sr_module_loaded() ? sr_module_unload_wait() : 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, sr_module_load(bad[i]))
			TH_LOG("insmod schedrec.ko %s", bad[i]);
		EXPECT_FALSE(sr_module_loaded());
		if (sr_module_loaded())
			ASSERT_EQ(0, sr_module_unload_wait());
	}
	/* the limits themselves are fine */
	ASSERT_EQ(0, sr_module_load("buf_kb=4"));
	ASSERT_EQ(0, sr_module_unload_wait());
}

TEST_F(module, load_creates_files)
{
	uint64_t buf_kb;
	char name[64];
	struct stat st;
	int nr_cpus, cpu;
	unsigned int i;

	ASSERT_EQ(0, sr_module_reload("buf_kb=64"));
	ASSERT_EQ(0, stat(SCHEDREC_PROC_DIR, &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	for (i = 0; i < ARRAY_SIZE(control_files); i++) {
		snprintf(name, sizeof(name), SCHEDREC_PROC_DIR "/%s",
			 control_files[i].name);
		ASSERT_EQ(0, stat(name, &st)) TH_LOG("%s missing", name);
		EXPECT_TRUE(S_ISREG(st.st_mode));
		EXPECT_EQ(control_files[i].mode, st.st_mode & 07777)
			TH_LOG("%s has mode %o", name, st.st_mode & 07777);
		EXPECT_EQ(0u, st.st_uid);
	}
	/* one CPU file per possible CPU, numbered from 0, at least online */
	nr_cpus = sr_nr_cpus();
	ASSERT_GE(nr_cpus, sr_nr_online_cpus());
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(name, sizeof(name), SCHEDREC_PROC_DIR "/cpu/%d", cpu);
		ASSERT_EQ(0, stat(name, &st)) TH_LOG("%s missing", name);
		EXPECT_EQ(0600u, st.st_mode & 07777);
	}
	ASSERT_EQ(0, procfile_read_u64("buf_kb", &buf_kb));
	EXPECT_EQ(64u, buf_kb);
}

/* A fresh module: stopped, stream mode, every event, 1024 KiB rings. */
TEST_F(module, default_state)
{
	struct procfile_stats stats;
	uint64_t value;
	uint32_t mask;
	char buf[64];
	unsigned int cpu;

	ASSERT_EQ(0, sr_module_reload(NULL));
	ASSERT_EQ(0, procfile_read_u64("enable", &value));
	EXPECT_EQ(0u, value);
	ASSERT_EQ(0, procfile_read_u64("buf_kb", &value));
	EXPECT_EQ(1024u, value);
	ASSERT_LT(0, procfile_read("mode", buf, sizeof(buf)));
	EXPECT_STREQ("stream\n", buf);
	ASSERT_EQ(0, procfile_events_mask(&mask));
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK, mask);
	ASSERT_EQ(0, procfile_stats_read(&stats));
	EXPECT_FALSE(stats.enabled);
	EXPECT_FALSE(stats.overwrite);
	EXPECT_EQ(1024u, stats.buf_kb);
	EXPECT_EQ(SCHEDREC_EV_ALL_MASK, stats.events);
	EXPECT_EQ((unsigned int)sr_nr_cpus(), stats.nr_cpus);
	for (cpu = 0; cpu < stats.nr_cpus; cpu++) {
		EXPECT_EQ(0u, stats.cpu[cpu].written);
		EXPECT_EQ(0u, stats.cpu[cpu].lost);
		EXPECT_EQ(0u, stats.cpu[cpu].head);
	}
	procfile_stats_free(&stats);
}

/* format describes the ABI of include/uapi/schedrec.h, record by record. */
TEST_F(module, format_matches_abi)
{
	char format[8192], line[256];
	unsigned int type;

	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_LT(0, procfile_read("format", format, sizeof(format)));
	snprintf(line, sizeof(line), "abi_version %u\n", SCHEDREC_ABI_VERSION);
	EXPECT_NE(NULL, strstr(format, line)) TH_LOG("no '%s'", line);
	EXPECT_NE(NULL, strstr(format, "clock CLOCK_MONOTONIC\n"));
	snprintf(line, sizeof(line), "page_size %ld\n",
		 sysconf(_SC_PAGESIZE));
	EXPECT_NE(NULL, strstr(format, line)) TH_LOG("no '%s'", line);
	EXPECT_NE(NULL, strstr(format, "record_align 16\n"));
	EXPECT_NE(NULL, strstr(format,
		"header size=16 ts:0:8 seq:8:4 size:12:2 type:14:1 flags:15:1\n"));
	for (type = SCHEDREC_EV_FIRST; type <= SCHEDREC_REC_MAX; type++) {
		char size[32] = "size=variable";

		if (record_sizes[type])
			snprintf(size, sizeof(size), "size=%u",
				 record_sizes[type]);
		snprintf(line, sizeof(line), "\nrecord %u %s %s %s", type,
			 event_names[type],
			 SCHEDREC_EV_IS_EVENT(type) ? event_tracepoints[type] :
			 "-", size);
		EXPECT_NE(NULL, strstr(format, line)) TH_LOG("no '%s'", line);
	}
	EXPECT_NE(NULL, strstr(format,
		"switch sched_switch size=32 prev_tid:16:4 next_tid:20:4 prev_state:24:4 prev_prio:28:2 next_prio:30:2\n"));
	EXPECT_NE(NULL, strstr(format,
		"fork sched_process_fork size=48 tid:16:4 tgid:20:4 other_tid:24:4 comm:32:16\n"));
	EXPECT_NE(NULL, strstr(format,
		"lost - size=48 count:16:8 first_ts:24:8 last_ts:32:8\n"));
	EXPECT_NE(NULL, strstr(format, "\nrecord 11 pad - size=variable\n"));
	EXPECT_NE(NULL, strstr(format,
		"\nrecord 12 stack sched_switch size=variable tid:16:4 nr:20:2 ips:24:8[nr]\n"));
	EXPECT_NE(NULL, strstr(format, "\nstack_max_depth 32\n"));
}

TEST_F(module, unload_removes_files)
{
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_module_unload_wait());
	EXPECT_FALSE(sr_module_loaded());
	EXPECT_EQ(-1, access(SCHEDREC_PROC_DIR "/enable", F_OK));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, access(SCHEDREC_PROC_DIR "/cpu/0", F_OK));
	ASSERT_EQ(0, sr_module_load(NULL));
	EXPECT_TRUE(sr_module_loaded());
}

/*
 * A control file does not pin the module: procfs revokes it on unload and
 * the stale descriptor fails cleanly afterwards.
 */
TEST_F(module, unload_with_control_file_open)
{
	char buf[64];
	int fd;

	ASSERT_EQ(0, sr_module_ensure());
	fd = open(SCHEDREC_PROC_DIR "/stats", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sr_module_unload_wait());
	EXPECT_GT(0, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0, close(fd));
	ASSERT_EQ(0, sr_module_load(NULL));
}

/* Unloading while recording stops the probes first. */
TEST_F(module, unload_while_recording)
{
	uint64_t enabled;

	ASSERT_EQ(0, sr_module_reload("buf_kb=16"));
	ASSERT_EQ(0, procfile_write("events", "all"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(200, -1, -1));
	ASSERT_EQ(0, sr_module_unload_wait());
	EXPECT_FALSE(sr_module_loaded());
	/* a reload starts stopped */
	ASSERT_EQ(0, sr_module_load(NULL));
	ASSERT_EQ(0, procfile_read_u64("enable", &enabled));
	EXPECT_EQ(0u, enabled);
}

/* An open CPU file holds the module. */
TEST_F(module, unload_refused_while_open)
{
	int fd, ret;

	ASSERT_EQ(0, sr_module_ensure());
	fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);
	ASSERT_LE(0, fd);
	ret = sr_module_unload();
	EXPECT_TRUE(ret == -EAGAIN || ret == -EBUSY)
		TH_LOG("delete_module with cpu/0 open: %d", ret);
	EXPECT_TRUE(sr_module_loaded());
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, sr_module_unload());
	ASSERT_EQ(0, sr_module_load(NULL));
}

/* A mapping holds the module even once the descriptor is closed. */
TEST_F(module, unload_refused_while_mapped)
{
	long page = sysconf(_SC_PAGESIZE);
	struct schedrec_ring_ctrl *ctrl;
	const void *data;
	size_t data_size;
	int fd, ret;

	ASSERT_EQ(0, sr_module_reload("buf_kb=8"));
	fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, fd);
	ctrl = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	data_size = ctrl->data_size;
	ASSERT_EQ(8192u, data_size);
	data = mmap(NULL, data_size, PROT_READ, MAP_SHARED, fd, page);
	ASSERT_NE(MAP_FAILED, data);
	ASSERT_EQ(0, close(fd));

	ret = sr_module_unload();
	EXPECT_TRUE(ret == -EAGAIN || ret == -EBUSY)
		TH_LOG("delete_module while mapped: %d", ret);
	ASSERT_TRUE(sr_module_loaded());
	/* the mapping still works */
	EXPECT_EQ((__u32)SCHEDREC_ABI_VERSION, ctrl->abi_version);
	ASSERT_EQ(0, munmap(ctrl, page));
	/* the data mapping alone still holds it */
	ret = sr_module_unload();
	EXPECT_TRUE(ret == -EAGAIN || ret == -EBUSY)
		TH_LOG("delete_module with data mapped: %d", ret);
	ASSERT_EQ(0, munmap((void *)data, data_size));
	ASSERT_EQ(0, sr_module_unload());
	EXPECT_FALSE(sr_module_loaded());
	ASSERT_EQ(0, sr_module_load(NULL));
}

TEST_HARNESS_MAIN
