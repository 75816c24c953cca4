// SPDX-License-Identifier: GPL-2.0
/*
 * Module signature policy of the running kernel, and whether a module file
 * is signed: see modsig.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modsig.h"
#include "util.h"

static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	*buf = 0;
	if (!f)
		return;
	if (!fgets(buf, size, f))
		*buf = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

void modsig_policy_read(struct modsig_policy *p, const char *enforce_file,
			const char *lockdown_file)
{
	char line[128], *open, *close;

	memset(p, 0, sizeof(*p));
	read_line(enforce_file ? enforce_file : MODSIG_ENFORCE_FILE, line,
		  sizeof(line));
	p->enforce = line[0] == 'Y' || line[0] == '1';
	/* "none [integrity] confidentiality": the level in brackets */
	read_line(lockdown_file ? lockdown_file : MODSIG_LOCKDOWN_FILE, line,
		  sizeof(line));
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || close - open - 1 >= (long)sizeof(p->lockdown))
		return;
	*close = 0;
	if (strcmp(open + 1, "none"))
		strcpy(p->lockdown, open + 1);
}

bool modsig_refuses_unsigned(const struct modsig_policy *p)
{
	return p->enforce || *p->lockdown;
}

int modsig_file(const char *path)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const unsigned char gz[] = { 0x1f, 0x8b };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };
	const size_t len = sizeof(MODSIG_MAGIC) - 1;
	unsigned char head[8];
	char tail[sizeof(MODSIG_MAGIC)];
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (pread(fd, head, sizeof(head), 0) != sizeof(head)) {
		ret = -EIO;
	} else if (!memcmp(head, xz, sizeof(xz)) ||
		   !memcmp(head, gz, sizeof(gz)) ||
		   !memcmp(head, zst, sizeof(zst))) {
		ret = MODSIG_COMPRESSED;
	} else if (st.st_size < (off_t)len) {
		ret = MODSIG_UNSIGNED;
	} else if (pread(fd, tail, len, st.st_size - len) != (ssize_t)len) {
		ret = -EIO;
	} else {
		ret = memcmp(tail, MODSIG_MAGIC, len) ? MODSIG_UNSIGNED :
							 MODSIG_SIGNED;
	}
	close(fd);
	return ret;
}

int modsig_find_module(char *buf, size_t size, const char *modules_dir,
		       const char *release)
{
	static const char *const dirs[] = { "updates/dkms", "updates", "extra" };
	static const char *const suffixes[] = { "", ".xz", ".gz", ".zst" };
	unsigned int d, s;
	int n;

	for (d = 0; d < ARRAY_SIZE(dirs); d++) {
		for (s = 0; s < ARRAY_SIZE(suffixes); s++) {
			n = snprintf(buf, size, "%s/%s/%s/schedrec.ko%s",
				     modules_dir ? modules_dir :
				     MODSIG_MODULES_DIR, release, dirs[d],
				     suffixes[s]);
			if (n > 0 && (size_t)n < size && !access(buf, F_OK))
				return 0;
		}
	}
	if (size)
		*buf = 0;
	return -ENOENT;
}
