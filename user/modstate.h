/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's settings as a whole (/proc/schedrec: enable, events, mode,
 * buf_kb): read them, change them in a safe order, put them back.
 */
#ifndef SCHEDREC_MODSTATE_H
#define SCHEDREC_MODSTATE_H

#include <stdbool.h>
#include <stdint.h>

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

/* What modstate_require() says for @err, modversion_check()'s value. */
void modstate_explain(const char *verb, const struct modversion *mv, int err);

int modstate_read(struct modstate *st);

/*
 * Make the module's settings @want, from @cur: recording off first, then
 * mode, ring size and events, recording on last if @want says so (which
 * resets the rings).  Returns 0 or the first failing write's -errno, with
 * the name of that file in *@what.
 */
int modstate_apply(const struct modstate *want, const struct modstate *cur,
		   const char **what);

#endif /* SCHEDREC_MODSTATE_H */
