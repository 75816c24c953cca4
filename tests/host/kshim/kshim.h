/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's API to compile kmod/ring.c as a userspace
 * object, so the ring protocol runs with a real producer thread and a real
 * consumer thread (and under ThreadSanitizer).  Barriers map to the C11
 * atomics with the same ordering, so TSan checks the pairing the kernel
 * relies on.
 */
#ifndef _SCHEDREC_KSHIM_H
#define _SCHEDREC_KSHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef int gfp_t;

#define GFP_KERNEL	0
#define __GFP_ZERO	0
#define PAGE_SIZE	4096UL
#define PAGE_SHIFT	12

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* the kernel's acquire/release pair, as C11 atomics TSan understands */
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
/* the release half of that pair */
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* One possible CPU: the producer thread plays it. */
#define nr_cpu_ids	1u
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define cpu_to_node(cpu)	0
#define DECLARE_PER_CPU(type, name)	extern type name
#define DEFINE_PER_CPU(type, name)	type name
#define per_cpu(name, cpu)		(name)
#define __this_cpu_read(name)		(name)
#define __this_cpu_write(name, v)	((name) = (v))

/* No preemption, no hotplug: one CPU that never goes away. */
#define preempt_disable()		do { } while (0)
#define preempt_enable()		do { } while (0)
#define cpus_read_lock()		do { } while (0)
#define cpus_read_unlock()		do { } while (0)
#define CPUHP_AP_ONLINE_DYN		0

static inline int cpuhp_setup_state(int state, const char *name,
				    int (*startup)(unsigned int cpu),
				    int (*teardown)(unsigned int cpu))
{
	return startup ? startup(0) : 0;
}

static inline void cpuhp_remove_state(int state)
{
}

static inline u64 ktime_get_mono_fast_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

struct page;

static inline void *kzalloc_node(size_t size, gfp_t gfp, int node)
{
	return calloc(1, size);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return calloc(n, size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline struct page *alloc_pages_node(int node, gfp_t gfp, int order)
{
	void *p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	if (p)
		memset(p, 0, PAGE_SIZE);
	return p;
}

static inline void *page_address(struct page *page)
{
	return page;
}

static inline void __free_page(struct page *page)
{
	free(page);
}

static inline void free_page(unsigned long addr)
{
	free((void *)addr);
}

static inline void *vzalloc_node(unsigned long size, int node)
{
	return calloc(1, size);
}

static inline void vfree(const void *p)
{
	free((void *)p);
}

/* IRQ work runs "later": the test counts how often it was raised. */
struct irq_work {
	void (*func)(struct irq_work *work);
	unsigned long raised;
};

static inline void init_irq_work(struct irq_work *work,
				 void (*func)(struct irq_work *))
{
	work->func = func;
	work->raised = 0;
}

static inline bool irq_work_queue(struct irq_work *work)
{
	__atomic_add_fetch(&work->raised, 1, __ATOMIC_RELAXED);
	return true;
}

static inline void irq_work_sync(struct irq_work *work)
{
}

typedef struct {
	int unused;
} wait_queue_head_t;

#define init_waitqueue_head(wq)			((void)(wq))
#define wake_up_interruptible(wq)		((void)(wq))
#define wake_up_interruptible_all(wq)		((void)(wq))

#endif /* _SCHEDREC_KSHIM_H */
