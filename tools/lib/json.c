// SPDX-License-Identifier: GPL-2.0
/* JSON strings of any bytes; see json.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "utf8.h"

/* A byte that stands as it is: printable ASCII, not special to HTML. */
static bool json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '<' && c != '>' && c != '&';
}

size_t json_escape(char *dst, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, out = 0;

	while (i < len) {
		if (json_plain(p[i])) {
			if (p[i] == '"' || p[i] == '\\')
				dst[out++] = '\\';
			dst[out++] = p[i++];
			continue;
		}
		n = p[i] < 0x80 ? 0 : utf8_len(p + i, len - i);
		if (!n) {
			memcpy(dst + out, "\\u00", 4);
			dst[out + 4] = hex[p[i] >> 4];
			dst[out + 5] = hex[p[i] & 0xf];
			out += 6;
			i++;
			continue;
		}
		memcpy(dst + out, p + i, n);
		out += n;
		i += n;
	}
	return out;
}

void json_put_string(FILE *f, const char *s)
{
	size_t len = strlen(s);
	char *buf = malloc(6 * len + 1);

	fputc('"', f);
	if (buf)
		fwrite(buf, 1, json_escape(buf, s, len), f);
	else
		fputs("(out of memory)", f);
	fputc('"', f);
	free(buf);
}
