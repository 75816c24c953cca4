// SPDX-License-Identifier: GPL-2.0
/* Memory on the drainer's NUMA node, libnuma loaded when needed. */
#include <dlfcn.h>
#include <numa.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nodemem.h"

/* libnuma's functions that record uses, once loaded */
static struct {
	void *handle;
	typeof(numa_available) *available;
	typeof(numa_node_of_cpu) *node_of_cpu;
	typeof(numa_alloc_onnode) *alloc_onnode;
	typeof(numa_free) *free;
} numa;

static int node = -1;

/* Load libnuma; false if it is not there (nothing is kept then). */
static bool numa_load(void)
{
	if (numa.handle)
		return true;
	numa.handle = dlopen("libnuma.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!numa.handle)
		return false;
	numa.available = dlsym(numa.handle, "numa_available");
	numa.node_of_cpu = dlsym(numa.handle, "numa_node_of_cpu");
	numa.alloc_onnode = dlsym(numa.handle, "numa_alloc_onnode");
	numa.free = dlsym(numa.handle, "numa_free");
	if (numa.available && numa.node_of_cpu && numa.alloc_onnode &&
	    numa.free)
		return true;
	dlclose(numa.handle);
	memset(&numa, 0, sizeof(numa));
	return false;
}

int nodemem_use_cpu(int cpu)
{
	node = -1;
	if (numa_load() && numa.available() >= 0)
		node = numa.node_of_cpu(cpu);
	return node;
}

void *nodemem_alloc(size_t size)
{
	void *p;

	if (node < 0)
		return calloc(1, size);
	p = numa.alloc_onnode(size, node);
	if (p)
		memset(p, 0, size);
	return p;
}

void nodemem_free(void *p, size_t size)
{
	if (node < 0)
		free(p);
	else
		numa.free(p, size);
}
