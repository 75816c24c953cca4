// SPDX-License-Identifier: GPL-2.0
/*
 * The module's settings as a whole: read, change in a safe order, restore.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd.h"
#include "modsig.h"
#include "modstate.h"
#include "procfile.h"
#include "uapi/schedrec.h"

int modstate_check(unsigned int *abi)
{
	struct modversion mv;

	modversion_read(&mv, NULL, NULL);
	*abi = mv.abi;
	return modversion_check(&mv, SCHEDREC_ABI_VERSION);
}

void modstate_explain_signing(const char *verb)
{
	struct modsig_policy p;
	struct utsname uts;
	char path[512];

	modsig_policy_read(&p, NULL, NULL);
	if (!modsig_refuses_unsigned(&p))
		return;
	/* sig_enforce is checked first: EKEYREJECTED, and lockdown's EPERM */
	if (p.enforce)
		tool_error(verb, 0, "this kernel loads only signed modules (module.sig_enforce is on): an unsigned schedrec.ko, or one signed with a key the kernel does not trust, is refused with \"Key was rejected by service\"; have DKMS sign it with a machine owner key (MOK) and enrol that key (README, \"Secure Boot\")");
	else
		tool_error(verb, 0, "this kernel loads only signed modules (it is locked down, lockdown=%s, as under Secure Boot): an unsigned schedrec.ko, or one signed with a key the kernel does not trust, is refused with \"Operation not permitted\"; have DKMS sign it with a machine owner key (MOK) and enrol that key (README, \"Secure Boot\")",
			   p.lockdown);
	if (uname(&uts) || modsig_find_module(path, sizeof(path), NULL,
					      uts.release))
		return;
	switch (modsig_file(path)) {
	case MODSIG_UNSIGNED:
		tool_error(verb, 0, "%s carries no signature: it will be refused",
			   path);
		break;
	case MODSIG_SIGNED:
		tool_error(verb, 0, "%s is signed: if it is refused, enrol the certificate of its key (mokutil --import, reboot, enrol it in MokManager); modinfo -F signer names the key",
			   path);
		break;
	case MODSIG_COMPRESSED:
		tool_error(verb, 0, "%s is compressed: modinfo -F signer names the key it is signed with, if any",
			   path);
		break;
	}
}

void modstate_explain(const char *verb, const struct modversion *mv, int err)
{
	char msg[512];

	if (err == -ENOENT) {
		tool_error(verb, 0, "schedrec.ko is not loaded: modprobe schedrec (or insmod kmod/schedrec.ko)");
		modstate_explain_signing(verb);
	} else if (err == -EPROTO) {
		modversion_mismatch(msg, sizeof(msg), mv, SCHEDREC_VERSION,
				    SCHEDREC_ABI_VERSION);
		tool_error(verb, 0, "%s", msg);
	} else if (err) {
		tool_error(verb, err, "cannot read %s/format%s",
			   SCHEDREC_PROC_DIR,
			   err == -EACCES ? " (run as root)" : "");
	}
}

int modstate_require(const char *verb)
{
	struct modversion mv;
	int ret;

	modversion_read(&mv, NULL, NULL);
	ret = modversion_check(&mv, SCHEDREC_ABI_VERSION);
	modstate_explain(verb, &mv, ret);
	return ret;
}

int modstate_read(struct modstate *st)
{
	struct procfile_stats stats;
	int ret;

	ret = procfile_stats_read(&stats);
	if (ret)
		return ret;
	st->enabled = stats.enabled;
	st->overwrite = stats.overwrite;
	st->buf_kb = stats.buf_kb;
	st->events = stats.events;
	procfile_stats_free(&stats);
	return 0;
}

static int set(const char *file, const char *value, const char **what)
{
	int ret = procfile_write(file, value);

	if (ret)
		*what = file;
	return ret;
}

int modstate_apply(const struct modstate *want, const struct modstate *cur,
		   const char **what)
{
	char value[32];
	int ret;

	if (want->enabled == cur->enabled && want->overwrite == cur->overwrite &&
	    want->buf_kb == cur->buf_kb && want->events == cur->events)
		return 0;
	if (cur->enabled) {
		ret = set("enable", "0", what);
		if (ret)
			return ret;
	}
	if (want->overwrite != cur->overwrite) {
		ret = set("mode", want->overwrite ? "overwrite" : "stream", what);
		if (ret)
			return ret;
	}
	if (want->buf_kb != cur->buf_kb) {
		snprintf(value, sizeof(value), "%u", want->buf_kb);
		ret = set("buf_kb", value, what);
		if (ret)
			return ret;
	}
	if (want->events != cur->events) {
		snprintf(value, sizeof(value), "0x%x", want->events);
		ret = set("events", value, what);
		if (ret)
			return ret;
	}
	if (want->enabled)
		return set("enable", "1", what);
	return 0;
}

void modstate_undo(struct modstate *back, const struct modstate *found,
		   const struct modstate *set, const struct modstate *cur)
{
	*back = *cur;
	if (cur->enabled && !set->enabled)
		return;
	if (cur->enabled == set->enabled)
		back->enabled = found->enabled;
	if (cur->overwrite == set->overwrite)
		back->overwrite = found->overwrite;
	if (cur->buf_kb == set->buf_kb)
		back->buf_kb = found->buf_kb;
	if (cur->events == set->events)
		back->events = found->events;
}

/* Who holds the flock() of the file with inode @ino: /proc/locks says. */
static pid_t lock_holder(ino_t ino)
{
	FILE *f = fopen("/proc/locks", "re");
	unsigned long long i;
	char line[256], kind[16];
	pid_t pid = 0;
	int p;

	while (f && !pid && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: %15s %*s %*s %d %*x:%*x:%llu", kind, &p,
			   &i) == 3 && !strcmp(kind, "FLOCK") && i == ino)
			pid = p;
	if (f)
		fclose(f);
	return pid;
}

int modstate_lock(pid_t *holder)
{
	struct stat st;
	int fd, err;

	*holder = 0;
	fd = open(SCHEDREC_PROC_DIR "/enable", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	err = errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (err == -EBUSY && !fstat(fd, &st))
		*holder = lock_holder(st.st_ino);
	close(fd);
	return err;
}

pid_t modstate_opener(const char *path)
{
	char dir[280], link[560], target[256];
	struct dirent *p, *f;
	DIR *procs, *fds;
	pid_t pid = 0;
	ssize_t len;

	procs = opendir("/proc");
	while (procs && !pid && (p = readdir(procs))) {
		if (*p->d_name < '1' || *p->d_name > '9' ||
		    atoi(p->d_name) == getpid())
			continue;
		snprintf(dir, sizeof(dir), "/proc/%s/fd", p->d_name);
		fds = opendir(dir);
		while (fds && !pid && (f = readdir(fds))) {
			snprintf(link, sizeof(link), "%s/%s", dir, f->d_name);
			len = readlink(link, target, sizeof(target) - 1);
			if (len <= 0)
				continue;
			target[len] = 0;
			if (!strcmp(target, path))
				pid = atoi(p->d_name);
		}
		if (fds)
			closedir(fds);
	}
	if (procs)
		closedir(procs);
	return pid;
}

const char *modstate_who(pid_t pid, char *buf, size_t size)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (!pid) {
		snprintf(buf, size, "an unknown process");
		return buf;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	snprintf(buf, size, *comm ? "pid %d (%s)" : "pid %d", pid, comm);
	return buf;
}
