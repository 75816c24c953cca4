/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What needs care in the text of the Prometheus exposition format and of
 * OpenMetrics: label values (escaped, and UTF-8 whatever bytes a comm
 * holds) and numbers (seconds written exactly from nanoseconds, and a
 * histogram bucket's "le" in OpenMetrics' canonical form).
 */
#ifndef SCHEDREC_PROMTEXT_H
#define SCHEDREC_PROMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* Room for a number, NUL included. */
#define PROMTEXT_NUM_LEN	32

/*
 * @len bytes of @s as the inside of a label value into @dst, which has
 * room for 2 * @len bytes: a backslash, a double quote and a newline
 * become a backslash followed by a backslash, a double quote and an n; a
 * byte that is not part of valid UTF-8 becomes the Latin-1 character of
 * its value (label values must be UTF-8; promtool refuses others).
 * Returns the length written, no NUL added.
 */
size_t promtext_escape(char *dst, const char *s, size_t len);

/* @ns as seconds, exactly, without trailing zeros: "0", "0.0015", "3". */
char *promtext_seconds(char buf[PROMTEXT_NUM_LEN], uint64_t ns);

/*
 * @ns as seconds in OpenMetrics' canonical form for "le" values: what
 * Go's %g prints (an exponent below 1e-4 and from 1e+06 up), with ".0"
 * when that has neither a point nor an exponent: "1.999e-06",
 * "0.000255999", "1.0", "1e+06".  Exact: the decimal digits of @ns,
 * which up to 15 of them are also the shortest form Go would print.
 */
char *promtext_le(char buf[PROMTEXT_NUM_LEN], uint64_t ns);

#endif /* SCHEDREC_PROMTEXT_H */
