// SPDX-License-Identifier: GPL-2.0
/* The progress line of a long read; see progress.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "timefmt.h"
#include "util.h"

#define NSEC_PER_MSEC	1000000ull

/* The size of the file @path; 0 if it is not one whose size is known. */
static uint64_t file_size(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	return st.st_size;
}

/* The most SCHEDREC_PROGRESS_DELAY says: a day, far from overflow in ns */
#define PROGRESS_DELAY_MAX_MS	(24 * 3600 * 1000ull)

/* SCHEDREC_PROGRESS_DELAY in milliseconds, else PROGRESS_DELAY_MS. */
static uint64_t delay_ms(void)
{
	const char *env = getenv("SCHEDREC_PROGRESS_DELAY");
	unsigned long long ms;
	char *end;

	if (!env || !*env)
		return PROGRESS_DELAY_MS;
	errno = 0;
	ms = strtoull(env, &end, 10);
	if (*end || *env == '-')
		return PROGRESS_DELAY_MS;
	return errno || ms > PROGRESS_DELAY_MAX_MS ? PROGRESS_DELAY_MAX_MS : ms;
}

void progress_start(struct progress *p, const char *label,
		    char *const *paths, unsigned int n)
{
	struct winsize ws;
	uint64_t size;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->paths = paths;
	p->nr_paths = n;
	for (i = 0; i < n; i++) {
		size = file_size(paths[i]);
		if (!size) {
			p->total = 0;
			break;
		}
		p->total += size;
	}
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws))
		p->columns = ws.ws_col;
	p->start_ns = clock_ns(CLOCK_MONOTONIC);
	p->next_ns = p->start_ns + delay_ms() * NSEC_PER_MSEC;
	p->on = true;
}

void progress_format(char *buf, size_t size, uint64_t done, uint64_t total,
		     uint64_t elapsed_ns)
{
	uint64_t scale = total ? total : done, left;
	const char *unit = "kB";
	double div = 1e3;
	int digits = 0;
	size_t len;

	if (scale >= 1000000000) {
		unit = "GB";
		div = 1e9;
		digits = 2;
	} else if (scale >= 1000000) {
		unit = "MB";
		div = 1e6;
		digits = 1;
	}
	if (!total) {
		snprintf(buf, size, "read %.*f %s", digits, done / div, unit);
		return;
	}
	if (done > total)
		done = total;
	len = snprintf(buf, size, "read %u%% (%.*f of %.*f %s)",
		       (unsigned int)(done * 100.0 / total), digits,
		       done / div, digits, total / div, unit);
	if (!done || done == total || len >= size)
		return;
	/* what is left at the pace so far, to the nearest second */
	left = (uint64_t)(((double)elapsed_ns * (total - done) / done +
			   NSEC_PER_SEC / 2) / NSEC_PER_SEC);
	if (left >= 120)
		snprintf(buf + len, size - len, ", about %llu min left",
			 (unsigned long long)(left + 30) / 60);
	else if (left)
		snprintf(buf + len, size - len, ", about %llu s left",
			 (unsigned long long)left);
}

void progress_update(struct progress *p, unsigned int file, uint64_t offset)
{
	char line[192], text[96];
	uint64_t now;
	int len;

	if (!p->on)
		return;
	for (; p->file < file && p->file < p->nr_paths; p->file++)
		p->done += file_size(p->paths[p->file]);
	now = clock_ns(CLOCK_MONOTONIC);
	if (now < p->next_ns)
		return;
	p->next_ns = now + PROGRESS_EVERY_MS * NSEC_PER_MSEC;
	progress_format(text, sizeof(text), p->done + offset, p->total,
			now - p->start_ns);
	/*
	 * one write: back to the line's start, the text, the rest wiped;
	 * short of the last column, where a terminal may wrap
	 */
	len = snprintf(line, sizeof(line), "\r%s: %s", p->label, text);
	if (len > (int)sizeof(line) - 4)
		len = sizeof(line) - 4;
	if (p->columns && len > (int)p->columns)
		len = p->columns;
	snprintf(line + len, sizeof(line) - len, "\033[K");
	fputs(line, stderr);
	p->shown = true;
}

void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	p->shown = false;
}
