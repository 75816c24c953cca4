// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel that loads only signed modules, as under Secure Boot: what it
 * does with an unsigned schedrec.ko, and what schedrec says.
 *
 * Both switches this turns on stay on until the guest powers off (lockdown
 * can only be raised, module.sig_enforce only set), so this binary runs
 * after every other (run-guest.sh runs them in name order: zz_), and its
 * tests run in the order written, lockdown first: with sig_enforce on, the
 * kernel would answer EKEYREJECTED before lockdown is asked.
 *
 * The unsigned module is /lib/schedrec.ko with its signature (if dkms
 * signed it, with a key the guest does not know) cut off; it loads before
 * anything is turned on, so a refusal after is the policy's doing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"
#include "modsig.h"

#define UNSIGNED_KO	"/tmp/schedrec-unsigned.ko"
#define ERR_PATH	"/tmp/sigenforce.err"
#define SECURITYFS	"/sys/kernel/security"

static const char *module_path(void)
{
	const char *path = getenv("SCHEDREC_KO");

	return path ? path : SR_MODULE_PATH;
}

/* Copy @from to @to without its signature; 1 if it had one, or -errno. */
static int strip_signature(const char *from, const char *to)
{
	const size_t magic = strlen(MODSIG_MAGIC);
	unsigned char *buf = NULL, *p;
	size_t len = 0, cap = 0, sig;
	int fd, ret = 0;
	ssize_t n;

	fd = open(from, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n <= 0) {
			ret = n ? -errno : 0;
			break;
		}
		len += n;
	}
	close(fd);
	/* body, signature, struct module_signature (12 bytes), magic */
	if (!ret && len > magic + 12 &&
	    !memcmp(buf + len - magic, MODSIG_MAGIC, magic)) {
		p = buf + len - magic - 12;
		sig = (size_t)p[8] << 24 | p[9] << 16 | p[10] << 8 | p[11];
		if (sig > len - magic - 12) {
			ret = -EBADMSG;
		} else {
			len -= magic + 12 + sig;
			ret = 1;
		}
	}
	if (ret >= 0) {
		fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
			ret = -errno;
		if (fd >= 0)
			close(fd);
	}
	free(buf);
	return ret;
}

/* How many times the kernel log holds @text now. */
static int klog_count(const char *text)
{
	int size = klogctl(10, NULL, 0), len, count = 0;	/* SIZE_BUFFER */
	char *buf, *p;

	if (size <= 0)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		return -1;
	len = klogctl(3, buf, size);			/* READ_ALL */
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = 0;
	for (p = buf; (p = strstr(p, text)); p += strlen(text))
		count++;
	free(buf);
	return count;
}

/* finit_module() of @path, no parameters: 0 or -errno. */
static int load(const char *path)
{
	return sr_load_ko(path, NULL);
}

/* Run schedrec @argv: its exit status, stdout into @out, stderr into @err. */
static int run(char *const argv[], char *out, size_t out_size, char *err,
	       size_t err_size)
{
	int ret = sr_run_schedrec(argv, NULL, ERR_PATH, out, out_size);

	sr_read_text(ERR_PATH, err, err_size);
	unlink(ERR_PATH);
	return ret;
}

FIXTURE(sigenforce) {
	int had_sig;	/* /lib/schedrec.ko is signed */
};

/* The module unloaded, and its unsigned copy made. */
FIXTURE_SETUP(sigenforce)
{
	if (sr_module_loaded())
		ASSERT_EQ(0, sr_module_unload_wait());
	self->had_sig = strip_signature(module_path(), UNSIGNED_KO);
	ASSERT_LE(0, self->had_sig);
	TH_LOG("%s: %s", module_path(),
	       self->had_sig ? "signed" : "unsigned");
}

FIXTURE_TEARDOWN(sigenforce)
{
	unlink(UNSIGNED_KO);
}

TEST_F(sigenforce, lockdown_refuses_unsigned_with_eperm)
{
	const char *restricted =
		"unsigned module loading is restricted; see man kernel_lockdown.7";
	char *const status[] = { "schedrec", "status", NULL };
	char buf[256], out[1024], err[4096];
	int before;

	if (access(MODSIG_LOCKDOWN_FILE, F_OK))
		mount("securityfs", SECURITYFS, "securityfs", 0, NULL);
	if (access(MODSIG_LOCKDOWN_FILE, F_OK))
		SKIP(return, "no %s: a kernel without the lockdown LSM",
		     MODSIG_LOCKDOWN_FILE);
	sr_read_text(MODSIG_LOCKDOWN_FILE, buf, sizeof(buf));
	ASSERT_NE(NULL, strstr(buf, "[none]"))
		TH_LOG("the kernel is locked down already: %s", buf);
	sr_read_text(MODSIG_ENFORCE_FILE, buf, sizeof(buf));
	ASSERT_STREQ("N\n", buf)
		TH_LOG("sig_enforce is on already: lockdown would not be asked");

	/* the copy is a module the kernel loads while nothing is enforced */
	ASSERT_EQ(0, load(UNSIGNED_KO));
	ASSERT_EQ(0, sr_module_unload_wait());

	ASSERT_EQ(0, sr_write_text(MODSIG_LOCKDOWN_FILE, "integrity"));
	sr_read_text(MODSIG_LOCKDOWN_FILE, buf, sizeof(buf));
	ASSERT_NE(NULL, strstr(buf, "[integrity]")) TH_LOG("%s", buf);

	before = klog_count(restricted);
	EXPECT_EQ(-EPERM, load(UNSIGNED_KO));
	EXPECT_LT(before, klog_count(restricted))
		TH_LOG("no \"%s\" in the kernel log", restricted);
	/* signed with a key the guest does not know: the same */
	if (self->had_sig)
		EXPECT_EQ(-EPERM, load(module_path()));
	EXPECT_FALSE(sr_module_loaded());

	EXPECT_EQ(3, run(status, out, sizeof(out), err, sizeof(err)));
	EXPECT_NE(NULL, strstr(out, "not loaded")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(err, "loads only signed modules")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "lockdown=integrity")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "\"Operation not permitted\"")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "Secure Boot")) TH_LOG("%s", err);
	EXPECT_EQ(NULL, strstr(err, "Key was rejected")) TH_LOG("%s", err);
}

/* Put a copy of @from where DKMS installs the module for this kernel. */
static int stage_installed(const char *from, char *path, size_t size)
{
	struct utsname uts;
	char cmd[512];

	if (uname(&uts))
		return -errno;
	snprintf(path, size, "/lib/modules/%s/updates/dkms/schedrec.ko",
		 uts.release);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p /lib/modules/%s/updates/dkms && cp %s %s",
		 uts.release, from, path);
	return system(cmd) ? -EIO : 0;
}

TEST_F(sigenforce, sig_enforce_refuses_unsigned_with_ekeyrejected)
{
	const char *rejected = "Loading of unsigned module is rejected";
	const char *unknown_key =
		"Loading of module with unavailable key is rejected";
	char *const status[] = { "schedrec", "status", NULL };
	char *const record[] = { "schedrec", "record", "-o",
				 "/tmp/sigenforce.srec", "--", "true", NULL };
	char buf[256], path[512], want[600], out[1024], err[4096];
	int before;

	/* on it goes, and it stays on: bool_enable_only */
	ASSERT_EQ(0, sr_write_text(MODSIG_ENFORCE_FILE, "1"));
	sr_read_text(MODSIG_ENFORCE_FILE, buf, sizeof(buf));
	ASSERT_STREQ("Y\n", buf);
	EXPECT_EQ(-EROFS, sr_write_text(MODSIG_ENFORCE_FILE, "0"));
	sr_read_text(MODSIG_ENFORCE_FILE, buf, sizeof(buf));
	EXPECT_STREQ("Y\n", buf);

	before = klog_count(rejected);
	EXPECT_EQ(-EKEYREJECTED, load(UNSIGNED_KO));
	EXPECT_LT(before, klog_count(rejected))
		TH_LOG("no \"%s\" in the kernel log", rejected);
	if (self->had_sig) {
		before = klog_count(unknown_key);
		EXPECT_EQ(-EKEYREJECTED, load(module_path()));
		EXPECT_LT(before, klog_count(unknown_key))
			TH_LOG("no \"%s\" in the kernel log", unknown_key);
	}
	ASSERT_FALSE(sr_module_loaded());

	ASSERT_EQ(0, stage_installed(UNSIGNED_KO, path, sizeof(path)));
	EXPECT_EQ(3, run(status, out, sizeof(out), err, sizeof(err)));
	EXPECT_NE(NULL, strstr(out, "not loaded")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(err, "schedrec status: this kernel loads only signed modules (module.sig_enforce is on)"))
		TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "\"Key was rejected by service\"")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "MOK")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "README, \"Secure Boot\"")) TH_LOG("%s", err);
	snprintf(want, sizeof(want), "%s carries no signature", path);
	EXPECT_NE(NULL, strstr(err, want)) TH_LOG("%s", err);

	EXPECT_EQ(3, run(record, out, sizeof(out), err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "schedrec record: schedrec.ko is not loaded"))
		TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "schedrec record: this kernel loads only signed modules"))
		TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "\"Key was rejected by service\"")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, want)) TH_LOG("%s", err);
	EXPECT_NE(0, access("/tmp/sigenforce.srec", F_OK));

	/* the module as dkms signed it, if it did: said to be signed */
	if (self->had_sig) {
		ASSERT_EQ(0, stage_installed(module_path(), path, sizeof(path)));
		EXPECT_EQ(3, run(status, out, sizeof(out), err, sizeof(err)));
		snprintf(want, sizeof(want), "%s is signed", path);
		EXPECT_NE(NULL, strstr(err, want)) TH_LOG("%s", err);
	}
	unlink(path);
}

TEST_HARNESS_MAIN
