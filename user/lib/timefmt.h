/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Durations and times as users write and read them: parsing of "500ms",
 * "12.5:13" and "3,5-7", and printing with a unit; counts with their noun.
 */
#ifndef SCHEDREC_TIMEFMT_H
#define SCHEDREC_TIMEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_SEC	1000000000ull

/*
 * A duration: a decimal number and a unit, ns, us, ms, s, m (minutes) or
 * h ("500ms", "1.5s", "20us", "2m"); "0" alone is allowed.  0 or -EINVAL.
 */
int parse_duration(const char *s, uint64_t *ns);

/* Seconds, a decimal number without unit ("12.5").  0 or -EINVAL. */
int parse_seconds(const char *s, uint64_t *ns);

/*
 * A range of seconds "START:END", either side empty for open (then
 * *@has_start or *@has_end is false).  END must be after START.
 * 0 or -EINVAL.
 */
int parse_range(const char *s, uint64_t *start, bool *has_start,
		uint64_t *end, bool *has_end);

/*
 * A list of unsigned numbers and ranges, "3", "1,4", "0-3,8": each range
 * (first <= last <= @max; a number is a range of one) is passed to @add,
 * once however many numbers it holds.  0 or -EINVAL.
 */
int parse_list(const char *s, uint32_t max,
	       void (*add)(void *arg, uint32_t first, uint32_t last),
	       void *arg);

/* Sizes of the buffers the format functions need, NUL included. */
#define DURATION_LEN	24
#define SECONDS_LEN	32

/*
 * @ns with a unit: "950 ns", "12.346 us", "48.120 ms", "2.000 s" (three
 * decimals from the microsecond up).
 */
char *format_duration(char buf[DURATION_LEN], uint64_t ns);

/* Seconds with @decimals decimals (at most 9), signed: "-0.000012". */
char *format_seconds(char buf[SECONDS_LEN], int64_t ns, int decimals);

/* The noun for @n of it: plural(n, "interval", "intervals"). */
static inline const char *plural(uint64_t n, const char *one,
				 const char *many)
{
	return n == 1 ? one : many;
}

#endif /* SCHEDREC_TIMEFMT_H */
