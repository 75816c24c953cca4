/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modsig: does this kernel load only signed modules, and is a schedrec.ko
 * signed?
 *
 * Two things make a kernel refuse an unsigned module (or one signed with a
 * key it does not trust): module.sig_enforce=1 (CONFIG_MODULE_SIG_FORCE,
 * the boot parameter, or a write of 1 to its sysfs file, which cannot be
 * undone), and lockdown (integrity or confidentiality: what Debian's
 * kernels turn on when booted with Secure Boot).  The first refuses with
 * EKEYREJECTED ("Key was rejected by service"), the second, when the first
 * is off, with EPERM (kernel/module/signing.c, module_sig_check()).
 *
 * A module's signature is appended to its file, which then ends with
 * MODSIG_MAGIC (scripts/sign-file); a compressed module (.ko.xz) holds it
 * inside, where this does not look.
 */
#ifndef SCHEDREC_MODSIG_H
#define SCHEDREC_MODSIG_H

#include <stdbool.h>
#include <stddef.h>

#define MODSIG_ENFORCE_FILE	"/sys/module/module/parameters/sig_enforce"
#define MODSIG_LOCKDOWN_FILE	"/sys/kernel/security/lockdown"
#define MODSIG_MODULES_DIR	"/lib/modules"
#define MODSIG_MAGIC		"~Module signature appended~\n"

struct modsig_policy {
	bool enforce;		/* sig_enforce says Y */
	char lockdown[24];	/* the lockdown level in force, "" if none
				 * or unknown
				 */
};

/*
 * Fill @p from @enforce_file (NULL: MODSIG_ENFORCE_FILE) and
 * @lockdown_file (NULL: MODSIG_LOCKDOWN_FILE); a file that cannot be read
 * counts as off (a kernel without CONFIG_MODULE_SIG or the lockdown LSM,
 * or securityfs not mounted).
 */
void modsig_policy_read(struct modsig_policy *p, const char *enforce_file,
			const char *lockdown_file);

/* Does @p refuse a module that is unsigned, or signed by an unknown key? */
bool modsig_refuses_unsigned(const struct modsig_policy *p);

enum {
	MODSIG_UNSIGNED,
	MODSIG_SIGNED,
	MODSIG_COMPRESSED,	/* cannot tell without unpacking it */
};

/* What the module file @path is (MODSIG_*), or -errno. */
int modsig_file(const char *path);

/*
 * The first schedrec.ko (plain or compressed) that the usual installs put
 * under @modules_dir (NULL: MODSIG_MODULES_DIR)/@release: DKMS's
 * updates/dkms, modules_install's updates, then extra.  Its path into
 * @buf; 0, or -ENOENT if there is none.
 */
int modsig_find_module(char *buf, size_t size, const char *modules_dir,
		       const char *release);

#endif /* SCHEDREC_MODSIG_H */
