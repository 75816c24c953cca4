/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers every userspace file of schedrec may use. */
#ifndef SCHEDREC_UTIL_H
#define SCHEDREC_UTIL_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define __printf(fmt, args)	__attribute__((format(printf, fmt, args)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif /* SCHEDREC_UTIL_H */
