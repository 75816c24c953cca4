// SPDX-License-Identifier: GPL-2.0
/*
 * The module version check of record, status and --version, on directories
 * made to look like /proc/schedrec and /sys/module/schedrec: a module of
 * our ABI passes; one of another ABI, or one whose format file does not
 * state its ABI, is refused with a message that names both versions and
 * says what to do; a module that is not loaded is told apart.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "modversion.h"
#include "uapi/schedrec.h"
#include "util.h"

FIXTURE(modversion) {
	char root[64];
	char proc[96];
	char sys[96];
};

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

FIXTURE_SETUP(modversion)
{
	snprintf(self->root, sizeof(self->root), "/tmp/modversion.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	snprintf(self->proc, sizeof(self->proc), "%s/proc", self->root);
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->root);
	ASSERT_EQ(0, mkdir(self->proc, 0700));
	ASSERT_EQ(0, mkdir(self->sys, 0700));
	put_file(self->sys, "version", "0.1.0\n");
}

FIXTURE_TEARDOWN(modversion)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->root);
	if (system(cmd))
		TH_LOG("could not remove %s", self->root);
}

TEST_F(modversion, same_abi_passes)
{
	struct modversion mv;
	char format[64];

	snprintf(format, sizeof(format), "abi_version %u\nclock CLOCK_MONOTONIC\n",
		 SCHEDREC_ABI_VERSION);
	put_file(self->proc, "format", format);
	modversion_read(&mv, self->proc, self->sys);
	EXPECT_TRUE(mv.loaded);
	EXPECT_EQ(SCHEDREC_ABI_VERSION, mv.abi);
	EXPECT_STREQ("0.1.0", mv.version);
	EXPECT_EQ(0, modversion_check(&mv, SCHEDREC_ABI_VERSION));
}

TEST_F(modversion, other_abi_refused)
{
	struct modversion mv;
	char msg[512];

	put_file(self->proc, "format", "abi_version 7\nclock CLOCK_MONOTONIC\n");
	put_file(self->sys, "version", "2.3.4\n");
	modversion_read(&mv, self->proc, self->sys);
	EXPECT_EQ(7, mv.abi);
	EXPECT_EQ(-EPROTO, modversion_check(&mv, 1));
	modversion_mismatch(msg, sizeof(msg), &mv, "0.1.0", 1);
	EXPECT_NE(NULL, strstr(msg, "schedrec.ko 2.3.4 speaks ABI 7")) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "schedrec 0.1.0 speaks ABI 1"));
	/* and what to do about it */
	EXPECT_NE(NULL, strstr(msg, "rmmod schedrec; modprobe schedrec"));
}

/* A module (ours or not) whose format does not start with its ABI. */
TEST_F(modversion, unstated_abi_refused)
{
	static const char *const formats[] = {
		"", "clock CLOCK_MONOTONIC\n", "abi_version x\n",
		"abi_version 0\n", "abi_version 1", "abi_version 1 2\n",
	};
	struct modversion mv;
	char msg[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		put_file(self->proc, "format", formats[i]);
		modversion_read(&mv, self->proc, self->sys);
		EXPECT_EQ(0, mv.abi) TH_LOG("format '%s'", formats[i]);
		EXPECT_EQ(-EPROTO, modversion_check(&mv, 1))
			TH_LOG("format '%s'", formats[i]);
	}
	put_file(self->proc, "format", "clock CLOCK_MONOTONIC\n");
	snprintf(msg, sizeof(msg), "%s/version", self->sys);
	ASSERT_EQ(0, unlink(msg));
	modversion_read(&mv, self->proc, self->sys);
	modversion_mismatch(msg, sizeof(msg), &mv, "0.1.0", 1);
	EXPECT_NE(NULL, strstr(msg, "schedrec.ko (version unknown) does not state its ABI in /proc/schedrec/format"))
		TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "schedrec 0.1.0 speaks ABI 1"));
}

TEST_F(modversion, not_loaded)
{
	struct modversion mv;
	char proc[128];

	snprintf(proc, sizeof(proc), "%s/absent", self->root);
	modversion_read(&mv, proc, self->sys);
	EXPECT_FALSE(mv.loaded);
	EXPECT_EQ(-ENOENT, modversion_check(&mv, 1));
}

/* A format that cannot be read is not taken for another ABI. */
TEST_F(modversion, unreadable_format)
{
	struct modversion mv;
	char format[128];

	snprintf(format, sizeof(format), "%s/format", self->proc);
	ASSERT_EQ(0, mkdir(format, 0700));
	snprintf(format, sizeof(format), "%s/version", self->sys);
	ASSERT_EQ(0, unlink(format));
	modversion_read(&mv, self->proc, self->sys);
	EXPECT_TRUE(mv.loaded);
	EXPECT_EQ(-EISDIR, modversion_check(&mv, 1));
	EXPECT_STREQ("", mv.version);
}

TEST_HARNESS_MAIN
