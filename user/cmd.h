/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verbs of the schedrec front command, one file each, and what they
 * share: the version and the exit statuses.
 */
#ifndef SCHEDREC_CMD_H
#define SCHEDREC_CMD_H

#include "util.h"

/* The tree's version: the VERSION file, passed by user/Makefile */
#ifndef SCHEDREC_VERSION
#error "SCHEDREC_VERSION comes from the VERSION file: build with user/Makefile"
#endif

/* Exit statuses of every verb. */
enum {
	EXIT_OK = 0,
	EXIT_LOST = 1,		/* record: done, but events were lost */
	EXIT_USAGE = 2,		/* a wrong option or argument */
	EXIT_FAIL = 3,		/* could not do it: module, permission, I/O */
};

int cmd_record(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_report(int argc, char **argv);	/* tools/report.c */
int cmd_export(int argc, char **argv);	/* tools/export.c */

/* "schedrec VERB: " + message + ": strerror(-err)" when err != 0, to stderr */
__printf(3, 4)
void cmd_error(const char *verb, int err, const char *fmt, ...);

#endif /* SCHEDREC_CMD_H */
