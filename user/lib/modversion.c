// SPDX-License-Identifier: GPL-2.0
/* Which schedrec.ko is loaded, and its ABI; see modversion.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "modversion.h"
#include "procfile.h"
#include "uapi/schedrec.h"

/* The first line of format, "abi_version N"; 0 or -EPROTO. */
static int parse_abi(const char *format, unsigned int *abi)
{
	char end;

	if (sscanf(format, "abi_version %u%c", abi, &end) != 2 ||
	    end != '\n' || !*abi)
		return -EPROTO;
	return 0;
}

void modversion_read(struct modversion *mv, const char *proc_dir,
		     const char *sys_dir)
{
	char path[PATH_MAX], buf[256];
	ssize_t len;

	memset(mv, 0, sizeof(*mv));
	if (!proc_dir)
		proc_dir = SCHEDREC_PROC_DIR;
	if (!sys_dir)
		sys_dir = MODVERSION_SYS_DIR;
	mv->loaded = !access(proc_dir, F_OK);
	if (!mv->loaded) {
		mv->abi_error = -ENOENT;
		return;
	}
	snprintf(path, sizeof(path), "%s/version", sys_dir);
	len = procfile_read(path, mv->version, sizeof(mv->version));
	if (len > 0)
		mv->version[strcspn(mv->version, "\n")] = '\0';
	else
		mv->version[0] = '\0';
	snprintf(path, sizeof(path), "%s/format", proc_dir);
	len = procfile_read(path, buf, sizeof(buf));
	if (len < 0)
		mv->abi_error = len;
	else
		mv->abi_error = parse_abi(buf, &mv->abi);
	if (mv->abi_error)
		mv->abi = 0;
}

int modversion_check(const struct modversion *mv, unsigned int tool_abi)
{
	if (!mv->loaded)
		return -ENOENT;
	if (mv->abi_error)
		return mv->abi_error;
	return mv->abi == tool_abi ? 0 : -EPROTO;
}

void modversion_mismatch(char *buf, size_t size, const struct modversion *mv,
			 const char *tool_version, unsigned int tool_abi)
{
	char module[128], abi[96];

	snprintf(module, sizeof(module), "the loaded schedrec.ko%s%s",
		 *mv->version ? " " : " (version unknown)", mv->version);
	if (mv->abi)
		snprintf(abi, sizeof(abi), "speaks ABI %u", mv->abi);
	else
		snprintf(abi, sizeof(abi),
			 "does not state its ABI in %s/format (too old, or not schedrec's)",
			 SCHEDREC_PROC_DIR);
	snprintf(buf, size,
		 "%s %s, but this schedrec %s speaks ABI %u: use the schedrec command of the module's version, or load the module of this one (make dkms-install in its source tree, then rmmod schedrec; modprobe schedrec)",
		 module, abi, tool_version, tool_abi);
}
