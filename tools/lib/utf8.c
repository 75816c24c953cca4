// SPDX-License-Identifier: GPL-2.0
/* UTF-8: which bytes make a character (RFC 3629), and its columns on a terminal */
#include <stdint.h>

#include "utf8.h"
#include "util.h"

size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!left)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > left)
		return 0;
	/* the second byte rules out overlong forms, surrogates, > U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < len; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

/* Code point ranges, from Unicode's EastAsianWidth.txt (W, F) in the main */
struct cp_range {
	uint32_t first, last;
};

static const struct cp_range wide[] = {
	{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff },
	{ 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
	{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe30, 0xfe4f },
	{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
	{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
};

/* combining diacritics, zero-width spaces and joiners, variation selectors */
static const struct cp_range zero[] = {
	{ 0x0300, 0x036f }, { 0x200b, 0x200f }, { 0x20d0, 0x20ff },
	{ 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
};

static int in_ranges(uint32_t cp, const struct cp_range *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cp >= r[i].first && cp <= r[i].last)
			return 1;
	return 0;
}

unsigned int utf8_width(const unsigned char *s, size_t len)
{
	static const unsigned char lead_bits[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp;
	size_t i;

	if (len < 2 || len > 4)
		return 1;
	cp = s[0] & lead_bits[len];
	for (i = 1; i < len; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	if (in_ranges(cp, zero, ARRAY_SIZE(zero)))
		return 0;
	return in_ranges(cp, wide, ARRAY_SIZE(wide)) ? 2 : 1;
}
