/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verbs of the schedrec front command, one file each, and what they
 * share.  The version, the exit statuses and tool_error() are those of
 * tools/ too (toolerr.h); report and export are tools/'s (verbs.h).
 */
#ifndef SCHEDREC_CMD_H
#define SCHEDREC_CMD_H

#include "toolerr.h"
#include "util.h"

int cmd_record(int argc, char **argv);
int cmd_status(int argc, char **argv);

#endif /* SCHEDREC_CMD_H */
