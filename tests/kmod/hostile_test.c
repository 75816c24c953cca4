// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input (fault drills of issue 44): what no tool of ours writes or
 * maps, and a confused or malicious root process may.
 *
 * The control files: seeded random bytes, each write checked against a
 * model of doc/procfs.md (accepted or refused, with which errno, and the
 * settings after it); numbers at the edges of u32 and u64; a value split
 * in two write() calls (each is understood alone); a write whose buffer
 * runs into an unmapped page; two writers at once.  The CPU files: odd
 * mapping offsets and lengths, MAP_PRIVATE, mremap() growing and moving,
 * partial munmap(), fork() with a mapping (copied or not), writes through
 * /proc/self/mem.  Each is refused or behaves, and changes nothing else.
 * Last, a seeded random run of all of it (open, mmap, munmap, read, poll,
 * control writes, rmmod, insmod) after which the module records right.
 *
 * The seed is printed; SCHEDREC_SEED=N repeats a run.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#include "common.h"
#include "procfile.h"

#define CONTROL_WRITE_MAX	256	/* kmod/control.c: longer is refused */
#define TRACE			"/tmp/hostile_test.srec"
#define ERR_FILE		"/tmp/hostile_test.err"

static const char *const event_names[] = SCHEDREC_EVENT_NAMES;
static const char *const event_tracepoints[] = SCHEDREC_EVENT_TRACEPOINTS;

static uint64_t rnd_state;

static void rnd_seed(uint64_t seed)
{
	rnd_state = seed ? seed : 1;
}

/* xorshift64* */
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dull;
}

static unsigned int rnd_below(unsigned int n)
{
	return (rnd() >> 32) % n;
}

/* $SCHEDREC_SEED, or one from the clock; printed, for a rerun */
static uint64_t test_seed(const char *test)
{
	const char *env = getenv("SCHEDREC_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) :
		(sr_now_ns() ^ ((uint64_t)getpid() << 32)) % 1000000007ull;

	fprintf(stderr, "# %s: seed %llu (SCHEDREC_SEED=%llu repeats it)\n",
		test, (unsigned long long)seed, (unsigned long long)seed);
	return seed;
}

/* The settings, as the module's stats say or as the model expects. */
struct settings {
	bool enabled, overwrite;
	unsigned int buf_kb;
	uint32_t events;
};

static int settings_read(struct settings *s)
{
	struct procfile_stats st;
	int ret = procfile_stats_read(&st);

	if (ret)
		return ret;
	s->enabled = st.enabled;
	s->overwrite = st.overwrite;
	s->buf_kb = st.buf_kb;
	s->events = st.events;
	procfile_stats_free(&st);
	return 0;
}

static bool settings_equal(const struct settings *a, const struct settings *b)
{
	return a->enabled == b->enabled && a->overwrite == b->overwrite &&
	       a->buf_kb == b->buf_kb && a->events == b->events;
}

/*
 * The model of doc/procfs.md.  A number is what kstrtouint(s, 10) takes:
 * an optional '+', decimal digits, one optional newline, at most
 * UINT32_MAX.
 */
static int model_uint(const char *s, size_t len, unsigned int *val)
{
	uint64_t v = 0;
	size_t i = 0, digits = 0;

	if (i < len && s[i] == '+')
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		v = v * 10 + (s[i] - '0');
		if (v > UINT32_MAX)
			v = UINT32_MAX + 1ull;	/* over, and stays over */
	}
	if (i < len && s[i] == '\n')
		i++;
	if (!digits || i != len || v > UINT32_MAX)
		return -EINVAL;
	*val = v;
	return 0;
}

static int model_event_id(const char *name)
{
	unsigned int id;

	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
		if (SCHEDREC_EV_IS_EVENT(id) &&
		    (!strcmp(name, event_names[id]) ||
		     !strcmp(name, event_tracepoints[id])))
			return id;
	return -EINVAL;
}

/* "0x" and hex digits, a valid mask */
static int model_hex(const char *token, uint32_t *mask)
{
	uint64_t v = 0;
	const char *p;

	if (!token[2])
		return -EINVAL;
	for (p = token + 2; *p; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return -EINVAL;
		v = v * 16 + d;
		if (v > UINT32_MAX)
			v = UINT32_MAX + 1ull;
	}
	if (v > UINT32_MAX || (v & ~(uint64_t)SCHEDREC_EV_VALID_MASK))
		return -EINVAL;
	*mask = v;
	return 0;
}

static int model_events(const char *text, uint32_t *mask)
{
	char copy[CONTROL_WRITE_MAX], *buf = copy, *token;
	uint32_t val = *mask;
	bool bare_seen = false;
	int id, n = 0;

	snprintf(copy, sizeof(copy), "%s", text);
	while ((token = strsep(&buf, " ,\t\n")) != NULL) {
		if (!*token)
			continue;
		n++;
		if (!strcmp(token, "all")) {
			val = SCHEDREC_EV_ALL_MASK;
		} else if (!strcmp(token, "none")) {
			val = 0;
		} else if (!strncmp(token, "0x", 2)) {
			if (model_hex(token, &val))
				return -EINVAL;
		} else if (*token == '+' || *token == '-') {
			id = model_event_id(token + 1);
			if (id < 0)
				return id;
			if (*token == '+')
				val |= 1u << id;
			else
				val &= ~(1u << id);
		} else {
			id = model_event_id(token);
			if (id < 0)
				return id;
			if (!bare_seen)
				val = 0;
			val |= 1u << id;
			bare_seen = true;
		}
	}
	if (!n)
		return -EINVAL;
	*mask = val;
	return 0;
}

/* equal, or @name and one newline */
static bool model_word(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);

	return (len == n || (len == n + 1 && text[n] == '\n')) &&
	       !strncmp(text, name, n);
}

static bool model_buf_kb_valid(unsigned int kb, long page)
{
	return kb >= 4 && kb <= 262144 && !(kb & (kb - 1)) &&
	       (uint64_t)kb * 1024 >= (uint64_t)page;
}

/*
 * What writing @len bytes of @data to control file @file does to @s, with
 * @readers CPU files open: 0 or -errno, @s updated.
 */
static int model_write(const char *file, const char *data, size_t len,
		       struct settings *s, bool readers)
{
	char text[CONTROL_WRITE_MAX];
	unsigned int val;
	uint32_t mask;

	if (!len || len >= CONTROL_WRITE_MAX || memchr(data, 0, len))
		return -EINVAL;
	memcpy(text, data, len);
	text[len] = '\0';
	if (!strcmp(file, "enable")) {
		if (model_uint(text, len, &val) || val > 1)
			return -EINVAL;
		s->enabled = val;
	} else if (!strcmp(file, "events")) {
		mask = s->events;
		if (model_events(text, &mask))
			return -EINVAL;
		s->events = mask;
	} else if (!strcmp(file, "mode")) {
		bool overwrite = model_word(text, len, "overwrite");

		if (!overwrite && !model_word(text, len, "stream"))
			return -EINVAL;
		if (s->enabled)
			return -EBUSY;
		s->overwrite = overwrite;
	} else if (!strcmp(file, "buf_kb")) {
		if (model_uint(text, len, &val) ||
		    !model_buf_kb_valid(val, sysconf(_SC_PAGESIZE)))
			return -EINVAL;
		if (s->enabled || readers)
			return -EBUSY;
		s->buf_kb = val;
	} else if (!strcmp(file, "sync")) {
		if (model_uint(text, len, &val) || val != 1)
			return -EINVAL;
	}
	return 0;
}

/* @len bytes of @data to /proc/schedrec/@file in one write(): 0 or -errno */
static int write_bytes(const char *file, const void *data, size_t len)
{
	char path[128];
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	ret = n < 0 ? -errno : n == (ssize_t)len ? 0 : -EIO;
	close(fd);
	return ret;
}

static void log_bytes(const char *what, const char *data, size_t len)
{
	char out[4 * CONTROL_WRITE_MAX + 1], *p = out;
	size_t i;

	for (i = 0; i < len && i < CONTROL_WRITE_MAX; i++) {
		unsigned char c = data[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			*p++ = c;
		else
			p += sprintf(p, "\\x%02x", c);
	}
	*p = '\0';
	fprintf(stderr, "# %s: %zu bytes \"%s\"\n", what, len, out);
}

/*
 * Write @data to @file and compare with the model, from the model's
 * settings *@s (updated): 0 if the module did what the model said (the
 * write's result in *@ret), -1 if not (logged).
 */
static int checked_write(const char *file, const char *data, size_t len,
			 struct settings *s, int *ret)
{
	struct settings want = *s, now;
	int expect = model_write(file, data, len, &want, false);

	*ret = write_bytes(file, data, len);
	if (settings_read(&now)) {
		fprintf(stderr, "# stats unreadable\n");
		return -1;
	}
	if (*ret == expect && settings_equal(&now, &want)) {
		*s = want;
		return 0;
	}
	log_bytes(file, data, len);
	fprintf(stderr, "# returned %d, the model %d; now enabled=%d overwrite=%d buf_kb=%u events=0x%x, the model enabled=%d overwrite=%d buf_kb=%u events=0x%x\n",
		*ret, expect, now.enabled, now.overwrite, now.buf_kb,
		now.events, want.enabled, want.overwrite, want.buf_kb,
		want.events);
	*s = now;
	return -1;
}

FIXTURE(hostile) {
	int fd;
	long page;
	size_t data_size;	/* of a 64 KiB ring */
	struct settings start;
	pid_t load;
};

FIXTURE_SETUP(hostile)
{
	self->fd = -1;
	self->load = 0;
	self->page = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(64));
	self->data_size = 64 * 1024;
	ASSERT_EQ(0, settings_read(&self->start));
}

FIXTURE_TEARDOWN(hostile)
{
	if (self->load > 0) {
		kill(-self->load, SIGKILL);
		waitpid(self->load, NULL, 0);
	}
	if (self->fd >= 0)
		close(self->fd);
	sr_module_ensure();
	sr_reset();
	sr_set_buf_kb(1024);
	unlink(TRACE);
	unlink(ERR_FILE);
}

/* The control files that take writes, and values each understands. */
static const char *const control_files[] = {
	"enable", "events", "mode", "buf_kb", "sync",
};

static const char *const good_values[][8] = {
	{ "0", "1", "0\n", "+0", NULL },
	{ "all", "none", "switch waking", "+exit,-switch", "0x206",
	  "sched_switch\tstack", "-waking", NULL },
	{ "stream", "overwrite", "stream\n", NULL },
	{ "4", "8", "16", "64", "1024\n", "+32", NULL },
	{ "1", "1\n", NULL },
};

static const char soup[] = "0123456789+-x\n \t,\r\377allnoneswitchwakingstack";

/* A write for control file @f: random, soup, or a valid value mutated. */
static size_t make_input(unsigned int f, char *buf)
{
	const char *const *values = good_values[f];
	unsigned int nr, i, kind = rnd_below(4), edits;
	size_t len = 0;

	for (nr = 0; values[nr]; nr++)
		;
	switch (kind) {
	case 0:		/* bytes, any */
		len = 1 + rnd_below(rnd_below(8) ? 16 : CONTROL_WRITE_MAX + 8);
		for (i = 0; i < len; i++)
			buf[i] = rnd();
		return len;
	case 1:		/* bytes that parsers look at */
		len = 1 + rnd_below(12);
		for (i = 0; i < len; i++)
			buf[i] = soup[rnd_below(sizeof(soup) - 1)];
		return len;
	}
	len = strlen(values[rnd_below(nr)]);
	memcpy(buf, values[rnd_below(nr)], len + 1);
	len = strlen(buf);
	if (kind == 3)
		return len;
	for (edits = 1 + rnd_below(3); edits; edits--) {
		unsigned int at = rnd_below(len + 1);
		char c = rnd_below(4) ? soup[rnd_below(sizeof(soup) - 1)] :
					(char)rnd();

		switch (rnd_below(4)) {
		case 0:		/* insert */
			if (len + 1 >= CONTROL_WRITE_MAX)
				break;
			memmove(buf + at + 1, buf + at, len - at);
			buf[at] = c;
			len++;
			break;
		case 1:		/* delete */
			if (at < len && len > 1) {
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
			}
			break;
		case 2:		/* replace */
			if (at < len)
				buf[at] = c;
			break;
		default:	/* a '+', a space or a newline at one end */
			if (len + 1 >= CONTROL_WRITE_MAX)
				break;
			if (rnd_below(2)) {
				memmove(buf + 1, buf, len);
				buf[0] = "+\n -0"[rnd_below(5)];
			} else {
				buf[len] = "\n\n \0"[rnd_below(4)];
			}
			len++;
			break;
		}
	}
	return len;
}

#define RANDOM_WRITES		3000
#define RANDOM_WRITES_S		12

/*
 * Seeded random writes to every control file: random bytes (up to 264),
 * bytes that parsers look at, and valid values with bytes inserted,
 * deleted or replaced.  Each one the module accepts or refuses as the
 * model says, with the model's errno, and the settings after it are the
 * model's.  (A buf_kb above 1024 the model would accept is not written:
 * it would take the guest's memory.)
 */
TEST_F_TIMEOUT(hostile, random_writes_as_documented, 60)
{
	uint64_t end = sr_now_ns() + RANDOM_WRITES_S * 1000000000ull;
	unsigned int n, f, accepted = 0, refused = 0, busy = 0, bad = 0;
	char buf[CONTROL_WRITE_MAX + 16];
	struct settings s = self->start, probe;
	int ret;

	rnd_seed(test_seed("random_writes_as_documented"));
	for (n = 0; n < RANDOM_WRITES && sr_now_ns() < end && bad < 5; n++) {
		size_t len;

		f = rnd_below(ARRAY_SIZE(control_files));
		len = make_input(f, buf);
		probe = s;
		if (!model_write(control_files[f], buf, len, &probe, false) &&
		    probe.buf_kb > 1024)
			continue;
		if (checked_write(control_files[f], buf, len, &s, &ret))
			bad++;
		if (!ret)
			accepted++;
		else if (ret == -EBUSY)
			busy++;
		else
			refused++;
	}
	fprintf(stderr, "# %u writes: %u accepted, %u EBUSY, %u refused\n",
		n, accepted, busy, refused);
	EXPECT_EQ(0u, bad);
	EXPECT_LT(50u, accepted);
}

struct edge {
	const char *file;
	const char *text;
	int expect;
};

/* Numbers at the edges, signs, spaces, newlines: in order, from stopped */
static const struct edge edges[] = {
	{ "enable", "4294967295", -EINVAL },		/* UINT32_MAX */
	{ "enable", "4294967296", -EINVAL },		/* 2^32 */
	{ "enable", "4294967297", -EINVAL },		/* 2^32 + 1: 1 if wrapped */
	{ "enable", "18446744073709551615", -EINVAL },	/* UINT64_MAX */
	{ "enable", "18446744073709551616", -EINVAL },	/* 2^64 */
	{ "enable", "18446744073709551617", -EINVAL },	/* 2^64 + 1 */
	{ "enable", "-1", -EINVAL },
	{ "enable", "-0", -EINVAL },
	{ "enable", " 1", -EINVAL },
	{ "enable", "1 ", -EINVAL },
	{ "enable", "\t1", -EINVAL },
	{ "enable", "1\r\n", -EINVAL },
	{ "enable", "\n1", -EINVAL },
	{ "enable", "++1", -EINVAL },
	{ "enable", "+", -EINVAL },
	{ "enable", "\n", -EINVAL },
	{ "enable", "1e0", -EINVAL },
	{ "enable", "+1", 0 },				/* kstrtouint's '+' */
	{ "enable", "0\n", 0 },
	{ "enable", "00000000000000000000000000000001\n", 0 },
	{ "enable", "0", 0 },
	{ "buf_kb", "0", -EINVAL },
	{ "buf_kb", "4294967295", -EINVAL },
	{ "buf_kb", "4294967296", -EINVAL },
	{ "buf_kb", "4294967304", -EINVAL },		/* 2^32 + 8 */
	{ "buf_kb", "18446744073709551615", -EINVAL },
	{ "buf_kb", "18446744073709551616", -EINVAL },
	{ "buf_kb", "18446744073709551624", -EINVAL },	/* 2^64 + 8 */
	{ "buf_kb", "2147483648", -EINVAL },		/* 2^31 */
	{ "buf_kb", "524288", -EINVAL },
	{ "buf_kb", "-8", -EINVAL },
	{ "buf_kb", "8 ", -EINVAL },
	{ "buf_kb", "8\n\n", -EINVAL },
	{ "buf_kb", "+8", 0 },
	{ "buf_kb", "0016\n", 0 },
	{ "buf_kb", "4", 0 },
	{ "sync", "4294967297", -EINVAL },
	{ "sync", "18446744073709551617", -EINVAL },
	{ "sync", "0", -EINVAL },
	{ "sync", "-1", -EINVAL },
	{ "sync", "+1\n", 0 },
	{ "events", "0xffffffff", -EINVAL },
	{ "events", "0x100000002", -EINVAL },		/* 2 if truncated */
	{ "events", "0x10000000000000002", -EINVAL },	/* 2 if wrapped */
	{ "events", "0x-2", -EINVAL },
	{ "events", "0X2", -EINVAL },
	{ "events", "+0x2", -EINVAL },
	{ "events", "switch\r", -EINVAL },
	{ "events", "\n\n", -EINVAL },
	{ "events", "0x0", 0 },
	{ "events", "0x00000000000000000000000002", 0 },
	{ "events", "0x3FE\n", 0 },
	{ "events", "switch\n", 0 },
	{ "mode", "stream\n\n", -EINVAL },
	{ "mode", " stream", -EINVAL },
	{ "mode", "stream ", -EINVAL },
	{ "mode", "Stream", -EINVAL },
	{ "mode", "overwrite\n", 0 },
	{ "mode", "stream\n", 0 },
};

/*
 * Numbers at the edges: UINT32_MAX, 2^32, UINT64_MAX, 2^64 and one past
 * (which would read as 1 or 8 if they wrapped), negative numbers, a
 * leading '+' (taken, as kstrtouint takes it), spaces, a trailing newline
 * (taken) or two (refused); hex masks that would be valid if truncated.
 * Each as the table says, and as the model says.
 */
TEST_F(hostile, numbers_at_the_edges)
{
	struct settings s = self->start;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		const struct edge *e = &edges[i];

		EXPECT_EQ(0, checked_write(e->file, e->text, strlen(e->text),
					   &s, &ret));
		EXPECT_EQ(e->expect, ret)
			log_bytes(e->file, e->text, strlen(e->text));
	}
	EXPECT_EQ(4u, s.buf_kb);
	EXPECT_EQ(0x2u, s.events);
}

/* @len bytes of @data, one write() on an open @fd: 0 or -errno */
static int write_fd(int fd, const void *data, size_t len)
{
	ssize_t n = write(fd, data, len);

	return n < 0 ? -errno : n == (ssize_t)len ? 0 : -EIO;
}

static int open_control(const char *file)
{
	char path[128];

	snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/%s", file);
	return open(path, O_RDWR);
}

/*
 * A value split in two write() calls on one descriptor: each write is
 * understood alone ("swi", "tch": both refused; "6", "4": 6 refused, 4
 * taken; "1", "\n": on, then refused).  pwrite() is refused (ESPIPE).
 * A write whose buffer runs into an unmapped page: EFAULT.  None of the
 * refused ones changes anything.
 */
TEST_F(hostile, split_and_faulting_writes)
{
	struct settings now;
	char *pages;
	int fd;

	ASSERT_EQ(0, procfile_write("events", "0x106"));
	fd = open_control("events");
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, write_fd(fd, "swi", 3));
	EXPECT_EQ(-EINVAL, write_fd(fd, "tch", 3));
	EXPECT_EQ(-EINVAL, write_fd(fd, "0x", 2));
	EXPECT_EQ(-EINVAL, write_fd(fd, "6", 1));
	EXPECT_EQ(-1, pwrite(fd, "switch", 6, 0));
	EXPECT_EQ(ESPIPE, errno);
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(0x106u, now.events);
	EXPECT_EQ(0, write_fd(fd, "switch ", 7));
	EXPECT_EQ(0, write_fd(fd, "waking", 6));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(0x4u, now.events);	/* the second alone */
	close(fd);

	fd = open_control("buf_kb");
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, write_fd(fd, "10", 2));
	EXPECT_EQ(-EINVAL, write_fd(fd, "24", 2));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(64u, now.buf_kb);
	EXPECT_EQ(-EINVAL, write_fd(fd, "6", 1));
	EXPECT_EQ(0, write_fd(fd, "4", 1));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(4u, now.buf_kb);
	EXPECT_EQ(-1, pwrite(fd, "8", 1, 0));
	EXPECT_EQ(ESPIPE, errno);

	/* "8" on the last byte of a page, "\n" on the next, unmapped */
	pages = mmap(NULL, 2 * self->page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pages);
	ASSERT_EQ(0, munmap(pages + self->page, self->page));
	pages[self->page - 1] = '8';
	EXPECT_EQ(-EFAULT, write_fd(fd, pages + self->page - 1, 2));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(4u, now.buf_kb);
	EXPECT_EQ(0, write_fd(fd, pages + self->page - 1, 1));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(8u, now.buf_kb);
	close(fd);

	fd = open_control("enable");
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EFAULT, write_fd(fd, pages + self->page - 1, 2));
	pages[self->page - 1] = '1';
	EXPECT_EQ(-EFAULT, write_fd(fd, pages + self->page - 1, 2));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_FALSE(now.enabled);
	EXPECT_EQ(0, write_fd(fd, "1", 1));
	EXPECT_EQ(-EINVAL, write_fd(fd, "\n", 1));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_TRUE(now.enabled);
	EXPECT_EQ(0, write_fd(fd, "0", 1));
	close(fd);
	munmap(pages, self->page);
}

#define WRITERS_S	4

/* One writer's values: the valid ones first, then the refused */
static const char *const writer_values[][8] = {
	{ "0", "1", "2", "x", "-1", NULL },
	{ "switch", "all", "none", "0x206", "switch waking", "bogus",
	  "0x400", NULL },
	{ "4", "8", "16", "1024", "3", "0", "x", NULL },
	{ "stream", "overwrite", "fast", NULL },
};

static const unsigned int writer_valid[] = { 2, 5, 4, 2 };
static const char *const writer_files[] = { "enable", "events", "buf_kb",
					    "mode" };

/*
 * For WRITERS_S: writes of valid and invalid values, chosen at random;
 * the number of results that were not EINVAL for an invalid value, or 0
 * or EBUSY for a valid one (capped at 100).
 */
static int writer(uint64_t seed)
{
	uint64_t end = sr_now_ns() + WRITERS_S * 1000000000ull;
	int odd = 0, ret;

	rnd_seed(seed);
	while (sr_now_ns() < end && odd < 100) {
		unsigned int f = rnd_below(ARRAY_SIZE(writer_files)), v, nr;

		for (nr = 0; writer_values[f][nr]; nr++)
			;
		v = rnd_below(nr);
		ret = procfile_write(writer_files[f], writer_values[f][v]);
		if (v < writer_valid[f] ? ret && ret != -EBUSY :
					  ret != -EINVAL) {
			fprintf(stderr, "# writing process %d: %s '%s': %d\n", getpid(),
				writer_files[f], writer_values[f][v], ret);
			odd++;
		}
	}
	return odd;
}

/* For WRITERS_S: open, read and close CPU files; odd results, as above */
static int ring_toucher(int nr_cpus)
{
	uint64_t end = sr_now_ns() + WRITERS_S * 1000000000ull;
	static char buf[65536];
	int odd = 0, cpu = 0, fd;
	char path[64];
	ssize_t n;

	while (sr_now_ns() < end && odd < 100) {
		cpu = (cpu + 1) % nr_cpus;
		snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%d", cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			fprintf(stderr, "# toucher: open %s: %d\n", path,
				errno);
			odd++;
			continue;
		}
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno != EAGAIN && errno != EBUSY) {
			fprintf(stderr, "# toucher: read %s: %d\n", path,
				errno);
			odd++;
		}
		close(fd);
	}
	return odd;
}

/* The ring of every CPU has buf_kb KiB, as its control page says. */
static int rings_sized(int nr_cpus, unsigned int buf_kb, long page)
{
	struct schedrec_ring_ctrl *ctrl;
	int cpu, bad = 0, fd;
	char path[64];

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%d", cpu);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return -1;
		ctrl = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
		if (ctrl == MAP_FAILED ||
		    ctrl->data_size != (uint64_t)buf_kb * 1024 ||
		    ctrl->abi_version != SCHEDREC_ABI_VERSION ||
		    ctrl->cpu != (uint32_t)cpu)
			bad++;
		if (ctrl != MAP_FAILED)
			munmap(ctrl, page);
		close(fd);
	}
	return bad;
}

/*
 * Record @rounds of ping-pong in 64 KiB rings and drain them: 0 if every
 * record the module counted is there, with no sequence gap.
 */
static int records_right(struct __test_metadata *_metadata, int rounds)
{
	struct ringreader_seq seqs[SR_SREC_MAX_CPUS];
	int nr_cpus = sr_nr_cpus(), cpu;
	struct procfile_stats st;
	struct sr_log log = { 0 };
	uint64_t written = 0;
	int ret;

	if (nr_cpus <= 0 || nr_cpus > SR_SREC_MAX_CPUS)
		return -1;
	if (sr_reset() || sr_set_buf_kb(64) || sr_enable(true))
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		ringreader_seq_init(&seqs[cpu], 0);
	ret = sr_pingpong(rounds, -1, -1);
	if (!ret)
		ret = sr_enable(false);
	if (!ret)
		ret = sr_drain_all(&log, seqs, nr_cpus);
	if (!ret)
		ret = procfile_stats_read(&st);
	if (ret)
		return ret;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		written += st.cpu[cpu].written;
		if (seqs[cpu].missing || st.cpu[cpu].lost) {
			TH_LOG("cpu %d: %llu gaps, %llu lost", cpu,
			       (unsigned long long)seqs[cpu].missing,
			       (unsigned long long)st.cpu[cpu].lost);
			ret = -1;
		}
	}
	procfile_stats_free(&st);
	if (written != log.n || written < (uint64_t)rounds) {
		TH_LOG("%zu records read, the module wrote %llu", log.n,
		       (unsigned long long)written);
		ret = -1;
	}
	sr_log_free(&log);
	return ret;
}

/*
 * Two processes write enable, events, buf_kb and mode at once, valid and
 * invalid values, while a third opens and reads the CPU files, for
 * WRITERS_S: every write gets 0 or EBUSY if valid, EINVAL if not; after,
 * the settings are among the valid values written, every ring has the
 * size buf_kb says, and the module records right.
 */
TEST_F_TIMEOUT(hostile, two_writers_at_once, 60)
{
	static const uint32_t masks[] = { 0x2, SCHEDREC_EV_ALL_MASK, 0,
					  0x206, 0x6 };
	uint64_t seed = test_seed("two_writers_at_once");
	int nr_cpus = sr_nr_cpus(), i;
	struct settings now;
	pid_t pids[3];
	bool mask_ok = false;

	ASSERT_LT(0, nr_cpus);
	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(i < 2 ? writer(seed + i) : ring_toucher(nr_cpus));
	}
	for (i = 0; i < 3; i++) {
		int ret = sr_wait_child_bounded(pids[i],
						(WRITERS_S + 30) * 1000);

		if (ret == -ETIMEDOUT) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
		EXPECT_EQ(0, ret) TH_LOG("process %d", i);
	}
	ASSERT_EQ(0, settings_read(&now));
	fprintf(stderr, "# after: enabled=%d overwrite=%d buf_kb=%u events=0x%x\n",
		now.enabled, now.overwrite, now.buf_kb, now.events);
	EXPECT_TRUE(now.buf_kb == 4 || now.buf_kb == 8 || now.buf_kb == 16 ||
		    now.buf_kb == 1024 || now.buf_kb == 64);
	for (i = 0; i < (int)ARRAY_SIZE(masks); i++)
		mask_ok |= now.events == masks[i];
	EXPECT_TRUE(mask_ok);
	EXPECT_EQ(0, rings_sized(nr_cpus, now.buf_kb, self->page));
	EXPECT_EQ(0, records_right(_metadata, 200));
}

/* Read a byte of every page of [@addr, +@len): a fault kills the test. */
static unsigned int touch_pages(const void *addr, size_t len, long page)
{
	const unsigned char *p = addr;
	unsigned int sum = 0;
	size_t i;

	for (i = 0; i < len; i += page)
		sum += __atomic_load_n(&p[i], __ATOMIC_RELAXED);
	return sum;
}

/* The control page of CPU 0's ring says what it is. */
static bool ring0_identifies(long page, size_t data_size)
{
	struct schedrec_ring_ctrl *ctrl;
	bool ok;
	int fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);

	if (fd < 0)
		return false;
	ctrl = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (ctrl == MAP_FAILED)
		return false;
	ok = ctrl->abi_version == SCHEDREC_ABI_VERSION && !ctrl->cpu &&
	     ctrl->page_size == (uint32_t)page && ctrl->data_size == data_size;
	munmap(ctrl, page);
	return ok;
}

/*
 * Odd offsets and lengths, MAP_PRIVATE: each mapping is refused, or made
 * and readable page by page; afterwards nothing changed.
 */
TEST_F(hostile, odd_mappings)
{
	const long P = self->page;
	const off_t D = self->data_size / P;	/* data pages */
	const struct {
		off_t off;
		size_t len;
		int prot, flags;
		bool ok;
	} cases[] = {
		{ 1, P, PROT_READ, MAP_SHARED, false },
		{ P - 1, P, PROT_READ, MAP_SHARED, false },
		{ P + 8, P, PROT_READ, MAP_SHARED, false },
		{ 0, 0, PROT_READ, MAP_SHARED, false },
		{ 0, 1, PROT_READ, MAP_SHARED, true },
		{ 0, 1, PROT_READ | PROT_WRITE, MAP_SHARED, true },
		{ P, 1, PROT_READ, MAP_SHARED, true },
		{ P, P + 1, PROT_READ, MAP_SHARED, true },
		{ P, 3 * P - 1, PROT_READ, MAP_SHARED, true },
		{ D * P, P, PROT_READ, MAP_SHARED, true },
		{ D * P, P + 1, PROT_READ, MAP_SHARED, false },
		{ (D + 1) * P, P, PROT_READ, MAP_SHARED, false },
		{ (D + 1) * P, 1, PROT_NONE, MAP_SHARED, false },
		{ 0, (D + 1) * P + 1, PROT_READ, MAP_SHARED, false },
		{ 0, (D + 2) * P, PROT_READ, MAP_SHARED, false },
		{ (off_t)1 << 40, P, PROT_READ, MAP_SHARED, false },
		{ (off_t)0x7ffffffffffff000ll, P, PROT_READ, MAP_SHARED,
		  false },
		{ -P, P, PROT_READ, MAP_SHARED, false },
		{ 0, P, PROT_READ, MAP_PRIVATE, false },
		{ P, P, PROT_READ, MAP_PRIVATE, false },
		{ 0, (D + 1) * P, PROT_READ, MAP_PRIVATE, false },
		{ P, P, PROT_NONE, MAP_SHARED, true },
		{ P, P, PROT_READ | PROT_WRITE, MAP_SHARED, false },
		/* /proc is SB_I_NOEXEC */
		{ P, D * P, PROT_READ | PROT_EXEC, MAP_SHARED, false },
		{ 0, (D + 1) * P, PROT_READ, MAP_SHARED | MAP_POPULATE, true },
	};
	unsigned int i, touched = 0;
	struct settings now;
	const char *what;
	void *map;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(50, -1, -1));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		map = mmap(NULL, cases[i].len, cases[i].prot, cases[i].flags,
			   self->fd, cases[i].off);
		what = map == MAP_FAILED ? strerror(errno) : "made";
		EXPECT_EQ(cases[i].ok, map != MAP_FAILED)
			TH_LOG("case %u: mmap(len %zu, prot %d, flags 0x%x, offset %lld): %s",
			       i, cases[i].len, cases[i].prot, cases[i].flags,
			       (long long)cases[i].off, what);
		if (map == MAP_FAILED)
			continue;
		if (cases[i].prot & PROT_READ)
			touched += touch_pages(map, cases[i].len, P);
		if (!cases[i].off && (cases[i].prot & PROT_READ))
			EXPECT_EQ((uint32_t)SCHEDREC_ABI_VERSION,
				  ((struct schedrec_ring_ctrl *)map)->abi_version);
		EXPECT_EQ(0, munmap(map, cases[i].len));
	}
	ASSERT_EQ(0, sr_enable(false));
	close(self->fd);
	self->fd = -1;
	fprintf(stderr, "# %u summed over the pages read\n", touched);
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_TRUE(settings_equal(&now, &self->start));
	EXPECT_TRUE(ring0_identifies(P, self->data_size));
	EXPECT_EQ(0, records_right(_metadata, 100));
}

/*
 * mremap(): growing is refused (VM_DONTEXPAND), moving and shrinking
 * behave (the moved pages are the ring's); partial munmap() leaves the
 * rest readable.  Once all is unmapped and closed the ring has no reader:
 * buf_kb changes again.
 */
TEST_F(hostile, mremap_and_partial_munmap)
{
	const long P = self->page;
	char *map, *ref, *area, *moved, *all;
	struct settings now;

	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(200, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	map = mmap(NULL, 4 * P, PROT_READ, MAP_SHARED, self->fd, P);
	ASSERT_NE(MAP_FAILED, map);
	ref = mmap(NULL, 4 * P, PROT_READ, MAP_SHARED, self->fd, P);
	ASSERT_NE(MAP_FAILED, ref);
	EXPECT_EQ(MAP_FAILED, mremap(map, 4 * P, 8 * P, 0));
	EXPECT_EQ(MAP_FAILED, mremap(map, 4 * P, 8 * P, MREMAP_MAYMOVE));
	EXPECT_EQ(0, memcmp(map, ref, 4 * P));
	/* the writable control page cannot grow over the data either */
	all = mmap(NULL, P, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, all);
	EXPECT_EQ(MAP_FAILED, mremap(all, P, 2 * P, MREMAP_MAYMOVE));
	EXPECT_EQ(0, munmap(all, P));
	/* shrink, then move */
	ASSERT_EQ(map, mremap(map, 4 * P, 2 * P, 0));
	area = mmap(NULL, 2 * P, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	ASSERT_NE(MAP_FAILED, area);
	moved = mremap(map, 2 * P, 2 * P, MREMAP_MAYMOVE | MREMAP_FIXED, area);
	ASSERT_EQ(area, moved);
	EXPECT_EQ(0, memcmp(moved, ref, 2 * P));
	EXPECT_EQ(-1, mprotect(moved, P, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, munmap(moved, 2 * P));
	EXPECT_EQ(0, munmap(ref, 4 * P));

	/* all of it, read-only; holes punched in it */
	all = mmap(NULL, P + self->data_size, PROT_READ, MAP_SHARED, self->fd,
		   0);
	ASSERT_NE(MAP_FAILED, all);
	ref = mmap(NULL, self->data_size, PROT_READ, MAP_SHARED, self->fd, P);
	ASSERT_NE(MAP_FAILED, ref);
	EXPECT_EQ(0, munmap(all + 5 * P, 3 * P));
	EXPECT_EQ(0, munmap(all, P));
	EXPECT_EQ(0, memcmp(all + P, ref, 4 * P));
	EXPECT_EQ(0, memcmp(all + 8 * P, ref + 7 * P, self->data_size - 7 * P));
	EXPECT_EQ(-1, mprotect(all + 8 * P, P, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, munmap(all + P, 4 * P));
	close(self->fd);
	self->fd = -1;
	/* a piece still holds the ring */
	EXPECT_EQ(-EBUSY, sr_set_buf_kb(16));
	EXPECT_EQ(0, munmap(all + 8 * P, self->data_size - 7 * P));
	EXPECT_EQ(-EBUSY, sr_set_buf_kb(16));
	EXPECT_EQ(0, munmap(ref, self->data_size));
	EXPECT_EQ(0, sr_set_buf_kb(16));
	ASSERT_EQ(0, settings_read(&now));
	EXPECT_EQ(16u, now.buf_kb);
	EXPECT_EQ(0, records_right(_metadata, 100));
}

/*
 * fork() with the ring mapped: the child has no copy (VM_DONTCOPY) and a
 * touch kills it with SIGSEGV, the parent reads on.  After MADV_DOFORK the
 * child has one, reads what the parent reads, and holds the ring (no
 * buf_kb change, no rmmod) until it exits; then the module unloads.  A
 * kernel may refuse MADV_DOFORK there (7.2 does): the ring stays whole.
 */
TEST_F(hostile, fork_with_mapping)
{
	const long P = self->page;
	int go[2], done[2], status;
	struct schedrec_ring_ctrl *ctrl;
	const char *data;
	char byte;
	pid_t pid;

	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(100, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	ctrl = mmap(NULL, P, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	data = mmap(NULL, self->data_size, PROT_READ, MAP_SHARED, self->fd, P);
	ASSERT_NE(MAP_FAILED, data);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(data[0] == 0x55 ? 1 : 2);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		TH_LOG("the child read data it has no mapping of: status 0x%x",
		       status);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(ctrl->abi_version ? 1 : 2);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	EXPECT_EQ((uint32_t)SCHEDREC_ABI_VERSION, ctrl->abi_version);

	/* 7.2 refuses MADV_DOFORK on it: then no child ever has the ring */
	if (madvise((void *)data, self->data_size, MADV_DOFORK)) {
		TH_LOG("MADV_DOFORK refused (%s): a child never maps the ring",
		       strerror(errno));
		EXPECT_EQ((uint32_t)SCHEDREC_ABI_VERSION, ctrl->abi_version);
		munmap((void *)data, self->data_size);
		munmap(ctrl, P);
		return;
	}
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct schedrec_header hdr;

		close(self->fd);	/* the mapping alone holds it */
		memcpy(&hdr, (const void *)data, sizeof(hdr));
		if (write(go[1], &hdr, sizeof(hdr)) != sizeof(hdr))
			_exit(3);
		_exit(read(done[0], &byte, 1) == 1 ? 0 : 4);
	}
	{
		struct schedrec_header theirs;

		ASSERT_EQ((ssize_t)sizeof(theirs),
			  read(go[0], &theirs, sizeof(theirs)));
		EXPECT_EQ(0, memcmp(&theirs, (const void *)data,
				    sizeof(theirs)));
		EXPECT_LT(0u, theirs.size);
	}
	munmap((void *)data, self->data_size);
	munmap(ctrl, P);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-EBUSY, sr_set_buf_kb(16));
	EXPECT_NE(0, sr_module_unload());
	EXPECT_TRUE(sr_module_loaded());
	ASSERT_EQ(1, write(done[1], "x", 1));
	EXPECT_EQ(0, sr_wait_child_ok(pid));
	EXPECT_EQ(0, sr_set_buf_kb(16));
	EXPECT_EQ(0, sr_module_unload());
	EXPECT_FALSE(sr_module_loaded());
	ASSERT_EQ(0, sr_module_load(NULL));
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

/*
 * Writes through /proc/self/mem (FOLL_FORCE, as a debugger pokes) into the
 * read-only data mapping, and into a read-only mapping of the control
 * page of a read-only open: refused, nothing changes.
 */
TEST_F(hostile, proc_self_mem_cannot_write)
{
	const long P = self->page;
	struct schedrec_ring_ctrl *ctrl;
	const char *data;
	char before, poke;
	int mem;

	ASSERT_EQ(0, sr_enable(true));
	ASSERT_EQ(0, sr_pingpong(100, -1, -1));
	ASSERT_EQ(0, sr_enable(false));
	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDWR);
	ASSERT_LE(0, self->fd);
	data = mmap(NULL, self->data_size, PROT_READ, MAP_SHARED, self->fd, P);
	ASSERT_NE(MAP_FAILED, data);
	mem = open("/proc/self/mem", O_RDWR);
	ASSERT_LE(0, mem);
	before = data[0];
	poke = before ^ 0x5a;
	EXPECT_EQ(-1, pwrite(mem, &poke, 1, (off_t)(uintptr_t)data));
	EXPECT_EQ(before, data[0]);
	munmap((void *)data, self->data_size);
	close(self->fd);
	self->fd = -1;

	self->fd = open(SCHEDREC_PROC_DIR "/cpu/0", O_RDONLY);
	ASSERT_LE(0, self->fd);
	ctrl = mmap(NULL, P, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, ctrl);
	EXPECT_EQ(-1, pwrite(mem, &poke, 1,
			     (off_t)(uintptr_t)&ctrl->abi_version));
	EXPECT_EQ((uint32_t)SCHEDREC_ABI_VERSION, ctrl->abi_version);
	munmap(ctrl, P);
	close(self->fd);
	self->fd = -1;
	close(mem);
	EXPECT_TRUE(ring0_identifies(P, self->data_size));
}

/* The random run: what it holds, and what the module must then answer. */
#define RUN_S		25
#define RUN_MAX_FDS	8
#define RUN_MAX_MAPS	16

struct run_fd {
	int fd, cpu;
	bool rdwr;
};

struct run_map {
	char *addr;
	size_t len;
	int cpu;
	bool ctrl_rw;		/* the control page, writable */
};

struct run {
	long page;
	int nr_cpus;
	bool loaded;
	struct settings s;	/* as far as we know it */
	struct run_fd fds[RUN_MAX_FDS];
	int nr_fds;
	struct run_map maps[RUN_MAX_MAPS];
	int nr_maps;
	bool scribbled[SR_SREC_MAX_CPUS];	/* tail garbage since enable */
	unsigned int op, bad;
	unsigned char sink;
};

static int run_held(const struct run *r, int cpu)
{
	int i, n = 0;

	for (i = 0; i < r->nr_fds; i++)
		n += cpu < 0 || r->fds[i].cpu == cpu;
	for (i = 0; i < r->nr_maps; i++)
		n += cpu < 0 || r->maps[i].cpu == cpu;
	return n;
}

#define RUN_BAD(r, fmt, ...) do {					\
	fprintf(stderr, "# op %u: " fmt "\n", (r)->op, ##__VA_ARGS__);	\
	(r)->bad++;							\
} while (0)

static void run_open(struct run *r)
{
	int cpu = rnd_below(r->nr_cpus), fd, flags;
	bool rdwr = rnd_below(2);
	char path[64];

	if (r->nr_fds == RUN_MAX_FDS)
		return;
	snprintf(path, sizeof(path), SCHEDREC_PROC_DIR "/cpu/%d", cpu);
	flags = (rdwr ? O_RDWR : O_RDONLY) | O_NONBLOCK;
	fd = open(path, flags);
	if (!r->loaded) {
		if (fd >= 0 || errno != ENOENT)
			RUN_BAD(r, "open %s unloaded: %d", path,
				fd >= 0 ? 0 : errno);
	} else if (run_held(r, cpu)) {
		if (fd >= 0 || errno != EBUSY)
			RUN_BAD(r, "open %s held: %d", path,
				fd >= 0 ? 0 : errno);
	} else if (fd < 0) {
		RUN_BAD(r, "open %s: %d", path, errno);
	}
	if (fd < 0)
		return;
	r->fds[r->nr_fds++] = (struct run_fd){ fd, cpu, rdwr };
}

static void run_close(struct run *r)
{
	int i;

	if (!r->nr_fds)
		return;
	i = rnd_below(r->nr_fds);
	close(r->fds[i].fd);
	r->fds[i] = r->fds[--r->nr_fds];
}

static void run_mmap(struct run *r)
{
	const size_t data_pages = (size_t)r->s.buf_kb * 1024 / r->page;
	const size_t lens[] = { 1, r->page, 2 * r->page, 3 * r->page,
				(data_pages + 1) * r->page };
	size_t off_pages = rnd_below(data_pages + 2), len, pages;
	int prot = rnd_below(3) ? PROT_READ : PROT_READ | PROT_WRITE;
	int flags = rnd_below(8) ? MAP_SHARED : MAP_PRIVATE;
	struct run_fd *f;
	bool ok;
	char *map;

	if (!r->nr_fds || r->nr_maps == RUN_MAX_MAPS)
		return;
	f = &r->fds[rnd_below(r->nr_fds)];
	if (rnd_below(2))
		off_pages = rnd_below(2);
	len = lens[rnd_below(ARRAY_SIZE(lens))];
	pages = (len + r->page - 1) / r->page;
	ok = flags == MAP_SHARED && off_pages + pages <= data_pages + 1 &&
	     (!(prot & PROT_WRITE) ||
	      (f->rdwr && !off_pages && pages == 1));
	map = mmap(NULL, len, prot, flags, f->fd, off_pages * r->page);
	if (ok != (map != MAP_FAILED)) {
		RUN_BAD(r, "mmap cpu %d %s, pages %zu+%zu, prot %d, flags %d: %s",
			f->cpu, f->rdwr ? "rw" : "ro", off_pages, pages, prot,
			flags, map == MAP_FAILED ? strerror(errno) : "made");
	}
	if (map == MAP_FAILED)
		return;
	if (!off_pages) {
		struct schedrec_ring_ctrl *ctrl = (void *)map;

		if (ctrl->abi_version != SCHEDREC_ABI_VERSION ||
		    ctrl->cpu != (uint32_t)f->cpu ||
		    ctrl->data_size != (uint64_t)r->s.buf_kb * 1024)
			RUN_BAD(r, "control page of cpu %d: abi %u cpu %u size %llu",
				f->cpu, ctrl->abi_version, ctrl->cpu,
				(unsigned long long)ctrl->data_size);
	} else {
		r->sink += map[len - 1];	/* readable */
	}
	r->maps[r->nr_maps++] = (struct run_map){
		map, len, f->cpu, (prot & PROT_WRITE) != 0 };
}

static void run_munmap(struct run *r)
{
	struct run_map *m;
	int i;

	if (!r->nr_maps)
		return;
	i = rnd_below(r->nr_maps);
	m = &r->maps[i];
	if (m->len > (size_t)r->page && rnd_below(2)) {
		/* its first page only */
		if (munmap(m->addr, r->page))
			RUN_BAD(r, "munmap a page: %d", errno);
		m->addr += r->page;
		m->len -= r->page;
		m->ctrl_rw = false;
		return;
	}
	if (munmap(m->addr, m->len))
		RUN_BAD(r, "munmap: %d", errno);
	r->maps[i] = r->maps[--r->nr_maps];
}

/* A read's bytes are whole records, none of them PAD. */
static bool whole_records(const char *buf, ssize_t n)
{
	const struct schedrec_header *hdr;
	ssize_t at = 0;

	while (at < n) {
		hdr = (const void *)(buf + at);
		if (n - at < (ssize_t)sizeof(*hdr) ||
		    hdr->size < sizeof(*hdr) ||
		    hdr->size % SCHEDREC_RECORD_ALIGN ||
		    hdr->size > n - at || hdr->type == SCHEDREC_REC_PAD)
			return false;
		at += hdr->size;
	}
	return true;
}

static void run_read(struct run *r)
{
	static const size_t sizes[] = { 0, 1, 16, 64, 288, 4096, 65536 };
	static char buf[65536];
	struct run_fd *f;
	size_t size;
	ssize_t n;

	if (!r->nr_fds)
		return;
	f = &r->fds[rnd_below(r->nr_fds)];
	size = sizes[rnd_below(ARRAY_SIZE(sizes))];
	n = read(f->fd, buf, size);
	if (n > 0 && !r->scribbled[f->cpu] && !whole_records(buf, n))
		RUN_BAD(r, "read cpu %d, %zu bytes: not whole records",
			f->cpu, size);
	if (n < 0 && errno != EAGAIN && errno != EBUSY && errno != EINVAL &&
	    !(errno == EIO && r->scribbled[f->cpu]))
		RUN_BAD(r, "read cpu %d, %zu bytes: %d", f->cpu, size, errno);
	if (n > (ssize_t)size)
		RUN_BAD(r, "read cpu %d: %zd bytes of %zu", f->cpu, n, size);
}

static void run_poll(struct run *r)
{
	struct pollfd pfd;

	if (!r->nr_fds)
		return;
	pfd.fd = r->fds[rnd_below(r->nr_fds)].fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, rnd_below(3)) < 0)
		RUN_BAD(r, "poll: %d", errno);
}

static void run_scribble(struct run *r)
{
	int i;

	for (i = 0; i < r->nr_maps; i++) {
		if (!r->maps[i].ctrl_rw)
			continue;
		((struct schedrec_ring_ctrl *)r->maps[i].addr)->tail = rnd();
		r->scribbled[r->maps[i].cpu] = true;
		return;
	}
}

static void run_control(struct run *r)
{
	unsigned int f = rnd_below(ARRAY_SIZE(writer_files)), v, nr;
	bool valid, was_enabled = r->s.enabled;
	int ret, expect;

	for (nr = 0; writer_values[f][nr]; nr++)
		;
	v = rnd_below(nr);
	valid = v < writer_valid[f];
	ret = procfile_write(writer_files[f], writer_values[f][v]);
	if (!r->loaded) {
		if (ret != -ENOENT)
			RUN_BAD(r, "%s unloaded: %d", writer_files[f], ret);
		return;
	}
	expect = model_write(writer_files[f], writer_values[f][v],
			     strlen(writer_values[f][v]), &r->s,
			     run_held(r, -1) > 0);
	if (ret != expect || valid != (expect != -EINVAL))
		RUN_BAD(r, "%s '%s': %d, expected %d", writer_files[f],
			writer_values[f][v], ret, expect);
	/* a start resets every ring, the reader position too */
	if (!ret && !was_enabled && r->s.enabled)
		memset(r->scribbled, 0, sizeof(r->scribbled));
}

static void run_rmmod(struct run *r)
{
	int ret;

	if (!r->loaded) {
		ret = sr_module_load(NULL);
		if (ret)
			RUN_BAD(r, "insmod: %d", ret);
		r->loaded = !ret;
		if (!ret && settings_read(&r->s))
			RUN_BAD(r, "stats after insmod");
		return;
	}
	ret = sr_module_unload();
	if (run_held(r, -1)) {
		if (ret != -EAGAIN && ret != -EBUSY)
			RUN_BAD(r, "rmmod, %d held: %d", run_held(r, -1), ret);
	} else if (ret) {
		RUN_BAD(r, "rmmod, nothing held: %d", ret);
	}
	if (!ret) {
		r->loaded = false;
		memset(r->scribbled, 0, sizeof(r->scribbled));
	}
}

/* Switches until killed, from a process that holds nothing of ours. */
static pid_t start_load(void)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	setpgid(0, 0);
	for (;;)
		sr_pingpong(1000, -1, -1);
}

/*
 * The random run, RUN_S seconds of open, close, mmap (any offset, length,
 * protection, MAP_PRIVATE), munmap (whole or a page), read (any size,
 * 0 to 64 KiB), poll, control writes (valid and not), garbage written as
 * the reader position, rmmod and insmod, while a process switches.  Each
 * result is the one the documentation gives for what is held then: an
 * open of a held ring EBUSY, rmmod refused while anything is open or
 * mapped and done when nothing is, reads of whole records, control writes
 * as the model says.  Afterwards `schedrec record` records right.
 */
TEST_F_TIMEOUT(hostile, random_run_then_records, RUN_S + 120)
{
	char *const argv[] = { "schedrec", "record", "-q", "-o", TRACE, "--",
			       "hackbench", "-g", "1", "-f", "5", "-l", "10",
			       NULL };
	uint64_t end, written = 0, records = 0;
	struct procfile_stats st;
	struct sr_srec_counts fc;
	struct run r = { 0 };
	unsigned int kind;
	int cpu, ret;

	r.page = self->page;
	r.nr_cpus = sr_nr_cpus();
	ASSERT_LT(0, r.nr_cpus);
	ASSERT_GE(SR_SREC_MAX_CPUS, r.nr_cpus);
	r.loaded = true;
	r.s = self->start;
	rnd_seed(test_seed("random_run_then_records"));
	self->load = start_load();
	ASSERT_LT(0, self->load);
	end = sr_now_ns() + RUN_S * 1000000000ull;
	for (r.op = 0; sr_now_ns() < end && r.bad < 5; r.op++) {
		kind = rnd_below(r.loaded ? 20 : 4);
		if (!r.loaded && kind)
			kind = 19;	/* mostly insmod again */
		switch (kind) {
		case 0 ... 2:
			run_open(&r);
			break;
		case 3 ... 4:
			run_close(&r);
			break;
		case 5 ... 7:
			run_mmap(&r);
			break;
		case 8 ... 9:
			run_munmap(&r);
			break;
		case 10 ... 11:
			run_read(&r);
			break;
		case 12:
			run_poll(&r);
			break;
		case 13 ... 16:
			run_control(&r);
			break;
		case 17:
			run_scribble(&r);
			break;
		default:
			run_rmmod(&r);
		}
	}
	fprintf(stderr, "# %u operations in %d s, %u odd results\n", r.op,
		RUN_S, r.bad);
	EXPECT_EQ(0u, r.bad);
	while (r.nr_maps) {
		r.nr_maps--;
		munmap(r.maps[r.nr_maps].addr, r.maps[r.nr_maps].len);
	}
	while (r.nr_fds)
		close(r.fds[--r.nr_fds].fd);
	kill(-self->load, SIGKILL);
	waitpid(self->load, NULL, 0);
	self->load = 0;

	/* the module records right */
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	ASSERT_EQ(0, sr_set_buf_kb(1024));
	ret = sr_run_schedrec(argv, NULL, ERR_FILE, NULL, 0);
	EXPECT_EQ(0, ret);
	ASSERT_EQ(0, sr_read_srec(TRACE, &fc));
	EXPECT_EQ(0, fc.warnings);
	EXPECT_TRUE(fc.trailer);
	ASSERT_EQ(0, procfile_stats_read(&st));
	for (cpu = 0; cpu < (int)st.nr_cpus && cpu < SR_SREC_MAX_CPUS; cpu++) {
		EXPECT_EQ(st.cpu[cpu].written, fc.records[cpu])
			TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0ull, fc.lost[cpu]);
		written += st.cpu[cpu].written;
		records += fc.records[cpu];
	}
	procfile_stats_free(&st);
	EXPECT_LT(100ull, records);
	EXPECT_EQ(written, records);
}

TEST_HARNESS_MAIN
