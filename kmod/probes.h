/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoint probes: finding the tracepoints and attaching the probes. */
#ifndef _SCHEDREC_PROBES_H
#define _SCHEDREC_PROBES_H

#include <linux/types.h>

#include "../include/uapi/schedrec.h"

/* From the ABI's tables, indexed by record type. */
extern const char *const schedrec_event_names[SCHEDREC_REC_MAX + 1];
extern const char *const schedrec_event_tracepoints[SCHEDREC_EV_LAST + 1];
extern const unsigned int schedrec_record_sizes[SCHEDREC_REC_MAX + 1];

int schedrec_probes_init(void);
int schedrec_probes_set(u32 mask);

#endif /* _SCHEDREC_PROBES_H */
