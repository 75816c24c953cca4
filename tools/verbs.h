/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verbs tools/ gives the schedrec command (user/schedrec.c): each
 * parses its own options and returns an exit status of toolerr.h.
 */
#ifndef SCHEDREC_VERBS_H
#define SCHEDREC_VERBS_H

int cmd_report(int argc, char **argv);	/* tools/report.c */
int cmd_export(int argc, char **argv);	/* tools/export.c */

#endif /* SCHEDREC_VERBS_H */
