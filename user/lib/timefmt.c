// SPDX-License-Identifier: GPL-2.0
/* Durations and times as users write and read them; see timefmt.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timefmt.h"
#include "util.h"

/*
 * A decimal number "123.456" as an integer scaled by @scale (a power of
 * ten, at most 10^9); digits past the scale are dropped.  Returns the
 * number of characters used, 0 if there is no number.
 */
static size_t parse_scaled(const char *s, uint64_t scale, uint64_t *value)
{
	uint64_t whole = 0, frac = 0, unit = scale;
	size_t i = 0;
	bool digits = false;

	for (; s[i] >= '0' && s[i] <= '9'; i++, digits = true) {
		if (whole > (UINT64_MAX - 9) / 10)
			return 0;
		whole = whole * 10 + (s[i] - '0');
	}
	if (s[i] == '.') {
		for (i++; s[i] >= '0' && s[i] <= '9'; i++, digits = true) {
			unit /= 10;
			frac += (s[i] - '0') * unit;
		}
	}
	if (!digits || (scale && whole > UINT64_MAX / scale))
		return 0;
	*value = whole * scale + frac;
	return i;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *name;
		uint64_t scale;		/* of the number as parsed */
		uint64_t times;		/* then */
	} units[] = {
		{ "ns", 1, 1 }, { "us", 1000, 1 }, { "ms", 1000000, 1 },
		{ "s", NSEC_PER_SEC, 1 }, { "m", NSEC_PER_SEC, 60 },
		{ "h", NSEC_PER_SEC, 3600 },
	};
	uint64_t value;
	size_t used, i;

	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		used = parse_scaled(s, units[i].scale, &value);
		if (used && !strcmp(s + used, units[i].name) &&
		    value <= UINT64_MAX / units[i].times) {
			*ns = value * units[i].times;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_seconds(const char *s, uint64_t *ns)
{
	size_t used = parse_scaled(s, NSEC_PER_SEC, ns);

	return used && !s[used] ? 0 : -EINVAL;
}

int parse_range(const char *s, uint64_t *start, bool *has_start,
		uint64_t *end, bool *has_end)
{
	const char *colon = strchr(s, ':');
	char left[64];
	size_t len;

	if (!colon || strchr(colon + 1, ':'))
		return -EINVAL;
	len = colon - s;
	if (len >= sizeof(left))
		return -EINVAL;
	memcpy(left, s, len);
	left[len] = '\0';
	*has_start = len > 0;
	*has_end = colon[1] != '\0';
	*start = 0;
	*end = UINT64_MAX;
	if (*has_start && parse_seconds(left, start))
		return -EINVAL;
	if (*has_end && parse_seconds(colon + 1, end))
		return -EINVAL;
	return *end > *start ? 0 : -EINVAL;
}

static int parse_number(const char **s, uint32_t *value)
{
	char *end;
	unsigned long v;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v > UINT32_MAX)
		return -EINVAL;
	*value = v;
	*s = end;
	return 0;
}

int parse_list(const char *s, uint32_t max,
	       void (*add)(void *arg, uint32_t first, uint32_t last),
	       void *arg)
{
	uint32_t first, last;

	do {
		if (parse_number(&s, &first))
			return -EINVAL;
		last = first;
		if (*s == '-') {
			s++;
			if (parse_number(&s, &last) || last < first)
				return -EINVAL;
		}
		if (last > max)
			return -EINVAL;
		add(arg, first, last);
	} while (*s++ == ',');
	return s[-1] ? -EINVAL : 0;
}

char *format_duration(char buf[DURATION_LEN], uint64_t ns)
{
	static const struct {
		uint64_t scale;
		const char *name;
	} units[] = {
		{ NSEC_PER_SEC, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		uint64_t scale = units[i].scale;
		/* rounded to thousandths of the unit */
		uint64_t milli = (ns + scale / 2000) / (scale / 1000);

		/* the unit whose value rounds to at least 1.000 */
		if (ns >= scale - scale / 2000) {
			snprintf(buf, DURATION_LEN, "%" PRIu64 ".%03" PRIu64
				 " %s", milli / 1000, milli % 1000,
				 units[i].name);
			return buf;
		}
	}
	snprintf(buf, DURATION_LEN, "%" PRIu64 " ns", ns);
	return buf;
}

char *format_seconds(char buf[SECONDS_LEN], int64_t ns, int decimals)
{
	uint64_t abs = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	uint64_t div = 1;
	int i;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	for (i = decimals; i < 9; i++)
		div *= 10;
	/* rounded to the last decimal shown */
	abs = (abs + div / 2) / div;
	div = 1;
	for (i = 0; i < decimals; i++)
		div *= 10;
	if (decimals)
		snprintf(buf, SECONDS_LEN, "%s%" PRIu64 ".%0*" PRIu64,
			 ns < 0 && abs ? "-" : "", abs / div, decimals,
			 abs % div);
	else
		snprintf(buf, SECONDS_LEN, "%s%" PRIu64,
			 ns < 0 && abs ? "-" : "", abs);
	return buf;
}
