/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory on the NUMA node of the drainer's CPU, through libnuma.  libnuma
 * is loaded (dlopen) by the one verb that uses it, record: linked into
 * schedrec, its start-up (it reads /proc/self/status and every node's
 * meminfo) would cost each run of a report half a millisecond.  Without
 * libnuma, or on a machine without NUMA, memory comes from calloc().
 */
#ifndef SCHEDREC_NODEMEM_H
#define SCHEDREC_NODEMEM_H

#include <stddef.h>

/* From now on, allocate on the node of @cpu: that node, or -1 (no NUMA). */
int nodemem_use_cpu(int cpu);

/* @size bytes, zeroed; NULL on ENOMEM. */
void *nodemem_alloc(size_t size);

/* What nodemem_alloc() gave, of @size bytes. */
void nodemem_free(void *p, size_t size);

#endif /* SCHEDREC_NODEMEM_H */
