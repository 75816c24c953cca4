// SPDX-License-Identifier: GPL-2.0
/* Helpers for /proc/schedrec and other control files; see procfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfile.h"
#include "uapi/schedrec.h"

/* stats has one line per possible CPU: room for a few thousand */
#define STATS_SIZE	(1 << 20)

static void procfile_path(const char *name, char *path, size_t size)
{
	if (name[0] == '/')
		snprintf(path, size, "%s", name);
	else
		snprintf(path, size, SCHEDREC_PROC_DIR "/%s", name);
}

int procfile_write(const char *name, const char *value)
{
	size_t len = strlen(value);
	char path[PATH_MAX];
	ssize_t done;
	int fd, ret = 0;

	procfile_path(name, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	done = write(fd, value, len);
	if (done < 0)
		ret = -errno;
	else if ((size_t)done != len)
		ret = -EIO;
	close(fd);
	return ret;
}

ssize_t procfile_read(const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t len = 0;
	ssize_t done;
	int fd;

	if (!size)
		return -EINVAL;
	procfile_path(name, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		done = read(fd, buf + len, size - 1 - len);
		if (done < 0) {
			done = -errno;
			close(fd);
			return done;
		}
		if (!done)
			break;
		len += done;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

int procfile_read_u64(const char *name, uint64_t *value)
{
	char buf[64], *end;
	ssize_t len;

	len = procfile_read(name, buf, sizeof(buf));
	if (len < 0)
		return len;
	errno = 0;
	*value = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/* The line after @line, NULL at the end of the text. */
static char *next_line(char *line)
{
	line = strchr(line, '\n');
	return line && line[1] ? line + 1 : NULL;
}

int procfile_events_mask(uint32_t *mask)
{
	char buf[4096], *line;
	ssize_t len;

	len = procfile_read("events", buf, sizeof(buf));
	if (len < 0)
		return len;
	for (line = buf; line; line = next_line(line))
		if (sscanf(line, "mask 0x%" SCNx32, mask) == 1)
			return 0;
	return -EINVAL;
}

/* One "cpuN key=value ..." line; false if it is not one. */
static bool parse_cpu_line(const char *line, unsigned int *cpu,
			   struct procfile_cpu_stats *st)
{
	return sscanf(line,
		      "cpu%u written=%" SCNu64 " lost=%" SCNu64
		      " overwritten=%" SCNu64 " bytes=%" SCNu64
		      " head=%" SCNu64 " tail=%" SCNu64 " peak=%" SCNu64,
		      cpu, &st->written, &st->lost, &st->overwritten,
		      &st->bytes, &st->head, &st->tail, &st->peak) == 8;
}

static int parse_stats(char *buf, struct procfile_stats *stats)
{
	struct procfile_cpu_stats st;
	unsigned int cpu, enabled;
	char mode[16], *line;
	int lines = 0;

	if (sscanf(buf, "enabled=%u mode=%15s buf_kb=%u events=0x%" SCNx32,
		   &enabled, mode, &stats->buf_kb, &stats->events) != 4)
		return -EINVAL;
	stats->enabled = enabled;
	stats->overwrite = !strcmp(mode, "overwrite");
	for (line = next_line(buf); line; line = next_line(line)) {
		if (!parse_cpu_line(line, &cpu, &st) || cpu >= 4096)
			return -EINVAL;
		if (cpu >= stats->nr_cpus) {
			struct procfile_cpu_stats *more;

			more = realloc(stats->cpu, (cpu + 1) * sizeof(*more));
			if (!more)
				return -ENOMEM;
			memset(more + stats->nr_cpus, 0,
			       (cpu + 1 - stats->nr_cpus) * sizeof(*more));
			stats->cpu = more;
			stats->nr_cpus = cpu + 1;
		}
		stats->cpu[cpu] = st;
		lines++;
	}
	return lines ? 0 : -EINVAL;
}

int procfile_stats_read(struct procfile_stats *stats)
{
	char *buf = malloc(STATS_SIZE);
	ssize_t len;
	int ret;

	memset(stats, 0, sizeof(*stats));
	if (!buf)
		return -ENOMEM;
	len = procfile_read("stats", buf, STATS_SIZE);
	ret = len < 0 ? len : parse_stats(buf, stats);
	free(buf);
	if (ret)
		procfile_stats_free(stats);
	return ret;
}

void procfile_stats_free(struct procfile_stats *stats)
{
	free(stats->cpu);
	stats->cpu = NULL;
	stats->nr_cpus = 0;
}
