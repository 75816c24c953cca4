/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoint probes: finding the tracepoints and attaching the probes. */
#ifndef _SCHEDREC_PROBES_H
#define _SCHEDREC_PROBES_H

#include <linux/types.h>

struct schedrec_event_name {
	unsigned int id;
	const char *name;
	const char *tracepoint;
	unsigned int record_size;
};

/* Built from SCHEDREC_EVENTS(); ends with an entry whose name is NULL. */
extern const struct schedrec_event_name schedrec_event_names[];

int schedrec_probes_init(void);
int schedrec_probes_set(u32 mask);

#endif /* _SCHEDREC_PROBES_H */
