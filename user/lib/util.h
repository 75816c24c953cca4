/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers every userspace file of schedrec may use. */
#ifndef SCHEDREC_UTIL_H
#define SCHEDREC_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define __printf(fmt, args)	__attribute__((format(printf, fmt, args)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * The C library says at start-up what the CPU has, for
 * CPU_FEATURE_ACTIVE() of <sys/platform/x86.h> (glibc 2.33 on x86-64):
 * CPUID here would trap to the hypervisor in a VM, some 25 us a leaf.
 */
#if defined(__x86_64__) && defined(__GLIBC__) && \
	(__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#define SREC_CPU_FEATURES	1
#endif

/* Whether @s ends with @end */
static inline bool str_ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);

	return a >= b && !strcmp(s + a - b, end);
}

/* Now, by @clock (CLOCK_MONOTONIC, CLOCK_REALTIME), in ns. */
static inline uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#endif /* SCHEDREC_UTIL_H */
