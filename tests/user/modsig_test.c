// SPDX-License-Identifier: GPL-2.0
/*
 * modsig, on files made to look like the kernel's: sig_enforce Y or N, each
 * lockdown level in brackets, files missing (no CONFIG_MODULE_SIG, no
 * securityfs) counting as off; a module file ending in the signature magic
 * is signed, one without it or too short is not, a compressed one is told
 * apart; the installed schedrec.ko is found where DKMS, then
 * modules_install, put it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "modsig.h"

FIXTURE(sig) {
	char root[64];
	char enforce[96];
	char lockdown[96];
};

static void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
}

static void put_text(const char *path, const char *text)
{
	put_file(path, text, strlen(text));
}

FIXTURE_SETUP(sig)
{
	snprintf(self->root, sizeof(self->root), "/tmp/modsig.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	snprintf(self->enforce, sizeof(self->enforce), "%s/sig_enforce",
		 self->root);
	snprintf(self->lockdown, sizeof(self->lockdown), "%s/lockdown",
		 self->root);
}

FIXTURE_TEARDOWN(sig)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->root);
	if (system(cmd))
		TH_LOG("could not remove %s", self->root);
}

TEST_F(sig, nothing_enforced)
{
	struct modsig_policy p;

	put_text(self->enforce, "N\n");
	put_text(self->lockdown, "[none] integrity confidentiality\n");
	modsig_policy_read(&p, self->enforce, self->lockdown);
	EXPECT_FALSE(p.enforce);
	EXPECT_STREQ("", p.lockdown);
	EXPECT_FALSE(modsig_refuses_unsigned(&p));
}

TEST_F(sig, files_missing_mean_off)
{
	struct modsig_policy p;

	modsig_policy_read(&p, self->enforce, self->lockdown);
	EXPECT_FALSE(p.enforce);
	EXPECT_STREQ("", p.lockdown);
	EXPECT_FALSE(modsig_refuses_unsigned(&p));
}

TEST_F(sig, sig_enforce_on)
{
	struct modsig_policy p;

	put_text(self->enforce, "Y\n");
	modsig_policy_read(&p, self->enforce, self->lockdown);
	EXPECT_TRUE(p.enforce);
	EXPECT_STREQ("", p.lockdown);
	EXPECT_TRUE(modsig_refuses_unsigned(&p));
}

TEST_F(sig, lockdown_levels)
{
	struct modsig_policy p;

	put_text(self->enforce, "N\n");
	put_text(self->lockdown, "none [integrity] confidentiality\n");
	modsig_policy_read(&p, self->enforce, self->lockdown);
	EXPECT_FALSE(p.enforce);
	EXPECT_STREQ("integrity", p.lockdown);
	EXPECT_TRUE(modsig_refuses_unsigned(&p));

	put_text(self->lockdown, "none integrity [confidentiality]\n");
	modsig_policy_read(&p, self->enforce, self->lockdown);
	EXPECT_STREQ("confidentiality", p.lockdown);
	EXPECT_TRUE(modsig_refuses_unsigned(&p));

	/* no brackets, or an unterminated one: not understood, off */
	put_text(self->lockdown, "none integrity [confidentiality\n");
	modsig_policy_read(&p, self->enforce, self->lockdown);
	EXPECT_STREQ("", p.lockdown);
	EXPECT_FALSE(modsig_refuses_unsigned(&p));
}

TEST_F(sig, module_files)
{
	static const char elf[] = "\177ELF\2\1\1\0 a module body";
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0, 0, 4,
					    1, 2, 3, 4 };
	char path[128], buf[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/m.ko", self->root);
	EXPECT_EQ(-ENOENT, modsig_file(path));

	put_file(path, elf, sizeof(elf));
	EXPECT_EQ(MODSIG_UNSIGNED, modsig_file(path));

	/* a body, a signature block, the magic: as sign-file appends it */
	n = sizeof(elf);
	memcpy(buf, elf, n);
	memset(buf + n, 0x5a, 40);
	n += 40;
	memcpy(buf + n, MODSIG_MAGIC, strlen(MODSIG_MAGIC));
	n += strlen(MODSIG_MAGIC);
	put_file(path, buf, n);
	EXPECT_EQ(MODSIG_SIGNED, modsig_file(path));

	/* the magic one byte short of the end is not a signature */
	buf[n - 1] = 'x';
	put_file(path, buf, n);
	EXPECT_EQ(MODSIG_UNSIGNED, modsig_file(path));

	/* shorter than the magic, and too short to have a header */
	put_file(path, "\177ELF\2\1\1\0 tiny", 13);
	EXPECT_EQ(MODSIG_UNSIGNED, modsig_file(path));
	put_file(path, "ab", 2);
	EXPECT_EQ(-EIO, modsig_file(path));

	snprintf(path, sizeof(path), "%s/m.ko.xz", self->root);
	put_file(path, xz, sizeof(xz));
	EXPECT_EQ(MODSIG_COMPRESSED, modsig_file(path));
}

static void make_dirs(const char *root, const char *sub)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s", root, sub);
	if (system(cmd))
		abort();
}

TEST_F(sig, find_module)
{
	char want[256], got[256];

	EXPECT_EQ(-ENOENT, modsig_find_module(got, sizeof(got), self->root,
					      "6.1.0-1-amd64"));
	EXPECT_STREQ("", got);

	make_dirs(self->root, "6.1.0-1-amd64/extra");
	snprintf(want, sizeof(want), "%s/6.1.0-1-amd64/extra/schedrec.ko",
		 self->root);
	put_text(want, "x");
	EXPECT_EQ(0, modsig_find_module(got, sizeof(got), self->root,
					"6.1.0-1-amd64"));
	EXPECT_STREQ(want, got);

	/* DKMS's comes first, compressed or not; another release is not it */
	make_dirs(self->root, "6.1.0-1-amd64/updates/dkms");
	make_dirs(self->root, "6.12.1-amd64/updates/dkms");
	snprintf(want, sizeof(want), "%s/6.1.0-1-amd64/updates/dkms/schedrec.ko.xz",
		 self->root);
	put_text(want, "x");
	EXPECT_EQ(0, modsig_find_module(got, sizeof(got), self->root,
					"6.1.0-1-amd64"));
	EXPECT_STREQ(want, got);
	EXPECT_EQ(-ENOENT, modsig_find_module(got, sizeof(got), self->root,
					      "6.12.2-amd64"));

	/* a buffer too small for the path finds nothing rather than a part */
	EXPECT_EQ(-ENOENT, modsig_find_module(got, 20, self->root,
					      "6.1.0-1-amd64"));
}

TEST_HARNESS_MAIN
