// SPDX-License-Identifier: GPL-2.0
/*
 * Who may do what: only root opens the files; the data area can never be
 * mapped writable; the control page can, and the kernel survives whatever
 * is stored in it; one reader per ring.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

#define NOBODY	65534

FIXTURE(access) {
	int fd;
	long page;
	size_t data_size;
	struct procfile_stats stats;
};

FIXTURE_SETUP(access)
{
	self->fd = -1;
	self->page = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(64));
	self->data_size = 64 * 1024;
}

FIXTURE_TEARDOWN(access)
{
	if (self->fd >= 0)
		close(self->fd);
	procfile_stats_free(&self->stats);
	sr_reset();
	sr_set_buf_kb(1024);
}

/*
 * In a child that gave up root: every open of every file must fail with
 * EACCES.  Returns the number of opens that did not.
 */
static int open_all_as_nobody(int nr_cpus)
{
	static const char *const names[] = {
		"enable", "events", "mode", "buf_kb", "stats", "format",
		"sync",
	};
	static const int flags[] = { O_RDONLY, O_WRONLY, O_RDWR };
	char path[64];
	unsigned int i, f;
	int cpu, bad = 0, fd;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) ||
	    geteuid() != NOBODY)
		return 100;
	for (i = 0; i < ARRAY_SIZE(names) + nr_cpus; i++) {
		if (i < ARRAY_SIZE(names))
			snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/%s",
				 names[i]);
		else
			snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%u",
				 (unsigned int)(i - ARRAY_SIZE(names)));
		for (f = 0; f < ARRAY_SIZE(flags); f++) {
			fd = open(path, flags[f]);
			if (fd < 0 && errno == EACCES)
				continue;
			fprintf(stderr, "# uid %d: open(%s, %d): %s\n",
				NOBODY, path, flags[f],
				fd < 0 ? strerror(errno) : "opened");
			if (fd >= 0)
				close(fd);
			bad++;
		}
	}
	/*
	 * The directories may be listed: this also proves that the EACCES
	 * above came from the files' modes, not from a path we could not
	 * walk (an initramfs whose root is 0700, say).
	 */
	cpu = sr_nr_cpus();
	if (cpu != nr_cpus) {
		fprintf(stderr, "# uid %d: cannot list " SCHEDREC_PROC_DIR
			"/cpu (%s): the EACCES above prove nothing\n",
			NOBODY, cpu < 0 ? strerror(-cpu) : "wrong count");
		bad++;
	}
	return bad;
}

TEST_F(access, unprivileged_open_refused)
{
	int nr_cpus = sr_nr_cpus();
	pid_t pid;

	ASSERT_LT(0, nr_cpus);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(open_all_as_nobody(nr_cpus));
	EXPECT_EQ(0, sr_wait_child_ok(pid));
}

TEST_F(access, data_never_writable)
{
	void *map;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);

	/* the data, writable */
	map = mmap(NULL, self->data_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   self->fd, self->page);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(EPERM, errno);
	map = mmap(NULL, self->page, PROT_WRITE, MAP_SHARED, self->fd,
		   self->page);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(EPERM, errno);
	/* control page and data in one writable mapping */
	map = mmap(NULL, self->page + self->data_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(EPERM, errno);

	/* read-only is fine, but it cannot become writable */
	map = mmap(NULL, self->data_size, PROT_READ, MAP_SHARED, self->fd,
		   self->page);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(-1, mprotect(map, self->data_size, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-1, mprotect(map, self->page, PROT_WRITE));
	EXPECT_EQ(0, munmap(map, self->data_size));

	/* nor can the control page once it shares a mapping with data */
	map = mmap(NULL, self->page + self->data_size, PROT_READ, MAP_SHARED,
		   self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(-1, mprotect(map, self->page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, munmap(map, self->page + self->data_size));
}

TEST_F(access, mapping_bounds)
{
	void *map;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	/* past the end of the data */
	map = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
		   self->page + self->data_size);
	EXPECT_EQ(MAP_FAILED, map);
	map = mmap(NULL, self->data_size + self->page, PROT_READ, MAP_SHARED,
		   self->fd, self->page);
	EXPECT_EQ(MAP_FAILED, map);
	/* a private copy of the control page would never reach the kernel */
	map = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		   self->fd, 0);
	EXPECT_EQ(MAP_FAILED, map);
	/* all of it, read-only, is one valid mapping */
	map = mmap(NULL, self->page + self->data_size, PROT_READ, MAP_SHARED,
		   self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(0, munmap(map, self->page + self->data_size));
}

/* The control page maps writable and says what the ring is. */
TEST_F(access, control_page)
{
	struct schedrec_ring_ctrl *ctrl;
	int cpu, nr_cpus = sr_nr_cpus();
	char path[64];

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%d", cpu);
		self->fd = open(path, O_RDWR);
		ASSERT_LE(0, self->fd);
		ctrl = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
			    MAP_SHARED, self->fd, 0);
		ASSERT_NE(MAP_FAILED, ctrl);
		EXPECT_EQ((__u32)SCHEDREC_ABI_VERSION, ctrl->abi_version);
		EXPECT_EQ((__u32)cpu, ctrl->cpu);
		EXPECT_EQ((__u32)self->page, ctrl->page_size);
		EXPECT_EQ((__u32)SCHEDREC_MODE_STREAM, ctrl->mode);
		EXPECT_EQ(self->data_size, ctrl->data_size);
		ctrl->tail = 0;
		EXPECT_EQ(0, munmap(ctrl, self->page));
		close(self->fd);
		self->fd = -1;
	}
}

/* Every field of @ctrl the kernel writes, to garbage. */
static void scribble(struct schedrec_ring_ctrl *ctrl)
{
	ctrl->abi_version = 0xdeadbeef;
	ctrl->cpu = 0xdeadbeef;
	ctrl->page_size = 3;
	ctrl->data_size = 12345;
	ctrl->mode = 77;
}

static void expect_ctrl_true(struct __test_metadata *_metadata,
			     const struct schedrec_ring_ctrl *ctrl, int cpu,
			     long page, size_t data_size, const char *when)
{
	EXPECT_EQ((__u32)SCHEDREC_ABI_VERSION, ctrl->abi_version)
		TH_LOG("%s", when);
	EXPECT_EQ((__u32)cpu, ctrl->cpu) TH_LOG("%s", when);
	EXPECT_EQ((__u32)page, ctrl->page_size) TH_LOG("%s", when);
	EXPECT_EQ(data_size, ctrl->data_size) TH_LOG("%s", when);
	EXPECT_EQ((__u32)SCHEDREC_MODE_STREAM, ctrl->mode) TH_LOG("%s", when);
}

/*
 * Garbage a reader writes over the fields that describe the ring does not
 * outlive it: the next open finds them true, and so does a reader after
 * the next start of recording.
 */
TEST_F(access, control_page_garbage_rewritten)
{
	const char *path = SCHEDREC_PROC_DIR "/cpu/0";
	struct schedrec_ring_ctrl *ctrl;

	self->fd = open(path, O_RDWR);
	ASSERT_LE(0, self->fd);
	ctrl = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_SHARED,
		    self->fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	scribble(ctrl);
	ASSERT_EQ(0, procfile_write("events", "none"));
	ASSERT_EQ(0, sr_enable(true));
	expect_ctrl_true(_metadata, ctrl, 0, self->page, self->data_size,
			 "after enable");
	ASSERT_EQ(0, sr_enable(false));
	scribble(ctrl);
	EXPECT_EQ(0, munmap(ctrl, self->page));
	close(self->fd);

	self->fd = open(path, O_RDONLY);
	ASSERT_LE(0, self->fd);
	ctrl = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	expect_ctrl_true(_metadata, ctrl, 0, self->page, self->data_size,
			 "after a new open");
	EXPECT_EQ(0, munmap(ctrl, self->page));
}

/*
 * A reader that opened its CPU file read-only may still map the ring
 * read-only: nothing in it would let it write.
 */
TEST_F(access, read_only_open_maps_read_only)
{
	struct schedrec_ring_ctrl *ctrl;
	void *data;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);
	ASSERT_LE(0, self->fd);
	ctrl = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_NE(MAP_FAILED, ctrl) TH_LOG("control page: %s",
					   strerror(errno));
	data = mmap(NULL, self->data_size, PROT_READ, MAP_SHARED, self->fd,
		    self->page);
	EXPECT_NE(MAP_FAILED, data) TH_LOG("data: %s", strerror(errno));
	/* and writable needs a writable open, as for any file */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, self->page, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, 0));
	if (ctrl != MAP_FAILED)
		munmap(ctrl, self->page);
	if (data != MAP_FAILED)
		munmap(data, self->data_size);
}

TEST_F(access, one_reader_per_ring)
{
	struct ringreader rr;
	int fd;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(-1, open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-EBUSY, ringreader_open(&rr, 0));
	/* other rings are independent */
	if (sr_nr_cpus() > 1) {
		fd = open(SCHEDREC_PROC_DIR "/cpu/1", O_RDONLY);
		EXPECT_LE(0, fd);
		close(fd);
	}
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, ringreader_open(&rr, 0));
	ringreader_close(&rr);
	fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);
	EXPECT_LE(0, fd);
	close(fd);
}

/* Where stats says a reader of CPU 0 starts is a sane position. */
static void check_cpu0_positions(struct __test_metadata *_metadata,
				 struct procfile_stats *stats, uint64_t size)
{
	const struct procfile_cpu_stats *st;

	procfile_stats_free(stats);
	ASSERT_EQ(0, procfile_stats_read(stats));
	st = &stats->cpu[0];
	EXPECT_EQ(0u, st->tail % SCHEDREC_RECORD_ALIGN);
	EXPECT_LE(0, (int64_t)(st->head - st->tail));
	EXPECT_GE(size, st->head - st->tail);
}

/*
 * Whatever a reader stores as its tail, the kernel clamps it: recording
 * goes on, the positions stats reports stay sane, and once the reader
 * stores a good tail again it reads good records from there.
 */
TEST_F(access, hostile_tail_clamped)
{
	const struct schedrec_header *rec;
	struct ringreader rr;
	struct ringreader_seq seq;
	uint64_t hostile[5], written;
	unsigned int i;

	ASSERT_EQ(0, ringreader_open(&rr, 0));
	ASSERT_EQ(0, procfile_write("events", "switch waking wakeup"));
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(20, 0, 0));
	hostile[0] = ~0ull;
	hostile[1] = rr.ctrl->head + 4096;
	hostile[2] = 7;
	hostile[3] = rr.ctrl->head + 12345;
	hostile[4] = rr.ctrl->head - 3 * rr.data_size;
	for (i = 0; i < ARRAY_SIZE(hostile); i++) {
		__atomic_store_n(&rr.ctrl->tail, hostile[i], __ATOMIC_RELEASE);
		ASSERT_EQ(0, sr_pingpong(20, 0, 0));
		check_cpu0_positions(_metadata, &self->stats, rr.data_size);
	}
	written = self->stats.cpu[0].written;
	EXPECT_LT(0u, written);

	/* a good tail again: from there, everything is in order */
	__atomic_store_n(&rr.ctrl->tail,
			 __atomic_load_n(&rr.ctrl->head, __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
	ASSERT_EQ(0, sr_pingpong(20, 0, 0));
	ASSERT_EQ(0, sr_enable(false));
	ASSERT_LT(0, ringreader_begin(&rr));
	ringreader_seq_init(&seq, RINGREADER_SEQ_ANY);
	while (ringreader_next(&rr, &rec) > 0)
		ringreader_seq_account(&seq, rec, NULL);
	EXPECT_EQ(rr.pos, rr.head);
	EXPECT_EQ(0u, seq.missing);
	EXPECT_LT(80u, seq.records);
	ringreader_consume(&rr);
	check_cpu0_positions(_metadata, &self->stats, rr.data_size);
	EXPECT_EQ(self->stats.cpu[0].head, self->stats.cpu[0].tail);
	EXPECT_LT(written, self->stats.cpu[0].written);
	ringreader_close(&rr);
}

TEST_HARNESS_MAIN
