// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's part of a trace header: uname, online CPUs, clocks and the
 * thread snapshot; see srecsys.h.
 *
 * /proc changes while we read it: a process or thread can exit between
 * the directory listing and the read of its comm.  Such a thread is simply
 * not in the snapshot; it was gone, or about to be, at the start.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "srecsys.h"
#include "srecwriter.h"
#include "util.h"

#define CPU_ONLINE_PATH	"/sys/devices/system/cpu/online"
#define KALLSYMS_PATH	"/proc/kallsyms"
#define KALLSYMS_READ	(1u << 20)

/* A decimal directory name as a tid, or 0 if it is not one. */
static uint32_t parse_id(const char *name)
{
	unsigned long value = 0;
	const char *p;

	for (p = name; *p; p++) {
		if (*p < '0' || *p > '9' || value > UINT32_MAX / 10)
			return 0;
		value = value * 10 + (*p - '0');
	}
	return value <= UINT32_MAX ? value : 0;
}

/* Read a small file whole, without its trailing newline; -errno. */
static int read_line(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return 0;
}

struct thread_list {
	struct srec_thread *threads;
	size_t count;
	size_t capacity;
};

static int thread_add(struct thread_list *list, uint32_t tid, uint32_t tgid,
		      const char *comm)
{
	struct srec_thread *t;

	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? 2 * list->capacity : 256;

		t = realloc(list->threads, capacity * sizeof(*t));
		if (!t)
			return -ENOMEM;
		list->threads = t;
		list->capacity = capacity;
	}
	t = &list->threads[list->count++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid;
	memcpy(t->comm, comm, strnlen(comm, sizeof(t->comm) - 1));
	return 0;
}

/* The threads of process @tgid; a process that is gone adds nothing. */
static int scan_process(const char *root, uint32_t tgid,
			struct thread_list *list)
{
	char path[PATH_MAX], comm[64];
	struct dirent *entry;
	int ret = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%u/task", root, tgid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!ret && (entry = readdir(dir))) {
		uint32_t tid = parse_id(entry->d_name);

		if (!tid)
			continue;
		snprintf(path, sizeof(path), "%s/%u/task/%u/comm", root, tgid,
			 tid);
		if (read_line(path, comm, sizeof(comm)))
			continue;	/* exited since the listing */
		ret = thread_add(list, tid, tgid, comm);
	}
	closedir(dir);
	return ret;
}

static int compare_tid(const void *a, const void *b)
{
	const struct srec_thread *ta = a, *tb = b;

	return (ta->tid > tb->tid) - (ta->tid < tb->tid);
}

int srecsys_threads(const char *proc_root, struct srec_thread **threads,
		    size_t *count)
{
	struct thread_list list = { 0 };
	struct dirent *entry;
	size_t i, kept = 0;
	int ret = 0;
	DIR *dir;

	*threads = NULL;
	*count = 0;
	if (!proc_root)
		proc_root = "/proc";
	dir = opendir(proc_root);
	if (!dir)
		return -errno;
	while (!ret && (entry = readdir(dir))) {
		uint32_t tgid = parse_id(entry->d_name);

		if (tgid)
			ret = scan_process(proc_root, tgid, &list);
	}
	closedir(dir);
	if (ret) {
		free(list.threads);
		return ret;
	}
	qsort(list.threads, list.count, sizeof(*list.threads), compare_tid);
	/* a thread seen twice (it moved while we listed) is kept once */
	for (i = 0; i < list.count; i++) {
		if (kept && list.threads[kept - 1].tid == list.threads[i].tid)
			continue;
		list.threads[kept++] = list.threads[i];
	}
	*threads = list.threads;
	*count = kept;
	return 0;
}

void srecsys_clocks(uint64_t *mono_ns, uint64_t *real_ns)
{
	*mono_ns = clock_ns(CLOCK_MONOTONIC);
	*real_ns = clock_ns(CLOCK_REALTIME);
}

int srecsys_read(struct srecsys *sys, const char *proc_root)
{
	memset(sys, 0, sizeof(*sys));
	if (uname(&sys->uts))
		return -errno;
	if (read_line(CPU_ONLINE_PATH, sys->online, sizeof(sys->online)))
		sys->online[0] = '\0';
	srecsys_clocks(&sys->start_mono_ns, &sys->start_real_ns);
	return srecsys_threads(proc_root, &sys->threads, &sys->nr_threads);
}

void srecsys_free(struct srecsys *sys)
{
	free(sys->threads);
	sys->threads = NULL;
	sys->nr_threads = 0;
}

void srecsys_fill_header(const struct srecsys *sys,
			 struct srecwriter_header *hdr)
{
	hdr->release = sys->uts.release;
	hdr->version = sys->uts.version;
	hdr->machine = sys->uts.machine;
	hdr->hostname = sys->uts.nodename;
	hdr->online = sys->online;
	hdr->start_mono_ns = sys->start_mono_ns;
	hdr->start_real_ns = sys->start_real_ns;
	hdr->threads = sys->threads;
	hdr->nr_threads = sys->nr_threads;
}

/* Read @fd to its end into a malloc()ed buffer of at most @max bytes. */
static int read_all(int fd, size_t max, char **out, size_t *out_len)
{
	size_t len = 0, size = 0;
	char *buf = NULL, *bigger;
	ssize_t n;

	for (;;) {
		if (size - len < KALLSYMS_READ) {
			size = size ? 2 * size : 4 * KALLSYMS_READ;
			bigger = realloc(buf, size);
			if (!bigger) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
		}
		n = read(fd, buf + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			free(buf);
			return n;
		}
		if (!n)
			break;
		len += n;
		if (len > max) {
			free(buf);
			return -EFBIG;
		}
	}
	*out = buf;
	*out_len = len;
	return 0;
}

/* Symbols in @text, and whether any line's address is not 0. */
static size_t count_symbols(const char *text, size_t len, bool *shown)
{
	const char *p = text, *end = text + len, *eol;
	size_t lines = 0;

	*shown = false;
	while (p < end) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (eol > p)
			lines++;
		/* the address is the hex digits up to the first space */
		for (; p < eol && *p != ' ' && !*shown; p++)
			*shown = *p != '0';
		p = eol + 1;
	}
	return lines;
}

int srecsys_kallsyms(struct srecsys_ksyms *k, const char *path)
{
	size_t raw_len = 0;
	uLongf packed;
	char *text = NULL;
	bool shown;
	int fd, ret;

	memset(k, 0, sizeof(*k));
	fd = open(path ? path : KALLSYMS_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_all(fd, SREC_KSYMS_MAX, &text, &raw_len);
	close(fd);
	if (ret)
		return ret;
	k->lines = count_symbols(text, raw_len, &shown);
	packed = compressBound(raw_len);
	k->data = malloc(packed);
	ret = -ENOMEM;
	if (k->data && compress2(k->data, &packed, (const Bytef *)text,
				 raw_len, Z_BEST_SPEED) == Z_OK) {
		ret = packed <= SREC_DATA_MAX ? 0 : -EFBIG;
		k->len = packed;
		k->raw_len = raw_len;
		k->flags = shown ? 0 : SREC_KSYMS_F_HIDDEN;
	}
	free(text);
	if (ret)
		srecsys_kallsyms_free(k);
	return ret;
}

void srecsys_kallsyms_free(struct srecsys_ksyms *k)
{
	free(k->data);
	memset(k, 0, sizeof(*k));
}

void srecsys_fill_ksyms(const struct srecsys_ksyms *k,
			struct srecwriter_header *hdr)
{
	if (!k->data)
		return;
	hdr->ksyms = k->data;
	hdr->ksyms_len = k->len;
	hdr->ksyms_raw_len = k->raw_len;
	hdr->ksyms_flags = k->flags;
}
