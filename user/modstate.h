/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's settings as a whole (/proc/schedrec: enable, events, mode,
 * buf_kb): read them, change them in a safe order, put them back.
 */
#ifndef SCHEDREC_MODSTATE_H
#define SCHEDREC_MODSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "modversion.h"

struct modstate {
	bool enabled;
	bool overwrite;
	unsigned int buf_kb;
	uint32_t events;
};

/*
 * Check that the module is loaded and speaks our ABI: 0, -ENOENT (not
 * loaded), -EACCES (not root), -EPROTO (another ABI version, stored in
 * *@abi).
 */
int modstate_check(unsigned int *abi);

/*
 * The same check, saying on stderr, as `schedrec @verb`, what is wrong and
 * what to do: not loaded, not readable (not root), or another ABI (both
 * versions named).  Returns modstate_check()'s value.
 */
int modstate_require(const char *verb);

/*
 * What modstate_require() says for @err, modversion_check()'s value; for a
 * module not loaded, modstate_explain_signing() too.
 */
void modstate_explain(const char *verb, const struct modversion *mv, int err);

/*
 * For a module that is not loaded: if this kernel refuses unsigned modules
 * (module.sig_enforce, or lockdown as under Secure Boot), say so on stderr,
 * with the error an unsigned schedrec.ko gets and what to do, and whether
 * the installed schedrec.ko (DKMS's or modules_install's, for the running
 * kernel) is signed.  Nothing if the kernel loads unsigned modules.
 */
void modstate_explain_signing(const char *verb);

int modstate_read(struct modstate *st);

/*
 * Make the module's settings @want, from @cur: recording off first, then
 * mode, ring size and events, recording on last if @want says so (which
 * resets the rings); nothing if they are @cur already.  Returns 0 or the
 * first failing write's -errno, with the name of that file in *@what.
 */
int modstate_apply(const struct modstate *want, const struct modstate *cur,
		   const char **what);

/*
 * What a recorder puts back: @cur, but each setting that still holds what
 * the recorder @set goes back to what it @found; one someone else has
 * changed since stays.  If recording is on and not by the recorder's
 * doing, nothing is touched: changing anything would stop it.
 */
void modstate_undo(struct modstate *back, const struct modstate *found,
		   const struct modstate *set, const struct modstate *cur);

/*
 * The recorder's lock: an exclusive flock() of /proc/schedrec/enable, held
 * while a recorder may change the module's settings, so that only one
 * does; it goes with its process, whatever ends it.  Returns its fd, or
 * -EBUSY with the holder's pid in *@holder (0 if it cannot be found),
 * or -errno.
 */
int modstate_lock(pid_t *holder);

/* The first process but us with @path open; 0 if none is found. */
pid_t modstate_opener(const char *path);

/* "pid N (comm)" of @pid into @buf, or "an unknown process" for 0. */
const char *modstate_who(pid_t pid, char *buf, size_t size);

#endif /* SCHEDREC_MODSTATE_H */
