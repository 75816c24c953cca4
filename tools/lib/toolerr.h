/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the verbs of tools/ share with the command above them (user/cmd.h
 * includes this): the tree's version, the exit statuses of every verb, and
 * how a verb says an error.
 */
#ifndef SCHEDREC_TOOLERR_H
#define SCHEDREC_TOOLERR_H

#include "util.h"

/* The tree's version: the VERSION file, passed by the Makefiles */
#ifndef SCHEDREC_VERSION
#error "SCHEDREC_VERSION comes from the VERSION file: build with user/ or tools/ Makefile"
#endif

/* Exit statuses of every verb. */
enum {
	EXIT_OK = 0,
	EXIT_LOST = 1,		/* record: done, but events were lost */
	EXIT_USAGE = 2,		/* a wrong option or argument */
	EXIT_FAIL = 3,		/* could not do it: module, permission, I/O */
};

/*
 * To stderr: "schedrec VERB: " + message, then ": strerror(err)" when err
 * is not 0 (either sign), and a newline.
 */
__printf(3, 4)
void tool_error(const char *verb, int err, const char *fmt, ...);

#endif /* SCHEDREC_TOOLERR_H */
