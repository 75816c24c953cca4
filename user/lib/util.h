/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers every userspace file of schedrec may use. */
#ifndef SCHEDREC_UTIL_H
#define SCHEDREC_UTIL_H

#include <stdint.h>
#include <time.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define __printf(fmt, args)	__attribute__((format(printf, fmt, args)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* Now, by @clock (CLOCK_MONOTONIC, CLOCK_REALTIME), in ns. */
static inline uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#endif /* SCHEDREC_UTIL_H */
