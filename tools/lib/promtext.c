// SPDX-License-Identifier: GPL-2.0
/*
 * Label values and numbers of the Prometheus and OpenMetrics texts
 * (promtext.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "promtext.h"
#include "utf8.h"

#define NS_PER_SEC	((uint64_t)1000000000)

size_t promtext_escape(char *dst, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, out = 0, n;

	while (i < len) {
		if (p[i] == '\\' || p[i] == '"' || p[i] == '\n') {
			dst[out++] = '\\';
			dst[out++] = p[i] == '\n' ? 'n' : p[i];
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (n) {
			memcpy(dst + out, p + i, n);
			out += n;
			i += n;
		} else {
			/* U+0080..U+00FF, in two bytes */
			dst[out++] = 0xc0 | p[i] >> 6;
			dst[out++] = 0x80 | (p[i] & 0x3f);
			i++;
		}
	}
	return out;
}

char *promtext_seconds(char buf[PROMTEXT_NUM_LEN], uint64_t ns)
{
	int len = snprintf(buf, PROMTEXT_NUM_LEN, "%" PRIu64 ".%09" PRIu64,
			   ns / NS_PER_SEC, ns % NS_PER_SEC);

	while (buf[len - 1] == '0')
		len--;
	if (buf[len - 1] == '.')
		len--;
	buf[len] = '\0';
	return buf;
}

char *promtext_le(char buf[PROMTEXT_NUM_LEN], uint64_t ns)
{
	char digits[24];
	int nd, exp;

	if (!ns)
		return strcpy(buf, "0.0");
	nd = snprintf(digits, sizeof(digits), "%" PRIu64, ns);
	exp = nd - 1 - 9;	/* of the first digit, in seconds */
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (exp < -4 || exp >= 6) {
		snprintf(buf, PROMTEXT_NUM_LEN, "%c%s%.*se%c%02d", digits[0],
			 nd > 1 ? "." : "", nd - 1, digits + 1,
			 exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
		return buf;
	}
	promtext_seconds(buf, ns);
	if (!strchr(buf, '.'))
		strcat(buf, ".0");
	return buf;
}
