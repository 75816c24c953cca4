// SPDX-License-Identifier: GPL-2.0
/*
 * The module's settings as a whole: read, change in a safe order, restore.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
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

void modstate_explain(const char *verb, const struct modversion *mv, int err)
{
	char msg[512];

	if (err == -ENOENT) {
		tool_error(verb, 0, "schedrec.ko is not loaded: modprobe schedrec (or insmod kmod/schedrec.ko)");
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
